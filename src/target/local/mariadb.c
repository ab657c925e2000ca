/*
 * mariadbd for the local target (local_mariadb): --no-defaults, everything on
 * its command line; mariadb-install-db for a fresh data directory, the
 * mariadb client as the socket's root user for the setup SQL.
 */
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

/* Options dbrig sets for every server; a config may not override them. */
static const char *const reserved[] = {
	"datadir", "port", "socket", "bind-address", "pid-file", "user", "log-error", "tmpdir",
	"innodb-buffer-pool-size", "skip-networking", "no-defaults", "defaults-file", "basedir", NULL,
};

/* mariadbd, mariadb-install-db and the mariadb client: the settings, else PATH and the usual folders. */
static int mariadb_find_programs(struct target *t)
{
	const struct target_env *env = t->env;
	struct local *l = t->priv;
	const struct target_setting *s;

	s = target_setting(env, "server_binary");
	l->server = proc_find_program(s->set ? s->str : "mariadbd", local_server_dirs);
	if (!l->server) {
		log_error("%s: the database server \"%s\" was not found in PATH, /usr/sbin or /usr/local/sbin "
			  "(expected mariadb-server installed, or .target.server_binary)", env->file,
			  s->set ? s->str : "mariadbd");
		return -ENOENT;
	}
	s = target_setting(env, "install_db_binary");
	l->installdb = proc_find_program(s->set ? s->str : "mariadb-install-db", local_bin_dirs);
	if (!l->installdb) {
		log_error("%s: \"%s\" was not found in PATH, /usr/bin or /usr/local/bin (expected mariadb-server "
			  "installed, or .target.install_db_binary)", env->file, s->set ? s->str : "mariadb-install-db");
		return -ENOENT;
	}
	s = target_setting(env, "client_binary");
	l->client = proc_find_program(s->set ? s->str : "mariadb", local_bin_dirs);
	if (!l->client) {
		log_error("%s: the client \"%s\" was not found in PATH (expected mariadb-client installed, or "
			  ".target.client_binary)", env->file, s->set ? s->str : "mariadb");
		return -ENOENT;
	}
	return 0;
}

static void mariadb_socket(const char *boot, struct strbuf *sb)
{
	strbuf_addf(sb, "%s/mysqld.sock", boot);
}

static void mariadb_pidfile(const char *boot, const char *data, struct strbuf *sb)
{
	(void)data;
	strbuf_addf(sb, "%s/mysqld.pid", boot);
}

/* Its command line names `data` the way dbrig starts it: --datadir=<data>. */
static bool mariadb_serves_datadir(pid_t pid, const char *data)
{
	struct strbuf a;
	bool ok;

	strbuf_init(&a, 0);
	strbuf_addf(&a, "--datadir=%s", data);
	ok = proc_argv_has(pid, a.buf, NULL);
	strbuf_release(&a);
	return ok;
}

static int mariadb_install_argv(const struct local *l, const char *what, const char *boot, const char *data,
				struct strbuf *a, char **argv)
{
	size_t n = 0;

	(void)what;
	strbuf_addf(&a[0], "--datadir=%s", data);
	strbuf_addf(&a[1], "--auth-root-socket-user=%s", l->sock_user);
	/* The bootstrap server's temporary tables go to boot/tmp, not the shared /tmp,
	 * where another server's "#sql-temptable-<pid>-..." of the same name can clash. */
	strbuf_addf(&a[2], "--tmpdir=%s/tmp", boot);
	argv[n++] = l->installdb;
	argv[n++] = "--no-defaults";
	argv[n++] = a[0].buf;
	argv[n++] = a[1].buf;
	argv[n++] = "--auth-root-authentication-method=socket";
	argv[n++] = "--skip-test-db";
	argv[n++] = a[2].buf;
	argv[n++] = l->root ? "--user=root" : "--skip-name-resolve" /* a harmless filler */;
	argv[n] = NULL;
	return 0;
}

/* The mariadb client as the socket's root user. */
static void mariadb_client_argv(const struct local *l, const char *sock, unsigned port, struct strbuf *arg,
				char **argv)
{
	size_t n = 0;

	(void)port;
	strbuf_addf(arg, "--socket=%s", sock);
	argv[n++] = l->client;
	argv[n++] = "--no-defaults";
	argv[n++] = arg->buf;
	argv[n++] = "--user=root";
	argv[n++] = "--batch";
	argv[n++] = "--skip-column-names";
	argv[n] = NULL;
}

/* A string literal: 'text' with ' and \ escaped by \ (the default sql_mode reads it). */
static void sql_literal(struct strbuf *sb, const char *text)
{
	strbuf_addc(sb, '\'');
	for (const char *p = text; *p; p++) {
		if (*p == '\'' || *p == '\\')
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, *p);
	}
	strbuf_addc(sb, '\'');
}

/* SET @dbrig_user = '…', …; then every statement built by the server with QUOTE() under EXECUTE IMMEDIATE. */
static void mariadb_setup_sql(const char *user, const char *password, const char *db, struct strbuf *sql)
{
	const char *names[] = {"user", "password", "db"}, *values[] = {user, password, db};

	strbuf_adds(sql, "SET ");
	for (size_t i = 0; i < 3; i++) {
		strbuf_addf(sql, "%s@dbrig_%s = ", i ? ", " : "", names[i]);
		sql_literal(sql, values[i]);
	}
	strbuf_adds(sql, ";\n");
	strbuf_adds(sql, "EXECUTE IMMEDIATE CONCAT('CREATE DATABASE IF NOT EXISTS `', REPLACE(@dbrig_db, '`', '``'), '`');\n");
	for (int h = 0; h < 2; h++) {
		const char *host = h ? "localhost" : "127.0.0.1";
		strbuf_addf(sql, "EXECUTE IMMEDIATE CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(@dbrig_user), '@', "
				 "QUOTE('%s'), ' IDENTIFIED BY ', QUOTE(@dbrig_password));\n", host);
		strbuf_addf(sql, "EXECUTE IMMEDIATE CONCAT('GRANT ALL ON `', REPLACE(@dbrig_db, '`', '``'), '`.* TO ', "
				 "QUOTE(@dbrig_user), '@', QUOTE('%s'));\n", host);
	}
}

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

static int mariadb_start(struct local *l, const struct target_env *env, const char *what, const char *boot,
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
		ret = local_await_server(l, what, l->ops->comm, pid, port, logdesc.buf, l->ops->stop_sig, mariadb_ready);
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

const struct local_server_ops local_mariadb = {
	.engine = &db_engine_mariadb,
	.comm = "mariadbd",
	.installdb = "mariadb-install-db",
	.client = "the mariadb client",
	.pool = "buffer pool",
	.stop_sig = SIGTERM,
	.longest_socket = "/golden/boot/mysqld.sock",
	.reserved = reserved,
	.getopt = true,
	.endpoint_socket = true,
	.find_programs = mariadb_find_programs,
	.socket = mariadb_socket,
	.pidfile = mariadb_pidfile,
	.serves_datadir = mariadb_serves_datadir,
	.install_argv = mariadb_install_argv,
	.start = mariadb_start,
	.client_argv = mariadb_client_argv,
	.setup_sql = mariadb_setup_sql,
};
