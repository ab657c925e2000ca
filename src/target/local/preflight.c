/* The local target's checks: validate (the config, statically), --plan's sizing and preflight (this
 * machine; changes nothing). */
#include "target/local/local.h"

#include "db/engine.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/sysstat.h"
#include "core/tree.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the engines' programs are looked for after PATH. */
const char *const local_server_dirs[] = {"/usr/sbin", "/usr/local/sbin", NULL};
const char *const local_bin_dirs[] = {"/usr/bin", "/usr/local/bin", NULL};

/*
 * The reserved option (of o->reserved) a config key stands for, or NULL. mariadbd reads
 * "loose_bind_address", "Bind-Address" and the unique abbreviation
 * "bind-addr" as bind-address (the instance would then listen on every
 * address), so a key is compared in lower case with '-'
 * for '_', without the prefixes my_getopt strips (loose-, skip-, enable-,
 * disable-, maximum-, autoset-), and also refused when it abbreviates a
 * reserved name (an abbreviation that ends at a '-' of the name, such as
 * "innodb" or "log", is an option of its own and passes). postgres GUC names
 * are case-insensitive and never abbreviated. Whatever passes, dbrig's own
 * values still come after the config's on the command line, so they win.
 */
static const char *reserved_option(const char *key, const struct local_server_ops *o)
{
	static const char *const prefixes[] = {"loose-", "skip-", "enable-", "disable-", "maximum-", "autoset-", NULL};
	char k[128], r[128];
	size_t n;

	snprintf(k, sizeof(k), "%s", key);
	for (char *p = k; *p; p++)
		*p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	for (bool again = o->getopt; again;) {
		again = false;
		for (const char *const *p = prefixes; *p; p++) {
			size_t pl = strlen(*p);
			if (!strncmp(k, *p, pl)) {
				memmove(k, k + pl, strlen(k + pl) + 1);
				again = true;
			}
		}
	}
	n = strlen(k);
	for (const char *const *res = o->reserved; *res; res++) {
		snprintf(r, sizeof(r), "%s", o->getopt && !strncmp(*res, "skip-", 5) ? *res + 5 : *res);
		if (!strcmp(k, r))
			return *res;
		if (o->getopt && n >= 3 && !strncmp(r, k, n) && r[n] != '-')
			return *res;
	}
	return NULL;
}

/*
 * db_user goes into setup SQL run as root and into ODBC connection strings:
 * only [A-Za-z_][A-Za-z0-9_]{0,31} (a quote in it could run arbitrary SQL as
 * root, or break the campaign with an unclear error).
 */
