/*
 * The local target: real mariadbd (or, for TPC-C, postgres) processes on
 * 127.0.0.1, one data directory per instance on its drive. Everything lives
 * under
 *   <drive path>/dbrig-<campaign>/            (marked as dbrig's)
 *     .credentials                            the driver user's password (0600)
 *     golden/data                             prebuilt: a cleanly stopped server's datadir
 *     golden/boot, golden/.complete           its socket, logs; the fingerprint once done
 *     <instance>/boot                         socket, pid file, error log, tmpdir
 *     <instance>/data                         under-test, copied from golden/data
 *     odbc/odbcinst.ini                       postgresql: psqlODBC registered for the drivers
 * The drive's instances share its golden copy (one prebuilt per drive, as
 * the libvirt target clones one into each VM); a campaign loads one drive's
 * (build_golden) and copies it to the others (clone_golden). mariadbd is started with
 * --no-defaults, so no /etc/mysql file and no system socket is involved.
 * postgres reads only the data directory's own files (initdb's defaults,
 * overridden on its command line); as root it runs as the postgres system
 * user (it refuses root), which then owns the data directories and boot
 * folders. The golden copy is loaded and restores are checked through the
 * campaign's loader (target_env.loader: `dbrig <workload> … prepare|check`
 * against the server's endpoint). The files of this target and what they
 * share: local.h.
 */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "core/tree.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct target_option local_options[] = {
	{"base_port", TOPT_UINT, "23306", 1024, 65000,
	 "first TCP port on 127.0.0.1: instance k gets base_port + k, each drive's golden server follows"},
	{"server_binary", TOPT_STRING, NULL, 0, 0, "mariadbd to run (default: PATH, then /usr/sbin, /usr/local/sbin)"},
	{"install_db_binary", TOPT_STRING, NULL, 0, 0,
	 "mariadb-install-db to initialise data directories (default: PATH, then /usr/bin, /usr/local/bin)"},
	{"client_binary", TOPT_STRING, NULL, 0, 0, "mariadb client for setup and restore checks (default: PATH)"},
	{"create_drive_dirs", TOPT_BOOL, "false", 0, 0, "create a drive's path when it does not exist"},
	{"allow_shared_device", TOPT_BOOL, "false", 0, 0,
	 "let drives share a block device, or sit on the root file system's (a warning instead of a refusal)"},
	{"db_user", TOPT_STRING, "sbtest", 0, 0, "database user the drivers connect as (password generated, kept 0600)"},
	{"start_timeout", TOPT_DURATION, "300s", 0, 0, "how long a server may take to accept connections"},
	{"stop_timeout", TOPT_DURATION, "600s", 0, 0, "how long a clean shutdown may take before it is an error"},
	{"postgres_bin_dir", TOPT_STRING, "/usr/lib/postgresql/15/bin", 0, 0,
	 "postgresql: folder of postgres, initdb, pg_isready and psql"},
	{"postgres_user", TOPT_STRING, "postgres", 0, 0,
	 "postgresql: system user the servers run as when dbrig runs as root (postgres refuses root)"},
	{"odbc_driver", TOPT_STRING, NULL, 0, 0,
	 "postgresql: psqlODBC library the drivers load (default: psqlodbcw.so in /usr/lib/<arch>/odbc)"},
	{NULL, TOPT_STRING, NULL, 0, 0, NULL},
};

/* The engines: one struct local_server_ops each (mariadb.c, postgres.c). */
const struct local_server_ops *const local_servers[] = {&local_mariadb, &local_postgres, NULL};

const struct local_server_ops *local_server_ops_of(const struct db_engine *e)
{
	for (const struct local_server_ops *const *o = local_servers; *o; o++)
		if ((*o)->engine == e)
			return *o;
	return NULL;
}

char *local_absolute(const char *path)
{
	struct strbuf sb;
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", cwd, path);
	/* "./x" -> "x" for shorter socket paths */
	return strbuf_detach(&sb);
}

