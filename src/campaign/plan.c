#include "campaign/plan.h"

#include "core/strbuf.h"
#include "core/units.h"
#include "db/engine.h"
#include "workload/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan *plan_make(const struct campaign_config *cfg)
{
	struct plan *p = xcalloc(1, sizeof(*p));
	struct strbuf sb;
	size_t n = 0;

	for (size_t d = 0; d < cfg->ndrives; d++)
		n += campaign_drive_instances(cfg, d);
	p->insts = xcalloc(n, sizeof(*p->insts));
	strbuf_init(&sb, 0);
	for (size_t d = 0; d < cfg->ndrives; d++) {
		for (unsigned k = 1; k <= campaign_drive_instances(cfg, d); k++) {
			struct target_instance *in = &p->insts[p->ninsts];
			strbuf_reset(&sb);
			strbuf_addf(&sb, "vm%u", k);
			in->name = xstrdup(sb.buf);
			in->drive = d;
			in->index = (unsigned)p->ninsts++;
		}
	}
	p->runs = xcalloc(cfg->ngroups * cfg->repetitions, sizeof(*p->runs));
	for (size_t g = 0; g < cfg->ngroups; g++) {
		const struct campaign_group *gr = &cfg->groups[g];
		for (unsigned rep = 1; rep <= cfg->repetitions; rep++) {
			struct plan_run *r = &p->runs[p->nruns++];
			r->group = g;
			r->rep = rep;
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s#%u", gr->id, rep);
			r->id = xstrdup(sb.buf);
			r->insts = xcalloc(gr->instances, sizeof(*r->insts));
			for (size_t i = 0; i < gr->nplace; i++)
				for (size_t j = 0; j < p->ninsts; j++)
					if (p->insts[j].drive == gr->place[i].drive &&
					    strtoul(p->insts[j].name + 2, NULL, 10) <= gr->place[i].count)
						r->insts[r->ninsts++] = j;
		}
	}
	strbuf_release(&sb);
	return p;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ninsts; i++)
		free(p->insts[i].name);
	free(p->insts);
	for (size_t i = 0; i < p->nruns; i++) {
		free(p->runs[i].id);
		free(p->runs[i].insts);
	}
	free(p->runs);
	free(p);
}

/* The redo log (MariaDB: innodb_log_file_size, as the config gives it) or WAL (PostgreSQL). */
static uint64_t log_bytes(const struct campaign_config *cfg)
{
	if (cfg->engine->protocol == DB_PROTO_POSTGRESQL)
		return PLAN_WAL_BYTES;
	for (size_t i = 0; i < cfg->nserver_options; i++) {
		char k[64];
		uint64_t v;
		const char *why;
		snprintf(k, sizeof(k), "%s", cfg->server_options[i].key);
		for (char *p = k; *p; p++)
			*p = *p == '-' ? '_' : *p;
		if (!strcmp(k, "innodb_log_file_size") && parse_size_bytes(cfg->server_options[i].value, &v, &why) == 0)
			return v;
	}
	return PLAN_REDO_DEFAULT_BYTES;
}

uint64_t plan_data_bytes(const struct campaign_config *cfg)
{
	uint64_t base = PLAN_DATADIR_BYTES + log_bytes(cfg);

	return base + campaign_scale_value(cfg, cfg->workload->data_scale) * cfg->workload->data_unit_bytes;
}

void plan_campaign_dir(const struct campaign_config *cfg, struct strbuf *sb)
{
	strbuf_addf(sb, "%s/%s", cfg->output, cfg->name);
}

void plan_result_base(const struct campaign_config *cfg, const struct plan *p, const struct plan_run *r,
		      size_t inst, struct strbuf *sb)
{
	const struct target_instance *in = &p->insts[inst];

	plan_campaign_dir(cfg, sb);
	strbuf_addf(sb, "/%s/%s/%s", cfg->groups[r->group].slug, cfg->drives[in->drive].name, in->name);
	if (cfg->repetitions > 1)
		strbuf_addf(sb, "-rep%u", r->rep);
}