static bool user_name_ok(const char *u)
{
	size_t n = strlen(u);

	if (n < 1 || n > 32 || (u[0] >= '0' && u[0] <= '9'))
		return false;
	for (const char *p = u; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

/*
 * The folder a drive path names, absolute and normalised: "." and empty
 * components dropped, ".." applied, and the longest existing prefix resolved
 * through realpath (links, "x/./x/"), the rest kept as written.
 */
static char *canonical(const char *path)
{
	char *abs = local_absolute(path), *save = NULL, *tok, *real;
	struct strbuf norm, sb;

	strbuf_init(&norm, 0);
	for (tok = strtok_r(abs, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			char *slash = strrchr(norm.buf, '/');
			if (slash) {
				norm.len = (size_t)(slash - norm.buf);
				norm.buf[norm.len] = '\0';
			}
			continue;
		}
		strbuf_addf(&norm, "/%s", tok);
	}
	free(abs);
	if (!norm.len)
		strbuf_addc(&norm, '/');
	strbuf_init(&sb, 0);
	for (size_t cut = norm.len; cut > 0; cut--) {
		if (cut < norm.len && norm.buf[cut] != '/')
			continue;
		strbuf_reset(&sb);
		strbuf_add(&sb, norm.buf, cut);
		if ((real = realpath(sb.buf, NULL))) {
			strbuf_reset(&sb);
			strbuf_adds(&sb, strcmp(real, "/") ? real : "");
			strbuf_adds(&sb, norm.buf + cut);
			free(real);
			strbuf_release(&norm);
			return strbuf_detach(&sb);
		}
	}
	strbuf_release(&sb);
	return strbuf_detach(&norm);
}

/*
 * Two drives on one folder would share their golden copy and instance folders
 * and stop each other's servers (a 10-minute hang).
 */
static int distinct_drives(const struct target_env *env)
{
	char **c = xcalloc(env->ndrives + 1, sizeof(*c));
	char jp[64];
	int ret = 0;

	for (size_t d = 0; d < env->ndrives && ret == 0; d++) {
		struct stat sd, se;
		c[d] = canonical(env->drives[d].path);
		for (size_t e = 0; e < d && ret == 0; e++) {
			bool same = !strcmp(c[d], c[e]) || (stat(c[d], &sd) == 0 && stat(c[e], &se) == 0 &&
							     sd.st_dev == se.st_dev && sd.st_ino == se.st_ino);
			if (!same)
				continue;
			snprintf(jp, sizeof(jp), ".drives[%zu].path", d);
			target_env_error(env, jp, "\"%s\" is the same folder as .drives[%zu].path \"%s\" (expected "
					      "a folder of its own for every drive)", env->drives[d].path, e, env->drives[e].path);
			ret = -EINVAL;
		}
	}
	for (size_t d = 0; d < env->ndrives; d++)
		free(c[d]);
	free(c);
	return ret;
}

/* Whether this target starts servers of e for env (postgres for TPC-C only: sysbench speaks MySQL only). */
static bool local_runs(const struct target_env *env, const struct db_engine *e)
{
	return local_server_ops_of(e) && (!env->mysql_only || e->protocol == DB_PROTO_MYSQL);
}

int local_validate(const struct target_env *env)
{
	const bool create = target_setting(env, "create_drive_dirs")->num;
	char jp[96];
	struct strbuf sb;
	int ret = -EINVAL;

	const struct local_server_ops *ops = local_server_ops_of(env->engine);

	strbuf_init(&sb, 0);
	if (!local_runs(env, env->engine)) {
		size_t n = 0, k = 0;
		for (const struct local_server_ops *const *o = local_servers; *o; o++)
			n += local_runs(env, (*o)->engine);
		for (const struct local_server_ops *const *o = local_servers; *o; o++)
			if (local_runs(env, (*o)->engine))
				strbuf_addf(&sb, "%s%s", k++ == 0 ? "" : k == n ? " or " : ", ", (*o)->engine->name);
		target_env_error(env, ".engine.kind",
				      "\"%s\" is not available on the local target (expected %s; %s runs on the "
				      "libvirt target)", env->engine->name, sb.buf, env->engine->name);
		goto out;
	}
	if (!user_name_ok(target_setting(env, "db_user")->str)) {
		target_env_error(env, ".target.db_user", "\"%s\" is not a database user name (expected 1 to 32 "
				      "letters, digits or '_', starting with a letter or '_')",
				      target_setting(env, "db_user")->str);
		goto out;
	}
	for (size_t i = 0; i < env->nserver_options; i++) {
		const char *r = reserved_option(env->server_options[i].key, ops);
		if (r) {
			snprintf(jp, sizeof(jp), ".engine.server_options.%s", env->server_options[i].key);
			target_env_error(env, jp, "is (or abbreviates) %s, which the local target sets for every "
					      "instance (use .engine.buffer_pool for the %s)", r,
					      ops->pool);
			goto out;
		}
	}
	{
		/* Instances take base_port + k, then one golden-copy server per drive. */
		unsigned long long base = (unsigned long long)target_setting(env, "base_port")->num, ninst = 0;
		for (size_t d = 0; d < env->ndrives; d++)
			ninst += env->instances[d];
		if (base + ninst + env->ndrives - 1 > 65535) {
			target_env_error(env, ".target.base_port",
					      "%llu leaves too few ports: %llu instances and %zu golden-copy servers would use "
					      "ports up to %llu (expected at most 65535)",
					      base, ninst, env->ndrives, base + ninst + env->ndrives - 1);
			goto out;
		}
	}
	for (size_t d = 0; d < env->ndrives; d++) {
		const struct target_drive *dr = &env->drives[d];
		struct stat st;

		if (!dr->path) {
			snprintf(jp, sizeof(jp), ".drives[%zu].pool", d);
			target_env_error(env, jp, "\"%s\" is a storage pool, which the local target cannot use "
					      "(expected \"path\": a directory on the drive)", dr->pool);
			goto out;
		}
		snprintf(jp, sizeof(jp), ".drives[%zu].path", d);
		if (stat(dr->path, &st) < 0) {
			if (errno == ENOENT && create)
				goto sockcheck;
			target_env_error(env, jp, "\"%s\" %s (expected a directory on the drive under test%s)", dr->path,
					      errno == ENOENT ? "does not exist" : strerror(errno),
					      errno == ENOENT ? ", or .target.create_drive_dirs: true" : "");
			goto out;
		}
		if (!S_ISDIR(st.st_mode)) {
			target_env_error(env, jp, "\"%s\" is not a directory", dr->path);
			goto out;
		}
		if (access(dr->path, W_OK | X_OK) < 0) {
			target_env_error(env, jp, "\"%s\" is not writable (expected a directory dbrig can create its folder in)",
					      dr->path);
			goto out;
		}
sockcheck:
		strbuf_reset(&sb);
		local_drive_root(env, d, &sb);
		/* The longest socket: <root>/golden/boot/mysqld.sock or .s.PGSQL.65535 */
		strbuf_adds(&sb, ops->longest_socket);
		if (sb.len > SOCKET_MAX) {
			target_env_error(env, jp, "\"%s\" is too long for the unix sockets inside it (%s has %zu "
					      "characters, expected at most %d)", dr->path, sb.buf, sb.len, SOCKET_MAX);
			goto out;
		}
	}
	ret = distinct_drives(env);
out:
	strbuf_release(&sb);
	return ret;
}

static bool port_free(unsigned port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	/* As mariadbd binds: connections in TIME_WAIT do not make a port busy. */
	int one = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0) {
		close(fd);
		return false;
	}
	ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

/* "132.6 MiB", "1.5 GiB": MiB below a GiB, one decimal. */
static void size_text(uint64_t b, char *buf, size_t n)
{
	bool g = b >= UINT64_C(1) << 30;

	snprintf(buf, n, "%.1f %s", (double)b / (double)(UINT64_C(1) << (g ? 30 : 20)), g ? "GiB" : "MiB");
}

/* Drive d's data directories: its golden copy and one per instance. */
static uint64_t drive_needs(const struct target_env *env, size_t d)
{
	return env->instances[d] ? (env->instances[d] + UINT64_C(1)) * env->data_bytes : 0;
}

/* --plan: the sizing of every drive, and whether the telemetry can see the servers wait on
 * block I/O (the storage-path verdict, docs/reading-reports.md; dbrig never sets the sysctl). */
void local_plan(const struct target_env *env, FILE *out)
{
	char a[32], b[32];

	fprintf(out, "  waiting   the servers' block-I/O wait: %s\n",
		sysstat_delayacct_on(NULL) == 1
			? "delay accounting"
			: "delay accounting is off (kernel.task_delayacct): the storage-path verdict cannot see it; "
			  "enable it with sysctl kernel.task_delayacct=1");

	size_text(env->data_bytes, a, sizeof(a));
	fprintf(out, "  sizing    per data directory: %s once loaded (estimated from the workload's rows)\n", a);
	for (size_t d = 0; d < env->ndrives; d++) {
		uint64_t fr = 0;
		int err;
		if (!env->instances[d])
			continue;
		err = target_path_free(env->drives[d].path, &fr);
		size_text(drive_needs(env, d), a, sizeof(a));
		size_text(fr, b, sizeof(b));
		fprintf(out, "            drive %s: golden copy + %u instance(s) = %s once loaded; free there: %s%s%s\n",
			env->drives[d].name, env->instances[d], a, err < 0 ? "not known (" : b,
			err < 0 ? strerror(-err) : "", err < 0 ? ")" : drive_needs(env, d) > fr ? "  DOES NOT FIT" : "");
	}
}

/* Drives whose data directories will not fit (a campaign folder already there, a resume, is not counted again). */
static int check_space(const struct target_env *env, const struct local *l)
{
	for (size_t d = 0; d < env->ndrives; d++) {
		uint64_t fr, need = drive_needs(env, d);
		char a[32], b[32];
		if (!need || access(l->drives[d].root, F_OK) == 0 || target_path_free(env->drives[d].path, &fr) < 0 ||
		    fr >= need)
			continue;
		size_text(need, a, sizeof(a));
		size_text(fr, b, sizeof(b));
		log_error("%s: drive %s: its golden copy and %u instance(s) need %s once loaded and %s has %s free "
			  "(expected a larger drive, fewer instances or fewer rows)", env->file, env->drives[d].name,
			  env->instances[d], a, env->drives[d].path, b);
		return -ENOSPC;
	}
	return 0;
}

int local_preflight(struct target *t, struct target_instance *insts, size_t n)
{
	const struct target_env *env = t->env;
	struct local *l = t->priv;
	struct strbuf sb;
	int ret = -ENOENT;

	strbuf_init(&sb, 0);
	if ((ret = l->ops->find_programs(t)) < 0)
		goto out;
	ret = -EINVAL;
	for (size_t d = 0; d < l->ndrives; d++) {
		struct stat st;
		char jp[64];

		snprintf(jp, sizeof(jp), ".drives[%zu].path", d);
		if (stat(l->drives[d].root, &st) == 0 && !tree_is_marked(l->drives[d].root)) {
			target_env_error(env, jp, "\"%s\" already exists and was not created by dbrig (expected to "
					      "create it; move it away or rename the campaign)", l->drives[d].root);
			goto out;
		}
		struct strbuf data;
		strbuf_init(&data, 0);
		strbuf_addf(&data, "%s/data", l->drives[d].golden);
		strbuf_reset(&sb);
		struct strbuf boot;
		strbuf_init(&boot, 0);
		strbuf_addf(&boot, "%s/boot", l->drives[d].golden);
		l->ops->pidfile(boot.buf, data.buf, &sb);
		strbuf_release(&boot);
		ret = local_wait_stale(l, sb.buf, data.buf, env->drives[d].name);
		strbuf_release(&data);
		if (ret < 0)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		local_inst_paths(t, &insts[i]);
		struct local_inst *li = insts[i].priv;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/%s", env->drives[insts[i].drive].name, insts[i].name);
		if ((ret = local_wait_stale(l, li->pidfile, li->data, sb.buf)) < 0)
			goto out;
	}
	ret = -EADDRINUSE;
	for (size_t i = 0; i < n + l->ndrives; i++) {
		unsigned port = i < n ? ((struct local_inst *)insts[i].priv)->port : l->drives[i - n].golden_port;
		if (!port_free(port)) {
			log_error("%s: port %u on 127.0.0.1 is in use (expected it free for %s; choose another "
				  ".target.base_port)", env->file, port,
				  i < n ? insts[i].name : "a golden-copy server");
			goto out;
		}
	}
	ret = 0;
	/* What the campaign's servers need of the drives: status and teardown go on whatever they are. */
	if (t->will_boot && !t->dry_run &&
	    ((ret = target_check_devices(env, target_setting(env, "allow_shared_device")->num, NULL)) < 0 ||
	     (ret = check_space(env, l)) < 0))
		goto out;
out:
	strbuf_release(&sb);
	return ret;
}
