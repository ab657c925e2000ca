#include "core/sysstat.h"

#include "core/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DISK_FIELDS 17

/* Up to `max` unsigned numbers from s; how many were read. */
static size_t read_u64s(const char *s, const char *end, uint64_t *v, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *e;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= end || *s < '0' || *s > '9')
			break;
		errno = 0;
		v[n] = strtoull(s, &e, 10);
		if (errno || e == s)
			break;
		s = e;
		n++;
	}
	return n;
}

/* One diskstats line (without its newline): device number and counters. */
static int disk_line(const char *line, const char *end, unsigned *major, unsigned *minor, struct sysstat_disk *d)
{
	uint64_t v[DISK_FIELDS] = {0}, mm[2];
	const char *s = line;
	size_t n;

	if (read_u64s(s, end, mm, 2) != 2)
		return -EINVAL;
	/* Skip the two numbers and the name. */
	for (int field = 0; field < 3; field++) {
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		while (s < end && *s != ' ' && *s != '\t')
			s++;
	}
	n = read_u64s(s, end, v, DISK_FIELDS);
	if (n < 11)
		return -EINVAL;
	*major = (unsigned)mm[0];
	*minor = (unsigned)mm[1];
	*d = (struct sysstat_disk){
		.rd_ios = v[0], .rd_merges = v[1], .rd_sectors = v[2], .rd_ticks = v[3],
		.wr_ios = v[4], .wr_merges = v[5], .wr_sectors = v[6], .wr_ticks = v[7],
		.in_flight = v[8], .io_ticks = v[9], .time_in_queue = v[10],
		.dc_ios = v[11], .dc_merges = v[12], .dc_sectors = v[13], .dc_ticks = v[14],
		.fl_ios = v[15], .fl_ticks = v[16],
	};
	return 0;
}

/* For each line of text: fill the devices asked for; count the ones found. */
static int disk_scan(const char *text, const struct blockdev *devs, size_t n, struct sysstat_disk *out,
		     size_t *found)
{
	bool *seen = calloc(n ? n : 1, sizeof(*seen));
	const char *line = text;

	if (!seen)
		return -ENOMEM;
	*found = 0;
	while (*line) {
		const char *end = strchr(line, '\n');
		struct sysstat_disk d;
		unsigned ma, mi;

		if (!end)
			end = line + strlen(line);
		if (disk_line(line, end, &ma, &mi, &d) == 0) {
			for (size_t i = 0; i < n; i++) {
				if (!seen[i] && devs[i].major == ma && devs[i].minor == mi) {
					out[i] = d;
					seen[i] = true;
					(*found)++;
				}
			}
		}
		line = *end ? end + 1 : end;
	}
	free(seen);
	return 0;
}

int sysstat_disk_parse(const char *text, unsigned major, unsigned minor, struct sysstat_disk *out)
{
	struct blockdev dev = {.major = major, .minor = minor};
	size_t found = 0;
	int ret = disk_scan(text, &dev, 1, out, &found);

	if (ret < 0)
		return ret;
	return found ? 0 : -ENOENT;
}

int sysstat_disk_read(const char *path, const struct blockdev *devs, size_t n, struct sysstat_disk *out)
{
	char *text = NULL;
	size_t len, found = 0;
	int ret = read_file(path, &text, &len);

	if (ret < 0)
		return ret;
	ret = disk_scan(text, devs, n, out, &found);
	free(text);
	if (ret == 0 && found != n)
		ret = -ENOENT;
	return ret;
}

/* b - a; a counter that went backwards wrapped at 2^32. */
static double delta(uint64_t a, uint64_t b)
{
	if (b >= a)
		return (double)(b - a);
	if (a <= UINT32_MAX)
		return (double)((b + (UINT64_C(1) << 32) - a) & UINT32_MAX);
	return 0;
}

static double per(double num, double den)
{
	return den > 0 ? num / den : 0;
}

void sysstat_disk_rates(const struct sysstat_disk *a, const struct sysstat_disk *b, double seconds,
			struct sysstat_disk_rates *out)
{
	double rd = delta(a->rd_ios, b->rd_ios), wr = delta(a->wr_ios, b->wr_ios), fl = delta(a->fl_ios, b->fl_ios);
	double rt = delta(a->rd_ticks, b->rd_ticks), wt = delta(a->wr_ticks, b->wr_ticks);
	double ms = seconds * 1000;

