#include "stats/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *bottleneck_name(enum bottleneck b)
{
	switch (b) {
	case BOTTLENECK_DRIVE:
		return "drive";
	case BOTTLENECK_HOST_CPU:
		return "host CPU";
	case BOTTLENECK_GUEST_CPU:
		return "guest CPU";
	case BOTTLENECK_DRIVER:
		return "driver";
	case BOTTLENECK_STORAGE_PATH:
		return "storage path";
	case BOTTLENECK_UNKNOWN:
		return "unknown";
	}
	return "?";
}

bool bottleneck_is_storage(enum bottleneck b)
{
	return b == BOTTLENECK_DRIVE || b == BOTTLENECK_STORAGE_PATH;
}

const char *io_wait_source_name(enum io_wait_source s)
{
	switch (s) {
	case IO_WAIT_DELAYACCT:
		return "delay accounting";
	case IO_WAIT_PSI_CGROUP:
		return "cgroup I/O pressure";
	case IO_WAIT_VM_DISK:
		return "libvirt block stats";
	}
	return "?";
}

struct verdict_driver verdict_driver_saturation(const struct verdict_in *in)
{
	struct verdict_driver d = {0};

	if (in->has_driver_cpu && in->driver_loops) {
		d.per_loop = in->driver_cores / (double)in->driver_loops;
		d.cpu = d.per_loop >= VERDICT_DRIVER_LOOP_BUSY;
	}
	d.connections = in->has_conn_wait && in->conn_wait_share >= VERDICT_CONN_WAIT;
	d.saturated = d.cpu || d.connections;
	return d;
}

struct verdict verdict_decide(const struct verdict_in *in)
{
	struct verdict v = {.bottleneck = BOTTLENECK_UNKNOWN};

