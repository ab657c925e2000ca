/*
 * What `dbrig sysbench` and `dbrig tpcc` share on their command lines: option
 * rows (each command embeds the structs below in its own option struct and
 * puts the rows in its table where its --help shows them), the drivers' own
 * option rows (each driver's table, appended with cli_add_driver_rows),
 * --percentile, and where a password comes from.
 *
 *   struct sb_cli { ...; struct cli_driver_opts my; struct cli_run_opts run; };
 *   static const struct opt_def rows[] = {
 *           CLI_RUN_RECORD_ROWS(struct sb_cli, run, "dbrig additions"),
 *           CLI_RUN_IDENTITY_ROWS(struct sb_cli, run, "dbrig additions"),
 *   };
 */
#ifndef DBRIG_CLI_COMMON_OPTS_H
#define DBRIG_CLI_COMMON_OPTS_H

#include "core/opt.h"
#include "db/db.h"
#include "result/result.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_identity;

/* One driver's options blob inside a command's option struct: the driver's
 * rows (struct db_driver_ops.options) point into `blob`. */
struct cli_driver_opts {
	const struct db_driver_ops *drv; /* NULL: an unused slot */
	_Alignas(max_align_t) unsigned char blob[DB_OPTIONS_MAX];
};
#define CLI_MAX_DRIVERS 4

/* A command's own wording of a driver's row: its help line and/or default
 * (NULL: the driver's). */
struct cli_row_override {
	const char *name, *def, *help;
};

/*
 * Append the rows of d's option table to defs (*n rows so far, room for cap)
 * for a command whose option struct holds `slot` at byte `slot_offset`:
 * the rows whose DB_OPT_DBRIG bit is `dbrig` (a command that lists dbrig's
 * additions in a section of their own adds them in a second call), without
 * the rows that have a flag of `drop` (dbrig tpcc takes no OPT_SECRET from
 * the command line), with `ov`'s words, and `dbrig_group` (when not NULL) as
 * the heading of the DB_OPT_DBRIG rows. Sets slot->drv. A table that does not
 * fit is a bug here and aborts.
 */
void cli_add_driver_rows(struct opt_def *defs, size_t *n, size_t cap, const struct db_driver_ops *d,
			 struct cli_driver_opts *slot, size_t slot_offset, bool dbrig, unsigned drop,
			 const struct cli_row_override *ov, size_t nov, const char *dbrig_group);

/* Where a run's records go and who it is: --result, --journal, --event-loops,
 * --reconnect-timeout, --run-*. */
struct cli_run_opts {
	const char *result, *journal;
	unsigned event_loops;
	uint64_t reconnect_timeout_ns;
	const char *run_campaign, *run_group, *run_drive, *run_instance, *run_golden, *run_storage;
	const char *run_id, *run_started; /* the campaign run's identity; "": none */
	unsigned run_vm_count, run_repetition;
	unsigned run_steady_window; /* 0: not a campaign run (nothing stored) */
};


#define CLI_RUN_RECORD_ROWS(type, m, group)                                                                            \
	{"result", NULL, OPT_STRING, offsetof(type, m.result), NULL,                                                   \
	 "write the result (" RESULT_SCHEMA " JSON) to this file, atomically", 0, 0, group, 0},                           \
	{"journal", NULL, OPT_STRING, offsetof(type, m.journal), NULL,                                                 \
	 "append one JSON line per report interval to this file, flushed as it happens (as x.jsonl beside "          \
	 "--result=x.json it holds the result's intervals, which the result then leaves out)", 0, 0, group, 0},       \
	{"event-loops", NULL, OPT_UINT, offsetof(type, m.event_loops), "0",                                            \
	 "OS threads that serve the connections; 0 = one per CPU (ODBC: one per connection)", 0, 1024, group, 0},      \
	{"reconnect-timeout", NULL, OPT_DURATION, offsetof(type, m.reconnect_timeout_ns), "60",                        \
	 "how long a lost server may stay away before the run fails", 0, 0, group, 0}

#define CLI_RUN_IDENTITY_ROWS(type, m, group)                                                                          \
	{"run-campaign", NULL, OPT_STRING, offsetof(type, m.run_campaign), "",                                         \
	 "run identity stored in the result: campaign name", 0, 0, group, 0},                                          \
	{"run-group", NULL, OPT_STRING, offsetof(type, m.run_group), "", "run identity: run group", 0, 0, group, 0},   \
	{"run-drive", NULL, OPT_STRING, offsetof(type, m.run_drive), "", "run identity: drive", 0, 0, group, 0},       \
	{"run-instance", NULL, OPT_STRING, offsetof(type, m.run_instance), "", "run identity: instance (VM)", 0, 0,   \
	 group, 0},                                                                                                    \
	{"run-vm-count", NULL, OPT_UINT, offsetof(type, m.run_vm_count), "1",                                          \
	 "run identity: instances running at once in the run group", 1, 100000, group, 0},                             \
	{"run-repetition", NULL, OPT_UINT, offsetof(type, m.run_repetition), "1", "run identity: repetition number", \
	 1, 100000, group, 0},                                                                                         \
	{"run-steady-window", NULL, OPT_UINT, offsetof(type, m.run_steady_window), "0",                               \
	 "rounds of the steady-state verdict the report judges this run with (a campaign's steady_window; 0: none)",   \
	 0, 1000000, group, 0},                                                                                        \
	{"run-golden", NULL, OPT_STRING, offsetof(type, m.run_golden), "",                                             \
	 "run identity: fingerprint of the golden copy the database was restored from", 0, 0, group, 0},             \
	{"run-storage", NULL, OPT_STRING, offsetof(type, m.run_storage), "",                                           \
	 "test bed: the under-test volume's format and allocation (a libvirt campaign's disk_format, allocation)",    \
	 0, 0, group, 0},                                                                                        \
	{"run-id", NULL, OPT_STRING, offsetof(type, m.run_id), "",                                                     \
	 "run identity: the campaign run's id (made when it starts; dbrig report never adds up different ones)", 0, 0, \
	 group, 0},                                                                                                    \
	{"run-started", NULL, OPT_STRING, offsetof(type, m.run_started), "",                                           \
	 "run identity: when the campaign run started (ISO 8601 UTC)", 0, 0, group, 0}

/* The run identity the result records (strings borrowed from o). */
void cli_run_identity(const struct cli_run_opts *o, struct run_identity *id);

/* --percentile: "95" or "50,95,99", numbers from 0 to 100, at most
 * RESULT_MAX_PERCENTILES; 0 disables percentiles (is skipped). Returns 0, or -1
 * after logging the error line. */
int cli_parse_percentiles(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
	__attribute__((warn_unused_result));
/* The same without the error line (the caller words it: dbrig sysbench). */
int cli_parse_percentiles_quiet(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
	__attribute__((warn_unused_result));

/* The first line of a password file (`opt` names the option in messages), with
 * a warning when the file is readable by group or others. NULL after one error
 * line. Both are "dbrig: ..." on stderr even inside dbrig sysbench: the
 * password file is dbrig's addition. */
char *cli_read_password_file(const char *opt, const char *path);

/*
 * A password from, in this order: `given` (an option's value, already copied
 * out of argv), the file of option `file_opt` (when `file` is set), the
 * environment variable `env`. *out is a copy to free with
 * cli_password_free(), or NULL when none was given. Returns 0, or -1 after one
 * error line (an unreadable file).
 */
int cli_password(const char *given, const char *file_opt, const char *file, const char *env, char **out)
	__attribute__((warn_unused_result));
/* Overwrite and free; accepts NULL. */
void cli_password_free(char *password);

#endif
