/*
 * The figures of the report (report/aggregate.h): of one repetition's
 * instances (agg_fig_compute: sums, means, pooled p99, tpmC, Little's law),
 * over its report intervals (agg_steady), of its telemetry as the verdict
 * rules take it (agg_verdict_in), over repetitions (spread_of), and between
 * the drives of a run group (agg_rank_drives: the ranking and each
 * neighbouring pair's ratios and Welch's tests; agg_rank_against_all:
 * --drive's ranks against the drives it hides). Which runs go together is
 * aggregate.c's.
 */
#include "report/aggregate.h"
#include "report/agg_int.h"

#include "core/strbuf.h"
#include "report/writer.h"
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

struct spread spread_of(const double *v, size_t n)
{
	struct spread s = {.ci = ci_summarize(v, n)};

	for (size_t i = 0; i < n; i++) {
		s.mean += v[i];
		if (i == 0 || v[i] < s.min)
			s.min = v[i];
		if (i == 0 || v[i] > s.max)
			s.max = v[i];
	}
	if (n)
		s.mean /= (double)n;
	return s;
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

/* TPC-C's New-Orders ended by their intended rollback (the result's type name). */
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

/*
 * The TPS of each full round of phase `ph`, summed over runs[0..n) round by
 * round (instances of one repetition start together, so round k of each
 * covers the same time). A round shorter than half the run's longest one is
 * the cut-off end of a phase and is left out.
 */
void agg_steady(struct run *const *runs, size_t n, enum result_phase ph, size_t window, struct steady_result *out)
{
	double *sum = NULL;
	size_t len = 0;
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		const struct run *r = runs[i];
		double longest = 0;
		size_t k = 0;

		for (size_t t = 0; t < r->nintervals; t++)
			if (r->intervals[t].phase == ph && r->intervals[t].seconds > longest)
				longest = r->intervals[t].seconds;
		for (size_t t = 0; t < r->nintervals; t++) {
			const struct interval_pt *pt = &r->intervals[t];
			if (pt->phase != ph || (longest > 0 && pt->seconds < longest / 2))
				continue;
			if (first) {
				sum = xrealloc(sum, (k + 1) * sizeof(*sum));
				sum[k] = 0;
				len = k + 1;
			}
			if (k < len)
				sum[k] += pt->tps;
			k++;
		}
		if (!first && k < len)
			len = k; /* only rounds every instance has */
		first = false;
	}
	switch (ph) {
	case RESULT_PHASE_PRECONDITION:
		*out = steady_last_window(sum, len, window);
		break;
	case RESULT_PHASE_SAMPLE:
		*out = len >= window ? steady_check(sum, len) : steady_last_window(sum, len, window);
		break;
	}
	free(sum);
}

const struct steady_result *agg_group_steady(const struct agg_group *g, enum result_phase ph)
{
	enum steady_state want = ph == RESULT_PHASE_SAMPLE ? g->sample_steady : g->pre_steady;

	for (size_t k = 0; k < g->nreps; k++) {
		const struct steady_result *r = ph == RESULT_PHASE_SAMPLE ? &g->reps[k].sample_steady : &g->reps[k].pre_steady;
		if (r->state == want)
			return r;
	}
	return NULL;
}

bool agg_verdict_in(const struct tel_phase *t, struct verdict_in *in, const struct tel_dev **dev)
{
	const struct tel_dev *best = NULL;

	memset(in, 0, sizeof(*in));
	if (dev)
		*dev = NULL;
	if (!t->present)
		return false;
	in->has_host_cpu = t->has_host;
	in->host_cpu_busy = t->host_busy;
	in->host_cpu_src = t->host_source[0] ? t->host_source : NULL;
	in->has_guest_cpu = t->has_guest;
	in->guest_cpu_busy = t->guest_busy;
	in->has_driver_cpu = t->has_driver;
	in->driver_cores = t->driver_cores;
	in->driver_loops = t->driver_loops;
	in->has_conn_wait = t->has_conn_wait;
	in->conn_wait_share = t->conn_wait;
	/* The busiest device with a utilisation; without any (a VM's disk), the first for display only. */
	for (size_t i = 0; i < t->ndevs; i++)
		if (t->devs[i].has_util && (!best || t->devs[i].util > best->util))
			best = &t->devs[i];
	if (best) {
		in->has_drive = true;
		in->drive_util = best->util;
		in->drive_await_ms = best->await_ms;
		in->drive_queue_depth = best->queue_depth;
		in->drive_device = best->name;
	}
	/* The waiting on block I/O: the server's own threads first, then its own cgroup, then the VM's disk. */
	if (t->has_blkio || (t->has_psi && t->psi_cgroup) || t->has_vm_wait) {
		in->has_io_wait = true;
		in->io_wait_src = t->has_blkio ? IO_WAIT_DELAYACCT : t->has_psi && t->psi_cgroup ? IO_WAIT_PSI_CGROUP
											: IO_WAIT_VM_DISK;
		in->io_wait = t->has_blkio ? t->blkio_wait : t->has_psi && t->psi_cgroup ? t->psi_some : t->vm_wait;
	}
	in->io_wait_off = !in->has_io_wait && t->delayacct_off;
	if (dev)
		*dev = best ? best : t->ndevs ? &t->devs[0] : NULL;
	return true;
}

