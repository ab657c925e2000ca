#include "cli/run_record.h"

#include "core/fileio.h"
#include "core/log.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_record_open(struct run_record *rr)
{
	/* A --result that cannot be written is refused before the run, not after it. */
	int rp = rr->result_path ? output_path_check(rr->result_path) : 0;
	if (rp < 0) {
		log_error_dbrig("--result: \"%s\": %s", rr->result_path, write_file_strerror(rp));
		return -1;
	}
	if (!rr->journal_path)
		return 0;
	int jr = journal_open(&rr->journal, rr->journal_path, rr->res);
	if (jr < 0) {
		log_error_dbrig("--journal: \"%s\": %s", rr->journal_path, write_file_strerror(jr));
		return -1;
	}
	return 0;
}

void run_record_interval(struct run_record *rr, const struct interval_report *ir)
{
	char *line = NULL;

	result_add_interval(rr->res, ir, rr->journal ? &line : NULL);
	if (rr->journal && !line && !rr->journal_error) {
		log_error_dbrig("--journal: \"%s\": cannot encode an interval; the result file will hold them all",
				rr->journal_path);
		rr->journal_error = true;
	}
	if (rr->journal && line && journal_append(rr->journal, line) < 0 && !rr->journal_error) {
		log_error_dbrig("--journal: \"%s\": write failed: %s; the run goes on, the result file will still be written",
			  rr->journal_path, strerror(errno ? errno : EIO));
		rr->journal_error = true;
	}
	free(line);
}

int run_record_run(struct run_record *rr, const struct runner_config *cfg, run_record_report_fn report, void *arg)
{
	struct runner_outcome out;
	const char *status = "failed";
	bool ran = true;
	int ret = -EIO;

	if (runner_run(cfg, &out) < 0) {
		log_error("%s", out.error);
		ran = false;
	} else {
		switch (out.status) {
		case RUNNER_COMPLETE:
			status = "complete";
			ret = 0;
			break;
		case RUNNER_INTERRUPTED:
			status = "interrupted";
			snprintf(out.error, sizeof(out.error), "interrupted by %s",
				 out.signal == SIGINT ? "SIGINT" : out.signal == SIGHUP ? "SIGHUP" : "SIGTERM");
			log_error("%s: partial result kept", out.error);
			ret = -EINTR;
			break;
		case RUNNER_FAILED:
			log_error("%s", out.error);
			break;
		case RUNNER_DEGRADED:
			/* Ran to the end and kept, but never counted as a measurement of the drive. */
			status = "degraded";
			log_warn("%s", out.error);
			ret = 0;
			break;
		}
	}
	if (out.started)
		result_set_driver(rr->res, out.loops, out.blocking, out.start_ns);
	if (out.outage_ns)
		result_set_outage(rr->res, out.outage_ns, out.sample_ns);
	if (report)
		report(arg, status, ran);
	/* A journal beside the result that holds every interval keeps them once: a 3-hour run at 10 s
	 * intervals is 1,080 records, which the result would repeat. After a failed append it keeps them. */
	if (rr->result_path && rr->journal && !rr->journal_error &&
	    result_journal_beside(rr->result_path, rr->journal_path)) {
		const char *name = strrchr(rr->journal_path, '/');
		result_intervals_in_journal(rr->res, name ? name + 1 : rr->journal_path);
	}
	if (rr->result_path) {
		int wr = result_write(rr->res, rr->result_path, status,
				      ret == 0 && out.status != RUNNER_DEGRADED ? NULL : out.error);
		if (wr < 0) {
			log_error_dbrig("--result: \"%s\": cannot write: %s", rr->result_path, write_file_strerror(wr));
			ret = wr;
		}
	}
	if (rr->journal) {
		errno = 0;
		if (journal_close(rr->journal, status) < 0 && !rr->journal_error)
			log_error_dbrig("--journal: \"%s\": cannot complete: %s", rr->journal_path,
				  strerror(errno ? errno : EIO));
		rr->journal = NULL;
	}
	return ret;
}

void run_record_release(struct run_record *rr)
{
	if (rr->journal)
		journal_close(rr->journal, NULL);
	rr->journal = NULL;
}
