/*
 * What limited a run: the bottleneck and driver-saturation rules, as pure
 * functions of the telemetry of one phase (docs/reading-reports.md states
 * them for users). Inputs are fractions 0..1 and plain figures; absent
 * telemetry is flagged, never guessed.
 *
 * Driver saturation (the harness must never be the silent bottleneck):
 *   cpu          the driver process used >= 0.90 core per event loop: its
 *                loops cannot issue transactions faster
 *   connections  terminals (TPC-C) spent >= 10% of their response time
 *                waiting for a free connection: the pool is too small
 * Bottleneck, first rule that holds:
 *   1. driver     the driver is saturated (either way above)
 *   2. host CPU   host CPUs >= 90% busy: the drive's differences are
 *                 understated, whatever the drive shows
 *   3. guest CPU  the busiest VM's vCPUs >= 90% busy (libvirt)
 *   4. drive      the busiest device of the drive (its own or one beneath it)
 *                 >= 80% utilised: transactions waited on the drive
 *   5. storage path  the server (local: delay accounting, else its own
 *                 cgroup's I/O pressure) or the VM's disk (libvirt block
 *                 stats, QEMU's throttling included) spent >= 0.30 of the
 *                 phase's wall time waiting on block I/O, summed over its
 *                 threads or requests: storage that waits without looking
 *                 busy (an IOPS cap: cgroup throttle, <iotune>, QoS)
 *   6. unknown    nothing above holds or no telemetry: the load is bound by
 *                 something dbrig does not see (locks, network, too few
 *                 threads to load the drive)
 * Rules 2-5 also set `busy` flags for every resource over its limit, so a
 * report can say "host CPU (drive also 95% utilised)".
 */
#ifndef DBRIG_STATS_VERDICT_H
#define DBRIG_STATS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define VERDICT_CPU_BUSY 0.90
#define VERDICT_DRIVE_UTIL 0.80
#define VERDICT_DRIVER_LOOP_BUSY 0.90
#define VERDICT_CONN_WAIT 0.10
#define VERDICT_IO_WAIT 0.30

enum bottleneck {
	BOTTLENECK_DRIVE,
	BOTTLENECK_HOST_CPU,
	BOTTLENECK_GUEST_CPU,
	BOTTLENECK_DRIVER,
	BOTTLENECK_STORAGE_PATH,
	BOTTLENECK_UNKNOWN,
};

/* Which signal measured the waiting on block I/O. */
enum io_wait_source {
	IO_WAIT_DELAYACCT,        /* the server's threads, per-task delay accounting */
	IO_WAIT_PSI_CGROUP,       /* the I/O pressure ("some") of the server's own cgroup */
	IO_WAIT_VM_DISK,          /* the VM's under-test disk, libvirt block stats */
};

struct verdict_in {
	bool has_host_cpu;
	double host_cpu_busy;     /* 0..1 of all host CPUs */
	const char *host_cpu_src; /* where it was read ("/proc/stat", "libvirt node stats (host h)"), or NULL */
	bool has_guest_cpu;
	double guest_cpu_busy;    /* 0..1 of the busiest instance's vCPUs */
	bool has_driver_cpu;
	double driver_cores;      /* CPU seconds / wall seconds of the busiest driver */
	unsigned driver_loops;    /* its event loops (threads, when blocking) */
	bool has_conn_wait;
	double conn_wait_share;   /* wait for a connection / response time, 0..1 */
	bool has_drive;
	double drive_util;        /* 0..1, the busiest device of the drive */
	double drive_await_ms;    /* of that device */
	double drive_queue_depth;
	const char *drive_device; /* its kernel name, for explanations; may be NULL */
	bool has_io_wait;
	double io_wait;           /* seconds waiting on block I/O per second of the phase (summed, may be > 1) */
	enum io_wait_source io_wait_src;
	bool io_wait_off;         /* not measured: the kernel's delay accounting is off */
};

struct verdict_driver {
	bool saturated;
	bool cpu;                 /* per-loop CPU over the limit */
	bool connections;         /* connection wait over the limit */
	double per_loop;          /* driver_cores / driver_loops */
};

struct verdict {
	enum bottleneck bottleneck;
	struct verdict_driver driver;
	bool host_cpu_busy, guest_cpu_busy, drive_busy, io_wait_busy;
};

struct verdict_driver verdict_driver_saturation(const struct verdict_in *in);
struct verdict verdict_decide(const struct verdict_in *in);

/* The worse of two inputs, field by field (max of each figure, union of what
 * is present): the group of several instances or devices. */
void verdict_in_merge(struct verdict_in *acc, const struct verdict_in *in);

/* "drive", "host CPU", "guest CPU", "driver", "storage path", "unknown". */
const char *bottleneck_name(enum bottleneck b);

/* One line that names the rule that decided and the figures behind it, e.g.
 * "host CPU 97% busy (>= 90%); drive loop1 also 93% utilised". */
/* The drive or the path to it limited the run: what a drive comparison measures (no warning). */
bool bottleneck_is_storage(enum bottleneck b);

/* "delay accounting", "cgroup I/O pressure", "libvirt block stats". */
const char *io_wait_source_name(enum io_wait_source s);

void verdict_explain(const struct verdict_in *in, const struct verdict *v, char *buf, size_t n);

#endif
