/* What a campaign shows while it runs: the plan, live progress, the summary table. */
#include "campaign/run.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <limits.h>
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

/* The plain-text summary: per run group x drive, means over repetitions. */
/* A run with a degraded result: its repetition is left out, as dbrig report leaves it out. */
static bool run_degraded(const struct campaign_ctx *c, const struct plan_run *r, struct strbuf *path)
{
	for (size_t i = 0; i < r->ninsts; i++) {
		struct result_summary rs;
		strbuf_reset(path);
		plan_result_base(c->cfg, c->plan, r, r->insts[i], path);
		strbuf_adds(path, ".json");
		if (result_read_summary(path->buf, &rs) == 0 && !strcmp(rs.status, "degraded"))
			return true;
	}
	return false;
}

void progress_summary(struct campaign_ctx *c)
{
	const struct campaign_config *cfg = c->cfg;
	struct strbuf out, path;

	strbuf_init(&out, 0);
	strbuf_init(&path, 0);
	strbuf_addf(&out, "%-28s %-14s %9s %12s %14s %14s\n", "run group", "drive", "instances", "TPS (sum)",
		    "avg lat ms", "avg p99 ms");
	for (size_t g = 0; g < cfg->ngroups; g++) {
		const struct campaign_group *gr = &cfg->groups[g];

		for (size_t p = 0; p <= gr->nplace; p++) {
			bool total = p == gr->nplace;
			double tps = 0, lat = 0, p99 = 0;
			unsigned nres = 0, np99 = 0, reps = 0;

			if (total && gr->nplace == 1)
				break;
			for (size_t ri = 0; ri < c->plan->nruns; ri++) {
				const struct plan_run *r = &c->plan->runs[ri];
				bool any = false;
				if (r->group != g || c->st->runs[ri].status != STATE_RUN_DONE || run_degraded(c, r, &path))
					continue;
				for (size_t i = 0; i < r->ninsts; i++) {
					const struct target_instance *in = &c->plan->insts[r->insts[i]];
					struct result_summary rs;
					if (!total && in->drive != gr->place[p].drive)
						continue;
					strbuf_reset(&path);
					plan_result_base(cfg, c->plan, r, r->insts[i], &path);
					strbuf_adds(&path, ".json");
					if (result_read_summary(path.buf, &rs) < 0)
						continue;
					tps += rs.tps;
					lat += rs.avg_ms;
					nres++;
					if (rs.p99_ms >= 0) {
						p99 += rs.p99_ms;
						np99++;
					}
					any = true;
				}
				reps += any;
			}
			if (!nres)
				continue;
			strbuf_addf(&out, "%-28.28s %-14.14s %9u %12.2f %14.2f ", gr->name,
				    total ? "(all drives)" : cfg->drives[gr->place[p].drive].name,
				    total ? gr->instances : gr->place[p].count, tps / reps, lat / nres);
			if (np99)
				strbuf_addf(&out, "%14.2f\n", p99 / np99);
			else
				strbuf_addf(&out, "%14s\n", "-");
		}
	}
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
