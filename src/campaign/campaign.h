/*
 * Running a campaign: plan, provision, golden copies, then for each run
 * (run group x repetition) restore -> start -> one driver process per instance,
 * all started together and stopped together -> collect; finally a summary and
 * the report. Progress is kept in state.json so --resume continues at the first
 * unfinished run.
 */
#ifndef DBRIG_CAMPAIGN_CAMPAIGN_H
#define DBRIG_CAMPAIGN_CAMPAIGN_H

#include <stdbool.h>

struct campaign_opts {
	const char *file;
	bool plan;   /* print what would run and exit */
	bool resume; /* continue from state.json */
	bool fresh;  /* move earlier results aside (campaign/fresh.h), then start anew */
};

/*
 * 0 when the campaign (or --plan) completed; -EINVAL after a message about the
 * config, the state or the options (a usage error); any other negative errno
 * after a message about a runtime failure or an interruption.
 */
int campaign_main(const struct campaign_opts *o);

#endif
