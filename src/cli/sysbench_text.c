#include "cli/sysbench_text.h"

#include "core/log.h"
#include "core/strbuf.h"
#include "core/version.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sb_text_init(struct sb_text *t, unsigned threads, uint64_t report_interval_ns, uint64_t rand_seed,
		  const double *pct, unsigned npct, bool histogram, uint64_t precondition_ns, uint64_t time_ns)
{
	memset(t, 0, sizeof(*t));
	t->out = stdout;
	t->threads = threads;
	t->report_interval_ns = report_interval_ns;
	t->rand_seed = rand_seed;
	t->npct = npct > 8 ? 8 : npct;
	memcpy(t->pct, pct, t->npct * sizeof(double));
	t->histogram = histogram;
	t->precondition_ns = precondition_ns;
	t->time_ns = time_ns;
	if (hist_init(&t->lat) < 0)
		t->lat = NULL;
}

void sb_text_free(struct sb_text *t)
{
	hist_close(t->lat);
	t->lat = NULL;
}

bool sb_verbose(int level)
{
	return log_verbosity() >= level;
}

void sb_banner(void)
{
	if (!sb_verbose(3))
		return;
	printf("dbrig %s (sysbench 1.0.20 compatible)\n\n", DBRIG_VERSION);
	fflush(stdout);
}

static void pct_label(double p, char *buf, size_t n)
{
	if (p == floor(p))
		snprintf(buf, n, "%.0f", p);
	else
		snprintf(buf, n, "%g", p);
}

void sb_text_header(struct sb_text *t)
{
	FILE *f = t->out;

	if (!sb_verbose(3))
		return;
	/* sysbench's print_run_mode(), line for line. */
	fprintf(f, "Running the test with following options:\n");
	fprintf(f, "Number of threads: %u\n", t->threads);
	if (t->rate)
		fprintf(f, "Target transaction rate: %llu/sec\n", (unsigned long long)t->rate);
	if (t->report_interval_ns)
		fprintf(f, "Report intermediate results every %g second(s)\n", (double)t->report_interval_ns / 1e9);
	if (t->ncheckpoints) {
		fprintf(f, "Report checkpoint(s) at ");
		for (unsigned i = 0; i < t->ncheckpoints; i++)
			fprintf(f, "%s%u", i ? ", " : "", t->checkpoints[i]);
		fprintf(f, " seconds\n");
	}
	if (t->debug)
		fprintf(f, "Debug mode enabled.\n\n");
	/* dbrig's own option: only when it is given. */
	if (t->precondition_ns)
		fprintf(f, "Precondition phase: %.0f second(s), then statistics are reset\n",
			(double)t->precondition_ns / 1e9);
	if (t->rand_seed)
		fprintf(f, "Initializing random number generator from seed (%llu).\n\n", (unsigned long long)t->rand_seed);
	else
		fprintf(f, "Initializing random number generator from current time\n\n");
	fprintf(f, "\nInitializing worker threads...\n\n");
	fflush(f);
}

void sb_text_started(struct sb_text *t)
{
	/* sysbench's debug lines from its reporting and worker threads. */
	if (sb_verbose(5)) {
		if (t->report_interval_ns)
			fprintf(t->out, "DEBUG: Reporting thread started\n");
		for (unsigned i = 0; i < t->threads; i++)
			fprintf(t->out, "DEBUG: Worker thread (#%u) started\nDEBUG: Worker thread (#%u) initialized\n", i, i);
	}
	if (!sb_verbose(3))
		return;
	fprintf(t->out, "Threads started!\n\n");
	fflush(t->out);
}

void sb_text_phase_start(struct sb_text *t, enum phase_kind p, double planned)
{
	t->phase_planned = planned;
	if (p == PHASE_SAMPLE && t->precondition_ns && sb_verbose(3)) {
		fprintf(t->out, "Precondition finished; statistics reset, sample phase starts\n\n");
		fflush(t->out);
	}
}

void sb_text_format_interval(char *buf, size_t n, double t, unsigned threads, const struct counters *c,
			     double seconds, double pct, double lat_ms)
{
	double s = seconds > 0 ? seconds : 1;
	char pl[16];

	pct_label(pct, pl, sizeof(pl));
	snprintf(buf, n,
		 "thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%s%%): %4.2f err/s: %4.2f "
		 "reconn/s: %4.2f",
		 threads, (double)c->events / s, (double)(c->reads + c->writes + c->others) / s, (double)c->reads / s,
		 (double)c->writes / s, (double)c->others / s, pl, lat_ms, (double)c->errors / s,
		 (double)c->reconnects / s);
	(void)t;
}

