#include "stats/hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB_COUNT (1u << HIST_SUB_BITS) /* 128 */

int hist_init(struct hist **out)
{
	struct hist *h = malloc(sizeof(*h));

	*out = NULL;
	if (!h)
		return -ENOMEM;
	hist_reset(h);
	*out = h;
	return 0;
}

void hist_close(struct hist *h)
{
	free(h);
}

void hist_reset(struct hist *h)
{
	memset(h->counts, 0, sizeof(h->counts));
	h->total = 0;
	h->overflow = 0;
	h->min = UINT64_MAX;
	h->max = 0;
	h->sum = 0;
}

/*
 * With k = the octave of v (0 for v < 256, else msb(v) - 7), the index is
 * k * 128 + (v >> k): for k = 0 that is v itself, and for k >= 1 the shifted
 * value lies in [128, 256), so octave k starts right where octave k - 1 ends.
 * OR-ing in 255 makes k come out as 0 below 256 without a branch.
 */
static inline size_t index_of(uint64_t v)
{
	unsigned k = 56u - (unsigned)__builtin_clzll(v | 255u);

	return (size_t)k * SUB_COUNT + (size_t)(v >> k);
}

size_t hist_bucket_index(uint64_t value_ns)
{
	if (value_ns > HIST_MAX_NS)
		return HIST_BUCKETS - 1;
	return index_of(value_ns);
}

uint64_t hist_bucket_lowest(size_t index)
{
	if (index >= HIST_BUCKETS)
		index = HIST_BUCKETS - 1;
	if (index < 2 * SUB_COUNT)
		return index;
	unsigned k = (unsigned)(index / SUB_COUNT) - 1;
	return (uint64_t)(index - (size_t)k * SUB_COUNT) << k;
}

uint64_t hist_bucket_highest(size_t index)
{
	if (index >= HIST_BUCKETS)
		index = HIST_BUCKETS - 1;
	if (index < 2 * SUB_COUNT)
		return index;
	unsigned k = (unsigned)(index / SUB_COUNT) - 1;
	return hist_bucket_lowest(index) + (UINT64_C(1) << k) - 1;
}

uint64_t hist_bucket_mid(size_t index)
{
	uint64_t lo = hist_bucket_lowest(index);

	return lo + (hist_bucket_highest(index) - lo) / 2;
}

bool hist_record_n(struct hist *h, uint64_t value_ns, uint64_t count)
{
	bool in_range = value_ns <= HIST_MAX_NS;

	if (!count)
		return in_range;
	if (__builtin_expect(in_range, 1)) {
		h->counts[index_of(value_ns)] += count;
	} else {
		h->counts[HIST_BUCKETS - 1] += count;
		h->overflow += count;
	}
	h->total += count;
	if (value_ns < h->min)
		h->min = value_ns;
	if (value_ns > h->max)
		h->max = value_ns;
	h->sum += (long double)value_ns * (long double)count;
	return in_range;
}

bool hist_record(struct hist *h, uint64_t value_ns)
{
	return hist_record_n(h, value_ns, 1);
}

void hist_add(struct hist *dst, const struct hist *src)
{
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->overflow += src->overflow;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_value_at_percentile(const struct hist *h, double p)
{
	if (!h->total)
		return 0;

	/*
	 * p arrives as a binary double (99.9 is really 99.900000000000006), so
	 * p/100 * total can land a few ulps above an integer and ceil() would
	 * then skip a whole rank; shaving 2^-50 of the product undoes that
	 * without moving any rank that is genuinely fractional.
	 */
	uint64_t rank;
	if (!(p > 0)) {
		rank = 1;
	} else if (p >= 100) {
		rank = h->total;
	} else {
		double x = p / 100.0 * (double)h->total;
		x = ceil(x - x * 0x1p-50);
		rank = x < 1 ? 1 : (uint64_t)x;
		if (rank > h->total)
			rank = h->total;
	}

	uint64_t seen = 0;
	size_t i;
	for (i = 0; i < HIST_BUCKETS - 1; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}

	uint64_t v = hist_bucket_mid(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	if (!h->total)
		return 0;
	return (double)(h->sum / (long double)h->total);
}

bool hist_next_bucket(const struct hist *h, size_t *cursor, size_t *index, uint64_t *count)
{
	for (size_t i = *cursor; i < HIST_BUCKETS; i++) {
		if (h->counts[i]) {
			*index = i;
			*count = h->counts[i];
			*cursor = i + 1;
			return true;
		}
	}
	*cursor = HIST_BUCKETS;
	return false;
}

int hist_set_bucket(struct hist *h, size_t index, uint64_t count)
{
	if (index >= HIST_BUCKETS)
		return -EINVAL;
	h->total = h->total - h->counts[index] + count;
	h->counts[index] = count;
	return 0;
}
