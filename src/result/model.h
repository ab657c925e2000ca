/*
 * In-memory form of the results a report is built from: one `struct run` per
 * instance run, read from a `dbrig.result/1` file or, when the run never wrote
 * one, rebuilt from its journal. Nothing here knows about JSON; the readers
 * (read.c, read_tel.c, read_journal.c, read_dir.c) fill these structs, the aggregator and writers only read them.
 *
 * Latencies are milliseconds (double) as in the result file; histograms are
 * kept as `struct hist` so pooled percentiles come from merged buckets.
 */
#ifndef DBRIG_RESULT_MODEL_H
#define DBRIG_RESULT_MODEL_H

#include "core/driveid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hist;

enum result_run_status {
	RESULT_RUN_COMPLETE,    /* result file, status "complete" */
	RESULT_RUN_INTERRUPTED, /* result file, status "interrupted" (Ctrl-C, SIGTERM) */
	RESULT_RUN_FAILED,      /* result file, status "failed" (fatal error) */
	RESULT_RUN_UNFINISHED,  /* journal without an "end" line and no result file */
	RESULT_RUN_NO_RESULT,   /* journal ended, but its result file is missing */
	RESULT_RUN_DEGRADED,    /* result file, status "degraded": ran to the end, but a connection was lost
				   for more than the stated share of the sample ("outage") */
};

enum result_phase {
	RESULT_PHASE_PRECONDITION,
	RESULT_PHASE_SAMPLE,
};

struct type_stat {
	char *name;
	uint64_t count;
	double avg_ms, p90_ms, p99_ms, max_ms;
};

struct phase_stat {
	bool present;          /* false when the phase is null or absent */
	bool complete;
	double seconds;
	int64_t threads;
	uint64_t transactions;
	double tps;
	uint64_t q_read, q_write, q_other, q_total;
	double qps;
	uint64_t err_ignored;  /* errors retried (sysbench "ignored errors") */
	uint64_t err_reconnects;
	uint64_t err_fatal;
	double lat_min_ms, lat_avg_ms, lat_max_ms, lat_sum_ms;
	bool has_p99;
	bool p99_from_hist;    /* p99_ms computed from the histogram: 99 was not among the stored percentiles */
	double p99_ms;         /* this instance's own 99th percentile */
	bool lat_approx;       /* avg/min/max rebuilt from histogram buckets */
	bool has_cpu;          /* format 1.1: the driver's own CPU time in the phase */
	double cpu_s;
	struct hist *hist;     /* NULL when the file carried none */
	size_t ntypes;
	struct type_stat *types;
};

/*
 * Telemetry (result format 1.1, docs/result-format.md): what the campaign's
 * sampler saw while the run went on. Rates are core/sysstat.h's.
 */
struct tel_dev {
	char *name;            /* kernel name, "loop3", "nvme0n1" */
	bool top;              /* the device the drive's filesystem is on; else one beneath it */
	double r_iops, w_iops, f_iops;
	double r_mbps, w_mbps;
	double r_await_ms, w_await_ms, f_await_ms, await_ms;
	double queue_depth;
	bool has_util;         /* a VM's disk seen by the hypervisor has none */
	double util;           /* 0..1 */
};

struct tel_phase {
	bool present;
	double seconds;
	bool has_host;
	double host_busy, host_iowait;   /* 0..1 of all host CPUs */
	char host_source[64];            /* where they came from ("/proc/stat", "libvirt node stats (host h)"), or "" */
	bool has_host_mem;
	double host_mem_used;            /* 0..1 of the hypervisor host's memory */
	size_t ndevs;
	struct tel_dev *devs;
	bool has_driver;
	double driver_cores;             /* the driver's CPU seconds / wall seconds */
	unsigned driver_loops;
	bool has_conn_wait;
	double conn_wait;                /* terminals' wait for a connection / response time */
	bool has_guest;
	double guest_busy;               /* 0..1 of the VM's vCPUs */
	unsigned guest_vcpus;
	bool has_server;
	double server_cores;             /* the database server process (local target) */
	/* Waiting on block I/O (docs/result-format.md): thread-seconds per second. */
	bool delayacct_off;              /* the result says the kernel did not count the server's delays */
	bool has_blkio;
	double blkio_wait;               /* the server's, from delay accounting */
	bool has_psi, psi_cgroup;        /* its I/O pressure; of its own cgroup, or the system's */
	double psi_some, psi_full;       /* 0..1; psi_full < 0: not given */
	bool has_vm_wait;
	double vm_wait;                  /* the VM's disk: its requests' times (libvirt block stats) */
};

