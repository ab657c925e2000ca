/*
 * The report's tables as data: each table that several writers print is
 * built here once from the report model, as columns and rows of typed cells,
 * and every writer renders those cells in its own format (md_out.c, html_tables.c).
 * A cell says what it holds (a count, a spread over repetitions, a Little's law
 * state, a steady-state verdict...), never how it looks; the words a state is
 * written with are here too (Little's law's beside its check in
 * result/figures.h, the steady state's in stats/steady.h), so no writer
 * spells them itself.
 *
 * Cells point into the report (spreads, telemetry, verdicts): a table lives no
 * longer than the report it was built from.
 */
#ifndef DBRIG_REPORT_TABLES_H
#define DBRIG_REPORT_TABLES_H

#include "report/aggregate.h"

#include <stdbool.h>
#include <stddef.h>

struct lb_board; /* report/leaderboard.h */

enum rt_kind {
	RT_TEXT,        /* text */
	RT_NAME,        /* text that is a name or a path (report.html breaks it at spaces only) */
	RT_INT,         /* i, digits only */
	RT_COUNT,       /* i, a count of events: report.md groups its digits ("1,234"), report.html does not */
	RT_MISSING,     /* no figure: "–" */
	RT_SPREAD,      /* *spread over repetitions (has: there is a figure); terse: report.md shows the mean only */
	RT_RANGE,       /* a – b, 2 decimals */
	RT_INSTANCES,   /* n instances over n2 repetitions */
	RT_LITTLE,      /* Little's law: little, deviation a, predicted latency b ms */
	RT_STATUS,      /* complete, or (has) incomplete: n of n2 runs complete; terse: without the counts */
	RT_STEADY,      /* steady state: steady, *steady_r (may be NULL) */
	RT_BOTTLENECK,  /* bottleneck (has: telemetry), *vin, *verdict, the busiest device *dev */
	RT_DEVICE,      /* the busiest device *dev, or NULL */
	RT_PCT,         /* a as a fraction (has: there is a figure), no decimals */
	RT_HOST_CPU,    /* host CPU busy of *vin, with its source when not this machine's /proc/stat */
	RT_DRIVER_CPU,  /* driver CPU per event loop of *vin, *verdict */
	RT_RUN_GROUP,   /* text: a run group, kind: its workload, i: its VM count */
	RT_RANKS,       /* ranks n and n2 of a drive pair */
	RT_WELCH,       /* Welch's t-test *welch over the repetitions' TPS (CSV: t, df, p, significant) */
	RT_NUM,         /* a with n decimals, digits grouped ("7,869.21"); !has: no figure */
	RT_FIXED,       /* a with n decimals, digits not grouped; !has: no figure */
	RT_LATENCY,     /* a ms, 2 decimals (report.md: digits not grouped, has: "≈", rebuilt from a journal) */
	RT_RUN_STATUS,  /* a run's status: has: not complete, text its word, note after it; terse: a superseded
			   attempt's (not stressed, report.html without the note) */
	RT_SPAN,        /* the first of n cells that say one thing (text): report.html joins them */
	RT_SPANNED,     /* the rest of an RT_SPAN */
	RT_GROUP_LINK,  /* text, linked in report.html to the TPS chart of group n */
	RT_RATIO,       /* the ratio *ratio of a drive pair's mean TPS with its 95% CI (CSV only) */
	RT_CI,          /* sd and 95% CI of *spread over repetitions, none with one repetition (CSV only) */
	RT_LAT_RATIO,   /* a latency ratio *ratio and its Welch's test *welch (has: both drives have it; CSV only) */
	RT_BOARD_DRIVE, /* text: a drive on a leaderboard, measured here (has: in bold, report.html marks its row
			   "measured") or published */
	RT_BOARD_NUM,   /* a leaderboard's figure: a with n decimals, digits grouped; !has: "not published" (the row
			   states none), aligned as a figure */
};

