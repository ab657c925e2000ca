/*
 * The campaign loop. Children (servers, drivers) are only ever waited for by
 * pid, get SIGTERM when this process dies (PR_SET_PDEATHSIG), and live in
 * their own process groups, so a Ctrl-C reaches dbrig alone and dbrig stops
 * them in order: drivers first (they write "interrupted" results), then the
 * servers (clean shutdown).
 */
#include "campaign/campaign.h"

#include "campaign/config.h"
#include "campaign/fresh.h"
#include "campaign/golden.h"
#include "campaign/lock.h"
#include "campaign/plan.h"
#include "campaign/run.h"
#include "campaign/state.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
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

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void report(struct campaign_ctx *c)
{
	struct strbuf out, logp;
	int st = 0;

	strbuf_init(&out, 0);
	strbuf_init(&logp, 0);
	strbuf_addf(&out, "%s/report", c->dir.buf);
	strbuf_addf(&logp, "%s/report.log", c->dir.buf);
	char *argv[] = {c->steps.exe, "report", c->dir.buf, "--out", out.buf, NULL};
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

/* A failure of a step after the config was accepted is a runtime one, whatever its errno. */
static int as_runtime(int ret)
{
	return ret < 0 && ret != -EINVAL ? ret : -EIO;
}

/* The instances and drives the unfinished runs of a resumed campaign use; returns how many runs are left. */
static size_t needed(struct campaign_ctx *c, bool *need_inst, bool *need_drive)
{
	size_t unfinished = 0;

	for (size_t ri = 0; c->st && ri < c->plan->nruns; ri++) {
		if (c->st->runs[ri].status == STATE_RUN_DONE)
			continue;
		for (size_t k = 0; k < c->plan->runs[ri].ninsts; k++) {
			need_inst[c->plan->runs[ri].insts[k]] = true;
			need_drive[c->plan->insts[c->plan->runs[ri].insts[k]].drive] = true;
		}
		unfinished++;
	}
	return unfinished;
}

/* Every run not done yet, in order; -EINTR stops at a signal, a failed run stops the campaign. */
static int run_all(struct campaign_ctx *c)
{
	for (size_t ri = 0; ri < c->plan->nruns && !stop_signal; ri++) {
		int ret;
		if (c->st->runs[ri].status == STATE_RUN_DONE)
			continue;
		ret = run_one(c, ri);
		if (ret == -EINTR)
			break;
		if (ret < 0) {
			log_error("run %s failed; fix the cause and continue with: dbrig campaign %s --resume",
				  c->plan->runs[ri].id, c->cfg->file);
			return ret;
		}
	}
	return 0;
}

/*
 * The campaign file, its plan and folder, the lock, the earlier state and
 * whether that fits the options: 0 to go on, 1 when there is nothing more to
 * do (--plan printed the plan), or the error campaign_main returns.
 */
static int campaign_open(const struct campaign_opts *o, struct campaign_ctx *c, struct campaign_lock *lock,
			 struct strbuf *path)
{
	int ret;

	ret = campaign_config_load(o->file, &c->cfg);
	if (ret < 0)
		return ret;
	c->plan = plan_make(c->cfg);
	plan_campaign_dir(c->cfg, &c->dir);
	strbuf_addf(path, "%s/state.json", c->dir.buf);
	/* Before the state is read: a campaign running here must not be disturbed (its servers, drivers and live results). */
	if (!o->plan && campaign_lock_take(c->cfg, lock) < 0)
		return -EIO;
	/* --fresh never reads the earlier state: it may be another config's. */
	ret = o->fresh ? -ENOENT : state_load(c->cfg, c->plan, path->buf, &c->st);
	if (ret < 0 && ret != -ENOENT)
		return ret == -ESTALE ? -ESTALE : -EINVAL;
	if (o->plan) {
		progress_plan(c);
		return 1;
	}
	if (!o->resume && c->st) {
		fresh_refuse(c->cfg, c->plan, c->st, c->dir.buf);
		return -EIO;
	}
	if (o->resume && !c->st) {
		log_error("%s: nothing to resume: no campaign state (expected a campaign started with the same config)",
			  path->buf);
		return -EINVAL;
	}
	if ((ret = steps_self_exe(c->steps.exe, sizeof(c->steps.exe))) < 0)
		return as_runtime(ret);
	c->tty = isatty(STDOUT_FILENO);
	c->stop_signal = &stop_signal;
	return 0;
}

/*
 * The campaign once its state fits: what the unfinished runs need provisioned
 * and loaded, the runs, the summary and the report. 0, or the error
 * campaign_main returns (it stops and tears down what the steps opened).
 */
static int campaign_go(const struct campaign_opts *o, struct campaign_ctx *c, const char *state_path)
{
	bool *need_inst, *need_drive;
	size_t unfinished;
	int ret, err = -EIO;

	/* Only what unfinished runs need is provisioned and loaded. */
	need_inst = xcalloc(c->plan->ninsts + 1, sizeof(bool));
	need_drive = xcalloc(c->cfg->ndrives + 1, sizeof(bool));
	unfinished = needed(c, need_inst, need_drive);
	if (c->st && !unfinished) {
		log_info("every run of %s is done; summarising", c->cfg->name);
		progress_summary(c);
		report(c);
		err = 0;
		goto out;
	}
	if ((ret = steps_open(&c->steps, c->cfg, c->plan, false)) < 0) {
		err = as_runtime(ret);
		goto out;
	}
	c->steps.env.stop = &stop_signal;
	c->steps.tgt.will_boot = true;
	ret = steps_preflight(&c->steps);
	if (ret < 0) {
		err = ret;
		goto out;
	}
	/* After preflight, which fails while a local campaign still running there has a server up. */
	if (o->fresh) {
		struct strbuf aside;
		strbuf_init(&aside, 0);
		ret = fresh_move_aside(c->dir.buf, &aside);
		strbuf_release(&aside);
		if (ret < 0)
			goto out;
	}
	if ((ret = mkdir_p(c->dir.buf, 0755)) < 0) {
		log_error("cannot create the results folder %s: %s", c->dir.buf, strerror(-ret));
		err = as_runtime(ret);
		goto out;
	}
	if (!c->st) {
		c->st = state_new(c->cfg, c->plan, state_path);
		if (state_save(c->cfg, c->plan, c->st) < 0)
			goto out;
	}
	/* What a resumed campaign still needs (all of it for a fresh one); a failure removes what this process made. */
	if (steps_provision(&c->steps, unfinished ? need_inst : NULL) < 0)
		goto out;
	if (golden_build_all(c, unfinished ? need_drive : NULL, &stop_signal) < 0 || run_all(c) < 0)
		goto out;
	if (stop_signal) {
		log_error("interrupted by signal %d; the cut-off run restarts from its restore with: dbrig campaign %s --resume",
			  (int)stop_signal, c->cfg->file);
		goto out;
	}
	progress_summary(c);
	report(c);
	err = 0;
out:
	free(need_inst);
	free(need_drive);
	return err;
}

int campaign_main(const struct campaign_opts *o)
{
	struct campaign_ctx c = {0};
	struct campaign_lock lock = {.fd = -1};
	struct strbuf path;
	struct sigaction sa = {0}, old_int, old_term, old_hup;
	bool sig_installed = false;
	int ret, err;

	strbuf_init(&c.dir, 0);
	strbuf_init(&path, 0);
	ret = campaign_open(o, &c, &lock, &path);
	if (ret != 0) {
		err = ret > 0 ? 0 : ret;
		goto out;
	}

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup); /* a closed terminal stops the campaign in order, like SIGTERM */
	sig_installed = true;

	err = campaign_go(o, &c, path.buf);
out:
	if (c.steps.open) {
		if (steps_stop(&c.steps, NULL, c.plan->ninsts) < 0)
			err = err ? err : -EIO;
		if (err == 0 && !c.cfg->keep && steps_teardown(&c.steps, true, NULL) < 0)
			err = -EIO;
		steps_close(&c.steps);
	}
	if (sig_installed) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	campaign_lock_release(&lock);
	state_free(c.st);
	plan_free(c.plan);
	campaign_config_free(c.cfg);
	strbuf_release(&c.dir);
	strbuf_release(&path);
	return err;
}
