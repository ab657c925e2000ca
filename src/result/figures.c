/* The figures of one phase over instances that ran together (result/figures.h). */
#include "result/figures.h"

#include "core/strbuf.h"
#include "stats/hist.h"
#include "workload/registry.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *little_state_name(enum little_state s)
{
	switch (s) {
	case LITTLE_OK:
		return "ok";
	case LITTLE_WARN:
		return "warning";
	case LITTLE_NA:
		return "n/a";
	}
	return "?";
}

const char *little_state_word(enum little_state s)
{
	switch (s) {
	case LITTLE_OK:
		return "ok";
	case LITTLE_WARN:
		return "WARNING";
	case LITTLE_NA:
		return "n/a";
	}
	return "n/a";
}

enum little_state little_check(double threads, double tps, double avg_ms, bool open_loop,
			       double *pred_ms, double *dev)
{
	*pred_ms = 0;
	*dev = 0;
	if (open_loop || tps <= 0 || threads <= 0 || avg_ms <= 0)
		return LITTLE_NA;
	*pred_ms = threads / tps * 1000.0;
	*dev = (*pred_ms - avg_ms) / avg_ms;
	return fabs(*dev) > LITTLE_TOLERANCE ? LITTLE_WARN : LITTLE_OK;
}

double fig_mean(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	return n ? m / (double)n : 0;
}

/* TPC-C's New-Order, whatever the producer's spelling ("new_order", "NewOrder"). */
/* Is `tok` one of the space-separated "key=value" words of params? */
static bool params_token(const char *params, const char *tok)
{
	size_t n = strlen(tok);

	for (const char *f = params ? strstr(params, tok) : NULL; f; f = strstr(f + 1, tok))
		if ((f == params || f[-1] == ' ') && (f[n] == ' ' || f[n] == '\0'))
			return true;
	return false;
}

/* Is the type `name` the type `want` (case, '_', '-' and ' ' aside: "New-Order" is new_order)? */
static bool is_type(const char *name, const char *want)
{
	for (;; name++, want++) {
		while (*name == '_' || *name == '-' || *name == ' ')
			name++;
		while (*want == '_' || *want == '-' || *want == ' ')
			want++;
		if (!*name || !*want)
			return !*name && !*want;
		if (tolower((unsigned char)*name) != tolower((unsigned char)*want))
			return false;
	}
}

/* The type's intended rollbacks, as the result names them ("new_order_rollback"). */
static bool is_rollback_of(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && !strcmp(name + n, "_rollback");
}

static const struct phase_stat *phase_of(const struct run *r, enum result_phase ph)
{
	switch (ph) {
	case RESULT_PHASE_PRECONDITION:
		return &r->pre;
	case RESULT_PHASE_SAMPLE:
		return &r->sample;
	}
	return NULL;
}

static struct agg_type *type_slot(struct agg_fig *f, const char *name)
{
	for (size_t i = 0; i < f->ntypes; i++)
		if (!strcmp(f->types[i].name, name))
			return &f->types[i];
	f->types = xrealloc(f->types, (f->ntypes + 1) * sizeof(*f->types));
	memset(&f->types[f->ntypes], 0, sizeof(*f->types));
	f->types[f->ntypes].name = xstrdup(name);
	return &f->types[f->ntypes++];
}

void agg_fig_compute(struct run *const *runs, size_t n, enum result_phase phase, struct agg_fig *out)
{
	double lat_sum = 0, avg_sum = 0, p99_sum = 0;
	uint64_t lat_n = 0;
	bool all_hist = true, open_loop = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		const struct run *r = runs[i];
		const struct phase_stat *p = phase_of(r, phase);
		/* tpmC counts the intended rollbacks when the run said so (dbrig tpcc
		 * --tpmc-include-rollbacks, recorded in its params). */
		bool tpmc_rollbacks = params_token(r->params, "tpmc_include_rollbacks=true");
		const char *tpm = workload_tpm_type(r->kind);

		if (!p->present)
			continue;
		if (out->n == 0 || p->tps < out->tps_min)
			out->tps_min = p->tps;
		if (out->n == 0 || p->tps > out->tps_max)
			out->tps_max = p->tps;
		if (out->n == 0 || p->seconds < out->seconds_min)
			out->seconds_min = p->seconds;
		if (out->n == 0 || p->seconds > out->seconds_max)
			out->seconds_max = p->seconds;
		out->n++;
		out->tps_sum += p->tps;
		avg_sum += p->lat_avg_ms;
		lat_sum += p->lat_sum_ms;
		lat_n += p->hist ? p->hist->total : p->transactions;
		if (p->has_p99) {
			p99_sum += p->p99_ms;
			out->n_p99++;
		}
		if (p->lat_max_ms > out->max_ms)
			out->max_ms = p->lat_max_ms;
		out->transactions += p->transactions;
		out->retried += p->err_ignored;
		out->reconnects += p->err_reconnects;
		out->fatal += p->err_fatal;
		out->threads_sum += p->threads;
		open_loop |= r->open_loop;
		if (p->hist && all_hist) {
			if (!out->merged && hist_init(&out->merged) < 0)
				all_hist = false;
			else
				hist_add(out->merged, p->hist);
		} else {
			all_hist = false;
		}
		for (size_t t = 0; t < p->ntypes; t++) {
			const struct type_stat *ts = &p->types[t];
			struct agg_type *at = type_slot(out, ts->name);

			/* Weighted sum for now, divided below. */
			at->avg_ms += ts->avg_ms * (double)ts->count;
			at->count += ts->count;
			at->p99_mean_of_instances_ms += ts->p99_ms;
			at->n++;
			if (ts->max_ms > at->max_ms)
				at->max_ms = ts->max_ms;
			if (tpm && p->seconds > 0 &&
			    (is_type(ts->name, tpm) || (tpmc_rollbacks && is_rollback_of(ts->name, tpm)))) {
				out->has_tpmc = true;
				out->tpmc += (double)ts->count / (p->seconds / 60.0);
			}
		}
	}
	if (out->n) {
		out->avg_ms_mean = avg_sum / (double)out->n;
		out->avg_ms_pooled = lat_n ? lat_sum / (double)lat_n : 0;
	}
	if (out->n_p99)
		out->p99_mean_of_instances_ms = p99_sum / (double)out->n_p99;
	if (all_hist && out->merged && out->merged->total) {
		out->has_pooled_p99 = true;
		out->p99_pooled_ms = (double)hist_value_at_percentile(out->merged, 99.0) / 1e6;
	} else {
		hist_close(out->merged);
		out->merged = NULL;
	}
	for (size_t t = 0; t < out->ntypes; t++) {
		struct agg_type *at = &out->types[t];
		at->avg_ms = at->count ? at->avg_ms / (double)at->count : 0;
		at->p99_mean_of_instances_ms = at->n ? at->p99_mean_of_instances_ms / (double)at->n : 0;
	}
	out->little = little_check((double)out->threads_sum, out->tps_sum, out->avg_ms_pooled, open_loop,
				   &out->little_pred_ms, &out->little_dev);
}

void agg_fig_release(struct agg_fig *f)
{
	for (size_t i = 0; i < f->ntypes; i++)
		free(f->types[i].name);
	free(f->types);
	hist_close(f->merged);
	memset(f, 0, sizeof(*f));
}

