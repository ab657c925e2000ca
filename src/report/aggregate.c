/*
 * Which runs go together (report/aggregate.h): the runs sorted by their
 * grouping keys, one group per drive x run group (and a total over a run
 * group's drives), its repetitions, labels and warnings, and the published
 * references beside it. A repetition's figures are result/figures.c's (the
 * campaign's summary.txt computes them there too); the rest of the figures and
 * the drive ranking (--drive's too) are agg_figures.c's (report/agg_int.h).
 */
#include "report/aggregate.h"
#include "report/agg_int.h"
#include "report/leaderboard.h"

#include "core/strbuf.h"
#include "stats/hist.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NOT steady beats steady beats n/a. */
static enum steady_state steady_worse(enum steady_state a, enum steady_state b)
{
	if (a == STEADY_NO || b == STEADY_NO)
		return STEADY_NO;
	if (a == STEADY_YES || b == STEADY_YES)
		return STEADY_YES;
	return STEADY_NA;
}

/* A string of a run that a hand-built run may leave NULL (run_id, run_started). */
static const char *str0(const char *s)
{
	return s ? s : "";
}

/* Key fields in sort order; drive last among the run group's own. */
static int key_cmp(const struct run *a, const struct run *b, bool with_drive)
{
	int c;

	if ((c = strcmp(a->campaign, b->campaign)))
		return c;
	/* Runs of one campaign started at different times are never added up (run ids begin with the start). */
	if ((c = strcmp(str0(a->run_id), str0(b->run_id))))
		return c;
	if ((c = strcmp(a->run_group, b->run_group)))
		return c;
	if (with_drive && (c = strcmp(a->drive, b->drive)))
		return c;
	if ((c = strcmp(a->kind, b->kind)))
		return c;
	if ((c = strcmp(a->test, b->test)))
		return c;
	if ((c = strcmp(a->params, b->params)))
		return c;
	if (a->vm_count != b->vm_count)
		return a->vm_count < b->vm_count ? -1 : 1;
	return 0;
}

static int run_cmp(const void *pa, const void *pb)
{
	const struct run *a = *(struct run *const *)pa, *b = *(struct run *const *)pb;
	int c = key_cmp(a, b, false);

	if (c)
		return c;
	if ((c = strcmp(a->drive, b->drive)))
		return c;
	if (a->repetition != b->repetition)
		return a->repetition < b->repetition ? -1 : 1;
	return strcmp(a->path, b->path);
}

