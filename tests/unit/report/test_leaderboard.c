/* Unit tests of report/leaderboard.c and lb_render.c on the shipped reports/published/ files:
 * every file loads, Little's law for a handful of rows against values computed
 * by hand, the ranking and the placement of a measured drive against ranks
 * computed by hand, protocol mismatches named, and the machine-translated mark
 * in the Markdown and HTML sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "report/published.h"

static struct pub_set *load_shipped(void)
{
	const char *src = getenv("DBRIG_SOURCE_DIR");
	struct pub_set *pub = NULL;
	struct strbuf dir, err;

	assert_non_null(src);
	strbuf_init(&dir, 0);
	strbuf_init(&err, 0);
	strbuf_addf(&dir, "%s/reports/published", src);
	if (published_load_dir(dir.buf, &pub, &err) < 0)
		fail_msg("%s", err.buf);
	strbuf_release(&dir);
	strbuf_release(&err);
	return pub;
}

static const struct pub_result *find(const struct pub_set *pub, const char *drive, const char *kind, int64_t vms,
				     double tps)
{
	for (size_t i = 0; i < pub->n; i++)
		for (size_t k = 0; k < pub->reviews[i].nresults; k++) {
			const struct pub_result *p = &pub->reviews[i].results[k];
			if (!strcmp(p->x.drive, drive) && !strcmp(p->kind, kind) && p->vm_count == vms &&
			    fabs(p->tps - tps) < 0.001)
				return p;
		}
	fail_msg("no published row %s %s %lld VMs %.2f TPS", drive, kind, (long long)vms, tps);
	return NULL;
}

/* Every shipped file validates; the 43 collected rows and the 4 reviews' rows are all there. */
static void test_shipped_files_load(void **state)
{
	struct pub_set *pub = load_shipped();
	size_t nres = 0, ninc = 0, translated = 0;

	(void)state;
	for (size_t i = 0; i < pub->n; i++) {
		nres += pub->reviews[i].nresults;
		ninc += pub->reviews[i].nincomplete;
		for (size_t k = 0; k < pub->reviews[i].nresults; k++)
			translated += pub->reviews[i].results[k].x.machine_translated;
		for (size_t k = 0; k < pub->reviews[i].nincomplete; k++) {
			translated += pub->reviews[i].incomplete[k].x.machine_translated;
			assert_true(strlen(pub->reviews[i].incomplete[k].missing) > 0);
		}
	}
	assert_int_equal(pub->n, 8);
	/* 40 rows with a TPS + the PM1735 (2) and PM1743 (2) rows; 3 without a TPS. */
	assert_int_equal(nres, 44);
	assert_int_equal(ninc, 3);
	assert_int_equal(translated, 6); /* the 6 SQL Server rows */
	pub_set_free(pub);
}

/* Little's law on shipped rows, by hand:
 *   Huawei ES3000 2.4TB: 1 x 32 / 2,734.69 = 11.7015 ms vs 11.70 (+0.01%)
 *   Micron M500: 32 / 668.6 = 47.8612 ms vs 47.86
 *   X-IO ISE 860, 16 VMs: 16 x 32 / 6,625 = 77.283 ms vs 80: -3.40%, within 5%, not
 *     within the rounding of a whole-ms figure (0.5 + 77.283 x 0.5 / 6625 = 0.5058 ms)
 *   DataON HCI-224, 4 VMs x 15,000 users: 60,000 / 12,649 = 4.7435 s cycle;
 *     12,649 / 4 x 0.0025 s = 7.906 in flight per VM */
