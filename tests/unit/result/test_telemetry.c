/* Telemetry from sampler readings into an instance's telemetry file, read back by
 * the report's reader: interpolation between readings, phase and interval
 * spans, and the refusals. Counters grow at constant rates, so every span has
 * the same rates whatever its alignment with the readings (worked by hand in
 * the comments). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "result/read.h"
#include "result/result.h"
#include "result/telemetry.h"

#define NEAR(a, b, e) assert_true(fabs((a) - (b)) <= (e))
#define S UINT64_C(1000000000)

static char dir[] = "/tmp/dbrig-telemetry-XXXXXX";

/*
 * Per second: loop1 does 100 reads (1 ms each, 800 sectors) and 400 writes
 * (5 ms each, 8,000 sectors), busy 750 ms, 2,100 weighted ms in queue; vda
 * 10 writes, busy 100 ms. The host's 2 CPUs: 110 busy ticks, 10 iowait, 30
 * idle per second (73.3% busy). The driver uses 0.5 s of CPU per second, the
 * server 1.2 s; the VM's 4 vCPUs 3 s (75% busy) and its disk 50 writes of 2 ms.
 */
static void fill(struct tel_reading *r, double t)
{
	r->has_cpu = true;
	r->cpu = (struct sysstat_cpu){.user = (uint64_t)(100 * t), .system = (uint64_t)(10 * t),
				      .idle = (uint64_t)(30 * t), .iowait = (uint64_t)(10 * t), .ncpu = 2};
	r->has_disks = true;
	r->disks[0] = (struct sysstat_disk){.rd_ios = (uint64_t)(100 * t), .rd_sectors = (uint64_t)(800 * t),
					    .rd_ticks = (uint64_t)(100 * t), .wr_ios = (uint64_t)(400 * t),
					    .wr_sectors = (uint64_t)(8000 * t), .wr_ticks = (uint64_t)(2000 * t),
					    .io_ticks = (uint64_t)(750 * t), .time_in_queue = (uint64_t)(2100 * t)};
	r->disks[1] = (struct sysstat_disk){.wr_ios = (uint64_t)(10 * t), .io_ticks = (uint64_t)(100 * t)};
	r->pid_cpu_s[0] = 0.5 * t;
	r->pid_cpu_s[1] = 1.2 * t;
	r->guests[0] = (struct sysstat_guest){.has_block = true, .wr_reqs = (uint64_t)(50 * t),
					      .wr_times_ns = (uint64_t)(50 * t * 2e6), .has_cpu = true,
					      .cpu_ns = (uint64_t)(3e9 * t), .vcpus = 4};
}

