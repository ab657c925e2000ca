/*
 * Host counters and the rates between two readings of them:
 * /proc/diskstats (per block device), /proc/stat (all CPUs), /proc/PID/stat
 * (one process's CPU time).
 *
 * Disk rates between readings a and b, `seconds` apart (D = b - a):
 *   r_iops, w_iops, f_iops  D(reads | writes | flushes completed) / seconds
 *   r_mbps, w_mbps          D(sectors) * 512 / 10^6 / seconds   (MB/s, decimal)
 *   r_await_ms, w_await_ms, f_await_ms
 *                           D(ms spent on them) / D(completed): the mean time
 *                           from issue to completion, queueing in the block
 *                           layer included (iostat's r_await / w_await)
 *   await_ms                the same over reads and writes together: the
 *                           drive's "service time per I/O" in dbrig's reports
 *   queue_depth             D(weighted ms in queue) / elapsed ms: the mean
 *                           number of requests in flight (iostat's aqu-sz)
 *   util                    D(ms with at least one request in flight) /
 *                           elapsed ms, 0..1 (iostat's %util / 100). A drive
 *                           that serves many requests at once can show 100%
 *                           and still have headroom: read it with queue depth
 *                           and latency.
 * A counter that went backwards wrapped at 2^32 (32-bit kernels' fields) and is
 * taken modulo 2^32; the fields a kernel does not print (discards before 4.18,
 * flushes before 5.5) read as 0.
 *
 * CPU (from the aggregate "cpu" line, in clock ticks):
 *   busy   D(user + nice + system + irq + softirq + steal) / D(all eight)
 *   iowait D(iowait) / D(all eight)
 *   busy_cores = busy * ncpu
 * Guest time is already inside user and nice; steal counts as busy (the CPU
 * was not ours to use).
 *
 * A VM (libvirt domain stats, read by the libvirt target) between readings:
 *   r_iops, w_iops, f_iops  D(requests) / seconds
 *   r_mbps, w_mbps          D(bytes) / 10^6 / seconds
 *   *_await_ms              D(total ns spent on them) / D(requests) / 10^6 (the
 *                           hypervisor's view: queueing in the host included)
 *   queue_depth             D(ns spent on all requests) / D(wall ns): the mean
 *                           number in flight (Little's law); there is no
 *                           utilisation: the hypervisor does not count busy time
 *   vcpu_busy               D(vCPU ns) / (seconds * 10^9 * vcpus), 0..1
 *
 * Parsers take text (tests give them literals); readers read the file once.
 */
#ifndef DBRIG_CORE_SYSSTAT_H
#define DBRIG_CORE_SYSSTAT_H

#include "core/blockdev.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sysstat_disk {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
};

struct sysstat_disk_rates {
	double r_iops, w_iops, f_iops;
	double r_mbps, w_mbps;
	double r_await_ms, w_await_ms, f_await_ms;
	double await_ms;
	double queue_depth;
	double util;
};

/* The counters of major:minor in diskstats text: 0, -ENOENT (no such line) or
 * -EINVAL (a malformed line for it). */
int sysstat_disk_parse(const char *text, unsigned major, unsigned minor, struct sysstat_disk *out)
	__attribute__((warn_unused_result));
/* Read `path` (/proc/diskstats) once and fill out[i] for devs[i]. */
int sysstat_disk_read(const char *path, const struct blockdev *devs, size_t n, struct sysstat_disk *out)
	__attribute__((warn_unused_result));
void sysstat_disk_rates(const struct sysstat_disk *a, const struct sysstat_disk *b, double seconds,
			struct sysstat_disk_rates *out);

struct sysstat_cpu {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
	unsigned ncpu;  /* cpuN lines */
};

struct sysstat_cpu_rates {
	double busy, iowait;  /* 0..1 of all CPUs */
	double busy_cores;
};

int sysstat_cpu_parse(const char *text, struct sysstat_cpu *out) __attribute__((warn_unused_result));
int sysstat_cpu_read(const char *path, struct sysstat_cpu *out) __attribute__((warn_unused_result));
void sysstat_cpu_rates(const struct sysstat_cpu *a, const struct sysstat_cpu *b, struct sysstat_cpu_rates *out);

