/*
 * What the campaign's sampler reads through libvirt (target_ops telemetry,
 * guest_read, host_read), for a host on any machine:
 *   libvirt_telemetry   which figures an instance has: its VM's under-test disk
 *                       and vCPUs, its host's node statistics, and the drive's
 *                       block devices when the host is this machine
 *   libvirt_guest_read  the VM's disk (virDomainBlockStatsFlags, else
 *                       virDomainBlockStats) and vCPU time (virDomainGetInfo)
 *   libvirt_host_read   the host's CPU and memory (virNodeGetCPUStats,
 *                       virNodeGetMemoryStats, virNodeGetInfo's CPU count)
 * Each runs in the sampler's thread; what a driver does not give stays zeroed.
 */
#include "target/libvirt/libvirt.h"

#include "core/sysstat.h"

#include <errno.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdlib.h>
#include <string.h>

/* The under-test disk, as every template names it (vmxml.h: boot sda, prebuilt sdb, under-test sdc). */
#define LV_UNDERTEST_DEV "sdc"

/*
 * The sampler reads the VM's under-test disk and vCPUs (guest_read), and the
 * drive's block devices through the pool's folder when the host is this
 * machine (a URI without a host, localhost or 127.x, whatever the transport:
 * qemu:///system, test:///default, qemu+tcp://127.0.0.1/system).
 */
int libvirt_telemetry(struct target *t, struct target_instance *inst, struct target_telemetry *out)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	const struct lv_host *h = lv->drives[inst->drive].host;
	virDomainPtr dom;
	int ret;

	*out = (struct target_telemetry){.guest = true, .guest_disk = LV_UNDERTEST_DEV};
	if (h && h->uri && lv_uri_is_this_machine(h->uri))
		out->drive_path = t->env->drives[inst->drive].path;
	if (h) {
		out->node = true;
		out->host = (size_t)(h - lv->hosts);
		out->host_name = h->name;
		out->host_here = h->uri && lv_uri_is_this_machine(h->uri);
	}
	if ((ret = lv_get_dom(t, inst, &dom)) < 0)
		return ret;
	if (li->tel_dom)
		virDomainFree(li->tel_dom);
	li->tel_dom = dom;
	return 0;
}

uint64_t lv_block_stat(virTypedParameterPtr params, int n, const char *name)
{
	long long sv;
	unsigned long long uv;

	if (virTypedParamsGetLLong(params, n, name, &sv) == 1)
		return sv > 0 ? (uint64_t)sv : 0;
	if (virTypedParamsGetULLong(params, n, name, &uv) == 1)
		return (uint64_t)uv;
	return 0;
}

static void read_guest(virDomainPtr dom, struct sysstat_guest *g)
{
	virTypedParameterPtr params = NULL;
	int n = 0;
	virDomainInfo info;

	memset(g, 0, sizeof(*g));
	/* Requests, bytes and the time spent on them; the test driver has only BlockStats (no times). */
	if (virDomainBlockStatsFlags(dom, LV_UNDERTEST_DEV, NULL, &n, 0) == 0 && n > 0) {
		params = calloc((size_t)n, sizeof(*params));
		if (params && virDomainBlockStatsFlags(dom, LV_UNDERTEST_DEV, params, &n, 0) == 0) {
			g->has_block = true;
			g->rd_reqs = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_READ_REQ);
			g->rd_bytes = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_READ_BYTES);
			g->rd_times_ns = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_READ_TOTAL_TIMES);
			g->wr_reqs = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_WRITE_REQ);
			g->wr_bytes = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_WRITE_BYTES);
			g->wr_times_ns = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_WRITE_TOTAL_TIMES);
			g->fl_reqs = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_FLUSH_REQ);
			g->fl_times_ns = lv_block_stat(params, n, VIR_DOMAIN_BLOCK_STATS_FLUSH_TOTAL_TIMES);
		}
		virTypedParamsFree(params, n);
	} else {
		virDomainBlockStatsStruct st;
		if (virDomainBlockStats(dom, LV_UNDERTEST_DEV, &st, sizeof(st)) == 0) {
			g->has_block = true;
			g->rd_reqs = st.rd_req > 0 ? (uint64_t)st.rd_req : 0;
			g->rd_bytes = st.rd_bytes > 0 ? (uint64_t)st.rd_bytes : 0;
			g->wr_reqs = st.wr_req > 0 ? (uint64_t)st.wr_req : 0;
			g->wr_bytes = st.wr_bytes > 0 ? (uint64_t)st.wr_bytes : 0;
		}
	}
	/* The vCPUs' time, summed, in ns (virDomainGetInfo's cpuTime). */
	if (virDomainGetInfo(dom, &info) == 0 && info.nrVirtCpu > 0) {
		g->has_cpu = true;
		g->cpu_ns = info.cpuTime;
		g->vcpus = info.nrVirtCpu;
	}
	virResetLastError();
}