/* Readings every 5 s from 1 s before the driver's t = 0 (100 s on the clock) to 26 s after. */
static void series(struct tel_series *s, size_t n)
{
	const struct blockdev devs[2] = {{7, 1, "loop1"}, {254, 0, "vda"}};
	const pid_t pids[2] = {4242, 4343};

	tel_series_init(s, devs, 2, pids, 2, 1);
	s->host_cpus = 2;
	for (size_t k = 0; k < n; k++) {
		double t = 99 + 5.0 * (double)k;
		fill(tel_series_add(s, (uint64_t)(t * 1e9)), t);
	}
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Between readings at 99 s (rd_ios 9,900) and 104 s (10,400): 101.5 s is halfway, 10,150. */
static void interpolation(void **state)
{
	struct tel_series s;
	struct sysstat_disk d;
	struct sysstat_cpu c;

	(void)state;
	series(&s, 3);
	assert_true(tel_disk_at(&s, 0, (uint64_t)(101.5 * 1e9), &d));
	assert_int_equal(d.rd_ios, 10150);
	assert_int_equal(d.io_ticks, 76125);
	assert_true(tel_cpu_at(&s, 104 * S, &c));
	assert_int_equal(c.user, 10400);
	assert_int_equal(c.ncpu, 2);
	/* Before the first and after the last reading: those readings. */
	assert_true(tel_disk_at(&s, 0, 0, &d));
	assert_int_equal(d.rd_ios, 9900);
	assert_true(tel_disk_at(&s, 0, 500 * S, &d));
	assert_int_equal(d.rd_ios, 10900);
	assert_false(tel_disk_at(&s, 2, 100 * S, &d)); /* no third device */
	/* A reading that could not read the disks is skipped, not taken as zero. */
	s.v[1].has_disks = false;
	assert_true(tel_disk_at(&s, 0, (uint64_t)(101.5 * 1e9), &d));
	assert_int_equal(d.rd_ios, 10150); /* from 99 s and 109 s */
	tel_series_release(&s);
}

static const char *const result_text =
	"{\"schema\":\"dbrig.result/1\",\"status\":\"complete\",\"run\":{\"campaign\":\"c\",\"run_group\":\"g\","
	"\"drive\":\"d\",\"instance\":\"i1\",\"vm_count\":1,\"repetition\":1},"
	"\"workload\":{\"kind\":\"sysbench\",\"test\":\"oltp_read_write\",\"params\":{\"threads\":8}},"
	"\"engine\":{\"driver\":\"mysql\",\"server_version\":\"x\"},\"percentiles\":[99],"
	"\"phases\":{\"precondition\":{\"name\":\"precondition\",\"seconds\":10,\"threads\":8,\"transactions\":100,"
	"\"tps\":10,\"latency_ms\":{\"avg\":800}},\"sample\":{\"name\":\"sample\",\"seconds\":15,\"threads\":8,"
	"\"transactions\":150,\"tps\":10,\"latency_ms\":{\"avg\":800}}},"
	"\"intervals\":[{\"phase\":\"precondition\",\"t\":5,\"seconds\":5,\"tps\":10},"
	"{\"phase\":\"precondition\",\"t\":10,\"seconds\":5,\"tps\":10},{\"phase\":\"sample\",\"t\":15,\"seconds\":5,\"tps\":10},"
	"{\"phase\":\"sample\",\"t\":20,\"seconds\":5,\"tps\":10},{\"phase\":\"sample\",\"t\":25,\"seconds\":5,\"tps\":10}]}";

/*
 * Node 0 (a hypervisor host, libvirt's node calls) per second: 4 CPUs, 200
 * user + 20 kernel ns-ticks busy of 400 (55%), 40 iowait; memory 1,000,000
 * KiB of which 250,000 available (75% used). /proc/stat's host (fill) is
 * 73.3% busy.
 */
static void node_series(struct tel_series *s, bool node_cpu)
{
	const struct blockdev devs[1] = {{7, 1, "loop1"}};
	const pid_t pids[1] = {4242};

	tel_series_init(s, devs, 1, pids, 1, 1);
	tel_series_nodes(s, 1);
	s->host_cpus = 2;
	for (size_t k = 0; k < 7; k++) {
		double t = 99 + 5.0 * (double)k;
		struct tel_reading *r = tel_series_add(s, (uint64_t)(t * 1e9));
		fill(r, t);
		r->nodes[0] = (struct sysstat_node){
			.has_cpu = node_cpu,
			.cpu = {.user = (uint64_t)(200 * t), .system = (uint64_t)(20 * t), .idle = (uint64_t)(140 * t),
				.iowait = (uint64_t)(40 * t), .ncpu = 4},
			.has_mem = true, .mem_total_kib = 1000000, .mem_avail_kib = 250000};
	}
}

/*
 * tel_write of the result at `path` (its name `name` in messages) into its
 * telemetry file beside it, then both read back as the report reads them:
 * the run, its telemetry merged; *text the telemetry file's text. The result
 * itself is left as the driver wrote it (one writer per file).
 */
static void write_and_read(const char *path, const char *name, const struct tel_series *s,
			   const struct tel_instance *in, struct run **r, char **text)
{
	struct strbuf err, tel, telname;
	char *before = NULL, *after = NULL;
	size_t len;

	strbuf_init(&err, 0);
	strbuf_init(&tel, 0);
	strbuf_init(&telname, 0);
	strbuf_addf(&tel, "%.*s" TEL_FILE_SUFFIX, (int)(strlen(path) - 5), path);
	strbuf_addf(&telname, "%.*s" TEL_FILE_SUFFIX, (int)(strlen(name) - 5), name);
	assert_int_equal(read_file(path, &before, &len), 0);
	assert_int_equal(tel_write(path, tel.buf, s, in, &err), 0);
	assert_int_equal(read_file(path, &after, &len), 0);
	assert_string_equal(before, after);
	assert_int_equal(results_parse_result(name, after, r, &err), 0);
	assert_int_equal(read_file(tel.buf, text, &len), 0);
	/* The one schema constant: what every telemetry writer stamps. */
	assert_non_null(strstr(*text, "\"schema\": \"" TELEMETRY_SCHEMA "\""));
	if (results_merge_telemetry(*r, telname.buf, *text, &err) != 0)
		fail_msg("%s", err.buf);
	free(before);
	free(after);
	strbuf_release(&err);
	strbuf_release(&tel);
	strbuf_release(&telname);
}

/* tel_write of node_series(node_cpu) for an instance on node 0 (here or not), read back. */
static struct run *node_attach(bool node_cpu, bool here, char **text)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = -1, .server_pid = -1, .guest = -1,
				  .has_node = true, .node = 0, .node_name = "h2", .node_here = here,
				  .start_ns = 100 * S};
	struct tel_series s;
	struct strbuf err, path;
	struct run *r = NULL;

	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_addf(&path, "%s/node.json", dir);
	assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
	node_series(&s, node_cpu);
	write_and_read(path.buf, "node.json", &s, &in, &r, text);
	tel_series_release(&s);
	strbuf_release(&err);
	strbuf_release(&path);
	return r;
}

