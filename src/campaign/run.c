/*
 * One run of a campaign (a run group x repetition): restore -> start ->
 * one driver process per instance, all started together and stopped
 * together -> collect. Children are only ever waited for by pid and live in
 * their own process groups; a signal reaches dbrig alone, which stops the
 * drivers (they write "interrupted" results).
 */
#include "campaign/run.h"

#include "campaign/driver.h"
#include "campaign/runtel.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/units.h"
#include "result/result.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DRIVER_STOP_GRACE_NS (UINT64_C(60) * NS_PER_SEC)

/*
 * A driver of this run: a dbrig whose command line carries this run's
 * identity (--run-campaign, --run-group, --run-repetition, and --run-drive
 * and --run-instance of one of its instances; independent of the working
 * directory). A pid in the state file alone proves nothing once its process
 * is gone: it may be reused by anything, another campaign's driver included.
 */
static bool is_driver_of(struct campaign_ctx *c, const struct plan_run *r, pid_t pid)
{
	const struct campaign_config *cfg = c->cfg;
	struct strbuf a[5];
	bool ok = false;

	if (!proc_alive_named(pid, "dbrig"))
		return false;
	for (size_t k = 0; k < 5; k++)
		strbuf_init(&a[k], 0);
	for (size_t i = 0; i < r->ninsts && !ok; i++) {
		const struct target_instance *in = &c->plan->insts[r->insts[i]];
		for (size_t k = 0; k < 5; k++)
			strbuf_reset(&a[k]);
		strbuf_addf(&a[0], "--run-campaign=%s", cfg->name);
		strbuf_addf(&a[1], "--run-group=%s", cfg->groups[r->group].name);
		strbuf_addf(&a[2], "--run-drive=%s", cfg->drives[in->drive].name);
		strbuf_addf(&a[3], "--run-instance=%s", in->name);
		strbuf_addf(&a[4], "--run-repetition=%u", r->rep);
		ok = true;
		for (size_t k = 0; k < 5 && ok; k++)
			ok = proc_argv_has(pid, a[k].buf, NULL);
	}
	for (size_t k = 0; k < 5; k++)
		strbuf_release(&a[k]);
	return ok;
}

