/*
 * The telemetry journal of a campaign run (result/telemetry.h,
 * docs/result-format.md): the sampler's raw readings, one JSON line each,
 * appended as they are taken. Beside telemetry.c, which turns the same
 * readings into each instance's telemetry file.
 */
#include "result/telemetry.h"

#include "core/fileio.h"
#include "core/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

FILE *tel_journal_open(const char *path, struct strbuf *err)
{
	/* Appended to: a cut-off attempt's readings stay before the next attempt's. */
	/* Never through a planted link, never a FIFO (core/fileio.c). */
	int fd = open_for_write(path, WRITE_APPEND, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;
	int e = fd >= 0 ? -errno : fd;

	if (fd >= 0 && !f)
		close(fd);
	if (!f)
		strbuf_addf(err, "%s: %s", path, write_file_strerror(e));
	return f;
}

static json_t *u64s(const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *secs_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/* Per sampled process its CPU seconds, and its waiting on block I/O: [delay accounting, I/O pressure some, full]. */
static void pids_json(json_t *o, const struct tel_series *s, const struct tel_reading *r)
{
	json_t *cpu = json_object(), *io = json_object();
	char key[24];

	for (size_t i = 0; i < s->npids; i++) {
		const struct tel_pid_io *x = &r->pid_io[i];

		snprintf(key, sizeof(key), "%ld", (long)s->pids[i]);
		json_object_set_new(cpu, key, secs_or_null(r->pid_cpu_s[i]));
		json_object_set_new(io, key, json_pack("[o, o, o]", secs_or_null(x->blkio_s), secs_or_null(x->psi_some_s),
						       secs_or_null(x->psi_full_s)));
	}
	json_object_set_new(o, "pid_cpu_s", cpu);
	json_object_set_new(o, "pid_io_s", io);
}

/* The VMs' counters, and the hypervisor hosts' node counters: CPU [user, system, idle, iowait] ns
 * and its CPUs, memory [total, available] KiB. */
static void guests_nodes_json(json_t *o, const struct tel_series *s, const struct tel_reading *r,
			      const char *const *guest_names, const char *const *node_names)
{
	if (s->nguests) {
		json_t *g = json_object();
		for (size_t i = 0; i < s->nguests; i++) {
			const struct sysstat_guest *x = &r->guests[i];
			const uint64_t v[] = {x->rd_reqs,  x->rd_bytes, x->rd_times_ns, x->wr_reqs, x->wr_bytes,
					      x->wr_times_ns, x->fl_reqs, x->fl_times_ns, x->cpu_ns, x->vcpus};
			json_object_set_new(g, guest_names[i], x->has_block || x->has_cpu ? u64s(v, 10) : json_null());
		}
		json_object_set_new(o, "guests", g);
	}
	if (s->nnodes) {
		json_t *g = json_object();
		for (size_t i = 0; i < s->nnodes; i++) {
			const struct sysstat_node *x = &r->nodes[i];
			const uint64_t c[] = {x->cpu.user, x->cpu.system, x->cpu.idle, x->cpu.iowait, x->cpu.ncpu};
			const uint64_t m[] = {x->mem_total_kib, x->mem_avail_kib};
			json_object_set_new(g, node_names[i], json_pack("{s:o, s:o}", "cpu", x->has_cpu ? u64s(c, 5) : json_null(),
									"mem_kib", x->has_mem ? u64s(m, 2) : json_null()));
		}
		json_object_set_new(o, "nodes", g);
	}
}

void tel_journal_write(FILE *f, const struct tel_series *s, size_t k, const char *const *guest_names,
		       const char *const *node_names)
{
	const struct tel_reading *r = &s->v[k];
	json_t *o = json_pack("{s:I}", "t_ns", (json_int_t)r->mono_ns);
	char *line;

	if (!f || !o)
		goto out;
	if (r->has_cpu) {
		const uint64_t cpu[] = {r->cpu.user, r->cpu.nice,    r->cpu.system,  r->cpu.idle,
					r->cpu.iowait, r->cpu.irq, r->cpu.softirq, r->cpu.steal};
		json_object_set_new(o, "cpu", u64s(cpu, sizeof(cpu) / sizeof(cpu[0])));
	}
	if (r->has_disks) {
		json_t *d = json_object();
		for (size_t i = 0; i < s->ndevs; i++) {
			const struct sysstat_disk *x = &r->disks[i];
			const uint64_t v[] = {x->rd_ios,  x->rd_sectors, x->rd_ticks,       x->wr_ios,
					      x->wr_sectors, x->wr_ticks, x->in_flight,    x->io_ticks,
					      x->time_in_queue, x->fl_ios, x->fl_ticks};
			json_object_set_new(d, s->devs[i].name, u64s(v, sizeof(v) / sizeof(v[0])));
		}
		json_object_set_new(o, "disks", d);
	}
	if (s->npids)
		pids_json(o, s, r);
	guests_nodes_json(o, s, r, guest_names, node_names);
	if ((line = json_dumps(o, JSON_COMPACT))) {
		fprintf(f, "%s\n", line);
		fflush(f);
		free(line);
	}
out:
	json_decref(o);
}
