/* What a campaign shows while it runs: the plan, live progress, the summary table. */
#include "campaign/run.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "result/figures.h"
#include "result/read.h"

#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void fmt_dur(uint64_t ns, char *buf, size_t n)
{
	format_duration(ns, buf, (unsigned)n);
}

static void fmt_clock(double s, char *buf, size_t n)
{
	long v = s < 0 ? 0 : (long)(s + 0.5);

	if (v >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, n, "%ld:%02ld", v / 60, v % 60);
}

/* The golden load's size: what every drive's golden copy holds (its time is not estimated). */
static void progress_golden_rows(const struct campaign_config *cfg)
{
	unsigned loads = 0;
	struct strbuf size;

	for (size_t d = 0; d < cfg->ndrives; d++)
		loads += campaign_drive_instances(cfg, d) && (cfg->golden_source < 0 || (long)d == cfg->golden_source);
	strbuf_init(&size, 0);
	campaign_workload_text(cfg, cfg->workload->golden_size_text, &size);
	printf("  golden    %s, loaded %u time(s)%s; load time not estimated\n", size.buf, loads,
	       cfg->golden_source >= 0 ? ", cloned to the other drives" : "");
	strbuf_release(&size);
}

void progress_plan(struct campaign_ctx *c)
{
	const struct campaign_config *cfg = c->cfg;
	char a[32], b[32], iv[32];
	uint64_t total = 0;
	struct strbuf wl;

	fmt_dur(cfg->precondition_ns, a, sizeof(a));
	fmt_dur(cfg->sample_ns, b, sizeof(b));
	fmt_dur(cfg->report_interval_ns, iv, sizeof(iv));
	printf("campaign %s (%s)\n", cfg->name, cfg->file);
	strbuf_init(&wl, 0);
	campaign_workload_text(cfg, cfg->workload->plan_text, &wl);
	printf("  workload  %s%s\n", wl.buf, cfg->sessions_per_terminal ? " (one session per terminal)" : "");
	strbuf_release(&wl);
	for (size_t i = 0; i < cfg->nwl_options; i++)
		printf("            --%s=%s\n", cfg->wl_options[i].key, cfg->wl_options[i].value);
	printf("  engine    %s, buffer pool %llu MiB\n", cfg->engine->name,
	       (unsigned long long)(cfg->buffer_pool >> 20));
	printf("  target    %s\n", cfg->target->name);
	printf("  phases    precondition %s, sample %s, report every %s\n", a, b, iv);
	{
		uint64_t rounds = cfg->precondition_ns / cfg->report_interval_ns;
		printf("  steady    the precondition's last %u rounds (it has %llu%s)\n", cfg->steady_window,
		       (unsigned long long)rounds, rounds < cfg->steady_window ? ": too few, its verdict will be n/a" : "");
	}
	printf("  drives\n");
	for (size_t d = 0; d < cfg->ndrives; d++)
		printf("    %-12s %s %s%s%s (%u instance(s))\n", cfg->drives[d].name, cfg->drives[d].path ? "path" : "pool",
		       cfg->drives[d].path ? cfg->drives[d].path : cfg->drives[d].pool,
		       cfg->drives[d].model ? ", model " : "", cfg->drives[d].model ? cfg->drives[d].model : "",
		       campaign_drive_instances(cfg, d));
	if (cfg->target->plan)
		cfg->target->plan(&cfg->env, stdout);
	progress_golden_rows(cfg);
	printf("  results   %s/\n", c->dir.buf);
	printf("steps\n");
	unsigned step = 1;
	/* "golden": "once": the source drive's load first, then its clones (golden.c golden_build_all). */
	if (cfg->golden_source >= 0)
		printf("  %2u. golden copy on %s%s\n", step++, cfg->drives[cfg->golden_source].name,
		       c->st && c->st->golden[cfg->golden_source] ? "  [built]" : "");
	for (size_t d = 0; d < cfg->ndrives; d++) {
		if ((long)d == cfg->golden_source || !campaign_drive_instances(cfg, d))
			continue;
		if (cfg->golden_source >= 0)
			printf("  %2u. golden copy on %s, cloned from %s%s\n", step++, cfg->drives[d].name,
			       cfg->drives[cfg->golden_source].name, c->st && c->st->golden[d] ? "  [built]" : "");
		else
			printf("  %2u. golden copy on %s%s\n", step++, cfg->drives[d].name,
			       c->st && c->st->golden[d] ? "  [built]" : "");
	}
	for (size_t i = 0; i < c->plan->nruns; i++) {
		const struct plan_run *r = &c->plan->runs[i];
		const struct campaign_group *g = &cfg->groups[r->group];
		printf("  %2u. run \"%s\" repetition %u/%u: %u instance(s):", step++, g->name, r->rep, cfg->repetitions,
		       g->instances);
		for (size_t p = 0; p < g->nplace; p++)
			printf(" %s x%u", cfg->drives[g->place[p].drive].name, g->place[p].count);
		if (g->threads_set)
			printf(", %u threads each", g->threads);
		printf(", %s + %s", a, b);
		if (c->st)
			printf("  [%s]", state_status_name(c->st->runs[i].status));
		printf("\n");
		total += cfg->precondition_ns + cfg->sample_ns;
	}
	fmt_dur(total, a, sizeof(a));
	printf("total: %zu run(s), %s of driving, plus loading the golden copies and a restore and start before "
	       "every run\n", c->plan->nruns, a);
}

