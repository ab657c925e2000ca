/* mariadbd for the local target: --no-defaults, everything on its command line. */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Start mariadbd on datadir and wait until it sends its handshake. */
/*
 * Ready = the server answers on the TCP port: a handshake (protocol 10), or
 * an error packet (0xff: "host not allowed" before the driver user exists,
 * "too many connections") from a live server.
 */
static bool mariadb_ready(const struct local *l, unsigned port)
{
	(void)l;
	return target_probe_mysql("127.0.0.1", port, 2000, true, NULL) == 0;
}

int mariadb_start(struct local *l, const struct target_env *env, const char *what, const char *boot,
			const char *data, unsigned port, pid_t *pid_out)
{
	struct strbuf a[12], log;
	char *argv[64];
	size_t n = 0, na = 0;
	pid_t pid = -1;
	int ret;

	strbuf_init(&log, 0);
	strbuf_addf(&log, "%s/server.out", boot);
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		strbuf_init(&a[i], 0);
	argv[n++] = l->server;
	argv[n++] = "--no-defaults";
	strbuf_addf(&a[na], "--datadir=%s", data);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--port=%u", port);
	argv[n++] = a[na++].buf;
	argv[n++] = "--bind-address=127.0.0.1";
	strbuf_addf(&a[na], "--socket=%s/mysqld.sock", boot);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--pid-file=%s/mysqld.pid", boot);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--log-error=%s/error.log", boot);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--tmpdir=%s/tmp", boot);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--innodb-buffer-pool-size=%llu", (unsigned long long)env->buffer_pool);
	argv[n++] = a[na++].buf;
	strbuf_addf(&a[na], "--max-connections=%u", env->threads + 50 > 151 ? env->threads + 50 : 151);
	argv[n++] = a[na++].buf;
	argv[n++] = "--skip-name-resolve";
	if (l->root)
		argv[n++] = "--user=root";
	struct strbuf opts;
	strbuf_init(&opts, 0);
	/* After dbrig's own, so a config's option wins where both set one (max_connections). */
	for (size_t i = 0; i < env->nserver_options && n < 60; i++)
		strbuf_addf(&opts, "--%s=%s%c", env->server_options[i].key, env->server_options[i].value, '\0');
	for (size_t off = 0, i = 0; i < env->nserver_options && n < 60; i++) {
		argv[n++] = opts.buf + off;
		off += strlen(opts.buf + off) + 1;
	}
	argv[n] = NULL;
	struct proc_spec spec = {.argv = argv, .log_path = log.buf, .new_group = true};
	ret = proc_spawn(&spec, &pid);
	if (ret < 0) {
		log_error("%s: cannot start %s: %s", what, l->server, strerror(-ret));
		goto out;
	}
	{
		struct strbuf logdesc;
		strbuf_init(&logdesc, 0);
		strbuf_addf(&logdesc, "%s/error.log", boot);
		ret = local_await_server(l, what, "mariadbd", pid, port, logdesc.buf, SIGTERM, mariadb_ready);
		strbuf_release(&logdesc);
	}
	if (ret < 0) {
		pid = -1;
		goto out;
	}
	*pid_out = pid;
	ret = 0;
out:
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		strbuf_release(&a[i]);
	strbuf_release(&opts);
	strbuf_release(&log);
	return ret;
}
