#include "cli/cli.h"

#include <stddef.h>

const struct command dbrig_commands[] = {
	{"sysbench", cmd_sysbench, "sysbench 1.0 OLTP workloads against MySQL/MariaDB (prepare, prewarm, run, cleanup)"},
	{"tpcc", cmd_tpcc, "TPC-C-style OLTP through ODBC (SQL Server) or libmysqlclient (prepare, run, check, cleanup)"},
	{"campaign", cmd_campaign, "run a campaign file end to end: provision, prepare, restore, drive, report"},
	{"report", cmd_report, "aggregate results and write Markdown/HTML/CSV/JSON reports"},
	{"published", cmd_published, "list the published review numbers dbrig compares against"},
	{"provision", cmd_provision, "create a campaign's instances (VMs, volumes, pools); --dry-run prints every XML"},
	{"status", cmd_status, "a campaign's instances: state, volumes, endpoint, database ready"},
	{"restore", cmd_restore, "under-test <- pre-built on every instance of a campaign, then start them"},
	{"teardown", cmd_teardown, "remove the instances dbrig created for a campaign"},
	{NULL, NULL, NULL},
};