void local_drive_root(const struct target_env *env, size_t d, struct strbuf *sb)
{
	char *abs = local_absolute(env->drives[d].path);

	strbuf_addf(sb, "%s/dbrig-%s", abs, env->name);
	free(abs);
}

static int local_init(struct target *t)
{
	const struct target_env *env = t->env;
	struct local *l = xcalloc(1, sizeof(*l));
	struct passwd *pw = getpwuid(geteuid());
	struct strbuf sb;
	unsigned ninst = 0;

	strbuf_init(&sb, 0);
	l->root = geteuid() == 0;
	/* validate refused an engine without one */
	l->ops = local_server_ops_of(env->engine);
	l->server_uid = geteuid();
	l->server_gid = getegid();
	snprintf(l->sock_user, sizeof(l->sock_user), "%s", pw ? pw->pw_name : "root");
	l->start_timeout = target_setting(env, "start_timeout")->num;
	l->stop_timeout = target_setting(env, "stop_timeout")->num;
	l->env = env;
	for (size_t d = 0; d < env->ndrives; d++)
		ninst += env->instances[d];
	l->ninst = ninst;
	l->ndrives = env->ndrives;
	l->drives = xcalloc(env->ndrives, sizeof(*l->drives));
	for (size_t d = 0; d < env->ndrives; d++) {
		strbuf_reset(&sb);
		local_drive_root(env, d, &sb);
		l->drives[d].root = xstrdup(sb.buf);
		strbuf_adds(&sb, "/odbc");
		l->drives[d].odbc = xstrdup(sb.buf);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/golden", l->drives[d].root);
		l->drives[d].golden = strbuf_detach(&sb);
		l->drives[d].golden_port = (unsigned)target_setting(env, "base_port")->num + ninst + (unsigned)d;
	}
	strbuf_release(&sb);
	t->priv = l;
	return 0;
}