static void add_warning(struct report *rep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(struct report *rep, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	strbuf_init(&sb, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < rep->nwarnings; i++) {
		if (!strcmp(rep->warnings[i], sb.buf)) {
			strbuf_release(&sb);
			return;
		}
	}
	rep->warnings = xrealloc(rep->warnings, (rep->nwarnings + 1) * sizeof(*rep->warnings));
	rep->warnings[rep->nwarnings++] = strbuf_detach(&sb);
	strbuf_release(&sb); /* detach leaves a fresh empty buffer */
}

static const char *or_none(const char *s, const char *none)
{
	return *s ? s : none;
}

/* The group's keys from its first run, its drive ("all N drives" for a total) and its label. */
static void group_keys(struct agg_group *g, struct run **runs, size_t n, bool all_drives, bool slice)
{
	const struct run *r0 = runs[0];
	struct strbuf sb;
	size_t i, j, ndrives = 0;

	memset(g, 0, sizeof(*g));
	g->campaign = xstrdup(r0->campaign);
	g->run_id = xstrdup(str0(r0->run_id));
	g->run_started = xstrdup(str0(r0->run_started));
	g->run_group = xstrdup(r0->run_group);
	g->kind = xstrdup(r0->kind);
	g->test = xstrdup(r0->test);
	g->params = xstrdup(r0->params);
	g->vm_count = r0->vm_count;
	g->all_drives = all_drives;
	g->slice = slice;
	for (i = 0; i < n; i++) {
		bool seen = false;
		for (j = 0; j < i; j++)
			seen |= !strcmp(runs[j]->drive, runs[i]->drive);
		ndrives += !seen;
	}
	g->ndrives = ndrives;
	strbuf_init(&sb, 0);
	if (all_drives)
		strbuf_addf(&sb, "all %zu drives", ndrives);
	else
		strbuf_adds(&sb, or_none(r0->drive, "(no drive)"));
	g->drive = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s · %s", or_none(r0->run_group, "(no run group)"), g->drive);
	g->label = strbuf_detach(&sb);
	strbuf_release(&sb);
}

/* runs[0..n) into the group's repetitions; true when every run with a sample carries a histogram. */
static bool group_add_runs(const struct report *rep, struct agg_group *g, struct run **runs, size_t n)
{
	size_t i, j;
	bool all_hist = true;

	/* Repetitions: runs are sorted by drive then repetition; collect distinct values. */
	for (i = 0; i < n; i++) {
		struct agg_rep *rp = NULL;
		for (j = 0; j < g->nreps; j++)
			if (g->reps[j].repetition == runs[i]->repetition)
				rp = &g->reps[j];
		if (!rp) {
			size_t k = g->nreps;
			g->reps = xrealloc(g->reps, (k + 1) * sizeof(*g->reps));
			/* Keep repetitions ordered. */
			while (k > 0 && g->reps[k - 1].repetition > runs[i]->repetition) {
				g->reps[k] = g->reps[k - 1];
				k--;
			}
			rp = &g->reps[k];
			memset(rp, 0, sizeof(*rp));
			rp->repetition = runs[i]->repetition;
			rp->runs = xcalloc(n, sizeof(*rp->runs));
			g->nreps++;
		}
		rp->runs[rp->n++] = runs[i];
		g->n_runs++;
		g->n_complete += run_is_complete(runs[i]) ||
				 (rep->include_degraded && runs[i]->status == RESULT_RUN_DEGRADED && runs[i]->sample.present);
		all_hist &= runs[i]->sample.present ? runs[i]->sample.hist != NULL : true;
	}
	g->incomplete = g->n_complete != g->n_runs;
	return all_hist;
}

/* Each repetition's figures and steady state; the group's worst steady state and Little's law. */
static void group_rep_figures(struct report *rep, struct agg_group *g)
{
	size_t i;

	g->little = LITTLE_OK;
	g->pre_steady = g->sample_steady = STEADY_NA;
	for (i = 0; i < g->nreps; i++) {
		struct agg_rep *rp = &g->reps[i];

		agg_fig_compute(rp->runs, rp->n, RESULT_PHASE_SAMPLE, &rp->sample);
		agg_fig_compute(rp->runs, rp->n, RESULT_PHASE_PRECONDITION, &rp->pre);
		agg_steady(rp->runs, rp->n, RESULT_PHASE_PRECONDITION, rep->steady_window, &rp->pre_steady);
		agg_steady(rp->runs, rp->n, RESULT_PHASE_SAMPLE, rep->steady_window, &rp->sample_steady);
		g->pre_steady = steady_worse(g->pre_steady, rp->pre_steady.state);
		g->sample_steady = steady_worse(g->sample_steady, rp->sample_steady.state);
		if (rp->sample.little == LITTLE_NA || g->little == LITTLE_NA)
			g->little = LITTLE_NA;
		else if (rp->sample.little == LITTLE_WARN)
			g->little = LITTLE_WARN;
		if (fabs(rp->sample.little_dev) > fabs(g->little_dev))
			g->little_dev = rp->sample.little_dev;
		if (rp->sample.little == LITTLE_WARN)
			add_warning(rep, "Little's law: %s, repetition %lld: sum of threads / TPS = %lld / %.2f = %.2f ms "
				    "but pooled average latency is %.2f ms (%+.1f%%, more than %.0f%% off): "
				    "the measurement is inconsistent (clock, lost transactions or not a closed loop?)",
				    g->label, (long long)rp->repetition, (long long)rp->sample.threads_sum,
				    rp->sample.tps_sum, rp->sample.little_pred_ms, rp->sample.avg_ms_pooled,
				    100.0 * rp->sample.little_dev, 100.0 * LITTLE_TOLERANCE);
	}
	if (g->nreps == 0)
		g->little = LITTLE_NA;
}

/* The group's bottleneck, with a warning when it is not the drive. */
static void group_bottleneck(struct report *rep, struct agg_group *g, struct run **runs, size_t n)
{
	size_t i;

	/* Bottleneck over every run: the busiest of each resource. */
	for (i = 0; i < n; i++) {
		struct verdict_in vin;
		const struct tel_dev *dev;

		if (!agg_verdict_in(&runs[i]->tel_sample, &vin, &dev))
			continue;
		if (dev && (!g->dev || (dev->has_util && (!g->dev->has_util || dev->util > g->dev->util))))
			g->dev = dev;
		verdict_in_merge(&g->vin, &vin);
		g->has_verdict = true;
	}
	if (g->has_verdict) {
		g->verdict = verdict_decide(&g->vin);
		if (!bottleneck_is_storage(g->verdict.bottleneck) && g->verdict.bottleneck != BOTTLENECK_UNKNOWN) {
			char why[300];
			verdict_explain(&g->vin, &g->verdict, why, sizeof(why));
			add_warning(rep, "bottleneck %s in %s: %s", bottleneck_name(g->verdict.bottleneck), g->label, why);
		}
	}
}

/* The group's figures over its repetitions, and the merged histogram of their samples (all_hist). */
static void group_spreads(struct agg_group *g, bool all_hist)
{
	double *v = xcalloc(g->nreps + 1, sizeof(*v));
	size_t i;

#define SPREAD(field, expr) do { \
		for (i = 0; i < g->nreps; i++) \
			v[i] = g->reps[i].sample.expr; \
		g->field = spread_of(v, g->nreps); \
	} while (0)
	SPREAD(tps, tps_sum);
	SPREAD(avg_ms_mean, avg_ms_mean);
	SPREAD(avg_ms_pooled, avg_ms_pooled);
	SPREAD(p99_pooled, p99_pooled_ms);
#undef SPREAD
	/* Over the repetitions that had an instance p99 at all (none: no figure). */
	{
		size_t k = 0;
		for (i = 0; i < g->nreps; i++)
			if (g->reps[i].sample.n_p99)
				v[k++] = g->reps[i].sample.p99_mean_of_instances_ms;
		g->p99_mean = spread_of(v, k);
		g->has_p99_mean = k > 0;
	}
	if (all_hist) {
		for (i = 0; i < g->nreps; i++) {
			if (!g->reps[i].sample.merged)
				continue;
			if (!g->merged && hist_init(&g->merged) < 0)
				break;
			hist_add(g->merged, g->reps[i].sample.merged);
		}
	}
	free(v);
}

