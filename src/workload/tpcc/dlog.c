/*
 * The Delivery result log (clause 2.7.4.2): per deferred Delivery, the time
 * it was queued, whether its terminal was answered then (deferred, as the
 * spec runs it) or waited for it, the warehouse and carrier, the order delivered in each
 * district (or that the district had no new order and was skipped), and the
 * time it completed. Lines are tab-separated after a '#' header; times are
 * UTC, ISO 8601 with microseconds; the file is written atomically
 * (core/fileio.c) when the run ends.
 */
#include "workload/tpcc/tpcc.h"

#include "core/fileio.h"

#include <time.h>

void tpcc_dlog_init(struct tpcc_dlog *d)
{
	pthread_mutex_init(&d->mu, NULL);
	strbuf_init(&d->text, 4096);
	strbuf_adds(&d->text, "# dbrig tpcc delivery log (TPC-C clause 2.7.4.2): phase\tqueued\tcompleted\tterminal\tw_id\tcarrier_id"
			      "\tdelivered (d_id:o_id)\tskipped (d_id: no new order)\n");
	d->lines = 0;
}

static void add_time(struct strbuf *sb, const struct timespec *t)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&t->tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	strbuf_addf(sb, "%s.%06ldZ", buf, t->tv_nsec / 1000);
}

void tpcc_dlog_add(struct tpcc_dlog *d, unsigned phase, uint64_t latency_ns, bool deferred, uint32_t w,
		   uint32_t carrier, const uint32_t o_id[10])
{
	struct timespec done, queued;
	uint64_t ns;
	unsigned n;

	clock_gettime(CLOCK_REALTIME, &done);
	ns = (uint64_t)done.tv_sec * 1000000000ULL + (uint64_t)done.tv_nsec - latency_ns;
	queued.tv_sec = (time_t)(ns / 1000000000ULL);
	queued.tv_nsec = (long)(ns % 1000000000ULL);
	pthread_mutex_lock(&d->mu);
	strbuf_adds(&d->text, phase == 0 ? "precondition\t" : "sample\t");
	add_time(&d->text, &queued);
	strbuf_addc(&d->text, '\t');
	add_time(&d->text, &done);
	/* The terminal's response: at the queueing (deferred), or only at the
	 * completion (it waited: not the spec's deferred execution). */
	strbuf_addf(&d->text, "\t%s\t%u\t%u\t", deferred ? "answered-at-queueing" : "waited", w, carrier);
	n = 0;
	for (unsigned k = 0; k < 10; k++)
		if (o_id[k])
			strbuf_addf(&d->text, "%s%u:%u", n++ ? "," : "", k + 1, o_id[k]);
	strbuf_adds(&d->text, n ? "\t" : "-\t");
	n = 0;
	for (unsigned k = 0; k < 10; k++)
		if (!o_id[k])
			strbuf_addf(&d->text, "%s%u", n++ ? "," : "", k + 1);
	strbuf_adds(&d->text, n ? "\n" : "-\n");
	d->lines++;
	pthread_mutex_unlock(&d->mu);
}

int tpcc_dlog_write(struct tpcc_dlog *d, const char *path)
{
	return atomic_write_file(path, d->text.buf, d->text.len);
}

void tpcc_dlog_release(struct tpcc_dlog *d)
{
	strbuf_release(&d->text);
	pthread_mutex_destroy(&d->mu);
}
