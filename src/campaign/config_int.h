/*
 * What the parts of the campaign config reader share (campaign/config*.c
 * only): config.c reads the file and its top-level fields and calls the
 * section readers below in order; config_workload.c reads what is run (the
 * workload, the engine, the target), config_groups.c where it runs (the
 * drives, the run groups and their placement). Each returns 0 or -EINVAL
 * after its one message (campaign/config.h).
 */
#ifndef DBRIG_CAMPAIGN_CONFIG_INT_H
#define DBRIG_CAMPAIGN_CONFIG_INT_H

#include <stdbool.h>

struct campaign_config;
struct json_t;
struct jsonr;

/* config.c: a campaign or drive name: up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit. */
bool config_is_name(const char *s);

/* config_workload.c: .workload (kind, test, options and the scale they set). */
int config_load_workload(struct jsonr *c, struct json_t *root, struct campaign_config *cfg);
/* config_workload.c: .engine (after .workload: the workload may need a MySQL engine). */
int config_load_engine(struct jsonr *c, struct json_t *root, struct campaign_config *cfg);
/* config_workload.c: .target, its settings read by the target itself. */
int config_load_target(struct jsonr *c, struct json_t *root, struct campaign_config *cfg);

/* config_groups.c: .drives. */
int config_load_drives(struct jsonr *c, struct json_t *root, struct campaign_config *cfg);
/* config_groups.c: .run_groups (after .drives), expanded into cfg->groups. */
int config_load_groups(struct jsonr *c, struct json_t *root, struct campaign_config *cfg);

#endif
