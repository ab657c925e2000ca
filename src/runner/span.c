/* Merged statistics of a span of time (an interval or a whole phase). */
#include "runner/internal.h"

#include <string.h>

const char *phase_name(enum phase_kind p)
{
	switch (p) {
	case PHASE_PRECONDITION:
		return "precondition";
	case PHASE_SAMPLE:
		return "sample";
	}
	return "?";
}

int span_init(struct span_stats *s, unsigned ntypes)
{
	memset(s, 0, sizeof(*s));
	if (hist_init(&s->lat) < 0 || hist_init(&s->wait) < 0)
		return -1;
	for (unsigned i = 0; i < ntypes && ntypes > 1; i++)
		if (hist_init(&s->type_lat[i]) < 0)
			return -1;
	return 0;
}

void span_free(struct span_stats *s)
{
	hist_close(s->lat);
	hist_close(s->wait);
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++)
		hist_close(s->type_lat[i]);
	memset(s, 0, sizeof(*s));
}

void span_reset(struct span_stats *s)
{
	memset(&s->c, 0, sizeof(s->c));
	hist_reset(s->lat);
	hist_reset(s->wait);
	s->queued_ns = 0;
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++) {
		if (s->type_lat[i])
			hist_reset(s->type_lat[i]);
		s->type_count[i] = 0;
		s->type_wait_ns[i] = 0;
	}
}

void span_add(struct span_stats *d, const struct span_stats *s)
{
	counters_add(&d->c, &s->c);
	hist_add(d->lat, s->lat);
	hist_add(d->wait, s->wait);
	d->queued_ns += s->queued_ns;
	for (unsigned i = 0; i < RUNNER_MAX_TYPES; i++) {
		if (d->type_lat[i] && s->type_lat[i])
			hist_add(d->type_lat[i], s->type_lat[i]);
		d->type_count[i] += s->type_count[i];
		d->type_wait_ns[i] += s->type_wait_ns[i];
	}
}
