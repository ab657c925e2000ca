/*
 * dbrig report RESULTS_DIR --out OUTDIR [--compare DIR] [--format md,html,csv,json]
 *              [--drive NAME] [--run ID|latest] [--steady-window N] [--shared-axis]
 *
 * Reads every result and journal under RESULTS_DIR, aggregates per drive x run
 * group (src/report/aggregate.h), puts the published references beside them
 * and writes the requested formats as one set (core/fileio.h atomic_set_*):
 * the new files appear together or not at all.
 */
#include "cli/cli.h"

#include "core/datadir.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "report/aggregate.h"
#include "report/published.h"
#include "result/read.h"
#include "result/result.h"
#include "report/writer.h"
#include "stats/steady.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct report_cfg {
	const char *out;
	const char *compare;
	const char *format;
	const char *drive;
	const char *run;
	unsigned steady_window;
	bool shared_axis;
	bool include_degraded;
	bool help;
};

static const struct opt_def report_opts[] = {
	{.name = "out", .kind = OPT_STRING, .offset = offsetof(struct report_cfg, out),
	 .help = "folder for the report files (created if missing; required)", .group = "Report options"},
	{.name = "compare", .kind = OPT_STRING, .offset = offsetof(struct report_cfg, compare),
	 .help = "folder of published reference files to show beside the results, or \"none\" (default: "
		 "reports/published/ in dbrig's data folder, <prefix>/share/dbrig or $DBRIG_DATA_DIR)",
	 .group = "Report options"},
	{.name = "format", .kind = OPT_STRING, .offset = offsetof(struct report_cfg, format), .def = "md,html,csv,json",
	 .help = "comma-separated formats: md, html, csv, json", .group = "Report options"},
	{.name = "drive", .kind = OPT_STRING, .offset = offsetof(struct report_cfg, drive),
	 .help = "report one drive alone: its results over every run group (VM count), verdicts and charts",
	 .group = "Report options"},
	{.name = "run", .kind = OPT_STRING, .offset = offsetof(struct report_cfg, run),
	 .help = "report one campaign run alone: its run id (run.run_id, or a prefix naming one run, e.g. "
		 "20261202T0105), or \"latest\" (the latest started run of each campaign); results without a run "
		 "id are left out (default: every run, side by side)",
	 .group = "Report options"},
	{.name = "steady-window", .kind = OPT_UINT, .offset = offsetof(struct report_cfg, steady_window), .def = "5",
	 .min = STEADY_MIN_WINDOW, .max = 1000000,
	 .help = "rounds (report intervals) of the precondition's last window for the steady-state verdict "
		 "(SNIA PTS: at least 5; default: the campaign's steady_window stored in the results, else 5)",
	 .group = "Report options"},
	{.name = "shared-axis", .kind = OPT_BOOL, .offset = offsetof(struct report_cfg, shared_axis),
	 .help = "draw every run group of a bar chart on one value axis (default: each run group on its own "
		 "axis, so a slow group stays readable beside a fast one)",
	 .group = "Report options"},
	{.name = "include-degraded", .kind = OPT_BOOL, .offset = offsetof(struct report_cfg, include_degraded),
	 .help = "count degraded runs (a connection lost for more than 1% of the sample) in the figures; by default "
		 "their repetition is left out and listed in the warnings",
	 .group = "Report options"},
	{.name = "help", .kind = OPT_BOOL, .offset = offsetof(struct report_cfg, help),
	 .help = "show this help", .group = "Report options"},
};
#define NOPTS (sizeof(report_opts) / sizeof(report_opts[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig report RESULTS_DIR --out OUTDIR [--compare DIR] [--format md,html,csv,json]\n"
		   "                    [--drive NAME] [--run ID|latest] [--steady-window N] [--shared-axis]\n"
		   "                    [--include-degraded]\n\n"
		   "Aggregate dbrig results (*.json with \"schema\": \"" RESULT_MAJOR "\", their *.jsonl journals\n"
		   "and a campaign's *.telemetry.json beside them, found recursively under RESULTS_DIR)\n"
		   "per drive x run group and write the report.\n"
		   "Options take \"--name VALUE\" or \"--name=VALUE\".\n");
	opt_help(f, report_opts, NOPTS);
	fprintf(f, "\nFormats:\n");
	for (const struct report_writer_ops *const *w = report_writers; *w; w++)
		fprintf(f, "  %-6s %s\n", (*w)->name, (*w)->summary);
	fprintf(f, "\nExit status: 0 report written, 1 unreadable or invalid input or output error, 2 usage error.\n");
}

