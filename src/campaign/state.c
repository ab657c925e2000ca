/* state.json: the one place the campaign's progress is kept (jansson stays here). */
#include "campaign/state.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STATE_SCHEMA "dbrig.campaign-state/1"

const char *state_status_name(enum state_run_status st)
{
	switch (st) {
	case STATE_RUN_PENDING:
		return "pending";
	case STATE_RUN_RUNNING:
		return "running";
	case STATE_RUN_DONE:
		return "done";
	case STATE_RUN_FAILED:
		return "failed";
	}
	return "?";
}

struct campaign_state *state_new(const struct campaign_config *cfg, const struct plan *p, const char *path)
{
	struct campaign_state *s = xcalloc(1, sizeof(*s));

	s->path = xstrdup(path);
	s->nruns = p->nruns;
	s->runs = xcalloc(p->nruns, sizeof(*s->runs));
	s->ndrives = cfg->ndrives;
	s->golden = xcalloc(cfg->ndrives, sizeof(*s->golden));
	return s;
}

void state_free(struct campaign_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nruns; i++) {
		free(s->runs[i].pids);
		free(s->runs[i].restore_check);
		free(s->runs[i].error);
	}
	free(s->runs);
	for (size_t d = 0; d < s->ndrives; d++)
		free(s->golden[d]);
	free(s->golden);
	free(s->path);
	free(s);
}

static int bad(const char *path, const char *what)
{
	log_error("%s: %s (expected a state file written by this campaign; move the folder away to start afresh)", path,
		  what);
	return -EINVAL;
}

static void copy_str(char *dst, size_t n, json_t *v)
{
	snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
}

int state_load(const struct campaign_config *cfg, const struct plan *p, const char *path, struct campaign_state **out)
{
	struct campaign_state *s = NULL;
	json_error_t jerr;
	json_t *root = NULL, *runs, *golden;
	int ret;

	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (access(path, F_OK) < 0)
			return -ENOENT;
		log_error("%s: line %d: %s (expected the campaign's JSON state file)", path, jerr.line, jerr.text);
		return -EINVAL;
	}
	ret = -EINVAL;
	if (!json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), STATE_SCHEMA)) {
		ret = bad(path, ".schema is not \"" STATE_SCHEMA "\"");
		goto out;
	}
	if (!json_is_string(json_object_get(root, "campaign")) ||
	    strcmp(json_string_value(json_object_get(root, "campaign")), cfg->name)) {
		ret = bad(path, ".campaign names another campaign");
		goto out;
	}
	runs = json_object_get(root, "runs");
	if (!json_is_array(runs) || json_array_size(runs) != p->nruns) {
		ret = bad(path, ".runs does not match the config's run groups and repetitions");
		goto out;
	}
	s = state_new(cfg, p, path);
	for (size_t i = 0; i < p->nruns; i++) {
		json_t *r = json_array_get(runs, i), *pids;
		const char *st = json_string_value(json_object_get(r, "status"));
		bool ok = false;

		if (!json_is_string(json_object_get(r, "id")) || strcmp(json_string_value(json_object_get(r, "id")), p->runs[i].id)) {
			ret = bad(path, ".runs does not match the config's run groups and repetitions");
			goto out;
		}
		for (int k = STATE_RUN_PENDING; k <= STATE_RUN_FAILED && st; k++) {
			if (!strcmp(st, state_status_name((enum state_run_status)k))) {
				s->runs[i].status = (enum state_run_status)k;
				ok = true;
			}
		}
		if (!ok) {
			ret = bad(path, ".runs[].status is not pending, running, done or failed");
			goto out;
		}
		json_t *att = json_object_get(r, "attempts");
		s->runs[i].attempts = json_is_integer(att) && json_integer_value(att) >= 0 ? (unsigned)json_integer_value(att) : 0;
		copy_str(s->runs[i].started_at, sizeof(s->runs[i].started_at), json_object_get(r, "started_at"));
		copy_str(s->runs[i].finished_at, sizeof(s->runs[i].finished_at), json_object_get(r, "finished_at"));
		if (json_is_string(json_object_get(r, "restore_check")))
			s->runs[i].restore_check = xstrdup(json_string_value(json_object_get(r, "restore_check")));
		if (json_is_string(json_object_get(r, "error")))
			s->runs[i].error = xstrdup(json_string_value(json_object_get(r, "error")));
		pids = json_object_get(r, "driver_pids");
		if (json_is_array(pids) && json_array_size(pids)) {
			s->runs[i].pids = xcalloc(json_array_size(pids), sizeof(pid_t));
			for (size_t k = 0; k < json_array_size(pids); k++)
				if (json_is_integer(json_array_get(pids, k)))
					s->runs[i].pids[s->runs[i].npids++] = (pid_t)json_integer_value(json_array_get(pids, k));
		}
	}
	golden = json_object_get(root, "golden");
	for (size_t d = 0; d < cfg->ndrives; d++) {
		json_t *g = json_object_get(golden, cfg->drives[d].name);
		if (json_is_string(g))
			s->golden[d] = xstrdup(json_string_value(g));
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	state_free(s);
	json_decref(root);
	return ret;
}

int state_save(const struct campaign_config *cfg, const struct plan *p, const struct campaign_state *s)
{
	json_t *root = json_object(), *runs = json_array(), *golden = json_object();
	char *text = NULL;
	int ret;

	json_object_set_new(root, "schema", json_string(STATE_SCHEMA));
	json_object_set_new(root, "campaign", json_string(cfg->name));
	json_object_set_new(root, "config", json_string(cfg->file));
	for (size_t d = 0; d < cfg->ndrives; d++)
		if (s->golden[d])
			json_object_set_new(golden, cfg->drives[d].name, json_string(s->golden[d]));
	json_object_set_new(root, "golden", golden);
	for (size_t i = 0; i < p->nruns; i++) {
		const struct state_run *r = &s->runs[i];
		json_t *o = json_object(), *pids = json_array();

		json_object_set_new(o, "id", json_string(p->runs[i].id));
		json_object_set_new(o, "run_group", json_string(cfg->groups[p->runs[i].group].name));
		json_object_set_new(o, "repetition", json_integer(p->runs[i].rep));
		json_object_set_new(o, "status", json_string(state_status_name(r->status)));
		json_object_set_new(o, "attempts", json_integer(r->attempts));
		json_object_set_new(o, "started_at", json_string(r->started_at));
		json_object_set_new(o, "finished_at", json_string(r->finished_at));
		for (size_t k = 0; k < r->npids; k++)
			json_array_append_new(pids, json_integer(r->pids[k]));
		json_object_set_new(o, "driver_pids", pids);
		json_object_set_new(o, "restore_check", r->restore_check ? json_string(r->restore_check) : json_null());
		json_object_set_new(o, "error", r->error ? json_string(r->error) : json_null());
		json_array_append_new(runs, o);
	}
	json_object_set_new(root, "runs", runs);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	ret = text ? atomic_write_file(s->path, text, strlen(text)) : -ENOMEM;
	if (ret < 0)
		log_error("%s: cannot write the campaign state: %s", s->path, strerror(-ret));
	free(text);
	json_decref(root);
	return ret;
}
