#include "result/telemetry.h"

#include "core/fileio.h"
#include "core/strbuf.h"
#include "result/result.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DISK_FIELDS (sizeof(struct sysstat_disk) / sizeof(uint64_t))
#define CPU_FIELDS 8
#define GUEST_BLOCK_FIELDS 8

_Static_assert(sizeof(struct sysstat_disk) == 17 * sizeof(uint64_t), "sysstat_disk holds uint64_t counters only");

void tel_series_init(struct tel_series *s, const struct blockdev *devs, size_t ndevs, const pid_t *pids,
		     size_t npids, size_t nguests)
{
	memset(s, 0, sizeof(*s));
	s->ndevs = ndevs;
	s->devs = xcalloc(ndevs + 1, sizeof(*s->devs));
	if (ndevs)
		memcpy(s->devs, devs, ndevs * sizeof(*devs));
	s->npids = npids;
	s->pids = xcalloc(npids + 1, sizeof(*s->pids));
	if (npids)
		memcpy(s->pids, pids, npids * sizeof(*pids));
	s->pid_src = xcalloc(npids + 1, sizeof(*s->pid_src));
	for (size_t i = 0; i < npids; i++)
		s->pid_src[i].delayacct = s->pid_src[i].psi_scope = -1;
	s->nguests = nguests;
}

void tel_series_nodes(struct tel_series *s, size_t nnodes)
{
	s->nnodes = nnodes;
}

struct tel_reading *tel_series_add(struct tel_series *s, uint64_t mono_ns)
{
	struct tel_reading *r;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	r = &s->v[s->n++];
	memset(r, 0, sizeof(*r));
	r->mono_ns = mono_ns;
	r->disks = xcalloc(s->ndevs + 1, sizeof(*r->disks));
	r->pid_cpu_s = xcalloc(s->npids + 1, sizeof(*r->pid_cpu_s));
	r->pid_io = xcalloc(s->npids + 1, sizeof(*r->pid_io));
	for (size_t i = 0; i < s->npids; i++) {
		r->pid_cpu_s[i] = -1;
		r->pid_io[i].blkio_s = r->pid_io[i].psi_some_s = r->pid_io[i].psi_full_s = -1;
	}
	r->guests = xcalloc(s->nguests + 1, sizeof(*r->guests));
	r->nodes = xcalloc(s->nnodes + 1, sizeof(*r->nodes));
	return r;
}

void tel_series_release(struct tel_series *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].disks);
		free(s->v[i].pid_cpu_s);
		free(s->v[i].pid_io);
		free(s->v[i].guests);
		free(s->v[i].nodes);
	}
	free(s->v);
	free(s->devs);
	free(s->pids);
	free(s->pid_src);
	memset(s, 0, sizeof(*s));
}

/* What a reading holds of one source, as doubles (exact below 2^53). */
enum source {
	SRC_CPU,
	SRC_DISK,
	SRC_PID,
	SRC_PID_BLKIO,
	SRC_PID_PSI_SOME,
	SRC_PID_PSI_FULL,
	SRC_GUEST_BLOCK,
	SRC_GUEST_CPU,
	SRC_NODE_CPU,
	SRC_NODE_MEM,
};

