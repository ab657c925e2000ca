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
/* "fast > slow by 11.6x (95% CI 10.9–12.3)" for a drive comparison. */
void report_compare_sentence(const struct agg_cmp *c, const struct agg_group *a, const struct agg_group *b,
			     char *buf, size_t n);

#endif
