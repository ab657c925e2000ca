/*
 * The variables of a VM's cloud-init seed, from the campaign: engine packages,
 * server options, the driver's user, its client address, and its password (the
 * configured one, or the campaign's generated one, kept 0600 beside its results).
 */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

static void engine_packages(const struct target_env *env, struct strbuf *sb)
{
	strbuf_addf(sb, "%s qemu-guest-agent", env->engine->guest_packages);
}

/* 24 random letters and digits with at least one of each kind (SQL Server's SA policy wants three kinds). */
static int generate_password(char out[25])
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char raw[64];

	for (;;) {
		size_t n = 0;
		bool up = false, low = false, dig = false;
		if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
			return -EIO;
		for (size_t i = 0; i < sizeof(raw) && n < 24; i++)
			if (raw[i] < 248) /* 248 = 4 * 62: no bias */
				out[n++] = a[raw[i] % 62];
		out[n] = '\0';
		for (size_t i = 0; i < n; i++) {
			up = up || (out[i] >= 'A' && out[i] <= 'Z');
			low = low || (out[i] >= 'a' && out[i] <= 'z');
			dig = dig || (out[i] >= '0' && out[i] <= '9');
		}
		if (n == 24 && up && low && dig)
			return 0;
	}
}

/*
 * The drivers' password: .target.db_password, else the one generated for the
 * campaign at its first provision, kept 0600 in <output>/<campaign>/
 * LV_CREDENTIALS (the local target keeps its own per drive the same way).
 * `create`: generate and store it when there is none yet. 0, -ENOENT (none,
 * not created; printed), or another negative errno (printed).
 */
/* The password read from where earlier versions kept it, written where it lives now (0600). */
static int keep_in_place(const struct target_env *env, const char *pw)
{
	struct strbuf path, line;
	struct stat st;
	int ret = 0;

	strbuf_init(&path, 0);
	strbuf_init(&line, 0);
	lv_campaign_file(env, LV_CREDENTIALS, &path);
	if (stat(path.buf, &st) < 0 && errno == ENOENT) {
		strbuf_addf(&line, "%s\n", pw);
		if ((ret = lv_store_campaign_file(path.buf, line.buf, 0600)) < 0)
			log_error("%s: cannot store the drivers' password: %s", path.buf, strerror(-ret));
	}
	strbuf_release(&path);
	strbuf_release(&line);
	return ret;
}

/*
 * .target.guest_apt_key's text into *out (malloc'd): an ASCII-armored OpenPGP public key,
 * printable ASCII and newlines, under 64 KiB. A dry run (`mask`) shows a placeholder for a
 * key this machine does not have yet (a warning); provision refuses it (an error).
 */
/* A file the user wrote into *text (NUL-terminated, *len bytes): NULL, or why not (text NULL). */
static const char *read_user_file(const char *path, char **text, size_t *len)
{
	int ret;

	*text = NULL;
	*len = 0;
	ret = read_file(path, text, len);
	return ret < 0 ? strerror(-ret) : NULL;
}