static bool get(const struct tel_reading *r, enum source src, size_t idx, double *v)
{
	uint64_t u[DISK_FIELDS];

	switch (src) {
	case SRC_CPU:
		if (!r->has_cpu)
			return false;
		memcpy(u, &r->cpu, CPU_FIELDS * sizeof(uint64_t));
		for (size_t i = 0; i < CPU_FIELDS; i++)
			v[i] = (double)u[i];
		return true;
	case SRC_DISK:
		if (!r->has_disks)
			return false;
		memcpy(u, &r->disks[idx], sizeof(r->disks[idx]));
		for (size_t i = 0; i < DISK_FIELDS; i++)
			v[i] = (double)u[i];
		return true;
	case SRC_PID:
		v[0] = r->pid_cpu_s[idx];
		return v[0] >= 0;
	case SRC_PID_BLKIO:
		v[0] = r->pid_io[idx].blkio_s;
		return v[0] >= 0;
	case SRC_PID_PSI_SOME:
		v[0] = r->pid_io[idx].psi_some_s;
		return v[0] >= 0;
	case SRC_PID_PSI_FULL:
		v[0] = r->pid_io[idx].psi_full_s;
		return v[0] >= 0;
	case SRC_GUEST_BLOCK: {
		const struct sysstat_guest *g = &r->guests[idx];
		const uint64_t b[GUEST_BLOCK_FIELDS] = {g->rd_reqs, g->rd_bytes, g->rd_times_ns, g->wr_reqs,
							g->wr_bytes, g->wr_times_ns, g->fl_reqs, g->fl_times_ns};
		for (size_t i = 0; i < GUEST_BLOCK_FIELDS; i++)
			v[i] = (double)b[i];
		return g->has_block;
	}
	case SRC_GUEST_CPU:
		v[0] = (double)r->guests[idx].cpu_ns;
		return r->guests[idx].has_cpu;
	case SRC_NODE_CPU:
		if (!r->nodes[idx].has_cpu)
			return false;
		memcpy(u, &r->nodes[idx].cpu, CPU_FIELDS * sizeof(uint64_t));
		for (size_t i = 0; i < CPU_FIELDS; i++)
			v[i] = (double)u[i];
		return true;
	case SRC_NODE_MEM:
		v[0] = (double)r->nodes[idx].mem_total_kib;
		v[1] = (double)r->nodes[idx].mem_avail_kib;
		return r->nodes[idx].has_mem;
	}
	return false;
}

/*
 * The source's values at time t: linear between the last reading at or
 * before t and the first after it that hold the source; the nearest one
 * outside them. False when no reading holds it.
 */
static bool value_at(const struct tel_series *s, enum source src, size_t idx, uint64_t t, double *out, size_t nv)
{
	double a[DISK_FIELDS], b[DISK_FIELDS];
	const struct tel_reading *ra = NULL, *rb = NULL;

	for (size_t k = 0; k < s->n; k++) {
		if (!get(&s->v[k], src, idx, b))
			continue;
		if (s->v[k].mono_ns <= t) {
			ra = &s->v[k];
			memcpy(a, b, nv * sizeof(*a));
		} else {
			rb = &s->v[k];
			break;
		}
	}
	if (!ra && !rb)
		return false;
	if (!rb || !ra || ra->mono_ns == t) {
		memcpy(out, ra ? a : b, nv * sizeof(*out));
		return true;
	}
	for (size_t i = 0; i < nv; i++) {
		double f = (double)(t - ra->mono_ns) / (double)(rb->mono_ns - ra->mono_ns);
		/* A counter that went back (wrapped) is not interpolated. */
		out[i] = b[i] >= a[i] ? a[i] + (b[i] - a[i]) * f : (f < 0.5 ? a[i] : b[i]);
	}
	return true;
}

static uint64_t u64(double v)
{
	return v <= 0 ? 0 : (uint64_t)llround(v);
}

bool tel_disk_at(const struct tel_series *s, size_t dev, uint64_t t, struct sysstat_disk *out)
{
	double v[DISK_FIELDS];
	uint64_t u[DISK_FIELDS];

	if (dev >= s->ndevs || !value_at(s, SRC_DISK, dev, t, v, DISK_FIELDS))
		return false;
	for (size_t i = 0; i < DISK_FIELDS; i++)
		u[i] = u64(v[i]);
	memcpy(out, u, sizeof(*out));
	return true;
}

bool tel_cpu_at(const struct tel_series *s, uint64_t t, struct sysstat_cpu *out)
{
	double v[CPU_FIELDS];
	uint64_t u[CPU_FIELDS];

	if (!value_at(s, SRC_CPU, 0, t, v, CPU_FIELDS))
		return false;
	for (size_t i = 0; i < CPU_FIELDS; i++)
		u[i] = u64(v[i]);
	memcpy(out, u, CPU_FIELDS * sizeof(uint64_t));
	out->ncpu = s->host_cpus ? s->host_cpus : 1;
	return true;
}

bool tel_node_cpu_at(const struct tel_series *s, size_t node, uint64_t t, struct sysstat_cpu *out)
{
	double v[CPU_FIELDS];
	uint64_t u[CPU_FIELDS];
	unsigned ncpu = 0;

	if (node >= s->nnodes || !value_at(s, SRC_NODE_CPU, node, t, v, CPU_FIELDS))
		return false;
	for (size_t i = 0; i < CPU_FIELDS; i++)
		u[i] = u64(v[i]);
	memcpy(out, u, CPU_FIELDS * sizeof(uint64_t));
	for (size_t k = s->n; k-- > 0 && !ncpu;)
		ncpu = s->v[k].nodes[node].has_cpu ? s->v[k].nodes[node].cpu.ncpu : 0;
	out->ncpu = ncpu ? ncpu : 1;
	return true;
}

