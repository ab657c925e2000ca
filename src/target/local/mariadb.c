/* mariadbd for the local target: --no-defaults, everything on its command line. */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/strvec.h"

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
	struct strbuf log;
	struct strvec av;
	pid_t pid = -1;
	int ret;

	strbuf_init(&log, 0);
	strvec_init(&av);
	strbuf_addf(&log, "%s/server.out", boot);
	strvec_push(&av, l->server);
	strvec_push(&av, "--no-defaults");
	/* Defaults a config may change (max_connections): before its options. */
	strvec_pushf(&av, "--max-connections=%u", env->threads + 50 > 151 ? env->threads + 50 : 151);
	strvec_push(&av, "--skip-name-resolve");
	/* Every one of the config's options: a fixed array would drop those beyond its size without
	 * a word. */
	for (size_t i = 0; i < env->nserver_options; i++)
		strvec_pushf(&av, "--%s=%s", env->server_options[i].key, env->server_options[i].value);
	/* What dbrig relies on comes last, so it wins over any spelling of it in the config
	 * ("loose_bind_address", "bind-addr" would otherwise listen on every address). */
	strvec_pushf(&av, "--datadir=%s", data);
	strvec_pushf(&av, "--port=%u", port);
	strvec_push(&av, "--bind-address=127.0.0.1");
	strvec_pushf(&av, "--socket=%s/mysqld.sock", boot);
	strvec_pushf(&av, "--pid-file=%s/mysqld.pid", boot);
	strvec_pushf(&av, "--log-error=%s/error.log", boot);
	strvec_pushf(&av, "--tmpdir=%s/tmp", boot);
	strvec_pushf(&av, "--innodb-buffer-pool-size=%llu", (unsigned long long)env->buffer_pool);
	if (l->root)
		strvec_push(&av, "--user=root");
	struct proc_spec spec = {.argv = av.v, .log_path = log.buf, .new_group = true};
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
	strvec_clear(&av);
	strbuf_release(&log);
	return ret;
}
