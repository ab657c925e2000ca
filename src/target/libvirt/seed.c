/* The variables of a VM's cloud-init seed, from the campaign: engine packages, server options, the driver's user. */
#include "target/libvirt/libvirt.h"

#include "campaign/config.h"
#include "core/strbuf.h"

#include <string.h>

static void engine_packages(const struct campaign_config *cfg, struct strbuf *sb)
{
	switch (cfg->engine) {
	case ENGINE_MARIADB:
		strbuf_adds(sb, "mariadb-server");
		break;
	case ENGINE_PERCONA:
		strbuf_adds(sb, "percona-server-server");
		break;
	case ENGINE_MYSQL:
		strbuf_adds(sb, "mysql-server");
		break;
	case ENGINE_POSTGRESQL:
		strbuf_adds(sb, "postgresql");
		break;
	case ENGINE_SQLSERVER:
		strbuf_adds(sb, "mssql-server mssql-tools18");
		break;
	}
	strbuf_adds(sb, " qemu-guest-agent");
}

int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud,
		       struct strbuf *md)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct strbuf host, pk;
	int ret;

	strbuf_init(&host, 0);
	strbuf_init(&pk, 0);
	strbuf_addf(&host, "%.50s-%s", cfg->drives[inst->drive].name, inst->name);
	for (char *p = host.buf; *p; p++)
		if (*p == '.' || *p == '_')
			*p = '-';
	engine_packages(cfg, &pk);
	struct vm_seed s = {
		.name = li->dom,
		.hostname = host.buf,
		.packages = strcmp(lv_setting_str(cfg, "guest_packages"), "preinstalled") ? pk.buf : NULL,
		.ssh_key = lv_setting_str(cfg, "ssh_key"),
		.db_user = lv_setting_str(cfg, "db_user"),
		.db_password = mask ? VM_MASKED_PASSWORD : lv_setting_str(cfg, "db_password"),
		.db_port = (unsigned)lv_setting_num(cfg, "db_port"),
		.buffer_pool = cfg->buffer_pool,
		.options = cfg->server_options,
		.noptions = cfg->nserver_options,
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md);
	strbuf_release(&host);
	strbuf_release(&pk);
	return ret;
}