static bool guest_at(const struct tel_series *s, size_t g, uint64_t t, unsigned vcpus, struct sysstat_guest *out)
{
	double b[GUEST_BLOCK_FIELDS], c;

	memset(out, 0, sizeof(*out));
	if (g >= s->nguests)
		return false;
	if (value_at(s, SRC_GUEST_BLOCK, g, t, b, GUEST_BLOCK_FIELDS)) {
		out->has_block = true;
		out->rd_reqs = u64(b[0]);
		out->rd_bytes = u64(b[1]);
		out->rd_times_ns = u64(b[2]);
		out->wr_reqs = u64(b[3]);
		out->wr_bytes = u64(b[4]);
		out->wr_times_ns = u64(b[5]);
		out->fl_reqs = u64(b[6]);
		out->fl_times_ns = u64(b[7]);
	}
	if (value_at(s, SRC_GUEST_CPU, g, t, &c, 1)) {
		out->has_cpu = true;
		out->cpu_ns = u64(c);
		out->vcpus = vcpus;
	}
	return out->has_block || out->has_cpu;
}

/* Four decimals: rates and fractions, stable output. */
static json_t *num(double v)
{
	return json_real(round(v * 1e4) / 1e4);
}

/* A device's rates; a VM's disk (QEMU's account) has no utilisation (has_util false). */
static json_t *disk_json(const char *name, const struct sysstat_disk_rates *r, bool full, bool has_util)
{
	json_t *o = json_pack("{s:s, s:o, s:o}", "name", name, "r_iops", num(r->r_iops), "w_iops", num(r->w_iops));

	if (full) {
		json_object_set_new(o, "f_iops", num(r->f_iops));
		json_object_set_new(o, "r_mbps", num(r->r_mbps));
		json_object_set_new(o, "w_mbps", num(r->w_mbps));
		json_object_set_new(o, "r_await_ms", num(r->r_await_ms));
		json_object_set_new(o, "w_await_ms", num(r->w_await_ms));
		json_object_set_new(o, "f_await_ms", num(r->f_await_ms));
	}
	json_object_set_new(o, "await_ms", num(r->await_ms));
	json_object_set_new(o, "queue_depth", num(r->queue_depth));
	if (has_util)
		json_object_set_new(o, "util", num(r->util));
	return o;
}

static json_t *guest_disk_json(const char *name, const struct sysstat_guest_rates *g, bool full)
{
	struct sysstat_disk_rates r = {
		.r_iops = g->r_iops, .w_iops = g->w_iops, .f_iops = g->f_iops,
		.r_mbps = g->r_mbps, .w_mbps = g->w_mbps,
		.r_await_ms = g->r_await_ms, .w_await_ms = g->w_await_ms, .f_await_ms = g->f_await_ms,
		.await_ms = g->await_ms, .queue_depth = g->queue_depth,
	};

	return disk_json(name, &r, full, false);
}

/* A process counter's growth over [t0, t1] (SRC_PID: CPU seconds), or < 0 when not sampled. */
static double pid_delta(const struct tel_series *s, enum source src, int pid, uint64_t t0, uint64_t t1)
{
	double a, b;

	if (pid < 0 || (size_t)pid >= s->npids || !value_at(s, src, (size_t)pid, t0, &a, 1) ||
	    !value_at(s, src, (size_t)pid, t1, &b, 1))
		return -1;
	return b > a ? b - a : 0;
}

static double pid_cpu(const struct tel_series *s, int pid, uint64_t t0, uint64_t t1)
{
	return pid_delta(s, SRC_PID, pid, t0, t1);
}

/*
 * The server's waiting on block I/O beside its CPU: delay accounting's
 * thread-seconds (when the kernel counts them, else "delayacct": false) and
 * the I/O pressure of its cgroup or of the system, each as seconds and as a
 * share of the span.
 */
