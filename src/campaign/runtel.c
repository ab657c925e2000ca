#include "campaign/runtel.h"

#include "campaign/sampler.h"
#include "core/blockdev.h"
#include "core/driveid.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/sysstat.h"
#include "result/telemetry.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RT_MAX_IDS 4

/* What one instance of the run contributes to the series. */
struct rt_inst {
	struct target_instance *inst;
	const char *drive_path;
	char *stack;              /* blockdev_chain_describe, or NULL */
	size_t devs[BLOCKDEV_MAX_NODES];
	size_t ndevs;
	int server;               /* index into pids, -1 */
	int guest;                /* index into guests, -1 */
	int node;                 /* index into hosts, -1 */
	const char *node_name;
	bool node_here;
	char guest_disk[96];      /* "vm1:sdc" */
	/* The drive's leaf devices (the ones that do the I/O): identity and health before the run. */
	size_t nids;
	struct drive_id ids[RT_MAX_IDS];
	struct drive_health before[RT_MAX_IDS];
};

struct runtel {
	struct campaign_ctx *c;
	struct rt_inst *in;
	size_t n;
	struct blockdev devs[BLOCKDEV_MAX_NODES];
	size_t ndevs;
	pid_t *pids;
	size_t npids;
	struct target_instance **guests;
	size_t nguests;
	size_t *hosts; /* the target's hosts the run's instances are on (host_read's index) */
	const char **host_names;
	size_t nhosts;
	FILE *journal;
	struct sampler *sm;
};

static int read_guests(void *arg, struct sysstat_guest *out, size_t n)
{
	struct runtel *rt = arg;

	return rt->c->steps.tgt.ops->guest_read(&rt->c->steps.tgt, rt->guests, n, out);
}

static int read_node(void *arg, size_t i, struct sysstat_node *out)
{
	struct runtel *rt = arg;

	return rt->c->steps.tgt.ops->host_read(&rt->c->steps.tgt, rt->hosts[i], out);
}

/* The host's index among the run's hosts, added when new. */
static int host_index(struct runtel *rt, size_t host, const char *name)
{
	for (size_t i = 0; i < rt->nhosts; i++)
		if (rt->hosts[i] == host)
			return (int)i;
	rt->hosts[rt->nhosts] = host;
	rt->host_names[rt->nhosts] = name ? name : "?";
	return (int)rt->nhosts++;
}

/* The device's index in the run's list, added when new; -1 when the list is full. */
static int dev_index(struct runtel *rt, const struct blockdev *d)
{
	for (size_t i = 0; i < rt->ndevs; i++)
		if (rt->devs[i].major == d->major && rt->devs[i].minor == d->minor)
			return (int)i;
	if (rt->ndevs == BLOCKDEV_MAX_NODES)
		return -1;
	rt->devs[rt->ndevs] = *d;
	return (int)rt->ndevs++;
}