void sb_text_interval(struct sb_text *t, const struct interval_report *ir)
{
	char line[512];
	double p = t->npct ? t->pct[0] : 0;
	double lat = t->npct ? (double)hist_value_at_percentile(ir->s->lat, p) / 1e6 : 0;

	if (!sb_verbose(3))
		return;
	sb_text_format_interval(line, sizeof(line), ir->phase_t, ir->threads, &ir->s->c, ir->seconds, p, lat);
	if (ir->phase == PHASE_PRECONDITION) {
		double left = t->phase_planned - ir->phase_t;
		fprintf(t->out, "[ %.0fs ] precondition (%.0fs left) %s\n", ir->phase_t, left > 0 ? left : 0, line);
	} else {
		fprintf(t->out, "[ %.0fs ] %s\n", ir->phase_t, line);
	}
	if (ir->open_loop)
		fprintf(t->out, "[ %.0fs ] queue length: %llu, concurrency: %llu\n", ir->phase_t,
			(unsigned long long)ir->queue_length, (unsigned long long)ir->concurrency);
	fflush(t->out);
}

static double mean_stddev(const double *v, unsigned n, double *sd)
{
	double m = 0, s = 0;

	for (unsigned i = 0; i < n; i++)
		m += v[i];
	m = n ? m / n : 0;
	for (unsigned i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*sd = n ? sqrt(s / n) : 0;
	return m;
}

/* Keep a span's figures for a report: counters, latencies, fairness. */
static void keep(struct sb_text *t, const struct span_stats *s, unsigned threads, const uint64_t *events,
		 const double *busy, double seconds, double total)
{
	double *ev = xcalloc(threads ? threads : 1, sizeof(double));

	t->have_sample = true;
	t->c = s->c;
	t->seconds = seconds;
	t->total_seconds = total;
	if (t->lat) {
		hist_reset(t->lat);
		hist_add(t->lat, s->lat);
	}
	for (unsigned i = 0; i < threads; i++)
		ev[i] = (double)events[i];
	t->events_avg = mean_stddev(ev, threads, &t->events_stddev);
	t->time_avg = mean_stddev(busy, threads, &t->time_stddev);
	free(ev);
}

void sb_text_phase_end(struct sb_text *t, const struct phase_report *pr)
{
	if (pr->phase != PHASE_SAMPLE || t->from_checkpoint)
		return;
	keep(t, pr->s, pr->threads, pr->session_events, pr->session_seconds, pr->seconds, pr->seconds);
}

/* sysbench's histogram geometry (sb_histogram_init(h, 1024, 0.001, 1e5) in
 * sb_logger.c): bucket i holds values whose log lies nearest to
 * ln(0.001) + i / mult, mult = 1023 / (ln(1e5) - ln(0.001)). */
#define SB_HIST_SIZE 1024
#define SB_HIST_MIN_MS 0.001
#define SB_HIST_MAX_MS 100000.0

static size_t sb_bucket(double ms)
{
	const double deduct = log(SB_HIST_MIN_MS);
	const double mult = (SB_HIST_SIZE - 1) / (log(SB_HIST_MAX_MS) - deduct);
	double i;

	if (ms < SB_HIST_MIN_MS)
		return 0;
	i = floor((log(ms) - deduct) * mult + 0.5);
	if (i >= SB_HIST_SIZE - 1)
		return SB_HIST_SIZE - 1;
	return i > 0 ? (size_t)i : 0;
}

void sb_text_print_histogram(FILE *f, const struct hist *h)
{
	const double deduct = log(SB_HIST_MIN_MS);
	const double mult = (SB_HIST_SIZE - 1) / (log(SB_HIST_MAX_MS) - deduct);
	uint64_t *counts = xcalloc(SB_HIST_SIZE, sizeof(*counts));
	size_t cursor = 0, idx;
	uint64_t cnt, maxc = 0;

	while (hist_next_bucket(h, &cursor, &idx, &cnt))
		counts[sb_bucket((double)hist_bucket_mid(idx) / 1e6)] += cnt;
	for (size_t i = 0; i < SB_HIST_SIZE; i++)
		if (counts[i] > maxc)
			maxc = counts[i];
	/* As sb_histogram_print(): nothing, not even the header, when empty;
	 * printed whatever --verbosity says (it uses printf, not the logger). */
	if (maxc) {
		fprintf(f, "       value  ------------- distribution ------------- count\n");
		for (size_t i = 0; i < SB_HIST_SIZE; i++) {
			int width;
			if (!counts[i])
				continue;
			width = (int)floor((double)counts[i] * 40.0 / (double)maxc + 0.5);
			fprintf(f, "%12.3f |%-40.*s %lu\n", exp((double)i / mult + deduct), width,
				"****************************************", (unsigned long)counts[i]);
		}
	}
	free(counts);
}

void sb_text_format_percentile(char *buf, size_t n, double pct, double value_ms)
{
	char pl[16];

	pct_label(pct, pl, sizeof(pl));
	/* sysbench: "        %3dth percentile: %27.2f"; a longer label (99.9)
	 * eats into the indent so the value column stays where it is. */
	if (strlen(pl) <= 3)
		snprintf(buf, n, "        %3sth percentile: %27.2f", pl, value_ms);
	else
		snprintf(buf, n, "%*s%sth percentile: %27.2f", strlen(pl) < 11 ? (int)(11 - strlen(pl)) : 1, "", pl,
			 value_ms);
}

static void print_report(struct sb_text *t);

void sb_text_checkpoint(struct sb_text *t, const struct checkpoint_report *cr)
{
	keep(t, cr->s, cr->threads, cr->session_events, cr->session_seconds, cr->seconds, cr->t);
	if (cr->final) {
		t->from_checkpoint = true;
		return;
	}
	if (!sb_verbose(3))
		return;
	fprintf(t->out, "[ %.0fs ] Checkpoint report:\n", cr->t);
	print_report(t);
}

void sb_text_summary(struct sb_text *t)
{
	FILE *f = t->out;
	bool notice = sb_verbose(3);

	/* sysbench's info lines as its workers stop (one per worker, repeats
	 * folded by its logger) and as the run ends. */
	if (sb_verbose(4)) {
		fprintf(f, "%s limit exceeded, exiting...\n",
			t->events && t->have_sample && t->c.events >= t->events ? "Event" : "Time");
		if (t->threads > 1)
			fprintf(f, "(last message repeated %u times)\n", t->threads - 1);
		fprintf(f, "Done.\n\n");
	}
	if (!t->have_sample || !t->lat) {
		if (notice)
			fprintf(f, "No sample phase was measured.\n");
		fflush(f);
		return;
	}
	if (t->histogram) {
		if (notice)
			fprintf(f, "Latency histogram (values are in milliseconds)\n");
		sb_text_print_histogram(f, t->lat);
		if (notice)
			fprintf(f, " \n");
	}
	if (!notice) {
		fflush(f);
		return;
	}
	print_report(t);
}

/* db_report_cumulative() then sb_report_cumulative(), line for line. */
static void print_report(struct sb_text *t)
{
	FILE *f = t->out;
	const struct counters *c = &t->c;
	double s = t->seconds > 0 ? t->seconds : 1;
	uint64_t q = c->reads + c->writes + c->others;

	fprintf(f, "SQL statistics:\n");
	fprintf(f, "    queries performed:\n");
	fprintf(f, "        read:                            %llu\n", (unsigned long long)c->reads);
	fprintf(f, "        write:                           %llu\n", (unsigned long long)c->writes);
	fprintf(f, "        other:                           %llu\n", (unsigned long long)c->others);
	fprintf(f, "        total:                           %llu\n", (unsigned long long)q);
	fprintf(f, "    transactions:                        %-6llu (%.2f per sec.)\n", (unsigned long long)c->events,
		(double)c->events / s);
	fprintf(f, "    queries:                             %-6llu (%.2f per sec.)\n", (unsigned long long)q,
		(double)q / s);
	fprintf(f, "    ignored errors:                      %-6llu (%.2f per sec.)\n", (unsigned long long)c->errors,
		(double)c->errors / s);
	fprintf(f, "    reconnects:                          %-6llu (%.2f per sec.)\n",
		(unsigned long long)c->reconnects, (double)c->reconnects / s);
	fprintf(f, "\n");
	fprintf(f, "General statistics:\n");
	fprintf(f, "    total time:                          %.4fs\n", t->total_seconds);
	fprintf(f, "    total number of events:              %llu\n", (unsigned long long)c->events);
	fprintf(f, "\n");
	fprintf(f, "Latency (ms):\n");
	fprintf(f, "         min: %39.2f\n", t->lat->total ? (double)t->lat->min / 1e6 : 0.0);
	fprintf(f, "         avg: %39.2f\n", hist_mean(t->lat) / 1e6);
	fprintf(f, "         max: %39.2f\n", (double)t->lat->max / 1e6);
	if (t->npct == 0) {
		fprintf(f, "         percentile stats:               disabled\n");
	} else {
		for (unsigned i = 0; i < t->npct; i++) {
			char line[128];
			sb_text_format_percentile(line, sizeof(line), t->pct[i],
						  (double)hist_value_at_percentile(t->lat, t->pct[i]) / 1e6);
			fprintf(f, "%s\n", line);
		}
	}
	fprintf(f, "         sum: %39.2f\n", (double)t->lat->sum / 1e6);
	fprintf(f, "\n");
	fprintf(f, "Threads fairness:\n");
	fprintf(f, "    events (avg/stddev):           %.4f/%3.2f\n", t->events_avg, t->events_stddev);
	fprintf(f, "    execution time (avg/stddev):   %.4f/%3.2f\n", t->time_avg, t->time_stddev);
	fprintf(f, "\n");
	fflush(f);
}