struct interval_pt {
	enum result_phase phase;
	double t;              /* seconds since the run started */
	double seconds;        /* length of the interval (the last of a phase may be shorter) */
	double tps;
	bool has_tel;          /* telemetry of the interval */
	bool has_host, has_dev;
	double host_busy;      /* 0..1 */
	double dev_util;       /* the busiest device of the drive, 0..1 */
	double dev_await_ms;   /* of that device */
};

/* One drive of the result's test_bed: identity and SMART health before and after the run. */
struct run_drive {
	struct drive_id id;
	struct drive_health before, after;
};

struct run {
	char *path;            /* relative to the results folder */
	char *journal;         /* relative path of the journal, or NULL */
	bool intervals_in_journal; /* 1.3 "journal": the result left its intervals to its journal */
	bool from_journal;     /* no result file: everything rebuilt from the journal */
	enum result_run_status status;
	char *error;           /* message of an interrupted/failed/degraded run, or NULL */
	double outage_s;       /* "outage.seconds": sample time with a connection lost (0: none) */
	double outage_share;   /* "outage.share" of the sample */
	char *golden_mismatch; /* sysbench: run.golden ("tables=N rows=M …") contradicts workload.params
				  (tables, table_size): what it says, or NULL */
	char *campaign, *run_group, *drive, *instance;
	char *run_id, *run_started; /* 1.2 run.run_id / run_started: the campaign run; "" when absent */
	char *storage;         /* run.storage: the under-test volume, "format=raw allocation=full" (libvirt); "" */
	int64_t vm_count, repetition;
	int64_t steady_window; /* run.steady_window: the campaign's verdict window; 0: none stored */
	char *kind, *test;     /* workload.kind, workload.test */
	char *params;          /* canonical "key=value ..." of workload.params, sorted */
	bool open_loop;        /* rate-limited or think-time: Little's law does not apply */
	char *engine;          /* "driver server_version" */
	char *tool_version;    /* tool.version: the dbrig that measured it, or "" */
	char *started_at, *finished_at; /* UTC, ISO 8601, or "" */
	size_t ndrive_ids;
	struct run_drive *drive_ids; /* test_bed.drives, or NULL */
	struct host_id host;   /* test_bed.host; all empty when not recorded */
	struct phase_stat pre, sample;
	unsigned driver_loops; /* format 1.1 "driver": its event loops (0: not recorded) */
	bool has_tel;          /* the result carries telemetry */
	char *drive_stack;     /* "loop3 (file /x.img) on vda", or NULL */
	unsigned host_cpus;
	struct tel_phase tel_pre, tel_sample;
	size_t nintervals;
	struct interval_pt *intervals;
};

struct run_set {
	size_t n;
	struct run **runs;     /* sorted by path */
	/* Cut-off attempts that `campaign --resume` kept as
	 * <instance>.partial-<n>.json/.jsonl: history, shown apart, never
	 * aggregated (they are not a second run). */
	size_t nsuperseded;
	struct run **superseded; /* sorted by path */
};

const char *run_status_name(enum result_run_status s);
bool run_is_complete(const struct run *r);
void run_free(struct run *r);          /* accepts NULL */
void run_set_free(struct run_set *s);  /* accepts NULL */
void phase_stat_release(struct phase_stat *p);
void tel_phase_release(struct tel_phase *t);

#endif