/* Build one group from runs[0..n) (same key, sorted by repetition). */
static void group_build(struct report *rep, struct agg_group *g, struct run **runs, size_t n, bool all_drives,
			bool slice)
{
	bool all_hist;

	group_keys(g, runs, n, all_drives, slice);
	all_hist = group_add_runs(rep, g, runs, n);
	group_rep_figures(rep, g);
	group_bottleneck(rep, g, runs, n);
	group_spreads(g, all_hist);
}

static void group_release(struct agg_group *g)
{
	free(g->rank_text);
	free(g->campaign);
	free(g->run_id);
	free(g->run_started);
	free(g->run_group);
	free(g->drive);
	free(g->kind);
	free(g->test);
	free(g->params);
	free(g->label);
	for (size_t i = 0; i < g->nreps; i++) {
		free(g->reps[i].runs);
		agg_fig_release(&g->reps[i].sample);
		agg_fig_release(&g->reps[i].pre);
	}
	free(g->reps);
	hist_close(g->merged);
	free(g->refs);
}

/* Runs in sorted[i..j) with r's repetition (and drive, when by_drive). */
static size_t count_like(struct run *const *sorted, size_t i, size_t j, const struct run *r, bool by_drive)
{
	size_t n = 0;

	for (size_t k = i; k < j; k++)
		n += sorted[k]->repetition == r->repetition && (!by_drive || !strcmp(sorted[k]->drive, r->drive));
	return n;
}

