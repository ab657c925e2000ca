#include "campaign/driver.h"

#include "core/clock.h"
#include "db/engine.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

void driver_cmd_init(struct driver_cmd *dc)
{
	memset(dc, 0, sizeof(*dc));
	strbuf_init(&dc->args, 0);
	strvec_init(&dc->av);
	for (size_t i = 0; i < 3; i++)
		strbuf_init(&dc->vars[i], 0);
}

void driver_cmd_release(struct driver_cmd *dc)
{
	for (size_t i = 0; i < 3; i++) {
		if (dc->vars[i].buf)
			memset(dc->vars[i].buf, 0, dc->vars[i].len);
		strbuf_release(&dc->vars[i]);
	}
	strbuf_release(&dc->args);
	strvec_clear(&dc->av);
	dc->argv = NULL;
}

static void arg(struct driver_cmd *dc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(struct driver_cmd *dc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&dc->args, fmt, ap);
	va_end(ap);
	strbuf_addc(&dc->args, '\0');
}

/* argv[0] = this program, argv[1] = the workload's command, then the connection, then the caller's. */
static void begin(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		  const struct target_endpoint *ep)
{
	const struct db_engine *e = cfg->engine;
	size_t nv = 0;

	strbuf_reset(&dc->args);
	/* A driver_cmd may be reused: the previous command's entries go (wiped, they hold passwords). */
	for (size_t i = 0; i < 3; i++) {
		if (dc->vars[i].buf)
			memset(dc->vars[i].buf, 0, dc->vars[i].len);
		strbuf_reset(&dc->vars[i]);
	}
	arg(dc, "%s", exe);
	arg(dc, "%s", cfg->workload->name);
	arg(dc, "--db-driver=%s", e->db_driver);
	if (!e->odbc_connect) {
		if (ep->host) {
			arg(dc, "--mysql-host=%s", ep->host);
			arg(dc, "--mysql-port=%u", ep->port);
		} else {
			arg(dc, "--mysql-socket=%s", ep->socket);
		}
		arg(dc, "--mysql-user=%s", ep->user);
		arg(dc, "--mysql-db=%s", ep->database);
		if (ep->password)
			strbuf_addf(&dc->vars[nv++], "MYSQL_PWD=%s", ep->password);
	} else {
		strbuf_adds(&dc->args, "--odbc-connect=");
		e->odbc_connect(&dc->args, ep->odbc_driver ? ep->odbc_driver : e->odbc_driver,
				ep->host ? ep->host : "127.0.0.1", ep->port, ep->database, ep->user);
		/* Encrypt and TrustServerCertificate only as the target's settings say (hard-coded
		 * to yes, no server certificate would ever be checked);
		 * unset, the ODBC driver's defaults (Driver 18: encrypted, certificate verified). */
		if (ep->odbc_options)
			strbuf_addf(&dc->args, ";%s", ep->odbc_options);
		strbuf_addc(&dc->args, '\0');
		/* Without a password of its own, not one inherited from whoever started dbrig. */
		if (ep->password)
			strbuf_addf(&dc->vars[nv++], "ODBC_PWD=%s", ep->password);
		else
			strbuf_adds(&dc->vars[nv++], "ODBC_PWD");
		if (ep->odbc_sysini) {
			/* The registration of the campaign alone: no /etc/odbc*.ini, no ~/.odbc.ini. */
			strbuf_addf(&dc->vars[nv++], "ODBCSYSINI=%s", ep->odbc_sysini);
			strbuf_addf(&dc->vars[nv++], "ODBCINI=%s/odbc.ini", ep->odbc_sysini);
		}
	}
	for (size_t i = 0; i < nv; i++)
		dc->env[i] = dc->vars[i].buf;
	dc->env[nv] = NULL;
}

static void workload_options(struct driver_cmd *dc, const struct campaign_config *cfg)
{
	for (size_t i = 0; i < cfg->nwl_options; i++)
		arg(dc, "--%s=%s", cfg->wl_options[i].key, cfg->wl_options[i].value);
}

bool driver_sets_option(const struct workload_desc *wd, const char *k)
{
	static const char *const exact[] = {
		"threads", "time", "events", "precondition", "report-interval", "percentile", "rate", "tx-rate",
		"result", "journal", "db-driver", "help", "verbosity", "delivery-log", NULL,
	};
	for (const char *const *e = exact; *e; e++)
		if (!strcmp(*e, k))
			return true;
	/* tpcc: the campaign's threads are the connections the terminals share,
	 * and every run is checked for consistency afterwards. */
	if (!strcmp(k, wd->connections_option) || (wd->check_option && !strcmp(k, wd->check_option)))
		return true;
	/* The db drivers' own options come from their tables; pgsql- is sysbench's
	 * PostgreSQL driver's, which dbrig has not. */
	return !strncmp(k, "run-", 4) || db_driver_option(k) || !strncmp(k, "pgsql-", 6);
}