/* Issue 25 item 2: an instance's host CPU and memory come from its hypervisor host's node calls, and say so. */
static void node_host_figures(void **state)
{
	struct run *r;
	char *text = NULL;

	(void)state;
	/* The node gives CPU: its figures, not this machine's, and its CPU count. */
	r = node_attach(true, false, &text);
	assert_true(r->tel_sample.has_host);
	NEAR(r->tel_sample.host_busy, 220.0 / 400, 1e-3);
	NEAR(r->tel_sample.host_iowait, 40.0 / 400, 1e-3);
	assert_string_equal(r->tel_sample.host_source, "libvirt node stats (host h2)");
	assert_int_equal(r->host_cpus, 4);
	assert_true(r->tel_sample.has_host_mem);
	NEAR(r->tel_sample.host_mem_used, 0.75, 1e-9);
	assert_non_null(strstr(text, "\"total_mib\": 976.5625"));
	for (size_t i = 0; i < r->nintervals; i++)
		NEAR(r->intervals[i].host_busy, 220.0 / 400, 1e-3);
	run_free(r);
	free(text);
	/* A host on another machine without CPU figures: no host CPU (this machine's is not that host's). */
	r = node_attach(false, false, &text);
	assert_false(r->tel_sample.has_host);
	assert_true(r->tel_sample.has_host_mem);
	for (size_t i = 0; i < r->nintervals; i++)
		assert_false(r->intervals[i].has_host);
	run_free(r);
	free(text);
	/* The same host on this machine: /proc/stat stands in. */
	r = node_attach(false, true, &text);
	assert_true(r->tel_sample.has_host);
	NEAR(r->tel_sample.host_busy, 110.0 / 150, 1e-3);
	assert_string_equal(r->tel_sample.host_source, "/proc/stat");
	assert_int_equal(r->host_cpus, 2);
	run_free(r);
	free(text);
}