void local_inst_paths(struct target *t, struct target_instance *inst)
{
	struct local *l = t->priv;
	struct local_inst *li = inst->priv;
	struct strbuf sb;

	if (li)
		return;
	li = xcalloc(1, sizeof(*li));
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", l->drives[inst->drive].root, inst->name);
	li->dir = xstrdup(sb.buf);
	strbuf_adds(&sb, "/boot");
	li->boot = xstrdup(sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/data", li->dir);
	li->data = strbuf_detach(&sb);
	l->ops->socket(li->boot, &sb);
	li->sock = strbuf_detach(&sb);
	l->ops->pidfile(li->boot, li->data, &sb);
	li->pidfile = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s/error.log", li->boot);
	li->errlog = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s/tmp", li->boot);
	li->tmp = strbuf_detach(&sb);
	li->port = (unsigned)target_setting(t->env, "base_port")->num + inst->index;
	li->pid = -1;
	inst->priv = li;
	strbuf_release(&sb);
}

static void inst_free(struct local_inst *li)
{
	if (!li)
		return;
	free(li->dir);
	free(li->boot);
	free(li->data);
	free(li->sock);
	free(li->pidfile);
	free(li->errlog);
	free(li->tmp);
	free(li);
}

static int local_create(struct target *t, struct target_instance *inst)
{
	struct local *l = t->priv;
	struct local_inst *li;
	const char *drive = t->env->drives[inst->drive].name;
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	if (target_setting(t->env, "create_drive_dirs")->num && (ret = mkdir_p(t->env->drives[inst->drive].path, 0755)) < 0) {
		log_error("%s/%s: cannot create the drive folder %s: %s", drive, inst->name,
			  t->env->drives[inst->drive].path, strerror(-ret));
		return ret;
	}
	struct local_drive *ld = &l->drives[inst->drive];
	bool root_existed = access(ld->root, F_OK) == 0, dir_existed = access(li->dir, F_OK) == 0;
	if ((ret = tree_make_marked(ld->root, "dbrig campaign folder\n")) < 0)
		goto fail;
	ld->made_root = ld->made_root || !root_existed;
	if ((ret = tree_make_marked(li->dir, "dbrig local instance\n")) < 0)
		goto fail;
	li->made = li->made || !dir_existed;
	if ((ret = mkdir_p(li->tmp, 0700)) < 0) {
fail:
		log_error("%s/%s: cannot create %s: %s", drive, inst->name, li->dir, strerror(-ret));
		return ret;
	}
	if ((ret = local_own_tree(l, li->boot)) < 0) {
		log_error("%s/%s: cannot hand %s to the server's user: %s", drive, inst->name, li->boot, strerror(-ret));
		return ret;
	}
	inst->created = true;
	return 0;
}

/* Where the drivers of drive d connect to `port` (the golden server or an instance). */
static void drive_endpoint(struct target *t, size_t d, unsigned port, const char *sock, struct target_endpoint *ep)
{
	struct local *l = t->priv;

	memset(ep, 0, sizeof(*ep));
	ep->host = "127.0.0.1";
	ep->port = port;
	ep->socket = l->ops->endpoint_socket ? sock : NULL;
	ep->user = target_setting(t->env, "db_user")->str;
	ep->password = l->drives[d].password;
	ep->database = t->env->database;
	if (l->ops->odbc_driver) {
		ep->odbc_driver = l->ops->odbc_driver;
		ep->odbc_sysini = l->drives[d].odbc;
	}
}

/* Drive ld's golden folder made afresh: the `earlier` one (marked as dbrig's)
 * removed, the campaign and golden folders marked, boot/tmp for the socket. */
static int golden_fresh(struct local *l, struct local_drive *ld, const char *what, const char *boot,
			const char *earlier)
{
	struct strbuf tmp;
	int ret = tree_remove_marked(ld->golden);

	if (ret < 0) {
		log_error("%s: cannot remove the %s golden copy %s: %s", what, earlier, ld->golden, strerror(-ret));
		return ret;
	}
	strbuf_init(&tmp, 0);
	strbuf_addf(&tmp, "%s/tmp", boot);
	if ((ret = tree_make_marked(ld->root, "dbrig campaign folder\n")) < 0 ||
	    (ret = tree_make_marked(ld->golden, "dbrig golden copy\n")) < 0 || (ret = mkdir_p(tmp.buf, 0700)) < 0 ||
	    (ret = local_own_tree(l, boot)) < 0)
		log_error("%s: cannot create %s: %s", what, ld->golden, strerror(-ret));
	strbuf_release(&tmp);
	return ret;
}

/* Where the golden copy's server listens locally: PostgreSQL's socket folder, or mysqld.sock. */
static void golden_socket(const struct local *l, const char *boot, struct strbuf *sock)
{
	strbuf_reset(sock);
	l->ops->socket(boot, sock);
}

/* The drivers' ODBC registration, when the engine's drivers have one. */
static int odbc_register(struct local *l, struct local_drive *ld)
{
	return l->ops->odbc_register ? l->ops->odbc_register(l, ld) : 0;
}

/* `.complete`: the fingerprint, written atomically (fp keeps its text). */
/* .complete: the fingerprint, then "identity <loader's identity>" (what the copy holds), atomically. */
static int golden_complete(const char *what, const char *path, struct strbuf *fp, const char *id)
{
	struct strbuf text;
	int ret;

	strbuf_init(&text, 0);
	strbuf_addf(&text, "%s\nidentity %s\n", fp->buf, id);
	ret = atomic_write_file(path, text.buf, text.len);
	strbuf_release(&text);
	if (ret < 0)
		log_error("%s: cannot write %s: %s", what, path, strerror(-ret));
	return ret;
}

/*
 * A .complete (its text) made for identity `id`: its fingerprint in *fp_end
 * (the first line, cut there) and true; false when it names another identity
 * or none (a copy of an earlier version, or of another workload): the copy is
 * loaded again. `held` gets what it holds, for the message.
 */
static bool golden_matches(char *text, const char *id, const char **held)
{
	char *nl = strchr(text, '\n'), *line;

	*held = "an unnamed content";
	if (!nl)
		return false;
	*nl = '\0';
	line = nl + 1;
	line[strcspn(line, "\n")] = '\0';
	if (strncmp(line, "identity ", 9))
		return false;
	*held = line + 9;
	return !strcmp(line + 9, id);
}

static int local_build_golden(struct target *t, size_t d, struct strbuf *fp)
{
	const struct target_env *env = t->env;
	struct local *l = t->priv;
	struct local_drive *ld = &l->drives[d];
	const char *what = env->drives[d].name;
	const char *user = target_setting(env, "db_user")->str;
	const char *db = env->database;
	struct strbuf p, boot, data, sql, sock, logp, id;
	struct target_endpoint ep;
	char *text = NULL;
	pid_t pid = -1;
	int ret;

	strbuf_init(&id, 0);
	strbuf_init(&p, 0);
	strbuf_init(&boot, 0);
	strbuf_init(&data, 0);
	strbuf_init(&sql, 0);
	strbuf_init(&sock, 0);
	strbuf_init(&logp, 0);
	strbuf_addf(&p, "%s/.complete", ld->golden);
	strbuf_addf(&boot, "%s/boot", ld->golden);
	strbuf_addf(&data, "%s/data", ld->golden);
	env->loader->identity(env->loader->arg, &id);
	if (read_file(p.buf, &text, NULL) == 0) {
		const char *held;
		if (golden_matches(text, id.buf, &held) && local_load_password(ld, false) == 0 && ld->password) {
			strbuf_adds(fp, text);
			ret = odbc_register(l, ld);
			ret = ret < 0 ? ret : 1;
			goto out;
		}
		if (strcmp(held, id.buf))
			log_info("%s: the golden copy holds %s, this campaign loads %s: loading it again", what, held,
				 id.buf);
	}
	/* A golden copy cut off half-way, or of other content, is rebuilt from nothing. */
	if ((ret = golden_fresh(l, ld, what, boot.buf, "unfinished")) < 0)
		goto out;
	if ((ret = local_load_password(ld, true)) < 0) {
		log_error("%s: cannot store the database password under %s: %s", what, ld->root, strerror(-ret));
		goto out;
	}
	if ((ret = odbc_register(l, ld)) < 0) {
		log_error("%s: cannot register %s in %s: %s", what, l->ops->odbc_name, ld->odbc, strerror(-ret));
		goto out;
	}
	if ((ret = local_init_datadir(l, what, boot.buf, data.buf)) < 0)
		goto out;
	ret = local_server_start(l, env, what, boot.buf, data.buf, ld->golden_port, &pid);
	if (ret < 0)
		goto out;
	golden_socket(l, boot.buf, &sock);
	/* The password travels on the client's stdin, never on a command line. */
	l->ops->setup_sql(user, ld->password, db, &sql);
	ret = local_run_sql(l, what, sock.buf, ld->golden_port, sql.buf, NULL);
	if (ret < 0)
		goto stop;
	drive_endpoint(t, d, ld->golden_port, sock.buf, &ep);
	strbuf_addf(&logp, "%s/prepare.log", boot.buf);
	if ((ret = env->loader->load(env->loader->arg, what, &ep, logp.buf)) < 0)
		goto stop;
	ret = env->loader->fingerprint(env->loader->arg, what, &ep, logp.buf, fp);
stop:
	if (local_server_stop(l, what, &pid) < 0 && ret == 0)
		ret = -EIO;
	if (ret == 0)
		ret = golden_complete(what, p.buf, fp, id.buf);
out:
	free(text);
	strbuf_release(&id);
	strbuf_release(&p);
	strbuf_release(&boot);
	strbuf_release(&data);
	strbuf_release(&sql);
	strbuf_release(&sock);
	strbuf_release(&logp);
	return ret;
}

/*
 * Drive `to`'s golden copy, a copy of drive `from`'s: the data directory
 * (FICLONE where the filesystem shares extents, else copy_file_range or a
 * plain copy), the driver user's password that lives inside it, then a
 * server on the copy for its fingerprint. `.complete` is written only when
 * the fingerprint is `expect`.
 */
static int local_clone_golden(struct target *t, size_t from, size_t to, const char *expect, struct strbuf *fp,
			      const char **how)
{
	const struct target_env *env = t->env;
	struct local *l = t->priv;
	struct local_drive *lf = &l->drives[from], *lt = &l->drives[to];
	const char *what = env->drives[to].name;
	struct strbuf done, src, tmp, data, boot, sock, logp, pw, id;
	struct target_endpoint ep;
	bool reflinked = true;
	const char *held;
	char *text = NULL;
	pid_t pid = -1;
	int ret;

	strbuf_init(&id, 0);
	strbuf_init(&done, 0);
	strbuf_init(&src, 0);
	strbuf_init(&tmp, 0);
	strbuf_init(&data, 0);
	strbuf_init(&boot, 0);
	strbuf_init(&sock, 0);
	strbuf_init(&logp, 0);
	strbuf_init(&pw, 0);
	strbuf_addf(&done, "%s/.complete", lt->golden);
	strbuf_addf(&src, "%s/data", lf->golden);
	strbuf_addf(&tmp, "%s/data.cloning", lt->golden);
	strbuf_addf(&data, "%s/data", lt->golden);
	strbuf_addf(&boot, "%s/boot", lt->golden);
	env->loader->identity(env->loader->arg, &id);
	if (read_file(done.buf, &text, NULL) == 0 && golden_matches(text, id.buf, &held) && !strcmp(text, expect) &&
	    local_load_password(lt, false) == 0 && lt->password) {
		strbuf_adds(fp, text);
		*how = "already complete";
		ret = odbc_register(l, lt);
		goto out;
	}
	if ((ret = local_load_password(lf, false)) < 0 || !lf->password) {
		log_error("%s: drive %s's golden copy has no credentials (expected it complete before it is cloned)", what,
			  env->drives[from].name);
		ret = ret < 0 ? ret : -ENOENT;
		goto out;
	}
	if ((ret = golden_fresh(l, lt, what, boot.buf, "earlier")) < 0)
		goto out;
	/* The copy's driver user has the source's password: this drive keeps it too (0600). */
	strbuf_addf(&pw, "%s\n", lf->password);
	strbuf_reset(&logp);
	strbuf_addf(&logp, "%s/.credentials", lt->root);
	if ((ret = atomic_write_file_mode(logp.buf, pw.buf, pw.len, 0600)) < 0) {
		log_error("%s: cannot store the database password under %s: %s", what, lt->root, strerror(-ret));
		goto out;
	}
	free(lt->password);
	lt->password = xstrdup(lf->password);
	if ((ret = odbc_register(l, lt)) < 0) {
		log_error("%s: cannot register %s in %s: %s", what, l->ops->odbc_name, lt->odbc, strerror(-ret));
		goto out;
	}
	ret = tree_copy(src.buf, tmp.buf, &reflinked);
	if (ret == 0)
		ret = local_own_tree(l, tmp.buf);
	if (ret == 0 && rename(tmp.buf, data.buf) < 0)
		ret = -errno;
	if (ret < 0) {
		log_error("%s: cannot copy drive %s's golden copy %s to %s: %s", what, env->drives[from].name, src.buf,
			  data.buf, strerror(-ret));
		goto out;
	}
	*how = reflinked ? "reflink" : "copy";
	if ((ret = local_server_start(l, env, what, boot.buf, data.buf, lt->golden_port, &pid)) < 0)
		goto out;
	golden_socket(l, boot.buf, &sock);
	drive_endpoint(t, to, lt->golden_port, sock.buf, &ep);
	strbuf_reset(&logp);
	strbuf_addf(&logp, "%s/check.log", boot.buf);
	ret = env->loader->fingerprint(env->loader->arg, what, &ep, logp.buf, fp);
	if (local_server_stop(l, what, &pid) < 0 && ret == 0)
		ret = -EIO;
	if (ret == 0 && !strcmp(fp->buf, expect))
		ret = golden_complete(what, done.buf, fp, id.buf);
out:
	free(text);
	strbuf_release(&id);
	strbuf_release(&done);
	strbuf_release(&src);
	strbuf_release(&tmp);
	strbuf_release(&data);
	strbuf_release(&boot);
	strbuf_release(&sock);
	strbuf_release(&logp);
	strbuf_release(&pw);
	return ret;
}

static void inst_what(struct target *t, struct target_instance *inst, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", t->env->drives[inst->drive].name, inst->name);
}

static int local_stop(struct target *t, struct target_instance *inst)
{
	struct local_inst *li;
	char what[160];
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	inst_what(t, inst, what, sizeof(what));
	ret = local_server_stop(t->priv, what, &li->pid);
	if (ret == 0)
		ret = local_wait_stale(t->priv, li->pidfile, li->data, what);
	inst->running = false;
	return ret;
}

static int local_restore(struct target *t, struct target_instance *inst)
{
	struct local *l = t->priv;
	struct local_inst *li;
	struct strbuf src, tmp;
	char what[160];
	bool reflinked = false;
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	inst_what(t, inst, what, sizeof(what));
	strbuf_init(&src, 0);
	strbuf_init(&tmp, 0);
	strbuf_addf(&src, "%s/data", l->drives[inst->drive].golden);
	strbuf_addf(&tmp, "%s/data.restoring", li->dir);
	if ((ret = local_stop(t, inst)) < 0)
		goto out;
	if (!tree_is_marked(li->dir)) {
		log_error("%s: %s is not a folder dbrig created; not restoring into it", what, li->dir);
		ret = -EPERM;
		goto out;
	}
	/* Both live inside the marked instance folder, which dbrig owns entirely. */
	ret = tree_remove_child(li->dir, "data.restoring");
	if (ret == 0)
		ret = tree_remove_child(li->dir, "data");
	if (ret < 0) {
		log_error("%s: cannot clear the under-test data in %s: %s", what, li->dir, strerror(-ret));
		goto out;
	}
	ret = tree_copy(src.buf, tmp.buf, &reflinked);
	/* The copy belongs to dbrig's user; postgres must own its data directory. */
	if (ret == 0)
		ret = local_own_tree(l, tmp.buf);
	if (ret == 0 && rename(tmp.buf, li->data) < 0)
		ret = -errno;
	if (ret < 0) {
		log_error("%s: cannot copy the golden copy %s to %s: %s", what, src.buf, li->data, strerror(-ret));
		goto out;
	}
	if (log_verbosity() >= 4)
		log_info("%s: restored from the golden copy (%s)", what, reflinked ? "reflink" : "copy");
out:
	strbuf_release(&src);
	strbuf_release(&tmp);
	return ret;
}

static int local_start(struct target *t, struct target_instance *inst)
{
	struct local_inst *li;
	char what[160];
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	inst_what(t, inst, what, sizeof(what));
	if (li->pid > 0)
		return 0;
	if ((ret = local_load_password(&((struct local *)t->priv)->drives[inst->drive], false)) < 0 ||
	    !((struct local *)t->priv)->drives[inst->drive].password) {
		log_error("%s: the drive's golden copy has no credentials yet (expected build_golden first)", what);
		return ret < 0 ? ret : -ENOENT;
	}
	ret = local_server_start(t->priv, t->env, what, li->boot, li->data, li->port, &li->pid);
	inst->running = ret == 0;
	return ret;
}

static int local_endpoint(struct target *t, struct target_instance *inst, struct target_endpoint *ep)
{
	struct local_inst *li;

	local_inst_paths(t, inst);
	li = inst->priv;
	drive_endpoint(t, inst->drive, li->port, li->sock, ep);
	return ep->password ? 0 : -ENOENT;
}

static int local_verify(struct target *t, struct target_instance *inst, struct strbuf *fp)
{
	struct local_inst *li;
	struct target_endpoint ep;
	struct strbuf log;
	char what[160];
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	inst_what(t, inst, what, sizeof(what));
	if ((ret = local_endpoint(t, inst, &ep)) < 0)
		return ret;
	strbuf_init(&log, 0);
	strbuf_addf(&log, "%s/check.log", li->boot);
	ret = t->env->loader->fingerprint(t->env->loader->arg, what, &ep, log.buf, fp);
	strbuf_release(&log);
	return ret;
}

static int local_destroy(struct target *t, struct target_instance *inst)
{
	struct local *l = t->priv;
	struct local_inst *li;
	char what[160];
	int ret;

	local_inst_paths(t, inst);
	li = inst->priv;
	inst_what(t, inst, what, sizeof(what));
	if ((ret = local_stop(t, inst)) < 0)
		return ret;
	bool was = access(li->dir, F_OK) == 0;
	ret = tree_remove_marked(li->dir);
	if (ret < 0) {
		log_error("%s: cannot remove %s: %s", what, li->dir, strerror(-ret));
		return ret;
	}
	inst->created = false;
	/* The golden copy and the campaign folder go with the drive's last instance. */
	struct local_drive *ld = &l->drives[inst->drive];
	unsigned left = 0;
	unsigned need = t->env->instances[inst->drive];
	for (unsigned k = 1; k <= need; k++) {
		struct strbuf sb;
		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "%s/vm%u", ld->root, k);
		left += access(sb.buf, F_OK) == 0;
		strbuf_release(&sb);
	}
	if (!left) {
		ret = tree_remove_marked(ld->root);
		if (ret < 0)
			log_error("%s: cannot remove %s: %s", what, ld->root, strerror(-ret));
	}
	return ret < 0 ? ret : was ? TARGET_REMOVED : TARGET_ABSENT;
}

