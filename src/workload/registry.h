/*
 * The workloads, as one registered table (like the db drivers, targets and
 * report writers): what a command runs and what a campaign needs to know to
 * run it as a child `dbrig <name> …` (its database, tests and option names).
 *
 * The entry points share one signature. `ctx` is what the workload's command
 * built from its options (struct sb_opts, struct tpcc_ctx), the same pointer
 * the runner gets as wl_ctx. Each opens its own connections and prints its
 * own progress; it returns 0, or <0 after one error line; check returns 1
 * when a consistency condition fails (its line printed).
 *
 * A campaign includes this header for the data (names, databases, tests,
 * option names), never to call the entry points: it runs the commands.
 */
#ifndef DBRIG_WORKLOAD_REGISTRY_H
#define DBRIG_WORKLOAD_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

struct db_conn_params;
struct db_driver_ops;
struct jsonr;
struct json_t;
struct strbuf;
struct workload_ops;

struct wl_load_stats {
	uint64_t rows;
	double seconds;
	char note[160]; /* what else the load drew, e.g. TPC-C's C-load constants ("" if nothing) */
};

/* The ranges of the workloads' scale options, defined once: the commands'
 * option rows and a campaign's check of .workload.options both use them, so a
 * campaign refuses what its child `dbrig <workload>` would refuse. */
#define WL_SB_TABLES_MIN 1
#define WL_SB_TABLES_MAX 1000000
#define WL_SB_TABLE_SIZE_MIN 1 /* a campaign's runs read rows (the command takes 0 for an insert-only run) */
#define WL_SB_TABLE_SIZE_MAX INT64_C(2000000000)
#define WL_TPCC_WAREHOUSES_MIN 1
#define WL_TPCC_WAREHOUSES_MAX 100000
#define WL_TPCC_TERMINALS_MIN 0 /* 0: ten per warehouse */
#define WL_TPCC_TERMINALS_MAX 1000000

/* A scale option a campaign reads from .workload.options: it shapes the
 * golden copy, so the campaign checks it before any child runs. */
struct workload_scale_opt {
	const char *name; /* the option, as the command spells it ("table-size") */
	int64_t min, max; /* what a campaign accepts */
	int64_t dflt;     /* the command's default, which a campaign without the option gets */
};
/* The most scale options a workload has (a campaign keeps their values in an array). */
#define WL_MAX_SCALE_OPTS 4

struct workload_desc {
	const char *name;               /* the command (`dbrig sysbench`) and a campaign's .workload.kind */
	const char *display;            /* its name in prose ("TPC-C") */
	const char *summary;
	const char *database;           /* the default database of its tables */
	const char *const *tests;       /* its tests (NULL-terminated); NULL: one test, named like the workload */
	const char *connections_option; /* the run option that sets an instance's connections ("threads") */
	const char *scale_option;       /* what prepare spreads over its --threads ("tables", "warehouses") */
	const struct workload_scale_opt *scale_opts; /* its scale options, ended by a NULL name */
	const char *rate_option;        /* its open-loop rate option ("rate"); NULL: it paces itself */
	const char *pacing;             /* how it paces itself instead, for messages (when rate_option is NULL) */
	/* Its run's consistency-check option ("check"): a campaign passes
	 * --<it>=after to every run (the outcome goes into the result) and
	 * refuses it as a workload option; NULL: the run has none. */
	const char *check_option;
	const struct workload_ops *ops; /* the run's steps */
	bool mysql_only;                /* speaks the MySQL protocol only (engines with another one cannot run it) */

	/* What a campaign and a report ask of it by name. */
	const char *title;              /* its name over a report's rows ("sysbench OLTP") */
	const char *default_test;       /* the test a leaderboard protocol means when it names none */
	/* The transaction type a per-minute figure counts (tpmC: "new_order"; its
	 * intended rollbacks are "<it>_rollback"); NULL: the workload has none. */
	const char *tpm_type;
	const char *const *scale_params; /* its result params that give the data's scale (NULL-terminated) */
	/* The result param that counts users with think times ("terminals"), also
	 * the scale option that sets them (0: users_per_scale per unit of
	 * scale_option); NULL: its threads are a closed loop. */
	const char *users_param;
	unsigned users_per_scale;
	/* What its loaded data takes on disk, estimated for a campaign's plan:
	 * data_unit_bytes per unit of data_scale (a scale option, or a product
	 * "a*b" of two), measured on MariaDB 10.11 (workload/registry.c). */
	const char *data_scale;
	uint64_t data_unit_bytes;
	/* Its check's fingerprint starts "tables=N rows=M", which a result's
	 * params (tables, table_size) must match. */
	bool fingerprint_tables_rows;
	bool delivery_log;              /* its run writes a Delivery log (a campaign's delivery_log) */
	bool terminal_sessions;         /* a campaign may open one session per terminal ("sessions": "terminals") */
	/* The golden copy. Its identity is the workload's name, its test when
	 * golden_names_test, then golden_keys as key=value ('-' written '_'),
	 * then every other option that shapes the data. The texts are what a
	 * campaign prints of it, "{option}" standing for a scale option's value,
	 * "{a*b}" for a product, "{test}" and "{threads}" for the campaign's. */
	bool golden_names_test;
	const char *const *golden_keys; /* NULL-terminated */
	const char *golden_load_text;   /* "loading <it>" */
	const char *golden_size_text;   /* the plan's "golden    <it>, loaded N time(s)" */
	const char *plan_text;          /* the plan's "workload  <it>" */

	int (*prepare)(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp, unsigned threads,
		       struct wl_load_stats *st) __attribute__((warn_unused_result));
	int (*cleanup)(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp)
		__attribute__((warn_unused_result));
	/* The consistency checks and the fingerprint a restore must reproduce (one line, into fp). */
	int (*check)(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp, struct strbuf *fp)
		__attribute__((warn_unused_result));
};

extern const struct workload_desc workload_sysbench, workload_tpcc;
/* The registry, NULL-terminated. */
extern const struct workload_desc *const workloads[];

const struct workload_desc *workload_find(const char *name);
/* "sysbench or tpcc" for messages. */
void workload_names(struct strbuf *sb);
/* The names each between `quote`s, separated by sep, the last two by last ("\"sysbench\" or \"tpcc\"",
 * "sysbench|tpcc"): a message's list of what is expected, from the registry. */
void workload_list(struct strbuf *sb, const char *quote, const char *sep, const char *last);
/* wd's scale option called `name`, or NULL. */
const struct workload_scale_opt *workload_scale_opt(const struct workload_desc *wd, const char *name);
/* Is `test` one of wd's tests (or, for a one-test workload, its name)? */
int workload_has_test(const struct workload_desc *wd, const char *test);

/* For a kind read from a file (NULL or false when no workload is called that):
 * its tpm_type, whether `key` is one of its scale_params, whether it has users. */
const char *workload_tpm_type(const char *kind);
bool workload_scale_param(const char *kind, const char *key);
bool workload_has_users(const char *kind);
/* A file's reader refuses a kind that is no workload (v: its value at path.key): "… (expected \"sysbench\"
 * or \"tpcc\")", the registered names. */
void workload_kind_fail(struct jsonr *jr, const char *path, const char *key, const struct json_t *v);

#endif