/*
 * "--out DIR" -> "--out=DIR" for options that take a value, so the shared
 * --name=value parser (core/opt.h) accepts the usual spaced form too.
 */
static char **join_values(int argc, char **argv, int *nargc)
{
	char **v = xcalloc((size_t)argc + 1, sizeof(*v));
	int n = 0;

	for (int a = 0; a < argc; a++) {
		const char *arg = argv[a];
		const struct opt_def *d = NULL;

		if (a > 0 && !strncmp(arg, "--", 2) && arg[2] && !strchr(arg, '=')) {
			for (size_t i = 0; i < NOPTS; i++)
				if (opt_name_matches(&report_opts[i], arg + 2, strlen(arg + 2)))
					d = &report_opts[i];
		}
		if (d && d->kind != OPT_BOOL && a + 1 < argc) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			strbuf_addf(&sb, "%s=%s", arg, argv[++a]);
			v[n++] = strbuf_detach(&sb);
			strbuf_release(&sb);
		} else {
			v[n++] = xstrdup(arg);
		}
	}
	*nargc = n;
	return v;
}

/* Parse "md,html" into a NULL-terminated writer list; -1 after a message. */
static int parse_formats(const char *spec, const struct report_writer_ops **out, size_t max)
{
	char *copy = xstrdup(spec), *save = NULL, *tok;
	size_t n = 0;
	int ret = -1;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct report_writer_ops *w = report_writer_find(tok);
		bool dup = false;

		if (!w) {
			log_error("--format: \"%s\" is not a format (expected a comma-separated list of md, html, csv, json)",
				  tok);
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			dup |= out[i] == w;
		if (!dup && n + 1 < max)
			out[n++] = w;
	}
	if (!n) {
		log_error("--format: \"%s\" names no format (expected a comma-separated list of md, html, csv, json)", spec);
		goto out;
	}
	out[n] = NULL;
	ret = 0;
out:
	free(copy);
	return ret;
}

/*
 * The steady-state window when --steady-window is not given: the one the
 * campaign judged its runs with (run.steady_window, its "steady_window"
 * field), when every result that stores one agrees; otherwise `dflt`, with a
 * warning when they disagree.
 */
static unsigned campaign_window(const struct run_set *runs, unsigned dflt)
{
	int64_t w = 0;

	for (size_t i = 0; i < runs->n; i++) {
		int64_t x = runs->runs[i]->steady_window;
		if (!x)
			continue;
		if (w && x != w) {
			log_warn_dbrig("report: the results were judged with different steady windows (%lld and %lld "
				       "rounds): using %u (pass --steady-window N to choose)",
				       (long long)w, (long long)x, dflt);
			return dflt;
		}
		w = x;
	}
	return w >= STEADY_MIN_WINDOW ? (unsigned)w : dflt;
}

/* The distinct campaign runs (run ids) of the results, in result order. */
static size_t run_ids(const struct run_set *rs, const struct run **ids)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		bool seen = !*rs->runs[i]->run_id;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(ids[k]->run_id, rs->runs[i]->run_id);
		if (!seen)
			ids[n++] = rs->runs[i];
	}
	return n;
}

static bool picked(const struct run *r, const struct run **ids, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(ids[k]->run_id, r->run_id))
			return true;
	return false;
}

/*
 * --run: the results of the chosen campaign runs into `view` (pointers into
 * `all`, which keeps them). "latest": the latest started run of each
 * campaign; otherwise the run whose id is `spec`, or the one whose id starts
 * with it. -1 after one line when the results cannot give exactly that.
 */
