/*
 * Secrets for ODBC children go through this process's environment for the
 * instant of the fork: proc_spawn only knows MYSQL_PWD, and the orchestrator
 * is single-threaded, so setting ODBC_PWD and ODBCSYSINI around the fork and
 * restoring them right after gives the child alone its values. setenv()
 * never touches /proc/self/environ, so the password is not visible there.
 */
#include "campaign/driver.h"

#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

const char *driver_database(const struct campaign_config *cfg)
{
	return cfg->workload->database;
}

const char *driver_command(const struct campaign_config *cfg)
{
	return cfg->workload->name;
}

bool driver_is_odbc(const struct campaign_config *cfg)
{
	return cfg->engine->odbc_connect != NULL;
}

void driver_conn_args(const struct campaign_config *cfg, const struct target_endpoint *ep, struct strbuf *args)
{
	const struct db_engine *e = cfg->engine;

	strbuf_addf(args, "--db-driver=%s%c", e->db_driver, '\0');
	if (!driver_is_odbc(cfg)) {
		if (ep->host)
			strbuf_addf(args, "--mysql-host=%s%c--mysql-port=%u%c", ep->host, '\0', ep->port, '\0');
		else
			strbuf_addf(args, "--mysql-socket=%s%c", ep->socket, '\0');
		strbuf_addf(args, "--mysql-user=%s%c--mysql-db=%s%c", ep->user, '\0', ep->database, '\0');
		return;
	}
	strbuf_adds(args, "--odbc-connect=");
	e->odbc_connect(args, ep->odbc_driver ? ep->odbc_driver : e->odbc_driver, ep->host ? ep->host : "127.0.0.1",
			ep->port, ep->database, ep->user);
	strbuf_addc(args, '\0');
}

void driver_workload_args(const struct campaign_config *cfg, struct strbuf *args)
{
	for (size_t i = 0; i < cfg->nwl_options; i++)
		strbuf_addf(args, "--%s=%s%c", cfg->wl_options[i].key, cfg->wl_options[i].value, '\0');
}

size_t driver_split_args(const struct strbuf *args, char **argv, size_t start, size_t max)
{
	size_t n = start;

	for (size_t off = 0; off < args->len && n + 1 < max; off += strlen(args->buf + off) + 1)
		argv[n++] = args->buf + off;
	argv[n] = NULL;
	return n;
}

struct saved_env {
	const char *name;
	char *old; /* NULL: was unset */
};

static void env_set(struct saved_env *s, const char *name, const char *value)
{
	const char *o = getenv(name);

	s->name = name;
	s->old = o ? xstrdup(o) : NULL;
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static void env_restore(struct saved_env *s)
{
	if (!s->name)
		return;
	if (s->old) {
		setenv(s->name, s->old, 1);
		free(s->old);
	} else {
		unsetenv(s->name);
	}
	s->name = NULL;
}

/* spawn (out == NULL and pid != NULL) or run to completion. */
static int with_env(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
		    pid_t *pid, struct strbuf *out, int *status)
{
	struct saved_env env[3] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct strbuf ini;
	int ret;

	strbuf_init(&ini, 0);
	spec->mysql_pwd = NULL;
	if (!driver_is_odbc(cfg)) {
		spec->mysql_pwd = ep->password;
	} else {
		env_set(&env[0], "ODBC_PWD", ep->password);
		if (ep->odbc_sysini) {
			/* The registration of the campaign alone: no /etc/odbc*.ini, no ~/.odbc.ini. */
			strbuf_addf(&ini, "%s/odbc.ini", ep->odbc_sysini);
			env_set(&env[1], "ODBCSYSINI", ep->odbc_sysini);
			env_set(&env[2], "ODBCINI", ini.buf);
		}
	}
	if (pid)
		ret = proc_spawn(spec, pid);
	else
		ret = proc_run(spec, out, status);
	for (size_t i = 0; i < 3; i++)
		env_restore(&env[i]);
	strbuf_release(&ini);
	return ret;
}

int driver_spawn(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
		 pid_t *pid)
{
	return with_env(cfg, ep, spec, pid, NULL, NULL);
}

int driver_run(const struct campaign_config *cfg, const struct target_endpoint *ep, struct proc_spec *spec,
	       struct strbuf *out, int *status)
{
	return with_env(cfg, ep, spec, NULL, out, status);
}
