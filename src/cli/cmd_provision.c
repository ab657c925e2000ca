/*
 * dbrig provision | status | restore | teardown FILE: one step of a campaign
 * by hand, for every instance the campaign's plan needs, through the same
 * campaign/steps.c that `dbrig campaign` uses.
 *
 *   provision  create every instance (VMs, volumes, pools); on a failure, remove
 *              what this call created and report the first error
 *   status     one line per instance: exists, running, storage, endpoint, ready
 *   restore    under-test <- pre-built on every instance, then start and wait ready
 *   teardown   remove every instance dbrig created for the campaign
 * --dry-run (provision, teardown) prints what would be created or removed
 * (every XML) and changes nothing.
 */
#include "campaign/config.h"
#include "campaign/lock.h"
#include "campaign/plan.h"
#include "campaign/steps.h"
#include "cli/cli.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum step {
	STEP_PROVISION,
	STEP_STATUS,
	STEP_RESTORE,
	STEP_TEARDOWN,
};

static const char *step_name(enum step s)
{
	switch (s) {
	case STEP_PROVISION:
		return "provision";
	case STEP_STATUS:
		return "status";
	case STEP_RESTORE:
		return "restore";
	case STEP_TEARDOWN:
		return "teardown";
	}
	return "?";
}

static const char *step_help(enum step s)
{
	switch (s) {
	case STEP_PROVISION:
		return "Create every instance of the campaign FILE on its drive: for the libvirt target, the\n"
		       "storage pool (when asked), each VM's boot, pre-built and under-test volumes (and its\n"
		       "cloud-init seed) and its domain. What exists already for this campaign is kept (a\n"
		       "domain carrying its identity, from <output>/<campaign>/, and that domain's disks); a\n"
		       "same-named domain or volume that is not is an error and is left alone. When a step\n"
		       "fails, everything this call created is removed again.\n";
	case STEP_STATUS:
		return "One line per instance of the campaign FILE: host, pool, domain state, volumes,\n"
		       "endpoint and whether the database accepts connections.\n";
	case STEP_RESTORE:
		return "For every instance of the campaign FILE: stop it, replace under-test with a copy of\n"
		       "pre-built, start it and wait until its database accepts connections. Only volumes\n"
		       "that are disks of the campaign's own domain are replaced.\n";
	case STEP_TEARDOWN:
		return "Remove every instance of the campaign FILE: the domains carrying its identity, the\n"
		       "volumes that are their disks, and empty pools dbrig created. Objects that are not\n"
		       "the campaign's are never removed; each one with an instance's name is named.\n";
	}
	return "";
}

static void usage(enum step s, FILE *f)
{
	bool dry = s == STEP_PROVISION || s == STEP_TEARDOWN;

	fprintf(f, "Usage: dbrig %s FILE%s\n\n%s\nOptions:\n", step_name(s), dry ? " [--dry-run]" : "", step_help(s));
	if (dry)
		fprintf(f, "  %-10s %s\n", "--dry-run", "print every XML and action; change nothing");
	fprintf(f, "  %-10s %s\n", "--help", "this text");
	fprintf(f, "\nExit status: 0 success%s, 1 runtime failure, 2 bad config or usage.\n",
		s == STEP_STATUS ? " (every instance ready; 1 when one is not)" : "");
}

static int run(enum step s, const char *file, bool dry_run)
{
	struct campaign_config *cfg = NULL;
	struct plan *p = NULL;
	struct steps st = {0};
	struct campaign_lock lock = {.fd = -1};
	int ret, code = EXIT_RUNTIME;

	ret = campaign_config_load(file, &cfg);
	if (ret < 0) {
		code = ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	p = plan_make(cfg);
	/* A step that changes instances never runs beside a campaign of the same folder (it would disturb its live runs). */
	if (s != STEP_STATUS && !dry_run && campaign_lock_take(cfg, &lock) < 0)
		goto out;
	if (s == STEP_STATUS && !cfg->target->status) {
		log_error("%s: the %s target has no status (expected a libvirt campaign)", file, cfg->target->name);
		code = EXIT_USAGE;
		goto out;
	}
	if ((ret = steps_open(&st, cfg, p, dry_run)) < 0)
		goto out;
	st.tgt.will_boot = s == STEP_PROVISION || s == STEP_RESTORE;
	ret = steps_preflight(&st);
	if (ret < 0) {
		code = ret == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	switch (s) {
	case STEP_PROVISION:
		ret = steps_provision(&st, NULL);
		if (ret == 0 && !dry_run)
			printf("provisioned %zu instance(s) of %s\n", p->ninsts, cfg->name);
		break;
	case STEP_STATUS:
		ret = steps_status(&st, stdout);
		break;
	case STEP_RESTORE:
		ret = steps_restore(&st);
		if (ret == 0)
			printf("restored %zu instance(s) of %s\n", p->ninsts, cfg->name);
		break;
	case STEP_TEARDOWN:
	{
		struct steps_removed n;
		ret = steps_teardown(&st, false, &n);
		if (ret < 0 || dry_run)
			break;
		/* Only what was done: an instance kept (not this campaign's) or absent is not "removed". */
		if (n.removed == p->ninsts)
			printf("removed the %zu instance(s) of %s\n", n.removed, cfg->name);
		else if (!n.removed && !n.kept)
			printf("nothing of %s to remove: none of its %zu instance(s) exists\n", cfg->name, p->ninsts);
		else
			printf("removed %zu of the %zu instance(s) of %s; %zu kept (not this campaign's: see the warnings "
			       "above), %zu absent\n", n.removed, p->ninsts, cfg->name, n.kept, n.absent);
		break;
	}
	}
	if (ret == 0)
		code = 0;
out:
	steps_close(&st);
	campaign_lock_release(&lock);
	plan_free(p);
	campaign_config_free(cfg);
	return code;
}

static int cmd_step(enum step s, int argc, char **argv)
{
	const char *file = NULL;
	bool dry = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(s, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--dry-run") && (s == STEP_PROVISION || s == STEP_TEARDOWN)) {
			dry = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			log_error("%s: \"%s\" is not an option (expected %s--help)", step_name(s), argv[i],
				  s == STEP_PROVISION || s == STEP_TEARDOWN ? "--dry-run or " : "");
			return EXIT_USAGE;
		} else if (file) {
			log_error("%s: \"%s\" is a second campaign file (expected one FILE)", step_name(s), argv[i]);
			return EXIT_USAGE;
		} else {
			file = argv[i];
		}
	}
	if (!file) {
		log_error("%s: missing the campaign FILE (expected e.g. dbrig %s configs/storagereview-sysbench-4vm.json)",
			  step_name(s), step_name(s));
		return EXIT_USAGE;
	}
	return run(s, file, dry);
}

int cmd_provision(int argc, char **argv)
{
	return cmd_step(STEP_PROVISION, argc, argv);
}

int cmd_status(int argc, char **argv)
{
	return cmd_step(STEP_STATUS, argc, argv);
}

int cmd_restore(int argc, char **argv)
{
	return cmd_step(STEP_RESTORE, argc, argv);
}

int cmd_teardown(int argc, char **argv)
{
	return cmd_step(STEP_TEARDOWN, argc, argv);
}
