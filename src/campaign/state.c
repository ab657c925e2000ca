/* state.json: the one place the campaign's progress is kept (jansson stays here). */
#include "campaign/state.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
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
	state_new_run_id(s);
	return s;
}

void state_new_run_id(struct campaign_state *s)
{
	unsigned char raw[3] = {0};
	time_t now = time(NULL);
	struct tm tm;
	char t[24];

	clock_utc_iso8601(s->run_started, sizeof(s->run_started));
	gmtime_r(&now, &tm);
	strftime(t, sizeof(t), "%Y%m%dT%H%M%SZ", &tm);
	/* Two runs started in one second still differ (getrandom failing leaves the pid). */
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		raw[0] = (unsigned char)getpid();
		raw[1] = (unsigned char)(getpid() >> 8);
	}
	snprintf(s->run_id, sizeof(s->run_id), "%s-%02x%02x%02x", t, raw[0], raw[1], raw[2]);
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

/* "<file>: <path>: <what>; …": the campaign's state is not what this config expects. */
static int state_mismatch(struct jsonr *jr, const char *path, const char *what)
{
	return jsonr_failf(jr, path,
			   "%s (expected the state of this campaign; --fresh starts again, keeping this folder under "
			   "another name)", what);
}

static void copy_str(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", v ? v : "");
}

static void read_run(struct jsonr *jr, json_t *r, const char *path, struct state_run *sr)
{
	const char *st = jsonr_str(jr, r, path, "status", JSONR_REQUIRED, NULL);
	json_t *pids;
	bool ok = false;

	for (int k = STATE_RUN_PENDING; k <= STATE_RUN_FAILED && st; k++) {
		if (!strcmp(st, state_status_name((enum state_run_status)k))) {
			sr->status = (enum state_run_status)k;
			ok = true;
		}
	}
	if (st && !ok)
		jsonr_fail(jr, path, "status", json_object_get(r, "status"), "pending, running, done or failed");
	sr->attempts = (unsigned)jsonr_int(jr, r, path, "attempts", JSONR_OPTIONAL, 0, 0);
	copy_str(sr->started_at, sizeof(sr->started_at), jsonr_str(jr, r, path, "started_at", JSONR_OPTIONAL, ""));
	copy_str(sr->finished_at, sizeof(sr->finished_at), jsonr_str(jr, r, path, "finished_at", JSONR_OPTIONAL, ""));
	st = jsonr_str(jr, r, path, "restore_check", JSONR_NULLABLE, NULL);
	sr->restore_check = st ? xstrdup(st) : NULL;
	st = jsonr_str(jr, r, path, "error", JSONR_NULLABLE, NULL);
	sr->error = st ? xstrdup(st) : NULL;
	pids = jsonr_arr(jr, r, path, "driver_pids", JSONR_OPTIONAL);
	if (pids && json_array_size(pids)) {
		char pp[160];
		sr->pids = xcalloc(json_array_size(pids), sizeof(pid_t));
		for (size_t k = 0; k < json_array_size(pids); k++) {
			json_t *v = json_array_get(pids, k);
			if (!json_is_integer(v) || json_integer_value(v) <= 0) {
				snprintf(pp, sizeof(pp), "%s.driver_pids[%zu]", path, k);
				jsonr_fail(jr, pp, NULL, v, "a process id");
				break;
			}
			sr->pids[sr->npids++] = (pid_t)json_integer_value(v);
		}
	}
}

/* Parses the state file into *root: -ENOENT when there is none, -EINVAL (logged) when unreadable or not JSON. */
static int state_read_json(const char *path, json_t **root)
{
	json_error_t jerr;

	/* read_file: a FIFO is never waited on, a device never read, the size bounded. */
	char *text = NULL;
	size_t tlen = 0;
	int rf = read_file(path, &text, &tlen);
	if (rf == -ENOENT)
		return -ENOENT;
	if (rf < 0) {
		log_error("%s: cannot read: %s (expected the campaign's JSON state file)", path, read_file_strerror(rf));
		return -EINVAL;
	}
	*root = json_loadb(text, tlen, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!*root) {
		struct strbuf why;
		strbuf_init(&why, 0);
		strbuf_add_oneline(&why, jerr.text);
		log_error("%s: line %d: %s (expected the campaign's JSON state file)", path, jerr.line, why.buf);
		strbuf_release(&why);
		return -EINVAL;
	}
	return 0;
}