static struct agg_group *new_group(struct report *rep)
{
	rep->groups = xrealloc(rep->groups, (rep->ngroups + 1) * sizeof(*rep->groups));
	return &rep->groups[rep->ngroups++];
}

/*
 * A folder holding several runs of one campaign (today's beside last week's,
 * kept by --fresh): each group's label says which run, by its start time, and
 * one warning lists the runs. They are shown side by side, never added up.
 */
static void label_runs(struct report *rep)
{
	for (size_t i = 0; i < rep->ngroups; i++) {
		struct agg_group *g = &rep->groups[i];
		bool several = false;
		struct strbuf sb;

		for (size_t j = 0; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			if (strcmp(g->campaign, h->campaign) || !strcmp(g->run_id, h->run_id))
				continue;
			several = true;
		}
		if (!several)
			continue;
		/* The run group's name carries the run, so every table and chart tells them apart. */
		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "%s · run of %s", g->run_group,
			    *g->run_started ? g->run_started : *g->run_id ? g->run_id : "(no run id)");
		free(g->run_group);
		g->run_group = strbuf_detach(&sb);
		strbuf_addf(&sb, "%s · %s", g->run_group, g->drive);
		free(g->label);
		g->label = strbuf_detach(&sb);
		strbuf_release(&sb);
	}
	/* One warning per campaign with several runs. */
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct strbuf runs;
		size_t n = 0;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(rep->groups[j].campaign, g->campaign);
		if (seen)
			continue;
		strbuf_init(&runs, 0);
		for (size_t j = i; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			bool dup = false;
			if (strcmp(h->campaign, g->campaign))
				continue;
			for (size_t k = i; k < j && !dup; k++)
				dup = !strcmp(rep->groups[k].campaign, g->campaign) && !strcmp(rep->groups[k].run_id, h->run_id);
			if (dup)
				continue;
			strbuf_addf(&runs, "%s%s", n++ ? ", " : "",
				    *h->run_started ? h->run_started : *h->run_id ? h->run_id : "without a run id");
		}
		if (n > 1)
			add_warning(rep, "%zu runs of campaign \"%s\" (started %s): shown side by side, never added up", n,
				    *g->campaign ? g->campaign : "(none)", runs.buf);
		strbuf_release(&runs);
	}
}

/* Groups that differ only in workload or params get the differing params in their label. */
static void disambiguate_labels(struct report *rep)
{
	char **labels = xcalloc(rep->ngroups + 1, sizeof(*labels));

	for (size_t i = 0; i < rep->ngroups; i++) {
		struct agg_group *g = &rep->groups[i];
		struct strbuf extra;

		strbuf_init(&extra, 0);
		for (size_t j = 0; j < rep->ngroups; j++) {
			const struct agg_group *h = &rep->groups[j];
			char *copy, *save = NULL, *tok;

			if (i == j || strcmp(g->label, h->label) || !strcmp(g->params, h->params))
				continue;
			copy = xstrdup(g->params);
			for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
				size_t n = strlen(tok);
				const char *f = strstr(h->params, tok);
				bool in_other = f && (f == h->params || f[-1] == ' ') && (f[n] == ' ' || f[n] == '\0');
				if (!in_other && !strstr(extra.buf, tok))
					strbuf_addf(&extra, "%s%s", extra.len ? " " : "", tok);
			}
			free(copy);
		}
		if (extra.len) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "%s [%s]", g->label, extra.buf);
			labels[i] = strbuf_detach(&sb);
			strbuf_release(&sb);
		}
		strbuf_release(&extra);
	}
	for (size_t i = 0; i < rep->ngroups; i++) {
		if (labels[i]) {
			free(rep->groups[i].label);
			rep->groups[i].label = labels[i];
		}
	}
	free(labels);
}