void progress_show(struct campaign_ctx *c, const struct plan_run *r, size_t ri, struct run_driver *dv, size_t n, uint64_t t0,
		     unsigned *printed, unsigned *lines)
{
	const struct campaign_config *cfg = c->cfg;
	double total = (double)(cfg->precondition_ns + cfg->sample_ns) / 1e9;
	double el = (double)(clock_now_ns() - t0) / 1e9;
	char e[32], rem[32];
	double sum = 0;
	unsigned minint = UINT_MAX;

	for (size_t i = 0; i < n; i++) {
		journal_poll(run_driver_file(&dv[i], ".jsonl"), &dv[i].jt);
		sum += dv[i].jt.tps;
		if (dv[i].jt.intervals < minint)
			minint = dv[i].jt.intervals;
	}
	fmt_clock(el, e, sizeof(e));
	fmt_clock(total - el, rem, sizeof(rem));
	if (c->tty) {
		if (*lines)
			printf("\033[%uA\033[J", *lines);
		printf("run %zu/%zu  \"%s\"  repetition %u/%u   elapsed %s  remaining %s\n", ri + 1, c->plan->nruns,
		       cfg->groups[r->group].name, r->rep, cfg->repetitions, e, rem);
		for (size_t i = 0; i < n; i++) {
			const struct target_instance *in = &c->plan->insts[r->insts[i]];
			char pt[32];
			fmt_clock(dv[i].jt.phase_t, pt, sizeof(pt));
			printf("  %-12s %-6s %-13s %8s  %10.1f tps%s\n", cfg->drives[in->drive].name, in->name,
			       dv[i].jt.intervals ? dv[i].jt.phase : "starting", pt, dv[i].jt.tps,
			       dv[i].done ? "  (ended)" : "");
		}
		printf("  %-12s %-6s %-13s %8s  %10.1f tps\n", "total", "", "", "", sum);
		*lines = (unsigned)n + 2;
		fflush(stdout);
		return;
	}
	if (minint == UINT_MAX || minint <= *printed)
		return;
	*printed = minint;
	char pt[32];
	fmt_clock(dv[0].jt.phase_t, pt, sizeof(pt));
	printf("[run %zu/%zu %s rep %u] %s %s  elapsed %s  remaining %s  tps", ri + 1, c->plan->nruns,
	       cfg->groups[r->group].slug, r->rep, dv[0].jt.phase, pt, e, rem);
	for (size_t i = 0; i < n; i++) {
		const struct target_instance *in = &c->plan->insts[r->insts[i]];
		printf(" %s/%s=%.1f", cfg->drives[in->drive].name, in->name, dv[i].jt.tps);
	}
	printf(" total=%.1f\n", sum);
	fflush(stdout);
}

/*
 * The plain-text summary: per run group x drive, means over repetitions,
 * computed as dbrig report computes them: each repetition's instances parsed as
 * the report parses them and summed or averaged by agg_fig_compute
 * (result/figures.h), then the mean over repetitions (fig_mean).
 */

/* The results of one campaign run (NULL entries: no result, or one that cannot be read); NULL when
 * the run did not end done, or has a degraded result: its repetition is left out, as dbrig report
 * leaves it out. */
static struct run **load_results(const struct campaign_ctx *c, size_t ri, struct strbuf *path)
{
	const struct plan_run *r = &c->plan->runs[ri];
	struct run **v;
	bool degraded = false;
	struct strbuf err;