/*
 * The drivers of a run share this machine's CPUs (they all run here, whatever
 * the target): n of them at once divide the CPUs among their event loops
 * instead of each taking one loop per CPU, unless the config's workload
 * options set --event-loops.
 */
static void event_loops(struct driver_cmd *dc, const struct campaign_config *cfg, unsigned n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	for (size_t i = 0; i < cfg->nwl_options; i++)
		if (!strcmp(cfg->wl_options[i].key, "event-loops"))
			return;
	if (n == 0)
		n = 1;
	arg(dc, "--event-loops=%lu", ncpu > (long)n ? (unsigned long)ncpu / n : 1UL);
}

/* argv from every string of args: never cut at a fixed size (extra arguments were silently dropped). */
static void finish(struct driver_cmd *dc)
{
	strvec_clear(&dc->av);
	strvec_init(&dc->av);
	strvec_push_nul_list(&dc->av, &dc->args);
	dc->argv = dc->av.v;
}

void driver_cmd_run(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		    const struct target_endpoint *ep, const struct driver_run_id *id, const char *base)
{
	begin(dc, cfg, exe, ep);
	/* sysbench --threads; tpcc --connections, which its terminals share, or
	 * --connections=terminals: a session each ("sessions": "terminals"). */
	if (cfg->sessions_per_terminal)
		arg(dc, "--%s=terminals", cfg->workload->connections_option);
	else
		arg(dc, "--%s=%u", cfg->workload->connections_option, id->threads ? id->threads : cfg->threads);
	/* A rate per instance: each driver is its own open loop (config.c refuses it for tpcc). */
	if (cfg->rate)
		arg(dc, "--rate=%llu", (unsigned long long)cfg->rate);
	/* tpcc: the 12 consistency conditions after the sample, into the result. */
	if (cfg->workload->check_option)
		arg(dc, "--%s=after", cfg->workload->check_option);
	strbuf_adds(&dc->args, "--percentile=");
	campaign_percentiles_arg(cfg, &dc->args);
	strbuf_addc(&dc->args, '\0');
	arg(dc, "--precondition=%llu", (unsigned long long)(cfg->precondition_ns / NS_PER_SEC));
	arg(dc, "--time=%llu", (unsigned long long)(cfg->sample_ns / NS_PER_SEC));
	arg(dc, "--report-interval=%llu", (unsigned long long)(cfg->report_interval_ns / NS_PER_SEC));
	arg(dc, "--result=%s.json", base);
	arg(dc, "--journal=%s.jsonl", base);
	if (cfg->delivery_log)
		arg(dc, "--delivery-log=%s.dlog", base);
	arg(dc, "--run-campaign=%s", cfg->name);
	arg(dc, "--run-group=%s", id->group);
	arg(dc, "--run-drive=%s", id->drive);
	arg(dc, "--run-instance=%s", id->instance);
	arg(dc, "--run-vm-count=%u", id->vm_count);
	arg(dc, "--run-repetition=%u", id->repetition);
	arg(dc, "--run-steady-window=%u", cfg->steady_window);
	if (id->golden)
		arg(dc, "--run-golden=%s", id->golden);
	if (id->run_id && *id->run_id)
		arg(dc, "--run-id=%s", id->run_id);
	if (id->run_started && *id->run_started)
		arg(dc, "--run-started=%s", id->run_started);
	if (cfg->target->storage) {
		struct strbuf st;
		strbuf_init(&st, 0);
		cfg->target->storage(&cfg->env, &st);
		arg(dc, "--run-storage=%s", st.buf);
		strbuf_release(&st);
	}
	workload_options(dc, cfg);
	event_loops(dc, cfg, id->vm_count);
	if (cfg->workload->tests)
		arg(dc, "%s", cfg->test);
	arg(dc, "run");
	finish(dc);
}

void driver_cmd_prepare(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
			const struct target_endpoint *ep)
{
	begin(dc, cfg, exe, ep);
	workload_options(dc, cfg);
	arg(dc, "--threads=%u", cfg->scale < cfg->threads ? cfg->scale : cfg->threads);
	if (cfg->workload->tests)
		arg(dc, "%s", cfg->test);
	arg(dc, "prepare");
	finish(dc);
}

void driver_cmd_ping(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		     const struct target_endpoint *ep)
{
	begin(dc, cfg, exe, ep);
	if (cfg->workload->tests)
		arg(dc, "%s", cfg->test);
	arg(dc, "ping");
	finish(dc);
}

void driver_cmd_check(struct driver_cmd *dc, const struct campaign_config *cfg, const char *exe,
		      const struct target_endpoint *ep)
{
	begin(dc, cfg, exe, ep);
	workload_options(dc, cfg);
	if (cfg->workload->tests)
		arg(dc, "%s", cfg->test);
	arg(dc, "check");
	finish(dc);
}
