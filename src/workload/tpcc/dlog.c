/*
 * The Delivery result log (clause 2.7.4.2): per deferred Delivery, the time
 * it was queued, whether its terminal was answered then (deferred, as the
 * spec runs it) or waited for it, the warehouse and carrier, the order delivered in each
 * district (or that the district had no new order and was skipped), and the
 * time it completed. Lines are tab-separated after a '#' header; times are
 * UTC, ISO 8601 with microseconds. Each line is written to "<path>.tmp" as
 * it comes (never held in memory: an 8-hour run logs gigabytes), and the file
 * is renamed over `path` when the run ends; until then `path` holds the
 * header alone, and after a crash "<path>.tmp" holds what was logged.
 */
#include "workload/tpcc/tpcc.h"

#include "core/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char dlog_header[] =
	"# dbrig tpcc delivery log (TPC-C clause 2.7.4.2): phase\tqueued\tcompleted\tterminal\tw_id\tcarrier_id"
	"\tdelivered (d_id:o_id)\tskipped (d_id: no new order)\n";

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int tpcc_dlog_open(struct tpcc_dlog *d, const char *path)
{
	struct strbuf tmp;
	int ret;

	pthread_mutex_init(&d->mu, NULL);
	d->fd = -1;
	d->err = 0;
	d->lines = 0;
	d->path = xstrdup(path);
	strbuf_init(&tmp, 0);
	strbuf_addf(&tmp, "%s.tmp", path);
	d->tmp = strbuf_detach(&tmp);
	/* The header at `path` now: a valid (empty) log whatever happens next. */
	ret = atomic_write_file(path, dlog_header, sizeof(dlog_header) - 1);
	if (ret < 0)
		return ret;
	d->fd = open_for_write(d->tmp, WRITE_TRUNC, 0644);
	if (d->fd < 0)
		return d->fd;
	ret = write_all(d->fd, dlog_header, sizeof(dlog_header) - 1);
	if (ret < 0) {
		close(d->fd);
		d->fd = -1;
		unlink(d->tmp);
	}
	return ret;
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
	struct strbuf line;
	uint64_t ns;
	unsigned n;

	clock_gettime(CLOCK_REALTIME, &done);
	ns = (uint64_t)done.tv_sec * 1000000000ULL + (uint64_t)done.tv_nsec - latency_ns;
	queued.tv_sec = (time_t)(ns / 1000000000ULL);
	queued.tv_nsec = (long)(ns % 1000000000ULL);
	strbuf_init(&line, 192);
	strbuf_adds(&line, phase == 0 ? "precondition\t" : "sample\t");
	add_time(&line, &queued);
	strbuf_addc(&line, '\t');
	add_time(&line, &done);
	/* The terminal's response: at the queueing (deferred), or only at the
	 * completion (it waited: not the spec's deferred execution). */
	strbuf_addf(&line, "\t%s\t%u\t%u\t", deferred ? "answered-at-queueing" : "waited", w, carrier);
	n = 0;
	for (unsigned k = 0; k < 10; k++)
		if (o_id[k])
			strbuf_addf(&line, "%s%u:%u", n++ ? "," : "", k + 1, o_id[k]);
	strbuf_adds(&line, n ? "\t" : "-\t");
	n = 0;
	for (unsigned k = 0; k < 10; k++)
		if (!o_id[k])
			strbuf_addf(&line, "%s%u", n++ ? "," : "", k + 1);
	strbuf_adds(&line, n ? "\n" : "-\n");
	pthread_mutex_lock(&d->mu);
	/* One write per line, so the kernel has it even if dbrig dies next. */
	if (d->fd >= 0 && d->err == 0) {
		d->err = write_all(d->fd, line.buf, line.len);
		d->lines += d->err == 0;
	}
	pthread_mutex_unlock(&d->mu);
	strbuf_release(&line);
}

int tpcc_dlog_finish(struct tpcc_dlog *d)
{
	int ret;

	if (d->fd < 0)
		return -EBADF;
	ret = d->err;
	if (ret == 0 && fsync(d->fd) < 0)
		ret = -errno;
	if (close(d->fd) < 0 && ret == 0)
		ret = -errno;
	d->fd = -1;
	if (ret == 0)
		ret = output_path_check(d->path);
	if (ret == 0 && rename(d->tmp, d->path) < 0)
		ret = -errno;
	return ret;
}

void tpcc_dlog_release(struct tpcc_dlog *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	free(d->path);
	free(d->tmp);
	d->path = d->tmp = NULL;
	pthread_mutex_destroy(&d->mu);
}