static void server_wait(json_t *srv, const struct tel_series *s, int pid, uint64_t t0, uint64_t t1, double secs)
{
	const struct tel_pid_src *src = pid >= 0 && (size_t)pid < s->npids ? &s->pid_src[pid] : NULL;
	double w, some, full;

	if (!src)
		return;
	if (src->delayacct >= 0)
		json_object_set_new(srv, "delayacct", json_boolean(src->delayacct == 1));
	if (src->delayacct == 1 && (w = pid_delta(s, SRC_PID_BLKIO, pid, t0, t1)) >= 0)
		json_object_set_new(srv, "blkio_wait", json_pack("{s:o, s:o, s:s}", "seconds", num(w), "share",
								 num(w / secs), "source", "delay accounting"));
	if (src->psi_scope >= 0 && (some = pid_delta(s, SRC_PID_PSI_SOME, pid, t0, t1)) >= 0) {
		full = pid_delta(s, SRC_PID_PSI_FULL, pid, t0, t1);
		json_object_set_new(srv, "io_pressure",
				    json_pack("{s:s, s:s, s:o, s:o}", "scope", src->psi_scope ? "cgroup" : "system", "path",
					      src->psi_path, "some", num(some / secs > 1 ? 1 : some / secs), "full",
					      full >= 0 ? num(full / secs > 1 ? 1 : full / secs) : json_null()));
	}
}

/*
 * The host CPU of the instance over [t0, t1], and where it came from: its
 * hypervisor host's node statistics (libvirt), or this machine's /proc/stat
 * when the instance has no such host (local target) or its host is this
 * machine and gives none. A host on another machine without them has no host
 * CPU (this machine's would be the wrong one).
 */
static bool host_cpu_span(const struct tel_series *s, const struct tel_instance *in, uint64_t t0, uint64_t t1,
			  struct sysstat_cpu *a, struct sysstat_cpu *b, char *src, size_t n)
{
	if (in->has_node && tel_node_cpu_at(s, in->node, t0, a) &&
	    tel_node_cpu_at(s, in->node, t1, b)) {
		snprintf(src, n, "libvirt node stats (host %s)", in->node_name ? in->node_name : "?");
		return true;
	}
	if (in->has_node && !in->node_here)
		return false;
	snprintf(src, n, "/proc/stat");
	return tel_cpu_at(s, t0, a) && tel_cpu_at(s, t1, b);
}

/* "host_memory" of [t0, t1] from the node's readings in it (the mean of its used share), when it has any. */
static bool host_memory(const struct tel_series *s, const struct tel_instance *in, uint64_t t0, uint64_t t1, json_t *o)
{
	double used = 0, total = 0;
	size_t k, m = 0;
	char src[160];

	if (in->node >= s->nnodes)
		return false;
	for (k = 0; k < s->n; k++) {
		const struct sysstat_node *nd = &s->v[k].nodes[in->node];
		if (s->v[k].mono_ns < t0 || s->v[k].mono_ns > t1 || !nd->has_mem || !nd->mem_total_kib)
			continue;
		total = (double)nd->mem_total_kib;
		used += 1.0 - (double)(nd->mem_avail_kib < nd->mem_total_kib ? nd->mem_avail_kib : nd->mem_total_kib) / total;
		m++;
	}
	if (!m)
		return false;
	snprintf(src, sizeof(src), "libvirt node stats (host %s)", in->node_name ? in->node_name : "?");
	json_object_set_new(o, "host_memory", json_pack("{s:o, s:o, s:s}", "used", num(used / (double)m), "total_mib",
							 num(total / 1024), "source", src));
	return true;
}

/*
 * The telemetry of [t0, t1]: the whole of it for a phase (`full`), the
 * figures the charts need for an interval. NULL when nothing was sampled.
 */
