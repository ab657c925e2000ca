/*
 * The campaign's sampler thread on this machine's own files: one thread and
 * no more, readings in time order at least one interval apart (absolute
 * deadlines, never early), counters that only grow, every source read at
 * every reading, a device that does not exist leaving the disks out without
 * stopping anything, and the series handed over at stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/sampler.h"
#include "core/clock.h"
#include "core/strbuf.h"

#define INTERVAL_NS (50 * NS_PER_MS)

static size_t threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

struct calls {
	size_t guest, last_k;
	_Atomic size_t reading;  /* counted in the sampler thread, watched by the test's */
	bool in_order;
};

/* A VM whose counters grow by a fixed step at every call. */
static int fake_guests(void *arg, struct sysstat_guest *out, size_t n)
{
	struct calls *c = arg;

	c->guest++;
	for (size_t i = 0; i < n; i++)
		out[i] = (struct sysstat_guest){.has_block = true, .wr_reqs = 10 * c->guest, .has_cpu = true,
						.cpu_ns = 1000 * c->guest, .vcpus = 2};
	return 0;
}

static void on_reading(void *arg, const struct tel_series *s, size_t k)
{
	struct calls *c = arg;

	c->in_order &= k == c->reading && k + 1 == s->n;
	c->reading++;
	c->last_k = k;
}

/* Spin on the CPU until the sampler made `n` readings and this process used
 * some CPU time after the first one (no timing threshold: a busy machine only
 * makes it take longer; a minute without either fails). */
static void spin_until(struct calls *c, size_t n, double cpu0)
{
	uint64_t give_up = clock_now_ns() + 60 * NS_PER_SEC;
	volatile unsigned long x = 0;
	double cpu = cpu0;

	while (clock_now_ns() < give_up) {
		for (int i = 0; i < 100000; i++)
			x++;
		assert_int_equal(sysstat_pid_read(getpid(), &cpu), 0);
		if (c->reading >= n && cpu >= cpu0 + 0.05)
			return;
	}
	fail_msg("the sampler made %zu readings and this process %.2f s of CPU in a minute", (size_t)c->reading,
		 cpu - cpu0);
}

static void run(void **state)
{
	struct blockdev_chain chain = {0};
	struct blockdev devs[4];
	pid_t pids[1] = {getpid()};
	struct calls calls = {.in_order = true};
	struct sampler_spec spec = {.interval_ns = INTERVAL_NS, .pids = pids, .npids = 1,
				    .guests = {.n = 1, .arg = &calls, .read = fake_guests},
				    .on_reading = on_reading, .arg = &calls};
	struct sampler *sm = NULL;
	struct tel_series s;
	size_t before = threads_now();
	double cpu0;

	(void)state;
	assert_int_equal(sysstat_pid_read(getpid(), &cpu0), 0);
	assert_int_equal(blockdev_resolve("/", &chain, NULL), 0);
	spec.ndevs = blockdev_chain_sampled(&chain, devs, 4);
	spec.devs = devs;
	assert_int_equal(sampler_start(&sm, &spec), 0);
	assert_int_equal(threads_now(), before + 1);
	spin_until(&calls, 6, cpu0);
	sampler_stop(sm, &s);
	assert_int_equal(threads_now(), before);
	/* The first reading, five ticks or more, the last. */
	assert_true(s.n >= 7);
	assert_int_equal(calls.guest, s.n);
	assert_int_equal(calls.reading, s.n);
	assert_true(calls.in_order);
	assert_int_equal(s.ndevs, spec.ndevs);
	assert_true(s.host_cpus >= 1);
	for (size_t k = 0; k < s.n; k++) {
		const struct tel_reading *r = &s.v[k];
		assert_true(r->has_cpu && r->has_disks);
		assert_true(r->pid_cpu_s[0] >= 0);
		assert_true(r->guests[0].has_block);
		if (!k)
			continue;
		assert_true(r->mono_ns > s.v[k - 1].mono_ns);
		/* Ticks come at their deadlines or later, never early. */
		if (k < s.n - 1)
			assert_true(r->mono_ns - s.v[0].mono_ns >= k * INTERVAL_NS);
		assert_true(r->cpu.user + r->cpu.system >= s.v[k - 1].cpu.user + s.v[k - 1].cpu.system);
		assert_true(r->disks[0].rd_ios >= s.v[k - 1].disks[0].rd_ios);
		assert_true(r->pid_cpu_s[0] >= s.v[k - 1].pid_cpu_s[0]);
	}
	/* The spin shows as this process's CPU time. */
	assert_true(s.v[s.n - 1].pid_cpu_s[0] > s.v[0].pid_cpu_s[0]);
	tel_series_release(&s);
	blockdev_chain_release(&chain);
}

/* A device that does not exist and a process that is gone: the readings
 * lack them, the sampler goes on. A zero interval is refused. */
static void missing_sources(void **state)
{
	struct blockdev devs[1] = {{.major = 4095, .minor = 4095, .name = "nope"}};
	pid_t pids[1] = {0x7ffffff0};
	struct sampler_spec spec = {.interval_ns = INTERVAL_NS, .devs = devs, .ndevs = 1, .pids = pids, .npids = 1};
	struct sampler *sm = NULL;
	struct tel_series s;

	(void)state;
	assert_int_equal(sampler_start(&sm, &spec), 0);
	sampler_stop(sm, &s);
	assert_true(s.n >= 2); /* the first and the last, and any tick between */
	for (size_t k = 0; k < s.n; k++) {
		assert_false(s.v[k].has_disks);
		assert_true(s.v[k].has_cpu);
		assert_true(s.v[k].pid_cpu_s[0] < 0);
	}
	tel_series_release(&s);
	spec.interval_ns = 0;
	assert_int_equal(sampler_start(&sm, &spec), -EINVAL);
	assert_null(sm);
	sampler_stop(NULL, &s);
	assert_int_equal(s.n, 0);
}

/*
 * The process's waiting: read in every reading when the kernel's switch (a
 * file standing in for /proc/sys/kernel/task_delayacct) says 1, never when it
 * says 0; its I/O pressure where the machine has one.
 */
static void waiting_sources(void **state)
{
	char sw[] = "/tmp/test_sampler_delayacct.XXXXXX";
	pid_t pids[1] = {getpid()};
	struct sampler_spec spec = {.interval_ns = INTERVAL_NS, .pids = pids, .npids = 1, .delayacct = sw};
	struct sampler *sm = NULL;
	struct tel_series s;
	int fd = mkstemp(sw);

	(void)state;
	assert_true(fd >= 0);
	for (int on = 1; on >= 0; on--) {
		assert_int_equal(pwrite(fd, on ? "1\n" : "0\n", 2, 0), 2);
		assert_int_equal(sampler_start(&sm, &spec), 0);
		sampler_stop(sm, &s);
		assert_int_equal(s.pid_src[0].delayacct, on);
		assert_true(s.n >= 2);
		for (size_t k = 0; k < s.n; k++) {
			assert_int_equal(s.v[k].pid_io[0].blkio_s >= 0, on);
			if (s.pid_src[0].psi_scope >= 0)
				assert_true(s.v[k].pid_io[0].psi_some_s >= 0);
			else
				assert_true(s.v[k].pid_io[0].psi_some_s < 0);
		}
		tel_series_release(&s);
	}
	close(fd);
	unlink(sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run),
		cmocka_unit_test(missing_sources),
		cmocka_unit_test(waiting_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
