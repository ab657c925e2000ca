/* Unit tests of campaign/state.c: state.json written and read back, and refused when it is not this campaign's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "campaign/state.h"
#include "core/fileio.h"
#include "core/strbuf.h"

static struct campaign_config *load(const char *rel)
{
	struct campaign_config *cfg = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	assert_int_equal(campaign_config_load(path, &cfg), 0);
	return cfg;
}

/* Replace the first `from` in the file by `to`. */
static void edit(const char *path, const char *from, const char *to)
{
	char *text = NULL;
	struct strbuf sb;
	char *p;

	assert_int_equal(read_file(path, &text, NULL), 0);
	p = strstr(text, from);
	assert_non_null(p);
	strbuf_init(&sb, 0);
	strbuf_add(&sb, text, (size_t)(p - text));
	strbuf_adds(&sb, to);
	strbuf_adds(&sb, p + strlen(from));
	assert_int_equal(atomic_write_file(path, sb.buf, sb.len), 0);
	strbuf_release(&sb);
	free(text);
}

static void test_round_trip_and_refusals(void **state)
{
	char dir[] = "/tmp/dbrig-test-state.XXXXXX", path[256], good[256];
	struct campaign_config *cfg;
	struct campaign_state *s, *back = NULL;
	struct plan *p;
	char *text = NULL;

	(void)state;
	setenv("DBRIG_QUICK_DIR", "/nonexistent-dbrig-test", 1);
	cfg = load("configs/local-quick.json");
	p = plan_make(cfg);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	snprintf(good, sizeof(good), "%s/good.json", dir);
	assert_int_equal(state_load(cfg, p, path, &back), -ENOENT);

	s = state_new(cfg, p, path);
	s->runs[1].status = STATE_RUN_DONE;
	s->runs[1].attempts = 2;
	s->runs[2].status = STATE_RUN_RUNNING;
	s->runs[2].pids = calloc(1, sizeof(pid_t));
	s->runs[2].pids[0] = 4242;
	s->runs[2].npids = 1;
	s->runs[0].error = strdup("boom");
	s->golden[1] = strdup("tables=2 rows=20000");
	assert_int_equal(state_save(cfg, p, s), 0);
	assert_int_equal(state_load(cfg, p, path, &back), 0);
	assert_int_equal(back->runs[1].status, STATE_RUN_DONE);
	assert_int_equal(back->runs[1].attempts, 2);
	assert_int_equal(back->runs[2].status, STATE_RUN_RUNNING);
	assert_int_equal(back->runs[2].npids, 1);
	assert_int_equal(back->runs[2].pids[0], 4242);
	assert_string_equal(back->runs[0].error, "boom");
	assert_null(back->golden[0]);
	assert_string_equal(back->golden[1], "tables=2 rows=20000");
	/* The run's identity survives a resume: "<UTC start>-<6 hex>" and its ISO 8601 start. */
	assert_int_equal(strlen(s->run_id), 23);
	assert_int_equal(s->run_id[15], 'Z');
	assert_string_equal(back->run_id, s->run_id);
	assert_string_equal(back->run_started, s->run_started);
	state_free(back);
	back = NULL;
	assert_int_equal(read_file(path, &text, NULL), 0);
	assert_int_equal(atomic_write_file(good, text, strlen(text)), 0);

	/* Each edit makes a state this campaign must not resume from. */
	static const char *const bad[][2] = {
		{"\"pending\"", "\"paused\""},
		{"\"dbrig.campaign-state/1\"", "\"dbrig.campaign-state/2\""},
		{"\"campaign\": \"local-quick\"", "\"campaign\": \"other\""},
		{"\"attempts\": 2", "\"attempts\": -1"},
		{"4242", "\"x\""},
		{"\"1-instance-1-drive@drive-a#1\"", "\"1-instance-1-drive@drive-a#9\""},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(atomic_write_file(path, text, strlen(text)), 0);
		edit(path, bad[i][0], bad[i][1]);
		assert_int_equal(state_load(cfg, p, path, &back), -EINVAL);
		assert_null(back);
	}
	free(text);
	unlink(path);
	unlink(good);
	rmdir(dir);
	state_free(s);
	plan_free(p);
	campaign_config_free(cfg);
}

/*
 * The digest of what is measured: a config edited in threads and sample
 * refuses the state (-ESTALE) naming those fields; one edited in its
 * description only resumes it.
 */
static void test_measured_digest(void **state)
{
	char dir[] = "/tmp/dbrig-test-state.XXXXXX", path[256], cfile[256], src[4096];
	struct campaign_config *cfg, *edited = NULL;
	struct campaign_state *s, *back = NULL;
	struct plan *p;
	char *text = NULL;
	static const char *const edits[][2] = {
		{"\"description\": \"", "\"description\": \"changed words. "},
		{"\"threads\": 4", "\"threads\": 8"},
		{"\"sample\": \"30s\"", "\"sample\": \"31s\""},
	};
	static const int want[] = {0, -ESTALE, -ESTALE};

	(void)state;
	setenv("DBRIG_QUICK_DIR", "/nonexistent-dbrig-test", 1);
	cfg = load("configs/local-quick.json");
	p = plan_make(cfg);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state.json", dir);
	snprintf(cfile, sizeof(cfile), "%s/local-quick.json", dir);
	snprintf(src, sizeof(src), "%s/configs/local-quick.json",
		 getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR);
	s = state_new(cfg, p, path);
	assert_int_equal(state_save(cfg, p, s), 0);
	assert_int_equal(read_file(src, &text, NULL), 0);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		assert_int_equal(atomic_write_file(cfile, text, strlen(text)), 0);
		edit(cfile, edits[i][0], edits[i][1]);
		assert_int_equal(campaign_config_load(cfile, &edited), 0);
		assert_int_equal(state_load(edited, p, path, &back), want[i]);
		state_free(back);
		back = NULL;
		campaign_config_free(edited);
		edited = NULL;
	}
	free(text);
	unlink(cfile);
	unlink(path);
	rmdir(dir);
	state_free(s);
	plan_free(p);
	campaign_config_free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_and_refusals),
		cmocka_unit_test(test_measured_digest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
