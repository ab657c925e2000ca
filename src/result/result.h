/*
 * The result file (dbrig.result/1) and the interval journal (dbrig.journal/1);
 * the formats are specified in docs/result-format.md. write.c builds the
 * result, journal.c the journal; read.c (with read_tel.c,
 * read_journal.c, read_dir.c) and tail.c read both back.
 */
#ifndef DBRIG_RESULT_RESULT_H
#define DBRIG_RESULT_RESULT_H

#include <stdbool.h>
#include <stdint.h>

struct interval_report;
struct phase_report;

/* 1.1: the driver's own CPU (phases, intervals, "driver") and the campaign's telemetry.
 * 1.2: run.run_id and run.run_started, the campaign run (also in the journal header's "run").
 * 1.3: "journal", the journal beside the result that holds its intervals, which the result then leaves out. */
#define RESULT_FAMILY "dbrig.result/"
#define JOURNAL_FAMILY "dbrig.journal/"
/* A campaign's telemetry of one instance run, beside its result (result/telemetry.h). */
#define TELEMETRY_FAMILY "dbrig.telemetry/"
/* The major version this dbrig reads (any 1.x), as messages name it. */
#define RESULT_MAJOR RESULT_FAMILY "1"
#define JOURNAL_MAJOR JOURNAL_FAMILY "1"
#define TELEMETRY_MAJOR TELEMETRY_FAMILY "1"
/* What every writer of results (write.c), journals (journal.c, write.c) and telemetry files (telemetry.c) stamps. */
#define RESULT_SCHEMA RESULT_FAMILY "1.3"
#define JOURNAL_SCHEMA JOURNAL_FAMILY "1.2"
#define TELEMETRY_SCHEMA TELEMETRY_FAMILY "1.0"
/* <instance>.json's telemetry file: <instance>.telemetry.json. */
#define TEL_FILE_SUFFIX ".telemetry.json"

/* Percentiles a run records (--percentile, a campaign's .percentiles). */
#define RESULT_MAX_PERCENTILES 8

struct run_identity {
	const char *campaign, *run_group, *drive, *instance;
	unsigned vm_count, repetition;
	unsigned steady_window; /* stored as run.steady_window when not 0 */
	const char *golden; /* the golden copy's fingerprint (a campaign's runs), or NULL / "" */
	const char *run_id, *run_started; /* the campaign run (1.2: run.run_id, run.run_started), or NULL / "" */
	const char *storage; /* the under-test volume: "format=raw allocation=full" (libvirt), or NULL / "" */
};

struct result;

int result_new(struct result **out, const char *kind, const char *test) __attribute__((warn_unused_result));
void result_free(struct result *r);
void result_set_run(struct result *r, const struct run_identity *id);
void result_param_int(struct result *r, const char *key, long long v);
/* A count the workload measured (workload.counts): results that differ in it still form one group. */
void result_count_int(struct result *r, const char *key, long long v);
void result_param_double(struct result *r, const char *key, double v);
void result_param_bool(struct result *r, const char *key, bool v);
void result_param_str(struct result *r, const char *key, const char *v);
void result_set_engine(struct result *r, const char *driver, const char *server_version, const char *endpoint,
		       const char *database);
void result_set_percentiles(struct result *r, const double *p, unsigned n);
/* engine.settings: what the server was (name -> value), read from it. */
void result_set_engine_settings(struct result *r, const char *const *names, const char *const *values, unsigned n);
void result_set_types(struct result *r, const char *const *names, unsigned n);

/* A consistency check's outcome (TPC-C clause 3.3.2), stored under
 * "consistency"."when" ("before" or "after" the run). */
struct result_check_cond {
	unsigned number;
	bool applies;
	long long bad, checked;
	const char *text, *unit;
};
void result_set_consistency(struct result *r, const char *when, const struct result_check_cond *conds, unsigned n,
			    const char *const *table_names, const long long *rows, unsigned ntables);

/* Record an interval (kept in the result, and returned as a journal line
 * with its histogram when `line` is not NULL; free with free()). */
void result_add_interval(struct result *r, const struct interval_report *ir, char **line);
void result_set_phase(struct result *r, const struct phase_report *pr);
/* The driver itself: its event loops (connections, when they block) and the
 * CLOCK_MONOTONIC instant of t = 0, which a campaign's sampler aligns on. */
void result_set_driver(struct result *r, unsigned loops, bool blocking, uint64_t start_ns);
/* "outage": {"seconds", "share" of the sample, "degraded_above"}: the sample time a connection was lost. */
void result_set_outage(struct result *r, uint64_t outage_ns, uint64_t sample_ns);

/* The result leaves its intervals to its journal `name` (a file name, beside the result as
 * <result stem>.jsonl, that holds every one of them): written as "journal", "intervals" left out. */
void result_intervals_in_journal(struct result *r, const char *name);
/* Whether journal_path is result_path's journal by name: "x.json" and "x.jsonl". */
bool result_journal_beside(const char *result_path, const char *journal_path);

/* Write atomically. status: "complete", "interrupted" or "failed". Returns 0 or -errno. */
int result_write(struct result *r, const char *path, const char *status, const char *error)
	__attribute__((warn_unused_result));

/* The journal: header line at open, interval lines as they come, end line. */
struct journal;
int journal_open(struct journal **out, const char *path, const struct result *r) __attribute__((warn_unused_result));
int journal_append(struct journal *j, const char *line) __attribute__((warn_unused_result));
int journal_close(struct journal *j, const char *status); /* accepts NULL */
/* The journal's header line for r (schema, run, workload, engine, percentiles);
 * free with free(); NULL when out of memory. */
char *result_journal_header(const struct result *r);

/* Format helper shared by writers: percentile key as in "99", "99.9". */
void percentile_key(double p, char *buf, unsigned n);

#endif