static int pick_runs(const struct run_set *all, const char *spec, const char *dir, struct run_set *view)
{
	const struct run **ids = xcalloc(all->n + 1, sizeof(*ids)), **pick = xcalloc(all->n + 1, sizeof(*pick));
	size_t nids = run_ids(all, ids), npick = 0;
	struct strbuf list;
	int ret = -1;

	strbuf_init(&list, 0);
	for (size_t k = 0; k < nids; k++)
		strbuf_addf(&list, "%s%s", k ? ", " : "", ids[k]->run_id);
	if (!nids) {
		log_error("--run: \"%s\": the results in %s carry no campaign run id (expected results of dbrig campaign, "
			  "which records run.run_id)", spec, dir);
		goto out;
	}
	if (!strcmp(spec, "latest")) {
		for (size_t k = 0; k < nids; k++) {
			size_t c = 0;
			while (c < npick && strcmp(pick[c]->campaign, ids[k]->campaign))
				c++;
			if (c == npick)
				pick[npick++] = ids[k];
			else if (strcmp(ids[k]->run_started, pick[c]->run_started) > 0 ||
				 (!strcmp(ids[k]->run_started, pick[c]->run_started) &&
				  strcmp(ids[k]->run_id, pick[c]->run_id) > 0))
				pick[c] = ids[k];
		}
	} else {
		for (size_t k = 0; k < nids && !npick; k++)
			if (!strcmp(ids[k]->run_id, spec))
				pick[npick++] = ids[k];
		for (size_t k = 0; k < nids && !npick; k++)
			if (!strncmp(ids[k]->run_id, spec, strlen(spec)))
				pick[npick++] = ids[k];
		for (size_t k = 0; k < nids && npick == 1; k++)
			if (ids[k] != pick[0] && !strncmp(ids[k]->run_id, spec, strlen(spec)) && strcmp(pick[0]->run_id, spec)) {
				log_error("--run: \"%s\" names more than one campaign run of the results in %s (expected one of: "
					  "%s, or latest)", spec, dir, list.buf);
				goto out;
			}
		if (!npick) {
			log_error("--run: \"%s\" is not a campaign run of the results in %s (expected one of: %s, or latest)",
				  spec, dir, list.buf);
			goto out;
		}
	}
	view->runs = xcalloc(all->n + 1, sizeof(*view->runs));
	view->superseded = xcalloc(all->nsuperseded + 1, sizeof(*view->superseded));
	for (size_t i = 0; i < all->n; i++)
		if (picked(all->runs[i], pick, npick))
			view->runs[view->n++] = all->runs[i];
	for (size_t i = 0; i < all->nsuperseded; i++)
		if (picked(all->superseded[i], pick, npick))
			view->superseded[view->nsuperseded++] = all->superseded[i];
	ret = 0;
out:
	strbuf_release(&list);
	free(ids);
	free(pick);
	return ret;
}

/* The words and values opt_parse cannot check: one RESULTS_DIR that is a
 * folder, --out, --format into writers (NULL-terminated, at most max), --run
 * and --drive not empty. 0, or -1 after one message (a usage error). */
