/*
 * Strict parsers for durations and sizes given by users ("2h", "30m", "24G").
 *
 * Durations: a non-negative decimal number with an optional unit: ms, s, m, h, d
 * (no unit = seconds, as sysbench's --time). Combined forms like "1h30m" are
 * accepted. Result in nanoseconds. Rejects empty strings, signs, garbage,
 * overflow beyond 10 years.
 *
 * Sizes: a non-negative integer or decimal with an optional binary unit:
 * B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB (all powers of 1024, case-
 * insensitive; no unit = bytes). Result in bytes; rejects overflow of uint64.
 *
 * Both return 0 on success or -EINVAL; on failure `*why` (when not NULL) points
 * to a static string saying what was expected, for error messages such as
 *   dbrig: --time: "2x" is not a duration (expected a number with unit ms, s, m, h or d)
 */
#ifndef DBRIG_CORE_UNITS_H
#define DBRIG_CORE_UNITS_H

#include <stdint.h>

int parse_duration_ns(const char *s, uint64_t *out_ns, const char **why) __attribute__((warn_unused_result));
int parse_size_bytes(const char *s, uint64_t *out_bytes, const char **why) __attribute__((warn_unused_result));

/* Strict integer parse of the whole string (base 10), within [min, max]. */
int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out) __attribute__((warn_unused_result));
/* Strict double parse of the whole string, finite. */
int parse_double(const char *s, double *out) __attribute__((warn_unused_result));

/* Format a duration for humans: "2h", "1h30m", "45s", "1.5s", "250ms". */
void format_duration(uint64_t ns, char *buf, unsigned bufsz);

#endif