static void match_published(struct report *rep)
{
	const struct pub_set *pub = rep->pub;

	if (!pub)
		return;
	for (size_t i = 0; i < pub->n; i++) {
		for (size_t k = 0; k < pub->reviews[i].nresults; k++) {
			const struct pub_result *pr = &pub->reviews[i].results[k];
			bool used = false;

			for (size_t gi = 0; gi < rep->ngroups; gi++) {
				struct agg_group *g = &rep->groups[gi];
				if (g->slice || strcmp(g->kind, pr->kind) || strcmp(g->test, pr->test) ||
				    g->vm_count != pr->vm_count || (int64_t)g->ndrives != pr->drives ||
				    !lb_group_matches(g, pr)) /* same protocol: report/leaderboard.c */
					continue;
				g->refs = xrealloc(g->refs, (g->nrefs + 1) * sizeof(*g->refs));
				g->refs[g->nrefs++] = pr;
				used = true;
			}
			if (!used) {
				rep->unmatched = xrealloc(rep->unmatched, (rep->nunmatched + 1) * sizeof(*rep->unmatched));
				rep->unmatched[rep->nunmatched++] = pr;
			}
		}
	}
}

bool agg_same_run_group(const struct agg_group *a, const struct agg_group *b)
{
	return !strcmp(a->campaign, b->campaign) && !strcmp(a->run_id, b->run_id) && !strcmp(a->run_group, b->run_group) &&
	       !strcmp(a->kind, b->kind) && !strcmp(a->test, b->test) && !strcmp(a->params, b->params) &&
	       a->vm_count == b->vm_count;
}

/* The report of rs's runs (opts->drive's, or all) and their superseded attempts, with its options. */
static struct report *report_new(const struct run_set *rs, const struct pub_set *pub, const struct report_opts *opts,
				 const char *only)
{
	struct report *rep = xcalloc(1, sizeof(*rep));
	size_t i;

	rep->pub = pub;
	rep->drive = only;
	rep->steady_window = opts && opts->steady_window ? opts->steady_window : STEADY_DEFAULT_WINDOW;
	rep->shared_axis = opts && opts->shared_axis;
	rep->view.runs = xcalloc(rs->n + 1, sizeof(*rep->view.runs));
	for (i = 0; i < rs->n; i++)
		if (!only || !strcmp(rs->runs[i]->drive, only))
			rep->view.runs[rep->view.n++] = rs->runs[i];
	/* The cut-off attempts kept by campaign --resume go with the view (listed apart, never aggregated). */
	rep->view.superseded = xcalloc(rs->nsuperseded + 1, sizeof(*rep->view.superseded));
	for (i = 0; i < rs->nsuperseded; i++)
		if (!only || !strcmp(rs->superseded[i]->drive, only))
			rep->view.superseded[rep->view.nsuperseded++] = rs->superseded[i];
	rep->runs = &rep->view;
	rep->include_degraded = opts && opts->include_degraded;
	return rep;
}

/* The runs the figures count, into sorted[] in run_cmp's order; returns how many. */
static size_t runs_counted(const struct report *rep, const struct run_set *rs, struct run **sorted)
{
	size_t i, j, nsorted = 0;

	/*
	 * A degraded run (a connection lost for more than the stated share of
	 * the sample) leaves its whole repetition out of the figures: the
	 * instances of a repetition run together, and a group's sum over
	 * instances without one of them would be as wrong. --include-degraded
	 * counts them.
	 */
	for (i = 0; i < rs->n; i++) {
		bool left_out = false;
		for (j = 0; j < rs->n && !rep->include_degraded && !left_out; j++)
			left_out = rs->runs[j]->status == RESULT_RUN_DEGRADED && rs->runs[j]->repetition == rs->runs[i]->repetition &&
			      !key_cmp(rs->runs[i], rs->runs[j], false);
		if (!left_out)
			sorted[nsorted++] = rs->runs[i];
	}
	qsort(sorted, nsorted, sizeof(*sorted), run_cmp);
	return nsorted;
}