static json_t *span_json(const struct tel_series *s, const struct tel_instance *in, uint64_t t0, uint64_t t1,
			 bool full, double own_cpu_s, unsigned loops)
{
	double secs = (double)(t1 - t0) / 1e9, cpu_s;
	struct sysstat_cpu ca, cb;
	struct sysstat_guest ga, gb;
	json_t *o = json_object(), *devs = json_array();
	bool any = false;

	if (!(secs > 0)) {
		json_decref(o);
		json_decref(devs);
		return NULL;
	}
	if (full)
		json_object_set_new(o, "seconds", num(secs));
	char src[160];
	if (host_cpu_span(s, in, t0, t1, &ca, &cb, src, sizeof(src))) {
		struct sysstat_cpu_rates cr;
		sysstat_cpu_rates(&ca, &cb, &cr);
		if (full)
			json_object_set_new(o, "host_cpu", json_pack("{s:o, s:o, s:s}", "busy", num(cr.busy), "iowait",
								     num(cr.iowait), "source", src));
		else
			json_object_set_new(o, "host_cpu_busy", num(cr.busy));
		any = true;
	}
	if (full && in->has_node)
		any = host_memory(s, in, t0, t1, o) || any;
	for (size_t i = 0; i < in->ndevs; i++) {
		struct sysstat_disk da, db;
		struct sysstat_disk_rates dr;

		if (in->devs[i] >= s->ndevs || !tel_disk_at(s, in->devs[i], t0, &da) || !tel_disk_at(s, in->devs[i], t1, &db))
			continue;
		sysstat_disk_rates(&da, &db, secs, &dr);
		json_array_append_new(devs, disk_json(s->devs[in->devs[i]].name, &dr, full, true));
		any = true;
	}
	if (in->guest >= 0 && guest_at(s, (size_t)in->guest, t0, in->guest_vcpus, &ga) &&
	    guest_at(s, (size_t)in->guest, t1, in->guest_vcpus, &gb)) {
		struct sysstat_guest_rates gr;

		sysstat_guest_rates(&ga, &gb, secs, &gr);
		if (ga.has_block && gb.has_block) {
			json_array_append_new(devs, guest_disk_json(in->guest_disk ? in->guest_disk : "vm disk", &gr, full));
			/* The time the VM's requests took, QEMU's throttling included, over the span. */
			if (full)
				json_object_set_new(o, "vm_disk_wait",
						    json_pack("{s:o, s:o, s:s}", "seconds", num(gr.queue_depth * secs),
							      "share", num(gr.queue_depth), "source", "libvirt block stats"));
		}
		if (ga.has_cpu && gb.has_cpu && in->guest_vcpus) {
			if (full)
				json_object_set_new(o, "guest", json_pack("{s:I, s:o, s:o}", "vcpus",
									  (json_int_t)in->guest_vcpus, "cpu_s",
									  num((double)(gb.cpu_ns - ga.cpu_ns) / 1e9),
									  "busy", num(gr.vcpu_busy)));
			else
				json_object_set_new(o, "guest_busy", num(gr.vcpu_busy));
		}
		any = true;
	}
	json_object_set_new(o, "devices", devs);
	/* The driver's own account of its CPU (rusage, in the result) first, else the sampler's. */
	if ((cpu_s = own_cpu_s) >= 0 || (cpu_s = pid_cpu(s, in->driver_pid, t0, t1)) >= 0) {
		if (full)
			json_object_set_new(o, "driver", json_pack("{s:o, s:o, s:I}", "cpu_s", num(cpu_s), "cores",
								   num(cpu_s / secs), "event_loops",
								   (json_int_t)(loops ? loops : 1)));
		else
			json_object_set_new(o, "driver_cores", num(cpu_s / secs));
		any = true;
	}
	if (full && (cpu_s = pid_cpu(s, in->server_pid, t0, t1)) >= 0) {
		json_t *srv = json_pack("{s:o, s:o}", "cpu_s", num(cpu_s), "cores", num(cpu_s / secs));
		server_wait(srv, s, in->server_pid, t0, t1, secs);
		json_object_set_new(o, "server", srv);
	}
	if (!any) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static double phase_seconds(json_t *phases, const char *name)
{
	json_t *p = json_object_get(phases, name), *sec = json_is_object(p) ? json_object_get(p, "seconds") : NULL;

	return json_is_number(sec) && json_number_value(sec) > 0 ? json_number_value(sec) : 0;
}

/* A number under obj (NULL-terminated path of keys), or dflt. */
static double num_at(json_t *obj, double dflt, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, dflt);
	while (obj && (k = va_arg(ap, const char *)))
		obj = json_is_object(obj) ? json_object_get(obj, k) : NULL;
	va_end(ap);
	return json_is_number(obj) ? json_number_value(obj) : dflt;
}

/*
 * TPC-C terminals: the share of the phase's response time spent waiting for a
 * free connection (the result's conn_wait.avg_ms over latency_ms.avg, which
 * includes it) goes beside the driver's CPU, for the driver-saturation rule.
 */
static void add_conn_wait(json_t *span, json_t *phases, const char *phase)
{
	json_t *drv = span ? json_object_get(span, "driver") : NULL;
	double w = num_at(phases, -1, phase, "conn_wait", "avg_ms", (char *)NULL);
	double l = num_at(phases, -1, phase, "latency_ms", "avg", (char *)NULL);

	if (!json_is_object(drv) || w < 0 || !(l > 0))
		return;
	json_object_set_new(drv, "conn_wait", num(w / l > 1 ? 1 : w / l));
}

