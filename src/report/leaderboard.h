/*
 * The published leaderboard (docs/reading-reports.md, "Leaderboard"): for one
 * protocol, the published rows that measured the same thing ranked by TPS and
 * by p99, with measured drives placed among them.
 *
 * A protocol is what a row states it measured: workload kind and test, the
 * instances (VMs, or 1 on bare metal), the load per instance (closed-loop
 * threads, or TPC-C users with think times) and the scale (sysbench tables x
 * rows, TPC-C warehouses). Kind, test and instances are always compared; the
 * load and the scale where both sides state them. A row that differs is not ranked: the nearest ones are
 * listed with the fields that differ.
 *
 * Under think times (users_per_vm) the users' keying and think times set the
 * TPS (users / cycle), not the storage, so the rows are ranked by average
 * latency instead; p99 is ranked where published.
 */
#ifndef DBRIG_REPORT_LEADERBOARD_H
#define DBRIG_REPORT_LEADERBOARD_H

#include "core/strbuf.h"
#include "report/aggregate.h"
#include "report/published.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lb_proto {
	char kind[16], test[48];
	int64_t vm_count;          /* instances; 0: not stated */
	int64_t threads;           /* closed-loop threads per instance; 0: not stated */
	int64_t users;             /* think-time users per instance; 0: none */
	int64_t tables, table_size; /* 0: not stated */
	int64_t warehouses;        /* 0: not stated */
};

struct lb_entry {
	const struct pub_result *pub;  /* NULL: a measured drive */
	const char *name;              /* the drive */
	const char *where;             /* measured: the run group label; published: its era / platform */
	double tps, avg_ms;
	bool has_p99;
	double p99_ms;
	size_t rank_tps, rank_p99, rank_avg; /* 1-based; rank_p99 0: no p99 */
};

#define LB_NEAR_MAX 3

struct lb_near {
	const struct pub_result *pub;
	size_t ndiff;
	char fields[256];          /* "threads per instance 8 vs 32; scale 4 x 10,000 vs 100 x 10,000,000 rows" */
};

struct lb_board {
	struct lb_proto proto;
	bool latency_only;         /* think times: ranked by average latency, TPS shown only */
	size_t n;
	struct lb_entry *e;
	size_t *by_tps, *by_p99, *by_avg; /* indices into e, best first; by_p99 has np99 */
	size_t np99;
	size_t nnear;
	struct lb_near near[LB_NEAR_MAX];
};

void lb_proto_of_pub(const struct pub_result *p, struct lb_proto *out);
/* From a measured group's kind, test, vm_count and params ("threads=8 tables=4 ..."). */
void lb_proto_of_group(const struct agg_group *g, struct lb_proto *out);
/* "workload=sysbench,vms=1,threads=32[,test=...,users=N,tables=N,table_size=N,warehouses=N]".
 * -EINVAL with one line naming the field, the value and what was expected. */
int lb_proto_parse(const char *spec, struct lb_proto *out, struct strbuf *err) __attribute__((warn_unused_result));
/* "sysbench oltp_read_write, 1 instance x 32 threads, 100 x 10,000,000 rows" */
void lb_proto_describe(const struct lb_proto *p, struct strbuf *sb);
/* How many fields of `row` differ from `want`; their description in `fields` (may be NULL). */
size_t lb_proto_diff(const struct lb_proto *want, const struct lb_proto *row, struct strbuf *fields);

/* True when the published row states the group's protocol (lb_proto_diff 0). */
bool lb_group_matches(const struct agg_group *g, const struct pub_result *p);

/* The board of `want`: every published row of the same protocol and the
 * measured entries given (copied; `pub` of each must be NULL), ranked. */
void lb_build(const struct pub_set *pub, const struct lb_proto *want, const struct lb_entry *measured,
	      size_t nmeasured, struct lb_board *out);
void lb_release(struct lb_board *b);

/* "published · <era> · machine-translated" or "measured · <run group>" (plain text). */
void lb_mark(const struct lb_entry *e, struct strbuf *sb);

/* Terminal, Markdown and HTML renderings. The report sections build one board
 * per distinct protocol among the measured groups (not the per-drive slices). */
void lb_text(const struct lb_board *b, struct strbuf *sb);
void lb_md_section(struct strbuf *sb, const struct report *rep);
void lb_html_section(struct strbuf *sb, const struct report *rep);

/* report.json: the row's optional fields added to its object (drive, era,
 * machine_translated, quote, ...), and the "leaderboard" array (one object per
 * board: protocol, ranked_by, reason, rows with their ranks, nearest). */
struct json_t;
void lb_row_json(const struct pub_result *p, struct json_t *obj);
struct json_t *lb_incomplete_json(const struct pub_review *rv);
struct json_t *lb_json(const struct report *rep);

#endif
