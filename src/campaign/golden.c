#include "campaign/golden.h"

#include "campaign/driver.h"
#include "campaign/run.h"
#include "campaign/state.h"
#include "core/clock.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>

/*
 * Options that only steer the transactions a driver runs, never what prepare
 * loads: they stay out of the identity, so tuning them keeps the golden copy.
 * Every other option is in it (an unknown one may shape the data: a copy is
 * loaded again rather than reused wrongly).
 */
static const char *const run_only[] = {
	"point-selects", "simple-ranges", "sum-ranges", "order-ranges", "distinct-ranges", "range-size",
	"index-updates", "non-index-updates", "delete-inserts", "skip-trx", "range-selects", "reconnect",
	"rand-type", "rand-spec-iter", "rand-spec-pct", "rand-spec-res", "rand-zipfian-exp", "rand-pareto-h",
	"terminals", NULL,
};

static bool in_identity(const struct campaign_config *cfg, const char *key)
{
	for (const char *const *k = cfg->workload->golden_keys; k && *k; k++)
		if (!strcmp(key, *k))
			return false; /* already named first */
	for (size_t i = 0; run_only[i]; i++)
		if (!strcmp(key, run_only[i]))
			return false;
	return true;
}

static int kv_cmp(const void *a, const void *b)
{
	const struct target_kv *x = *(const struct target_kv *const *)a, *y = *(const struct target_kv *const *)b;

	return strcmp(x->key, y->key);
}

/* The scale first (as in earlier versions), then every option that shapes the data, sorted by key. */
static void golden_identity(void *arg, struct strbuf *out)
{
	const struct golden *g = arg;
	const struct campaign_config *cfg = g->cfg;
	const struct target_kv **kv = xcalloc(cfg->nwl_options + 1, sizeof(*kv));
	size_t n = 0;

	strbuf_adds(out, cfg->workload->name);
	if (cfg->workload->golden_names_test)
		strbuf_addf(out, " %s", cfg->test);
	for (const char *const *k = cfg->workload->golden_keys; k && *k; k++) {
		strbuf_addc(out, ' ');
		for (const char *p = *k; *p; p++)
			strbuf_addc(out, *p == '-' ? '_' : *p);
		strbuf_addf(out, "=%" PRIu64, campaign_scale_value(cfg, *k));
	}
	for (size_t i = 0; i < cfg->nwl_options; i++)
		if (in_identity(cfg, cfg->wl_options[i].key))
			kv[n++] = &cfg->wl_options[i];
	qsort(kv, n, sizeof(*kv), kv_cmp);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, " %s=%s", kv[i]->key, kv[i]->value);
	free(kv);
}

static int golden_load(void *arg, const char *what, const struct target_endpoint *ep, const char *log)
{
	const struct golden *g = arg;
	const struct campaign_config *cfg = g->cfg;
	struct driver_cmd dc;
	struct strbuf why;
	int ret, st = 0;

	driver_cmd_init(&dc);
	strbuf_init(&why, 0);
	campaign_workload_text(cfg, cfg->workload->golden_load_text, &why);
	log_info("%s: loading %s", what, why.buf);
	strbuf_reset(&why);
	driver_cmd_prepare(&dc, cfg, g->exe, ep);
	struct proc_spec spec = {.argv = dc.argv, .env = dc.env, .log_path = log, .new_group = true};
	ret = proc_run(&spec, NULL, &st);
	if (ret < 0) {
		proc_describe_status(st, &why);
		if (log) {
			strbuf_addf(&why, " (see %s)", log);
			proc_add_log_tail(log, &why);
		}
		log_error("%s: dbrig %s prepare %s", what, cfg->workload->name, why.buf);
	}
	driver_cmd_release(&dc);
	strbuf_release(&why);
	return ret;
}

static int golden_fingerprint(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
			      struct strbuf *fp)
{
	const struct golden *g = arg;
	const struct campaign_config *cfg = g->cfg;
	struct driver_cmd dc;
	struct strbuf out, why;
	const char *line;
	int ret, st = 0;

	driver_cmd_init(&dc);
	strbuf_init(&out, 0);
	strbuf_init(&why, 0);
	driver_cmd_check(&dc, cfg, g->exe, ep);
	struct proc_spec spec = {.argv = dc.argv, .env = dc.env, .log_path = log, .capture = true, .new_group = true};
	ret = proc_run(&spec, &out, &st);
	if (ret < 0) {
		proc_describe_status(st, &why);
		log_error("%s: dbrig %s check %s (see %s): %.300s", what, cfg->workload->name, why.buf,
			  log ? log : "its output", out.buf);
		goto out;
	}
	line = strstr(out.buf, "fingerprint: ");
	if (!line) {
		log_error("%s: dbrig %s check printed no fingerprint: \"%.200s\"", what, cfg->workload->name, out.buf);
		ret = -EPROTO;
		goto out;
	}
	line += strlen("fingerprint: ");
	strbuf_add(fp, line, strcspn(line, "\n"));
out:
	driver_cmd_release(&dc);
	strbuf_release(&out);
	strbuf_release(&why);
	return ret;
}

static bool has_error(const char *p, size_t n)
{
	for (size_t i = 0; i + 5 <= n; i++)
		if (!strncasecmp(p + i, "error", 5))
			return true;
	return false;
}