void agg_fig_release(struct agg_fig *f)
{
	for (size_t i = 0; i < f->ntypes; i++)
		free(f->types[i].name);
	free(f->types);
	hist_close(f->merged);
	memset(f, 0, sizeof(*f));
}

enum cmp_fig { CMP_TPS, CMP_AVG, CMP_P99 };

/* One figure of each repetition's sample, summarised over the repetitions. */
static struct ci_summary rep_summary(const struct agg_group *g, enum cmp_fig f)
{
	double *v = xcalloc(g->nreps + 1, sizeof(*v));
	struct ci_summary s;
	size_t n = 0;

	for (size_t i = 0; i < g->nreps; i++) {
		const struct agg_fig *x = &g->reps[i].sample;
		if (f == CMP_P99 && !x->n_p99)
			continue;
		v[n++] = f == CMP_TPS ? x->tps_sum : f == CMP_AVG ? x->avg_ms_mean : x->p99_mean_of_instances_ms;
	}
	s = ci_summarize(v, n);
	free(v);
	return s;
}

/* Rank each run group's drives by mean TPS; compare neighbours. */
void agg_rank_drives(struct report *rep)
{
	size_t *idx = xcalloc(rep->ngroups + 1, sizeof(*idx));
	bool *done = xcalloc(rep->ngroups + 1, sizeof(*done));

	for (size_t i = 0; i < rep->ngroups; i++) {
		size_t n = 0;

		if (done[i] || rep->groups[i].all_drives)
			continue;
		for (size_t j = i; j < rep->ngroups; j++) {
			if (rep->groups[j].all_drives || !agg_same_run_group(&rep->groups[i], &rep->groups[j]))
				continue;
			done[j] = true;
			/* Insertion by TPS, highest first; ties keep report order. */
			size_t k = n++;
			while (k > 0 && rep->groups[idx[k - 1]].tps.mean < rep->groups[j].tps.mean) {
				idx[k] = idx[k - 1];
				k--;
			}
			idx[k] = j;
		}
		if (n < 2)
			continue;
		for (size_t k = 0; k < n; k++) {
			rep->groups[idx[k]].rank = k + 1;
			rep->groups[idx[k]].nranked = n;
		}
		for (size_t k = 0; k + 1 < n; k++) {
			struct agg_group *a = &rep->groups[idx[k]], *b = &rep->groups[idx[k + 1]];
			struct ci_summary sa = rep_summary(a, CMP_TPS), sb = rep_summary(b, CMP_TPS);
			struct agg_cmp *c;

			rep->cmps = xrealloc(rep->cmps, (rep->ncmps + 1) * sizeof(*rep->cmps));
			c = &rep->cmps[rep->ncmps++];
			memset(c, 0, sizeof(*c));
			c->faster = idx[k];
			c->slower = idx[k + 1];
			c->ratio = ci_ratio_of_means(&sa, &sb);
			c->welch = ci_welch_test(&sa, &sb);
			sa = rep_summary(a, CMP_AVG);
			sb = rep_summary(b, CMP_AVG);
			c->avg_ratio = ci_ratio_of_means(&sa, &sb);
			c->avg_welch = ci_welch_test(&sa, &sb);
			sa = rep_summary(a, CMP_P99);
			sb = rep_summary(b, CMP_P99);
			c->has_p99 = sa.n && sb.n;
			if (c->has_p99) {
				c->p99_ratio = ci_ratio_of_means(&sa, &sb);
				c->p99_welch = ci_welch_test(&sa, &sb);
			}
		}
	}
	free(idx);
	free(done);
}

/*
 * --drive: the page shows one drive, but its ranks are against every drive of
 * its run groups. From the full report: each group's rank, and the comparison
 * with its neighbours in the ranking as one sentence.
 */
void agg_rank_against_all(struct report *rep, const struct run_set *rs, const struct pub_set *pub,
			  const struct report_opts *opts)
{
	struct report_opts all = {.steady_window = opts->steady_window, .drive = NULL};
	struct report *full = NULL;
	char line[512];

	if (report_build_with(rs, pub, &all, &full) < 0)
		return;
	for (size_t i = 0; i < rep->ngroups; i++) {
		struct agg_group *g = &rep->groups[i];
		struct strbuf sb;

		for (size_t j = 0; j < full->ngroups; j++) {
			const struct agg_group *h = &full->groups[j];
			if (h->all_drives || !agg_same_run_group(g, h) || strcmp(g->drive, h->drive) || !h->rank)
				continue;
			g->rank = h->rank;
			g->nranked = h->nranked;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "rank %zu of %zu", h->rank, h->nranked);
			for (size_t k = 0; k < full->ncmps; k++) {
				const struct agg_cmp *c = &full->cmps[k];
				if (c->faster != j && c->slower != j)
					continue;
				report_compare_sentence(c, &full->groups[c->faster], &full->groups[c->slower], line, sizeof(line));
				strbuf_addf(&sb, "; %s", line);
			}
			g->rank_text = strbuf_detach(&sb);
			strbuf_release(&sb);
		}
	}
	report_free(full);
}
