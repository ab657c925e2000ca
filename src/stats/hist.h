/*
 * Latency histogram: log-linear buckets, exact merge, nearest-rank percentiles.
 *
 * Values are unsigned 64-bit integers in nanoseconds. Buckets follow the
 * HdrHistogram layout with 7 significant bits: values 0..255 ns each have their
 * own bucket; above that every power-of-two range [2^k * 128, 2^k * 256), k >= 1,
 * is split into 128 equal sub-buckets of width 2^k. A bucket is therefore never
 * wider than 1/128 (0.78%) of its lower bound, and the value reported for a
 * bucket (its midpoint, clamped to the recorded min and max) is within 0.4% of
 * any value recorded in it: the relative error of every percentile is <= 1%.
 *
 * The range is 0 ns to HIST_MAX_NS (2^44 - 1 ns, about 4.9 hours), which covers
 * 1 us .. 1 h with room to spare. Larger values are recorded in the last bucket
 * and counted in `overflow`, so a saturated histogram is visible, never silent.
 *
 * Buckets are identified by a stable index (hist_bucket_index); the result file
 * stores non-empty buckets as [index, count] pairs, so histograms from different
 * processes merge exactly (hist_add) and percentiles are computed after merging,
 * never averaged.
 *
 * Not thread-safe: one histogram per recording thread, merged by the reader.
 */
#ifndef DBRIG_STATS_HIST_H
#define DBRIG_STATS_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_MAX_NS ((UINT64_C(1) << 44) - 1)
/* 256 exact buckets + 36 octaves (k = 1..36) of 128 sub-buckets. */
#define HIST_BUCKETS (256 + 36 * 128)

struct hist {
	uint64_t total;    /* number of recorded values */
	uint64_t overflow; /* values above HIST_MAX_NS (recorded in the last bucket) */
	uint64_t min;      /* exact smallest recorded value (UINT64_MAX when empty) */
	uint64_t max;      /* exact largest recorded value (0 when empty) */
	long double sum;   /* exact sum of recorded values, in ns */
	uint64_t counts[HIST_BUCKETS];
};

/* Allocate an empty histogram. Returns 0 or -ENOMEM. */
int hist_init(struct hist **out) __attribute__((warn_unused_result));
void hist_close(struct hist *h); /* accepts NULL */
void hist_reset(struct hist *h);

/* Record one value. Returns false when the value was above HIST_MAX_NS
 * (it is still counted, in the last bucket and in `overflow`). */
bool hist_record(struct hist *h, uint64_t value_ns);
bool hist_record_n(struct hist *h, uint64_t value_ns, uint64_t count);

/* dst += src, exactly. */
void hist_add(struct hist *dst, const struct hist *src);

/* Nearest-rank percentile, p in (0, 100]: the value of the bucket holding the
 * ceil(p/100 * total)-th smallest value, reported as the bucket midpoint clamped
 * to [min, max]. Returns 0 on an empty histogram. */
uint64_t hist_value_at_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h); /* exact, from sum; 0 when empty */

/* Bucket geometry. */
size_t hist_bucket_index(uint64_t value_ns);
uint64_t hist_bucket_lowest(size_t index);  /* smallest value in the bucket */
uint64_t hist_bucket_highest(size_t index); /* largest value in the bucket */
uint64_t hist_bucket_mid(size_t index);

/* Iterate over non-empty buckets: start with *cursor = 0; returns false when done. */
bool hist_next_bucket(const struct hist *h, size_t *cursor, size_t *index, uint64_t *count);

/* Set a bucket's count directly (used when reading a stored histogram). Also
 * updates total; the caller restores min/max/sum/overflow. Returns -EINVAL on a
 * bad index (>= HIST_BUCKETS). */
int hist_set_bucket(struct hist *h, size_t index, uint64_t count) __attribute__((warn_unused_result));

#endif