static void test_little_by_hand(void **state)
{
	struct pub_set *pub = load_shipped();
	struct pub_little l;

	(void)state;
	pub_little(find(pub, "Huawei ES3000", "sysbench", 1, 2734.69), &l);
	assert_int_equal(l.kind, PUB_LITTLE_CLOSED);
	assert_int_equal(l.clients, 32);
	assert_true(fabs(l.implied_ms - 11.7015) < 0.0001);
	/* The page prints 11.7 (one decimal): the rounding is 0.05 ms, not 0.005. */
	assert_int_equal(l.lat_decimals, 1);
	assert_true(fabs(l.rounding_ms - (0.05 + 11.7015 * 0.005 / 2734.69)) < 1e-6);
	assert_int_equal(l.check, PUB_LITTLE_ROUNDING);
	/* X-IO, 12 VMs: 12 x 32 / 7,160 = 53.631 ms against 54, printed in whole ms:
	 * 0.369 ms apart <= 0.5 + 53.631 x 0.5 / 7160 = 0.50375: within the rounding. */
	pub_little(find(pub, "X-IO ISE 860 AFA", "sysbench", 12, 7160), &l);
	assert_int_equal(l.lat_decimals, 0);
	assert_true(fabs(l.implied_ms - 53.631) < 0.001);
	assert_true(fabs(l.rounding_ms - 0.50375) < 0.00001);
	assert_int_equal(l.check, PUB_LITTLE_ROUNDING);
	pub_little(find(pub, "Micron M500", "sysbench", 1, 668.6), &l);
	assert_true(fabs(l.implied_ms - 47.8612) < 0.0001);
	pub_little(find(pub, "X-IO ISE 860 AFA", "sysbench", 16, 6625), &l);
	assert_int_equal(l.clients, 512);
	assert_true(fabs(l.implied_ms - 77.283) < 0.001);
	assert_true(fabs(l.deviation - (-0.0340)) < 0.0001);
	assert_int_equal(l.check, PUB_LITTLE_TOLERANCE);
	pub_little(find(pub, "Intel SSD D5-P4326 (QLC, capacity) + Intel Optane SSD DC P4800X (cache)", "tpcc", 4,
			12649), &l);
	assert_int_equal(l.kind, PUB_LITTLE_THINK);
	assert_int_equal(l.clients, 60000);
	assert_true(fabs(l.cycle_s - 4.7435) < 0.0001);
	assert_true(fabs(l.in_flight_per_vm - 7.906) < 0.001);
	pub_set_free(pub);
}

static const char *entry_name(const struct lb_board *b, const size_t *ord, size_t r)
{
	return b->e[ord[r]].name;
}

/* sysbench, 4 instances x 32 threads, 100 x 10 M rows: 7 published rows; a
 * measured drive of 5,000 TPS, p99 60 ms placed by hand:
 *   TPS: 13,579 (PM1743) > 7,869.21 (PM1735) > 5,000 (mine, 3rd) > 4,645 (DotHill)
 *        > 4,424 (X-IO) > 2,830 (VSAN) > 2,390 > 1,422 (Nutanix)
 *   p99: 16.59 < 28.90 < 51 (DotHill) < 57 (X-IO) < 60 (mine, 5th) < 94 < 173 < 216 */
static void test_rank_and_place(void **state)
{
	struct pub_set *pub = load_shipped();
	struct lb_proto want;
	struct lb_board b;
	struct strbuf err;
	struct lb_entry mine = {.name = "my drive", .where = "4 VMs on 1 drive", .tps = 5000, .avg_ms = 25.6,
				.has_p99 = true, .p99_ms = 60};
	size_t me = 0;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(lb_proto_parse("workload=sysbench,vms=4,threads=32,tables=100,table_size=10000000", &want, &err), 0);
	lb_build(pub, &want, &mine, 1, &b);
	assert_int_equal(b.n, 8);
	assert_false(b.latency_only);
	assert_string_equal(entry_name(&b, b.by_tps, 0), "Samsung PM1743 7.68 TB");
	assert_string_equal(entry_name(&b, b.by_tps, 1), "Samsung PM1735 3.2 TB");
	assert_string_equal(entry_name(&b, b.by_tps, 2), "my drive");
	assert_string_equal(entry_name(&b, b.by_tps, 3), "DotHill AssuredSAN Ultra48 Hybrid");
	assert_string_equal(entry_name(&b, b.by_tps, 4), "X-IO ISE 860 AFA");
	assert_string_equal(entry_name(&b, b.by_tps, 5), "VMware VSAN (ESXi 6.0)");
	assert_string_equal(entry_name(&b, b.by_tps, 7), "Nutanix NX-8150 (ESXi 6.0), default DB deployment");
	for (size_t i = 0; i < b.n; i++)
		if (!b.e[i].pub)
			me = i;
	assert_int_equal(b.e[me].rank_tps, 3);
	assert_int_equal(b.e[me].rank_p99, 5);
	assert_int_equal(b.np99, 8);
	assert_string_equal(entry_name(&b, b.by_p99, 3), "X-IO ISE 860 AFA");
	assert_string_equal(entry_name(&b, b.by_p99, 4), "my drive");
	assert_string_equal(entry_name(&b, b.by_p99, 5), "VMware VSAN (ESXi 6.0)");
	/* The nearest non-matching rows name the field that differs. */
	assert_true(b.nnear > 0);
	assert_non_null(strstr(b.near[0].fields, "instances"));
	lb_release(&b);
	strbuf_release(&err);
	pub_set_free(pub);
}

