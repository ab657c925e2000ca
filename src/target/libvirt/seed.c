/* The variables of a VM's cloud-init seed, from the campaign: engine packages, server options, the driver's user. */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/strbuf.h"

#include <string.h>

static void engine_packages(const struct target_env *env, struct strbuf *sb)
{
	strbuf_addf(sb, "%s qemu-guest-agent", env->engine->guest_packages);
}

int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud,
		       struct strbuf *md, struct strbuf *sh)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct strbuf host, pk, so;
	int ret;

	strbuf_init(&host, 0);
	strbuf_init(&pk, 0);
	strbuf_init(&so, 0);
	strbuf_addf(&host, "%.50s-%s", env->drives[inst->drive].name, inst->name);
	for (char *p = host.buf; *p; p++)
		if (*p == '.' || *p == '_')
			*p = '-';
	engine_packages(env, &pk);
	for (size_t i = 0; i < env->nserver_options; i++)
		strbuf_addf(&so, "%s = %s\n", env->server_options[i].key, env->server_options[i].value);
	struct vm_seed s = {
		.name = li->dom,
		.hostname = host.buf,
		.campaign = env->name,
		.drive = env->drives[inst->drive].name,
		.instance = inst->name,
		.packages = strcmp(lv_setting_str(env, "guest_packages"), "preinstalled") ? pk.buf : NULL,
		.ssh_key = lv_setting_str(env, "ssh_key"),
		.db_user = lv_setting_str(env, "db_user"),
		.db_password = mask ? "********" : lv_setting_str(env, "db_password"),
		.db_port = (unsigned)lv_setting_num(env, "db_port"),
		.buffer_pool = env->buffer_pool,
		.server_options = so.buf,
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md, sh);
	strbuf_release(&host);
	strbuf_release(&pk);
	strbuf_release(&so);
	return ret;
}