/*
 * The sample (100 + 10 .. 100 + 25 s): loop1 100 r + 400 w IOPS, 0.4096 +
 * 4.096 MB/s, await (100 + 2,000) / 500 = 4.2 ms, queue depth 2.1, 75% busy;
 * host 110 / 150 = 73.3% busy; driver 0.5 core over its 2 loops; server 1.2
 * cores; the VM 75% busy, its disk 50 w IOPS of 2 ms, queue depth 0.1.
 */
static void attach_and_read_back(void **state)
{
	const size_t devs[2] = {0, 1};
	struct tel_instance in = {.drive_path = "/mnt/d", .drive_stack = "loop1 (file /x.img) on vda", .devs = devs,
				  .ndevs = 2, .driver_pid = 0, .driver_loops = 2, .server_pid = 1, .guest = 0,
				  .guest_vcpus = 4, .guest_disk = "i1:sdc", .start_ns = 100 * S};
	struct tel_series s;
	struct strbuf err, path;
	struct run *r = NULL;
	char *text = NULL;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_addf(&path, "%s/i1.json", dir);
	assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
	series(&s, 7);
	write_and_read(path.buf, "i1.json", &s, &in, &r, &text);
	assert_true(r->has_tel);
	assert_string_equal(r->drive_stack, "loop1 (file /x.img) on vda");
	assert_int_equal(r->host_cpus, 2);
	assert_true(r->tel_pre.present && r->tel_sample.present);
	NEAR(r->tel_sample.seconds, 15, 1e-9);
	NEAR(r->tel_sample.host_busy, 110.0 / 150, 1e-3);
	NEAR(r->tel_sample.host_iowait, 10.0 / 150, 1e-3);
	assert_int_equal(r->tel_sample.ndevs, 3);
	assert_string_equal(r->tel_sample.devs[0].name, "loop1");
	assert_true(r->tel_sample.devs[0].top);
	assert_false(r->tel_sample.devs[1].top);
	NEAR(r->tel_sample.devs[0].r_iops, 100, 1e-3);
	NEAR(r->tel_sample.devs[0].w_iops, 400, 1e-3);
	NEAR(r->tel_sample.devs[0].w_mbps, 4.096, 1e-3);
	NEAR(r->tel_sample.devs[0].await_ms, 4.2, 1e-3);
	NEAR(r->tel_sample.devs[0].queue_depth, 2.1, 1e-3);
	NEAR(r->tel_sample.devs[0].util, 0.75, 1e-3);
	NEAR(r->tel_sample.devs[1].util, 0.10, 1e-3);
	assert_string_equal(r->tel_sample.devs[2].name, "i1:sdc");
	assert_false(r->tel_sample.devs[2].has_util);
	NEAR(r->tel_sample.devs[2].w_iops, 50, 1e-3);
	NEAR(r->tel_sample.devs[2].await_ms, 2, 1e-3);
	NEAR(r->tel_sample.devs[2].queue_depth, 0.1, 1e-3);
	/* The VM disk's requests took 50 * 2 ms per second: 10% of the sample. */
	assert_true(r->tel_sample.has_vm_wait);
	NEAR(r->tel_sample.vm_wait, 0.1, 1e-3);
	/* No source of the server's waiting was set up: none is claimed. */
	assert_false(r->tel_sample.has_blkio || r->tel_sample.has_psi || r->tel_sample.delayacct_off);
	assert_true(r->tel_sample.has_driver);
	NEAR(r->tel_sample.driver_cores, 0.5, 1e-3);
	assert_int_equal(r->tel_sample.driver_loops, 2);
	assert_true(r->tel_sample.has_server);
	NEAR(r->tel_sample.server_cores, 1.2, 1e-3);
	assert_true(r->tel_sample.has_guest);
	NEAR(r->tel_sample.guest_busy, 0.75, 1e-3);
	NEAR(r->tel_pre.seconds, 10, 1e-9);
	/* Every interval has its own readings. */
	assert_int_equal(r->nintervals, 5);
	for (size_t i = 0; i < r->nintervals; i++) {
		assert_true(r->intervals[i].has_tel && r->intervals[i].has_host && r->intervals[i].has_dev);
		NEAR(r->intervals[i].host_busy, 110.0 / 150, 1e-3);
		NEAR(r->intervals[i].dev_util, 0.75, 1e-3);
		NEAR(r->intervals[i].dev_await_ms, 4.2, 1e-3);
	}
	run_free(r);
	free(text);
	tel_series_release(&s);
	strbuf_release(&err);
	strbuf_release(&path);
}