/* Compares the state's measured fields with the campaign file's: -ESTALE (logged) when they changed, else 0. */
static int measured_check(const struct campaign_config *cfg, json_t *measured, const char *path)
{
	struct strbuf changed;
	strbuf_init(&changed, 0);
	for (size_t i = 0; i < CAMPAIGN_MEASURED_FIELDS; i++) {
		json_t *d = json_object_get(measured, campaign_measured_fields[i]);
		/* A field the state did not record (an older dbrig) is not judged. */
		if (d && (!json_is_string(d) || strcmp(json_string_value(d), cfg->measured[i])))
			strbuf_addf(&changed, "%s%s", changed.len ? ", " : "", campaign_measured_fields[i]);
	}
	if (changed.len) {
		log_error("%s: the campaign file changed what is measured since these runs: %s (expected the same "
			  "settings to resume; --fresh starts again, keeping these results under another name)",
			  path, changed.buf);
		strbuf_release(&changed);
		return -ESTALE;
	}
	strbuf_release(&changed);
	return 0;
}

int state_load(const struct campaign_config *cfg, const struct plan *p, const char *path, struct campaign_state **out)
{
	struct campaign_state *s = NULL;
	struct jsonr jr = {.file = path};
	json_t *root = NULL, *runs, *golden, *measured;
	const char *v;
	char rp[64];
	int rf = state_read_json(path, &root);

	if (rf)
		return rf;
	if (!json_is_object(root)) {
		jsonr_fail(&jr, "", NULL, root, "the campaign's state object");
		goto out;
	}
	v = jsonr_str(&jr, root, "", "schema", JSONR_REQUIRED, NULL);
	if (v && strcmp(v, STATE_SCHEMA)) {
		jsonr_fail(&jr, "", "schema", json_object_get(root, "schema"), "\"" STATE_SCHEMA "\"");
		goto out;
	}
	v = jsonr_str(&jr, root, "", "campaign", JSONR_REQUIRED, NULL);
	if (v && strcmp(v, cfg->name)) {
		state_mismatch(&jr, ".campaign", "names another campaign");
		goto out;
	}
	/* What is measured must be what these runs measured (a state from before it was recorded: not checked). */
	if ((measured = jsonr_obj(&jr, root, "", "measured", JSONR_OPTIONAL)) && measured_check(cfg, measured, path)) {
		json_decref(root);
		return -ESTALE;
	}
	runs = jsonr_arr(&jr, root, "", "runs", JSONR_REQUIRED);
	if (runs && json_array_size(runs) != p->nruns) {
		state_mismatch(&jr, ".runs", "does not match the config's run groups and repetitions");
		goto out;
	}
	if (jr.failed)
		goto out;
	s = state_new(cfg, p, path);
	for (size_t i = 0; i < p->nruns && !jr.failed; i++) {
		json_t *r = json_array_get(runs, i);
		snprintf(rp, sizeof(rp), ".runs[%zu]", i);
		if (!json_is_object(r)) {
			jsonr_fail(&jr, rp, NULL, r, "an object");
			break;
		}
		v = jsonr_str(&jr, r, rp, "id", JSONR_REQUIRED, NULL);
		if (v && strcmp(v, p->runs[i].id)) {
			state_mismatch(&jr, rp, "does not match the config's run groups and repetitions");
			break;
		}
		read_run(&jr, r, rp, &s->runs[i]);
	}
	/* A state written before runs had an identity keeps the new one state_new made. */
	v = jsonr_str(&jr, root, "", "run_id", JSONR_OPTIONAL, NULL);
	if (v && *v) {
		copy_str(s->run_id, sizeof(s->run_id), v);
		copy_str(s->run_started, sizeof(s->run_started), jsonr_str(&jr, root, "", "run_started", JSONR_OPTIONAL, ""));
	}
	golden = jsonr_obj(&jr, root, "", "golden", JSONR_OPTIONAL);
	for (size_t d = 0; d < cfg->ndrives && golden; d++) {
		v = jsonr_str(&jr, golden, ".golden", cfg->drives[d].name, JSONR_OPTIONAL, NULL);
		s->golden[d] = v ? xstrdup(v) : NULL;
	}
	if (jr.failed)
		goto out;
	*out = s;
	s = NULL;
out:
	state_free(s);
	json_decref(root);
	return jr.failed ? -EINVAL : 0;
}

int state_save(const struct campaign_config *cfg, const struct plan *p, const struct campaign_state *s)
{
	json_t *root = json_object(), *runs = json_array(), *golden = json_object();
	char *text = NULL;
	int ret;

	json_object_set_new(root, "schema", json_string(STATE_SCHEMA));
	json_object_set_new(root, "campaign", json_string(cfg->name));
	json_object_set_new(root, "config", json_string(cfg->file));
	json_object_set_new(root, "run_id", json_string(s->run_id));
	json_object_set_new(root, "run_started", json_string(s->run_started));
	json_t *m = json_object();
	for (size_t i = 0; i < CAMPAIGN_MEASURED_FIELDS; i++)
		json_object_set_new(m, campaign_measured_fields[i], json_string(cfg->measured[i]));
	json_object_set_new(root, "measured", m);
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
