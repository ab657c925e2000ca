/*
 * Reader for dbrig.result/1 files (see docs/result-format.md). Strict: a value
 * of the wrong type or range is an error naming the file and JSON path, never
 * silently zero. Its telemetry is read by read_tel.c, journals by
 * read_journal.c, folders of both by read_dir.c (result/read_int.h).
 */
#include "result/read.h"
#include "result/read_int.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "result/result.h"
#include "stats/hist.h"
#include "workload/registry.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rd_schema_check(const char *schema, const char *family)
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
void rd_test_bed(struct run *r, json_t *root)
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
	const struct workload_desc *wd;
	unsigned long long gt, gr;
	struct strbuf sb;

	if (!golden || !(wd = workload_find(kind)) || !wd->fingerprint_tables_rows || !json_is_integer(t) || !json_is_integer(s) ||
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

void rd_identity(struct jsonr *jr, struct run *r, json_t *root)
{
	json_t *run = jsonr_obj(jr, root, "", "run", JSONR_REQUIRED);
	json_t *wl = jsonr_obj(jr, root, "", "workload", JSONR_REQUIRED);
	json_t *eng = jsonr_obj(jr, root, "", "engine", JSONR_OPTIONAL | JSONR_NULLABLE);
	const char *kind;

	json_t *tool = jsonr_obj(jr, root, "", "tool", JSONR_OPTIONAL | JSONR_NULLABLE);

	r->tool_version = dup_or_empty(tool ? jsonr_str(jr, tool, ".tool", "version", JSONR_OPTIONAL | JSONR_NULLABLE, "")
					    : "");
	rd_test_bed(r, root);
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
	if (!jr->failed && !workload_find(kind))
		workload_kind_fail(jr, ".workload", "kind", json_object_get(wl, "kind"));
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
void rd_counts(struct jsonr *jr, json_t *counts, const char *path, struct hist **hp)
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

		if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(ji) ||
		    !json_is_integer(jc) || json_integer_value(ji) < 0 || json_integer_value(jc) < 0 ||
		    json_integer_value(ji) >= HIST_BUCKETS) {
			char what[96];
			snprintf(what, sizeof(what), "[bucket index 0..%d, count >= 0]", HIST_BUCKETS - 1);
			/* The pair's path only for the message: a journal has 1,000s of pairs. */
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
			jsonr_fail(jr, p, NULL, pair, what);
			return;
		}
		have = (*hp)->counts[json_integer_value(ji)];
		if (hist_set_bucket(*hp, (size_t)json_integer_value(ji), have + (uint64_t)json_integer_value(jc)) < 0) {
			snprintf(p, sizeof(p), "%s[%zu]", path, i);
			jsonr_fail(jr, p, NULL, pair, "a valid bucket index of layout loglin-ns-7");
			return;
		}
	}
}

/* min/max/sum from bucket bounds when the exact ones were not stored (journal). */
void rd_hist_fill_approx(struct hist *h)
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
	rd_counts(jr, jsonr_arr(jr, h, hp, "counts", JSONR_REQUIRED), cp, &p->hist);
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

int rd_interval_at(struct jsonr *jr, json_t *v, size_t i, char path[64], enum result_phase *ph, double *t)
{
	snprintf(path, 64, ".intervals[%zu]", i);
	if (!json_is_object(v)) {
		jsonr_fail(jr, path, NULL, v, "an object");
		return -EINVAL;
	}
	if (rd_phase(jr, v, path, ph) < 0)
		return -EINVAL;
	*t = jsonr_num(jr, v, path, "t", JSONR_REQUIRED, 0, 0);
	return jr->failed ? -EINVAL : 0;
}

int rd_phase(struct jsonr *jr, json_t *v, const char *path, enum result_phase *out)
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

void rd_add_interval(struct run *r, size_t *cap, enum result_phase ph, double t, double secs, double tps)
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

		if (rd_interval_at(jr, v, i, path, &ph, &t) < 0)
			return;
		tps = jsonr_num(jr, v, path, "tps", JSONR_REQUIRED, 0, 0);
		secs = jsonr_num(jr, v, path, "seconds", JSONR_OPTIONAL, 0, 0);
		if (jr->failed)
			return;
		rd_add_interval(r, &cap, ph, t, secs, tps);
		rd_interval_tel(jr, v, path, &r->intervals[r->nintervals - 1]);
	}
}

int rd_status(struct jsonr *jr, json_t *root, const char *path, enum result_run_status *out)
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
	switch (rd_schema_check(schema, RESULT_FAMILY)) {
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
	if (rd_status(&jr, root, "", &r->status) < 0)
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
	rd_identity(&jr, r, root);
	phases = jsonr_obj(&jr, root, "", "phases", JSONR_REQUIRED);
	read_phase(&jr, phases, "precondition", &r->pre);
	read_phase(&jr, phases, "sample", &r->sample);
	iv = jsonr_arr(&jr, root, "", "intervals", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (iv)
		read_intervals(&jr, r, iv);
	/* 1.3: the intervals are in the journal beside it (results_load_dir reads them from there). */
	r->intervals_in_journal = !iv && jsonr_str(&jr, root, "", "journal", JSONR_OPTIONAL, NULL);
	rd_telemetry(&jr, r, root);
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
