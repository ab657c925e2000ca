/*
 * What the parts of the result reader share (result/ only): read.c parses a
 * result file, read_tel.c its telemetry, read_journal.c a journal, read_dir.c
 * a folder of both. Each takes a jsonr (core/jsonr.h: the file, JSON path and
 * first error) and marks it failed on bad input; none prints.
 */
#ifndef DBRIG_RESULT_READ_INT_H
#define DBRIG_RESULT_READ_INT_H

#include "core/jsonr.h"
#include "result/model.h"

#include <stddef.h>

struct hist;
/* jansson stays out of headers: `struct json_t` is jansson's json_t. */
struct json_t;

/* 0: major version 1 of `family`; -1: another major; 1: not this family. */
int rd_schema_check(const char *schema, const char *family);
/* The run's identity: workload, engine, target, campaign keys (a result's root or a journal's header). */
void rd_identity(struct jsonr *jr, struct run *r, struct json_t *root);
/* Histogram buckets [[index, count], ...] added into *hp (allocated on first use). */
void rd_counts(struct jsonr *jr, struct json_t *counts, const char *path, struct hist **hp);
/* min/max/sum from bucket bounds when the exact ones were not stored (a journal). */
void rd_hist_fill_approx(struct hist *h);
/* "phase": "precondition" or "sample". */
int rd_phase(struct jsonr *jr, struct json_t *v, const char *path, enum result_phase *out);
/* Interval record i of an "intervals" array: its path (".intervals[i]", into path), an object with
 * a phase and a time "t"; 0, or -EINVAL after the message. */
int rd_interval_at(struct jsonr *jr, struct json_t *v, size_t i, char path[64], enum result_phase *ph, double *t);
/* "status": complete, degraded, interrupted or failed. */
int rd_status(struct jsonr *jr, struct json_t *root, const char *path, enum result_run_status *out);
/* One more interval point (growing r->intervals, *cap its capacity). */
void rd_add_interval(struct run *r, size_t *cap, enum result_phase ph, double t, double secs, double tps);
/* The result's test_bed (host, drives' identity and health), as far as it is well formed. */
void rd_test_bed(struct run *r, struct json_t *root);
/* read_series.c: the interval series of the journal `text` (named `name`) into r, in place of
 * any it had: 0; 1 when the journal is not plain enough for the line-by-line reader (nothing
 * changed: read it with results_parse_journal). */
int rd_journal_series(struct run *r, const char *name, const char *text);
/* read_tel.c: a result's "telemetry" (format 1.1) and the driver's own CPU. */
void rd_telemetry(struct jsonr *jr, struct run *r, struct json_t *root);
/* read_tel.c: an interval's "telemetry": host CPU and the busiest device. */
void rd_interval_tel(struct jsonr *jr, struct json_t *v, const char *path, struct interval_pt *pt);

#endif
