/*
 * User-facing messages. Every message is one line on stderr starting with
 * "dbrig: " and says the place, the value and what was expected, e.g.
 *   dbrig: --threads: "abc" is not an integer (expected 1..100000)
 */
#ifndef DBRIG_CORE_LOG_H
#define DBRIG_CORE_LOG_H

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Verbosity as sysbench's --verbosity: 0 silent .. 5 debug; info prints at >= 3. */
void log_set_verbosity(int v);
int log_verbosity(void);

#endif