static uint64_t at_s(uint64_t start, double s)
{
	return start + (uint64_t)llround(s * 1e9);
}

/* The telemetry's drive object: the instance's drive path, its top device and its stack, those it has. */
static json_t *drive_json(const struct tel_series *s, const struct tel_instance *in)
{
	json_t *drive = json_object();

	if (in->drive_path)
		json_object_set_new(drive, "path", json_string(in->drive_path));
	if (in->ndevs && in->devs[0] < s->ndevs)
		json_object_set_new(drive, "top", json_string(s->devs[in->devs[0]].name));
	if (in->drive_stack)
		json_object_set_new(drive, "stack", json_string(in->drive_stack));
	return drive;
}

/*
 * The telemetry of each of the result's intervals that have a time and a
 * length, as [{"phase", "t", "telemetry"}] in the result's order (the reader
 * matches them to the run's intervals by phase and time).
 */
static json_t *intervals_json(json_t *root, const struct tel_series *s, const struct tel_instance *in, uint64_t start,
			      unsigned loops)
{
	json_t *out = json_array(), *v, *t;
	size_t i;

	json_array_foreach(json_object_get(root, "intervals"), i, v) {
		json_t *jt = json_object_get(v, "t"), *js = json_object_get(v, "seconds"), *ph = json_object_get(v, "phase");
		double te, ts;

		if (!json_is_number(jt) || !json_is_number(js) || json_number_value(js) <= 0 || !json_is_string(ph))
			continue;
		te = json_number_value(jt);
		ts = json_number_value(js);
		if ((t = span_json(s, in, at_s(start, te - ts), at_s(start, te), false, num_at(v, -1, "cpu_s", (char *)NULL),
				   loops)))
			json_array_append_new(out, json_pack("{s:O, s:O, s:o}", "phase", ph, "t", jt, "telemetry", t));
	}
	return out;
}

/* The result at `path` (read, never written), refused unless it is a driver's dbrig.result/1 with phases. */
static json_t *load_result(const char *path, struct strbuf *err, int *ret)
{
	json_error_t je;
	json_t *root, *schema;
	char *text = NULL;
	size_t len;
	const char *sv;

	/* read_file: never a FIFO or device, the size bounded. */
	if ((*ret = read_file(path, &text, &len)) < 0) {
		strbuf_addf(err, "%s: %s (expected a result file)", path, read_file_strerror(*ret));
		*ret = -EIO;
		return NULL;
	}
	root = json_loadb(text, len, 0, &je);
	free(text);
	if (!root) {
		strbuf_addf(err, "%s: ", path);
		strbuf_add_oneline(err, je.text);
		strbuf_adds(err, " (expected a result file)");
		*ret = -EIO;
		return NULL;
	}
	schema = json_object_get(root, "schema");
	sv = json_is_string(schema) ? json_string_value(schema) : "";
	if (strncmp(sv, RESULT_MAJOR, strlen(RESULT_MAJOR)) || (sv[strlen(RESULT_MAJOR)] && sv[strlen(RESULT_MAJOR)] != '.') ||
	    !json_is_object(json_object_get(root, "phases"))) {
		strbuf_addf(err, "%s: not a " RESULT_MAJOR " file with phases (expected a driver's result)", path);
		json_decref(root);
		*ret = -EINVAL;
		return NULL;
	}
	*ret = 0;
	return root;
}

/*
 * A 1.3 result leaves its intervals to its journal beside it (<stem>.jsonl): its
 * interval records, read line by line into root's "intervals" as the result would
 * hold them. A cut last line (the driver killed) is left out, as the report does.
 */
static int intervals_from_journal(json_t *root, const char *result_path, struct strbuf *err)
{
	json_t *arr = json_array();
	struct strbuf path;
	char *text = NULL;
	int ret;

	strbuf_init(&path, 0);
	strbuf_addf(&path, "%sl", result_path); /* x.json -> x.jsonl */
	ret = read_file(path.buf, &text, NULL);
	if (ret < 0) {
		strbuf_addf(err, "%s: %s (expected the journal that holds %s's intervals)", path.buf,
			    read_file_strerror(ret), result_path);
		ret = -EIO;
		goto out;
	}
	for (char *line = text, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		json_t *o = json_loadb(line, (size_t)(nl - line), 0, NULL);
		const char *type = json_string_value(json_object_get(o, "type"));

		if (type && !strcmp(type, "interval")) {
			json_object_del(o, "histogram");
			json_array_append(arr, o);
		}
		json_decref(o);
	}
	json_object_set(root, "intervals", arr);
out:
	json_decref(arr);
	free(text);
	strbuf_release(&path);
	return ret;
}