	memset(out, 0, sizeof(*out));
	if (!(seconds > 0))
		return;
	out->r_iops = rd / seconds;
	out->w_iops = wr / seconds;
	out->f_iops = fl / seconds;
	out->r_mbps = delta(a->rd_sectors, b->rd_sectors) * 512 / 1e6 / seconds;
	out->w_mbps = delta(a->wr_sectors, b->wr_sectors) * 512 / 1e6 / seconds;
	out->r_await_ms = per(rt, rd);
	out->w_await_ms = per(wt, wr);
	out->f_await_ms = per(delta(a->fl_ticks, b->fl_ticks), fl);
	out->await_ms = per(rt + wt, rd + wr);
	out->queue_depth = delta(a->time_in_queue, b->time_in_queue) / ms;
	out->util = delta(a->io_ticks, b->io_ticks) / ms;
	if (out->util > 1)
		out->util = 1; /* io_ticks is sampled at jiffy resolution */
}

int sysstat_cpu_parse(const char *text, struct sysstat_cpu *out)
{
	const char *line = text;
	bool have = false;

	memset(out, 0, sizeof(*out));
	while (*line) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if (!strncmp(line, "cpu ", 4)) {
			uint64_t v[8] = {0};
			/* Older kernels print fewer columns; at least user..idle. */
			if (read_u64s(line + 4, end, v, 8) < 4)
				return -EINVAL;
			*out = (struct sysstat_cpu){.user = v[0], .nice = v[1], .system = v[2], .idle = v[3],
						    .iowait = v[4], .irq = v[5], .softirq = v[6], .steal = v[7],
						    .ncpu = out->ncpu};
			have = true;
		} else if (!strncmp(line, "cpu", 3) && line[3] >= '0' && line[3] <= '9') {
			out->ncpu++;
		}
		line = *end ? end + 1 : end;
	}
	if (!have)
		return -EINVAL;
	if (!out->ncpu)
		out->ncpu = 1;
	return 0;
}

int sysstat_cpu_read(const char *path, struct sysstat_cpu *out)
{
	char *text = NULL;
	size_t len;
	int ret = read_file(path, &text, &len);

	if (ret < 0)
		return ret;
	ret = sysstat_cpu_parse(text, out);
	free(text);
	return ret;
}

void sysstat_cpu_rates(const struct sysstat_cpu *a, const struct sysstat_cpu *b, struct sysstat_cpu_rates *out)
{
	double busy = delta(a->user, b->user) + delta(a->nice, b->nice) + delta(a->system, b->system) +
		      delta(a->irq, b->irq) + delta(a->softirq, b->softirq) + delta(a->steal, b->steal);
	double iow = delta(a->iowait, b->iowait);
	double total = busy + iow + delta(a->idle, b->idle);

	out->busy = per(busy, total);
	out->iowait = per(iow, total);
	out->busy_cores = out->busy * (double)(b->ncpu ? b->ncpu : 1);
}