/*
 * The server's waiting: its threads' delay accounting grows 0.62 s per second
 * (62% of the sample), its cgroup's I/O pressure "some" 0.4 s and "full" 0.1 s
 * per second. Then the same with the kernel's delay accounting off: no
 * blkio_wait, "delayacct": false, the pressure still there.
 */
static void server_waiting(void **state)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = 0, .driver_loops = 2, .server_pid = 1,
				  .guest = -1, .start_ns = 100 * S};
	struct tel_series s;
	struct strbuf err, path;
	struct run *r = NULL;
	char *text = NULL;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_addf(&path, "%s/wait.json", dir);
	for (int off = 0; off < 2; off++) {
		series(&s, 7);
		s.pid_src[1].delayacct = off ? 0 : 1;
		s.pid_src[1].psi_scope = 1;
		snprintf(s.pid_src[1].psi_path, sizeof(s.pid_src[1].psi_path), "/sys/fs/cgroup/db/io.pressure");
		for (size_t k = 0; k < s.n; k++) {
			double t = (double)s.v[k].mono_ns / 1e9;
			s.v[k].pid_io[1] = (struct tel_pid_io){.blkio_s = off ? -1 : 0.62 * t, .psi_some_s = 0.4 * t,
							       .psi_full_s = 0.1 * t};
		}
		assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
		write_and_read(path.buf, "wait.json", &s, &in, &r, &text);
		assert_non_null(strstr(text, "\"path\": \"/sys/fs/cgroup/db/io.pressure\""));
		assert_int_equal(!!strstr(text, "\"source\": \"delay accounting\""), !off);
		assert_int_equal(r->tel_sample.has_blkio, !off);
		if (!off)
			NEAR(r->tel_sample.blkio_wait, 0.62, 1e-3);
		assert_int_equal(r->tel_sample.delayacct_off, off);
		assert_true(r->tel_sample.has_psi && r->tel_sample.psi_cgroup);
		NEAR(r->tel_sample.psi_some, 0.4, 1e-3);
		NEAR(r->tel_sample.psi_full, 0.1, 1e-3);
		assert_false(r->tel_sample.has_vm_wait);
		run_free(r);
		r = NULL;
		free(text);
		text = NULL;
		tel_series_release(&s);
	}
	strbuf_release(&err);
	strbuf_release(&path);
}

/*
 * A 1.1 driver's result: its own CPU (3 s over the 15 s sample: 0.2 core
 * over its 3 loops) and its clock start (100 s) are used; without telemetry
 * the report still has the driver's figures.
 */