/* The line of `text` that names the error (the driver's "error N: ..."), else its last non-empty line. */
static void error_line(const char *text, struct strbuf *why)
{
	const char *best = NULL, *last = NULL;
	size_t nbest = 0, nlast = 0;

	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (n) {
			last = p;
			nlast = n;
			if (!best && has_error(p, n)) {
				best = p;
				nbest = n;
			}
		}
		p += n + (p[n] == '\n');
	}
	if (!best) {
		best = last;
		nbest = nlast;
	}
	if (best)
		strbuf_addf(why, ": %.*s", (int)(nbest < 300 ? nbest : 300), best);
}

static int golden_ready(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
			struct strbuf *why)
{
	const struct golden *g = arg;
	const struct campaign_config *cfg = g->cfg;
	struct driver_cmd dc;
	struct strbuf out;
	int ret, st = 0;

	(void)what;
	driver_cmd_init(&dc);
	strbuf_init(&out, 0);
	driver_cmd_ping(&dc, cfg, g->exe, ep);
	struct proc_spec spec = {.argv = dc.argv, .env = dc.env, .log_path = log, .capture = true, .new_group = true};
	ret = proc_run(&spec, &out, &st);
	if (ret < 0) {
		/* The reason is the driver's (stdout: sysbench's FATAL lines; stderr, in the log: tpcc's). */
		strbuf_addf(why, "user %s cannot log into database %s yet", ep->user, ep->database);
		if (out.len)
			error_line(out.buf, why);
		else if (log)
			proc_add_log_tail(log, why);
		ret = -EAGAIN;
	}
	driver_cmd_release(&dc);
	strbuf_release(&out);
	return ret;
}

void golden_init(struct golden *g, const struct campaign_config *cfg, const char *exe)
{
	g->cfg = cfg;
	g->exe = exe;
	g->loader = (struct target_loader){
		.arg = g,
		.identity = golden_identity,
		.load = golden_load,
		.fingerprint = golden_fingerprint,
		.ready = golden_ready,
	};
}

/* The state records drive d's fingerprint (a rebuilt copy is said so). */
static int golden_record(struct campaign_ctx *c, size_t d, struct strbuf *fp)
{
	if (c->st->golden[d] && strcmp(c->st->golden[d], fp->buf))
		log_warn("%s: the golden copy was rebuilt (%s, earlier %s); finished runs used the earlier one",
			 c->cfg->drives[d].name, fp->buf, c->st->golden[d]);
	free(c->st->golden[d]);
	c->st->golden[d] = strbuf_detach(fp);
	return state_save(c->cfg, c->plan, c->st);
}

static int golden_build(struct campaign_ctx *c, size_t d)
{
	uint64_t t0 = clock_now_ns();
	struct strbuf fp;
	int ret;

	strbuf_init(&fp, 0);
	ret = c->steps.tgt.ops->build_golden(&c->steps.tgt, d, &fp);
	if (ret == 1)
		log_info("%s: golden copy reused: it holds this campaign's content (%s)", c->cfg->drives[d].name, fp.buf);
	else if (ret == 0)
		log_info("%s: golden copy built in %.1f s (%s)", c->cfg->drives[d].name,
			 (double)(clock_now_ns() - t0) / NS_PER_SEC, fp.buf);
	if (ret >= 0)
		ret = golden_record(c, d, &fp);
	strbuf_release(&fp);
	return ret;
}

/* Drive d's golden copy cloned from src's and verified by its fingerprint. */
static int golden_clone(struct campaign_ctx *c, size_t src, size_t d)
{
	const char *name = c->cfg->drives[d].name, *from = c->cfg->drives[src].name, *how = "clone";
	uint64_t t0 = clock_now_ns();
	struct strbuf fp;
	int ret;

	strbuf_init(&fp, 0);
	ret = c->steps.tgt.ops->clone_golden(&c->steps.tgt, src, d, c->st->golden[src], &fp, &how);
	if (ret == 0 && strcmp(fp.buf, c->st->golden[src])) {
		log_error("%s: the golden copy cloned from %s differs from it (%s, expected %s)", name, from, fp.buf,
			  c->st->golden[src]);
		ret = -EIO;
	}
	if (ret == 0) {
		log_info("%s: golden copy cloned from %s in %.1f s (%s; %s)", name, from,
			 (double)(clock_now_ns() - t0) / NS_PER_SEC, how, fp.buf);
		ret = golden_record(c, d, &fp);
	}
	strbuf_release(&fp);
	return ret;
}

int golden_build_all(struct campaign_ctx *c, const bool *need, const volatile sig_atomic_t *stop)
{
	long src = c->cfg->golden_source;
	bool any = false;
	int ret = 0;

	for (size_t d = 0; d < c->cfg->ndrives; d++)
		any = any || ((!need || need[d]) && c->cfg->drive_instances[d] > 0);
	if (src >= 0 && any && (ret = golden_build(c, (size_t)src)) < 0)
		return ret;
	for (size_t d = 0; d < c->cfg->ndrives && !*stop && ret == 0; d++) {
		if ((need && !need[d]) || c->cfg->drive_instances[d] == 0 || (long)d == src)
			continue;
		ret = src >= 0 ? golden_clone(c, (size_t)src, d) : golden_build(c, d);
	}
	return ret;
}
