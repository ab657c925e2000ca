/* Counters of one recording thread, merged by the reporter (sysbench's sb_counter). */
#ifndef DBRIG_STATS_COUNTERS_H
#define DBRIG_STATS_COUNTERS_H

#include <stdint.h>

struct counters {
	uint64_t events;     /* completed transactions (sysbench "transactions") */
	uint64_t rollbacks;  /* transactions ended by an intended rollback */
	uint64_t reads, writes, others;
	uint64_t errors;     /* ignored (retried) errors */
	uint64_t reconnects;
};

static inline void counters_add(struct counters *d, const struct counters *s)
{
	d->events += s->events;
	d->rollbacks += s->rollbacks;
	d->reads += s->reads;
	d->writes += s->writes;
	d->others += s->others;
	d->errors += s->errors;
	d->reconnects += s->reconnects;
}

#endif
