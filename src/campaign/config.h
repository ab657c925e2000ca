/*
 * Campaign configuration: one JSON file, every field validated
 * (configs/README.md documents them). An error names the file, the JSON path,
 * the value and what was expected:
 *   dbrig: configs/x.json: .drives[2].path: "/mnt/x" is not a directory
 * campaign_config_load returns 0, or -EINVAL after printing exactly one such
 * line (the caller exits 2), or another negative errno when the file cannot be
 * read.
 */
#ifndef DBRIG_CAMPAIGN_CONFIG_H
#define DBRIG_CAMPAIGN_CONFIG_H

#include "db/engine.h"
#include "target/target.h"
#include "workload/registry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct campaign_placement {
	size_t drive; /* index into drives */
	unsigned count;
};

/*
 * One run group as it runs. A .run_groups entry expands into several: one per
 * drive of "placement": {"each": [...]} (the drives in turn, never at once),
 * and one per value of a swept "vms" or "threads" list; a swept value is part
 * of the name (", 4 VMs", ", 16 threads") so each is its own point.
 */
struct campaign_group {
	char *name;
	char *slug; /* folder name: lower case, [a-z0-9-] */
	char *id;   /* run ids and telemetry files: slug, or "slug@drive" for an "each" group */
	struct campaign_placement *place;
	size_t nplace;
	unsigned instances; /* sum of counts */
	unsigned threads;   /* per instance: the group's "threads", else the campaign's */
	bool threads_set;   /* the group set its own threads */
	bool each;          /* one drive of "placement": {"each": [...]} */
	size_t source;      /* index in .run_groups it was expanded from */
};

/*
 * The top-level fields that change what is measured, each with a digest of its
 * JSON as written (FNV-1a 64 of the compact, key-sorted text; "absent" when
 * the field is not set). state.json keeps them; --resume and --plan refuse a
 * state whose digests differ. description, output, keep, verify_restore and
 * steady_window change nothing measured and are not among them.
 */
#define CAMPAIGN_MEASURED_FIELDS 14
extern const char *const campaign_measured_fields[CAMPAIGN_MEASURED_FIELDS];

struct campaign_config {
	char *file; /* as given, for messages */
	char measured[CAMPAIGN_MEASURED_FIELDS][17]; /* digests, parallel to campaign_measured_fields */
	char *name;

	const struct workload_desc *workload; /* workload/registry.h */
	char *test;                        /* sysbench test, e.g. "oltp_read_write" */
	struct target_kv *wl_options;      /* --key=value for the driver, keys with '-' */
	size_t nwl_options;
	/* The workload's scale options (workload->scale_opts, in their order: sysbench tables and
	 * table-size, tpcc warehouses and terminals), from .workload.options or their defaults;
	 * campaign_scale_value reads one by name. */
	int64_t scale_values[WL_MAX_SCALE_OPTS];
	unsigned scale;                    /* what prepare spreads over its threads: tables or warehouses */

	const struct db_engine *engine;   /* db/engine.h */
	uint64_t buffer_pool;              /* bytes */
	struct target_kv *server_options;  /* engine options, e.g. innodb_flush_log_at_trx_commit */
	size_t nserver_options;

	const struct target_ops *target;
	struct target_setting *target_settings; /* parallel to target->options */

	struct target_drive *drives;
	size_t ndrives;
	unsigned *drive_instances;         /* per drive: the largest count a run group places there */
	struct campaign_group *groups;
	size_t ngroups;

	uint64_t precondition_ns;
	uint64_t sample_ns;
	uint64_t report_interval_ns;
	unsigned repetitions;
	unsigned threads;                  /* per instance; tpcc: connections (the terminals when sessions_per_terminal) */
	bool sessions_per_terminal;        /* tpcc: "sessions": "terminals" (--connections=terminals) */
	uint64_t rate;                     /* sysbench: transactions/s per instance (--rate); 0 = closed loop */
	double *percentiles;
	size_t npercentiles;
	char *output;                      /* results folder; the campaign writes <output>/<name>/ */
	bool verify_restore;               /* compare each restored instance with the golden copy */
	bool keep;                         /* leave instances in place at the end */
	bool delivery_log;                 /* tpcc: every run writes its Delivery log (<run>.dlog) */
	bool telemetry;                    /* sample every run (campaign/runtel.h); false: no sampler */
	unsigned steady_window;            /* rounds of the steady-state verdict, stored in every result */
	long golden_source;                /* "golden": "once": the drive loaded and cloned to the others;
					      -1: "per-drive", every drive loads its own */

	struct target_env env;             /* what the target sees of this campaign (no loader) */
	char *log_dir;                     /* <output>/<name> */
};

int campaign_config_load(const char *file, struct campaign_config **out) __attribute__((warn_unused_result));
void campaign_config_free(struct campaign_config *cfg);

/* Largest count a run group places on drive d (instances the drive needs). */
unsigned campaign_drive_instances(const struct campaign_config *cfg, size_t d);
/* "1.5,99" for --percentile. */
void campaign_percentiles_arg(const struct campaign_config *cfg, struct strbuf *sb);
/* The value of the scale option `name` ("tables", "warehouses"), or of the product "a*b" of two
 * ("tables*table-size"); 0 for another name. */
uint64_t campaign_scale_value(const struct campaign_config *cfg, const char *name);
/* Where that value is kept (NULL for a name that is no scale option of the workload). */
int64_t *campaign_scale_ref(struct campaign_config *cfg, const char *name);
/* One of the workload's texts (golden_load_text, ...) with its "{option}",
 * "{a*b}", "{test}" and "{threads}" replaced by this campaign's values. */
void campaign_workload_text(const struct campaign_config *cfg, const char *tmpl, struct strbuf *out);

#endif
