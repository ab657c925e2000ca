/* Aggregation formulas, Little's law flag, published-reference validation,
 * result schema refusal and the report-writer registry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/strbuf.h"
#include "report/aggregate.h"
#include "report/published.h"
#include "result/read.h"
#include "report/writer.h"
#include "stats/hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9

/* A run whose sample phase has `n` latencies from `lat_ms` (cycled). */
static struct run *mkrun(const char *drive, int64_t rep, double tps, int64_t threads, const double *lat_ms,
			 size_t nlat, uint64_t n)
{
	struct run *r = xcalloc(1, sizeof(*r));
	struct phase_stat *p = &r->sample;
	double sum = 0;

	r->path = xstrdup(drive);
	r->campaign = xstrdup("c");
	r->run_group = xstrdup("g");
	r->drive = xstrdup(drive);
	r->instance = xstrdup("i");
	r->kind = xstrdup("sysbench");
	r->test = xstrdup("oltp_read_write");
	r->params = xstrdup("threads=32");
	r->engine = xstrdup("");
	r->vm_count = 2;
	r->repetition = rep;
	r->status = RESULT_RUN_COMPLETE;
	p->present = p->complete = true;
	p->seconds = 60;
	p->threads = threads;
	p->tps = tps;
	p->transactions = n;
	assert_int_equal(hist_init(&p->hist), 0);
	for (uint64_t i = 0; i < n; i++) {
		double v = lat_ms[i % nlat];
		hist_record(p->hist, (uint64_t)(v * 1e6));
		sum += v;
	}
	p->lat_sum_ms = sum;
	p->lat_avg_ms = sum / (double)n;
	p->lat_max_ms = (double)p->hist->max / 1e6;
	p->has_p99 = true;
	p->p99_ms = (double)hist_value_at_percentile(p->hist, 99) / 1e6;
	p->err_ignored = 3;
	p->err_reconnects = 1;
	p->err_fatal = 0;
	return r;
}

static void test_spread(void **state)
{
	const double v[] = {3, 1, 2};
	struct spread s = spread_of(v, 3);

	(void)state;
	assert_true(fabs(s.mean - 2) < EPS && s.min == 1 && s.max == 3);
	s = spread_of(v, 0);
	assert_true(s.mean == 0 && s.min == 0 && s.max == 0);
}

static void test_little_check(void **state)
{
	double pred, dev;

	(void)state;
	/* The published PM1735 figures: 128 threads / 7869.21 TPS = 16.27 ms vs 16.26 ms. */
	assert_int_equal(little_check(128, 7869.21, 16.26, false, &pred, &dev), LITTLE_OK);
	assert_true(fabs(pred - 16.2658) < 1e-3);
	/* 5% is the limit: 4.9% passes, 5.1% is flagged, either sign. */
	assert_int_equal(little_check(100, 1000, 100.0 / 1.049, false, &pred, &dev), LITTLE_OK);
	assert_int_equal(little_check(100, 1000, 100.0 / 1.051, false, &pred, &dev), LITTLE_WARN);
	assert_int_equal(little_check(100, 1000, 100.0 / 0.949, false, &pred, &dev), LITTLE_WARN);
	assert_true(dev < 0);
	/* Open loop or no throughput: not applicable. */
	assert_int_equal(little_check(100, 1000, 500, true, &pred, &dev), LITTLE_NA);
	assert_int_equal(little_check(100, 0, 500, false, &pred, &dev), LITTLE_NA);
}