struct sysstat_guest {
	bool has_block;
	uint64_t rd_reqs, rd_bytes, rd_times_ns;
	uint64_t wr_reqs, wr_bytes, wr_times_ns;
	uint64_t fl_reqs, fl_times_ns;
	bool has_cpu;
	uint64_t cpu_ns;       /* the vCPUs' time, summed */
	unsigned vcpus;
};

/*
 * A hypervisor host's CPU and memory as libvirt's node calls give them
 * (virNodeGetCPUStats over all CPUs: user, kernel, idle, iowait in ns, put in
 * user, system, idle, iowait; virNodeGetMemoryStats: KiB), for a host that
 * may be another machine.
 */
struct sysstat_node {
	bool has_cpu;
	struct sysstat_cpu cpu;
	bool has_mem;
	uint64_t mem_total_kib, mem_avail_kib; /* available: free + buffers + cached */
};

struct sysstat_guest_rates {
	double r_iops, w_iops, f_iops;
	double r_mbps, w_mbps;
	double r_await_ms, w_await_ms, f_await_ms, await_ms;
	double queue_depth;
	double vcpu_busy;      /* 0..1 */
};

void sysstat_guest_rates(const struct sysstat_guest *a, const struct sysstat_guest *b, double seconds,
			 struct sysstat_guest_rates *out);

/* User + system CPU seconds of a process from its /proc/PID/stat text
 * (fields 14 and 15, in clock ticks of `hz`). */
int sysstat_pid_parse(const char *text, long hz, double *cpu_s) __attribute__((warn_unused_result));
/* The same for a live process: 0, -ESRCH when it is gone. */
int sysstat_pid_read(pid_t pid, double *cpu_s) __attribute__((warn_unused_result));

/*
 * The waiting on block I/O itself (docs/reading-reports.md, "storage path"):
 *
 * Delay accounting: field 42 of /proc/PID/task/TID/stat, delayacct_blkio_ticks
 * (clock ticks a thread spent waiting for its block I/O to complete, throttled
 * time included), counted by the kernel only while
 * /proc/sys/kernel/task_delayacct is 1. A process's own /proc/PID/stat holds
 * its main thread's only, so the threads' are summed; a thread that exits
 * takes its count with it.
 */
int sysstat_blkio_parse(const char *text, long hz, double *blkio_s) __attribute__((warn_unused_result));
/* Summed over the threads of a task folder (/proc/PID/task: TID/stat each): 0,
 * -ESRCH when it is gone or holds no readable thread. */
int sysstat_tasks_blkio_read(const char *task_dir, double *blkio_s) __attribute__((warn_unused_result));
/* The same for a live process. */
int sysstat_pid_blkio_read(pid_t pid, double *blkio_s) __attribute__((warn_unused_result));
/* 1: the kernel counts delays (kernel.task_delayacct = 1), 0: it does not, < 0: unknown (no such file). */
int sysstat_delayacct_on(const char *proc_sys_path);

/*
 * Pressure stall information of I/O: the "total=" microseconds of its "some"
 * (at least one task of the scope stalled on I/O) and "full" (all its
 * non-idle tasks stalled) lines, as seconds.
 */
int sysstat_psi_parse(const char *text, double *some_s, double *full_s) __attribute__((warn_unused_result));
int sysstat_psi_read(const char *path, double *some_s, double *full_s) __attribute__((warn_unused_result));
/*
 * Where the process's I/O pressure is: the io.pressure of its cgroup v2 (the
 * "0::PATH" line of /proc/PID/cgroup under `cgroup_root`, then under
 * `cgroup_root`/unified for a hybrid hierarchy) when that cgroup is not the
 * root; the system's `proc_pressure` otherwise. Returns 1 for a cgroup's, 0 for
 * the system's, -ENOENT when neither exists. `proc` is "/proc" but in tests.
 */
int sysstat_psi_locate(const char *proc, pid_t pid, const char *cgroup_root, const char *proc_pressure, char *out,
		       size_t n);

#endif
