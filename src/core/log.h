/*
 * User-facing messages. Every message is one line on stderr starting with
 * "dbrig: " and says the place, the value and what was expected, e.g.
 *   dbrig: --threads: "abc" is not an integer (expected 1..100000)
 */
#ifndef DBRIG_CORE_LOG_H
#define DBRIG_CORE_LOG_H

/* Inside `dbrig sysbench`, sysbench 1.0.20's conventions (its messages are
 * part of what a drop-in must reproduce): every message goes to stdout, as
 * sysbench's logger prints them, errors as "FATAL: ...", warnings as
 * "WARNING: ...", and --verbosity gates them as sysbench's levels do (0 fatal
 * only, 2 warnings, 3 notices, 4 info, 5 debug). */
enum log_style {
	LOG_STYLE_DBRIG = 0,
	LOG_STYLE_SYSBENCH,
};
void log_set_style(enum log_style s);
enum log_style log_style(void);

/* A message longer than this (once escaped) loses its middle, never its end (strbuf_add_shown). */
#define LOG_LINE_MAX 2048
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An error about one of dbrig's own additions (result and journal files):
 * "dbrig: ..." on stderr in either style, so it never mixes into sysbench's
 * output. */
void log_error_dbrig(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn_dbrig(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Verbosity as sysbench's --verbosity: 0 silent .. 5 debug; info prints at >= 3. */
void log_set_verbosity(int v);
int log_verbosity(void);

#endif
