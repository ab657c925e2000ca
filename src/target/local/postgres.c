/*
 * postgres for the local target (local_postgres): as root it runs as the
 * postgres system user (setpriv), reads only its data directory's files with
 * dbrig's settings on its command line; initdb for a fresh data directory,
 * psql as the superuser on the socket folder for the setup SQL; psqlODBC is
 * registered in the campaign's own odbcinst.ini for the drivers.
 */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Options dbrig sets for every server; a config may not override them. */
static const char *const reserved[] = {
	"data-directory", "port", "listen-addresses", "unix-socket-directories", "unix-socket-permissions",
	"shared-buffers", "config-file", "hba-file", "ident-file", "external-pid-file", "logging-collector", NULL,
};

static const char *const odbc_dirs[] = {
	"/usr/lib/x86_64-linux-gnu/odbc", "/usr/lib/aarch64-linux-gnu/odbc", "/usr/lib64/odbc", "/usr/lib/odbc",
	"/usr/local/lib", NULL,
};

/* A folder the postgres user can pass through: owned by it, or x for its group or for others. */
static bool traversable_by(const struct local *l, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return true; /* created later by dbrig (create_drive_dirs), mode 0755 */
	if (st.st_uid == l->server_uid)
		return st.st_mode & S_IXUSR;
	if (st.st_gid == l->server_gid)
		return st.st_mode & S_IXGRP;
	return st.st_mode & S_IXOTH;
}

static char *pg_program(const char *dir, const char *name)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", dir, name);
	if (access(sb.buf, X_OK) == 0)
		return strbuf_detach(&sb);
	strbuf_release(&sb);
	return NULL;
}

/* postgres, initdb, pg_isready, psql, psqlODBC, and the user the servers run as. */
static int pg_find_programs(struct target *t)
{
	const struct target_env *env = t->env;
	struct local *l = t->priv;
	const char *dir = target_setting(env, "postgres_bin_dir")->str;
	const struct target_setting *od = target_setting(env, "odbc_driver");
	char **slots[] = {&l->server, &l->installdb, &l->isready, &l->client};
	const char *names[] = {"postgres", "initdb", "pg_isready", "psql"};
	struct strbuf sb;
	int ret = -ENOENT;

	strbuf_init(&sb, 0);
	for (size_t i = 0; i < 4; i++) {
		*slots[i] = pg_program(dir, names[i]);
		if (!*slots[i]) {
			log_error("%s: .target.postgres_bin_dir: \"%s/%s\" is missing or not executable (expected "
				  "postgresql-15 installed, or .target.postgres_bin_dir naming the folder of postgres, "
				  "initdb, pg_isready and psql)", env->file, dir, names[i]);
			goto out;
		}
	}
	if (od->set) {
		if (access(od->str, R_OK) == 0)
			l->odbc_lib = xstrdup(od->str);
	} else {
		for (const char *const *d = odbc_dirs; *d && !l->odbc_lib; d++) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/psqlodbcw.so", *d);
			if (access(sb.buf, R_OK) == 0)
				l->odbc_lib = xstrdup(sb.buf);
		}
	}
	if (!l->odbc_lib) {
		log_error("%s: .target.odbc_driver: %s%s%s (expected odbc-postgresql installed, or the path of "
			  "psqlodbcw.so)", env->file, od->set ? "\"" : "", od->set ? od->str : "psqlODBC (psqlodbcw.so) "
			  "was not found in /usr/lib/<arch>/odbc, /usr/lib/odbc or /usr/local/lib", od->set ? "\" is not readable" : "");
		goto out;
	}
	if (!l->root)
		goto ok;
	const char *user = target_setting(env, "postgres_user")->str;
	struct passwd *pw = getpwnam(user);
	if (!pw || pw->pw_uid == 0) {
		log_error("%s: .target.postgres_user: \"%s\" %s (postgres refuses to run as root; expected the "
			  "postgresql package's system user)", env->file, user, pw ? "is root" : "is not a user of this machine");
		ret = -EINVAL;
		goto out;
	}
	l->server_uid = pw->pw_uid;
	l->server_gid = pw->pw_gid;
	l->as_user = true;
	l->setpriv = proc_find_program("setpriv", local_bin_dirs);
	if (!l->setpriv) {
		log_error("%s: setpriv was not found in PATH or /usr/bin (expected util-linux, to run postgres as "
			  "\"%s\")", env->file, user);
		goto out;
	}
	/* The server user must reach its data directories: every folder above them. */
	for (size_t d = 0; d < l->ndrives; d++) {
		char *p = local_absolute(env->drives[d].path);
		for (char *slash = p + strlen(p); slash; slash = strrchr(p, '/')) {
			*slash = '\0';
			const char *q = *p ? p : "/";
			if (!traversable_by(l, q)) {
				char jp[64];
				snprintf(jp, sizeof(jp), ".drives[%zu].path", d);
				target_env_error(env, jp, "\"%s\": the folder %s cannot be entered by the user \"%s\" "
						      "the servers run as (expected o+x on it, e.g. chmod o+x %s)",
						      env->drives[d].path, q, user, q);
				free(p);
				ret = -EINVAL;
				goto out;
			}
			if (!*p)
				break;
		}
		free(p);
	}
ok:
	ret = 0;
out:
	strbuf_release(&sb);
	return ret;
}