static void driver_own_account(void **state)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = 0, .server_pid = -1, .guest = -1};
	struct tel_series s;
	struct strbuf err, path, text;
	struct run *r = NULL;
	char *back = NULL;
	const char *cut;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_init(&text, 0);
	/* The sample phase gets its "cpu", the result its "driver". */
	cut = strstr(result_text, "\"latency_ms\":{\"avg\":800}}},");
	assert_non_null(cut);
	strbuf_add(&text, result_text, (size_t)(cut - result_text));
	strbuf_adds(&text, "\"latency_ms\":{\"avg\":800},\"cpu\":{\"seconds\":3,\"cores\":0.2},"
			   "\"conn_wait\":{\"avg_ms\":200,\"service_avg_ms\":600}}},"
			   "\"driver\":{\"event_loops\":3,\"blocking\":false,\"clock_start_ns\":100000000000},");
	strbuf_adds(&text, cut + strlen("\"latency_ms\":{\"avg\":800}}},"));
	/* Read as the driver wrote it: the report has the driver's figures already. */
	assert_int_equal(results_parse_result("d.json", text.buf, &r, &err), 0);
	assert_true(r->tel_sample.present && r->tel_sample.has_driver);
	NEAR(r->tel_sample.driver_cores, 0.2, 1e-9);
	assert_int_equal(r->tel_sample.driver_loops, 3);
	assert_false(r->tel_sample.has_host);
	run_free(r);
	r = NULL;
	strbuf_addf(&path, "%s/d.json", dir);
	assert_int_equal(atomic_write_file(path.buf, text.buf, text.len), 0);
	series(&s, 7);
	write_and_read(path.buf, "d.json", &s, &in, &r, &back);
	NEAR(r->tel_sample.driver_cores, 0.2, 1e-3); /* its own account, not the sampled 0.5 of pid 0 */
	/* Terminals waited 200 of their 800 ms for a connection. */
	assert_true(r->tel_sample.has_conn_wait);
	NEAR(r->tel_sample.conn_wait, 0.25, 1e-9);
	assert_int_equal(r->tel_sample.driver_loops, 3);
	NEAR(r->tel_sample.host_busy, 110.0 / 150, 1e-3); /* aligned on the result's clock start */
	run_free(r);
	free(back);
	tel_series_release(&s);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&text);
}

/* A counter that grows at `pre` per second until 110 s (the driver's t = 0
 * is 100 s, the precondition 10 s) and at `smp` per second after. */
static double level(double t, double pre, double smp)
{
	return t <= 110 ? pre * t : pre * 110 + smp * (t - 110);
}

/*
 * The sample's telemetry describes the sample, not the run from its start:
 * in the precondition the host is 30% busy (40 user + 5 system ticks of 150),
 * loop1 does 100 writes/s and is 25% busy, the driver (sampled, pid 0) uses
 * 0.1 core and the server 0.2; in the sample 73.3%, 400 writes/s, 75%, 0.5
 * and 1.2 cores. Readings every 5 s from 100 s, one on the phase boundary,
 * so each phase's figures are exact; over the whole run they would be
 * 56.0%, 280 writes/s, 55%, 0.34 and 0.8.
 */
