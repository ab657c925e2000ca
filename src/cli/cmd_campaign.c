/* dbrig campaign FILE [--plan | --resume | --fresh] */
#include "campaign/campaign.h"
#include "cli/cli.h"
#include "core/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct flag {
	const char *name;
	const char *help;
};

static const struct flag flags[] = {
	{"--plan", "print the drives, instances and runs in order with their durations; change nothing"},
	{"--resume", "continue a campaign from <output>/<name>/state.json: finished runs are kept, a cut-off run "
		     "restarts from its restore (its partial files kept as <instance>.partial-<n>.*); refused (exit 1) "
		     "when FILE changed a field that changes what is measured"},
	{"--fresh", "start the campaign again: the earlier <output>/<name>/ (results, report, state) is renamed to "
		    "<output>/<name>.<UTC time>/, never deleted, and a new campaign starts"},
	{"--help", "this text"},
	{NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig campaign FILE [--plan | --resume | --fresh]\n\n"
		   "Run a campaign file end to end: provision the instances on every drive, load a golden\n"
		   "database once and clone it to every drive, checking each clone's fingerprint (\"golden\":\n"
		   "\"per-drive\": a load on each), then for every run group and repetition restore each\n"
		   "instance from it, drive all instances together (precondition, then sample), and collect one\n"
		   "result per instance under <output>/<name>/<run group>/<drive>/ (a run group with\n"
		   "\"placement\": {\"each\": [drives], \"vms\": N} runs on each drive in turn, and \"vms\" or\n"
		   "\"threads\" lists sweep it: one run group per value). At the end, print a\n"
		   "summary table and write the report (<output>/<name>/report/report.html).\n"
		   "Over an earlier campaign in <output>/<name>/ it starts only with --resume or --fresh;\n"
		   "without them it says in one line whether that one finished (and where its report is).\n"
		   "One dbrig process per campaign: while a campaign (or provision, restore, teardown)\n"
		   "holds <output>/.<name>.lock, a second one exits 1 naming its pid.\n"
		   "Fields of FILE: configs/README.md.\n\nOptions:\n");
	for (const struct flag *fl = flags; fl->name; fl++)
		fprintf(f, "  %-10s %s\n", fl->name, fl->help);
	fprintf(f, "\nExit status: 0 success, 1 runtime failure, interruption or an earlier campaign in the way,\n"
		   "2 bad config or usage.\n");
}

int cmd_campaign(int argc, char **argv)
{
	struct campaign_opts o = {0};

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--plan")) {
			o.plan = true;
		} else if (!strcmp(argv[i], "--resume")) {
			o.resume = true;
		} else if (!strcmp(argv[i], "--fresh")) {
			o.fresh = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			log_error("campaign: \"%s\" is not an option (expected --plan, --resume, --fresh or --help)",
				  argv[i]);
			return EXIT_USAGE;
		} else if (o.file) {
			log_error("campaign: \"%s\" is a second campaign file (expected one FILE)", argv[i]);
			return EXIT_USAGE;
		} else {
			o.file = argv[i];
		}
	}
	if (!o.file) {
		log_error("campaign: missing the campaign FILE (expected e.g. dbrig campaign configs/local-quick.json)");
		return EXIT_USAGE;
	}
	if (o.plan + o.resume + o.fresh > 1) {
		log_error("campaign: %s together (expected one of --plan, --resume and --fresh)",
			  !o.fresh ? "--plan and --resume" : !o.resume ? "--plan and --fresh" :
			  !o.plan ? "--resume and --fresh" : "--plan, --resume and --fresh");
		return EXIT_USAGE;
	}
	switch (campaign_main(&o)) {
	case 0:
		return 0;
	case -EINVAL:
		return EXIT_USAGE;
	default:
		return EXIT_RUNTIME;
	}
}
