/* /proc/diskstats, /proc/stat and /proc/PID/stat parsing and the rates
 * between two readings, against figures worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sysstat.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* Two readings of loop1 two seconds apart (kernel >= 5.5: 17 counters). */
static const char *const disk_a =
	"   7       0 loop0 1 2 3 4 5 6 7 8 9 10 11 0 0 0 0 0 0\n"
	"   7       1 loop1 100 0 800 50 200 10 3200 400 0 300 450 0 0 0 0 50 25\n"
	" 254       0 vda 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9\n";
static const char *const disk_b =
	"   7       0 loop0 1 2 3 4 5 6 7 8 9 10 11 0 0 0 0 0 0\n"
	"   7       1 loop1 300 0 2400 250 1000 30 19200 4400 2 1800 4650 0 0 0 0 150 125\n"
	" 254       0 vda 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9\n";

/*
 * D reads 200, writes 800, flushes 100 over 2 s: 100, 400 and 50 per second.
 * D read sectors 1600 * 512 B = 819,200 B: 0.4096 MB/s; writes 16,000
 * sectors = 8,192,000 B: 4.096 MB/s.
 * await: reads 200 ms / 200 = 1 ms, writes 4,000 ms / 800 = 5 ms, flushes
 * 100 / 100 = 1 ms, reads and writes (200 + 4,000) / 1,000 = 4.2 ms.
 * queue depth 4,200 weighted ms / 2,000 ms = 2.1; util 1,500 / 2,000 = 75%.
 */
static void disk_rates(void **state)
{
	struct sysstat_disk a, b;
	struct sysstat_disk_rates r;

	(void)state;
	assert_int_equal(sysstat_disk_parse(disk_a, 7, 1, &a), 0);
	assert_int_equal(sysstat_disk_parse(disk_b, 7, 1, &b), 0);
	assert_int_equal(a.rd_ios, 100);
	assert_int_equal(b.in_flight, 2);
	assert_int_equal(b.fl_ticks, 125);
	sysstat_disk_rates(&a, &b, 2.0, &r);
	NEAR(r.r_iops, 100);
	NEAR(r.w_iops, 400);
	NEAR(r.f_iops, 50);
	NEAR(r.r_mbps, 0.4096);
	NEAR(r.w_mbps, 4.096);
	NEAR(r.r_await_ms, 1);
	NEAR(r.w_await_ms, 5);
	NEAR(r.f_await_ms, 1);
	NEAR(r.await_ms, 4.2);
	NEAR(r.queue_depth, 2.1);
	NEAR(r.util, 0.75);
}

/* Older kernels print 11 counters (no discard or flush); 32-bit fields wrap:
 * io_ticks 4,294,967,000 -> 704 is 296 + 704 = 1,000 ms, 50% of 2 s. No I/O:
 * no latency (0, not NaN). */
static void disk_old_kernel_and_wrap(void **state)
{
	struct sysstat_disk a, b;
	struct sysstat_disk_rates r;

	(void)state;
	assert_int_equal(sysstat_disk_parse("   8   0 sda 5 0 40 10 5 0 40 10 0 4294967000 20\n", 8, 0, &a), 0);
	assert_int_equal(sysstat_disk_parse("   8   0 sda 5 0 40 10 5 0 40 10 0 704 20", 8, 0, &b), 0);
	assert_int_equal(a.fl_ios, 0);
	sysstat_disk_rates(&a, &b, 2.0, &r);
	NEAR(r.util, 0.5);
	NEAR(r.await_ms, 0);
	NEAR(r.r_iops, 0);
	assert_int_equal(sysstat_disk_parse(disk_a, 7, 9, &a), -ENOENT);
	assert_int_equal(sysstat_disk_parse("   7 1 loop1 1 2 3\n", 7, 1, &a), -ENOENT); /* too short: not a line */
	sysstat_disk_rates(&a, &b, 0, &r);
	NEAR(r.util, 0);
}