static int read_apt_key(const char *path, bool mask, char **out)
{
	static const char head[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
	char *text;
	size_t len;
	const char *why = read_user_file(path, &text, &len);

	if (!why && (len > 65536 || strncmp(text, head, sizeof(head) - 1)))
		why = "not an ASCII-armored public key";
	for (size_t i = 0; !why && i < len; i++)
		if ((text[i] < ' ' || text[i] > '~') && text[i] != '\n' && text[i] != '\r')
			why = "not an ASCII-armored public key";
	if (!why) {
		*out = text;
		return 0;
	}
	free(text);
	if (!mask) {
		log_error(".target.guest_apt_key: %s: %s (expected the vendor's ASCII-armored apt signing key, \"%s\" "
			  "at its start)", path, why, head);
		return -EINVAL;
	}
	log_warn(".target.guest_apt_key: %s: %s; the dry run shows a placeholder, provision will refuse it", path, why);
	*out = xstrdup("(the key in .target.guest_apt_key, unreadable on this machine)");
	return 0;
}

const char *lv_any_domain(struct target *t)
{
	struct lv *lv = t->priv;

	for (size_t i = 0; i < lv->ninsts; i++) {
		struct target_instance *inst = &lv->insts[i];
		struct lv_inst *li = lv_inst_priv(t, inst);
		virConnectPtr conn = lv_conn(t, inst->drive);
		virDomainPtr dom = conn ? virDomainLookupByName(conn, li->dom) : NULL;
		if (!dom)
			continue;
		virDomainFree(dom);
		return li->dom;
	}
	return NULL;
}

/* 0 when no domain of the campaign's instances exists; -EEXIST after one line naming one. */
static int no_domain_yet(struct target *t, const char *path)
{
	const char *dom = lv_any_domain(t);

	if (!dom)
		return 0;
	log_error("%s: the drivers' password is missing, but domain %s of campaign %s exists and its seed sets "
		  "that password; dbrig will not make another (expected the file back from the earlier results "
		  "folder, .target.db_password set to it, or dbrig teardown first)", path, dom, t->env->name);
	return -EEXIST;
}

/*
 * .target.db_password_file: its one line (a trailing newline dropped) into *out
 * (malloc'd), when the file is the user's own and nobody else's to read, and the
 * line is a password of db_password's grammar. 0, or -EINVAL after one line.
 */
static int read_password_file(const char *path, char **out)
{
	struct stat st;
	char *text;
	size_t len;
	const char *why = read_user_file(path, &text, &len);

	if (!why && (stat(path, &st) < 0 || (st.st_mode & 077)))
		why = "readable or writable by others than its owner (expected mode 0600 or stricter)";
	else if (!why) {
		if (len && text[len - 1] == '\n')
			text[--len] = '\0';
		if (strlen(text) != len || len < 12 || len > 128 || !lv_safe_word(text))
			why = "not one line of 12 to 128 letters, digits and ._+-=@%:,~";
	}
	if (why) {
		log_error(".target.db_password_file: %s: %s", path, why);
		free(text);
		return -EINVAL;
	}
	*out = text;
	return 0;
}

int lv_db_password(struct target *t, bool create, const char **out)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct strbuf path;
	char *text = NULL, pw[25];
	int ret;

	*out = lv_setting_str(env, "db_password");
	if (*out)
		return 0;
	if (lv->password) {
		*out = lv->password;
		return 0;
	}
	if ((*out = lv_setting_str(env, "db_password_file"))) {
		if ((ret = read_password_file(*out, &lv->password)) < 0)
			return ret;
		*out = lv->password;
		return 0;
	}
	strbuf_init(&path, 0);
	ret = lv_read_campaign_file(env, LV_CREDENTIALS, &path, &text);
	if (ret == 0) {
		if (strlen(text) < 12 || !lv_safe_word(text)) {
			log_error("%s: not a password dbrig wrote (expected 12 or more letters and digits)", path.buf);
			ret = -EINVAL;
			goto out;
		}
		lv->password = text;
		text = NULL;
		if (create && (ret = keep_in_place(env, lv->password)) < 0)
			goto out;
		goto done;
	}
	/* Never a second password while a VM of the campaign exists: its seed sets the first one at every
	 * boot, and the drivers could no longer log in. */
	if (ret == -ENOENT && create && (ret = no_domain_yet(t, path.buf)) < 0)
		goto out;
	if (ret == 0)
		ret = -ENOENT;
	if (ret != -ENOENT || !create) {
		log_error("%s: cannot read the drivers' password: %s (it is written when dbrig provision makes the VMs; "
			  "provision with this campaign's output folder, or set .target.db_password)", path.buf,
			  strerror(-ret));
		goto out;
	}
	if ((ret = generate_password(pw)) < 0) {
		log_error("cannot generate a password: %s", strerror(-ret));
		goto out;
	}
	{
		char line[27];
		snprintf(line, sizeof(line), "%s\n", pw);
		ret = lv_store_campaign_file(path.buf, line, 0600);
	}
	if (ret < 0) {
		log_error("%s: cannot store the drivers' password: %s", path.buf, strerror(-ret));
		goto out;
	}
	log_info("generated the drivers' password for campaign %s, kept in %s (mode 0600)", env->name, path.buf);
	lv->password = xstrdup(pw);
	lv->pw_created = true;
done:
	*out = lv->password;
	ret = 0;
out:
	free(text);
	strbuf_release(&path);
	return ret;
}

int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud,
		       struct strbuf *md)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct strbuf host, pk;
	const char *pw = VM_MASKED_PASSWORD, *dc = lv_setting_str(env, "db_client");
	const char *key_path = lv_setting_str(env, "guest_apt_key");
	bool install = strcmp(lv_setting_str(env, "guest_packages"), "preinstalled");
	char *key = NULL, recovery[16] = "";
	const char *rec = lv_setting_str(env, "sqlserver_recovery") ? lv_setting_str(env, "sqlserver_recovery") : "simple";
	char client[2 * INET_ADDRSTRLEN], mac[18];
	int ret;

	if (!mask && (ret = lv_db_password(t, false, &pw)) < 0)
		return ret;
	if (dc && lv_client_host(dc, client, sizeof(client)) < 0)
		return -EINVAL;
	if (install && key_path && env->engine->guest_apt_sources && (ret = read_apt_key(key_path, mask, &key)) < 0)
		return ret;
	for (size_t i = 0; i < sizeof(recovery) - 1 && rec[i]; i++)
		recovery[i] = (char)(rec[i] == '_' ? '_' : rec[i] - 'a' + 'A');
	vm_mac(env->name, inst->index, mac);
	strbuf_init(&host, 0);
	strbuf_init(&pk, 0);
	strbuf_addf(&host, "%.50s-%s", env->drives[inst->drive].name, inst->name);
	for (char *p = host.buf; *p; p++)
		if (*p == '.' || *p == '_')
			*p = '-';
	engine_packages(env, &pk);
	struct vm_seed s = {
		.name = li->dom,
		.hostname = host.buf,
		.packages = install ? pk.buf : NULL,
		.apt_sources = key ? env->engine->guest_apt_sources : NULL,
		.apt_key = key,
		.debconf = key ? env->engine->guest_debconf : NULL,
		.ssh_key = lv_setting_str(env, "ssh_key"),
		.db_user = lv_setting_str(env, "db_user"),
		.db_name = env->database,
		.db_password = pw,
		.db_client = dc ? client : NULL,
		.mac = mac,
		.db_port = lv_db_port(env),
		.buffer_pool = env->buffer_pool,
		.options = env->server_options,
		.noptions = env->nserver_options,
		.data_size = lv_setting_num(env, "sqlserver_data_size"),
		.log_size = lv_setting_num(env, "sqlserver_log_size"),
		.recovery = env->engine->protocol == DB_PROTO_TDS ? recovery : NULL,
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md);
	free(key);
	strbuf_release(&host);
	strbuf_release(&pk);
	return ret;
}