static json_t *u64s(const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

/* One journal line per reading: the raw counters (sampler thread). */
static void journal_reading(void *arg, const struct tel_series *s, size_t k)
{
	struct runtel *rt = arg;
	const struct tel_reading *r = &s->v[k];
	json_t *o = json_pack("{s:I}", "t_ns", (json_int_t)r->mono_ns);
	char *line;

	if (!rt->journal || !o)
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
	if (s->npids) {
		json_t *p = json_object();
		char key[24];
		for (size_t i = 0; i < s->npids; i++) {
			snprintf(key, sizeof(key), "%ld", (long)s->pids[i]);
			json_object_set_new(p, key, r->pid_cpu_s[i] < 0 ? json_null() : json_real(r->pid_cpu_s[i]));
		}
		json_object_set_new(o, "pid_cpu_s", p);
		/* Their waiting on block I/O: [delay accounting, I/O pressure some, full] seconds, null: not read. */
		p = json_object();
		for (size_t i = 0; i < s->npids; i++) {
			const struct tel_pid_io *io = &r->pid_io[i];
			snprintf(key, sizeof(key), "%ld", (long)s->pids[i]);
			json_object_set_new(p, key, json_pack("[o, o, o]", io->blkio_s < 0 ? json_null() : json_real(io->blkio_s),
							      io->psi_some_s < 0 ? json_null() : json_real(io->psi_some_s),
							      io->psi_full_s < 0 ? json_null() : json_real(io->psi_full_s)));
		}
		json_object_set_new(o, "pid_io_s", p);
	}
	if (s->nguests) {
		json_t *g = json_object();
		for (size_t i = 0; i < s->nguests; i++) {
			const struct sysstat_guest *x = &r->guests[i];
			const uint64_t v[] = {x->rd_reqs,  x->rd_bytes, x->rd_times_ns, x->wr_reqs, x->wr_bytes,
					      x->wr_times_ns, x->fl_reqs, x->fl_times_ns, x->cpu_ns, x->vcpus};
			json_object_set_new(g, rt->guests[i]->name, x->has_block || x->has_cpu ? u64s(v, 10) : json_null());
		}
		json_object_set_new(o, "guests", g);
	}
	/* The hypervisor hosts' node counters: CPU [user, system, idle, iowait] ns and its CPUs, memory [total, available] KiB. */
	if (s->nnodes) {
		json_t *g = json_object();
		for (size_t i = 0; i < s->nnodes; i++) {
			const struct sysstat_node *x = &r->nodes[i];
			const uint64_t c[] = {x->cpu.user, x->cpu.system, x->cpu.idle, x->cpu.iowait, x->cpu.ncpu};
			const uint64_t m[] = {x->mem_total_kib, x->mem_avail_kib};
			json_object_set_new(g, rt->host_names[i], json_pack("{s:o, s:o}", "cpu", x->has_cpu ? u64s(c, 5) : json_null(),
									    "mem_kib", x->has_mem ? u64s(m, 2) : json_null()));
		}
		json_object_set_new(o, "nodes", g);
	}
	if ((line = json_dumps(o, JSON_COMPACT))) {
		fprintf(rt->journal, "%s\n", line);
		fflush(rt->journal);
		free(line);
	}
out:
	json_decref(o);
}

static void rt_free(struct runtel *rt)
{
	if (!rt)
		return;
	for (size_t i = 0; i < rt->n; i++)
		free(rt->in[i].stack);
	free(rt->in);
	free(rt->pids);
	free(rt->guests);
	free(rt->hosts);
	free(rt->host_names);
	if (rt->journal)
		fclose(rt->journal);
	free(rt);
}

/* The drive folder's devices into the run's list; warned and left out when unresolvable. */
static void add_drive(struct runtel *rt, struct rt_inst *ri, const char *what)
{
	struct blockdev_chain ch = {0};
	struct blockdev sampled[BLOCKDEV_MAX_NODES];
	struct strbuf err;
	size_t n;

	strbuf_init(&err, 0);
	if (blockdev_resolve(ri->drive_path, &ch, &err) < 0) {
		log_warn("%s: no drive telemetry: %s", what, err.buf);
		goto out;
	}
	strbuf_reset(&err);
	blockdev_chain_describe(&ch, &err);
	ri->stack = strbuf_detach(&err);
	/* Each drive's identity and SMART health before the run (after it: runtel_finish). */
	for (size_t k = 0; k < ch.n && ri->nids < RT_MAX_IDS; k++)
		if (ch.v[k].leaf) {
			driveid_probe(ch.v[k].dev.name, &ri->ids[ri->nids], &ri->before[ri->nids]);
			ri->nids++;
		}
	n = blockdev_chain_sampled(&ch, sampled, BLOCKDEV_MAX_NODES);
	for (size_t k = 0; k < n; k++) {
		int idx = dev_index(rt, &sampled[k]);
		if (idx >= 0)
			ri->devs[ri->ndevs++] = (size_t)idx;
	}
out:
	blockdev_chain_release(&ch);
	strbuf_release(&err);
}

static void open_journal(struct runtel *rt, const struct plan_run *r)
{
	struct strbuf p;

	strbuf_init(&p, 0);
	const struct campaign_group *g = &rt->c->cfg->groups[r->group];

	/* An "each" group's drives share its folder: the drive names the file. */
	strbuf_addf(&p, "%s/%s/.telemetry-%s%srep%u.jsonl", rt->c->dir.buf, g->slug,
		    g->each ? rt->c->cfg->drives[g->place[0].drive].name : "", g->each ? "-" : "", r->rep);
	/* Appended to: a cut-off attempt's readings stay before the next attempt's. */
	/* Never through a planted link, never a FIFO (core/fileio.c). */
	int fd = open_for_write(p.buf, WRITE_APPEND, 0644);
	rt->journal = fd >= 0 ? fdopen(fd, "a") : NULL;
	if (fd >= 0 && !rt->journal)
		close(fd);
	if (!rt->journal)
		log_warn("cannot open the telemetry journal %s: %s; the results still get their telemetry", p.buf,
			 write_file_strerror(fd >= 0 ? -errno : fd));
	strbuf_release(&p);
}

struct runtel *runtel_start(struct campaign_ctx *c, const struct plan_run *r)
{
	const struct target_ops *ops = c->steps.tgt.ops;
	struct runtel *rt;
	int ret;

	if (!c->cfg->telemetry || !ops->telemetry)
		return NULL;
	rt = xcalloc(1, sizeof(*rt));
	rt->c = c;
	rt->n = r->ninsts;
	rt->in = xcalloc(r->ninsts, sizeof(*rt->in));
	rt->pids = xcalloc(r->ninsts, sizeof(pid_t));
	rt->guests = xcalloc(r->ninsts, sizeof(*rt->guests));
	rt->hosts = xcalloc(r->ninsts, sizeof(*rt->hosts));
	rt->host_names = xcalloc(r->ninsts, sizeof(*rt->host_names));
	for (size_t i = 0; i < r->ninsts; i++) {
		struct rt_inst *ri = &rt->in[i];
		struct target_telemetry tt;
		char what[160];

		ri->inst = &c->plan->insts[r->insts[i]];
		ri->server = ri->guest = ri->node = -1;
		snprintf(what, sizeof(what), "%s/%s", c->cfg->drives[ri->inst->drive].name, ri->inst->name);
		if ((ret = ops->telemetry(&c->steps.tgt, ri->inst, &tt)) < 0) {
			log_warn("%s: no telemetry for this run (%s)", what, strerror(-ret));
			continue;
		}
		ri->drive_path = tt.drive_path;
		if (tt.drive_path)
			add_drive(rt, ri, what);
		if (tt.server_pid > 0) {
			ri->server = (int)rt->npids;
			rt->pids[rt->npids++] = tt.server_pid;
		}
		if (tt.guest && ops->guest_read) {
			ri->guest = (int)rt->nguests;
			rt->guests[rt->nguests++] = ri->inst;
			snprintf(ri->guest_disk, sizeof(ri->guest_disk), "%s:%s", ri->inst->name,
				 tt.guest_disk ? tt.guest_disk : "disk");
		}
		if (tt.node && ops->host_read) {
			ri->node = host_index(rt, tt.host, tt.host_name);
			ri->node_name = tt.host_name;
			ri->node_here = tt.host_here;
		}
	}
	open_journal(rt, r);
	struct sampler_spec spec = {
		.interval_ns = c->cfg->report_interval_ns,
		.devs = rt->devs,
		.ndevs = rt->ndevs,
		.pids = rt->pids,
		.npids = rt->npids,
		.guests = {.n = rt->nguests, .arg = rt, .read = read_guests},
		.nodes = {.n = rt->nhosts, .arg = rt, .read = read_node},
		.on_reading = journal_reading,
		.arg = rt,
	};
	if ((ret = sampler_start(&rt->sm, &spec)) < 0) {
		log_warn("cannot start the sampler (%s); this run's results get no telemetry", strerror(-ret));
		rt_free(rt);
		return NULL;
	}
	return rt;
}

void runtel_abort(struct runtel *rt)
{
	if (!rt)
		return;
	sampler_stop(rt->sm, NULL);
	rt_free(rt);
}

/* The host, and the drives' identity and health before (runtel_start) and now, as the result's test_bed. */
static char *test_bed_json(const struct rt_inst *ri)
{
	json_t *arr, *bed;
	struct host_id host;
	char *text;

	hostid_read("/proc", &host);
	arr = json_array();
	for (size_t k = 0; k < ri->nids; k++) {
		struct drive_id now;
		struct drive_health after;

		driveid_probe(ri->ids[k].dev, &now, &after);
		json_array_append_new(arr, driveid_to_json(&ri->ids[k], &ri->before[k], &after));
	}
	bed = json_pack("{s:o, s:o}", "host", hostid_to_json(&host), "drives", arr);
	text = json_dumps(bed, JSON_COMPACT);
	json_decref(bed);
	return text;
}

int runtel_finish(struct runtel *rt, struct run_driver *dv, struct strbuf *msg)
{
	struct tel_series s;
	struct strbuf err;
	int ret = 0;

	if (!rt)
		return 0;
	sampler_stop(rt->sm, &s);
	strbuf_init(&err, 0);
	for (size_t i = 0; i < rt->n && ret == 0; i++) {
		const struct rt_inst *ri = &rt->in[i];
		unsigned vcpus = 0;
		char *bed = NULL;

		/* The VM's vCPUs as the last reading that had them says. */
		for (size_t k = s.n; ri->guest >= 0 && k-- > 0 && !vcpus;)
			vcpus = s.v[k].guests[ri->guest].vcpus;
		struct tel_instance ti = {
			.drive_path = ri->drive_path,
			.drive_stack = ri->stack,
			.devs = ri->devs,
			.ndevs = ri->ndevs,
			.driver_pid = -1, /* the result carries the driver's own CPU */
			.server_pid = ri->server,
			.guest = ri->guest,
			.guest_vcpus = vcpus,
			.guest_disk = ri->guest >= 0 ? ri->guest_disk : NULL,
			.has_node = ri->node >= 0,
			.node = ri->node >= 0 ? (size_t)ri->node : 0,
			.node_name = ri->node_name,
			.node_here = ri->node_here,
		};
		ti.test_bed = bed = test_bed_json(ri);
		strbuf_reset(&err);
		ret = tel_attach(run_driver_file(&dv[i], ".json"), &s, &ti, &err);
		free(bed);
		bed = NULL;
		if (ret < 0) {
			strbuf_reset(msg);
			strbuf_addf(msg, "cannot add the telemetry to the result: %s", err.buf);
			log_error("%s", msg->buf);
		}
	}
	strbuf_release(&err);
	tel_series_release(&s);
	rt_free(rt);
	return ret;
}