	if (c->st->runs[ri].status != STATE_RUN_DONE)
		return NULL;
	v = xcalloc(r->ninsts + 1, sizeof(*v));
	strbuf_init(&err, 0);
	for (size_t i = 0; i < r->ninsts; i++) {
		char *text = NULL;
		size_t len;

		strbuf_reset(path);
		plan_result_base(c->cfg, c->plan, r, r->insts[i], path);
		strbuf_adds(path, ".json");
		if (read_file(path->buf, &text, &len) == 0 && results_parse_result(path->buf, text, &v[i], &err) != 0)
			v[i] = NULL;
		free(text);
		degraded |= v[i] && v[i]->status == RESULT_RUN_DEGRADED;
	}
	strbuf_release(&err);
	if (degraded) {
		for (size_t i = 0; i < r->ninsts; i++)
			run_free(v[i]);
		free(v);
		return NULL;
	}
	return v;
}

struct summary_row {
	double tps, avg_ms, p99_ms;
	bool has_p99;
};

/* Run group g's figures on drive place[p] (p == nplace: all its drives); false when no repetition has
 * a sample. */
static bool summary_figures(const struct campaign_ctx *c, struct run ***res, size_t g, size_t p,
			    struct summary_row *row)
{
	const struct campaign_group *gr = &c->cfg->groups[g];
	size_t nruns = c->plan->nruns, k = 0, kp = 0;
	double *tps = xcalloc(nruns + 1, sizeof(double)), *avg = xcalloc(nruns + 1, sizeof(double));
	double *p99 = xcalloc(nruns + 1, sizeof(double));
	struct run **sel = NULL;

	for (size_t ri = 0; ri < nruns; ri++) {
		const struct plan_run *r = &c->plan->runs[ri];
		struct agg_fig f;
		size_t n = 0;

		if (r->group != g || !res[ri])
			continue;
		sel = xrealloc(sel, (r->ninsts + 1) * sizeof(*sel));
		for (size_t i = 0; i < r->ninsts; i++)
			if (res[ri][i] && (p == gr->nplace || c->plan->insts[r->insts[i]].drive == gr->place[p].drive))
				sel[n++] = res[ri][i];
		agg_fig_compute(sel, n, RESULT_PHASE_SAMPLE, &f);
		if (f.n) {
			tps[k] = f.tps_sum;
			avg[k++] = f.avg_ms_mean;
			if (f.n_p99)
				p99[kp++] = f.p99_mean_of_instances_ms;
		}
		agg_fig_release(&f);
	}
	row->tps = fig_mean(tps, k);
	row->avg_ms = fig_mean(avg, k);
	row->p99_ms = fig_mean(p99, kp);
	row->has_p99 = kp > 0;
	free(sel);
	free(tps);
	free(avg);
	free(p99);
	return k > 0;
}

void progress_summary(struct campaign_ctx *c)
{
	const struct campaign_config *cfg = c->cfg;
	struct strbuf out, path;
	struct run ***res = xcalloc(c->plan->nruns + 1, sizeof(*res));

	strbuf_init(&out, 0);
	strbuf_init(&path, 0);
	for (size_t ri = 0; ri < c->plan->nruns; ri++)
		res[ri] = load_results(c, ri, &path);
	strbuf_addf(&out, "%-28s %-14s %9s %12s %14s %14s\n", "run group", "drive", "instances", "TPS (sum)",
		    "avg lat ms", "avg p99 ms");
	for (size_t g = 0; g < cfg->ngroups; g++) {
		const struct campaign_group *gr = &cfg->groups[g];

		for (size_t p = 0; p <= gr->nplace; p++) {
			bool total = p == gr->nplace;
			struct summary_row row;

			if (total && gr->nplace == 1)
				break;
			if (!summary_figures(c, res, g, p, &row))
				continue;
			strbuf_addf(&out, "%-28.28s %-14.14s %9u %12.2f %14.2f ", gr->name,
				    total ? "(all drives)" : cfg->drives[gr->place[p].drive].name,
				    total ? gr->instances : gr->place[p].count, row.tps, row.avg_ms);
			if (row.has_p99)
				strbuf_addf(&out, "%14.2f\n", row.p99_ms);
			else
				strbuf_addf(&out, "%14s\n", "-");
		}
	}
	for (size_t ri = 0; ri < c->plan->nruns; ri++) {
		for (size_t i = 0; res[ri] && i < c->plan->runs[ri].ninsts; i++)
			run_free(res[ri][i]);
		free(res[ri]);
	}
	free(res);
	strbuf_adds(&out, "TPS: sum over instances (mean over repetitions); latencies: mean of the instances' "
			  "sample-phase averages and p99s (the published method).\n");
	fputs(out.buf, stdout);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/summary.txt", c->dir.buf);
	if (atomic_write_file(path.buf, out.buf, out.len) < 0)
		log_warn("cannot write %s", path.buf);
	strbuf_release(&out);
	strbuf_release(&path);
}