static void test_fig_formulas(void **state)
{
	const double a[] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 50};  /* avg 14, own p99 ~50 */
	const double b[] = {20};                                     /* avg 20, own p99 20 */
	struct run *runs[2];
	struct agg_fig f;
	struct hist *m = NULL;

	(void)state;
	runs[0] = mkrun("d1", 1, 2000, 32, a, 10, 1000);
	runs[1] = mkrun("d1", 1, 1000, 32, b, 1, 3000);
	agg_fig_compute(runs, 2, RESULT_PHASE_SAMPLE, &f);
	assert_int_equal(f.n, 2);
	assert_true(fabs(f.tps_sum - 3000) < EPS);         /* sum over instances */
	assert_true(f.tps_min == 1000 && f.tps_max == 2000);
	assert_true(fabs(f.avg_ms_mean - (14 + 20) / 2.0) < 1e-6);              /* mean of averages */
	assert_true(fabs(f.avg_ms_pooled - (14.0 * 1000 + 20.0 * 3000) / 4000) < 1e-6); /* pooled */
	/* Published "average 99th percentile": the mean of the instances' own p99s. */
	assert_true(fabs(f.p99_mean_of_instances_ms - (runs[0]->sample.p99_ms + runs[1]->sample.p99_ms) / 2) < EPS);
	/* Pooled p99: from the merged histogram, not an average. */
	assert_int_equal(hist_init(&m), 0);
	hist_add(m, runs[0]->sample.hist);
	hist_add(m, runs[1]->sample.hist);
	assert_true(f.has_pooled_p99);
	assert_true(fabs(f.p99_pooled_ms - (double)hist_value_at_percentile(m, 99) / 1e6) < EPS);
	assert_true(fabs(f.p99_pooled_ms - 50) < 0.4);      /* 2.5% of all values are 50 ms */
	assert_true(fabs(f.p99_mean_of_instances_ms - 35) < 0.5); /* (50 + 20) / 2: not a percentile */
	assert_int_equal(f.retried, 6);
	assert_int_equal(f.reconnects, 2);
	assert_int_equal(f.fatal, 0);
	assert_int_equal(f.threads_sum, 64);
	assert_int_equal(f.transactions, 4000);
	/* 64 threads / 3000 TPS = 21.3 ms vs pooled 18.5 ms: +15%, flagged. */
	assert_int_equal(f.little, LITTLE_WARN);
	assert_true(fabs(f.little_pred_ms - 64.0 / 3000 * 1000) < 1e-9);
	/* The precondition is aggregated apart: these runs have none. */
	agg_fig_release(&f);
	agg_fig_compute(runs, 2, RESULT_PHASE_PRECONDITION, &f);
	assert_int_equal(f.n, 0);
	assert_true(f.tps_sum == 0);
	agg_fig_release(&f);
	hist_close(m);
	run_free(runs[0]);
	run_free(runs[1]);
}

/* Three instances whose mean, median and (first + last) / 2 all differ, and a
 * fourth that carried neither a p99 nor a histogram: the mean of p99s is over
 * the three that have one, and there is no pooled p99. */
static void test_fig_three_and_one_without_p99(void **state)
{
	const double a[] = {10}, b[] = {20}, c[] = {60};
	struct run *runs[4];
	struct agg_fig f;

	(void)state;
	runs[0] = mkrun("d1", 1, 1000, 32, a, 1, 100);
	runs[1] = mkrun("d1", 1, 2000, 32, b, 1, 200);
	runs[2] = mkrun("d1", 1, 6000, 32, c, 1, 600);
	runs[3] = mkrun("d1", 1, 500, 32, b, 1, 50);
	runs[3]->sample.has_p99 = false;
	hist_close(runs[3]->sample.hist);
	runs[3]->sample.hist = NULL;
	agg_fig_compute(runs, 3, RESULT_PHASE_SAMPLE, &f);
	assert_true(fabs(f.tps_sum - 9000) < EPS);
	assert_true(fabs(f.avg_ms_mean - 30) < 1e-6); /* not the median 20, not (10 + 60) / 2 */
	assert_true(fabs(f.p99_mean_of_instances_ms -
			 (runs[0]->sample.p99_ms + runs[1]->sample.p99_ms + runs[2]->sample.p99_ms) / 3) < EPS);
	assert_int_equal(f.n_p99, 3);
	agg_fig_release(&f);
	agg_fig_compute(runs, 4, RESULT_PHASE_SAMPLE, &f);
	assert_int_equal(f.n, 4);
	assert_int_equal(f.n_p99, 3);
	assert_true(fabs(f.tps_sum - 9500) < EPS);
	assert_true(fabs(f.avg_ms_mean - 27.5) < 1e-6);
	assert_true(fabs(f.p99_mean_of_instances_ms -
			 (runs[0]->sample.p99_ms + runs[1]->sample.p99_ms + runs[2]->sample.p99_ms) / 3) < EPS);
	assert_false(f.has_pooled_p99);
	agg_fig_release(&f);
	for (int i = 0; i < 4; i++)
		run_free(runs[i]);
}

static void test_little_consistent_and_open_loop(void **state)
{
	const double lat[] = {16};
	struct run *r[2];
	struct agg_fig f;

	(void)state;
	/* 2 x 32 threads at 2000 TPS each: 64 / 4000 = 16 ms, exactly the latency. */
	r[0] = mkrun("d1", 1, 2000, 32, lat, 1, 100);
	r[1] = mkrun("d1", 1, 2000, 32, lat, 1, 100);
	agg_fig_compute(r, 2, RESULT_PHASE_SAMPLE, &f);
	assert_int_equal(f.little, LITTLE_OK);
	assert_true(fabs(f.little_dev) < 0.01);
	agg_fig_release(&f);
	r[1]->open_loop = true;
	agg_fig_compute(r, 2, RESULT_PHASE_SAMPLE, &f);
	assert_int_equal(f.little, LITTLE_NA);
	agg_fig_release(&f);
	run_free(r[0]);
	run_free(r[1]);
}