	v.driver = verdict_driver_saturation(in);
	v.host_cpu_busy = in->has_host_cpu && in->host_cpu_busy >= VERDICT_CPU_BUSY;
	v.guest_cpu_busy = in->has_guest_cpu && in->guest_cpu_busy >= VERDICT_CPU_BUSY;
	v.drive_busy = in->has_drive && in->drive_util >= VERDICT_DRIVE_UTIL;
	v.io_wait_busy = in->has_io_wait && in->io_wait >= VERDICT_IO_WAIT;
	if (v.driver.saturated)
		v.bottleneck = BOTTLENECK_DRIVER;
	else if (v.host_cpu_busy)
		v.bottleneck = BOTTLENECK_HOST_CPU;
	else if (v.guest_cpu_busy)
		v.bottleneck = BOTTLENECK_GUEST_CPU;
	else if (v.drive_busy)
		v.bottleneck = BOTTLENECK_DRIVE;
	else if (v.io_wait_busy)
		v.bottleneck = BOTTLENECK_STORAGE_PATH;
	return v;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

void verdict_in_merge(struct verdict_in *acc, const struct verdict_in *in)
{
	if (in->has_host_cpu) {
		if (!acc->has_host_cpu || in->host_cpu_busy > acc->host_cpu_busy)
			acc->host_cpu_src = in->host_cpu_src;
		acc->host_cpu_busy = acc->has_host_cpu ? max2(acc->host_cpu_busy, in->host_cpu_busy) : in->host_cpu_busy;
		acc->has_host_cpu = true;
	}
	if (in->has_guest_cpu) {
		acc->guest_cpu_busy = acc->has_guest_cpu ? max2(acc->guest_cpu_busy, in->guest_cpu_busy)
							 : in->guest_cpu_busy;
		acc->has_guest_cpu = true;
	}
	/* The busiest driver is the one with the most CPU per loop. */
	if (in->has_driver_cpu && in->driver_loops &&
	    (!acc->has_driver_cpu || !acc->driver_loops ||
	     in->driver_cores / in->driver_loops > acc->driver_cores / acc->driver_loops)) {
		acc->driver_cores = in->driver_cores;
		acc->driver_loops = in->driver_loops;
		acc->has_driver_cpu = true;
	}
	if (in->has_conn_wait) {
		acc->conn_wait_share = acc->has_conn_wait ? max2(acc->conn_wait_share, in->conn_wait_share)
							  : in->conn_wait_share;
		acc->has_conn_wait = true;
	}
	/* The busiest device, with its own latency and queue depth. */
	if (in->has_drive && (!acc->has_drive || in->drive_util > acc->drive_util)) {
		acc->drive_util = in->drive_util;
		acc->drive_await_ms = in->drive_await_ms;
		acc->drive_queue_depth = in->drive_queue_depth;
		acc->drive_device = in->drive_device;
		acc->has_drive = true;
	}
	/* The instance that waited most, with its signal. */
	if (in->has_io_wait && (!acc->has_io_wait || in->io_wait > acc->io_wait)) {
		acc->io_wait = in->io_wait;
		acc->io_wait_src = in->io_wait_src;
		acc->has_io_wait = true;
	}
	acc->io_wait_off = acc->io_wait_off || in->io_wait_off;
}

struct line {
	char *buf;
	size_t n, len;
};

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (l->len + 1 >= l->n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(l->buf + l->len, l->n - l->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		l->len = l->len + (size_t)w < l->n ? l->len + (size_t)w : l->n - 1;
}

static void drive_figures(struct line *l, const struct verdict_in *in)
{
	add(l, "drive%s%s %.0f%% utilised, %.2f ms per I/O, queue depth %.1f", in->drive_device ? " " : "",
	    in->drive_device ? in->drive_device : "", 100 * in->drive_util, in->drive_await_ms, in->drive_queue_depth);
}

/* "server waited 62% of the sample on block I/O (delay accounting)" */
static void io_wait_figures(struct line *l, const struct verdict_in *in)
{
	add(l, "%s %.0f%% of the sample on block I/O (%s)",
	    in->io_wait_src == IO_WAIT_VM_DISK ? "VM disk requests waited" : "server waited", 100 * in->io_wait,
	    io_wait_source_name(in->io_wait_src));
}

void verdict_explain(const struct verdict_in *in, const struct verdict *v, char *buf, size_t n)
{
	struct line l = {buf, n, 0};

	if (!n)
		return;
	buf[0] = '\0';
	switch (v->bottleneck) {
	case BOTTLENECK_DRIVER:
		if (v->driver.cpu)
			add(&l, "driver %.2f core per event loop (%.2f cores, %u loop%s; >= %.2f)", v->driver.per_loop,
			    in->driver_cores, in->driver_loops, in->driver_loops == 1 ? "" : "s", VERDICT_DRIVER_LOOP_BUSY);
		if (v->driver.connections)
			add(&l, "%sterminals waited %.0f%% of their response time for a connection (>= %.0f%%)",
			    v->driver.cpu ? "; " : "", 100 * in->conn_wait_share, 100 * VERDICT_CONN_WAIT);
		break;
	case BOTTLENECK_HOST_CPU:
		/* A hypervisor host's node statistics are named (the host of a drive on another machine). */
		if (in->host_cpu_src && strcmp(in->host_cpu_src, "/proc/stat"))
			add(&l, "host CPU %.0f%% busy (>= %.0f%%, %s): drive differences are understated",
			    100 * in->host_cpu_busy, 100 * VERDICT_CPU_BUSY, in->host_cpu_src);
		else
			add(&l, "host CPU %.0f%% busy (>= %.0f%%): drive differences are understated",
			    100 * in->host_cpu_busy, 100 * VERDICT_CPU_BUSY);
		break;
	case BOTTLENECK_GUEST_CPU:
		add(&l, "guest vCPUs %.0f%% busy (>= %.0f%%)", 100 * in->guest_cpu_busy, 100 * VERDICT_CPU_BUSY);
		break;
	case BOTTLENECK_DRIVE:
		drive_figures(&l, in);
		add(&l, " (>= %.0f%%)", 100 * VERDICT_DRIVE_UTIL);
		break;
	case BOTTLENECK_STORAGE_PATH:
		io_wait_figures(&l, in);
		add(&l, " (>= %.0f%%)", 100 * VERDICT_IO_WAIT);
		if (in->has_drive) {
			add(&l, " while ");
			drive_figures(&l, in);
		}
		break;
	case BOTTLENECK_UNKNOWN:
		if (!in->has_host_cpu && !in->has_guest_cpu && !in->has_drive && !in->has_driver_cpu &&
		    !in->has_conn_wait && !in->has_io_wait) {
			add(&l, "no telemetry");
			return;
		}
		add(&l, "nothing saturated:");
		if (in->has_driver_cpu && in->driver_loops)
			add(&l, " driver %.2f core per event loop;", in->driver_cores / in->driver_loops);
		if (in->has_host_cpu)
			add(&l, " host CPU %.0f%% busy;", 100 * in->host_cpu_busy);
		if (in->has_guest_cpu)
			add(&l, " guest vCPUs %.0f%% busy;", 100 * in->guest_cpu_busy);
		if (in->has_drive) {
			add(&l, " ");
			drive_figures(&l, in);
			add(&l, ";");
		}
		if (in->has_io_wait) {
			add(&l, " ");
			io_wait_figures(&l, in);
			add(&l, ";");
		} else if (in->io_wait_off) {
			add(&l, " block-I/O wait not measured (delay accounting off: sysctl kernel.task_delayacct=1);");
		}
		if (l.len && buf[l.len - 1] == ';')
			buf[--l.len] = '\0';
		return;
	}
	/* What else was over its limit. */
	if (v->bottleneck != BOTTLENECK_HOST_CPU && v->host_cpu_busy)
		add(&l, "; host CPU also %.0f%% busy", 100 * in->host_cpu_busy);
	if (v->bottleneck != BOTTLENECK_GUEST_CPU && v->guest_cpu_busy)
		add(&l, "; guest vCPUs also %.0f%% busy", 100 * in->guest_cpu_busy);
	if (v->bottleneck != BOTTLENECK_DRIVE && v->drive_busy)
		add(&l, "; drive%s%s also %.0f%% utilised", in->drive_device ? " " : "",
		    in->drive_device ? in->drive_device : "", 100 * in->drive_util);
	if (v->bottleneck != BOTTLENECK_STORAGE_PATH && v->io_wait_busy) {
		add(&l, "; ");
		io_wait_figures(&l, in);
	}
}
