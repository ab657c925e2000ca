#include "cli/cli.h"

#include <stddef.h>

const struct command dbrig_commands[] = {
	{"sysbench", cmd_sysbench, "sysbench 1.0 OLTP workloads against MySQL/MariaDB (prepare, prewarm, run, cleanup)"},
	{"campaign", cmd_campaign, "run a campaign file end to end: provision, prepare, restore, drive, report"},
	{"report", cmd_report, "aggregate results and write Markdown/HTML/CSV/JSON reports"},
	{"published", cmd_published, "list the published review numbers dbrig compares against"},
	{NULL, NULL, NULL},
};
