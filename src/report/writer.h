/*
 * Report writers: one `static const struct report_writer_ops` per format,
 * registered in the explicit list of writers.c. A writer renders into memory
 * files (name + body); the caller writes them with atomic_write_file, so a
 * writer never touches the filesystem and tests can compare its bytes.
 */
#ifndef DBRIG_REPORT_WRITER_H
#define DBRIG_REPORT_WRITER_H

#include "core/strbuf.h"
#include "report/aggregate.h"

#include <stddef.h>

struct report_file {
	char *name;          /* file name inside the output folder */
	struct strbuf body;
};

struct report_files {
	size_t n;
	struct report_file *v;
};

/* A new empty file named `name`, owned by `fs`. */
struct strbuf *report_files_add(struct report_files *fs, const char *name);
void report_files_release(struct report_files *fs);

struct report_writer_ops {
	const char *name;     /* --format value: "md", "html", "csv", "json" */
	const char *summary;  /* for --help */
	/* Render `rep` into one or more files. Returns 0 or a negative errno. */
	int (*render)(const struct report *rep, struct report_files *out);
};

extern const struct report_writer_ops report_md_ops;
extern const struct report_writer_ops report_html_ops;
extern const struct report_writer_ops report_csv_ops;
extern const struct report_writer_ops report_json_ops;

/* NULL-terminated list of every writer, in --format order. */
extern const struct report_writer_ops *const report_writers[];
const struct report_writer_ops *report_writer_find(const char *name);

/* Shared formatting helpers for the text writers. */
const char *report_kind_title(const char *kind);      /* "sysbench OLTP", "TPC-C" */
void report_fmt_num(char *buf, size_t n, double v, int decimals); /* "7,869.21" */
/* A Markdown table cell: "| text " with "|" escaped and newlines as spaces. */
void report_md_cell(struct strbuf *sb, const char *s);
/* "loop4: 2 r + 120 w IOPS, 0.01 r + 1.00 w MB/s, 61.60 ms per I/O, queue depth 7.5, 100% utilised". */
void report_dev_text(const struct tel_dev *d, char *buf, size_t n);
/* Where drive's sample telemetry came from, one sentence ("host CPU: libvirt node stats (host
 * kvm2), host memory 41% used (…); block devices: …; VM disks: libvirt block stats"), from the
 * first of its results that says (host_cpu.source, written since 2026-12-03); false when none does
 * (older results: nothing is claimed). */
bool report_tel_sources_text(const struct report *rep, const char *drive, struct strbuf *out);
/* "fast > slow by 11.6x (95% CI 10.9–12.3)" for a drive comparison. */
void report_compare_sentence(const struct agg_cmp *c, const struct agg_group *a, const struct agg_group *b,
			     char *buf, size_t n);

/*
 * The headline: one sentence per run group compared over drives (TPS ratio,
 * p99 and average latency change, each with its 95% CI and significance), or
 * per group when nothing is compared. `lead` names the run group, `text` is
 * plain text; `warn`: a difference not significant, or an incomplete group.
 * The text writers render the same sentences (md, html).
 */
typedef void report_headline_fn(void *ctx, const char *lead, const char *text, bool warn);
void report_headlines(const struct report *rep, report_headline_fn *emit, void *ctx);

/* "nvme0n1: SAMSUNG …, serial S6…, firmware GDC7102Q, 3,841 GB, 512/4096-byte blocks (logical/physical)". */
void report_drive_id_text(struct strbuf *t, const struct drive_id *id);

/* The test bed, from the results themselves: one text per field ("" when no result recorded it). */
struct report_bed_drive {
	const char *name;          /* run.drive */
	char *storage;             /* "raw volume, allocation full (preallocated)", or "" */
	char *storage_raw;         /* run.storage as recorded ("format=raw allocation=full"; "; "-joined), or "" */
	const struct run *run;     /* the first run that recorded its block devices' identity, or NULL */
	const char *stack;         /* its block devices ("loop3 (file /x.img) on vda"), or NULL */
};

struct report_bed {
	char *campaign;            /* the distinct campaigns, "; "-joined */
	size_t nruns;
	const struct run **runs;   /* one result of each campaign run (run.run_id), in result order */
	char *run;                 /* the campaign runs: "ID, started TIME; …" */
	const char *first, *last;  /* earliest started_at, latest finished_at, or NULL */
	char *tool, *engine;       /* dbrig versions; "driver server_version"s */
	const struct host_id *hostid; /* the first recorded host, or NULL */
	unsigned cpus;
	char *host;                /* "CPU model, N CPUs, M GiB RAM, kernel" */
	size_t ndrives;
	struct report_bed_drive *drives; /* in result order */
};
void report_bed_build(const struct report *rep, struct report_bed *b);
void report_bed_release(struct report_bed *b);
/* The rows every format shows first (campaign, campaign run, runs, dbrig, engine and server,
 * host): row(sb, name, text), text "" when no result recorded it. */
typedef void report_bed_row_fn(struct strbuf *sb, const char *name, const char *text);
void report_bed_rows(const struct report_bed *b, struct strbuf *sb, report_bed_row_fn *row);

#endif