/* Each run's own verdicts (report.rv), and a warning for a run on other data, degraded or incomplete. */
static void run_verdicts(struct report *rep)
{
	size_t i;

	rep->rv = xcalloc(rep->view.n + 1, sizeof(*rep->rv));
	for (i = 0; i < rep->view.n; i++) {
		struct run *r = rep->view.runs[i];
		struct run_verdict *v = &rep->rv[i];

		agg_steady(&r, 1, RESULT_PHASE_PRECONDITION, rep->steady_window, &v->pre);
		agg_steady(&r, 1, RESULT_PHASE_SAMPLE, rep->steady_window, &v->sample);
		v->has_verdict = agg_verdict_in(&r->tel_sample, &v->vin, &v->dev);
		if (v->has_verdict)
			v->verdict = verdict_decide(&v->vin);
		if (r->golden_mismatch)
			add_warning(rep, "result measured on other data: %s: %s", r->path, r->golden_mismatch);
		if (r->status == RESULT_RUN_DEGRADED)
			add_warning(rep, "degraded run: %s: a connection was lost for %.1f s (%.1f%% of the sample); %s", r->path,
				    r->outage_s, 100.0 * r->outage_share,
				    rep->include_degraded ? "counted (--include-degraded)"
							  : "its repetition is left out of the figures (--include-degraded counts it)");
		else if (!run_is_complete(r))
			add_warning(rep, "incomplete run: %s: status %s%s%s%s", r->path, run_status_name(r->status),
				    r->error ? " (" : "", r->error ? r->error : "", r->error ? ")" : "");
	}
}

/* The groups of sorted[0..nsorted), a warning for each repetition with too few or too many instances. */
static void run_groups_build(struct report *rep, struct run **sorted, size_t nsorted, const char *only)
{
	size_t i, j;

	/* Per run group (key without drive): per-drive groups, then the total. */
	for (i = 0; i < nsorted; i = j) {
		size_t ndrives = 1;

		for (j = i + 1; j < nsorted && !key_cmp(sorted[i], sorted[j], false); j++)
			ndrives += strcmp(sorted[j - 1]->drive, sorted[j]->drive) != 0;
		/*
		 * A run group whose drives each hold fewer than vm_count instances
		 * spreads its VMs over the drives ("8 VMs on 8 drives"): its total
		 * over the drives is the figure to compare, and each drive's group
		 * is a slice of it. Otherwise each drive ran the whole run group on
		 * its own and a total would mean nothing.
		 */
		bool spread = true, mine = !only;
		for (size_t a = i; a < j; a++) {
			if ((int64_t)count_like(sorted, i, j, sorted[a], true) >= sorted[a]->vm_count)
				spread = false;
			mine |= only && !strcmp(sorted[a]->drive, only);
		}
		if (!mine)
			continue; /* --drive: a run group without that drive */
		for (size_t a = i, b; a < j; a = b) {
			for (b = a + 1; b < j && !strcmp(sorted[a]->drive, sorted[b]->drive); b++)
				;
			if (!only || !strcmp(sorted[a]->drive, only))
				group_build(rep, new_group(rep), sorted + a, b - a, false, ndrives > 1 && spread);
		}
		if (ndrives > 1 && spread && !only)
			group_build(rep, new_group(rep), sorted + i, j - i, true, false);
		/* Every repetition should have vm_count instances (per drive, or over the drives). */
		for (size_t a = i; a < j; a++) {
			size_t cnt = count_like(sorted, i, j, sorted[a], !spread);
			bool first = true;

			for (size_t b = i; b < a; b++)
				if (sorted[b]->repetition == sorted[a]->repetition &&
				    (spread || !strcmp(sorted[b]->drive, sorted[a]->drive)))
					first = false;
			if (!first || (int64_t)cnt == sorted[a]->vm_count)
				continue;
			if (only && !spread && strcmp(sorted[a]->drive, only))
				continue;
			/* Too many is not "missing": the same instance twice (a copied file, a hand run beside the campaign's). */
			add_warning(rep, "%s: run group \"%s\"%s%s%s, repetition %lld: %zu result%s for %lld VM%s",
				    (int64_t)cnt > sorted[a]->vm_count ? "too many results" : "instances missing",
				    sorted[a]->run_group, spread ? "" : ", drive \"", spread ? "" : sorted[a]->drive,
				    spread ? "" : "\"", (long long)sorted[a]->repetition, cnt, cnt == 1 ? "" : "s",
				    (long long)sorted[a]->vm_count, sorted[a]->vm_count == 1 ? "" : "s");
			for (size_t gi = 0; gi < rep->ngroups; gi++) {
				struct agg_group *g = &rep->groups[gi];
				if (!key_cmp(g->reps[0].runs[0], sorted[a], false) &&
				    (spread || g->all_drives || !strcmp(g->drive, sorted[a]->drive)))
					g->incomplete = true;
			}
		}
	}
}

