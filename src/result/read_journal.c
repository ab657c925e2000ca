/*
 * A dbrig.journal/1 journal (docs/result-format.md) read as a run of its own:
 * the header's identity, the phases accumulated from the interval lines
 * (latencies from the merged histograms, so approximate), the end line's
 * status. A truncated last line (a crash mid-write) is ignored with a warning.
 */
#include "result/read.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/jsonr.h"
#include "core/strbuf.h"
#include "result/model.h"
#include "result/read_int.h"
#include "result/result.h"
#include "stats/hist.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		rd_hist_fill_approx(p->hist);
		p->lat_min_ms = (double)p->hist->min / 1e6;
		p->lat_max_ms = (double)p->hist->max / 1e6;
		p->lat_avg_ms = hist_mean(p->hist) / 1e6;
		p->lat_sum_ms = (double)(p->hist->sum / 1e6L);
		p->has_p99 = true;
		p->p99_ms = (double)hist_value_at_percentile(p->hist, 99.0) / 1e6;
	}
}

/* The first line: {"type": "header", "schema": "dbrig.journal/1...", identity}. */
static int journal_header(struct jsonr *jr, struct run *r, json_t *line, const char *path, const char *type)
{
	const char *schema = jsonr_str(jr, line, path, "schema", JSONR_REQUIRED, "");

	if (strcmp(type, "header")) {
		jsonr_fail(jr, path, "type", json_object_get(line, "type"), "\"header\" on the first line");
		return -EINVAL;
	}
	if (!jr->failed && rd_schema_check(schema, JOURNAL_FAMILY) != 0) {
		jsonr_fail(jr, path, "schema", json_object_get(line, "schema"),
			   "\"" JOURNAL_MAJOR "\"; this dbrig reads major version 1 only");
		return -EINVAL;
	}
	rd_identity(jr, r, line);
	return jr->failed ? -EINVAL : 0;
}

/* An interval line: into its phase's sums and histogram, and the run's interval series. */
static int journal_interval(struct jsonr *jr, struct run *r, json_t *line, const char *path, struct phase_acc *acc,
			    size_t *cap)
{
	enum result_phase ph;
	struct phase_acc *a;
	double secs, t, tps;
	int64_t th;
	json_t *h;

	if (rd_phase(jr, line, path, &ph) < 0)
		return -EINVAL;
	a = &acc[ph];
	t = jsonr_num(jr, line, path, "t", JSONR_REQUIRED, 0, 0);
	tps = jsonr_num(jr, line, path, "tps", JSONR_REQUIRED, 0, 0);
	secs = jsonr_num(jr, line, path, "seconds", JSONR_REQUIRED, 0, 0);
	a->seconds += secs;
	a->tx += (uint64_t)jsonr_int(jr, line, path, "transactions", JSONR_REQUIRED, 0, 0);
	a->errs += secs * jsonr_num(jr, line, path, "err_s", JSONR_OPTIONAL, 0, 0);
	a->reconns += secs * jsonr_num(jr, line, path, "reconn_s", JSONR_OPTIONAL, 0, 0);
	th = jsonr_int(jr, line, path, "threads", JSONR_OPTIONAL, 0, 0);
	if (th > a->threads)
		a->threads = th;
	h = jsonr_obj(jr, line, path, "histogram", JSONR_OPTIONAL | JSONR_NULLABLE);
	if (h) {
		char hp[80];
		snprintf(hp, sizeof(hp), "%s.histogram.counts", path);
		rd_counts(jr, jsonr_arr(jr, h, hp, "counts", JSONR_REQUIRED), hp, &a->h);
	}
	if (jr->failed)
		return -EINVAL;
	rd_add_interval(r, cap, ph, t, secs, tps);
	return 0;
}

/* One parsed line (lineno from 1): the header first, then intervals and at most an end. */
static int journal_line(struct jsonr *jr, struct run *r, json_t *line, size_t lineno, struct phase_acc *acc,
			size_t *cap, bool *ended)
{
	char path[48];
	const char *type;

	snprintf(path, sizeof(path), "(line %zu)", lineno);
	if (!json_is_object(line)) {
		jsonr_fail(jr, path, NULL, line, "a JSON object");
		return -EINVAL;
	}
	type = jsonr_str(jr, line, path, "type", JSONR_REQUIRED, "");
	if (jr->failed)
		return -EINVAL;
	if (lineno == 1)
		return journal_header(jr, r, line, path, type);
	if (!strcmp(type, "interval"))
		return journal_interval(jr, r, line, path, acc, cap);
	if (!strcmp(type, "end")) {
		*ended = true;
		return rd_status(jr, line, path, &r->status);
	}
	jsonr_fail(jr, path, "type", json_object_get(line, "type"), "\"interval\" or \"end\"");
	return -EINVAL;
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
		json_error_t je;

		lineno++;
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
		if (journal_line(&jr, r, line, lineno, acc, &cap, &ended) < 0 || jr.failed)
			goto out;
		json_decref(line);
		line = NULL;
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
