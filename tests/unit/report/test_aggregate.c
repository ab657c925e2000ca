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

/* tpmC counts the intended rollbacks (new_order_rollback) only for a run whose
 * params say tpmc_include_rollbacks=true (dbrig tpcc --tpmc-include-rollbacks). */
static void test_tpcc_tpmc_rollbacks(void **state)
{
	const double lat[] = {10};
	struct agg_fig f;

	(void)state;
	for (int incl = 0; incl < 2; incl++) {
		struct run *r = mkrun("d1", 1, 100, 10, lat, 1, 10);
		free(r->kind);
		r->kind = xstrdup("tpcc");
		free(r->params);
		r->params = xstrdup(incl ? "mode=statements tpmc_include_rollbacks=true warehouses=2"
					 : "mode=statements tpmc_include_rollbacks=false warehouses=2");
		r->sample.types = xcalloc(2, sizeof(struct type_stat));
		r->sample.ntypes = 2;
		r->sample.types[0] = (struct type_stat){.name = xstrdup("new_order"), .count = 990, .avg_ms = 10};
		r->sample.types[1] = (struct type_stat){.name = xstrdup("new_order_rollback"), .count = 10, .avg_ms = 10};
		agg_fig_compute(&r, 1, RESULT_PHASE_SAMPLE, &f);
		assert_true(f.has_tpmc);
		assert_true(fabs(f.tpmc - (incl ? 1000 : 990)) < 1e-9); /* per minute over a 60 s sample */
		agg_fig_release(&f);
		run_free(r);
	}
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

/* A TPC-C group's bottleneck: three repetitions whose terminals waited 2%,
 * 12% and 3% of their response time for a pool connection (the host 30%
 * busy) make a driver-bound group, in all six orders of the runs. */
static void test_group_conn_wait_any_order(void **state)
{
	static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	static const double wait[3] = {0.02, 0.12, 0.03};
	const double lat[] = {32};
	struct run *v[3];

	(void)state;
	for (int i = 0; i < 3; i++) {
		v[i] = mkrun("d1", i + 1, 1000, 32, lat, 1, 10);
		free(v[i]->kind);
		free(v[i]->test);
		v[i]->kind = xstrdup("tpcc");
		v[i]->test = xstrdup("tpcc");
		v[i]->tel_sample = (struct tel_phase){.present = true, .seconds = 60, .has_host = true, .host_busy = 0.3,
						      .has_conn_wait = true, .conn_wait = wait[i]};
	}
	for (int o = 0; o < 6; o++) {
		struct run *in[3] = {v[orders[o][0]], v[orders[o][1]], v[orders[o][2]]};
		struct run_set rs = {.n = 3, .runs = in};
		struct report *rep = NULL;
		assert_int_equal(report_build(&rs, NULL, &rep), 0);
		assert_int_equal(rep->ngroups, 1);
		assert_true(rep->groups[0].has_verdict);
		assert_true(rep->groups[0].vin.conn_wait_share == 0.12);
		assert_int_equal(rep->groups[0].verdict.bottleneck, BOTTLENECK_DRIVER);
		report_free(rep);
	}
	for (int i = 0; i < 3; i++)
		run_free(v[i]);
}

/*
 * The waiting that decides: the server's own delay accounting before its own
 * cgroup's I/O pressure, before the VM disk's; the system's I/O pressure (the
 * whole machine's, not the server's) never; a result that says delay
 * accounting was off with nothing else makes the verdict say so.
 */
static void test_verdict_io_wait_signal(void **state)
{
	struct tel_phase t = {.present = true, .seconds = 60, .has_host = true, .host_busy = 0.2, .has_psi = true,
			      .psi_some = 0.9, .has_vm_wait = true, .vm_wait = 0.05};
	struct verdict_in in;

	(void)state;
	assert_true(agg_verdict_in(&t, &in, NULL));
	assert_true(in.has_io_wait);
	assert_int_equal(in.io_wait_src, IO_WAIT_VM_DISK);
	assert_true(in.io_wait == 0.05);
	t.psi_cgroup = true;
	assert_true(agg_verdict_in(&t, &in, NULL));
	assert_int_equal(in.io_wait_src, IO_WAIT_PSI_CGROUP);
	assert_true(in.io_wait == 0.9);
	t.has_blkio = true;
	t.blkio_wait = 0.62;
	assert_true(agg_verdict_in(&t, &in, NULL));
	assert_int_equal(in.io_wait_src, IO_WAIT_DELAYACCT);
	assert_true(in.io_wait == 0.62);
	assert_int_equal(verdict_decide(&in).bottleneck, BOTTLENECK_STORAGE_PATH);
	t = (struct tel_phase){.present = true, .seconds = 60, .has_psi = true, .psi_some = 0.9, .delayacct_off = true};
	assert_true(agg_verdict_in(&t, &in, NULL));
	assert_false(in.has_io_wait);
	assert_true(in.io_wait_off);
	assert_int_equal(verdict_decide(&in).bottleneck, BOTTLENECK_UNKNOWN);
}

/* A run with intervals of `tps` (n rounds of 10 s, the last `cut` s long when cut > 0). */
static void add_rounds(struct run *r, enum result_phase ph, const double *tps, size_t n, double cut)
{
	r->intervals = xrealloc(r->intervals, (r->nintervals + n + 1) * sizeof(*r->intervals));
	for (size_t i = 0; i < n; i++)
		r->intervals[r->nintervals++] = (struct interval_pt){.phase = ph, .t = 10.0 * (double)(i + 1),
								     .seconds = 10, .tps = tps[i]};
	if (cut > 0)
		r->intervals[r->nintervals++] = (struct interval_pt){.phase = ph, .seconds = cut, .tps = 1};
}

/*
 * Two instances' rounds are summed round by round; a cut-off last round (2 s
 * of 10) is left out; the sample is one window, the precondition its last 5.
 *   a: 50 52 49 51 50 + cut; b: 50 52 49 51 50 54 (one more round)
 *   summed over the 5 rounds both have: 100 104 98 102 100: excursion 6/100.8
 */
static void test_agg_steady(void **state)
{
	const double a[] = {50, 52, 49, 51, 50}, b[] = {50, 52, 49, 51, 50, 54};
	const double warm[] = {10, 20, 30, 40, 50, 60, 70};
	const double lat[] = {10};
	struct run *r[2];
	struct steady_result s;

	(void)state;
	r[0] = mkrun("d1", 1, 500, 8, lat, 1, 10);
	r[1] = mkrun("d1", 1, 500, 8, lat, 1, 10);
	add_rounds(r[0], RESULT_PHASE_PRECONDITION, warm, 7, 0);
	add_rounds(r[1], RESULT_PHASE_PRECONDITION, warm, 7, 0);
	add_rounds(r[0], RESULT_PHASE_SAMPLE, a, 5, 2);
	add_rounds(r[1], RESULT_PHASE_SAMPLE, b, 6, 0);
	agg_steady(r, 2, RESULT_PHASE_SAMPLE, 5, &s);
	assert_int_equal(s.state, STEADY_YES);
	assert_int_equal(s.rounds, 5);
	assert_true(fabs(s.mean - 100.8) < EPS);
	assert_true(fabs(s.excursion - 6 / 100.8) < EPS);
	/* The warm-up: last 5 rounds 30..70 climb 10 per round, 40 of 50 across: not steady. */
	agg_steady(r, 2, RESULT_PHASE_PRECONDITION, 5, &s);
	assert_int_equal(s.state, STEADY_NO);
	assert_true(fabs(s.slope - 20) < EPS);
	/* A window longer than the sample: not assessed. */
	agg_steady(r, 1, RESULT_PHASE_SAMPLE, 6, &s);
	assert_int_equal(s.state, STEADY_NA);
	run_free(r[0]);
	run_free(r[1]);
}

/*
 * Drives of one run group ranked by TPS over 3 repetitions, with the
 * comparison of stats/ci.h: fast 1160 1200 1240 (mean 1200, sd 40), slow
 * 100 100 100 plus one run of drive "mid": one repetition, no interval.
 * A reference "1 VM, 1 drive" goes beside each drive's group, none beside the
 * slices of a run group spread over drives. --drive keeps one drive.
 */
static void test_report_rank_compare_published(void **state)
{
	const double lat[] = {8};
	const double tf[] = {1160, 1200, 1240}, ts[] = {100, 99, 101};
	struct run *v[9];
	struct run_set rs = {.runs = v};
	struct report *rep = NULL;
	struct pub_set pub = {0};
	struct pub_review rv;
	struct strbuf err;
	const struct agg_group *fast = NULL, *slow = NULL, *mid = NULL;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(published_parse("ref.json",
		"{\"schema\":\"dbrig.published/1\",\"source\":{\"publisher\":\"P\",\"title\":\"T\"},"
		"\"drive\":{\"name\":\"D\"},\"platform\":\"X\",\"results\":[{\"label\":\"1 VM\",\"workload\":\"sysbench\","
		"\"test\":\"oltp_read_write\",\"vm_count\":1,\"drives\":1,\"method\":\"m\",\"tps\":1000,"
		"\"avg_latency_ms\":8}]}", &rv, &err), 0);
	pub.n = 1;
	pub.reviews = &rv;
	for (int i = 0; i < 3; i++) {
		v[rs.n++] = mkrun("fast", i + 1, tf[i], 8, lat, 1, 10);
		v[rs.n++] = mkrun("slow", i + 1, ts[i], 8, lat, 1, 10);
	}
	v[rs.n++] = mkrun("mid", 1, 500, 8, lat, 1, 10);
	/* A run group spread over two drives: one VM each of two. */
	for (int i = 0; i < 2; i++) {
		v[rs.n] = mkrun(i ? "d2" : "d1", 1, 300, 8, lat, 1, 10);
		free(v[rs.n]->run_group);
		v[rs.n]->run_group = xstrdup("spread");
		v[rs.n]->vm_count = 2;
		rs.n++;
	}
	for (size_t i = 0; i < 7; i++)
		v[i]->vm_count = 1;
	assert_int_equal(report_build(&rs, &pub, &rep), 0);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (!strcmp(g->drive, "fast"))
			fast = g;
		else if (!strcmp(g->drive, "slow"))
			slow = g;
		else if (!strcmp(g->drive, "mid"))
			mid = g;
		else if (!strcmp(g->run_group, "spread"))
			assert_true(g->all_drives ? !g->slice && g->nrefs == 0 : g->slice && g->nrefs == 0);
	}
	assert_non_null(fast);
	assert_non_null(slow);
	assert_non_null(mid);
	assert_true(fabs(fast->tps.ci.sd - 40) < EPS && fast->tps.ci.has_ci);
	assert_int_equal(fast->rank, 1);
	assert_int_equal(mid->rank, 2);
	assert_int_equal(slow->rank, 3);
	assert_int_equal(fast->nrefs, 1);
	assert_int_equal(slow->nrefs, 1);
	/* Comparisons: fast > mid (mid has one repetition: no CI, no test), mid > slow, and d1/d2. */
	assert_int_equal(rep->ncmps, 3);
	assert_ptr_equal(&rep->groups[rep->cmps[0].faster], fast);
	assert_ptr_equal(&rep->groups[rep->cmps[0].slower], mid);
	assert_false(rep->cmps[0].ratio.valid);
	assert_true(fabs(rep->cmps[0].ratio.ratio - 2.4) < EPS);
	assert_false(rep->cmps[0].welch.valid);
	report_free(rep);
	/* One drive alone: its group only, its verdicts; an unknown drive is -ENOENT. */
	assert_int_equal(report_build_with(&rs, &pub, &(struct report_opts){.drive = "slow"}, &rep), 0);
	assert_int_equal(rep->ngroups, 1);
	assert_int_equal(rep->runs->n, 3);
	assert_int_equal(rep->ncmps, 0);
	report_free(rep);
	assert_int_equal(report_build_with(&rs, &pub, &(struct report_opts){.drive = "nope"}, &rep), -ENOENT);
	assert_null(rep);
	for (size_t i = 0; i < rs.n; i++)
		run_free(v[i]);
	pub_review_release(&rv);
	strbuf_release(&err);
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
		cmocka_unit_test(test_tpcc_tpmc_rollbacks),
		cmocka_unit_test(test_report_repetitions_and_keys),
		cmocka_unit_test(test_group_conn_wait_any_order),
		cmocka_unit_test(test_verdict_io_wait_signal),
		cmocka_unit_test(test_agg_steady),
		cmocka_unit_test(test_report_rank_compare_published),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
