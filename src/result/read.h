/*
 * Finding and reading results for a report.
 *
 * results_load_dir walks `dir` recursively (sorted, so reports are
 * reproducible; links to folders are skipped with a warning, never followed,
 * and at most 32 levels deep) and reads:
 *   *.json   with "schema": "dbrig.result/1" (1.x accepted: new keys are
 *            ignored); any other major version of dbrig.result is refused;
 *            JSON files of other schemas (reports, campaign files) are skipped;
 *   *.telemetry.json  a campaign's telemetry of the run whose result is
 *            beside it (<instance>.telemetry.json next to <instance>.json,
 *            "dbrig.telemetry/1"), merged into that run; one without its
 *            result is left out;
 *   *.jsonl  journals ("dbrig.journal/1"). A journal beside its result file
 *            (<instance>.jsonl next to <instance>.json) only supplies the
 *            interval series when the result has none (read line by line,
 *            only the fields the series uses; histograms stepped over). A journal without a
 *            result file becomes a run of its own, rebuilt from its intervals
 *            and marked unfinished (no "end" line) or no-result.
 * A truncated last journal line (crash mid-write) is ignored with a warning.
 * <instance>.partial-<n>.json / .jsonl (a cut-off attempt that `campaign
 * --resume` kept) are read the same way into run_set.superseded: history,
 * shown apart by the writers, never aggregated.
 *
 * Errors: 0 on success; -EINVAL with one message in `err` (file, JSON path,
 * value, what was expected) for bad input; -errno for I/O errors.
 */
#ifndef DBRIG_RESULT_READ_H
#define DBRIG_RESULT_READ_H

#include "core/strbuf.h"
#include "result/model.h"

int results_load_dir(const char *dir, struct run_set **out, struct strbuf *err) __attribute__((warn_unused_result));

/* Parse one result file's text. `name` is used in messages and kept as the
 * run's path. Returns 0 (with *out set), 1 when the JSON is not a dbrig result
 * (other or no schema; *out NULL), or -EINVAL. */
int results_parse_result(const char *name, const char *text, struct run **out, struct strbuf *err)
	__attribute__((warn_unused_result));
/* Merge a telemetry file's text ("dbrig.telemetry/1") into the run of its
 * result: the phases' telemetry (replacing any the result carried), the test
 * bed when the result has none, each interval's telemetry onto the run's
 * interval of the same phase and time. 0, or -EINVAL with one message. */
int results_merge_telemetry(struct run *r, const char *name, const char *text, struct strbuf *err)
	__attribute__((warn_unused_result));
/* Parse a journal into a run of its own (no result file). */
int results_parse_journal(const char *name, const char *text, struct run **out, struct strbuf *err)
	__attribute__((warn_unused_result));

#endif