/* The real file: the devices asked for are there, a made-up one is not. */
static void disk_read_proc(void **state)
{
	struct blockdev devs[2] = {{.major = 4095, .minor = 4095}};
	struct sysstat_disk d[2];
	struct sysstat_cpu c;

	(void)state;
	assert_int_equal(sysstat_disk_read("/proc/diskstats", devs, 1, d), -ENOENT);
	assert_int_equal(sysstat_disk_read("/nonexistent/diskstats", devs, 1, d), -ENOENT);
	assert_int_equal(sysstat_cpu_read("/proc/stat", &c), 0);
	assert_true(c.ncpu >= 1);
	assert_int_equal(c.ncpu, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
}

/*
 * cpu a: user 1000 nice 0 system 500 idle 8000 iowait 300 irq 0 softirq 200
 *     b: user 1600 nice 100 system 800 idle 8300 iowait 400 irq 0 softirq 300
 * D busy = 600 + 100 + 300 + 0 + 100 + 0 = 1,100; D iowait 100; D idle 300;
 * total 1,500: busy 73.33%, iowait 6.67%, on 2 CPUs 1.4667 cores.
 */
static void cpu_rates(void **state)
{
	struct sysstat_cpu a, b;
	struct sysstat_cpu_rates r;

	(void)state;
	assert_int_equal(sysstat_cpu_parse("cpu  1000 0 500 8000 300 0 200 0 0 0\ncpu0 1 1 1 1\ncpu1 1 1 1 1\n"
					   "intr 5 6\nctxt 7\n", &a), 0);
	assert_int_equal(sysstat_cpu_parse("cpu  1600 100 800 8300 400 0 300 0 0 0\ncpu0 1 1 1 1\ncpu1 1 1 1 1\n",
					   &b), 0);
	assert_int_equal(a.ncpu, 2);
	sysstat_cpu_rates(&a, &b, &r);
	NEAR(r.busy, 1100.0 / 1500);
	NEAR(r.iowait, 100.0 / 1500);
	NEAR(r.busy_cores, 2 * 1100.0 / 1500);
	assert_int_equal(sysstat_cpu_parse("intr 5\n", &a), -EINVAL);
	assert_int_equal(sysstat_cpu_parse("cpu  1 2\n", &a), -EINVAL);
}

/*
 * A VM over 4 s: 400 reads of 4 KiB (1,638,400 B) taking 2 s in all, 2,000
 * writes of 16 KiB (32,768,000 B) taking 6 s, 100 flushes taking 0.4 s; 8 vCPUs
 * used 16 s of CPU.
 *   r 100/s, w 500/s, f 25/s; 0.4096 MB/s and 8.192 MB/s
 *   await r 2 s / 400 = 5 ms, w 3 ms, f 4 ms, r+w 8 s / 2,400 = 3.333 ms
 *   queue depth (2 + 6 + 0.4) s / 4 s = 2.1; vCPUs 16 / (4 * 8) = 50% busy
 */
static void guest_rates(void **state)
{
	struct sysstat_guest a = {.has_block = true, .rd_reqs = 1000, .rd_bytes = 1u << 20, .rd_times_ns = 5000000,
				  .wr_reqs = 10, .wr_bytes = 4096, .wr_times_ns = 1000, .fl_reqs = 3, .fl_times_ns = 7,
				  .has_cpu = true, .cpu_ns = UINT64_C(100000000000), .vcpus = 8};
	struct sysstat_guest b = a;
	struct sysstat_guest_rates r;

	(void)state;
	b.rd_reqs += 400;
	b.rd_bytes += 1638400;
	b.rd_times_ns += UINT64_C(2000000000);
	b.wr_reqs += 2000;
	b.wr_bytes += 32768000;
	b.wr_times_ns += UINT64_C(6000000000);
	b.fl_reqs += 100;
	b.fl_times_ns += UINT64_C(400000000);
	b.cpu_ns += UINT64_C(16000000000);
	sysstat_guest_rates(&a, &b, 4.0, &r);
	NEAR(r.r_iops, 100);
	NEAR(r.w_iops, 500);
	NEAR(r.f_iops, 25);
	NEAR(r.r_mbps, 0.4096);
	NEAR(r.w_mbps, 8.192);
	NEAR(r.r_await_ms, 5);
	NEAR(r.w_await_ms, 3);
	NEAR(r.f_await_ms, 4);
	NEAR(r.await_ms, 8000.0 / 2400);
	NEAR(r.queue_depth, 2.1);
	NEAR(r.vcpu_busy, 0.5);
	/* A restarted domain's counters went back: no change, not a huge one. */
	sysstat_guest_rates(&b, &a, 4.0, &r);
	NEAR(r.w_iops, 0);
	NEAR(r.vcpu_busy, 0);
}

/* comm with spaces and parentheses: utime 250 + stime 130 ticks at 100 Hz. */
static void pid_cpu(void **state)
{
	double s = 0;

	(void)state;
	assert_int_equal(sysstat_pid_parse("1234 (my (odd) name) S 1 1234 1234 0 -1 4194560 500 0 0 0 250 130 0 0 "
					   "20 0 1 0 100 0 0\n", 100, &s), 0);
	NEAR(s, 3.8);
	assert_int_equal(sysstat_pid_parse("1234 no parens", 100, &s), -EINVAL);
	assert_int_equal(sysstat_pid_read(getpid(), &s), 0);
	assert_true(s >= 0);
}

/* Field 42 (delayacct_blkio_ticks) counted from the last ')': 250 ticks at 100 Hz. */
static void pid_blkio(void **state)
{
	char line[512];
	double s = -1;
	size_t n;

	(void)state;
	n = (size_t)snprintf(line, sizeof(line), "77 (a) b) S");
	for (int f = 4; f < 42; f++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %d", f == 8 ? -1 : f);
	snprintf(line + n, sizeof(line) - n, " 250 43 44 45\n");
	assert_int_equal(sysstat_blkio_parse(line, 100, &s), 0);
	NEAR(s, 2.5);
	/* A line that stops before field 42 is refused. */
	assert_int_equal(sysstat_blkio_parse("77 (a) S 1 2 3\n", 100, &s), -EINVAL);
	assert_int_equal(sysstat_blkio_parse("no parens", 100, &s), -EINVAL);
	assert_int_equal(sysstat_pid_blkio_read(getpid(), &s), 0);
	assert_true(s >= 0);

	/* Summed over the threads: 250 + 100 ticks; a thread without a stat is left out. */
	char dir[] = "/tmp/test_sysstat_task.XXXXXX", p[300];
	FILE *f;
	long hz = sysconf(_SC_CLK_TCK);
	assert_non_null(mkdtemp(dir));
	for (int t = 0; t < 3; t++) {
		snprintf(p, sizeof(p), "%s/%d", dir, 77 + t);
		assert_int_equal(mkdir(p, 0700), 0);
		if (t == 2)
			continue;
		snprintf(p, sizeof(p), "%s/%d/stat", dir, 77 + t);
		assert_non_null(f = fopen(p, "w"));
		n = (size_t)snprintf(line, sizeof(line), "%d (a) S", 77 + t);
		for (int k = 4; k < 42; k++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " 0");
		fprintf(f, "%s %ld 0 0\n", line, t ? hz : 5 * hz / 2);
		fclose(f);
	}
	assert_int_equal(sysstat_tasks_blkio_read(dir, &s), 0);
	NEAR(s, 3.5);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
	assert_int_equal(sysstat_tasks_blkio_read(dir, &s), -ESRCH);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* I/O pressure totals (microseconds) and where a process's are: its own
 * cgroup v2 (hybrid: under unified/), the system's for the root cgroup or
 * when its cgroup has none; delay accounting's switch. */
static void io_pressure(void **state)
{
	char dir[] = "/tmp/test_sysstat.XXXXXX", p[256], out[256];
	double some = 0, full = 0;

	(void)state;
	assert_int_equal(sysstat_psi_parse("some avg10=0.14 avg60=0.39 avg300=0.65 total=4453426\n"
					   "full avg10=0.08 avg60=0.31 avg300=0.57 total=3972155\n", &some, &full), 0);
	NEAR(some, 4.453426);
	NEAR(full, 3.972155);
	assert_int_equal(sysstat_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=12\n", &some, &full), 0);
	NEAR(some, 12e-6);
	NEAR(full, -1);
	assert_int_equal(sysstat_psi_parse("full avg10=0 total=5\n", &some, &full), -EINVAL);
	assert_int_equal(sysstat_psi_parse("some avg10=0.00\nfull total=5\n", &some, &full), -EINVAL);

	assert_non_null(mkdtemp(dir));
#define P(fmt) (snprintf(p, sizeof(p), fmt, dir), p)
	assert_int_equal(mkdir(P("%s/proc"), 0700), 0);
	assert_int_equal(mkdir(P("%s/proc/5"), 0700), 0);
	assert_int_equal(mkdir(P("%s/proc/6"), 0700), 0);
	assert_int_equal(mkdir(P("%s/cg"), 0700), 0);
	assert_int_equal(mkdir(P("%s/cg/unified"), 0700), 0);
	assert_int_equal(mkdir(P("%s/cg/unified/db.slice"), 0700), 0);
	write_text(P("%s/proc/5/cgroup"), "4:memory:/x\n0::/db.slice\n");
	write_text(P("%s/proc/6/cgroup"), "0::/\n");
	write_text(P("%s/pressure"), "some avg10=0 total=1\n");
	write_text(P("%s/cg/unified/db.slice/io.pressure"), "some avg10=0 total=2\n");
	char proc[200], cg[200], sys[200];
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	snprintf(cg, sizeof(cg), "%s/cg", dir);
	snprintf(sys, sizeof(sys), "%s/pressure", dir);
	assert_int_equal(sysstat_psi_locate(proc, 5, cg, sys, out, sizeof(out)), 1);
	assert_string_equal(out, P("%s/cg/unified/db.slice/io.pressure"));
	assert_int_equal(sysstat_psi_locate(proc, 6, cg, sys, out, sizeof(out)), 0);
	assert_string_equal(out, sys);
	/* No such process, or its cgroup without io.pressure: the system's. */
	assert_int_equal(sysstat_psi_locate(proc, 7, cg, sys, out, sizeof(out)), 0);
	write_text(P("%s/proc/5/cgroup"), "0::/other\n");
	assert_int_equal(sysstat_psi_locate(proc, 5, cg, sys, out, sizeof(out)), 0);
	unlink(sys);
	assert_int_equal(sysstat_psi_locate(proc, 5, cg, sys, out, sizeof(out)), -ENOENT);

	write_text(P("%s/delayacct"), "1\n");
	assert_int_equal(sysstat_delayacct_on(p), 1);
	write_text(P("%s/delayacct"), "0\n");
	assert_int_equal(sysstat_delayacct_on(p), 0);
	assert_true(sysstat_delayacct_on(P("%s/none")) < 0);
#undef P
	assert_int_equal(system((snprintf(p, sizeof(p), "rm -rf '%s'", dir), p)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disk_rates),
		cmocka_unit_test(disk_old_kernel_and_wrap),
		cmocka_unit_test(disk_read_proc),
		cmocka_unit_test(cpu_rates),
		cmocka_unit_test(pid_cpu),
		cmocka_unit_test(pid_blkio),
		cmocka_unit_test(io_pressure),
		cmocka_unit_test(guest_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
