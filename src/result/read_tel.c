/*
 * The "telemetry" of a result (format 1.1, docs/result-format.md): per phase
 * the host's CPU and memory, the drive's devices, the server's waiting, the
 * driver's and the guest's CPU; per interval the host CPU and the busiest
 * device. Absent in 1.0 results: the driver's own CPU stands in.
 */
#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "result/model.h"
#include "result/read.h"
#include "result/read_int.h"
#include "result/result.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fraction 0..1 (utilisation, busy share); absent reads as 0. */
static double read_frac(struct jsonr *jr, json_t *o, const char *path, const char *key, int flags)
{
	double v = jsonr_num(jr, o, path, key, flags, 0, 0);

	if (!jr->failed && v > 1.0 + 1e-9)
		jsonr_fail(jr, path, key, json_object_get(o, key), "a fraction from 0 to 1");
	return v;
}

static void read_tel_dev(struct jsonr *jr, json_t *d, const char *path, struct tel_dev *out)
{
	const char *name = jsonr_str(jr, d, path, "name", JSONR_REQUIRED, "");

	out->name = xstrdup(name);
	out->r_iops = jsonr_num(jr, d, path, "r_iops", JSONR_OPTIONAL, 0, 0);
	out->w_iops = jsonr_num(jr, d, path, "w_iops", JSONR_OPTIONAL, 0, 0);
	out->f_iops = jsonr_num(jr, d, path, "f_iops", JSONR_OPTIONAL, 0, 0);
	out->r_mbps = jsonr_num(jr, d, path, "r_mbps", JSONR_OPTIONAL, 0, 0);
	out->w_mbps = jsonr_num(jr, d, path, "w_mbps", JSONR_OPTIONAL, 0, 0);
	out->r_await_ms = jsonr_num(jr, d, path, "r_await_ms", JSONR_OPTIONAL, 0, 0);
	out->w_await_ms = jsonr_num(jr, d, path, "w_await_ms", JSONR_OPTIONAL, 0, 0);
	out->f_await_ms = jsonr_num(jr, d, path, "f_await_ms", JSONR_OPTIONAL, 0, 0);
	out->await_ms = jsonr_num(jr, d, path, "await_ms", JSONR_OPTIONAL, 0, 0);
	out->queue_depth = jsonr_num(jr, d, path, "queue_depth", JSONR_OPTIONAL, 0, 0);
	out->has_util = jsonr_has(d, "util");
	out->util = read_frac(jr, d, path, "util", JSONR_OPTIONAL | JSONR_NULLABLE);
}

/* "devices": [{"name": ..., rates}], the drive's top device first. */
static void read_tel_devs(struct jsonr *jr, json_t *o, const char *path, const char *top, struct tel_dev **out,
			  size_t *n)
{
	json_t *arr = jsonr_arr(jr, o, path, "devices", JSONR_OPTIONAL | JSONR_NULLABLE), *d;
	char dp[192];
	size_t i;

	if (!arr)
		return;
	*out = xcalloc(json_array_size(arr) + 1, sizeof(**out));
	json_array_foreach(arr, i, d) {
		snprintf(dp, sizeof(dp), "%s.devices[%zu]", path, i);
		if (!json_is_object(d)) {
			jsonr_fail(jr, dp, NULL, d, "an object");
			return;
		}
		read_tel_dev(jr, d, dp, &(*out)[i]);
		(*out)[i].top = top && !strcmp((*out)[i].name, top);
		*n = i + 1;
		if (jr->failed)
			return;
	}
}

