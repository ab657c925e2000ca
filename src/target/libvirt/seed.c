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
		goto done;
	}
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
	char client[2 * INET_ADDRSTRLEN], mac[18];
	int ret;

	if (!mask && (ret = lv_db_password(t, false, &pw)) < 0)
		return ret;
	if (dc && lv_client_host(dc, client, sizeof(client)) < 0)
		return -EINVAL;
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
		.packages = strcmp(lv_setting_str(env, "guest_packages"), "preinstalled") ? pk.buf : NULL,
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
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md);
	strbuf_release(&host);
	strbuf_release(&pk);
	return ret;
}
