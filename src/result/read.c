/*
 * Reader for dbrig.result/1 files and dbrig.journal/1 journals (see
 * docs/result-format.md). Strict: a value of the wrong type or range is an
 * error naming the file and JSON path, never silently zero.
 */
#include "result/read.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "result/result.h"
#include "stats/hist.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 0: major version 1 of `family`; -1: another major; 1: not this family. */
static int schema_check(const char *schema, const char *family)
{
	size_t n = strlen(family);
	const char *v;

	if (!schema || strncmp(schema, family, n))
		return 1;
	v = schema + n;
	if (v[0] == '1' && (v[1] == '\0' || v[1] == '.'))
		return 0;
	return -1;
}

/* The buffer's string; sb is released (strbuf_detach alone leaves a new buffer). */
static char *take(struct strbuf *sb)
{
	char *s = strbuf_detach(sb);

	strbuf_release(sb);
	return s;
}

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

/* "key=value ..." with keys sorted, so equal params give equal strings. */
static char *params_canonical(json_t *params, bool *open_loop)
{
	struct strbuf sb;
	const char **keys = NULL;
	const char *key;
	json_t *v;
	size_t n = 0, i = 0;

	*open_loop = false;
	if (!params)
		return xstrdup("");
	strbuf_init(&sb, 0);
	keys = xcalloc(json_object_size(params), sizeof(*keys));
	json_object_foreach(params, key, v)
		keys[n++] = key;
	for (i = 1; i < n; i++) {
		for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
			const char *t = keys[j];
			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	}
	for (i = 0; i < n; i++) {
		v = json_object_get(params, keys[i]);
		if (sb.len)
			strbuf_addc(&sb, ' ');
		if (json_is_string(v)) {
			strbuf_addf(&sb, "%s=%s", keys[i], json_string_value(v));
		} else {
			char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			strbuf_addf(&sb, "%s=%s", keys[i], d ? d : "?");
			free(d);
		}
		/* Rate-limited or think-time runs are open loop (latency counts queueing). */
		if (!strcmp(keys[i], "rate") && json_is_number(v) && json_number_value(v) > 0)
			*open_loop = true;
		if ((!strcmp(keys[i], "think_time") || !strcmp(keys[i], "keying_time") || !strcmp(keys[i], "delays")) &&
		    !(json_is_string(v) && !strcmp(json_string_value(v), "off")) &&
		    !(json_is_number(v) && json_number_value(v) == 0) && !json_is_false(v) && !json_is_null(v))
			*open_loop = true;
	}
	free(keys);
	return take(&sb);
}

static void health_of(json_t *o, struct drive_health *h)
{
	json_t *v;

	memset(h, 0, sizeof(*h));
	if (json_is_boolean(v = json_object_get(o, "smart_passed"))) {
		h->has_passed = true;
		h->passed = json_is_true(v);
	}
	if (json_is_integer(v = json_object_get(o, "temperature_c"))) {
		h->has_temp = true;
		h->temp_c = (int)json_integer_value(v);
	}
	if (json_is_integer(v = json_object_get(o, "media_wear_pct"))) {
		h->has_wear = true;
		h->wear_pct = (int)json_integer_value(v);
	}
	if (json_is_integer(v = json_object_get(o, "data_written_bytes")) && json_integer_value(v) >= 0) {
		h->has_written = true;
		h->written_bytes = (uint64_t)json_integer_value(v);
	}
}

static void copy_str(json_t *o, const char *key, char *out, size_t n)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(out, n, "%s", v ? v : "");
}

/* test_bed.drives (written by the campaign, core/driveid.h): optional, read as far as it is well formed. */
static void read_test_bed(struct run *r, json_t *root)
{
	json_t *host = json_object_get(json_object_get(root, "test_bed"), "host");
	json_t *drives = json_object_get(json_object_get(root, "test_bed"), "drives"), *d;
	size_t i;

	if (json_is_object(host)) {
		json_t *v;
		copy_str(host, "cpu_model", r->host.cpu_model, sizeof(r->host.cpu_model));
		copy_str(host, "kernel", r->host.kernel, sizeof(r->host.kernel));
		if (json_is_integer(v = json_object_get(host, "cpus")) && json_integer_value(v) > 0)
			r->host.cpus = (unsigned)json_integer_value(v);
		if (json_is_integer(v = json_object_get(host, "ram_bytes")) && json_integer_value(v) > 0)
			r->host.ram_bytes = (uint64_t)json_integer_value(v);
	}

	if (!json_is_array(drives) || !json_array_size(drives))
		return;
	r->drive_ids = xcalloc(json_array_size(drives), sizeof(*r->drive_ids));
	json_array_foreach(drives, i, d) {
		struct run_drive *rd = &r->drive_ids[r->ndrive_ids];
		json_t *v;

		if (!json_is_object(d))
			continue;
		copy_str(d, "dev", rd->id.dev, sizeof(rd->id.dev));
		copy_str(d, "model", rd->id.model, sizeof(rd->id.model));
		copy_str(d, "serial", rd->id.serial, sizeof(rd->id.serial));
		copy_str(d, "firmware", rd->id.firmware, sizeof(rd->id.firmware));
		if (json_is_integer(v = json_object_get(d, "capacity_bytes")) && json_integer_value(v) > 0)
			rd->id.size_bytes = (uint64_t)json_integer_value(v);
		if (json_is_integer(v = json_object_get(d, "logical_block_size")) && json_integer_value(v) > 0)
			rd->id.logical_block = (unsigned)json_integer_value(v);
		if (json_is_integer(v = json_object_get(d, "physical_block_size")) && json_integer_value(v) > 0)
			rd->id.physical_block = (unsigned)json_integer_value(v);
		health_of(json_object_get(d, "before"), &rd->before);
		health_of(json_object_get(d, "after"), &rd->after);
		r->ndrive_ids++;
	}
}