struct rt_cell {
	enum rt_kind kind;
	char *text;                     /* owned; NULL when the kind has none */
	const char *kind_name;          /* RT_RUN_GROUP: the workload kind */
	const char *note;               /* RT_RUN_STATUS: after the word, not stressed */
	long long i;
	size_t n, n2;
	double a, b;
	bool has, terse;
	const struct spread *spread;
	enum little_state little;
	enum steady_state steady;
	const struct steady_result *steady_r;
	const struct verdict_in *vin;
	const struct verdict *verdict;
	const struct tel_dev *dev;
	const struct ci_welch *welch;
	const struct ci_ratio *ratio;
	const struct run *run;          /* RT_RUN_STATUS: the run, for the CSV's words */
};

/* The CSV fields of a bottleneck and the telemetry behind it. */
#define RT_VERDICT_CSV "bottleneck,host_cpu_busy_pct,guest_cpu_busy_pct,driver_cores_per_loop,driver_saturated," \
	"device,device_r_iops,device_w_iops,device_r_mbps,device_w_mbps,device_await_ms,device_queue_depth," \
	"device_util_pct"

/* The writers that show a column. */
#define RT_MD    1u
#define RT_HTML  2u
#define RT_CSV   4u
#define RT_PAGES (RT_MD | RT_HTML)

struct rt_col {
	const char *name;               /* "\n": a line break in report.html, a space in report.md */
	const char *md_name;            /* report.md's header when it says more, or NULL */
	unsigned in;                    /* RT_MD | RT_HTML | RT_CSV */
	const char *csv;                /* its CSV fields, ","-separated (a cell may be several), or NULL */
	int csv_prec;                   /* decimals of its CSV number */
};

struct report_table {
	const char *html_class;         /* report.html's class of the table (its header in a thead, its rows in a
					   tbody), or NULL */
	size_t ncols;
	const struct rt_col *cols;
	size_t nrows;
	struct rt_cell *cells;          /* nrows x ncols, row by row */
	size_t fill, cap;               /* cells added, allocated */
};

static inline const struct rt_cell *rt_at(const struct report_table *t, size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

/* What one drive x run group's repetitions add up to (sample phase; the precondition's sums apart). */
struct rt_group_sums {
	size_t ninst;                   /* instances over all repetitions */
	double tps_min, tps_max;        /* the least and most TPS of one instance */
	double max_ms;
	unsigned long long transactions, retried, reconnects, fatal;
	long long threads;
	bool pooled;                    /* every repetition has a pooled p99 (and there is one) */
	bool has_tpmc;
	double tpmc;                    /* mean over repetitions */
	size_t npre, npre_p99;          /* repetitions with a precondition, with its instance p99s */
	double pre_tps, pre_avg, pre_p99; /* sums over those repetitions */
};
void rt_group_sums(const struct agg_group *g, struct rt_group_sums *s);

/* Results per drive x run group (sample phase). */
void report_table_summary(const struct report *rep, struct report_table *t);
/* Steady state and bottleneck per drive x run group. */
void report_table_verdicts(const struct report *rep, struct report_table *t);
/* The neighbouring drives of each run group, fastest first. */
void report_table_compare(const struct report *rep, struct report_table *t);
/* One drive over every run group (VM count). */
void report_table_drive(const struct report *rep, const char *drive, struct report_table *t);
/* One row per result file (sample phase). */
void report_table_instances(const struct report *rep, struct report_table *t);
/* The attempts `campaign --resume` kept (never counted). */
void report_table_superseded(const struct report *rep, struct report_table *t);
/* A leaderboard's rows in the order ord (cnt of them), ranked from 1 (report/lb_render.c writes the boards). */
void report_table_leaderboard(const struct lb_board *b, const size_t *ord, size_t cnt, struct report_table *t);
void report_table_release(struct report_table *t);

/* The words of the states, for every writer (Little's law's: result/figures.h). */
const char *rt_status_word(bool incomplete);      /* "complete", "INCOMPLETE" */
const char *rt_yes_no(bool yes);                  /* "yes", "no" */
const char *rt_significant_key(const struct ci_welch *w); /* report-compare.csv: "yes", "no", "n/a" */
/* A run's status in report-instances.csv: "complete", "sample-incomplete", or its status's name. */
const char *rt_run_status_key(const struct run *r);

#endif