/* A protocol no row states: nothing ranked, the nearest rows say why. */
static void test_mismatch_named(void **state)
{
	struct pub_set *pub = load_shipped();
	struct lb_proto want;
	struct lb_board b;
	struct strbuf err, text;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&text, 0);
	assert_int_equal(lb_proto_parse("workload=sysbench,vms=1,threads=8,tables=4,table_size=10000", &want, &err), 0);
	lb_build(pub, &want, NULL, 0, &b);
	assert_int_equal(b.n, 0);
	assert_int_equal(b.nnear, LB_NEAR_MAX);
	assert_int_equal(b.near[0].ndiff, 2);
	assert_non_null(strstr(b.near[0].fields, "load per instance 32 threads vs 8 threads"));
	assert_non_null(strstr(b.near[0].fields, "scale 100 x 10,000,000 rows vs 4 x 10,000 rows"));
	lb_text(&b, &text);
	assert_non_null(strstr(text.buf, "Nearest rows of another protocol (not ranked):"));
	lb_release(&b);
	/* The scale is compared only where both state it. */
	assert_int_equal(lb_proto_parse("workload=sysbench,vms=1,threads=32", &want, &err), 0);
	lb_build(pub, &want, NULL, 0, &b);
	assert_int_equal(b.n, 28);
	lb_release(&b);
	strbuf_release(&text);
	strbuf_release(&err);
	pub_set_free(pub);
}

/* Think-time TPC-C: ranked by average latency, and said why. By hand, 4 VMs x
 * 15,000 users: DataON 2.5 ms < mine 5.0 ms < PM1735 11.25 ms; by TPS the
 * DataON row (12,649) and PM1735 (12,625.56) are 0.2% apart. */
static void test_latency_only(void **state)
{
	struct pub_set *pub = load_shipped();
	struct lb_proto want;
	struct lb_board b;
	struct strbuf err, text;
	struct lb_entry mine = {.name = "my drive", .where = "tpcc 4 VMs", .tps = 12600, .avg_ms = 5.0};

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&text, 0);
	assert_int_equal(lb_proto_parse("workload=tpcc,vms=4,users=15000", &want, &err), 0);
	lb_build(pub, &want, &mine, 1, &b);
	assert_true(b.latency_only);
	assert_int_equal(b.n, 3);
	assert_string_equal(entry_name(&b, b.by_avg, 0),
			    "Intel SSD D5-P4326 (QLC, capacity) + Intel Optane SSD DC P4800X (cache)");
	assert_string_equal(entry_name(&b, b.by_avg, 1), "my drive");
	assert_string_equal(entry_name(&b, b.by_avg, 2), "Samsung PM1735 3.2 TB");
	lb_text(&b, &text);
	assert_non_null(strstr(text.buf, "Ranked by average latency: with 15,000 users per instance"));
	assert_non_null(strstr(text.buf, "the think times set the TPS"));
	lb_release(&b);
	strbuf_release(&text);
	strbuf_release(&err);
	pub_set_free(pub);
}

/* The report sections: a measured tpcc group beside the translated DataON row,
 * marked in Markdown and in HTML. */
static void test_translated_marked(void **state)
{
	struct pub_set *pub = load_shipped();
	struct agg_group g = {.drive = "mine", .label = "tpcc · mine", .kind = "tpcc", .test = "tpcc",
			      .params = "delays=scaled terminals=15000 warehouses=1500", .vm_count = 4};
	struct report rep = {.pub = pub, .ngroups = 1, .groups = &g};
	struct strbuf md, html;

	(void)state;
	g.tps.mean = 12600;
	g.avg_ms_mean.mean = 5.0;
	strbuf_init(&md, 0);
	strbuf_init(&html, 0);
	lb_md_section(&md, &rep);
	lb_html_section(&html, &rep);
	assert_non_null(strstr(md.buf, "| 1 | Intel SSD D5-P4326 (QLC, capacity) + Intel Optane SSD DC P4800X (cache) | "
				       "published · Azure Stack HCI, 2-node DataON HCI-224 · machine-translated |"));
	assert_non_null(strstr(md.buf, "| 2 | **mine** | measured · tpcc · mine |"));
	assert_non_null(strstr(html.buf, "<td>published · Azure Stack HCI, 2-node DataON HCI-224 · machine-translated"
					 "</td>"));
	/* The incomplete rows: listed with what is missing, marked too. */
	assert_non_null(strstr(md.buf, "Toshiba HK3R2, single drive, older protocol (storagereview-lsi-9207-8i.json, "
				       "bare metal, older SQL Server protocol, machine-translated): TPS"));
	strbuf_release(&md);
	strbuf_release(&html);
	pub_set_free(pub);
}

