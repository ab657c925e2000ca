/*
 * Published review numbers (reports/published/<review>.json, schema
 * "dbrig.published/1", documented in reports/published/README.md). One file
 * per review: the drive, the test platform, the source, and one entry per
 * published configuration (workload, VM count, drives, TPS, latencies).
 *
 * Loading validates every field; unknown keys are refused so a typo such as
 * "avg_latency" instead of "avg_latency_ms" is an error, not a missing bar.
 */
#ifndef DBRIG_REPORT_PUBLISHED_H
#define DBRIG_REPORT_PUBLISHED_H

#include "core/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pub_review;

/* Optional per-row fields (reports/published/README.md): who and where, and the
 * protocol's scale. Strings are "" when not given, numbers 0. */
struct pub_row_ext {
	const char *drive;        /* the row's own "drive", else the file's drive.name (not owned) */
	char *drive_own;          /* the row's "drive", or NULL */
	char *drive_details;
	char *era;                /* platform / era tag shown beside the row in rankings */
	bool machine_translated;  /* the figures come from a machine-translated page */
	char *drives_used;
	char *quote;              /* a short quote of the source's row */
	char *notes;
	int64_t tables, table_size; /* sysbench scale; 0: not stated */
	int64_t warehouses;       /* tpcc scale; 0: not stated */
	bool has_lat_decimals;    /* avg_latency_decimals given: */
	int lat_decimals;         /*   the digits after the point the source printed */
};

/* A row the source published without a figure (no TPS, or no VM count): kept
 * with what it has, never ranked. */
struct pub_incomplete {
	char *label, *kind, *test, *method, *missing;
	int64_t vm_count;         /* 0: not stated */
	int64_t users_per_vm;     /* 0: not stated */
	bool has_avg;
	double avg_ms;
	struct pub_row_ext x;
};

struct pub_result {
	const struct pub_review *review;
	char *label;            /* "4 VMs, 1 drive" */
	char *kind;             /* "sysbench" | "tpcc", as workload.kind of a result */
	char *test;             /* "oltp_read_write", "tpcc" */
	int64_t vm_count;
	int64_t drives;         /* drives the VMs were spread over */
	int64_t threads_per_vm; /* 0 when not published: closed-loop client threads */
	int64_t users_per_vm;   /* 0 when not published: TPC-C users with keying and think times */
	char *database;         /* "" when not published */
	char *method;
	double tps;             /* sum over VMs */
	double avg_ms;          /* mean of the VMs' average latencies */
	bool has_p99;
	double p99_ms;          /* "average 99th percentile": mean of the VMs' p99s */
	struct pub_row_ext x;   /* what the row states beyond the figures */
};

struct pub_review {
	char *file;             /* base name, e.g. "storagereview-pm1735.json" */
	char *drive;            /* "Samsung PM1735 3.2 TB" */
	char *drive_details;
	char *platform;
	char *publisher, *title, *url, *date; /* url/date "" when not given */
	char *original_url;     /* source.original_url, "" when not given */
	size_t nresults;
	struct pub_result *results;
	size_t nincomplete;
	struct pub_incomplete *incomplete;
};

struct pub_set {
	size_t n;
	struct pub_review *reviews; /* sorted by file name */
};

/* Parse and validate one file's text. Returns 0 or -EINVAL with one message
 * "<name>: <json path>: <value> (expected ...)" in err. */
int published_parse(const char *name, const char *text, struct pub_review *out, struct strbuf *err)
	__attribute__((warn_unused_result));
/* Every *.json in dir (not recursive). A missing folder is an error. */
int published_load_dir(const char *dir, struct pub_set **out, struct strbuf *err) __attribute__((warn_unused_result));
void pub_review_release(struct pub_review *r);
/* The row's drive as shown in tables and charts: "Name", or "Name (machine-translated)"
 * when its source page was machine-translated (always marked). */
void pub_row_name(const struct pub_result *p, struct strbuf *sb);
void pub_set_free(struct pub_set *s); /* accepts NULL */

#endif