/* argv prefix that runs a PostgreSQL program as the server's user; returns the count. */
static size_t pg_as_user(const struct local *l, char **argv, struct strbuf *uid, struct strbuf *gid)
{
	size_t n = 0;

	if (!l->as_user)
		return 0;
	strbuf_addf(uid, "--reuid=%lu", (unsigned long)l->server_uid);
	strbuf_addf(gid, "--regid=%lu", (unsigned long)l->server_gid);
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

/* The socket folder (psql's -h); postgres writes its pid file into the data directory. */
static void pg_socket(const char *boot, struct strbuf *sb)
{
	strbuf_adds(sb, boot);
}

static void pg_pidfile(const char *boot, const char *data, struct strbuf *sb)
{
	(void)boot;
	strbuf_addf(sb, "%s/postmaster.pid", data);
}

/* Its command line names `data` the way dbrig starts it: -D <data>. */
static bool pg_serves_datadir(pid_t pid, const char *data)
{
	return proc_argv_has(pid, "-D", data);
}

/* initdb as the server's user, on `data` made first for that user. */
static int pg_install_argv(const struct local *l, const char *what, const char *boot, const char *data,
			   struct strbuf *a, char **argv)
{
	size_t n;
	int ret;

	(void)boot;
	if ((ret = mkdir_p(data, 0700)) < 0 || (ret = local_own_tree(l, data)) < 0) {
		log_error("%s: cannot create %s for the server's user: %s", what, data, strerror(-ret));
		return ret;
	}
	n = pg_as_user(l, argv, &a[0], &a[1]);
	argv[n++] = l->installdb;
	argv[n++] = "-D";
	argv[n++] = (char *)data;
	argv[n++] = "-U";
	argv[n++] = "postgres";
	/* The superuser only over the 0700 socket folder; the drivers' user by password over TCP. */
	argv[n++] = "--auth-local=trust";
	argv[n++] = "--auth-host=scram-sha-256";
	argv[n++] = "-E";
	argv[n++] = "UTF8";
	argv[n++] = "--locale=C";
	argv[n] = NULL;
	return 0;
}

/* psql as the postgres superuser on the socket folder (local trust in a 0700 folder). */
static void pg_client_argv(const struct local *l, const char *sock, unsigned port, struct strbuf *arg, char **argv)
{
	size_t n = 0;

	strbuf_addf(arg, "--port=%u", port);
	argv[n++] = l->client;
	argv[n++] = "-X";
	argv[n++] = "-q";
	argv[n++] = "-A";
	argv[n++] = "-t";
	argv[n++] = "-v";
	argv[n++] = "ON_ERROR_STOP=1";
	argv[n++] = "-h";
	argv[n++] = (char *)sock;
	argv[n++] = arg->buf;
	argv[n++] = "-U";
	argv[n++] = "postgres";
	argv[n++] = "-d";
	argv[n++] = "postgres";
	argv[n] = NULL;
}

/* A string literal: 'text' with ' doubled. */
static void sql_literal(struct strbuf *sb, const char *text)
{
	strbuf_addc(sb, '\'');
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			strbuf_addc(sb, '\'');
		strbuf_addc(sb, *p);
	}
	strbuf_addc(sb, '\'');
}

/* SELECT set_config('dbrig.user', '…', false), …; then every statement built by format('%I' / '%L'), run by
 * psql's \gexec. */
static void pg_setup_sql(const char *user, const char *password, const char *db, struct strbuf *sql)
{
	const char *names[] = {"user", "password", "db"}, *values[] = {user, password, db};

	strbuf_adds(sql, "SELECT ");
	for (size_t i = 0; i < 3; i++) {
		strbuf_addf(sql, "%sset_config('dbrig.%s', ", i ? ", " : "", names[i]);
		sql_literal(sql, values[i]);
		strbuf_adds(sql, ", false)");
	}
	strbuf_adds(sql, ";\n");
	strbuf_adds(sql, "SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', current_setting('dbrig.user'), "
			 "current_setting('dbrig.password')) \\gexec\n"
			 "SELECT format('CREATE DATABASE %I OWNER %I', current_setting('dbrig.db'), "
			 "current_setting('dbrig.user')) \\gexec\n");
}

/* Start postgres on datadir (as the server's user) and wait until pg_isready says it accepts connections. */
static int pg_start(struct local *l, const struct target_env *env, const char *what, const char *boot,
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
	ret = local_await_server(l, what, l->ops->comm, pid, port, log.buf, l->ops->stop_sig, pg_ready);
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
static int pg_odbc_register(struct local *l, struct local_drive *ld)
{
	struct strbuf p, text;
	int ret;

	if (!l->odbc_lib)
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

/* SIGINT: postgres' fast shutdown (clients are cut off, a checkpoint is written). */
const struct local_server_ops local_postgres = {
	.engine = &db_engine_postgresql,
	.comm = "postgres",
	.installdb = "initdb",
	.client = "psql",
	.pool = "shared buffers",
	.stop_sig = SIGINT,
	.longest_socket = "/golden/boot/.s.PGSQL.65535",
	.reserved = reserved,
	.private_tree = true,
	.odbc_driver = "PostgreSQL Unicode",
	.odbc_name = "psqlODBC",
	.find_programs = pg_find_programs,
	.socket = pg_socket,
	.pidfile = pg_pidfile,
	.serves_datadir = pg_serves_datadir,
	.install_argv = pg_install_argv,
	.start = pg_start,
	.client_argv = pg_client_argv,
	.setup_sql = pg_setup_sql,
	.odbc_register = pg_odbc_register,
};