static void local_cleanup(struct target *t)
{
	struct local *l = t->priv;

	if (!l)
		return;
	free(l->server);
	free(l->installdb);
	free(l->client);
	free(l->isready);
	free(l->setpriv);
	free(l->odbc_lib);
	for (size_t d = 0; d < l->ndrives; d++) {
		free(l->drives[d].root);
		free(l->drives[d].golden);
		free(l->drives[d].odbc);
		free(l->drives[d].password);
	}
	free(l->drives);
	free(l);
	t->priv = NULL;
}

/* The sampler reads the data directory's block devices and the server's CPU. */
static int local_telemetry(struct target *t, struct target_instance *inst, struct target_telemetry *out)
{
	struct local_inst *li;

	local_inst_paths(t, inst);
	li = inst->priv;
	*out = (struct target_telemetry){.drive_path = li->data, .server_pid = li->pid > 0 ? li->pid : 0};
	return 0;
}

/* A provision that failed half-way: remove the folders this process created, newest first. */
static int local_rollback(struct target *t, struct target_instance *insts, size_t n)
{
	struct local *l = t->priv;
	int ret = 0;

	for (size_t i = n; i-- > 0;) {
		struct local_inst *li = insts[i].priv;
		if (!li || !li->made)
			continue;
		if (tree_remove_marked(li->dir) < 0) {
			log_error("%s/%s: cannot remove %s", t->env->drives[insts[i].drive].name, insts[i].name, li->dir);
			ret = -EIO;
		}
		li->made = false;
		insts[i].created = false;
	}
	for (size_t d = 0; d < l->ndrives; d++) {
		if (!l->drives[d].made_root)
			continue;
		if (tree_remove_marked(l->drives[d].root) < 0) {
			log_error("%s: cannot remove %s", t->env->drives[d].name, l->drives[d].root);
			ret = -EIO;
		}
		l->drives[d].made_root = false;
	}
	return ret;
}

static void local_release(struct target *t, struct target_instance *inst)
{
	(void)t;
	inst_free(inst->priv);
	inst->priv = NULL;
}

const struct target_ops target_local_ops = {
	.name = "local",
	.summary = "mariadbd or postgres processes on 127.0.0.1, one data directory per instance on each drive",
	.options = local_options,
	.init = local_init,
	.validate = local_validate,
	.plan = local_plan,
	.preflight = local_preflight,
	.create = local_create,
	.build_golden = local_build_golden,
	.clone_golden = local_clone_golden,
	.restore = local_restore,
	.start = local_start,
	.endpoint = local_endpoint,
	.verify = local_verify,
	.stop = local_stop,
	.destroy = local_destroy,
	.rollback = local_rollback,
	.telemetry = local_telemetry,
	.release = local_release,
	.cleanup = local_cleanup,
};