static int check_args(const struct report_cfg *cfg, const char *const *pos, int npos,
		      const struct report_writer_ops **writers, size_t max)
{
	struct stat st;

	if (npos != 1) {
		log_error("report: missing RESULTS_DIR (expected: dbrig report RESULTS_DIR --out OUTDIR; see --help)");
		return -1;
	}
	if (!cfg->out || !*cfg->out) {
		log_error("report: --out: missing (expected the folder to write the report to)");
		return -1;
	}
	if (parse_formats(cfg->format, writers, max) < 0)
		return -1;
	if (cfg->run && !*cfg->run) {
		log_error("report: --run: empty (expected a campaign run id of the results, or latest)");
		return -1;
	}
	if (cfg->drive && !*cfg->drive) {
		log_error("report: --drive: empty (expected the name of a drive of the results)");
		return -1;
	}
	if (stat(pos[0], &st) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("report: %s: %s (expected a folder of results)", pos[0],
			  errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a folder");
		return -1;
	}
	return 0;
}

/* --drive names no drive of the results in dir: one line naming those it can. */
static void no_such_drive(const struct run_set *chosen, const char *drive, const char *dir)
{
	struct strbuf names;
	strbuf_init(&names, 0);
	for (size_t i = 0; i < chosen->n; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(chosen->runs[k]->drive, chosen->runs[i]->drive);
		if (!seen)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", chosen->runs[i]->drive);
	}
	log_error("--drive: \"%s\" is not a drive of the results in %s (expected one of: %s)", drive, dir, names.buf);
	strbuf_release(&names);
}

/* Every format rendered, then written into the folder outdir as one set. 0,
 * or -1 after one message. */
static int write_report(const struct report *rep, const struct report_writer_ops *const *writers, const char *outdir)
{
	struct report_files files = {0};
	struct atomic_set set;
	struct strbuf path;
	int rc, ret = -1;

	strbuf_init(&path, 0);
	atomic_set_init(&set);
	rc = mkdir_p(outdir, 0755);
	if (rc < 0) {
		log_error("--out: \"%s\": %s (expected a folder that can be created)", outdir, strerror(-rc));
		goto out;
	}
	for (const struct report_writer_ops *const *w = writers; *w; w++) {
		rc = (*w)->render(rep, &files);
		if (rc < 0) {
			if (rc == -ERANGE)
				log_error("report: %s writer: a figure is infinite or not a number (expected finite TPS and "
					  "latencies in every result); no report written", (*w)->name);
			else
				log_error("report: %s writer: %s", (*w)->name, strerror(-rc));
			goto out;
		}
	}
	/* The files appear together or not at all: a report that fails half-way
	 * (a full disk) would leave a new report.md beside the old html, csv and json. */
	for (size_t i = 0; i < files.n; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", outdir, files.v[i].name);
		rc = atomic_set_add(&set, path.buf, files.v[i].body.buf, files.v[i].body.len);
		if (rc < 0) {
			log_error("%s: %s (expected a writable file; the earlier report, if any, is unchanged)", path.buf,
				  strerror(-rc));
			goto out;
		}
	}
	const char *failed = NULL;
	rc = atomic_set_commit(&set, &failed);
	if (rc < 0) {
		log_error("%s: %s (expected a writable file; the earlier report, if any, is unchanged)",
			  failed ? failed : outdir, strerror(-rc));
		goto out;
	}
	for (size_t i = 0; i < set.n; i++)
		log_info("wrote %s", set.v[i].path);
	ret = 0;
out:
	atomic_set_release(&set);
	report_files_release(&files);
	strbuf_release(&path);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_cfg cfg = {0};
	char *compare_owned = NULL;
	const struct report_writer_ops *writers[8];
	const char *pos[2] = {NULL, NULL};
	struct run_set *runs = NULL, picked_runs = {0};
	const struct run_set *chosen;
	struct pub_set *pub = NULL;
	struct report *rep = NULL;
	struct strbuf err;
	char **args;
	int nargs = 0, npos = 0, ret = EXIT_USAGE, rc;
	bool given[NOPTS];

	strbuf_init(&err, 0);
	args = join_values(argc, argv, &nargs);
	for (int a = 1; a < nargs; a++) {
		if (!strcmp(args[a], "--help") || !strcmp(args[a], "-h")) {
			usage(stdout);
			ret = 0;
			goto out;
		}
	}
	if (opt_parse(report_opts, NOPTS, &cfg, nargs, args, pos, 1, &npos, given) < 0)
		goto out;
	if (check_args(&cfg, pos, npos, writers, sizeof(writers) / sizeof(writers[0])) < 0)
		goto out;
	ret = EXIT_RUNTIME;
	if (!cfg.compare)
		cfg.compare = compare_owned = datadir_path("reports/published");
	if (strcmp(cfg.compare, "none")) {
		if (published_load_dir(cfg.compare, &pub, &err) < 0) {
			log_error("%s", err.buf);
			goto out;
		}
	}
	if (results_load_dir(pos[0], &runs, &err) < 0) {
		log_error("%s", err.buf);
		goto out;
	}
	if (!runs->n) {
		log_error("%s: no results found (expected *.json with \"schema\": \"" RESULT_MAJOR "\" or *.jsonl journals)",
			  pos[0]);
		goto out;
	}
	chosen = runs;
	if (cfg.run) {
		if (pick_runs(runs, cfg.run, pos[0], &picked_runs) < 0) {
			ret = EXIT_USAGE;
			goto out;
		}
		chosen = &picked_runs;
	}
	for (size_t i = 0; i < NOPTS; i++)
		if (report_opts[i].offset == offsetof(struct report_cfg, steady_window) && !given[i])
			cfg.steady_window = campaign_window(chosen, cfg.steady_window);
	rc = report_build_with(chosen, pub, &(struct report_opts){.steady_window = cfg.steady_window, .drive = cfg.drive,
							     .shared_axis = cfg.shared_axis,
							     .include_degraded = cfg.include_degraded},
			       &rep);
	if (rc == -ENOENT) {
		no_such_drive(chosen, cfg.drive, pos[0]);
		ret = EXIT_USAGE;
		goto out;
	}
	if (rc < 0) {
		log_error("report: aggregation failed");
		goto out;
	}
	for (size_t i = 0; i < rep->nwarnings; i++)
		log_warn("%s", rep->warnings[i]);
	if (write_report(rep, writers, cfg.out) < 0)
		goto out;
	ret = 0;
out:
	free(compare_owned);
	report_free(rep);
	free(picked_runs.runs);
	free(picked_runs.superseded);
	run_set_free(runs);
	pub_set_free(pub);
	for (int a = 0; a < nargs; a++)
		free(args[a]);
	free(args);
	strbuf_release(&err);
	return ret;
}