/* One counter of a node call's answer (virNodeCPUStats / virNodeMemoryStats), or 0. */
static unsigned long long node_field(const char *const *names, const unsigned long long *vals, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return vals[i];
	return 0;
}

/*
 * The host's CPU time over all its CPUs (virNodeGetCPUStats: user, kernel,
 * idle, iowait) and memory (virNodeGetMemoryStats: total, free, buffers,
 * cached), through its connection, for a host on any machine; what the host's
 * driver does not give stays zeroed (the test driver has no memory stats).
 */
int libvirt_host_read(struct target *t, size_t host, struct sysstat_node *out)
{
	struct lv *lv = t->priv;
	struct lv_host *h;
	int n = 0;

	memset(out, 0, sizeof(*out));
	if (host >= lv->nhosts || !(h = &lv->hosts[host])->conn)
		return -ENOENT;
	if (virNodeGetCPUStats(h->conn, VIR_NODE_CPU_STATS_ALL_CPUS, NULL, &n, 0) == 0 && n > 0 && n <= 16) {
		virNodeCPUStats st[16];
		const char *names[16];
		unsigned long long vals[16];
		if (virNodeGetCPUStats(h->conn, VIR_NODE_CPU_STATS_ALL_CPUS, st, &n, 0) == 0) {
			for (int i = 0; i < n; i++) {
				names[i] = st[i].field;
				vals[i] = st[i].value;
			}
			out->cpu.user = node_field(names, vals, n, VIR_NODE_CPU_STATS_USER);
			out->cpu.system = node_field(names, vals, n, VIR_NODE_CPU_STATS_KERNEL);
			out->cpu.idle = node_field(names, vals, n, VIR_NODE_CPU_STATS_IDLE);
			out->cpu.iowait = node_field(names, vals, n, VIR_NODE_CPU_STATS_IOWAIT);
			out->has_cpu = out->cpu.user + out->cpu.system + out->cpu.idle > 0;
		}
	}
	if (out->has_cpu) {
		if (!h->ncpus) {
			virNodeInfo ni;
			h->ncpus = virNodeGetInfo(h->conn, &ni) == 0 ? ni.cpus : 0;
		}
		out->cpu.ncpu = h->ncpus;
	}
	n = 0;
	if (virNodeGetMemoryStats(h->conn, VIR_NODE_MEMORY_STATS_ALL_CELLS, NULL, &n, 0) == 0 && n > 0 && n <= 16) {
		virNodeMemoryStats st[16];
		const char *names[16];
		unsigned long long vals[16];
		if (virNodeGetMemoryStats(h->conn, VIR_NODE_MEMORY_STATS_ALL_CELLS, st, &n, 0) == 0) {
			for (int i = 0; i < n; i++) {
				names[i] = st[i].field;
				vals[i] = st[i].value;
			}
			out->mem_total_kib = node_field(names, vals, n, VIR_NODE_MEMORY_STATS_TOTAL);
			out->mem_avail_kib = node_field(names, vals, n, VIR_NODE_MEMORY_STATS_FREE) +
					     node_field(names, vals, n, VIR_NODE_MEMORY_STATS_BUFFERS) +
					     node_field(names, vals, n, VIR_NODE_MEMORY_STATS_CACHED);
			out->has_mem = out->mem_total_kib > 0;
		}
	}
	virResetLastError();
	return 0;
}

int libvirt_guest_read(struct target *t, struct target_instance *const *insts, size_t n, struct sysstat_guest *out)
{
	(void)t;
	for (size_t i = 0; i < n; i++) {
		struct lv_inst *li = insts[i]->priv;
		if (li && li->tel_dom)
			read_guest(li->tel_dom, &out[i]);
		else
			memset(&out[i], 0, sizeof(out[i]));
	}
	return 0;
}
