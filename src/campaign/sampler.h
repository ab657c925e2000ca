/*
 * The campaign's sampler: ONE thread per campaign process that reads, at
 * every report interval, the host CPU counters (/proc/stat), the counters of
 * the drives' block devices (/proc/diskstats, one read for all), the CPU time
 * of the processes it was given (drivers, local database servers:
 * /proc/PID/stat) with their waiting on block I/O (delay accounting summed over
 * their threads, when the kernel counts it, and the I/O pressure of their
 * cgroup or of the system: core/sysstat.h) and, through the target, the VMs'
 * block and vCPU counters.
 * Readings go into a result/telemetry.h series, stamped with CLOCK_MONOTONIC.
 *
 * Life cycle: sampler_start takes the first reading in the caller's thread,
 * then starts the thread, which reads at start + k * interval (absolute
 * deadlines: no drift, never early); sampler_stop wakes it, takes a last
 * reading, joins it and hands the series over. The thread blocks every signal
 * (SIGINT and SIGTERM stay the campaign's) and never touches the series after
 * stop. A source that cannot be read at one reading (a device gone, a process
 * ended, a VM that does not answer) leaves that part of the reading empty;
 * the sampler goes on.
 *
 * Cost: per reading, two /proc files, per process its stat, one small file
 * per thread (delay accounting on) and its io.pressure, and one call to the
 * target; nothing in the drivers' processes.
 */
#ifndef DBRIG_CAMPAIGN_SAMPLER_H
#define DBRIG_CAMPAIGN_SAMPLER_H

#include "core/blockdev.h"
#include "core/sysstat.h"
#include "result/telemetry.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sampler_guests {
	size_t n;
	void *arg;
	/* Fill out[0..n), in the sampler thread; 0 or -errno (then no guest data this time). */
	int (*read)(void *arg, struct sysstat_guest *out, size_t n);
};

struct sampler_nodes {
	size_t n;
	void *arg;
	/* Fill *out for host i, in the sampler thread; 0 or -errno (then nothing of it this time). */
	int (*read)(void *arg, size_t i, struct sysstat_node *out);
};

struct sampler_spec {
	uint64_t interval_ns;             /* > 0 */
	const struct blockdev *devs;
	size_t ndevs;
	const pid_t *pids;
	size_t npids;
	struct sampler_guests guests;     /* n == 0: none */
	struct sampler_nodes nodes;       /* n == 0: none */
	const char *diskstats, *stat;     /* NULL: /proc/diskstats, /proc/stat */
	const char *delayacct;            /* NULL: /proc/sys/kernel/task_delayacct */
	/* After each reading, in the sampler thread (the telemetry journal); may be NULL. */
	void (*on_reading)(void *arg, const struct tel_series *s, size_t k);
	void *arg;
};

struct sampler;

int sampler_start(struct sampler **out, const struct sampler_spec *spec) __attribute__((warn_unused_result));
/* Stop, join, and move the readings into `out` (release it with tel_series_release). Accepts NULL. */
void sampler_stop(struct sampler *sm, struct tel_series *out);

#endif