int report_build_with(const struct run_set *rs, const struct pub_set *pub, const struct report_opts *opts,
		      struct report **out)
{
	const char *only = opts && opts->drive ? opts->drive : NULL;
	struct report *rep;
	struct run **sorted;
	size_t i, j, nsorted;

	*out = NULL;
	if (only) {
		bool found = false;
		for (i = 0; i < rs->n && !found; i++)
			found = !strcmp(rs->runs[i]->drive, only);
		if (!found)
			return -ENOENT;
	}
	rep = report_new(rs, pub, opts, only);
	sorted = xcalloc(rs->n + 1, sizeof(*sorted));
	nsorted = runs_counted(rep, rs, sorted);
	run_verdicts(rep);
	run_groups_build(rep, sorted, nsorted, only);
	/* Same campaign, run group and drive but a different load: never merged, say so. */
	for (i = 0; i < rep->ngroups; i++) {
		for (j = i + 1; j < rep->ngroups; j++) {
			const struct agg_group *a = &rep->groups[i], *b = &rep->groups[j];
			if (a->all_drives || b->all_drives || strcmp(a->campaign, b->campaign) ||
			    strcmp(a->run_id, b->run_id) || strcmp(a->run_group, b->run_group) || strcmp(a->drive, b->drive))
				continue;
			add_warning(rep, "not merged: %s has results with different loads: "
				    "[%s %s vm_count=%lld %s] vs [%s %s vm_count=%lld %s]",
				    a->label, a->kind, a->test, (long long)a->vm_count, a->params,
				    b->kind, b->test, (long long)b->vm_count, b->params);
		}
	}
	label_runs(rep);
	disambiguate_labels(rep);
	match_published(rep);
	agg_rank_drives(rep);
	if (only) {
		agg_rank_against_all(rep, rs, pub, opts);
		/* One drive's part of a run group spread over drives is its share, not the run group. */
		for (i = 0; i < rep->ngroups; i++) {
			struct agg_group *g = &rep->groups[i];
			struct strbuf sb;
			if (!g->slice || !g->nreps)
				continue;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "%s (this drive's share: %zu of %lld VMs)", g->label, g->reps[0].n,
				    (long long)g->vm_count);
			free(g->label);
			g->label = strbuf_detach(&sb);
			strbuf_release(&sb);
		}
	}
	free(sorted);
	*out = rep;
	return 0;
}

int report_build(const struct run_set *rs, const struct pub_set *pub, struct report **out)
{
	return report_build_with(rs, pub, NULL, out);
}

void report_free(struct report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ngroups; i++)
		group_release(&r->groups[i]);
	free(r->groups);
	for (size_t i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->unmatched);
	free(r->cmps);
	free(r->rv);
	free(r->view.runs);
	free(r->view.superseded);
	free(r);
}
