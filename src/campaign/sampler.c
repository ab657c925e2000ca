#include "campaign/sampler.h"

#include "core/clock.h"
#include "core/strbuf.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sampler {
	struct sampler_spec spec;
	struct tel_series series;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	uint64_t start_ns;
};

static void take_reading(struct sampler *sm)
{
	const struct sampler_spec *sp = &sm->spec;
	struct tel_reading *r = tel_series_add(&sm->series, clock_now_ns());

	r->has_cpu = sysstat_cpu_read(sp->stat ? sp->stat : "/proc/stat", &r->cpu) == 0;
	if (r->has_cpu && !sm->series.host_cpus)
		sm->series.host_cpus = r->cpu.ncpu;
	r->has_disks = sp->ndevs &&
		       sysstat_disk_read(sp->diskstats ? sp->diskstats : "/proc/diskstats", sp->devs, sp->ndevs,
					 r->disks) == 0;
	for (size_t i = 0; i < sp->npids; i++) {
		const struct tel_pid_src *src = &sm->series.pid_src[i];
		if (sysstat_pid_read(sp->pids[i], &r->pid_cpu_s[i]) < 0) {
			r->pid_cpu_s[i] = -1;
			continue;
		}
		if (src->delayacct == 1 && sysstat_pid_blkio_read(sp->pids[i], &r->pid_io[i].blkio_s) < 0)
			r->pid_io[i].blkio_s = -1;
		if (src->psi_scope >= 0 &&
		    sysstat_psi_read(src->psi_path, &r->pid_io[i].psi_some_s, &r->pid_io[i].psi_full_s) < 0)
			r->pid_io[i].psi_some_s = r->pid_io[i].psi_full_s = -1;
	}
	if (sp->guests.n && sp->guests.read(sp->guests.arg, r->guests, sp->guests.n) < 0)
		memset(r->guests, 0, sp->guests.n * sizeof(*r->guests));
	for (size_t i = 0; i < sp->nodes.n; i++)
		if (sp->nodes.read(sp->nodes.arg, i, &r->nodes[i]) < 0)
			memset(&r->nodes[i], 0, sizeof(r->nodes[i]));
	if (sp->on_reading)
		sp->on_reading(sp->arg, &sm->series, sm->series.n - 1);
}

static void *sampler_main(void *arg)
{
	struct sampler *sm = arg;
	uint64_t next = sm->start_ns;

	pthread_mutex_lock(&sm->mu);
	for (;;) {
		uint64_t now;

		next += sm->spec.interval_ns;
		/* Absolute deadlines: a late reading does not push the later ones. */
		while (!sm->stop && (now = clock_now_ns()) < next) {
			struct timespec ts = {.tv_sec = (time_t)(next / NS_PER_SEC), .tv_nsec = (long)(next % NS_PER_SEC)};
			pthread_cond_timedwait(&sm->cv, &sm->mu, &ts);
		}
		if (sm->stop)
			break;
		pthread_mutex_unlock(&sm->mu);
		take_reading(sm);
		pthread_mutex_lock(&sm->mu);
		/* Readings that took longer than an interval skip the deadlines they missed. */
		now = clock_now_ns();
		while (next + sm->spec.interval_ns <= now)
			next += sm->spec.interval_ns;
	}
	pthread_mutex_unlock(&sm->mu);
	return NULL;
}

int sampler_start(struct sampler **out, const struct sampler_spec *spec)
{
	struct sampler *sm;
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	*out = NULL;
	if (!spec->interval_ns || (spec->guests.n && !spec->guests.read) || (spec->nodes.n && !spec->nodes.read))
		return -EINVAL;
	sm = xcalloc(1, sizeof(*sm));
	sm->spec = *spec;
	tel_series_init(&sm->series, spec->devs, spec->ndevs, spec->pids, spec->npids, spec->guests.n);
	tel_series_nodes(&sm->series, spec->nodes.n);
	/* Where each process's waiting is read, once: the kernel's setting and its cgroup. */
	for (size_t i = 0; i < spec->npids; i++) {
		struct tel_pid_src *src = &sm->series.pid_src[i];
		src->delayacct = sysstat_delayacct_on(spec->delayacct);
		src->psi_scope = sysstat_psi_locate("/proc", spec->pids[i], "/sys/fs/cgroup", "/proc/pressure/io",
						    src->psi_path, sizeof(src->psi_path));
		if (src->psi_scope < 0)
			src->psi_path[0] = '\0';
	}
	pthread_mutex_init(&sm->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sm->cv, &ca);
	pthread_condattr_destroy(&ca);
	sm->start_ns = clock_now_ns();
	take_reading(sm);
	/* The thread is born with every signal blocked: they stay the campaign's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&sm->thread, NULL, sampler_main, sm);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		tel_series_release(&sm->series);
		pthread_cond_destroy(&sm->cv);
		pthread_mutex_destroy(&sm->mu);
		free(sm);
		return -rc;
	}
	*out = sm;
	return 0;
}

void sampler_stop(struct sampler *sm, struct tel_series *out)
{
	if (!sm) {
		if (out)
			memset(out, 0, sizeof(*out));
		return;
	}
	pthread_mutex_lock(&sm->mu);
	sm->stop = true;
	pthread_cond_signal(&sm->cv);
	pthread_mutex_unlock(&sm->mu);
	pthread_join(sm->thread, NULL);
	take_reading(sm);
	if (out)
		*out = sm->series;
	else
		tel_series_release(&sm->series);
	pthread_cond_destroy(&sm->cv);
	pthread_mutex_destroy(&sm->mu);
	free(sm);
}