/* Guest counters are 64-bit and only grow; one that went back (a restart) is no change. */
static double delta64(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

void sysstat_guest_rates(const struct sysstat_guest *a, const struct sysstat_guest *b, double seconds,
			 struct sysstat_guest_rates *out)
{
	double rd = delta64(a->rd_reqs, b->rd_reqs), wr = delta64(a->wr_reqs, b->wr_reqs);
	double fl = delta64(a->fl_reqs, b->fl_reqs);
	double rt = delta64(a->rd_times_ns, b->rd_times_ns), wt = delta64(a->wr_times_ns, b->wr_times_ns);
	double ft = delta64(a->fl_times_ns, b->fl_times_ns);

	memset(out, 0, sizeof(*out));
	if (!(seconds > 0))
		return;
	out->r_iops = rd / seconds;
	out->w_iops = wr / seconds;
	out->f_iops = fl / seconds;
	out->r_mbps = delta64(a->rd_bytes, b->rd_bytes) / 1e6 / seconds;
	out->w_mbps = delta64(a->wr_bytes, b->wr_bytes) / 1e6 / seconds;
	out->r_await_ms = per(rt, rd) / 1e6;
	out->w_await_ms = per(wt, wr) / 1e6;
	out->f_await_ms = per(ft, fl) / 1e6;
	out->await_ms = per(rt + wt, rd + wr) / 1e6;
	out->queue_depth = (rt + wt + ft) / (seconds * 1e9);
	if (b->vcpus)
		out->vcpu_busy = delta64(a->cpu_ns, b->cpu_ns) / (seconds * 1e9 * (double)b->vcpus);
	if (out->vcpu_busy > 1)
		out->vcpu_busy = 1;
}

int sysstat_pid_parse(const char *text, long hz, double *cpu_s)
{
	/* "pid (comm) state ppid ...": comm may hold spaces and ')', so the
	 * fields are counted from the last ')'. utime and stime are fields 14
	 * and 15, i.e. the 12th and 13th after the state (field 3). */
	const char *s = strrchr(text, ')');
	unsigned long long ut, st;

	if (!s || hz <= 0)
		return -EINVAL;
	if (sscanf(s + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -EINVAL;
	*cpu_s = (double)(ut + st) / (double)hz;
	return 0;
}

int sysstat_pid_read(pid_t pid, double *cpu_s)
{
	char path[64], *text = NULL;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	ret = read_file(path, &text, &len);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	ret = sysstat_pid_parse(text, sysconf(_SC_CLK_TCK), cpu_s);
	free(text);
	return ret;
}

int sysstat_blkio_parse(const char *text, long hz, double *blkio_s)
{
	/* Field 42, i.e. the 39th after the state (field 3), counted from the last ')'. */
	const char *s = strrchr(text, ')');
	unsigned long long v;
	int skip = 0;

	if (!s || hz <= 0)
		return -EINVAL;
	s++;
	for (int f = 3; f < 42; f++) {
		while (*s == ' ')
			s++;
		if (!*s || *s == '\n')
			return -EINVAL;
		while (*s && *s != ' ' && *s != '\n')
			s++;
		skip++;
	}
	if (skip != 39 || sscanf(s, " %llu", &v) != 1)
		return -EINVAL;
	*blkio_s = (double)v / (double)hz;
	return 0;
}

int sysstat_tasks_blkio_read(const char *task_dir, double *blkio_s)
{
	char path[PATH_MAX], *text;
	struct dirent *e;
	size_t len;
	double sum = 0, one;
	long hz = sysconf(_SC_CLK_TCK);
	bool any = false;
	DIR *d;

	if (!(d = opendir(task_dir)))
		return errno == ENOENT ? -ESRCH : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%.20s/stat", task_dir, e->d_name);
		text = NULL;
		/* A thread that exited between readdir and here is left out. */
		if (read_file(path, &text, &len) < 0)
			continue;
		if (sysstat_blkio_parse(text, hz, &one) == 0) {
			sum += one;
			any = true;
		}
		free(text);
	}
	closedir(d);
	if (!any)
		return -ESRCH;
	*blkio_s = sum;
	return 0;
}

int sysstat_pid_blkio_read(pid_t pid, double *blkio_s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	return sysstat_tasks_blkio_read(path, blkio_s);
}

int sysstat_delayacct_on(const char *proc_sys_path)
{
	char *text = NULL;
	size_t len;
	int on;

	if (read_file(proc_sys_path ? proc_sys_path : "/proc/sys/kernel/task_delayacct", &text, &len) < 0)
		return -ENOENT;
	on = text[0] == '1';
	free(text);
	return on;
}

/* The total= of the line that starts with `kind`, microseconds. */
static int psi_total(const char *text, const char *kind, double *s)
{
	size_t k = strlen(kind);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *t;
		unsigned long long us;
		if (strncmp(l, kind, k) || l[k] != ' ')
			continue;
		t = strstr(l, " total=");
		if (!t || (strchr(l, '\n') && t > strchr(l, '\n')) || sscanf(t + 7, "%llu", &us) != 1)
			return -EINVAL;
		*s = (double)us / 1e6;
		return 0;
	}
	return -EINVAL;
}

int sysstat_psi_parse(const char *text, double *some_s, double *full_s)
{
	if (psi_total(text, "some", some_s) < 0)
		return -EINVAL;
	/* Older kernels have no "full" line for the system: then it is as some is not known. */
	if (psi_total(text, "full", full_s) < 0)
		*full_s = -1;
	return 0;
}

int sysstat_psi_read(const char *path, double *some_s, double *full_s)
{
	char *text = NULL;
	size_t len;
	int ret = read_file(path, &text, &len);

	if (ret < 0)
		return ret;
	ret = sysstat_psi_parse(text, some_s, full_s);
	free(text);
	return ret;
}

int sysstat_psi_locate(const char *proc, pid_t pid, const char *cgroup_root, const char *proc_pressure, char *out,
		       size_t n)
{
	char path[128], *text = NULL, *l;
	size_t len;

	snprintf(path, sizeof(path), "%s/%ld/cgroup", proc, (long)pid);
	if (read_file(path, &text, &len) == 0) {
		for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			char *end = strchr(l, '\n');
			if (strncmp(l, "0::/", 4))
				continue;
			if (end)
				*end = '\0';
			if (!strcmp(l + 3, "/"))
				break; /* the root cgroup: the system's figure */
			const char *sub[] = {"", "/unified"};
			for (size_t i = 0; i < 2; i++) {
				snprintf(out, n, "%s%s%s/io.pressure", cgroup_root, sub[i], l + 3);
				if (access(out, R_OK) == 0) {
					free(text);
					return 1;
				}
			}
			break;
		}
	}
	free(text);
	snprintf(out, n, "%s", proc_pressure);
	return access(out, R_OK) == 0 ? 0 : -ENOENT;
}
