/* The variables of a VM's cloud-init seed, from the campaign: engine packages, server options, the driver's user. */
#include "target/libvirt/libvirt.h"

#include "campaign/config.h"
#include "core/strbuf.h"

#include <string.h>

static void engine_packages(const struct campaign_config *cfg, struct strbuf *sb)
{
	strbuf_addf(sb, "%s qemu-guest-agent", cfg->engine->guest_packages);
}

int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud,
		       struct strbuf *md, struct strbuf *sh)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct strbuf host, pk, so;
	int ret;

	strbuf_init(&host, 0);
	strbuf_init(&pk, 0);
	strbuf_init(&so, 0);
	strbuf_addf(&host, "%.50s-%s", cfg->drives[inst->drive].name, inst->name);
	for (char *p = host.buf; *p; p++)
		if (*p == '.' || *p == '_')
			*p = '-';
	engine_packages(cfg, &pk);
	for (size_t i = 0; i < cfg->nserver_options; i++)
		strbuf_addf(&so, "%s = %s\n", cfg->server_options[i].key, cfg->server_options[i].value);
	struct vm_seed s = {
		.name = li->dom,
		.hostname = host.buf,
		.campaign = cfg->name,
		.drive = cfg->drives[inst->drive].name,
		.instance = inst->name,
		.packages = strcmp(lv_setting_str(cfg, "guest_packages"), "preinstalled") ? pk.buf : NULL,
		.ssh_key = lv_setting_str(cfg, "ssh_key"),
		.db_user = lv_setting_str(cfg, "db_user"),
		.db_password = mask ? "********" : lv_setting_str(cfg, "db_password"),
		.db_port = (unsigned)lv_setting_num(cfg, "db_port"),
		.buffer_pool = cfg->buffer_pool,
		.server_options = so.buf,
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md, sh);
	strbuf_release(&host);
	strbuf_release(&pk);
	strbuf_release(&so);
	return ret;
}
