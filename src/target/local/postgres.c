/*
 * postgres for the local target: as root it runs as the postgres system user
 * (setpriv), reads only its data directory's files with dbrig's settings on
 * its command line; psqlODBC is registered in the campaign's own
 * odbcinst.ini for the drivers.
 */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* argv prefix that runs a PostgreSQL program as the server's user; returns the count. */
size_t pg_as_user(const struct local *l, char **argv, struct strbuf *uid, struct strbuf *gid)
{
	size_t n = 0;

	if (!l->as_user)
		return 0;
	strbuf_addf(uid, "--reuid=%lu", (unsigned long)l->pg_uid);
	strbuf_addf(gid, "--regid=%lu", (unsigned long)l->pg_gid);
	argv[n++] = l->setpriv;
	argv[n++] = uid->buf;
	argv[n++] = gid->buf;
	argv[n++] = "--init-groups";
	/* setuid clears the parent-death signal proc_spawn set; keep it, so postgres goes when dbrig does */
	argv[n++] = "--pdeathsig=keep";
	argv[n++] = "--";
	return n;
}

/* pg_isready exits 0 once the server accepts connections (1 while it starts up). */
static bool pg_ready(const struct local *l, unsigned port)
{
	struct strbuf p;
	int st = 0;
	bool ok;

	strbuf_init(&p, 0);
	strbuf_addf(&p, "--port=%u", port);
	char *argv[] = {l->isready, "--quiet", "--host=127.0.0.1", p.buf, "--dbname=postgres", "--timeout=2", NULL};
	struct proc_spec spec = {.argv = argv, .new_group = true};
	ok = proc_run(&spec, NULL, &st) == 0;
	strbuf_release(&p);
	return ok;
}

/* Start postgres on datadir (as the server's user) and wait until pg_isready says it accepts connections. */
int pg_start(struct local *l, const struct target_env *env, const char *what, const char *boot,
		    const char *data, unsigned port, pid_t *pid_out)
{
	struct strbuf uid, gid, log, opts;
	struct strvec av;
	char *prefix[8];
	size_t np;
	pid_t pid = -1;
	int ret;
	unsigned maxconn = env->threads + 50 > 100 ? env->threads + 50 : 100;

	strbuf_init(&log, 0);
	strbuf_init(&opts, 0);
	strbuf_init(&uid, 0);
	strbuf_init(&gid, 0);
	strvec_init(&av);
	strbuf_addf(&log, "%s/server.out", boot);
	np = pg_as_user(l, prefix, &uid, &gid);
	for (size_t i = 0; i < np; i++)
		strvec_push(&av, prefix[i]);
	strvec_push(&av, l->server);
	strvec_push(&av, "-D");
	strvec_push(&av, data);
	/* Every -c is NUL-separated in opts: "-c", "name=value". A default a config may change first
	 * (max_connections), then every one of the config's options (none
	 * dropped, however many), then what dbrig relies on, which wins (the loopback address above all). */
	strbuf_addf(&opts, "max_connections=%u%c", maxconn, '\0');
	for (size_t i = 0; i < env->nserver_options; i++)
		strbuf_addf(&opts, "%s=%s%c", env->server_options[i].key, env->server_options[i].value, '\0');
	strbuf_addf(&opts, "listen_addresses=127.0.0.1%cunix_socket_permissions=0700%clogging_collector=off%c", '\0',
		    '\0', '\0');
	strbuf_addf(&opts, "shared_buffers=%llukB%cport=%u%cunix_socket_directories=%s%c",
		    (unsigned long long)(env->buffer_pool >> 10), '\0', port, '\0', boot, '\0');
	for (size_t off = 0; off < opts.len; off += strlen(opts.buf + off) + 1) {
		strvec_push(&av, "-c");
		strvec_push(&av, opts.buf + off);
	}
	struct proc_spec spec = {.argv = av.v, .log_path = log.buf, .new_group = true};
	ret = proc_spawn(&spec, &pid);
	if (ret < 0) {
		log_error("%s: cannot start %s: %s", what, l->server, strerror(-ret));
		goto out;
	}
	ret = local_await_server(l, what, "postgres", pid, port, log.buf, SIGINT, pg_ready);
	if (ret < 0) {
		pid = -1;
		goto out;
	}
	*pid_out = pid;
	ret = 0;
out:
	strvec_clear(&av);
	strbuf_release(&uid);
	strbuf_release(&gid);
	strbuf_release(&opts);
	strbuf_release(&log);
	return ret;
}

/* root/odbc/odbcinst.ini naming psqlODBC, for the drivers' ODBCSYSINI (nothing in /etc is touched). */
int pg_odbc_register(struct local *l, struct local_drive *ld)
{
	struct strbuf p, text;
	int ret;

	if (!l->pg || !l->odbc_lib)
		return 0;
	strbuf_init(&p, 0);
	strbuf_init(&text, 0);
	if ((ret = mkdir_p(ld->odbc, 0755)) < 0)
		goto out;
	/* Threading=0: unixODBC does not serialise the connections' calls (docs/tpcc.md). */
	strbuf_addf(&text, "[PostgreSQL Unicode]\nDriver=%s\nThreading=0\n", l->odbc_lib);
	strbuf_addf(&p, "%s/odbcinst.ini", ld->odbc);
	if ((ret = atomic_write_file(p.buf, text.buf, text.len)) < 0)
		goto out;
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/odbc.ini", ld->odbc);
	ret = atomic_write_file(p.buf, "", 0);
out:
	strbuf_release(&p);
	strbuf_release(&text);
	return ret;
}