static void sample_own_span(void **state)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = 0, .server_pid = 1, .guest = -1,
				  .start_ns = 100 * S};
	const struct blockdev bd[1] = {{7, 1, "loop1"}};
	const pid_t pids[2] = {4242, 4343};
	struct tel_series s;
	struct strbuf err, path;
	struct run *r = NULL;
	char *text = NULL;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	tel_series_init(&s, bd, 1, pids, 2, 0);
	s.host_cpus = 2;
	for (unsigned k = 0; k <= 6; k++) {
		double t = 100 + 5.0 * k;
		struct tel_reading *rd = tel_series_add(&s, (uint64_t)(t * 1e9));
		rd->has_cpu = true;
		rd->cpu = (struct sysstat_cpu){.user = (uint64_t)level(t, 40, 100), .system = (uint64_t)level(t, 5, 10),
					       .idle = (uint64_t)level(t, 95, 30), .iowait = (uint64_t)level(t, 10, 10),
					       .ncpu = 2};
		rd->has_disks = true;
		rd->disks[0] = (struct sysstat_disk){.wr_ios = (uint64_t)level(t, 100, 400),
						     .wr_sectors = (uint64_t)level(t, 800, 8000),
						     .wr_ticks = (uint64_t)level(t, 100, 2000),
						     .io_ticks = (uint64_t)level(t, 250, 750),
						     .time_in_queue = (uint64_t)level(t, 100, 2100)};
		rd->pid_cpu_s[0] = level(t, 0.1, 0.5);
		rd->pid_cpu_s[1] = level(t, 0.2, 1.2);
	}
	strbuf_addf(&path, "%s/span.json", dir);
	assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
	write_and_read(path.buf, "span.json", &s, &in, &r, &text);
	assert_true(r->tel_sample.present && r->tel_pre.present);
	NEAR(r->tel_sample.seconds, 15, 1e-9);
	NEAR(r->tel_sample.host_busy, 110.0 / 150, 1e-3);
	NEAR(r->tel_sample.devs[0].w_iops, 400, 1e-3);
	NEAR(r->tel_sample.devs[0].util, 0.75, 1e-3);
	NEAR(r->tel_sample.devs[0].await_ms, 5, 1e-3);
	assert_true(r->tel_sample.has_driver && r->tel_sample.has_server);
	NEAR(r->tel_sample.driver_cores, 0.5, 1e-3);
	NEAR(r->tel_sample.server_cores, 1.2, 1e-3);
	/* The precondition keeps its own figures. */
	NEAR(r->tel_pre.seconds, 10, 1e-9);
	NEAR(r->tel_pre.host_busy, 45.0 / 150, 1e-3);
	NEAR(r->tel_pre.devs[0].w_iops, 100, 1e-3);
	NEAR(r->tel_pre.devs[0].util, 0.25, 1e-3);
	NEAR(r->tel_pre.driver_cores, 0.1, 1e-3);
	NEAR(r->tel_pre.server_cores, 0.2, 1e-3);
	/* And every interval its own: 2 of the precondition, 3 of the sample. */
	assert_int_equal(r->nintervals, 5);
	for (size_t i = 0; i < r->nintervals; i++) {
		assert_true(r->intervals[i].has_host && r->intervals[i].has_dev);
		NEAR(r->intervals[i].host_busy, i < 2 ? 45.0 / 150 : 110.0 / 150, 1e-3);
		NEAR(r->intervals[i].dev_util, i < 2 ? 0.25 : 0.75, 1e-3);
	}
	run_free(r);
	free(text);
	tel_series_release(&s);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void refusals(void **state)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = -1, .server_pid = -1, .guest = -1,
				  .start_ns = 100 * S};
	struct tel_series s;
	struct strbuf err, path, tel;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_init(&tel, 0);
	strbuf_addf(&tel, "%s/refused" TEL_FILE_SUFFIX, dir);
	series(&s, 1);
	strbuf_addf(&path, "%s/missing.json", dir);
	assert_int_equal(tel_write(path.buf, tel.buf, &s, &in, &err), -EIO);
	assert_non_null(strstr(err.buf, "missing.json: "));
	strbuf_reset(&err);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/one.json", dir);
	assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
	assert_int_equal(tel_write(path.buf, tel.buf, &s, &in, &err), -ENODATA);
	assert_non_null(strstr(err.buf, "1 sampler reading (expected at least 2"));
	strbuf_reset(&err);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/other.json", dir);
	assert_int_equal(atomic_write_file(path.buf, "{\"schema\":\"dbrig.result/2\"}", 27), 0);
	assert_int_equal(tel_write(path.buf, tel.buf, &s, &in, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "not a dbrig.result/1 file"));
	/* A 1.0 result and no start given: nothing to align on. */
	tel_series_release(&s);
	series(&s, 3);
	strbuf_reset(&err);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/nostart.json", dir);
	assert_int_equal(atomic_write_file(path.buf, result_text, strlen(result_text)), 0);
	in.start_ns = 0;
	assert_int_equal(tel_write(path.buf, tel.buf, &s, &in, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "no clock_start_ns in the result"));
	tel_series_release(&s);
	/* Nothing is written for a refused result. */
	assert_int_equal(access(tel.buf, F_OK), -1);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&tel);
}