/*
 * A sysbench result measured on the golden copy its run.golden names
 * ("tables=N rows=M …", the copy's fingerprint): N tables of table_size rows
 * each, as its params say, or the result was measured on other data (a
 * golden copy reused after the workload changed).
 */
static void golden_check(struct run *r, const char *kind, const char *golden, json_t *params)
{
	json_t *t = json_object_get(params, "tables"), *s = json_object_get(params, "table_size");
	unsigned long long gt, gr;
	struct strbuf sb;

	if (!golden || strcmp(kind, "sysbench") || !json_is_integer(t) || !json_is_integer(s) ||
	    sscanf(golden, "tables=%llu rows=%llu", &gt, &gr) != 2)
		return;
	if (gt == (unsigned long long)json_integer_value(t) &&
	    gr == gt * (unsigned long long)json_integer_value(s))
		return;
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "its golden copy holds tables=%llu rows=%llu, its params say tables=%lld table_size=%lld", gt,
		    gr, (long long)json_integer_value(t), (long long)json_integer_value(s));
	r->golden_mismatch = take(&sb);
}

static void read_identity(struct jsonr *jr, struct run *r, json_t *root)
{
	json_t *run = jsonr_obj(jr, root, "", "run", JSONR_REQUIRED);
	json_t *wl = jsonr_obj(jr, root, "", "workload", JSONR_REQUIRED);
	json_t *eng = jsonr_obj(jr, root, "", "engine", JSONR_OPTIONAL | JSONR_NULLABLE);
	const char *kind;

	json_t *tool = jsonr_obj(jr, root, "", "tool", JSONR_OPTIONAL | JSONR_NULLABLE);

	r->tool_version = dup_or_empty(tool ? jsonr_str(jr, tool, ".tool", "version", JSONR_OPTIONAL | JSONR_NULLABLE, "")
					    : "");
	read_test_bed(r, root);
	r->started_at = dup_or_empty(jsonr_str(jr, root, "", "started_at", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->finished_at = dup_or_empty(jsonr_str(jr, root, "", "finished_at", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->campaign = dup_or_empty(jsonr_str(jr, run, ".run", "campaign", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->run_group = dup_or_empty(jsonr_str(jr, run, ".run", "run_group", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->drive = dup_or_empty(jsonr_str(jr, run, ".run", "drive", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->run_id = dup_or_empty(jsonr_str(jr, run, ".run", "run_id", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->run_started = dup_or_empty(jsonr_str(jr, run, ".run", "run_started", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->storage = dup_or_empty(jsonr_str(jr, run, ".run", "storage", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->instance = dup_or_empty(jsonr_str(jr, run, ".run", "instance", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->vm_count = jsonr_int(jr, run, ".run", "vm_count", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 1);
	r->repetition = jsonr_int(jr, run, ".run", "repetition", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 1);
	r->steady_window = jsonr_int(jr, run, ".run", "steady_window", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	kind = jsonr_str(jr, wl, ".workload", "kind", JSONR_REQUIRED, "");
	if (!jr->failed && strcmp(kind, "sysbench") && strcmp(kind, "tpcc"))
		jsonr_fail(jr, ".workload", "kind", json_object_get(wl, "kind"), "\"sysbench\" or \"tpcc\"");
	r->kind = dup_or_empty(kind);
	r->test = dup_or_empty(jsonr_str(jr, wl, ".workload", "test", JSONR_OPTIONAL | JSONR_NULLABLE, ""));
	r->params = params_canonical(jsonr_obj(jr, wl, ".workload", "params", JSONR_OPTIONAL | JSONR_NULLABLE), &r->open_loop);
	golden_check(r, kind, jsonr_str(jr, run, ".run", "golden", JSONR_OPTIONAL | JSONR_NULLABLE, NULL),
		     json_object_get(wl, "params"));
	if (eng) {
		const char *drv = jsonr_str(jr, eng, ".engine", "driver", JSONR_OPTIONAL | JSONR_NULLABLE, "");
		const char *ver = jsonr_str(jr, eng, ".engine", "server_version", JSONR_OPTIONAL | JSONR_NULLABLE, "");
		struct strbuf sb;

		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "%s%s%s", drv, *drv && *ver ? " " : "", ver);
		r->engine = take(&sb);
	} else {
		r->engine = xstrdup("");
	}
}

/* Histogram buckets [[index, count], ...] added into *hp (allocated on first use). */
static void read_counts(struct jsonr *jr, json_t *counts, const char *path, struct hist **hp)
{
	char p[160];
	size_t i;
	json_t *pair;

	if (jr->failed || !counts)
		return;
	if (!*hp && hist_init(hp) < 0) {
		jsonr_fail(jr, path, NULL, NULL, "memory for a histogram");
		return;
	}
	json_array_foreach(counts, i, pair) {
		json_t *ji = json_array_get(pair, 0), *jc = json_array_get(pair, 1);
		uint64_t have;

		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(ji) ||
		    !json_is_integer(jc) || json_integer_value(ji) < 0 || json_integer_value(jc) < 0 ||
		    json_integer_value(ji) >= HIST_BUCKETS) {
			char what[96];
			snprintf(what, sizeof(what), "[bucket index 0..%d, count >= 0]", HIST_BUCKETS - 1);
			jsonr_fail(jr, p, NULL, pair, what);
			return;
		}
		have = (*hp)->counts[json_integer_value(ji)];
		if (hist_set_bucket(*hp, (size_t)json_integer_value(ji), have + (uint64_t)json_integer_value(jc)) < 0) {
			jsonr_fail(jr, p, NULL, pair, "a valid bucket index of layout loglin-ns-7");
			return;
		}
	}
}

/* min/max/sum from bucket bounds when the exact ones were not stored (journal). */
static void hist_fill_approx(struct hist *h)
{
	size_t cur = 0, idx;
	uint64_t cnt;
	bool first = true;

	h->sum = 0;
	while (hist_next_bucket(h, &cur, &idx, &cnt)) {
		if (first)
			h->min = hist_bucket_lowest(idx);
		first = false;
		h->max = hist_bucket_highest(idx);
		h->sum += (long double)hist_bucket_mid(idx) * cnt;
	}
}

static void read_histogram(struct jsonr *jr, json_t *ph, const char *path, struct phase_stat *p)
{
	char hp[128];
	json_t *h;
	const char *layout;
	uint64_t total;

	snprintf(hp, sizeof(hp), "%s.histogram", path);
	h = jsonr_obj(jr, ph, path, "histogram", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (!h)
		return;
	layout = jsonr_str(jr, h, hp, "layout", JSONR_REQUIRED, "");
	if (!jr->failed && strcmp(layout, "loglin-ns-7")) {
		jsonr_fail(jr, hp, "layout", json_object_get(h, "layout"), "\"loglin-ns-7\"");
		return;
	}
	char cp[160];
	snprintf(cp, sizeof(cp), "%s.counts", hp);
	read_counts(jr, jsonr_arr(jr, h, hp, "counts", JSONR_REQUIRED), cp, &p->hist);
	if (jr->failed)
		return;
	if (!p->hist && hist_init(&p->hist) < 0) {
		jsonr_fail(jr, hp, NULL, NULL, "memory for a histogram");
		return;
	}
	total = (uint64_t)jsonr_int(jr, h, hp, "total", JSONR_REQUIRED, 0, 0);
	if (!jr->failed && total != p->hist->total) {
		char what[96];
		snprintf(what, sizeof(what), "the sum of the bucket counts, %llu", (unsigned long long)p->hist->total);
		jsonr_fail(jr, hp, "total", json_object_get(h, "total"), what);
		return;
	}
	p->hist->overflow = (uint64_t)jsonr_int(jr, h, hp, "overflow", JSONR_OPTIONAL, 0, 0);
	if (total) {
		double mn = jsonr_num(jr, h, hp, "min_ns", JSONR_REQUIRED, 0, 0);
		double mx = jsonr_num(jr, h, hp, "max_ns", JSONR_REQUIRED, 0, 0);

		/* Converting a double beyond uint64 is undefined: refuse it first. */
		if (!jr->failed && (mn >= 0x1p64 || mx >= 0x1p64)) {
			const char *k = mn >= 0x1p64 ? "min_ns" : "max_ns";
			jsonr_fail(jr, hp, k, json_object_get(h, k), "nanoseconds below 2^64");
			return;
		}
		p->hist->min = (uint64_t)mn;
		p->hist->max = (uint64_t)mx;
		p->hist->sum = jsonr_num(jr, h, hp, "sum_ns", JSONR_REQUIRED, 0, 0);
		if (!jr->failed && p->hist->min > p->hist->max)
			jsonr_fail(jr, hp, "min_ns", json_object_get(h, "min_ns"), "min_ns <= max_ns");
	}
}

static void read_types(struct jsonr *jr, json_t *ph, const char *path, struct phase_stat *p)
{
	char tp[128], ep[256];
	json_t *types = jsonr_obj(jr, ph, path, "types", JSONR_OPTIONAL | JSONR_NULLABLE);
	const char *key;
	json_t *t;
	size_t n = 0;

	if (!types)
		return;
	snprintf(tp, sizeof(tp), "%s.types", path);
	p->types = xcalloc(json_object_size(types) + 1, sizeof(*p->types));
	json_object_foreach(types, key, t) {
		struct type_stat *ts = &p->types[n];

		snprintf(ep, sizeof(ep), "%s.%s", tp, key);
		if (!json_is_object(t)) {
			jsonr_fail(jr, tp, key, t, "an object");
			break;
		}
		ts->name = xstrdup(key);
		p->ntypes = ++n;
		ts->count = (uint64_t)jsonr_int(jr, t, ep, "count", JSONR_REQUIRED, 0, 0);
		ts->avg_ms = jsonr_num(jr, t, ep, "avg_ms", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
		ts->p90_ms = jsonr_num(jr, t, ep, "p90_ms", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
		ts->p99_ms = jsonr_num(jr, t, ep, "p99_ms", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
		ts->max_ms = jsonr_num(jr, t, ep, "max_ms", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	}
}

static void read_phase(struct jsonr *jr, json_t *phases, const char *name, struct phase_stat *p)
{
	char path[64], sp[128];
	json_t *ph, *o;

	snprintf(path, sizeof(path), ".phases.%s", name);
	ph = jsonr_obj(jr, phases, ".phases", name, JSONR_OPTIONAL | JSONR_NULLABLE);
	if (!ph)
		return;
	p->present = true;
	p->complete = jsonr_bool(jr, ph, path, "complete", JSONR_OPTIONAL, true);
	p->seconds = jsonr_num(jr, ph, path, "seconds", JSONR_REQUIRED, 0, 0);
	p->threads = jsonr_int(jr, ph, path, "threads", JSONR_REQUIRED, 0, 0);
	p->transactions = (uint64_t)jsonr_int(jr, ph, path, "transactions", JSONR_REQUIRED, 0, 0);
	p->tps = jsonr_num(jr, ph, path, "tps", JSONR_REQUIRED, 0, 0);
	/*
	 * tps is transactions / seconds (both written to 3 decimals; fixtures by
	 * hand to 2): a value beyond that is not a measurement. Two results of
	 * tps 1.7e308 summed to inf, and report.json lost the group's figures.
	 */
	if (!jr->failed && p->seconds > 0) {
		double want = (double)p->transactions / p->seconds;
		double slack = want * (1e-3 + 0.0005 / p->seconds) + 0.01;
		if (fabs(p->tps - want) > slack) {
			char why[160];
			snprintf(why, sizeof(why), "transactions / seconds: %.3f from %llu transactions in %.3f s", want,
				 (unsigned long long)p->transactions, p->seconds);
			jsonr_fail(jr, path, "tps", json_object_get(ph, "tps"), why);
		}
	}
	p->qps = jsonr_num(jr, ph, path, "qps", JSONR_OPTIONAL, 0, 0);
	snprintf(sp, sizeof(sp), "%s.queries", path);
	o = jsonr_obj(jr, ph, path, "queries", JSONR_OPTIONAL | JSONR_NULLABLE);
	p->q_read = (uint64_t)jsonr_int(jr, o, sp, "read", JSONR_OPTIONAL, 0, 0);
	p->q_write = (uint64_t)jsonr_int(jr, o, sp, "write", JSONR_OPTIONAL, 0, 0);
	p->q_other = (uint64_t)jsonr_int(jr, o, sp, "other", JSONR_OPTIONAL, 0, 0);
	p->q_total = (uint64_t)jsonr_int(jr, o, sp, "total", JSONR_OPTIONAL, 0, 0);
	snprintf(sp, sizeof(sp), "%s.errors", path);
	o = jsonr_obj(jr, ph, path, "errors", JSONR_OPTIONAL | JSONR_NULLABLE);
	p->err_ignored = (uint64_t)jsonr_int(jr, o, sp, "ignored", JSONR_OPTIONAL, 0, 0);
	p->err_reconnects = (uint64_t)jsonr_int(jr, o, sp, "reconnects", JSONR_OPTIONAL, 0, 0);
	p->err_fatal = (uint64_t)jsonr_int(jr, o, sp, "fatal", JSONR_OPTIONAL, 0, 0);
	snprintf(sp, sizeof(sp), "%s.latency_ms", path);
	o = jsonr_obj(jr, ph, path, "latency_ms", JSONR_REQUIRED);
	p->lat_min_ms = jsonr_num(jr, o, sp, "min", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	p->lat_avg_ms = jsonr_num(jr, o, sp, "avg", JSONR_REQUIRED, 0, 0);
	p->lat_max_ms = jsonr_num(jr, o, sp, "max", JSONR_OPTIONAL | JSONR_NULLABLE, 0, 0);
	p->lat_sum_ms = jsonr_num(jr, o, sp, "sum", JSONR_OPTIONAL | JSONR_NULLABLE, 0,
			       p->lat_avg_ms * (double)p->transactions);
	if (o) {
		char pp[160];
		json_t *pct = jsonr_obj(jr, o, sp, "percentiles", JSONR_OPTIONAL | JSONR_NULLABLE);

		snprintf(pp, sizeof(pp), "%s.percentiles", sp);
		if (jsonr_has(pct, "99")) {
			p->has_p99 = true;
			p->p99_ms = jsonr_num(jr, pct, pp, "99", JSONR_REQUIRED, 0, 0);
		}
	}
	snprintf(sp, sizeof(sp), "%s.cpu", path);
	if ((o = jsonr_obj(jr, ph, path, "cpu", JSONR_OPTIONAL | JSONR_NULLABLE))) {
		p->has_cpu = true;
		p->cpu_s = jsonr_num(jr, o, sp, "seconds", JSONR_REQUIRED, 0, 0);
	}
	read_histogram(jr, ph, path, p);
	/* An instance p99 for the published mean-of-p99s: the stored one, else from its own histogram. */
	if (!jr->failed && !p->has_p99 && p->hist && p->hist->total) {
		p->has_p99 = true;
		p->p99_from_hist = true;
		p->p99_ms = (double)hist_value_at_percentile(p->hist, 99.0) / 1e6;
	}
	read_types(jr, ph, path, p);
}

static int phase_parse(struct jsonr *jr, json_t *v, const char *path, enum result_phase *out)
{
	const char *s = jsonr_str(jr, v, path, "phase", JSONR_REQUIRED, "");

	if (jr->failed)
		return -EINVAL;
	if (!strcmp(s, "precondition")) {
		*out = RESULT_PHASE_PRECONDITION;
	} else if (!strcmp(s, "sample")) {
		*out = RESULT_PHASE_SAMPLE;
	} else {
		jsonr_fail(jr, path, "phase", json_object_get(v, "phase"), "\"precondition\" or \"sample\"");
		return -EINVAL;
	}
	return 0;
}

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

/* "telemetry" of result format 1.1: absent in 1.0 results and in runs without a sampler. */
static void read_telemetry(struct jsonr *jr, struct run *r, json_t *root)
{
	json_t *t = jsonr_obj(jr, root, "", "telemetry", JSONR_OPTIONAL | JSONR_NULLABLE), *d, *ph;
	const char *top = NULL;

	if ((d = jsonr_obj(jr, root, "", "driver", JSONR_OPTIONAL | JSONR_NULLABLE)))
		r->driver_loops = (unsigned)jsonr_int(jr, d, ".driver", "event_loops", JSONR_OPTIONAL, 1, 0);
	if (!t) {
		driver_from_result(r, &r->pre, &r->tel_pre);
		driver_from_result(r, &r->sample, &r->tel_sample);
		return;
	}
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
	driver_from_result(r, &r->pre, &r->tel_pre);
	driver_from_result(r, &r->sample, &r->tel_sample);
}

/* An interval's "telemetry": host CPU and the busiest device. */
static void read_interval_tel(struct jsonr *jr, json_t *v, const char *path, struct interval_pt *pt)
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

static void add_interval(struct run *r, size_t *cap, enum result_phase ph, double t, double secs, double tps)
{
	if (r->nintervals == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		r->intervals = xrealloc(r->intervals, *cap * sizeof(*r->intervals));
	}
	r->intervals[r->nintervals++] = (struct interval_pt){.phase = ph, .t = t, .seconds = secs, .tps = tps};
}

static void read_intervals(struct jsonr *jr, struct run *r, json_t *arr)
{
	char path[64];
	size_t i, cap = 0;
	json_t *v;

	json_array_foreach(arr, i, v) {
		enum result_phase ph;
		double t, secs, tps;

		snprintf(path, sizeof(path), ".intervals[%zu]", i);
		if (!json_is_object(v)) {
			jsonr_fail(jr, path, NULL, v, "an object");
			return;
		}
		if (phase_parse(jr, v, path, &ph) < 0)
			return;
		t = jsonr_num(jr, v, path, "t", JSONR_REQUIRED, 0, 0);
		tps = jsonr_num(jr, v, path, "tps", JSONR_REQUIRED, 0, 0);
		secs = jsonr_num(jr, v, path, "seconds", JSONR_OPTIONAL, 0, 0);
		if (jr->failed)
			return;
		add_interval(r, &cap, ph, t, secs, tps);
		read_interval_tel(jr, v, path, &r->intervals[r->nintervals - 1]);
	}
}

static int status_parse(struct jsonr *jr, json_t *root, const char *path, enum result_run_status *out)
{
	const char *s = jsonr_str(jr, root, path, "status", JSONR_REQUIRED, "");

	if (jr->failed)
		return -EINVAL;
	if (!strcmp(s, "complete")) {
		*out = RESULT_RUN_COMPLETE;
	} else if (!strcmp(s, "interrupted")) {
		*out = RESULT_RUN_INTERRUPTED;
	} else if (!strcmp(s, "failed")) {
		*out = RESULT_RUN_FAILED;
	} else if (!strcmp(s, "degraded")) {
		*out = RESULT_RUN_DEGRADED;
	} else {
		jsonr_fail(jr, path, "status", json_object_get(root, "status"),
			   "\"complete\", \"degraded\", \"interrupted\" or \"failed\"");
		return -EINVAL;
	}
	return 0;
}

static json_t *parse_text(const char *name, const char *text, struct strbuf *err)
{
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);

	if (!root) {
		strbuf_addf(err, "%s: line %d column %d: ", name, je.line, je.column);
		strbuf_add_oneline(err, je.text);
		strbuf_adds(err, " (expected valid JSON)");
		return NULL;
	}
	return root;
}

int results_parse_result(const char *name, const char *text, struct run **out, struct strbuf *err)
{
	struct jsonr jr = {.file = name, .err = err};
	json_t *root = NULL, *phases, *iv;
	struct run *r = NULL;
	const char *schema;
	int ret = -EINVAL;

	*out = NULL;
	root = parse_text(name, text, err);
	if (!root)
		goto out;
	if (!json_is_object(root)) {
		ret = 1;
		goto out;
	}
	schema = json_is_string(json_object_get(root, "schema")) ?
		 json_string_value(json_object_get(root, "schema")) : NULL;
	switch (schema_check(schema, RESULT_FAMILY)) {
	case 1:
		ret = 1;
		goto out;
	case -1:
		jsonr_fail(&jr, "", "schema", json_object_get(root, "schema"),
			"\"" RESULT_MAJOR "\"; this dbrig reads major version 1 only, use a newer dbrig");
		goto out;
	}
	r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(name);
	if (status_parse(&jr, root, "", &r->status) < 0)
		goto out;
	{
		const char *e = jsonr_str(&jr, root, "", "error", JSONR_OPTIONAL | JSONR_NULLABLE, NULL);
		r->error = e ? xstrdup(e) : NULL;
	}
	{
		json_t *o = jsonr_obj(&jr, root, "", "outage", JSONR_OPTIONAL);
		if (o) {
			r->outage_s = jsonr_num(&jr, o, "outage", "seconds", JSONR_REQUIRED, 0, 0);
			r->outage_share = jsonr_num(&jr, o, "outage", "share", JSONR_REQUIRED, 0, 0);
		}
	}
	read_identity(&jr, r, root);
	phases = jsonr_obj(&jr, root, "", "phases", JSONR_REQUIRED);
	read_phase(&jr, phases, "precondition", &r->pre);
	read_phase(&jr, phases, "sample", &r->sample);
	iv = jsonr_arr(&jr, root, "", "intervals", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (iv)
		read_intervals(&jr, r, iv);
	read_telemetry(&jr, r, root);
	if (jr.failed)
		goto out;
	*out = r;
	r = NULL;
	ret = 0;
out:
	run_free(r);
	json_decref(root);
	return ret;
}

/* Accumulates one phase from journal interval lines. */
struct phase_acc {
	double seconds;
	uint64_t tx;
	double errs, reconns;
	int64_t threads;
	struct hist *h;
};

static void phase_from_acc(struct phase_acc *a, struct phase_stat *p, bool complete)
{
	p->present = true;
	p->complete = complete;
	p->seconds = a->seconds;
	p->threads = a->threads;
	p->transactions = a->tx;
	p->tps = a->seconds > 0 ? (double)a->tx / a->seconds : 0;
	p->err_ignored = (uint64_t)llround(a->errs);
	p->err_reconnects = (uint64_t)llround(a->reconns);
	p->lat_approx = true;
	p->hist = a->h;
	a->h = NULL;
	if (p->hist && p->hist->total) {
		hist_fill_approx(p->hist);
		p->lat_min_ms = (double)p->hist->min / 1e6;
		p->lat_max_ms = (double)p->hist->max / 1e6;
		p->lat_avg_ms = hist_mean(p->hist) / 1e6;
		p->lat_sum_ms = (double)(p->hist->sum / 1e6L);
		p->has_p99 = true;
		p->p99_ms = (double)hist_value_at_percentile(p->hist, 99.0) / 1e6;
	}
}

int results_parse_journal(const char *name, const char *text, struct run **out, struct strbuf *err)
{
	struct jsonr jr = {.file = name, .err = err};
	struct phase_acc acc[2] = {{0}};
	struct run *r = NULL;
	json_t *line = NULL;
	const char *p = text;
	size_t lineno = 0, cap = 0;
	bool ended = false;
	int ret = -EINVAL;

	*out = NULL;
	r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(name);
	r->journal = xstrdup(name);
	r->from_journal = true;
	r->status = RESULT_RUN_UNFINISHED;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char path[48];
		json_error_t je;
		const char *type;

		lineno++;
		snprintf(path, sizeof(path), "(line %zu)", lineno);
		line = json_loadb(p, len, JSON_REJECT_DUPLICATES, &je);
		p += len + (nl ? 1 : 0);
		if (!line) {
			if (!nl && lineno > 1) {
				log_warn("%s: line %zu: truncated last line ignored (run ended mid-write)", name, lineno);
				break;
			}
			if (len == 0)
				continue;
			strbuf_addf(err, "%s: line %zu: ", name, lineno);
			strbuf_add_oneline(err, je.text);
			strbuf_adds(err, " (expected one JSON object per line)");
			goto out;
		}
		if (!json_is_object(line)) {
			jsonr_fail(&jr, path, NULL, line, "a JSON object");
			goto out;
		}
		type = jsonr_str(&jr, line, path, "type", JSONR_REQUIRED, "");
		if (jr.failed)
			goto out;
		if (lineno == 1) {
			const char *schema = jsonr_str(&jr, line, path, "schema", JSONR_REQUIRED, "");

			if (strcmp(type, "header")) {
				jsonr_fail(&jr, path, "type", json_object_get(line, "type"), "\"header\" on the first line");
				goto out;
			}
			if (!jr.failed && schema_check(schema, JOURNAL_FAMILY) != 0) {
				jsonr_fail(&jr, path, "schema", json_object_get(line, "schema"),
					"\"" JOURNAL_MAJOR "\"; this dbrig reads major version 1 only");
				goto out;
			}
			read_identity(&jr, r, line);
		} else if (!strcmp(type, "interval")) {
			enum result_phase ph;
			struct phase_acc *a;
			double secs, t, tps;
			json_t *h;

			if (phase_parse(&jr, line, path, &ph) < 0)
				goto out;
			a = &acc[ph];
			t = jsonr_num(&jr, line, path, "t", JSONR_REQUIRED, 0, 0);
			tps = jsonr_num(&jr, line, path, "tps", JSONR_REQUIRED, 0, 0);
			secs = jsonr_num(&jr, line, path, "seconds", JSONR_REQUIRED, 0, 0);
			a->seconds += secs;
			a->tx += (uint64_t)jsonr_int(&jr, line, path, "transactions", JSONR_REQUIRED, 0, 0);
			a->errs += secs * jsonr_num(&jr, line, path, "err_s", JSONR_OPTIONAL, 0, 0);
			a->reconns += secs * jsonr_num(&jr, line, path, "reconn_s", JSONR_OPTIONAL, 0, 0);
			{
				int64_t th = jsonr_int(&jr, line, path, "threads", JSONR_OPTIONAL, 0, 0);
				if (th > a->threads)
					a->threads = th;
			}
			h = jsonr_obj(&jr, line, path, "histogram", JSONR_OPTIONAL | JSONR_NULLABLE);
			if (h) {
				char hp[80];
				snprintf(hp, sizeof(hp), "%s.histogram.counts", path);
				read_counts(&jr, jsonr_arr(&jr, h, hp, "counts", JSONR_REQUIRED), hp, &a->h);
			}
			if (jr.failed)
				goto out;
			add_interval(r, &cap, ph, t, secs, tps);
		} else if (!strcmp(type, "end")) {
			if (status_parse(&jr, line, path, &r->status) < 0)
				goto out;
			ended = true;
		} else {
			jsonr_fail(&jr, path, "type", json_object_get(line, "type"), "\"interval\" or \"end\"");
			goto out;
		}
		json_decref(line);
		line = NULL;
		if (jr.failed)
			goto out;
	}
	if (lineno == 0 || !r->kind) {
		strbuf_addf(err, "%s: line 1: missing header (expected {\"type\":\"header\",\"schema\":\"" JOURNAL_MAJOR "\",...})", name);
		goto out;
	}
	if (ended) {
		/* The run ended but its result file is not here. */
		r->error = xstrdup("journal ended but the result file is missing");
		r->status = RESULT_RUN_NO_RESULT;
	} else {
		r->error = xstrdup("journal has no end line: the run did not finish");
	}
	if (acc[RESULT_PHASE_PRECONDITION].seconds > 0 || acc[RESULT_PHASE_PRECONDITION].h)
		phase_from_acc(&acc[RESULT_PHASE_PRECONDITION], &r->pre, acc[RESULT_PHASE_SAMPLE].seconds > 0);
	if (acc[RESULT_PHASE_SAMPLE].seconds > 0 || acc[RESULT_PHASE_SAMPLE].h)
		phase_from_acc(&acc[RESULT_PHASE_SAMPLE], &r->sample, false);
	*out = r;
	r = NULL;
	ret = 0;
out:
	json_decref(line);
	hist_close(acc[0].h);
	hist_close(acc[1].h);
	run_free(r);
	return ret;
}

/* Intervals of a journal for a result file that carried none. */
static void journal_intervals_into(struct run *r, const char *name, const char *text)
{
	struct strbuf err;
	struct run *j = NULL;

	strbuf_init(&err, 0);
	if (results_parse_journal(name, text, &j, &err) < 0) {
		log_warn("%s", err.buf);
	} else {
		free(r->intervals);
		r->intervals = j->intervals;
		r->nintervals = j->nintervals;
		j->intervals = NULL;
		j->nintervals = 0;
	}
	run_free(j);
	strbuf_release(&err);
}

struct file_list {
	size_t n, cap;
	char **v;
};

#define WALK_MAX_DEPTH 32

/*
 * Every *.json / *.jsonl under root/rel. Links to folders are never followed
 * (a warning names them): `again -> .` made the walk count every result 41
 * times, and two such links made it exponential.
 * Links to files are read. The depth is bounded as well (bind mounts).
 */
static int walk(const char *root, const char *rel, struct file_list *fl, unsigned depth)
{
	struct strbuf dirpath;
	DIR *d = NULL;
	struct dirent *de;
	int ret = 0;

	strbuf_init(&dirpath, 0);
	strbuf_addf(&dirpath, "%s%s%s", root, *rel ? "/" : "", rel);
	d = opendir(dirpath.buf);
	if (!d) {
		ret = -errno;
		goto out;
	}
	while ((de = readdir(d))) {
		struct strbuf child, full;
		struct stat st;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		strbuf_init(&child, 0);
		strbuf_init(&full, 0);
		strbuf_addf(&child, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		strbuf_addf(&full, "%s/%s", root, child.buf);
		bool is_dir = false, dir_link = false;
		if (lstat(full.buf, &st) == 0) {
			if (S_ISLNK(st.st_mode))
				dir_link = stat(full.buf, &st) == 0 && S_ISDIR(st.st_mode);
			else
				is_dir = S_ISDIR(st.st_mode);
		}
		if (dir_link) {
			log_warn("%s: a link to a folder; not followed (expected results in real folders)", child.buf);
		} else if (is_dir) {
			if (depth >= WALK_MAX_DEPTH)
				ret = -ELOOP;
			else
				ret = walk(root, child.buf, fl, depth + 1);
		} else if ((n > 5 && !strcmp(de->d_name + n - 5, ".json")) ||
			   (n > 6 && !strcmp(de->d_name + n - 6, ".jsonl"))) {
			if (fl->n == fl->cap) {
				fl->cap = fl->cap ? fl->cap * 2 : 64;
				fl->v = xrealloc(fl->v, fl->cap * sizeof(*fl->v));
			}
			fl->v[fl->n++] = strbuf_detach(&child);
		}
		strbuf_release(&child);
		strbuf_release(&full);
		if (ret < 0)
			goto out;
	}
out:
	if (d)
		closedir(d);
	strbuf_release(&dirpath);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* "…/vm1.partial-2.json" or ".jsonl": an attempt that `campaign --resume` kept apart. */
static bool is_partial(const char *path)
{
	const char *dot = strrchr(path, '.'), *p;

	if (!dot)
		return false;
	for (p = dot; p > path && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	return p < dot && p - path >= 9 && !strncmp(p - 9, ".partial-", 9);
}

static void sort_by_path(struct run **v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		for (size_t j = i; j > 0 && strcmp(v[j - 1]->path, v[j]->path) > 0; j--) {
			struct run *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	}
}

int results_load_dir(const char *dir, struct run_set **out, struct strbuf *err)
{
	struct file_list fl = {0};
	struct run_set *rs = xcalloc(1, sizeof(*rs));
	struct strbuf full;
	char *text = NULL;
	int ret;

	*out = NULL;
	strbuf_init(&full, 0);
	ret = walk(dir, "", &fl, 0);
	if (ret < 0) {
		strbuf_addf(err, "%s: %s (expected a readable folder of results)", dir, strerror(-ret));
		goto out;
	}
	if (fl.n) /* qsort(NULL, 0, ...) is undefined */
		qsort(fl.v, fl.n, sizeof(*fl.v), cmp_str);
	rs->runs = xcalloc(fl.n + 1, sizeof(*rs->runs));
	rs->superseded = xcalloc(fl.n + 1, sizeof(*rs->superseded));
	/* Result files first, so journals can find their result. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < fl.n; i++) {
			bool is_journal = ends_with(fl.v[i], ".jsonl");
			bool partial = is_partial(fl.v[i]);
			struct run **list = partial ? rs->superseded : rs->runs;
			size_t *nlist = partial ? &rs->nsuperseded : &rs->n;
			struct run *r = NULL;

			if (is_journal != (pass == 1))
				continue;
			strbuf_reset(&full);
			strbuf_addf(&full, "%s/%s", dir, fl.v[i]);
			free(text);
			text = NULL;
			ret = read_file(full.buf, &text, NULL);
			if (ret < 0)
				strbuf_addf(err, "%s: %s (expected a readable file)", fl.v[i], read_file_strerror(ret));
			else if (!is_journal)
				ret = results_parse_result(fl.v[i], text, &r, err);
			/* A superseded attempt is history: one that cannot be read (an empty
			 * journal of a driver stopped by a full disk, seen in the fault soak)
			 * is left out with a warning instead of failing the whole report. */
			if (ret < 0 && partial) {
				log_warn("%s; an attempt kept by campaign --resume, left out", err->buf);
				strbuf_reset(err);
				continue;
			}
			if (ret < 0)
				goto out;
			if (!is_journal) {
				if (ret == 0)
					list[(*nlist)++] = r;
				continue;
			}
			/* A journal: does its result file sit beside it? */
			struct run *owner = NULL;
			size_t stem = strlen(fl.v[i]) - 1; /* "x.jsonl" -> "x.json" */
			for (size_t k = 0; k < *nlist; k++) {
				if (!strncmp(list[k]->path, fl.v[i], stem) && list[k]->path[stem] == '\0') {
					owner = list[k];
					break;
				}
			}
			if (owner) {
				owner->journal = xstrdup(fl.v[i]);
				if (!owner->nintervals)
					journal_intervals_into(owner, fl.v[i], text);
				continue;
			}
			ret = results_parse_journal(fl.v[i], text, &r, err);
			if (ret < 0 && partial) {
				log_warn("%s; an attempt kept by campaign --resume, left out", err->buf);
				strbuf_reset(err);
				continue;
			}
			if (ret < 0)
				goto out;
			list[(*nlist)++] = r;
		}
	}
	/* Keep the order by path, journals among their results. */
	sort_by_path(rs->runs, rs->n);
	sort_by_path(rs->superseded, rs->nsuperseded);
	*out = rs;
	rs = NULL;
	ret = 0;
out:
	free(text);
	for (size_t i = 0; i < fl.n; i++)
		free(fl.v[i]);
	free(fl.v);
	strbuf_release(&full);
	run_set_free(rs);
	return ret;
}