static void test_bad_specs(void **state)
{
	static const char *const bad[][2] = {
		{"workload=mysql,vms=1", "--protocol: workload=mysql (expected sysbench or tpcc)"},
		{"workload=sysbench,vms=0", "--protocol: vms=0 (expected an integer >= 1)"},
		{"workload=sysbench", "(expected at least workload=sysbench|tpcc and vms=N)"},
		{"workload=tpcc,vms=1,threads=2,users=3", "not both"},
		{"workload=sysbench,vms=1,color=red", "--protocol: color=red (expected one of"},
		{"sysbench", "--protocol: sysbench (expected key=value"},
	};
	struct lb_proto p;
	struct strbuf err;

	(void)state;
	strbuf_init(&err, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		strbuf_reset(&err);
		assert_int_equal(lb_proto_parse(bad[i][0], &p, &err), -EINVAL);
		if (!strstr(err.buf, bad[i][1]))
			fail_msg("%s: \"%s\" lacks \"%s\"", bad[i][0], err.buf, bad[i][1]);
	}
	strbuf_release(&err);
}

static void expect_error(const char *text, const char *msg)
{
	struct pub_review rv;
	struct strbuf err;

	strbuf_init(&err, 0);
	assert_int_equal(published_parse("ref.json", text, &rv, &err), -EINVAL);
	if (!strstr(err.buf, msg))
		fail_msg("message \"%s\" lacks \"%s\"", err.buf, msg);
	pub_review_release(&rv);
	strbuf_release(&err);
}

#define HEAD "{\"schema\":\"dbrig.published/1\",\"source\":{\"publisher\":\"P\",\"title\":\"T\"}," \
	     "\"drive\":{\"name\":\"D\"},\"platform\":\"X\","
#define ROW "\"label\":\"1\",\"workload\":\"sysbench\",\"test\":\"oltp_read_write\",\"vm_count\":1," \
	    "\"drives\":1,\"method\":\"m\",\"tps\":1000,\"avg_latency_ms\":8"

/* The optional per-row fields and the incomplete rows are validated like the rest. */
static void test_new_fields_validated(void **state)
{
	struct pub_review rv;
	struct strbuf err, big;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&big, 0);
	assert_int_equal(published_parse("ref.json", HEAD "\"results\":[{" ROW ",\"drive\":\"E\",\"era\":\"old\","
					 "\"machine_translated\":true,\"tables\":4,\"table_size\":10}],"
					 "\"incomplete\":[{\"label\":\"x\",\"workload\":\"tpcc\",\"test\":\"tpcc\","
					 "\"method\":\"m\",\"missing\":\"TPS not published\",\"avg_latency_ms\":12}]}",
					 &rv, &err), 0);
	assert_string_equal(rv.results[0].x.drive, "E");
	assert_true(rv.results[0].x.machine_translated);
	assert_int_equal(rv.results[0].x.tables, 4);
	assert_int_equal(rv.nincomplete, 1);
	assert_string_equal(rv.incomplete[0].x.drive, "D"); /* the file's drive by default */
	assert_true(rv.incomplete[0].has_avg);
	pub_review_release(&rv);
	expect_error(HEAD "\"results\":[{" ROW ",\"machine_translated\":\"yes\"}]}", ".results[0].machine_translated");
	expect_error(HEAD "\"results\":[{" ROW ",\"warehouses\":10}]}", "warehouses only on a tpcc row");
	expect_error(HEAD "\"results\":[{" ROW ",\"era\":\"x\",\"eras\":1}]}", "no such key");
	expect_error(HEAD "\"results\":[],\"incomplete\":[]}", "at least one published result");
	expect_error(HEAD "\"results\":[],\"incomplete\":[{\"label\":\"x\",\"workload\":\"tpcc\",\"test\":\"tpcc\","
			  "\"method\":\"m\"}]}", ".incomplete[0].missing");
	strbuf_adds(&big, HEAD "\"results\":[{" ROW ",\"quote\":\"");
	for (int i = 0; i < 301; i++)
		strbuf_addc(&big, 'q');
	strbuf_adds(&big, "\"}]}");
	expect_error(big.buf, "a short quote of the source's row (at most 300 bytes)");
	strbuf_release(&big);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_files_load), cmocka_unit_test(test_little_by_hand),
		cmocka_unit_test(test_rank_and_place),     cmocka_unit_test(test_mismatch_named),
		cmocka_unit_test(test_latency_only),       cmocka_unit_test(test_translated_marked),
		cmocka_unit_test(test_bad_specs),          cmocka_unit_test(test_new_fields_validated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
