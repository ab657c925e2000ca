#include "campaign/runtel.h"

#include "campaign/sampler.h"
#include "core/blockdev.h"
#include "core/driveid.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/sysstat.h"
#include "result/result.h"
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
	const char **guest_names; /* the guests' names, for the journal */
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

/* One journal line per reading: the raw counters (sampler thread). */
static void journal_reading(void *arg, const struct tel_series *s, size_t k)
{
	struct runtel *rt = arg;

	tel_journal_write(rt->journal, s, k, rt->guest_names, rt->host_names);
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
	free(rt->guest_names);
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
	struct strbuf p, err;

	strbuf_init(&p, 0);
	strbuf_init(&err, 0);
	const struct campaign_group *g = &rt->c->cfg->groups[r->group];

	/* An "each" group's drives share its folder: the drive names the file. */
	strbuf_addf(&p, "%s/%s/.telemetry-%s%srep%u.jsonl", rt->c->dir.buf, g->slug,
		    g->each ? rt->c->cfg->drives[g->place[0].drive].name : "", g->each ? "-" : "", r->rep);
	rt->journal = tel_journal_open(p.buf, &err);
	if (!rt->journal)
		log_warn("cannot open the telemetry journal %s; the results still get their telemetry", err.buf);
	strbuf_release(&err);
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
	rt->guest_names = xcalloc(r->ninsts, sizeof(*rt->guest_names));
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
			rt->guest_names[rt->nguests] = ri->inst->name;
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
	struct strbuf err, out;
	int ret = 0;

	if (!rt)
		return 0;
	sampler_stop(rt->sm, &s);
	strbuf_init(&err, 0);
	strbuf_init(&out, 0);
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
		strbuf_reset(&out);
		strbuf_adds(&out, run_driver_file(&dv[i], TEL_FILE_SUFFIX));
		ret = tel_write(run_driver_file(&dv[i], ".json"), out.buf, &s, &ti, &err);
		free(bed);
		bed = NULL;
		if (ret < 0) {
			strbuf_reset(msg);
			strbuf_addf(msg, "cannot write the run's telemetry: %s", err.buf);
			log_error("%s", msg->buf);
		}
	}
	strbuf_release(&err);
	strbuf_release(&out);
	tel_series_release(&s);
	rt_free(rt);
	return ret;
}