static void test_tpcc_tpmc_and_types(void **state)
{
	const double lat[] = {10};
	struct run *r[2];
	struct agg_fig f;

	(void)state;
	for (int i = 0; i < 2; i++) {
		r[i] = mkrun("d1", 1, 100, 10, lat, 1, 10);
		free(r[i]->kind);
		r[i]->kind = xstrdup("tpcc");
		r[i]->sample.types = xcalloc(2, sizeof(struct type_stat));
		r[i]->sample.ntypes = 2;
		r[i]->sample.types[0] = (struct type_stat){.name = xstrdup("new_order"), .count = 1200 + 600 * (uint64_t)i,
							   .avg_ms = 10.0 + 10 * i, .p99_ms = 30.0 + 10 * i, .max_ms = 40};
		r[i]->sample.types[1] = (struct type_stat){.name = xstrdup("payment"), .count = 100, .avg_ms = 5,
							   .p99_ms = 9, .max_ms = 12.0 + i};
	}
	agg_fig_compute(r, 2, RESULT_PHASE_SAMPLE, &f);
	assert_true(f.has_tpmc);
	/* New-Orders per minute over 60 s samples: 1200 + 1800. */
	assert_true(fabs(f.tpmc - 3000) < 1e-9);
	assert_int_equal(f.ntypes, 2);
	assert_string_equal(f.types[0].name, "new_order");
	assert_int_equal(f.types[0].count, 3000);
	assert_true(fabs(f.types[0].avg_ms - (1200 * 10.0 + 1800 * 20.0) / 3000) < 1e-9); /* count-weighted */
	assert_true(fabs(f.types[0].p99_mean_of_instances_ms - 35) < 1e-9);             /* mean of p99s */
	assert_true(f.types[1].max_ms == 13);
	agg_fig_release(&f);
	run_free(r[0]);
	run_free(r[1]);
}

static void test_report_repetitions_and_keys(void **state)
{
	const double lat[] = {32};
	struct run_set rs = {0};
	struct report *rep = NULL;
	struct run *v[5];

	(void)state;
	/* Repetition 1: 1000 + 1000 TPS; repetition 2: 1100 + 1100; a third run with other params. */
	v[0] = mkrun("d1", 1, 1000, 32, lat, 1, 10);
	v[1] = mkrun("d1", 1, 1000, 32, lat, 1, 10);
	v[2] = mkrun("d1", 2, 1100, 32, lat, 1, 10);
	v[3] = mkrun("d1", 2, 1100, 32, lat, 1, 10);
	v[4] = mkrun("d1", 1, 500, 16, lat, 1, 10);
	free(v[4]->params);
	v[4]->params = xstrdup("threads=16");
	v[4]->vm_count = 1;
	v[3]->status = RESULT_RUN_INTERRUPTED;
	rs.n = 5;
	rs.runs = v;
	assert_int_equal(report_build(&rs, NULL, &rep), 0);
	assert_int_equal(rep->ngroups, 2); /* different params: never merged */
	const struct agg_group *g = &rep->groups[0];
	if (strcmp(g->params, "threads=32"))
		g = &rep->groups[1];
	assert_int_equal(g->nreps, 2);
	assert_true(fabs(g->tps.mean - 2100) < EPS);
	assert_true(g->tps.min == 2000 && g->tps.max == 2200);
	assert_true(g->incomplete); /* one run interrupted */
	assert_int_equal(g->n_complete, 3);
	bool warned = false;
	for (size_t i = 0; i < rep->nwarnings; i++)
		warned |= strstr(rep->warnings[i], "not merged") != NULL;
	assert_true(warned);
	report_free(rep);
	for (int i = 0; i < 5; i++)
		run_free(v[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_little_check),
		cmocka_unit_test(test_fig_formulas),
		cmocka_unit_test(test_fig_three_and_one_without_p99),
		cmocka_unit_test(test_little_consistent_and_open_loop),
		cmocka_unit_test(test_tpcc_tpmc_and_types),
		cmocka_unit_test(test_report_repetitions_and_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
