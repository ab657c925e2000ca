/*
 * Strict parsers for durations and sizes given by users ("2h", "30m", "24G").
 *
 * Durations: a non-negative decimal number with an optional unit: ms, s, m, h, d
 * (no unit = seconds, as sysbench's --time). Combined forms like "1h30m" are
 * accepted: there every number needs a unit, largest unit first, each unit
 * once. Result in nanoseconds (finer fractions truncated). Rejects empty
 * strings, whitespace, signs, garbage, overflow beyond 10 years (3652.5 d).
 *
 * Sizes: a non-negative integer or decimal with an optional binary unit:
 * B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB (all powers of 1024, case-
 * insensitive; no unit = bytes). Result in bytes; rejects overflow of uint64.
 * A fraction of a byte left by a unit is dropped ("1.3K" = 1331); without a
 * unit (or with B) the number must be whole.
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

/* Strict integer parse of the whole string (base 10, optional sign, no
 * spaces), within [min, max]. Returns 0 or -EINVAL. */
int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out) __attribute__((warn_unused_result));
/* Strict double parse of the whole string, finite, decimal notation only
 * (no spaces, hex, inf or nan). Returns 0 or -EINVAL. */
int parse_double(const char *s, double *out) __attribute__((warn_unused_result));

/* Format a duration for humans: "2h", "1h30m", "45s", "1.5s", "250ms",
 * "1d2h". The output parses back to the same value; it is truncated to
 * bufsz - 1 characters, always terminated when bufsz > 0. */
void format_duration(uint64_t ns, char *buf, unsigned bufsz);

#endif