/* The telemetry file's "intervals" of the result at `name` in dir (tel_write into name's telemetry file). */
static json_t *tel_intervals(const char *name, const struct tel_series *s, const struct tel_instance *in, int want)
{
	struct strbuf err, path, tel;
	json_t *root, *iv = NULL;

	strbuf_init(&err, 0);
	strbuf_init(&path, 0);
	strbuf_init(&tel, 0);
	strbuf_addf(&path, "%s/%s", dir, name);
	strbuf_addf(&tel, "%s/%.*s" TEL_FILE_SUFFIX, dir, (int)(strlen(name) - 5), name);
	assert_int_equal(tel_write(path.buf, tel.buf, s, in, &err), want);
	if (want == 0) {
		root = json_load_file(tel.buf, 0, NULL);
		iv = json_incref(json_object_get(root, "intervals"));
		json_decref(root);
	} else {
		assert_non_null(strstr(err.buf, "jl2.jsonl: "));
		assert_non_null(strstr(err.buf, "(expected the journal that holds"));
	}
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&tel);
	return iv;
}

/*
 * A 1.3 result that left its intervals to its journal beside it gets the same
 * interval telemetry as one that holds them (the journal's interval lines, a
 * cut last line left out); with no journal there, nothing is written.
 */
static void intervals_from_journal(void **state)
{
	const size_t devs[1] = {0};
	struct tel_instance in = {.devs = devs, .ndevs = 1, .driver_pid = -1, .server_pid = -1, .guest = -1,
				  .start_ns = 100 * S};
	const char *cut = strstr(result_text, ",\"intervals\":");
	struct tel_series s;
	struct strbuf text, jl;
	json_t *a, *b;

	(void)state;
	strbuf_init(&text, 0);
	strbuf_init(&jl, 0);
	series(&s, 7);
	strbuf_addf(&text, "%s/jl1.json", dir);
	assert_int_equal(atomic_write_file(text.buf, result_text, strlen(result_text)), 0);
	a = tel_intervals("jl1.json", &s, &in, 0);
	assert_int_equal(json_array_size(a), 5);
	/* The same result, its intervals in its journal. */
	strbuf_reset(&text);
	strbuf_addf(&text, "%.*s,\"journal\":\"jl2.jsonl\"}", (int)(cut - result_text), result_text);
	strbuf_addf(&jl, "%s/jl2.json", dir);
	assert_int_equal(atomic_write_file(jl.buf, text.buf, text.len), 0);
	b = tel_intervals("jl2.json", &s, &in, -EIO);
	assert_null(b);
	strbuf_reset(&text);
	strbuf_adds(&text, "{\"type\":\"header\",\"schema\":\"dbrig.journal/1.2\"}\n");
	for (int k = 0; k < 5; k++)
		strbuf_addf(&text, "{\"type\":\"interval\",\"phase\":\"%s\",\"t\":%d,\"seconds\":5,\"tps\":10,"
			    "\"histogram\":{\"counts\":[[1,2]]}}\n", k < 2 ? "precondition" : "sample", 5 * (k + 1));
	strbuf_adds(&text, "{\"type\":\"end\",\"status\":\"complete\"}\n{\"type\":\"interval\",\"phase\":\"sam");
	strbuf_reset(&jl);
	strbuf_addf(&jl, "%s/jl2.jsonl", dir);
	assert_int_equal(atomic_write_file(jl.buf, text.buf, text.len), 0);
	b = tel_intervals("jl2.json", &s, &in, 0);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	tel_series_release(&s);
	strbuf_release(&text);
	strbuf_release(&jl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interpolation),
		cmocka_unit_test(attach_and_read_back),
		cmocka_unit_test(intervals_from_journal),
		cmocka_unit_test(node_host_figures),
		cmocka_unit_test(server_waiting),
		cmocka_unit_test(driver_own_account),
		cmocka_unit_test(sample_own_span),
		cmocka_unit_test(refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
