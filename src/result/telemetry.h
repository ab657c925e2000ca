/*
 * The telemetry of one campaign run, from the sampler's readings to the
 * "telemetry" of result format 1.1 (docs/result-format.md).
 *
 * A series holds the readings of one run, each stamped with CLOCK_MONOTONIC
 * (which every process of the machine shares, so a driver's clock and the
 * sampler's line up): the host CPU counters, the counters of every block device
 * sampled, the CPU time of every process sampled (drivers, local database
 * servers) with its waiting on block I/O (delay accounting, I/O pressure:
 * tel_pid_io) and the counters of every VM (libvirt). Counters between two
 * readings are interpolated linearly, so the rates over any span (a phase, a
 * driver's report interval) come from the counters at its two ends, never
 * from whole sampler ticks that straddle it.
 *
 * tel_write reads one instance's result file (never writing it: the driver
 * is its one writer) and writes, atomically, the instance's telemetry file
 * beside it (<instance>.telemetry.json, TELEMETRY_SCHEMA of result/result.h):
 * the telemetry of its spans, its phases (precondition, sample) as the
 * result's own phase lengths say and each of its intervals, and the test bed.
 * The reader merges it into the run (results_merge_telemetry, result/read.h).
 * The driver's CPU is its own account (rusage, in the result) when the result
 * has one, the sampler's reading of its process otherwise.
 *
 * tel_journal_open and tel_journal_write (tel_journal.c) keep the run's raw
 * readings, one JSON line each, as the sampler takes them.
 *
 * Not thread-safe: the sampler fills a series (and journals each reading
 * from its thread), the campaign reads it after sampler_stop.
 */
#ifndef DBRIG_RESULT_TELEMETRY_H
#define DBRIG_RESULT_TELEMETRY_H

#include "core/blockdev.h"
#include "core/sysstat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct strbuf;

/* A process's waiting on block I/O (core/sysstat.h), in seconds; < 0: not read. */
struct tel_pid_io {
	double blkio_s;                   /* delay accounting, summed over its threads */
	double psi_some_s, psi_full_s;    /* I/O pressure totals of its source (tel_pid_src) */
};

/* Where a process's waiting comes from, decided when the sampling starts. */
struct tel_pid_src {
	int delayacct;                    /* sysstat_delayacct_on: 1 on, 0 off, < 0 unknown */
	int psi_scope;                    /* 1: its cgroup's io.pressure, 0: the system's, < 0: none */
	char psi_path[256];
};

struct tel_reading {
	uint64_t mono_ns;
	bool has_cpu;
	struct sysstat_cpu cpu;           /* the host */
	struct sysstat_disk *disks;       /* [series.ndevs]; has_disks false: unreadable this time */
	bool has_disks;
	double *pid_cpu_s;                /* [series.npids]; < 0: the process was gone or unreadable */
	struct tel_pid_io *pid_io;        /* [series.npids] */
	struct sysstat_guest *guests;     /* [series.nguests] */
	struct sysstat_node *nodes;       /* [series.nnodes]: the hypervisor hosts (libvirt node calls) */
};

struct tel_series {
	size_t ndevs;
	struct blockdev *devs;
	size_t npids;
	pid_t *pids;
	struct tel_pid_src *pid_src;      /* [npids]; delayacct and psi_scope -1 until set */
	size_t nguests;
	size_t nnodes;
	unsigned host_cpus;
	size_t n, cap;
	struct tel_reading *v;
};

/* An empty series for these sources (copied). */
void tel_series_init(struct tel_series *s, const struct blockdev *devs, size_t ndevs, const pid_t *pids,
		     size_t npids, size_t nguests);
/* The series reads nnodes hosts too (before its first reading). */
void tel_series_nodes(struct tel_series *s, size_t nnodes);
/* A new reading at the end, zeroed but for its arrays; valid until the next call. */
struct tel_reading *tel_series_add(struct tel_series *s, uint64_t mono_ns);
void tel_series_release(struct tel_series *s);

/* What belongs to one instance, as indices into the series (-1: none). */
struct tel_instance {
	const char *drive_path;           /* for the record; may be NULL */
	const char *drive_stack;          /* blockdev_chain_describe of the drive; may be NULL */
	const size_t *devs;               /* the drive's devices, the one its filesystem is on first */
	size_t ndevs;
	int driver_pid;                   /* its driver process, when its result has no CPU of its own */
	unsigned driver_loops;            /* its event loops; 0: as the result says */
	int server_pid;                   /* its database server process (local target) */
	int guest;                        /* its VM (libvirt) */
	unsigned guest_vcpus;
	const char *guest_disk;           /* how its under-test disk is named among the devices ("i1:sdc") */
	bool has_node;                    /* it has a hypervisor host among the series' nodes: */
	size_t node;                      /* that one */
	const char *node_name;            /* that host's name in the config */
	bool node_here;                   /* that host is this machine: /proc/stat stands in when it gives no CPU */
	uint64_t start_ns;                /* CLOCK_MONOTONIC at the driver's t = 0; 0: as the result says */
	const char *test_bed;             /* the result's "test_bed" as JSON text: {"host": ..., "drives": [...]}
					   * (core/driveid.h); may be NULL */
};

/* Write the instance's telemetry, from the result at result_path, to out_path
 * (atomically). 0, or -errno with one line in err (an unreadable result, no
 * readings over its spans, an unwritable file). */
int tel_write(const char *result_path, const char *out_path, const struct tel_series *s, const struct tel_instance *in,
	      struct strbuf *err) __attribute__((warn_unused_result));

/* The run's telemetry journal at path, opened to append (never through a link,
 * never a FIFO); NULL with one line in err. The caller fcloses it. */
FILE *tel_journal_open(const char *path, struct strbuf *err);
/* Reading k of the series as one line of f, flushed; guest_names[i] and
 * node_names[i] name its VMs and hypervisor hosts. Nothing when f is NULL. */
void tel_journal_write(FILE *f, const struct tel_series *s, size_t k, const char *const *guest_names,
		       const char *const *node_names);

/* Counters at time t, interpolated between the readings around it (clamped to
 * the first and last). False when the series has no reading. Exposed for tests. */
bool tel_disk_at(const struct tel_series *s, size_t dev, uint64_t t, struct sysstat_disk *out);
bool tel_cpu_at(const struct tel_series *s, uint64_t t, struct sysstat_cpu *out);
/* The same of node `node`'s CPU. */
bool tel_node_cpu_at(const struct tel_series *s, size_t node, uint64_t t, struct sysstat_cpu *out);

#endif
