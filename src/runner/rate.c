#include "runner/rate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t gap(struct rate_sched *rs)
{
	double g = rng_exponential(&rs->rng, rs->mean_gap_ns);

	/* At least 1 ns, so time always moves on, and far below overflow. */
	if (g < 1)
		return 1;
	if (g > 1e15)
		return (uint64_t)1e15;
	return (uint64_t)g;
}

int rate_init(struct rate_sched *rs, double per_second, uint64_t seed, uint64_t start_ns, size_t capacity)
{
	memset(rs, 0, sizeof(*rs));
	if (per_second <= 0 || capacity == 0)
		return -EINVAL;
	rs->ring = calloc(capacity, sizeof(*rs->ring));
	if (!rs->ring)
		return -ENOMEM;
	pthread_mutex_init(&rs->mu, NULL);
	rs->cap = capacity;
	rs->mean_gap_ns = 1e9 / per_second;
	rng_seed(&rs->rng, seed);
	rs->next_ns = start_ns + gap(rs);
	return 0;
}

void rate_free(struct rate_sched *rs)
{
	if (!rs->ring)
		return;
	free(rs->ring);
	rs->ring = NULL;
	pthread_mutex_destroy(&rs->mu);
}

/* Append every arrival due by `now` (caller holds mu). */
static void generate(struct rate_sched *rs, uint64_t now)
{
	while (!rs->overflow && rs->next_ns <= now) {
		if (rs->len == rs->cap) {
			rs->overflow = true;
			break;
		}
		rs->ring[(rs->head + rs->len) % rs->cap] = rs->next_ns;
		rs->len++;
		rs->next_ns += gap(rs);
	}
}

enum rate_take rate_take(struct rate_sched *rs, uint64_t now, uint64_t *out)
{
	enum rate_take r;

	pthread_mutex_lock(&rs->mu);
	generate(rs, now);
	if (rs->overflow) {
		r = RATE_OVERFLOW;
	} else if (rs->len) {
		*out = rs->ring[rs->head];
		rs->head = (rs->head + 1) % rs->cap;
		rs->len--;
		r = RATE_ARRIVAL;
	} else {
		*out = rs->next_ns;
		r = RATE_NONE;
	}
	pthread_mutex_unlock(&rs->mu);
	return r;
}

size_t rate_queue_len(struct rate_sched *rs, uint64_t now, bool *overflow)
{
	size_t n;

	pthread_mutex_lock(&rs->mu);
	generate(rs, now);
	n = rs->len;
	if (overflow)
		*overflow = rs->overflow;
	pthread_mutex_unlock(&rs->mu);
	return n;
}

uint64_t rate_next_due(struct rate_sched *rs)
{
	uint64_t t;

	pthread_mutex_lock(&rs->mu);
	t = rs->len ? rs->ring[rs->head] : rs->next_ns;
	pthread_mutex_unlock(&rs->mu);
	return t;
}
