#include "result/model.h"

#include "stats/hist.h"

#include <stdlib.h>

const char *run_status_name(enum result_run_status s)
{
	switch (s) {
	case RESULT_RUN_COMPLETE:
		return "complete";
	case RESULT_RUN_INTERRUPTED:
		return "interrupted";
	case RESULT_RUN_FAILED:
		return "failed";
	case RESULT_RUN_UNFINISHED:
		return "unfinished";
	case RESULT_RUN_NO_RESULT:
		return "no-result";
	case RESULT_RUN_DEGRADED:
		return "degraded";
	}
	return "?";
}

bool run_is_complete(const struct run *r)
{
	return r->status == RESULT_RUN_COMPLETE && r->sample.present && r->sample.complete;
}

void phase_stat_release(struct phase_stat *p)
{
	hist_close(p->hist);
	p->hist = NULL;
	for (size_t i = 0; i < p->ntypes; i++)
		free(p->types[i].name);
	free(p->types);
	p->types = NULL;
	p->ntypes = 0;
}

void tel_phase_release(struct tel_phase *t)
{
	for (size_t i = 0; i < t->ndevs; i++)
		free(t->devs[i].name);
	free(t->devs);
	t->devs = NULL;
	t->ndevs = 0;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	free(r->path);
	free(r->journal);
	free(r->error);
	free(r->golden_mismatch);
	free(r->campaign);
	free(r->run_group);
	free(r->run_id);
	free(r->run_started);
	free(r->storage);
	free(r->drive);
	free(r->instance);
	free(r->kind);
	free(r->test);
	free(r->params);
	free(r->engine);
	free(r->tool_version);
	free(r->drive_ids);
	free(r->started_at);
	free(r->finished_at);
	phase_stat_release(&r->pre);
	phase_stat_release(&r->sample);
	tel_phase_release(&r->tel_pre);
	tel_phase_release(&r->tel_sample);
	free(r->drive_stack);
	free(r->intervals);
	free(r);
}

void run_set_free(struct run_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		run_free(s->runs[i]);
	for (size_t i = 0; i < s->nsuperseded; i++)
		run_free(s->superseded[i]);
	free(s->runs);
	free(s->superseded);
	free(s);
}
