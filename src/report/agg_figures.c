/*
 * The figures of the report (report/aggregate.h) beyond one repetition's
 * (those are result/figures.c's agg_fig_compute, shared with the campaign's
 * summary.txt): over its report intervals (agg_steady), of its telemetry as
 * the verdict rules take it (agg_verdict_in), over repetitions (spread_of),
 * and between the drives of a run group (agg_rank_drives: the ranking and
 * each neighbouring pair's ratios and Welch's tests; agg_rank_against_all:
 * --drive's ranks against the drives it hides). Which runs go together is
 * aggregate.c's.
 */
#include "report/aggregate.h"
#include "report/agg_int.h"

#include "core/strbuf.h"
#include "report/writer.h"
#include "stats/hist.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct spread spread_of(const double *v, size_t n)
{
	struct spread s = {.ci = ci_summarize(v, n)};

	s.mean = fig_mean(v, n);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || v[i] < s.min)
			s.min = v[i];
		if (i == 0 || v[i] > s.max)
			s.max = v[i];
	}
	return s;
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