/* Wait for drivers of a cut-off attempt (recorded in the state) to be gone. */
static void reap_stale_drivers(struct campaign_ctx *c, const struct plan_run *r, struct state_run *sr)
{
	for (size_t k = 0; k < sr->npids; k++) {
		uint64_t deadline = clock_now_ns() + DRIVER_STOP_GRACE_NS;
		if (!is_driver_of(c, r, sr->pids[k]))
			continue;
		log_info("a driver of the cut-off run (pid %ld) is still running; stopping it", (long)sr->pids[k]);
		kill(sr->pids[k], SIGTERM);
		while (is_driver_of(c, r, sr->pids[k]) && clock_now_ns() < deadline) {
			struct timespec ts = {0, 100 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (is_driver_of(c, r, sr->pids[k]))
			kill(sr->pids[k], SIGKILL);
	}
	free(sr->pids);
	sr->pids = NULL;
	sr->npids = 0;
}

/* <base>.json -> <base>.partial-<n>.json (and the journal, the telemetry and the log), never overwriting. */
static int keep_partial(const char *base, unsigned attempt)
{
	static const char *const exts[] = {".json", ".jsonl", TEL_FILE_SUFFIX, ".log"};
	const size_t next = sizeof(exts) / sizeof(exts[0]);
	struct strbuf from, to;
	unsigned n = attempt ? attempt : 1;
	int ret = 0;
	bool any = false;

	strbuf_init(&from, 0);
	strbuf_init(&to, 0);
	for (size_t e = 0; e < next; e++) {
		strbuf_reset(&from);
		strbuf_addf(&from, "%s%s", base, exts[e]);
		any = any || access(from.buf, F_OK) == 0;
	}
	if (!any)
		goto out;
	for (;; n++) {
		bool taken = false;
		for (size_t e = 0; e < next; e++) {
			strbuf_reset(&to);
			strbuf_addf(&to, "%s.partial-%u%s", base, n, exts[e]);
			taken = taken || access(to.buf, F_OK) == 0;
		}
		if (!taken)
			break;
	}
	for (size_t e = 0; e < next; e++) {
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

/* The instance's file `base` + suffix (".json", ".jsonl", ".log"); valid until the next call. */
const char *run_driver_file(struct run_driver *dv, const char *suffix)
{
	strbuf_reset(&dv->path);
	strbuf_addf(&dv->path, "%s%s", dv->base.buf, suffix);
	return dv->path.buf;
}

static void set_error(struct state_run *sr, const char *msg)
{
	free(sr->error);
	sr->error = msg ? xstrdup(msg) : NULL;
}

/* Set up the instances' failure message the state records. */
static int setup_failed(struct strbuf *msg, int ret)
{
	strbuf_reset(msg);
	strbuf_addf(msg, "setting up the instances failed (%s)", strerror(-ret));
	return ret;
}

/* Instances of other run groups are stopped: only this group's load runs. */
static int stop_other_groups(struct campaign_ctx *c, const struct plan_run *r)
{
	int ret;

	for (size_t i = 0; i < c->plan->ninsts; i++) {
		bool mine = false;
		for (size_t k = 0; k < r->ninsts; k++)
			mine = mine || r->insts[k] == i;
		if (!mine && c->plan->insts[i].created && (ret = c->steps.tgt.ops->stop(&c->steps.tgt, &c->plan->insts[i])) < 0)
			return ret;
	}
	return 0;
}

/*
 * The run's instances are restored, started and, with verify_restore,
 * compared with the golden copy. <0 with msg set when the run failed.
 */
static int restore_instances(struct campaign_ctx *c, const struct plan_run *r, struct state_run *sr,
			     struct strbuf *msg)
{
	const struct campaign_config *cfg = c->cfg;
	const struct target_ops *ops = c->steps.tgt.ops;
	struct strbuf fp;
	int ret = 0;

	strbuf_init(&fp, 0);
	for (size_t i = 0; i < r->ninsts && !*c->stop_signal; i++) {
		struct target_instance *in = &c->plan->insts[r->insts[i]];
		if ((ret = ops->restore(&c->steps.tgt, in)) < 0 || (ret = ops->start(&c->steps.tgt, in)) < 0) {
			setup_failed(msg, ret);
			goto out;
		}
		strbuf_reset(&fp);
		if (!cfg->verify_restore) {
			free(sr->restore_check);
			sr->restore_check = xstrdup("not checked");
			continue;
		}
		ret = ops->verify(&c->steps.tgt, in, &fp);
		if (ret == -ENOTSUP) {
			free(sr->restore_check);
			sr->restore_check = xstrdup("not supported by the target");
			ret = 0;
			continue;
		}
		if (ret < 0) {
			setup_failed(msg, ret);
			goto out;
		}
		if (strcmp(fp.buf, c->st->golden[in->drive])) {
			strbuf_reset(msg);
			strbuf_addf(msg, "%s/%s: the restored database differs from the golden copy (%s, expected %s)",
				    cfg->drives[in->drive].name, in->name, fp.buf, c->st->golden[in->drive]);
			log_error("%s", msg->buf);
			ret = -EIO;
			goto out;
		}
		strbuf_reset(msg);
		strbuf_addf(msg, "verified: %s", fp.buf);
		free(sr->restore_check);
		sr->restore_check = strbuf_detach(msg);
		log_info("%s/%s: restore verified (%s)", cfg->drives[in->drive].name, in->name, fp.buf);
	}
out:
	strbuf_release(&fp);
	return ret;
}

/* The result folders of the run's drivers; <0 with msg set. */
static int make_result_dirs(const struct plan_run *r, struct run_driver *dv, struct strbuf *msg)
{
	struct strbuf dir;
	int ret = 0;

	strbuf_init(&dir, 0);
	for (size_t i = 0; i < r->ninsts && ret == 0; i++) {
		strbuf_reset(&dir);
		strbuf_adds(&dir, dv[i].base.buf);
		*strrchr(dir.buf, '/') = '\0';
		if ((ret = mkdir_p(dir.buf, 0755)) < 0) {
			log_error("cannot create %s: %s", dir.buf, strerror(-ret));
			setup_failed(msg, ret);
		}
	}
	strbuf_release(&dir);
	return ret;
}

/*
 * All drivers start together: endpoints first, then the forks back to back;
 * the run is "running" in the state from here. <0 when one could not start
 * (those already started have been sent SIGTERM).
 */
static int spawn_drivers(struct campaign_ctx *c, const struct plan_run *r, struct state_run *sr,
			 struct run_driver *dv)
{
	const struct campaign_config *cfg = c->cfg;
	int ret = 0;

	sr->status = STATE_RUN_RUNNING;
	sr->attempts++;
	clock_utc_iso8601(sr->started_at, sizeof(sr->started_at));
	sr->finished_at[0] = '\0';
	set_error(sr, NULL);
	sr->pids = xcalloc(r->ninsts, sizeof(pid_t));
	sr->npids = 0;
	struct target_endpoint *eps = xcalloc(r->ninsts, sizeof(*eps));
	for (size_t i = 0; i < r->ninsts && ret == 0; i++)
		ret = c->steps.tgt.ops->endpoint(&c->steps.tgt, &c->plan->insts[r->insts[i]], &eps[i]);
	for (size_t i = 0; i < r->ninsts && ret == 0; i++) {
		const struct target_instance *in = &c->plan->insts[r->insts[i]];
		struct driver_run_id id = {
			.group = cfg->groups[r->group].name,
			.drive = cfg->drives[in->drive].name,
			.instance = in->name,
			.vm_count = cfg->groups[r->group].instances,
			.repetition = r->rep,
			.threads = cfg->groups[r->group].threads,
			.run_id = c->st->run_id,
			.run_started = c->st->run_started,
			.golden = c->st->golden[in->drive],
		};
		struct driver_cmd dc;
		driver_cmd_init(&dc);
		driver_cmd_run(&dc, cfg, c->steps.exe, &eps[i], &id, dv[i].base.buf);
		struct proc_spec spec = {.argv = dc.argv, .env = dc.env, .log_path = run_driver_file(&dv[i], ".log"),
					 .new_group = true};
		ret = proc_spawn(&spec, &dv[i].pid);
		driver_cmd_release(&dc);
		if (ret == 0)
			sr->pids[sr->npids++] = dv[i].pid;
	}
	free(eps);
	if (state_save(cfg, c->plan, c->st) < 0 && ret == 0)
		ret = -EIO;
	if (ret < 0)
		for (size_t i = 0; i < r->ninsts; i++)
			if (dv[i].pid > 0)
				kill(dv[i].pid, SIGTERM);
	return ret;
}

/*
 * Until every driver exited: a driver that fails stops the others (SIGTERM,
 * then SIGKILL after the grace period), so does a signal or the run's time
 * plus 5 minutes. `ret` is the spawn's outcome (<0: the drivers were already
 * told to stop); returns the run's.
 */
static int watch_drivers(struct campaign_ctx *c, const struct plan_run *r, size_t ri, struct run_driver *dv,
			 int ret, struct strbuf *msg)
{
	const struct campaign_config *cfg = c->cfg;
	unsigned printed = 0, lines = 0;
	bool stopping = ret < 0;
	uint64_t t0 = clock_now_ns();
	uint64_t deadline = t0 + cfg->precondition_ns + cfg->sample_ns + cfg->report_interval_ns + 300 * NS_PER_SEC;

	for (;;) {
		size_t running = 0;
		for (size_t i = 0; i < r->ninsts; i++) {
			if (dv[i].pid <= 0 || dv[i].done)
				continue;
			if (proc_wait(dv[i].pid, 1, &dv[i].status) == 0) {
				dv[i].done = true;
				if (!(WIFEXITED(dv[i].status) && WEXITSTATUS(dv[i].status) == 0) && !stopping) {
					const struct target_instance *in = &c->plan->insts[r->insts[i]];
					strbuf_reset(msg);
					strbuf_addf(msg, "the driver of %s/%s ", cfg->drives[in->drive].name, in->name);
					proc_describe_status(dv[i].status, msg);
					strbuf_addf(msg, " (see %s)", run_driver_file(&dv[i], ".log"));
					proc_add_log_tail(dv[i].path.buf, msg);
					log_error("%s; stopping the other drivers of this run", msg->buf);
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
		if (!stopping && (*c->stop_signal || ret < 0 || now > deadline)) {
			if (now > deadline && !*c->stop_signal && ret == 0) {
				strbuf_reset(msg);
				strbuf_adds(msg, "the drivers did not finish within the run's time plus 5 minutes");
				log_error("%s; stopping them", msg->buf);
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
		progress_show(c, r, ri, dv, r->ninsts, t0, &printed, &lines);
		struct timespec ts = {0, 250 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	progress_show(c, r, ri, dv, r->ninsts, t0, &printed, &lines);
	return ret;
}

/* Every instance must have left a complete result; -EIO with msg set otherwise. */
static int collect_results(const struct plan_run *r, struct run_driver *dv, struct strbuf *msg)
{
	for (size_t i = 0; i < r->ninsts; i++) {
		struct result_summary rs;
		const char *res = run_driver_file(&dv[i], ".json");
		int rr = result_read_summary(res, &rs);
		/* A degraded run is kept and the campaign goes on: the report leaves it out of the figures. */
		if (rr == 0 && !strcmp(rs.status, "degraded")) {
			log_warn("%s: degraded (a connection was lost for part of the sample); the report leaves this "
				 "repetition out of its figures", res);
			continue;
		}
		if (rr < 0 || strcmp(rs.status, "complete")) {
			strbuf_reset(msg);
			strbuf_addf(msg, "%s: %s", res, rr == -ENOENT ? "missing" : rr < 0 ? "unreadable" : rs.status);
			log_error("%s (expected a complete result)", msg->buf);
			return -EIO;
		}
	}
	return 0;
}

int run_one(struct campaign_ctx *c, size_t ri)
{
	const struct campaign_config *cfg = c->cfg;
	const struct plan_run *r = &c->plan->runs[ri];
	struct state_run *sr = &c->st->runs[ri];
	struct run_driver *dv = xcalloc(r->ninsts, sizeof(*dv));
	struct runtel *rt = NULL;
	struct strbuf msg;
	int ret = 0;

	strbuf_init(&msg, 0);
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
	reap_stale_drivers(c, r, sr);
	for (size_t i = 0; i < r->ninsts; i++)
		if ((ret = keep_partial(dv[i].base.buf, sr->attempts)) < 0)
			goto out;
	if ((ret = stop_other_groups(c, r)) < 0)
		goto out;
	if ((ret = restore_instances(c, r, sr, &msg)) < 0)
		goto fail;
	if (*c->stop_signal) {
		ret = -EINTR;
		goto out;
	}
	if ((ret = make_result_dirs(r, dv, &msg)) < 0)
		goto fail;
	/* The sampler runs from before the drivers start until they all exited. */
	rt = runtel_start(c, r);
	ret = watch_drivers(c, r, ri, dv, spawn_drivers(c, r, sr, dv), &msg);
	if (*c->stop_signal && ret == 0) {
		ret = -EINTR;
		goto out;
	}
	if (ret < 0 || (ret = collect_results(r, dv, &msg)) < 0)
		goto fail;
	ret = runtel_finish(rt, dv, &msg);
	rt = NULL;
	if (ret < 0)
		goto fail;
	sr->status = STATE_RUN_DONE;
	free(sr->pids);
	sr->pids = NULL;
	sr->npids = 0;
	clock_utc_iso8601(sr->finished_at, sizeof(sr->finished_at));
	if (steps_stop(&c->steps, r->insts, r->ninsts) < 0)
		log_warn("a server did not shut down cleanly after run %s; the next restore replaces its data anyway", r->id);
	ret = state_save(cfg, c->plan, c->st);
	goto out;
fail:
	sr->status = STATE_RUN_FAILED;
	set_error(sr, msg.buf);
	if (state_save(cfg, c->plan, c->st) < 0) {
		/* already reported */
	}
	if (ret == 0 || ret == -EINTR)
		ret = -EIO;
out:
	runtel_abort(rt);
	for (size_t i = 0; i < r->ninsts; i++) {
		strbuf_release(&dv[i].base);
		strbuf_release(&dv[i].path);
		journal_tail_release(&dv[i].jt);
	}
	free(dv);
	strbuf_release(&msg);
	return ret;
}