/* The server's waiting on block I/O: delay accounting and I/O pressure. */
static void read_server_wait(struct jsonr *jr, json_t *srv, const char *path, struct tel_phase *t)
{
	char sp[192];
	json_t *o;

	if (jsonr_has(srv, "delayacct"))
		t->delayacct_off = !jsonr_bool(jr, srv, path, "delayacct", JSONR_REQUIRED, false);
	snprintf(sp, sizeof(sp), "%s.blkio_wait", path);
	if ((o = jsonr_obj(jr, srv, path, "blkio_wait", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_blkio = true;
		t->blkio_wait = jsonr_num(jr, o, sp, "share", JSONR_REQUIRED, 0, 0);
	}
	snprintf(sp, sizeof(sp), "%s.io_pressure", path);
	if ((o = jsonr_obj(jr, srv, path, "io_pressure", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		const char *scope = jsonr_str(jr, o, sp, "scope", JSONR_REQUIRED, "system");
		t->has_psi = true;
		t->psi_cgroup = !strcmp(scope, "cgroup");
		if (!t->psi_cgroup && strcmp(scope, "system"))
			jsonr_fail(jr, sp, "scope", json_object_get(o, "scope"), "\"cgroup\" or \"system\"");
		t->psi_some = read_frac(jr, o, sp, "some", JSONR_REQUIRED);
		t->psi_full = json_is_number(json_object_get(o, "full")) ? read_frac(jr, o, sp, "full", JSONR_REQUIRED) : -1;
	}
}

static void read_tel_phase(struct jsonr *jr, json_t *phases, const char *name, const char *top,
			   struct tel_phase *t)
{
	char path[96], sp[160];
	json_t *ph = jsonr_obj(jr, phases, ".telemetry.phases", name, JSONR_OPTIONAL | JSONR_NULLABLE), *o;

	if (!ph)
		return;
	snprintf(path, sizeof(path), ".telemetry.phases.%s", name);
	t->present = true;
	t->seconds = jsonr_num(jr, ph, path, "seconds", JSONR_REQUIRED, 0, 0);
	snprintf(sp, sizeof(sp), "%s.host_cpu", path);
	if ((o = jsonr_obj(jr, ph, path, "host_cpu", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_host = true;
		t->host_busy = read_frac(jr, o, sp, "busy", JSONR_REQUIRED);
		t->host_iowait = read_frac(jr, o, sp, "iowait", JSONR_OPTIONAL);
		const char *src = jsonr_str(jr, o, sp, "source", JSONR_OPTIONAL, NULL);
		snprintf(t->host_source, sizeof(t->host_source), "%s", src ? src : "");
	}
	snprintf(sp, sizeof(sp), "%s.host_memory", path);
	if ((o = jsonr_obj(jr, ph, path, "host_memory", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_host_mem = true;
		t->host_mem_used = read_frac(jr, o, sp, "used", JSONR_REQUIRED);
	}
	read_tel_devs(jr, ph, path, top, &t->devs, &t->ndevs);
	snprintf(sp, sizeof(sp), "%s.driver", path);
	if ((o = jsonr_obj(jr, ph, path, "driver", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_driver = true;
		t->driver_cores = jsonr_num(jr, o, sp, "cores", JSONR_REQUIRED, 0, 0);
		t->driver_loops = (unsigned)jsonr_int(jr, o, sp, "event_loops", JSONR_REQUIRED, 1, 1);
		if (jsonr_has(o, "conn_wait")) {
			t->has_conn_wait = true;
			t->conn_wait = read_frac(jr, o, sp, "conn_wait", JSONR_REQUIRED);
		}
	}
	snprintf(sp, sizeof(sp), "%s.guest", path);
	if ((o = jsonr_obj(jr, ph, path, "guest", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_guest = true;
		t->guest_busy = read_frac(jr, o, sp, "busy", JSONR_REQUIRED);
		t->guest_vcpus = (unsigned)jsonr_int(jr, o, sp, "vcpus", JSONR_OPTIONAL, 1, 0);
	}
	snprintf(sp, sizeof(sp), "%s.server", path);
	if ((o = jsonr_obj(jr, ph, path, "server", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_server = true;
		t->server_cores = jsonr_num(jr, o, sp, "cores", JSONR_REQUIRED, 0, 0);
		read_server_wait(jr, o, sp, t);
	}
	snprintf(sp, sizeof(sp), "%s.vm_disk_wait", path);
	if ((o = jsonr_obj(jr, ph, path, "vm_disk_wait", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		t->has_vm_wait = true;
		t->vm_wait = jsonr_num(jr, o, sp, "share", JSONR_REQUIRED, 0, 0);
	}
}

/* The driver's own CPU (format 1.1) stands in for a sampler's reading of it. */
static void driver_from_result(const struct run *r, const struct phase_stat *p, struct tel_phase *t)
{
	if (t->has_driver || !p->present || !p->has_cpu || !r->driver_loops || !(p->seconds > 0))
		return;
	if (!t->present) {
		t->present = true;
		t->seconds = p->seconds;
	}
	t->has_driver = true;
	t->driver_cores = p->cpu_s / p->seconds;
	t->driver_loops = r->driver_loops;
}

/* A "telemetry" object: the result's own (written before telemetry files) or its telemetry file's. */
static void tel_block(struct jsonr *jr, struct run *r, json_t *t)
{
	const char *top = NULL;
	json_t *d, *ph;

	r->has_tel = true;
	r->host_cpus = (unsigned)jsonr_int(jr, t, ".telemetry", "host_cpus", JSONR_OPTIONAL, 1, 0);
	if ((d = jsonr_obj(jr, t, ".telemetry", "drive", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		const char *stack = jsonr_str(jr, d, ".telemetry.drive", "stack", JSONR_OPTIONAL | JSONR_NULLABLE, NULL);
		r->drive_stack = stack ? xstrdup(stack) : NULL;
		top = jsonr_str(jr, d, ".telemetry.drive", "top", JSONR_OPTIONAL | JSONR_NULLABLE, NULL);
	}
	ph = jsonr_obj(jr, t, ".telemetry", "phases", JSONR_REQUIRED);
	read_tel_phase(jr, ph, "precondition", top, &r->tel_pre);
	read_tel_phase(jr, ph, "sample", top, &r->tel_sample);
}

/* "telemetry" of result format 1.1: absent in 1.0 results, in runs without a sampler and in
 * results whose telemetry is in their own file (results_merge_telemetry). */
void rd_telemetry(struct jsonr *jr, struct run *r, json_t *root)
{
	json_t *t = jsonr_obj(jr, root, "", "telemetry", JSONR_OPTIONAL | JSONR_NULLABLE), *d;

	if ((d = jsonr_obj(jr, root, "", "driver", JSONR_OPTIONAL | JSONR_NULLABLE)))
		r->driver_loops = (unsigned)jsonr_int(jr, d, ".driver", "event_loops", JSONR_OPTIONAL, 1, 0);
	if (t)
		tel_block(jr, r, t);
	driver_from_result(r, &r->pre, &r->tel_pre);
	driver_from_result(r, &r->sample, &r->tel_sample);
}

/* The run's phase telemetry as a result without any reads: the driver's own CPU only. */
static void tel_reset(struct run *r)
{
	tel_phase_release(&r->tel_pre);
	tel_phase_release(&r->tel_sample);
	memset(&r->tel_pre, 0, sizeof(r->tel_pre));
	memset(&r->tel_sample, 0, sizeof(r->tel_sample));
	free(r->drive_stack);
	r->drive_stack = NULL;
	r->has_tel = false;
	r->host_cpus = 0;
}

/* The telemetry file's intervals onto the run's, matched in order by phase and time. */
static void merge_intervals(struct jsonr *jr, struct run *r, json_t *arr)
{
	char path[64];
	size_t i, k = 0;
	json_t *v;

	json_array_foreach(arr, i, v) {
		enum result_phase ph;
		double t;

		if (rd_interval_at(jr, v, i, path, &ph, &t) < 0)
			return;
		while (k < r->nintervals && !(r->intervals[k].phase == ph && fabs(r->intervals[k].t - t) < 1e-6))
			k++;
		if (k == r->nintervals) {
			jsonr_fail(jr, path, "t", json_object_get(v, "t"), "the time of one of the result's intervals, in order");
			return;
		}
		rd_interval_tel(jr, v, path, &r->intervals[k++]);
		if (jr->failed)
			return;
	}
}

int results_merge_telemetry(struct run *r, const char *name, const char *text, struct strbuf *err)
{
	struct jsonr jr = {.file = name, .err = err};
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je), *t, *iv;
	const char *schema;

	if (!root) {
		strbuf_addf(err, "%s: line %d column %d: ", name, je.line, je.column);
		strbuf_add_oneline(err, je.text);
		strbuf_adds(err, " (expected valid JSON)");
		return -EINVAL;
	}
	schema = json_is_object(root) && json_is_string(json_object_get(root, "schema")) ?
		 json_string_value(json_object_get(root, "schema")) : NULL;
	if (rd_schema_check(schema, TELEMETRY_FAMILY) != 0) {
		jsonr_fail(&jr, "", "schema", json_object_get(root, "schema"),
			   "\"" TELEMETRY_MAJOR "\"; this dbrig reads major version 1 only");
		goto out;
	}
	/* The file's telemetry replaces whatever the result carried (a result written before telemetry files). */
	tel_reset(r);
	if ((t = jsonr_obj(&jr, root, "", "telemetry", JSONR_REQUIRED)))
		tel_block(&jr, r, t);
	driver_from_result(r, &r->pre, &r->tel_pre);
	driver_from_result(r, &r->sample, &r->tel_sample);
	if (!jr.failed && json_is_object(json_object_get(root, "test_bed")) && !r->ndrive_ids)
		rd_test_bed(r, root);
	iv = jsonr_arr(&jr, root, "", "intervals", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (iv && !jr.failed)
		merge_intervals(&jr, r, iv);
out:
	json_decref(root);
	return jr.failed ? -EINVAL : 0;
}

/* An interval's "telemetry": host CPU and the busiest device. */
void rd_interval_tel(struct jsonr *jr, json_t *v, const char *path, struct interval_pt *pt)
{
	json_t *t = jsonr_obj(jr, v, path, "telemetry", JSONR_OPTIONAL | JSONR_NULLABLE);
	struct tel_dev *devs = NULL;
	size_t ndevs = 0;
	char tp[96];

	if (!t)
		return;
	snprintf(tp, sizeof(tp), "%s.telemetry", path);
	pt->has_tel = true;
	if (jsonr_has(t, "host_cpu_busy")) {
		pt->has_host = true;
		pt->host_busy = read_frac(jr, t, tp, "host_cpu_busy", JSONR_REQUIRED);
	}
	read_tel_devs(jr, t, tp, NULL, &devs, &ndevs);
	for (size_t i = 0; i < ndevs; i++) {
		if (devs[i].has_util && (!pt->has_dev || devs[i].util > pt->dev_util)) {
			pt->has_dev = true;
			pt->dev_util = devs[i].util;
			pt->dev_await_ms = devs[i].await_ms;
		}
		free(devs[i].name);
	}
	free(devs);
}