/* The "telemetry" object of the result's phases: its host, its drive, each phase's span. */
static json_t *phases_json(json_t *root, const struct tel_series *s, const struct tel_instance *in, uint64_t start,
			   unsigned loops)
{
	json_t *phases = json_object_get(root, "phases"), *tphases = json_object(), *v;
	double pre_s = phase_seconds(phases, "precondition"), smp_s = phase_seconds(phases, "sample");
	unsigned host_cpus = s->host_cpus;
	struct sysstat_cpu nc;

	v = pre_s > 0 ? span_json(s, in, start, at_s(start, pre_s), true,
				  num_at(phases, -1, "precondition", "cpu", "seconds", (char *)NULL), loops) : NULL;
	add_conn_wait(v, phases, "precondition");
	json_object_set_new(tphases, "precondition", v ? v : json_null());
	v = smp_s > 0 ? span_json(s, in, at_s(start, pre_s), at_s(start, pre_s + smp_s), true,
				  num_at(phases, -1, "sample", "cpu", "seconds", (char *)NULL), loops) : NULL;
	add_conn_wait(v, phases, "sample");
	json_object_set_new(tphases, "sample", v ? v : json_null());
	/* The CPUs of the instance's hypervisor host when it gave them, else this machine's. */
	if (in->has_node && tel_node_cpu_at(s, in->node, 0, &nc))
		host_cpus = nc.ncpu;
	return json_pack("{s:I, s:o, s:o}", "host_cpus", (json_int_t)host_cpus, "drive", drive_json(s, in), "phases",
			 tphases);
}

int tel_write(const char *result_path, const char *out_path, const struct tel_series *s, const struct tel_instance *in,
	      struct strbuf *err)
{
	json_t *root, *out = NULL;
	uint64_t start;
	unsigned loops;
	char *text = NULL;
	const char *base = strrchr(result_path, '/');
	int ret;

	if (!(root = load_result(result_path, err, &ret)))
		return ret;
	if (!json_is_array(json_object_get(root, "intervals")) && json_is_string(json_object_get(root, "journal")) &&
	    (ret = intervals_from_journal(root, result_path, err)) < 0)
		goto out;
	ret = -EINVAL;
	if (s->n < 2) {
		strbuf_addf(err, "%s: %zu sampler reading%s (expected at least 2 to attach telemetry)", result_path, s->n,
			    s->n == 1 ? "" : "s");
		ret = -ENODATA;
		goto out;
	}
	/* The driver says when its t = 0 was and how many loops it ran (format 1.1). */
	start = in->start_ns ? in->start_ns : (uint64_t)num_at(root, 0, "driver", "clock_start_ns", (char *)NULL);
	loops = in->driver_loops ? in->driver_loops : (unsigned)num_at(root, 0, "driver", "event_loops", (char *)NULL);
	if (!start) {
		strbuf_addf(err, "%s: no clock_start_ns in the result (expected a dbrig.result/1.1 driver's result, or the "
			    "start given)", result_path);
		goto out;
	}
	out = json_pack("{s:s, s:s, s:o}", "schema", TELEMETRY_SCHEMA, "result", base ? base + 1 : result_path,
			"telemetry", phases_json(root, s, in, start, loops));
	if (in->test_bed) {
		json_t *bed = json_loads(in->test_bed, 0, NULL);
		if (json_is_object(bed))
			json_object_set_new(out, "test_bed", bed);
		else
			json_decref(bed);
	}
	json_object_set_new(out, "intervals", intervals_json(root, s, in, start, loops));
	text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
	if (!text) {
		ret = -ENOMEM;
		goto out;
	}
	ret = atomic_write_file(out_path, text, strlen(text));
	if (ret < 0)
		strbuf_addf(err, "%s: %s (expected a writable folder)", out_path, write_file_strerror(ret));
out:
	free(text);
	json_decref(out);
	json_decref(root);
	return ret;
}
