/*
 * The campaign loop. Children (servers, drivers) are only ever waited for by
 * pid, get SIGTERM when this process dies (PR_SET_PDEATHSIG), and live in
 * their own process groups, so a Ctrl-C reaches dbrig alone and dbrig stops
 * them in order: drivers first (they write "interrupted" results), then the
 * servers (clean shutdown).
 */
#include "campaign/campaign.h"

#include "campaign/config.h"
#include "campaign/driver.h"
#include "campaign/plan.h"
#include "result/tail.h"
#include "campaign/state.h"
#include "cli/cli.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/proc.h"
#include "target/target.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DRIVER_STOP_GRACE_NS (UINT64_C(60) * NS_PER_SEC)

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

struct ctx {
	struct campaign_config *cfg;
	struct plan *plan;
	struct campaign_state *st;
	struct target tgt;
	char exe[PATH_MAX];
	struct strbuf dir; /* <output>/<campaign> */
	bool tty;
	bool target_ready;
};

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

static void print_plan(struct ctx *c)
{
	const struct campaign_config *cfg = c->cfg;
	char a[32], b[32], iv[32];
	uint64_t total = 0;

	fmt_dur(cfg->precondition_ns, a, sizeof(a));
	fmt_dur(cfg->sample_ns, b, sizeof(b));
	fmt_dur(cfg->report_interval_ns, iv, sizeof(iv));
	printf("campaign %s (%s)\n", cfg->name, cfg->file);
	if (cfg->workload == WORKLOAD_SYSBENCH)
		printf("  workload  sysbench %s: %u table(s) x %llu rows, %u threads per instance\n", cfg->test,
		       cfg->tables, (unsigned long long)cfg->table_size, cfg->threads);
	else
		printf("  workload  tpcc: %u warehouse(s), %u connections per instance\n", cfg->warehouses,
		       cfg->threads);
	for (size_t i = 0; i < cfg->nwl_options; i++)
		printf("            --%s=%s\n", cfg->wl_options[i].key, cfg->wl_options[i].value);
	printf("  engine    %s, buffer pool %llu MiB\n", engine_kind_name(cfg->engine),
	       (unsigned long long)(cfg->buffer_pool >> 20));
	printf("  target    %s\n", cfg->target->name);
	printf("  phases    precondition %s, sample %s, report every %s\n", a, b, iv);
	printf("  drives\n");
	for (size_t d = 0; d < cfg->ndrives; d++)
		printf("    %-12s %s %s%s%s (%u instance(s))\n", cfg->drives[d].name, cfg->drives[d].path ? "path" : "pool",
		       cfg->drives[d].path ? cfg->drives[d].path : cfg->drives[d].pool,
		       cfg->drives[d].model ? ", model " : "", cfg->drives[d].model ? cfg->drives[d].model : "",
		       campaign_drive_instances(cfg, d));
	printf("  results   %s/\n", c->dir.buf);
	printf("steps\n");
	unsigned step = 1;
	for (size_t d = 0; d < cfg->ndrives; d++)
		printf("  %2u. golden copy on %s%s\n", step++, cfg->drives[d].name,
		       c->st && c->st->golden[d] ? "  [built]" : "");
	for (size_t i = 0; i < c->plan->nruns; i++) {
		const struct plan_run *r = &c->plan->runs[i];
		const struct campaign_group *g = &cfg->groups[r->group];
		printf("  %2u. run \"%s\" repetition %u/%u: %u instance(s):", step++, g->name, r->rep, cfg->repetitions,
		       g->instances);
		for (size_t p = 0; p < g->nplace; p++)
			printf(" %s x%u", cfg->drives[g->place[p].drive].name, g->place[p].count);
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

/* Wait for drivers of a cut-off attempt (recorded in the state) to be gone. */
static void reap_stale_drivers(struct state_run *sr)
{
	for (size_t k = 0; k < sr->npids; k++) {
		uint64_t deadline = clock_now_ns() + DRIVER_STOP_GRACE_NS;
		if (!proc_alive_named(sr->pids[k], "dbrig"))
			continue;
		log_info("a driver of the cut-off run (pid %ld) is still running; stopping it", (long)sr->pids[k]);
		kill(sr->pids[k], SIGTERM);
		while (proc_alive_named(sr->pids[k], "dbrig") && clock_now_ns() < deadline) {
			struct timespec ts = {0, 100 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (proc_alive_named(sr->pids[k], "dbrig"))
			kill(sr->pids[k], SIGKILL);
	}
	free(sr->pids);
	sr->pids = NULL;
	sr->npids = 0;
}

/* <base>.json -> <base>.partial-<n>.json (and the journal and log), never overwriting. */
static int keep_partial(const char *base, unsigned attempt)
{
	static const char *const exts[] = {".json", ".jsonl", ".log"};
	struct strbuf from, to;
	unsigned n = attempt ? attempt : 1;
	int ret = 0;
	bool any = false;

	strbuf_init(&from, 0);
	strbuf_init(&to, 0);
	for (size_t e = 0; e < 3; e++) {
		strbuf_reset(&from);
		strbuf_addf(&from, "%s%s", base, exts[e]);
		any = any || access(from.buf, F_OK) == 0;
	}
	if (!any)
		goto out;
	for (;; n++) {
		bool taken = false;
		for (size_t e = 0; e < 3; e++) {
			strbuf_reset(&to);
			strbuf_addf(&to, "%s.partial-%u%s", base, n, exts[e]);
			taken = taken || access(to.buf, F_OK) == 0;
		}
		if (!taken)
			break;
	}
	for (size_t e = 0; e < 3; e++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s%s", base, exts[e]);
		strbuf_addf(&to, "%s.partial-%u%s", base, n, exts[e]);
		if (access(from.buf, F_OK) == 0 && rename(from.buf, to.buf) < 0) {
			ret = -errno;
			log_error("cannot move the partial result %s aside: %s", from.buf, strerror(errno));
			goto out;
		}
	}
	log_info("kept the cut-off attempt's files as %s.partial-%u.*", base, n);
out:
	strbuf_release(&from);
	strbuf_release(&to);
	return ret;
}

struct driver {
	pid_t pid;
	int status;
	bool done;
	struct strbuf base; /* results/<campaign>/<group>/<drive>/<instance>[-rep<n>] */
	struct strbuf path; /* scratch for driver_file() */
	struct journal_tail jt;
};

/* The instance's file `base` + suffix (".json", ".jsonl", ".log"); valid until the next call. */
static const char *driver_file(struct driver *dv, const char *suffix)
{
	strbuf_reset(&dv->path);
	strbuf_addf(&dv->path, "%s%s", dv->base.buf, suffix);
	return dv->path.buf;
}

static void driver_argv(struct ctx *c, const struct plan_run *r, size_t inst, const struct target_endpoint *ep,
			const char *base, struct strbuf *args, char **argv, size_t max)
{
	const struct campaign_config *cfg = c->cfg;
	const struct target_instance *in = &c->plan->insts[inst];

	strbuf_reset(args);
	driver_conn_args(cfg, ep, args);
	switch (cfg->workload) {
	case WORKLOAD_SYSBENCH:
		strbuf_addf(args, "--threads=%u%c", cfg->threads, '\0');
		break;
	case WORKLOAD_TPCC:
		/* The terminals share the instance's connections. */
		strbuf_addf(args, "--connections=%u%c", cfg->threads, '\0');
		break;
	}
	strbuf_adds(args, "--percentile=");
	campaign_percentiles_arg(cfg, args);
	strbuf_addc(args, '\0');
	strbuf_addf(args, "--precondition=%llu%c", (unsigned long long)(cfg->precondition_ns / NS_PER_SEC), '\0');
	strbuf_addf(args, "--time=%llu%c", (unsigned long long)(cfg->sample_ns / NS_PER_SEC), '\0');
	strbuf_addf(args, "--report-interval=%llu%c", (unsigned long long)(cfg->report_interval_ns / NS_PER_SEC), '\0');
	strbuf_addf(args, "--result=%s.json%c--journal=%s.jsonl%c", base, '\0', base, '\0');
	strbuf_addf(args, "--run-campaign=%s%c--run-group=%s%c", cfg->name, '\0', cfg->groups[r->group].name, '\0');
	strbuf_addf(args, "--run-drive=%s%c--run-instance=%s%c", cfg->drives[in->drive].name, '\0', in->name, '\0');
	strbuf_addf(args, "--run-vm-count=%u%c--run-repetition=%u%c", cfg->groups[r->group].instances, '\0', r->rep,
		    '\0');
	driver_workload_args(cfg, args);
	if (cfg->workload == WORKLOAD_SYSBENCH)
		strbuf_addf(args, "%s%c", cfg->test, '\0');
	strbuf_addf(args, "run%c", '\0');

	argv[0] = c->exe;
	argv[1] = (char *)driver_command(cfg);
	driver_split_args(args, argv, 2, max);
}

static void progress(struct ctx *c, const struct plan_run *r, size_t ri, struct driver *dv, size_t n, uint64_t t0,
		     unsigned *printed, unsigned *lines)
{
	const struct campaign_config *cfg = c->cfg;
	double total = (double)(cfg->precondition_ns + cfg->sample_ns) / 1e9;
	double el = (double)(clock_now_ns() - t0) / 1e9;
	char e[32], rem[32];
	double sum = 0;
	unsigned minint = UINT_MAX;

	for (size_t i = 0; i < n; i++) {
		journal_poll(driver_file(&dv[i], ".jsonl"), &dv[i].jt);
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

static void set_error(struct state_run *sr, const char *msg)
{
	free(sr->error);
	sr->error = msg ? xstrdup(msg) : NULL;
}

static int stop_instances(struct ctx *c, const size_t *idx, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct target_instance *in = &c->plan->insts[idx ? idx[i] : i];
		if (in->created && c->tgt.ops->stop(&c->tgt, in) < 0)
			ret = -EIO;
	}
	return ret;
}

/* 0 done, -EINTR stopped by a signal, other negative: the run failed. */
static int run_one(struct ctx *c, size_t ri)
{
	const struct campaign_config *cfg = c->cfg;
	const struct plan_run *r = &c->plan->runs[ri];
	struct state_run *sr = &c->st->runs[ri];
	const struct target_ops *ops = c->tgt.ops;
	struct driver *dv = xcalloc(r->ninsts, sizeof(*dv));
	struct strbuf args, msg, fp, dir;
	uint64_t t0, deadline;
	unsigned printed = 0, lines = 0;
	bool stopping = false;
	int ret = 0;

	strbuf_init(&args, 0);
	strbuf_init(&msg, 0);
	strbuf_init(&fp, 0);
	strbuf_init(&dir, 0);
	for (size_t i = 0; i < r->ninsts; i++) {
		strbuf_init(&dv[i].base, 0);
		strbuf_init(&dv[i].path, 0);
		journal_tail_init(&dv[i].jt);
		dv[i].pid = -1;
		plan_result_base(cfg, c->plan, r, r->insts[i], &dv[i].base);
	}
	log_info("run %zu/%zu: \"%s\" repetition %u/%u (%u instance(s))", ri + 1, c->plan->nruns,
		 cfg->groups[r->group].name, r->rep, cfg->repetitions, cfg->groups[r->group].instances);

	/* A cut-off attempt: its drivers gone, its files kept apart, then from the restore on. */
	reap_stale_drivers(sr);
	for (size_t i = 0; i < r->ninsts; i++)
		if ((ret = keep_partial(dv[i].base.buf, sr->attempts)) < 0)
			goto out;

	/* Instances of other run groups are stopped: only this group's load runs. */
	for (size_t i = 0; i < c->plan->ninsts; i++) {
		bool mine = false;
		for (size_t k = 0; k < r->ninsts; k++)
			mine = mine || r->insts[k] == i;
		if (!mine && c->plan->insts[i].created && (ret = ops->stop(&c->tgt, &c->plan->insts[i])) < 0)
			goto out;
	}
	for (size_t i = 0; i < r->ninsts && !stop_signal; i++) {
		struct target_instance *in = &c->plan->insts[r->insts[i]];
		if ((ret = ops->restore(&c->tgt, in)) < 0 || (ret = ops->start(&c->tgt, in)) < 0)
			goto fail_msg;
		strbuf_reset(&fp);
		if (!cfg->verify_restore) {
			free(sr->restore_check);
			sr->restore_check = xstrdup("not checked");
			continue;
		}
		ret = ops->verify(&c->tgt, in, &fp);
		if (ret == -ENOTSUP) {
			free(sr->restore_check);
			sr->restore_check = xstrdup("not supported by the target");
			ret = 0;
			continue;
		}
		if (ret < 0)
			goto fail_msg;
		if (strcmp(fp.buf, c->st->golden[in->drive])) {
			strbuf_addf(&msg, "%s/%s: the restored database differs from the golden copy (%s, expected %s)",
				    cfg->drives[in->drive].name, in->name, fp.buf, c->st->golden[in->drive]);
			log_error("%s", msg.buf);
			ret = -EIO;
			goto fail;
		}
		strbuf_reset(&msg);
		strbuf_addf(&msg, "verified: %s", fp.buf);
		free(sr->restore_check);
		sr->restore_check = strbuf_detach(&msg);
		log_info("%s/%s: restore verified (%s)", cfg->drives[in->drive].name, in->name, fp.buf);
	}
	if (stop_signal) {
		ret = -EINTR;
		goto out;
	}

	for (size_t i = 0; i < r->ninsts; i++) {
		strbuf_reset(&dir);
		strbuf_adds(&dir, dv[i].base.buf);
		*strrchr(dir.buf, '/') = '\0';
		if ((ret = mkdir_p(dir.buf, 0755)) < 0) {
			log_error("cannot create %s: %s", dir.buf, strerror(-ret));
			goto fail_msg;
		}
	}
	/* All drivers start together: endpoints first, then the forks back to back. */
	sr->status = RUN_RUNNING;
	sr->attempts++;
	clock_utc_iso8601(sr->started_at, sizeof(sr->started_at));
	sr->finished_at[0] = '\0';
	set_error(sr, NULL);
	sr->pids = xcalloc(r->ninsts, sizeof(pid_t));
	sr->npids = 0;
	struct target_endpoint *eps = xcalloc(r->ninsts, sizeof(*eps));
	for (size_t i = 0; i < r->ninsts && ret == 0; i++)
		ret = ops->endpoint(&c->tgt, &c->plan->insts[r->insts[i]], &eps[i]);
	for (size_t i = 0; i < r->ninsts && ret == 0; i++) {
		char *argv[128];
		driver_argv(c, r, r->insts[i], &eps[i], dv[i].base.buf, &args, argv, 128);
		struct proc_spec spec = {.argv = argv, .log_path = driver_file(&dv[i], ".log"), .new_group = true};
		ret = driver_spawn(cfg, &eps[i], &spec, &dv[i].pid);
		if (ret == 0)
			sr->pids[sr->npids++] = dv[i].pid;
	}
	free(eps);
	if (state_save(cfg, c->plan, c->st) < 0 && ret == 0)
		ret = -EIO;
	if (ret < 0) {
		stopping = true;
		for (size_t i = 0; i < r->ninsts; i++)
			if (dv[i].pid > 0)
				kill(dv[i].pid, SIGTERM);
	}

	t0 = clock_now_ns();
	deadline = t0 + cfg->precondition_ns + cfg->sample_ns + cfg->report_interval_ns + 300 * NS_PER_SEC;
	for (;;) {
		size_t running = 0;
		for (size_t i = 0; i < r->ninsts; i++) {
			if (dv[i].pid <= 0 || dv[i].done)
				continue;
			if (proc_wait(dv[i].pid, 1, &dv[i].status) == 0) {
				dv[i].done = true;
				if (!(WIFEXITED(dv[i].status) && WEXITSTATUS(dv[i].status) == 0) && !stopping) {
					const struct target_instance *in = &c->plan->insts[r->insts[i]];
					strbuf_reset(&msg);
					strbuf_addf(&msg, "the driver of %s/%s ", cfg->drives[in->drive].name, in->name);
					proc_describe_status(dv[i].status, &msg);
					strbuf_addf(&msg, " (see %s)", driver_file(&dv[i], ".log"));
					proc_add_log_tail(dv[i].path.buf, &msg);
					log_error("%s; stopping the other drivers of this run", msg.buf);
					if (ret == 0)
						ret = -ECHILD;
				}
			} else {
				running++;
			}
		}
		if (!running)
			break;
		uint64_t now = clock_now_ns();
		if (!stopping && (stop_signal || ret < 0 || now > deadline)) {
			if (now > deadline && !stop_signal && ret == 0) {
				strbuf_reset(&msg);
				strbuf_adds(&msg, "the drivers did not finish within the run's time plus 5 minutes");
				log_error("%s; stopping them", msg.buf);
				ret = -ETIMEDOUT;
			}
			stopping = true;
			deadline = now + DRIVER_STOP_GRACE_NS;
			for (size_t i = 0; i < r->ninsts; i++)
				if (dv[i].pid > 0 && !dv[i].done)
					kill(dv[i].pid, SIGTERM);
		} else if (stopping && now > deadline) {
			for (size_t i = 0; i < r->ninsts; i++)
				if (dv[i].pid > 0 && !dv[i].done)
					kill(dv[i].pid, SIGKILL);
		}
		progress(c, r, ri, dv, r->ninsts, t0, &printed, &lines);
		struct timespec ts = {0, 250 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	progress(c, r, ri, dv, r->ninsts, t0, &printed, &lines);
	if (stop_signal && ret == 0) {
		ret = -EINTR;
		goto out;
	}
	if (ret < 0)
		goto fail;
	/* Every instance must have left a complete result. */
	for (size_t i = 0; i < r->ninsts; i++) {
		struct result_summary rs;
		const char *res = driver_file(&dv[i], ".json");
		int rr = result_read_summary(res, &rs);
		if (rr < 0 || strcmp(rs.status, "complete")) {
			strbuf_reset(&msg);
			strbuf_addf(&msg, "%s: %s", res, rr == -ENOENT ? "missing" : rr < 0 ? "unreadable" : rs.status);
			log_error("%s (expected a complete result)", msg.buf);
			ret = -EIO;
			goto fail;
		}
	}
	sr->status = RUN_DONE;
	free(sr->pids);
	sr->pids = NULL;
	sr->npids = 0;
	clock_utc_iso8601(sr->finished_at, sizeof(sr->finished_at));
	if (stop_instances(c, r->insts, r->ninsts) < 0)
		log_warn("a server did not shut down cleanly after run %s; the next restore replaces its data anyway", r->id);
	ret = state_save(cfg, c->plan, c->st);
	goto out;
fail_msg:
	strbuf_reset(&msg);
	strbuf_addf(&msg, "setting up the instances failed (%s)", strerror(-ret));
fail:
	sr->status = RUN_FAILED;
	set_error(sr, msg.buf);
	if (state_save(cfg, c->plan, c->st) < 0) {
		/* already reported */
	}
	if (ret == 0 || ret == -EINTR)
		ret = -EIO;
out:
	for (size_t i = 0; i < r->ninsts; i++) {
		strbuf_release(&dv[i].base);
		strbuf_release(&dv[i].path);
		journal_tail_release(&dv[i].jt);
	}
	free(dv);
	strbuf_release(&args);
	strbuf_release(&msg);
	strbuf_release(&fp);
	strbuf_release(&dir);
	return ret;
}

/* The plain-text summary: per run group x drive, means over repetitions. */
static void summary(struct ctx *c)
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
				if (r->group != g || c->st->runs[ri].status != RUN_DONE)
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

static void report(struct ctx *c)
{
	struct strbuf out, logp;
	int st = 0;

	strbuf_init(&out, 0);
	strbuf_init(&logp, 0);
	strbuf_addf(&out, "%s/report", c->dir.buf);
	strbuf_addf(&logp, "%s/report.log", c->dir.buf);
	char *argv[] = {c->exe, "report", c->dir.buf, "--out", out.buf, NULL};
	struct proc_spec spec = {.argv = argv, .log_path = logp.buf};
	if (proc_run(&spec, NULL, &st) == 0) {
		printf("report: %s/\n", out.buf);
	} else {
		struct strbuf why;
		strbuf_init(&why, 0);
		proc_describe_status(st, &why);
		log_warn("dbrig report %s (see %s); the summary above stands", why.buf, logp.buf);
		strbuf_release(&why);
	}
	strbuf_release(&out);
	strbuf_release(&logp);
}

int campaign_main(const struct campaign_opts *o)
{
	struct ctx c = {0};
	struct strbuf path;
	struct sigaction sa = {0}, old_int, old_term;
	bool sig_installed = false, *need_inst = NULL, *need_drive = NULL;
	size_t unfinished = 0;
	int ret, code = EXIT_RUNTIME;

	strbuf_init(&c.dir, 0);
	strbuf_init(&path, 0);
	ret = campaign_config_load(o->file, &c.cfg);
	if (ret < 0) {
		code = ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	c.plan = plan_make(c.cfg);
	plan_campaign_dir(c.cfg, &c.dir);
	strbuf_addf(&path, "%s/state.json", c.dir.buf);
	ret = state_load(c.cfg, c.plan, path.buf, &c.st);
	if (ret < 0 && ret != -ENOENT) {
		code = EXIT_USAGE;
		goto out;
	}
	if (o->plan) {
		print_plan(&c);
		code = 0;
		goto out;
	}
	if (!o->resume && c.st) {
		log_error("%s: a campaign was already started here (expected --resume to continue it, or move %s away "
			  "to start afresh)", path.buf, c.dir.buf);
		code = EXIT_USAGE;
		goto out;
	}
	if (o->resume && !c.st) {
		log_error("%s: nothing to resume: no campaign state (expected a campaign started with the same config)",
			  path.buf);
		code = EXIT_USAGE;
		goto out;
	}
	if (c.cfg->workload == WORKLOAD_TPCC && !c.cfg->target->tpcc) {
		log_error("%s: .workload.kind: the %s target cannot run the TPC-C workload yet (expected the local "
			  "target; use --plan to check the campaign meanwhile)", c.cfg->file, c.cfg->target->name);
		goto out;
	}
	if (!realpath("/proc/self/exe", c.exe)) {
		log_error("cannot find this program's path through /proc/self/exe: %s", strerror(errno));
		goto out;
	}
	c.tty = isatty(STDOUT_FILENO);

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sig_installed = true;

	/* Only what unfinished runs need is provisioned and loaded. */
	need_inst = xcalloc(c.plan->ninsts + 1, sizeof(bool));
	need_drive = xcalloc(c.cfg->ndrives + 1, sizeof(bool));
	for (size_t ri = 0; c.st && ri < c.plan->nruns; ri++) {
		if (c.st->runs[ri].status == RUN_DONE)
			continue;
		for (size_t k = 0; k < c.plan->runs[ri].ninsts; k++) {
			need_inst[c.plan->runs[ri].insts[k]] = true;
			need_drive[c.plan->insts[c.plan->runs[ri].insts[k]].drive] = true;
		}
		unfinished++;
	}
	if (c.st && !unfinished) {
		log_info("every run of %s is done; summarising", c.cfg->name);
		summary(&c);
		report(&c);
		code = 0;
		goto out;
	}
	c.tgt.ops = c.cfg->target;
	c.tgt.cfg = c.cfg;
	c.tgt.dbrig_exe = c.exe;
	if ((ret = c.tgt.ops->init(&c.tgt)) < 0)
		goto out;
	c.target_ready = true;
	ret = c.tgt.ops->preflight(&c.tgt, c.plan->insts, c.plan->ninsts);
	if (ret < 0) {
		code = ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	if ((ret = mkdir_p(c.dir.buf, 0755)) < 0) {
		log_error("cannot create the results folder %s: %s", c.dir.buf, strerror(-ret));
		goto out;
	}
	if (!c.st) {
		c.st = state_new(c.cfg, c.plan, path.buf);
		if (state_save(c.cfg, c.plan, c.st) < 0)
			goto out;
	}
	for (size_t i = 0; i < c.plan->ninsts; i++)
		if ((need_inst[i] || !unfinished) && c.tgt.ops->create(&c.tgt, &c.plan->insts[i]) < 0)
			goto out;
	for (size_t d = 0; d < c.cfg->ndrives && !stop_signal; d++) {
		struct strbuf fp;
		if (unfinished && !need_drive[d])
			continue;
		strbuf_init(&fp, 0);
		ret = c.tgt.ops->build_golden(&c.tgt, d, &fp);
		if (ret == 0 && c.st->golden[d] && strcmp(c.st->golden[d], fp.buf))
			log_warn("%s: the golden copy was rebuilt (%s, earlier %s); finished runs used the earlier one",
				 c.cfg->drives[d].name, fp.buf, c.st->golden[d]);
		if (ret == 0) {
			free(c.st->golden[d]);
			c.st->golden[d] = strbuf_detach(&fp);
			log_info("%s: golden copy ready (%s)", c.cfg->drives[d].name, c.st->golden[d]);
		}
		strbuf_release(&fp);
		if (ret < 0 || (ret = state_save(c.cfg, c.plan, c.st)) < 0)
			goto out;
	}
	for (size_t ri = 0; ri < c.plan->nruns && !stop_signal; ri++) {
		if (c.st->runs[ri].status == RUN_DONE)
			continue;
		ret = run_one(&c, ri);
		if (ret == -EINTR)
			break;
		if (ret < 0) {
			log_error("run %s failed; fix the cause and continue with: dbrig campaign %s --resume",
				  c.plan->runs[ri].id, c.cfg->file);
			goto out;
		}
	}
	if (stop_signal) {
		log_error("interrupted by signal %d; the cut-off run restarts from its restore with: dbrig campaign %s --resume",
			  (int)stop_signal, c.cfg->file);
		goto out;
	}
	summary(&c);
	report(&c);
	code = 0;
out:
	if (c.target_ready) {
		if (c.plan && stop_instances(&c, NULL, c.plan->ninsts) < 0)
			code = code ? code : EXIT_RUNTIME;
		if (code == 0 && !c.cfg->keep)
			for (size_t i = 0; i < c.plan->ninsts; i++)
				if (c.plan->insts[i].created && c.tgt.ops->destroy(&c.tgt, &c.plan->insts[i]) < 0)
					code = EXIT_RUNTIME;
		for (size_t i = 0; c.plan && i < c.plan->ninsts; i++)
			c.tgt.ops->release(&c.tgt, &c.plan->insts[i]);
		c.tgt.ops->cleanup(&c.tgt);
	}
	if (sig_installed) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	free(need_inst);
	free(need_drive);
	state_free(c.st);
	plan_free(c.plan);
	campaign_config_free(c.cfg);
	strbuf_release(&c.dir);
	strbuf_release(&path);
	return code;
}
