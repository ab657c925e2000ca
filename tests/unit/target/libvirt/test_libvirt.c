/*
 * The libvirt target: provision / restore / teardown through the target ops
 * against libvirt's test driver: test:///default and two test:///<file>
 * connections standing for two hosts. The test reads the
 * results back through its own connection to test:///default (shared with the
 * backend's within this process).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <jansson.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/driver.h"
#include "campaign/plan.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/sysstat.h"
#include "target/target.h"
#include "target/libvirt/libvirt.h"
#include "target/libvirt/vmxml.h"

static const char *src_dir(void)
{
	return getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR;
}

/* ---- against the test driver ---- */

struct rig {
	struct campaign_config *cfg;
	struct plan *plan;
	struct target t;
	char file[256];
};

/* What write_config puts in .target besides `extra`: no seed and a given password, unless a test
 * sets ut_target_base (e.g. to exercise the generated password). */
#define UT_TARGET_BASE "\"cloud_init\": false, \"db_password\": \"unit-test-pw-1\", "
static const char *ut_target_base = UT_TARGET_BASE;
static const char *ut_name = "ut";
#define UT_HEAD "\"workload\": {\"kind\": \"sysbench\", \"test\": \"oltp_read_write\"},\n" \
		" \"engine\": {\"kind\": \"mariadb\", \"buffer_pool\": \"128M\"}"
static const char *ut_head = UT_HEAD;
static const char *ut_wait_database = "false";
static char ut_output_default[160]; /* main(): a folder of this process under /tmp */
static const char *ut_output = ut_output_default;

static void write_config(const char *file, const char *hosts, const char *drives, const char *placement,
			 const char *extra, const char *endpoint)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"%s\", %s,\n"
		" \"target\": {\"kind\": \"libvirt\", \"hosts\": %s, \"endpoint\": \"%s\", \"vcpus\": 2,\n"
		"   \"memory\": \"1G\", \"controller\": \"lsisas1078\", \"create_pools\": true, %s\n"
		"   \"wait_database\": %s, \"boot_size\": \"4G\", \"prebuilt_size\": \"2G\", \"under_test_size\": \"1G\",\n"
		"   \"templates\": \"%s/vm-templates\"%s},\n"
		" \"drives\": [%s],\n"
		" \"run_groups\": [{\"name\": \"g\", \"placement\": %s}],\n"
		" \"precondition\": 0, \"sample\": \"1s\"%s}\n",
		ut_name, ut_head, hosts, endpoint, ut_target_base, ut_wait_database, src_dir(), extra, drives, placement,
		ut_output);
	fclose(f);
}

static int rig_up(struct rig *r)
{
	int ret = campaign_config_load(r->file, &r->cfg);

	if (ret < 0)
		return ret;
	r->plan = plan_make(r->cfg);
	r->t.ops = r->cfg->target;
	r->t.env = &r->cfg->env;
	if ((ret = r->t.ops->init(&r->t)) < 0)
		return ret;
	return r->t.ops->preflight(&r->t, r->plan->insts, r->plan->ninsts);
}

static int provision(struct rig *r)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < r->plan->ninsts && ret == 0; i++)
		ret = r->t.ops->create(&r->t, &r->plan->insts[i]);
	if (ret < 0)
		assert_int_equal(r->t.ops->rollback(&r->t, r->plan->insts, i), 0);
	return ret;
}

static void rig_down(struct rig *r)
{
	for (size_t i = 0; r->plan && i < r->plan->ninsts; i++)
		r->t.ops->release(&r->t, &r->plan->insts[i]);
	if (r->t.priv)
		r->t.ops->cleanup(&r->t);
	plan_free(r->plan);
	campaign_config_free(r->cfg);
	unlink(r->file);
}

static int count_prefixed_domains(virConnectPtr c, const char *prefix)
{
	virDomainPtr *doms = NULL;
	int n = virConnectListAllDomains(c, &doms, 0), k = 0;

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		k += !strncmp(virDomainGetName(doms[i]), prefix, strlen(prefix));
		virDomainFree(doms[i]);
	}
	free(doms);
	return k;
}

static int count_prefixed_pools(virConnectPtr c, const char *prefix)
{
	virStoragePoolPtr *pools = NULL;
	int n = virConnectListAllStoragePools(c, &pools, 0), k = 0;

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		k += !strncmp(virStoragePoolGetName(pools[i]), prefix, strlen(prefix));
		virStoragePoolFree(pools[i]);
	}
	free(pools);
	return k;
}

static void check_domain(virConnectPtr c, const char *drive, const char *vm, unsigned index, bool nic)
{
	char name[128], needle[256], mac[18];
	virDomainPtr d;
	char *xml, *p;

	snprintf(name, sizeof(name), "dbrig-ut-%s-%s", drive, vm);
	d = virDomainLookupByName(c, name);
	assert_non_null(d);
	xml = virDomainGetXMLDesc(d, 0);
	assert_non_null(xml);
	assert_non_null(strstr(xml, "<vcpu placement='static'>2</vcpu>"));
	assert_non_null(strstr(xml, "<memory unit='KiB'>1048576</memory>"));
	assert_non_null(strstr(xml, "model='lsisas1078'"));
	assert_non_null(strstr(xml, "<acpi/>"));
	assert_non_null(strstr(xml, "org.qemu.guest_agent.0"));
	vm_mac("ut", index, mac);
	snprintf(needle, sizeof(needle), "<mac address='%s'/>", mac);
	/* (the test driver drops the SLIRP NIC of <qemu:commandline>) */
	assert_true(!nic || strstr(xml, needle));
	snprintf(needle, sizeof(needle), "<dbrig:campaign>ut</dbrig:campaign>");
	assert_non_null(strstr(xml, needle));
	snprintf(needle, sizeof(needle), "<dbrig:drive>%s</dbrig:drive>", drive);
	assert_non_null(strstr(xml, needle));
	/* The three disks in order, all in the drive's pool. */
	p = xml;
	static const char *const role[] = {"boot.qcow2", "prebuilt.img", "undertest.img"};
	for (int k = 0; k < 3; k++) {
		snprintf(needle, sizeof(needle), "<source pool='dbrig-ut-%s' volume='%s-%s'/>", drive, name, role[k]);
		p = strstr(p, needle);
		assert_non_null(p);
	}
	free(xml);
	virDomainFree(d);
}

/* The bytes libvirt allocated to a volume (virStorageVolGetInfo). */
static unsigned long long vol_allocation(virConnectPtr c, const char *pool, const char *vol)
{
	virStoragePoolPtr p = virStoragePoolLookupByName(c, pool);
	virStorageVolPtr v;
	virStorageVolInfo info;

	assert_non_null(p);
	v = virStorageVolLookupByName(p, vol);
	assert_non_null(v);
	assert_int_equal(virStorageVolGetInfo(v, &info), 0);
	virStorageVolFree(v);
	virStoragePoolFree(p);
	return info.allocation;
}

static void vol_exists(virConnectPtr c, const char *pool, const char *vol, bool want)
{
	virStoragePoolPtr p = virStoragePoolLookupByName(c, pool);
	virStorageVolPtr v;

	if (!p) {
		assert_false(want);
		return;
	}
	v = virStorageVolLookupByName(p, vol);
	assert_int_equal(v != NULL, want);
	if (v)
		virStorageVolFree(v);
	virStoragePoolFree(p);
}

/*
 * What the campaign's sampler reads of a running VM: its under-test disk's
 * block counters (the test driver has virDomainBlockStats only: requests and
 * bytes) and its vCPU time, the VM's 2 vCPUs; the drive's path on this machine
 * (test:///default has no host name). A stopped VM answers no block stats.
 */
static void check_telemetry(struct rig *r, struct target_instance *in)
{
	struct target_telemetry tt;
	struct sysstat_guest g[2];
	struct target_instance *one[1] = {in};

	assert_int_equal(r->t.ops->telemetry(&r->t, in, &tt), 0);
	assert_true(tt.guest);
	assert_string_equal(tt.guest_disk, "sdc");
	assert_string_equal(tt.drive_path, r->cfg->drives[in->drive].path);
	assert_int_equal(tt.server_pid, 0);
	/* Its host through libvirt's node calls (issue 25 item 2): the test driver's CPUs (16; host2.xml's
	 * 8) and fixed counters, no memory statistics (it has no virNodeGetMemoryStats); no host beyond
	 * the config's. */
	struct sysstat_node nd;
	assert_true(tt.node);
	assert_true(tt.host_here);
	assert_non_null(tt.host_name);
	assert_int_equal(r->t.ops->host_read(&r->t, tt.host, &nd), 0);
	assert_true(nd.has_cpu);
	assert_int_equal(nd.cpu.ncpu, strcmp(tt.host_name, "h2") ? 16 : 8);
	assert_true(nd.cpu.user > 0 && nd.cpu.idle > 0);
	assert_false(nd.has_mem);
	assert_int_equal(r->t.ops->host_read(&r->t, 99, &nd), -ENOENT);
	assert_int_equal(r->t.ops->guest_read(&r->t, one, 1, &g[0]), 0);
	usleep(2000);
	assert_int_equal(r->t.ops->guest_read(&r->t, one, 1, &g[1]), 0);
	for (int k = 0; k < 2; k++) {
		assert_true(g[k].has_block);
		assert_true(g[k].has_cpu);
		assert_int_equal(g[k].vcpus, 2);
	}
	assert_true(g[0].rd_reqs + g[0].wr_reqs + g[0].rd_bytes + g[0].wr_bytes > 0);
	assert_true(g[1].cpu_ns >= g[0].cpu_ns && g[1].cpu_ns > 0);
	assert_true(g[1].rd_reqs >= g[0].rd_reqs && g[1].wr_bytes >= g[0].wr_bytes);
}

static void check_stopped_telemetry(struct rig *r, struct target_instance *in)
{
	struct sysstat_guest g;
	struct target_instance *one[1] = {in};

	assert_int_equal(r->t.ops->guest_read(&r->t, one, 1, &g), 0);
	assert_false(g.has_block);
}

/* The under-test volume of an instance is deleted, as if a run had ruined it,
 * through `c` (the test's own connection to test:///default, which the backend
 * shares; NULL for test:///<file> hosts, whose state is per connection): the
 * restore must create it again from the pre-built one, so status sees it. */
static void ruin_undertest(virConnectPtr c, struct rig *r, const struct target_instance *in)
{
	char pool[128], vol[192];
	virStoragePoolPtr p;
	virStorageVolPtr v;

	if (!c)
		return;
	snprintf(pool, sizeof(pool), "dbrig-ut-%s", r->cfg->drives[in->drive].name);
	snprintf(vol, sizeof(vol), "%s-%s-undertest.img", pool, in->name);
	p = virStoragePoolLookupByName(c, pool);
	assert_non_null(p);
	v = virStorageVolLookupByName(p, vol);
	assert_non_null(v);
	assert_int_equal(virStorageVolDelete(v, 0), 0);
	virStorageVolFree(v);
	vol_exists(c, pool, vol, false);
	virStoragePoolFree(p);
}

static void restore_cycle(struct rig *r, bool forward, virConnectPtr c)
{
	struct strbuf line;

	strbuf_init(&line, 0);
	for (size_t i = 0; i < r->plan->ninsts; i++) {
		struct target_instance *in = &r->plan->insts[i];
		struct target_endpoint ep;
		assert_int_equal(r->t.ops->stop(&r->t, in), 0);
		ruin_undertest(c, r, in);
		assert_int_equal(r->t.ops->restore(&r->t, in), 0);
		assert_int_equal(r->t.ops->start(&r->t, in), 0);
		assert_int_equal(r->t.ops->endpoint(&r->t, in, &ep), 0);
		if (forward) {
			assert_string_equal(ep.host, "127.0.0.1");
			assert_int_equal(ep.port, 33400 + in->index);
		} else {
			/* the test driver's made-up lease; never contacted (wait_database false) */
			assert_non_null(ep.host);
			assert_int_equal(ep.port, 3306);
		}
		strbuf_reset(&line);
		assert_int_equal(r->t.ops->status(&r->t, in, &line), 0);
		assert_non_null(strstr(line.buf, "running; volumes boot ok prebuilt ok undertest ok"));
		check_telemetry(r, in);
		assert_int_equal(r->t.ops->stop(&r->t, in), 0);
		check_stopped_telemetry(r, in);
	}
	strbuf_release(&line);
}

static void teardown_all(struct rig *r)
{
	for (size_t i = 0; i < r->plan->ninsts; i++)
		assert_true(r->t.ops->destroy(&r->t, &r->plan->insts[i]) >= 0);
}

static void test_provision_4vm(void **state)
{
	struct rig r = {0};
	virConnectPtr c = virConnectOpen("test:///default");

	(void)state;
	assert_non_null(c);
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 4}",
		     ", \"iotune\": {\"da\": \"total_iops_sec=500\"}", "guest");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), 0);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 4);
	for (unsigned k = 0; k < 4; k++) {
		char vm[8];
		snprintf(vm, sizeof(vm), "vm%u", k + 1);
		check_domain(c, "da", vm, k, true);
	}
	vol_exists(c, "dbrig-ut-da", "dbrig-ut-da-vm4-undertest.img", true);
	/* "allocation": "full" (the default): pre-built and under-test preallocated, the boot overlay sparse. */
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm4-undertest.img"), 1ULL << 30);
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm4-prebuilt.img"), 2ULL << 30);
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm4-boot.qcow2"), 0);
	/* Provisioning again reuses what this campaign made. */
	assert_int_equal(provision(&r), 0);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 4);
	restore_cycle(&r, false, c);
	/* The restore's clone is preallocated too. */
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm1-undertest.img"), 1ULL << 30);
	teardown_all(&r);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	assert_int_equal(count_prefixed_pools(c, "dbrig-"), 0);
	/* The test driver's own objects are untouched. */
	assert_int_equal(count_prefixed_domains(c, "test"), 1);
	assert_int_equal(count_prefixed_pools(c, "default-pool"), 1);
	rig_down(&r);
	assert_int_equal(virConnectClose(c), 0);
}

/* "allocation": "sparse": the volumes are made with <allocation> 0, restored ones too. */
static void test_allocation_sparse(void **state)
{
	struct rig r = {0};
	virConnectPtr c = virConnectOpen("test:///default");

	(void)state;
	assert_non_null(c);
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
		     ", \"allocation\": \"sparse\"", "guest");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), 0);
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm1-undertest.img"), 0);
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm1-prebuilt.img"), 0);
	assert_int_equal(r.t.ops->restore(&r.t, &r.plan->insts[0]), 0);
	assert_int_equal(vol_allocation(c, "dbrig-ut-da", "dbrig-ut-da-vm1-undertest.img"), 0);
	teardown_all(&r);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	rig_down(&r);
	assert_int_equal(virConnectClose(c), 0);
}

/* A run group on each drive in turn ("each"): every drive gets its own VMs, provisioned and restored alike. */
static void test_provision_each(void **state)
{
	struct rig r = {0};
	virConnectPtr c = virConnectOpen("test:///default");

	(void)state;
	assert_non_null(c);
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}",
		     "{\"name\": \"da\", \"path\": \"/srv/da\"}, {\"name\": \"db\", \"path\": \"/srv/db\"}",
		     "{\"each\": [\"da\", \"db\"], \"vms\": 2}", "", "guest");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(r.cfg->ngroups, 2);
	assert_int_equal(r.plan->nruns, 2);
	assert_int_equal(r.plan->runs[1].ninsts, 2);
	assert_int_equal(provision(&r), 0);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 4);
	check_domain(c, "da", "vm2", 1, true);
	check_domain(c, "db", "vm2", 3, true);
	restore_cycle(&r, false, c);
	teardown_all(&r);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	rig_down(&r);
	assert_int_equal(virConnectClose(c), 0);
}

static void test_provision_8vm_8drives(void **state)
{
	struct rig r = {0};
	struct strbuf drives, place;
	virConnectPtr c = virConnectOpen("test:///default");

	(void)state;
	assert_non_null(c);
	strbuf_init(&drives, 0);
	strbuf_init(&place, 0);
	strbuf_addc(&place, '{');
	for (int d = 0; d < 8; d++) {
		strbuf_addf(&drives, "%s{\"name\": \"d%d\", \"path\": \"/srv/d%d\"}", d ? ", " : "", d, d);
		strbuf_addf(&place, "%s\"d%d\": 1", d ? ", " : "", d);
	}
	strbuf_addc(&place, '}');
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt8-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", drives.buf, place.buf, "", "forward");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), 0);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 8);
	assert_int_equal(count_prefixed_pools(c, "dbrig-ut-"), 8);
	for (int d = 0; d < 8; d++) {
		char dn[8];
		snprintf(dn, sizeof(dn), "d%d", d);
		check_domain(c, dn, "vm1", (unsigned)d, false);
	}
	restore_cycle(&r, true, c);
	teardown_all(&r);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	assert_int_equal(count_prefixed_pools(c, "dbrig-"), 0);
	rig_down(&r);
	strbuf_release(&drives);
	strbuf_release(&place);
	assert_int_equal(virConnectClose(c), 0);
}

static void test_collision_rolls_back(void **state)
{
	struct rig r = {0};
	virConnectPtr c = virConnectOpen("test:///default");
	virDomainPtr foreign;
	const char *xml = "<domain type='test'><name>dbrig-ut-da-vm3</name><memory>1048576</memory>"
			  "<os><type>hvm</type></os></domain>";

	(void)state;
	assert_non_null(c);
	foreign = virDomainDefineXML(c, xml);
	assert_non_null(foreign);
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirtc-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 4}",
		     "", "forward");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), -EEXIST);
	/* vm1 and vm2 (and their volumes, and the pool) are gone; the foreign domain stays. */
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 1);
	assert_int_equal(count_prefixed_pools(c, "dbrig-ut-"), 0);
	virDomainPtr still = virDomainLookupByName(c, "dbrig-ut-da-vm3");
	assert_non_null(still);
	virDomainFree(still);
	/* teardown leaves it alone too */
	teardown_all(&r);
	still = virDomainLookupByName(c, "dbrig-ut-da-vm3");
	assert_non_null(still);
	virDomainFree(still);
	rig_down(&r);
	assert_int_equal(virDomainUndefine(foreign), 0);
	virDomainFree(foreign);
	assert_int_equal(virConnectClose(c), 0);
}

static void test_two_hosts(void **state)
{
	struct rig r = {0};
	struct strbuf hosts, line;

	(void)state;
	strbuf_init(&hosts, 0);
	strbuf_init(&line, 0);
	strbuf_addf(&hosts, "{\"h1\": \"test://%s/tests/fixtures/libvirt/host1.xml\", "
			    "\"h2\": \"test://%s/tests/fixtures/libvirt/host2.xml\"}", src_dir(), src_dir());
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirth-%d.json", (int)getpid());
	write_config(r.file, hosts.buf,
		     "{\"name\": \"da\", \"path\": \"/srv/da\", \"host\": \"h1\"}, "
		     "{\"name\": \"db\", \"path\": \"/srv/db\", \"host\": \"h2\"}",
		     "{\"da\": 2, \"db\": 2}", "", "forward");
	/* One golden load for drives on two hosts loads (db receives it by stream: test_stream_golden). */
	assert_int_equal(campaign_config_load(r.file, &r.cfg), 0);
	assert_int_equal(r.cfg->env.golden_source, 0);
	campaign_config_free(r.cfg);
	r.cfg = NULL;
	static char per_drive[240];
	snprintf(per_drive, sizeof(per_drive), ", \"golden\": \"per-drive\"%s", ut_output_default);
	ut_output = per_drive;
	write_config(r.file, hosts.buf,
		     "{\"name\": \"da\", \"path\": \"/srv/da\", \"host\": \"h1\"}, "
		     "{\"name\": \"db\", \"path\": \"/srv/db\", \"host\": \"h2\"}",
		     "{\"da\": 2, \"db\": 2}", "", "forward");
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), 0);
	for (size_t i = 0; i < r.plan->ninsts; i++) {
		strbuf_reset(&line);
		assert_int_equal(r.t.ops->status(&r.t, &r.plan->insts[i], &line), 1);
		assert_non_null(strstr(line.buf, r.plan->insts[i].drive == 0 ? "host h1" : "host h2"));
		assert_non_null(strstr(line.buf, "shut off; volumes boot ok prebuilt ok undertest ok"));
	}
	restore_cycle(&r, true, NULL); /* test:///<file> hosts: not shared with this process's connections */
	teardown_all(&r);
	for (size_t i = 0; i < r.plan->ninsts; i++) {
		strbuf_reset(&line);
		assert_int_equal(r.t.ops->status(&r.t, &r.plan->insts[i], &line), 1);
		assert_non_null(strstr(line.buf, "absent"));
	}
	rig_down(&r);
	strbuf_release(&hosts);
	strbuf_release(&line);
}

/* cmocka teardown: what a test may have changed of write_config's defaults, even when it failed. */
static int reset_config(void **state)
{
	(void)state;
	ut_target_base = UT_TARGET_BASE;
	ut_output = ut_output_default;
	ut_name = "ut";
	ut_head = UT_HEAD;
	ut_wait_database = "false";
	return 0;
}

static void define_pool_with(virConnectPtr c, const char *pool, const char *const *vols)
{
	char xml[512];
	virStoragePoolPtr p;

	snprintf(xml, sizeof(xml), "<pool type='dir'><name>%s</name><target><path>/%s</path></target></pool>", pool, pool);
	p = virStoragePoolDefineXML(c, xml, 0);
	assert_non_null(p);
	assert_int_equal(virStoragePoolBuild(p, 0), 0);
	assert_int_equal(virStoragePoolCreate(p, 0), 0);
	for (; *vols; vols++) {
		virStorageVolPtr v;
		snprintf(xml, sizeof(xml), "<volume><name>%s</name><capacity unit='G'>1</capacity>"
			 "<target><format type='raw'/></target></volume>", *vols);
		v = virStorageVolCreateXML(p, xml, 0);
		assert_non_null(v);
		virStorageVolFree(v);
	}
	virStoragePoolFree(p);
}

static void undefine_pool(virConnectPtr c, const char *pool)
{
	virStoragePoolPtr p = virStoragePoolLookupByName(c, pool);
	virStorageVolPtr *vols = NULL;
	int n;

	assert_non_null(p);
	n = virStoragePoolListAllVolumes(p, &vols, 0);
	for (int i = 0; i < n; i++) {
		assert_int_equal(virStorageVolDelete(vols[i], 0), 0);
		virStorageVolFree(vols[i]);
	}
	free(vols);
	assert_int_equal(virStoragePoolDestroy(p), 0);
	assert_int_equal(virStoragePoolUndefine(p), 0);
	virStoragePoolFree(p);
}

/*
 * security-review finding 2, the review's repro on the test driver: pool "lab"
 * holds volumes of campaign "a-b", drive "c"; campaign "a" with drive "b-c"
 * maps to the same names (dbrig-a-b-c-vm1-*). teardown deleted them by name
 * (no domain at all), restore deleted the under-test before any check, and
 * provision adopted them. Now a volume is this campaign's only as a disk of
 * a domain carrying its identity: teardown and restore leave them alone
 * (saying so), provision refuses.
 */
static void test_foreign_volumes_kept(void **state)
{
	static const char *const vols[] = {"dbrig-a-b-c-vm1-prebuilt.img", "dbrig-a-b-c-vm1-undertest.img", NULL};
	struct rig r = {0};
	virConnectPtr c = virConnectOpen("test:///default");
	struct strbuf line;

	(void)state;
	assert_non_null(c);
	strbuf_init(&line, 0);
	define_pool_with(c, "lab", vols);
	ut_name = "a";
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-collide-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"b-c\", \"pool\": \"lab\"}", "{\"b-c\": 1}", "",
		     "forward");
	reset_config(NULL);
	assert_int_equal(rig_up(&r), 0);
	teardown_all(&r);
	vol_exists(c, "lab", vols[0], true);
	vol_exists(c, "lab", vols[1], true);
	assert_true(r.t.ops->restore(&r.t, &r.plan->insts[0]) < 0);
	vol_exists(c, "lab", vols[1], true);
	assert_int_equal(r.t.ops->status(&r.t, &r.plan->insts[0], &line), 1);
	assert_non_null(strstr(line.buf, "absent"));
	assert_int_equal(provision(&r), -EEXIST);
	vol_exists(c, "lab", vols[0], true);
	vol_exists(c, "lab", vols[1], true);
	vol_exists(c, "lab", "dbrig-a-b-c-vm1-boot.qcow2", false);
	assert_int_equal(count_prefixed_domains(c, "dbrig-a-"), 0);
	rig_down(&r);
	undefine_pool(c, "lab");
	strbuf_release(&line);
	assert_int_equal(virConnectClose(c), 0);
}

/*
 * security-review finding 2: two campaigns of the same name (the shipped configs,
 * two users, two output folders) share every name and every field of the
 * metadata but the identity. The second never touches the first's domains or
 * volumes: status says whose they are not, teardown keeps them (naming each),
 * restore and provision refuse.
 */
static void test_same_name_other_identity(void **state)
{
	struct rig a = {0}, b = {0};
	virConnectPtr c = virConnectOpen("test:///default");
	char out[2][256], rm[300];
	struct strbuf line;

	(void)state;
	assert_non_null(c);
	strbuf_init(&line, 0);
	for (int k = 0; k < 2; k++) {
		struct rig *r = k ? &b : &a;
		snprintf(out[k], sizeof(out[k]), ", \"output\": \"/tmp/dbrig-ut-libvirt-id%d-%d\"", k, (int)getpid());
		ut_output = out[k];
		snprintf(r->file, sizeof(r->file), "/tmp/dbrig-ut-libvirt-id%d-%d.json", k, (int)getpid());
		write_config(r->file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 2}", "", "forward");
		reset_config(NULL);
		if (k == 0) {
			assert_int_equal(rig_up(r), 0);
			assert_int_equal(provision(r), 0);
		}
	}
	assert_int_equal(rig_up(&b), 0);
	assert_int_equal(b.t.ops->status(&b.t, &b.plan->insts[0], &line), 1);
	assert_non_null(strstr(line.buf, "exists but is NOT this campaign's (this campaign has no identity yet"));
	teardown_all(&b);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-da-"), 2);
	vol_exists(c, "dbrig-ut-da", "dbrig-ut-da-vm1-undertest.img", true);
	vol_exists(c, "dbrig-ut-da", "dbrig-ut-da-vm2-boot.qcow2", true);
	assert_true(b.t.ops->restore(&b.t, &b.plan->insts[0]) < 0);
	vol_exists(c, "dbrig-ut-da", "dbrig-ut-da-vm1-undertest.img", true);
	/* b's provision makes b an identity of its own: the domains still carry a's. */
	assert_int_equal(provision(&b), -EEXIST);
	strbuf_reset(&line);
	assert_int_equal(b.t.ops->status(&b.t, &b.plan->insts[1], &line), 1);
	assert_non_null(strstr(line.buf, "exists but is NOT this campaign's (its metadata carries another campaign identity"));
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-da-"), 2);
	/* a's own commands still work, and its teardown removes everything. */
	restore_cycle(&a, true, c);
	teardown_all(&a);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	assert_int_equal(count_prefixed_pools(c, "dbrig-ut-"), 0);
	rig_down(&a);
	rig_down(&b);
	for (int k = 0; k < 2; k++) {
		snprintf(rm, sizeof(rm), "rm -rf /tmp/dbrig-ut-libvirt-id%d-%d", k, (int)getpid());
		assert_int_equal(system(rm), 0);
	}
	strbuf_release(&line);
	assert_int_equal(virConnectClose(c), 0);
}

/*
 * security-review N2: `campaign --fresh` moved <output>/<campaign>/ aside with
 * the identity and password files in it, so the kept VMs were no longer the
 * campaign's and a second password was generated. Both now live beside the
 * results folder (<output>/.<campaign>.libvirt/), which --fresh never moves;
 * an identity cached by preflight is written again when its file is gone; and
 * no password is generated while a domain of the campaign exists.
 */
static void test_fresh_keeps_state(void **state)
{
	struct rig a = {0}, b = {0}, p = {0};
	virConnectPtr c = virConnectOpen("test:///default");
	char dir[96], out[256], path[512], moved[512];
	const char *pw = NULL;
	struct strbuf line;
	struct stat st;

	(void)state;
	assert_non_null(c);
	strbuf_init(&line, 0);
	snprintf(dir, sizeof(dir), "/tmp/dbrig-ut-libvirt-fr-%d", (int)getpid());
	snprintf(out, sizeof(out), ", \"output\": \"%s\"", dir);
	ut_output = out;
	snprintf(a.file, sizeof(a.file), "/tmp/dbrig-ut-libvirt-fr-%d.json", (int)getpid());
	write_config(a.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
		     "{\"da\": 1}", "", "forward");
	assert_int_equal(rig_up(&a), 0);
	assert_int_equal(provision(&a), 0);
	snprintf(path, sizeof(path), "%s/.ut.libvirt/.libvirt-identity", dir);
	assert_int_equal(stat(path, &st), 0);
	snprintf(moved, sizeof(moved), "%s/ut/.libvirt-identity", dir);
	assert_int_equal(stat(moved, &st), -1);
	/* What --fresh does: the results folder moves aside, a new one is made. */
	snprintf(moved, sizeof(moved), "mkdir -p %s/ut && mv %s/ut %s/ut.20261201T000000Z && mkdir %s/ut", dir, dir,
		 dir, dir);
	assert_int_equal(system(moved), 0);
	memcpy(b.file, a.file, sizeof(a.file));
	assert_int_equal(rig_up(&b), 0);
	assert_true(b.t.ops->status(&b.t, &b.plan->insts[0], &line) >= 0);
	assert_null(strstr(line.buf, "NOT this campaign's"));
	/* The identity cached by preflight, its file gone: the next provision writes it again. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(provision(&b), 0);
	assert_int_equal(stat(path, &st), 0);
	/* No credentials file while the campaign's domain exists: no second password. */
	ut_target_base = "\"cloud_init\": true, ";
	memcpy(p.file, a.file, sizeof(a.file));
	write_config(p.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
		     "{\"da\": 1}", "", "forward");
	ut_target_base = UT_TARGET_BASE;
	assert_int_equal(rig_up(&p), 0);
	assert_int_equal(lv_db_password(&p.t, true, &pw), -EEXIST);
	snprintf(path, sizeof(path), "%s/.ut.libvirt/.libvirt-credentials", dir);
	assert_int_equal(stat(path, &st), -1);
	rig_down(&p);
	teardown_all(&b);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	rig_down(&a);
	rig_down(&b);
	ut_output = ut_output_default;
	snprintf(moved, sizeof(moved), "rm -rf %s", dir);
	assert_int_equal(system(moved), 0);
	unlink(a.file);
	strbuf_release(&line);
	assert_int_equal(virConnectClose(c), 0);
}

static void read_password(const char *dir, char *out, size_t n)
{
	char path[512], *text = NULL;
	struct stat st;

	snprintf(path, sizeof(path), "%s/.ut.libvirt/.libvirt-credentials", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(read_file(path, &text, NULL), 0);
	text[strcspn(text, "\n")] = '\0';
	snprintf(out, n, "%s", text);
	free(text);
}

/*
 * security-review finding 12: no default guest password (it was "dbrig" for every
 * campaign, granted to '%'). Unset, the first provision generates one for the
 * campaign (24 letters and digits, every kind) and keeps it 0600 beside the
 * results; the drivers get it from there, another campaign gets another one,
 * and a configured password wins. (The seed upload is not supported by the test
 * driver: provision stops there and rolls back, after the password exists.)
 */
static void test_generated_password(void **state)
{
	char dir[2][64], pw[2][64], out[256];
	struct target_endpoint ep;

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct rig r = {0};
		snprintf(dir[k], sizeof(dir[k]), "/tmp/dbrig-ut-libvirt-pw%d-%d", k, (int)getpid());
		snprintf(out, sizeof(out), ", \"output\": \"%s\"", dir[k]);
		ut_target_base = "\"cloud_init\": true, ";
		ut_output = out;
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirtpw-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", "", "forward");
		assert_int_equal(rig_up(&r), 0);
		/* No password yet: the drivers have none to use. */
		assert_int_equal(r.t.ops->endpoint(&r.t, &r.plan->insts[0], &ep), -ENOENT);
		/* A provision that fails and rolls back removes the identity and password it made (N11). */
		(void)provision(&r);
		{
			char p2[512];
			struct stat st;
			snprintf(p2, sizeof(p2), "%s/.ut.libvirt/.libvirt-credentials", dir[k]);
			assert_int_equal(stat(p2, &st), -1);
			snprintf(p2, sizeof(p2), "%s/.ut.libvirt/.libvirt-identity", dir[k]);
			assert_int_equal(stat(p2, &st), -1);
		}
		/* What provision does first: generate and store it. */
		{
			const char *gen = NULL;
			assert_int_equal(lv_db_password(&r.t, true, &gen), 0);
		}
		read_password(dir[k], pw[k], sizeof(pw[k]));
		assert_int_equal(strlen(pw[k]), 24);
		assert_int_equal(strspn(pw[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"), 24);
		assert_non_null(strpbrk(pw[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
		assert_non_null(strpbrk(pw[k], "abcdefghijklmnopqrstuvwxyz"));
		assert_non_null(strpbrk(pw[k], "0123456789"));
		assert_int_equal(r.t.ops->endpoint(&r.t, &r.plan->insts[0], &ep), 0);
		assert_string_equal(ep.password, pw[k]);
		rig_down(&r);
		/* A later provision keeps the campaign's password, also when it fails: it did not make it. */
		memset(&r, 0, sizeof(r));
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirtpw-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", "", "forward");
		assert_int_equal(rig_up(&r), 0);
		(void)provision(&r);
		read_password(dir[k], out, sizeof(out));
		assert_string_equal(out, pw[k]);
		rig_down(&r);
	}
	assert_string_not_equal(pw[0], pw[1]);
	/* A configured password wins and no file is written for it. */
	{
		struct rig r = {0};
		char path[256];
		snprintf(out, sizeof(out), ", \"output\": \"%s/other\"", dir[0]);
		ut_target_base = "\"cloud_init\": true, \"db_password\": \"configured-pw-1\", ";
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirtpw-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", "", "forward");
		assert_int_equal(rig_up(&r), 0);
		(void)provision(&r);
		assert_int_equal(r.t.ops->endpoint(&r.t, &r.plan->insts[0], &ep), 0);
		assert_string_equal(ep.password, "configured-pw-1");
		snprintf(path, sizeof(path), "%s/other/.ut.libvirt/.libvirt-credentials", dir[0]);
		assert_int_equal(access(path, F_OK), -1);
		rig_down(&r);
	}
	for (int k = 0; k < 2; k++) {
		snprintf(out, sizeof(out), "rm -rf %s", dir[k]);
		assert_int_equal(system(out), 0);
	}
}

static char ut_odbc_dir[96];
/* ODBCSYSINI: an odbcinst.ini with "ODBC Driver 18 for SQL Server" and "FreeTDS" (or neither). */
static void ut_odbc_register(bool with)
{
	char path[160];
	FILE *f;

	mkdir(ut_odbc_dir, 0700);
	snprintf(path, sizeof(path), "%s/odbcinst.ini", ut_odbc_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[%s]\nDriver=/nonexistent/libdbrig-ut-driver.so\n", with ? "ODBC Driver 18 for SQL Server" : "Other");
	if (with)
		fprintf(f, "[FreeTDS]\nDriver=/nonexistent/libdbrig-ut-tdsodbc.so\n");
	assert_int_equal(fclose(f), 0);
	setenv("ODBCSYSINI", ut_odbc_dir, 1);
}

/* A SQL Server campaign whose ODBC driver is not registered on this host is
 * refused at preflight, before any VM exists. */
static void test_sqlserver_driver_missing(void **state)
{
	struct rig r = {0};

	(void)state;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-drv-%d.json", (int)getpid());
	for (int with = 0; with < 2; with++) {
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true",
			     "forward");
		ut_odbc_register(with);
		assert_int_equal(rig_up(&r), with ? 0 : -ENOENT);
		rig_down(&r);
	}
	/* .target.odbc_driver: the chosen driver is the one asked for */
	for (int known = 0; known < 2; known++) {
		char extra[200];
		snprintf(extra, sizeof(extra),
			 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"odbc_driver\": \"%s\"",
			 known ? "FreeTDS" : "FreeTDS 1.4");
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", extra, "forward");
		assert_int_equal(rig_up(&r), known ? 0 : -ENOENT);
		rig_down(&r);
	}
	/* and a MySQL-family engine has no ODBC driver to choose (refused at load) */
	ut_head = UT_HEAD;
	r = (struct rig){0};
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-drv-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
		     "{\"da\": 1}", ", \"odbc_driver\": \"FreeTDS\"", "forward");
	assert_int_equal(rig_up(&r), -EINVAL);
	unlink(r.file);
}

/* .target.db_port defaults to the engine's port: SQL Server's 1433 (the
 * guest setup and the drivers used 3306 for every engine), the MySQL family's
 * 3306; a configured port wins. */
static void test_db_port_default(void **state)
{
	static const struct {
		const char *engine, *extra;
		unsigned want;
	} cases[] = {
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true", 1433},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"db_port\": 1500", 1500},
		{"\"mariadb\"", "", 3306},
		{"\"mariadb\"", ", \"db_port\": 3307", 3307},
	};
	char head[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rig r = {0};
		snprintf(head, sizeof(head),
			 "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n \"engine\": {\"kind\": %s}",
			 cases[i].engine);
		ut_head = head;
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-port-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", cases[i].extra, "forward");
		assert_int_equal(rig_up(&r), 0);
		if (lv_db_port(&r.cfg->env) != cases[i].want)
			fail_msg("%s%s: db_port %u, expected %u", cases[i].engine, cases[i].extra, lv_db_port(&r.cfg->env),
				 cases[i].want);
		rig_down(&r);
	}
	ut_head = UT_HEAD;
}

/*
 * security-review finding 22, its SQL Server item: the drivers' connection string
 * had Encrypt=yes;TrustServerCertificate=yes hard-coded, so no server certificate
 * was ever checked and ODBC_PWD went to whoever answered. Now both appear only as
 * the target's settings say; unset, the ODBC driver's own defaults (Driver 18:
 * encrypted and verified).
 */
static void test_sqlserver_connection(void **state)
{
	static const struct {
		const char *extra, *want; /* want NULL: refused at load */
		const char *server;       /* the string's driver and server part */
	} cases[] = {
		{"", NULL, NULL}, /* the certificate check left to the driver's default: refused */
		{", \"sqlserver_encrypt\": \"strict\"", NULL, NULL},
		{", \"sqlserver_encrypt\": \"strict\", \"sqlserver_trust_server_certificate\": false",
		 ";UID=dbrig;Encrypt=strict;TrustServerCertificate=no", NULL},
		{", \"sqlserver_encrypt\": \"yes\", \"sqlserver_trust_server_certificate\": true",
		 ";UID=dbrig;Encrypt=yes;TrustServerCertificate=yes", NULL},
		{", \"sqlserver_trust_server_certificate\": false", ";UID=dbrig;TrustServerCertificate=no", NULL},
		{", \"sqlserver_encrypt\": \"maybe\"", NULL, NULL},
		/* the default driver: msodbcsql's form */
		{", \"sqlserver_trust_server_certificate\": true", ";UID=dbrig;TrustServerCertificate=yes",
		 "--odbc-connect=Driver={ODBC Driver 18 for SQL Server};Server=tcp:127.0.0.1,"},
		/* FreeTDS: its form, its Encryption keyword, no TrustServerCertificate */
		{", \"odbc_driver\": \"FreeTDS\", \"sqlserver_trust_server_certificate\": true, \"sqlserver_encrypt\": \"yes\"",
		 ";UID=dbrig;Encryption=require", "--odbc-connect=Driver={FreeTDS};Server=127.0.0.1;Port="},
		{", \"odbc_driver\": \"FreeTDS\", \"sqlserver_trust_server_certificate\": true, \"sqlserver_encrypt\": \"no\"",
		 ";TDS_Version=7.4;Database=tpcc;UID=dbrig;Encryption=off", "--odbc-connect=Driver={FreeTDS};Server=127.0.0.1;Port="},
		{", \"odbc_driver\": \"FreeTDS\", \"sqlserver_trust_server_certificate\": true", ";TDS_Version=7.4;Database=tpcc;UID=dbrig",
		 "--odbc-connect=Driver={FreeTDS};Server=127.0.0.1;Port="},
		/* FreeTDS cannot do strict (no TDS 8.0) nor verify a certificate from the string */
		{", \"odbc_driver\": \"FreeTDS\", \"sqlserver_trust_server_certificate\": true, \"sqlserver_encrypt\": \"strict\"",
		 NULL, NULL},
		{", \"odbc_driver\": \"FreeTDS\", \"sqlserver_trust_server_certificate\": false", NULL, NULL},
		{", \"odbc_driver\": \"Free;TDS\", \"sqlserver_trust_server_certificate\": true", NULL, NULL},
	};

	(void)state;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rig r = {0};
		struct target_endpoint ep;
		struct driver_cmd dc;
		char extra[256];
		const char *conn = NULL;
		int ret;

		snprintf(extra, sizeof(extra), ", \"template\": \"sqlserver\"%s", cases[i].extra);
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-mssql-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
			     extra, "forward");
		ret = rig_up(&r);
		if (!cases[i].want) {
			assert_int_equal(ret, -EINVAL);
			rig_down(&r);
			continue;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(r.t.ops->endpoint(&r.t, &r.plan->insts[0], &ep), 0);
		driver_cmd_init(&dc);
		driver_cmd_check(&dc, r.cfg, "dbrig", &ep);
		for (size_t k = 0; dc.argv[k]; k++)
			if (!strncmp(dc.argv[k], "--odbc-connect=", 15))
				conn = dc.argv[k];
		assert_non_null(conn);
		if (strlen(conn) < strlen(cases[i].want) || strcmp(conn + strlen(conn) - strlen(cases[i].want), cases[i].want))
			fail_msg("%s: got %s, expected it to end in %s", cases[i].extra, conn, cases[i].want);
		if (cases[i].server && strncmp(conn, cases[i].server, strlen(cases[i].server)))
			fail_msg("%s: got %s, expected it to begin with %s", cases[i].extra, conn, cases[i].server);
		driver_cmd_release(&dc);
		rig_down(&r);
	}
}

/*
 * Issue 23 B7: SQL Server's packages are in Microsoft's repository only. With
 * .target.guest_apt_key the user-data adds its apt sources, each with the key read
 * from that file, and the EULA answers of msodbcsql18 and mssql-tools18; without it,
 * no apt block (the image must carry the repository). The key must be an ASCII-armored
 * public key: provision refuses anything else, a dry run shows a placeholder. The
 * setting is refused where nothing would use it.
 */
static void ut_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void test_guest_apt_key(void **state)
{
	static const char key_text[] = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBFYxWIwBCADAKoZhZlJxGNGWzqV+1OG1\n"
				       "-----END PGP PUBLIC KEY BLOCK-----\n";
	static const struct {
		const char *engine, *extra;
		int load;
	} refused[] = {
		{"\"mariadb\"", ", \"guest_apt_key\": \"%s\"", -EINVAL}, /* no vendor source for it */
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"guest_packages\": "
		 "\"preinstalled\", \"guest_apt_key\": \"%s\"", -EINVAL},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"guest_apt_key\": "
		 "\"relative/microsoft.asc\"", -EINVAL},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"guest_apt_key\": \"%s\"", 0},
	};
	char key[96], bad[96], head[256], extra[512];
	const char *const seed_base = "\"cloud_init\": true, \"db_password\": \"configured-pw-1\", ";

	(void)state;
	snprintf(key, sizeof(key), "/tmp/dbrig-ut-aptkey-%d.asc", (int)getpid());
	snprintf(bad, sizeof(bad), "/tmp/dbrig-ut-aptkey-%d.gpg", (int)getpid());
	ut_write(key, key_text);
	ut_write(bad, "<!DOCTYPE html><title>404 Not Found</title>\n"); /* what curl keeps of an error page */
	ut_target_base = seed_base;
	ut_odbc_register(true);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct rig r = {0};
		snprintf(head, sizeof(head),
			 "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n \"engine\": {\"kind\": %s}",
			 refused[i].engine);
		ut_head = head;
		snprintf(extra, sizeof(extra), refused[i].extra, key);
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-aptkey-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", extra, "forward");
		if (rig_up(&r) != refused[i].load)
			fail_msg("%s%s: load/preflight did not return %d", refused[i].engine, extra, refused[i].load);
		rig_down(&r);
	}
	/* The user-data: with the key, without it, with a key file that is not one. */
	for (int k = 0; k < 3; k++) {
		struct rig r = {0};
		struct strbuf ud, md;
		const char *path = k == 0 ? key : bad;
		ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
			  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
		snprintf(extra, sizeof(extra), ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true%s%s%s",
			 k == 1 ? "" : ", \"guest_apt_key\": \"", k == 1 ? "" : path, k == 1 ? "" : "\"");
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-aptkey-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", extra, "forward");
		assert_int_equal(rig_up(&r), 0);
		strbuf_init(&ud, 0);
		strbuf_init(&md, 0);
		if (k == 2) {
			assert_int_equal(lv_render_seed(&r.t, &r.plan->insts[0], false, &ud, &md), -EINVAL);
			assert_int_equal(lv_render_seed(&r.t, &r.plan->insts[0], true, &ud, &md), 0);
			assert_non_null(strstr(ud.buf, "(the key in .target.guest_apt_key, unreadable on this machine)"));
		} else {
			json_t *doc, *apt, *src;
			assert_int_equal(lv_render_seed(&r.t, &r.plan->insts[0], false, &ud, &md), 0);
			assert_non_null(doc = json_loads(strchr(ud.buf, '\n') + 1, 0, NULL));
			apt = json_object_get(doc, "apt");
			if (k == 1) {
				assert_null(apt);
			} else {
				const char *name;
				json_t *v;
				size_t n = 0;
				src = json_object_get(apt, "sources");
				json_object_foreach(src, name, v) {
					assert_string_equal(json_string_value(json_object_get(v, "key")), key_text);
					assert_non_null(strstr(json_string_value(json_object_get(v, "source")),
							       "[arch=amd64 signed-by=$KEY_FILE] https://packages.microsoft.com/ubuntu/22.04/"));
					n++;
				}
				assert_int_equal(n, 2);
				assert_non_null(strstr(json_string_value(json_object_get(json_object_get(apt, "debconf_selections"), "dbrig")),
						       "msodbcsql18 msodbcsql/ACCEPT_EULA boolean true\n"
						       "mssql-tools18 mssql-tools/accept_eula boolean true\n"));
			}
			assert_non_null(json_object_get(doc, "packages"));
			json_decref(doc);
		}
		strbuf_release(&ud);
		strbuf_release(&md);
		rig_down(&r);
	}
	unlink(key);
	unlink(bad);
	ut_head = UT_HEAD;
	ut_target_base = UT_TARGET_BASE;
}

/*
 * Issue 23 item 5: SQL Server's data and log files pre-sized and its recovery model
 * (default simple) reach the guest setup's parameters; refused for another engine,
 * outside the three models, below 8 MB, and when both files would not fit on the
 * under-test volume (1G here).
 */
static void test_sqlserver_files(void **state)
{
	static const struct {
		const char *engine, *extra, *want; /* want NULL: refused at load */
	} cases[] = {
		{"\"sqlserver\", \"buffer_pool\": \"128M\"", "", "\nrecovery=SIMPLE\n"},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"",
		 ", \"sqlserver_data_size\": \"600M\", \"sqlserver_log_size\": \"100M\", \"sqlserver_recovery\": \"full\"",
		 "\ndata_size_mb=600\nlog_size_mb=100\nrecovery=FULL\n"},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"", ", \"sqlserver_recovery\": \"bulk_logged\"", "\nrecovery=BULK_LOGGED\n"},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"", ", \"sqlserver_recovery\": \"eventual\"", NULL},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"", ", \"sqlserver_data_size\": \"1M\"", NULL},
		{"\"sqlserver\", \"buffer_pool\": \"128M\"", ", \"sqlserver_data_size\": \"900M\", \"sqlserver_log_size\": \"124M\"", NULL},
		{"\"mariadb\"", ", \"sqlserver_recovery\": \"simple\"", NULL},
		{"\"mariadb\"", ", \"sqlserver_log_size\": \"64M\"", NULL},
	};
	char head[256], extra[512];

	(void)state;
	ut_target_base = "\"cloud_init\": true, \"db_password\": \"configured-pw-1\", ";
	ut_odbc_register(true);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rig r = {0};
		struct strbuf ud, md;
		bool mssql = !strncmp(cases[i].engine, "\"sqlserver\"", 11);
		int ret;
		snprintf(head, sizeof(head),
			 "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n \"engine\": {\"kind\": %s}",
			 cases[i].engine);
		ut_head = head;
		snprintf(extra, sizeof(extra), "%s%s", mssql ? ", \"template\": \"sqlserver\", "
			 "\"sqlserver_trust_server_certificate\": true" : "", cases[i].extra);
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-files-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", extra, "forward");
		ret = rig_up(&r);
		if (!cases[i].want) {
			if (ret != -EINVAL)
				fail_msg("%s%s: not refused (%d)", cases[i].engine, cases[i].extra, ret);
			rig_down(&r);
			continue;
		}
		assert_int_equal(ret, 0);
		strbuf_init(&ud, 0);
		strbuf_init(&md, 0);
		assert_int_equal(lv_render_seed(&r.t, &r.plan->insts[0], true, &ud, &md), 0);
		{
			json_t *doc = json_loads(strchr(ud.buf, '\n') + 1, 0, NULL), *f;
			const char *conf = NULL;
			size_t k;
			assert_non_null(doc);
			json_array_foreach(json_object_get(doc, "write_files"), k, f)
				if (!strcmp(json_string_value(json_object_get(f, "path")), "/etc/dbrig/setup.conf"))
					conf = json_string_value(json_object_get(f, "content"));
			assert_non_null(conf);
			if (!strstr(conf, cases[i].want))
				fail_msg("%s: the seed's setup.conf has no %s: %s", cases[i].extra, cases[i].want, conf);
			if (!strstr(cases[i].want, "_size_mb") && strstr(conf, "_size_mb="))
				fail_msg("%s: files sized though no size was set: %s", cases[i].extra, conf);
			json_decref(doc);
		}
		strbuf_release(&ud);
		strbuf_release(&md);
		rig_down(&r);
	}
	/* No seed (a Windows image): nothing would carry them to the guest. */
	ut_target_base = UT_TARGET_BASE;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	for (size_t i = 0; i < 2; i++) {
		struct rig r = {0};
		snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-files-%d.json", (int)getpid());
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
			     i ? ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, "
				 "\"sqlserver_data_size\": \"64M\""
			       : ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true", "forward");
		if (rig_up(&r) != (i ? -EINVAL : 0))
			fail_msg("cloud_init false%s: not %s", i ? " with sqlserver_data_size" : "", i ? "refused" : "loaded");
		rig_down(&r);
	}
	ut_head = UT_HEAD;
}

/*
 * Issue 23 B4: .target.db_password_file, the password of a Windows image (no seed) kept
 * out of the campaign file: its one line, from a file only its owner can read; refused
 * beside db_password, as a relative path, group-readable, or holding no password.
 */
/* rig_down, and the rig ready for the next config (its file name kept). */
static void pwfile_down(struct rig *r)
{
	char file[sizeof(r->file)];

	memcpy(file, r->file, sizeof(file));
	rig_down(r);
	memset(r, 0, sizeof(*r));
	memcpy(r->file, file, sizeof(file));
}

static void test_db_password_file(void **state)
{
	char pwf[96], extra[256];
	const char *pw;
	struct rig r = {0};
	static const struct {
		const char *text;
		mode_t mode;
		int want;
	} files[] = {
		{"windows-pw-123\n", 0600, 0},
		{"windows-pw-456", 0400, 0},
		{"windows-pw-123\n", 0640, -EINVAL},
		{"short\n", 0600, -EINVAL},
		{"windows-pw-123\nsecond line\n", 0600, -EINVAL},
	};

	(void)state;
	snprintf(pwf, sizeof(pwf), "/tmp/dbrig-ut-pwfile-%d", (int)getpid());
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-pwfile-%d.json", (int)getpid());
	/* No seed: one of the two is needed; both, or a relative path, are refused. */
	ut_target_base = "\"cloud_init\": false, ";
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
		     "", "forward");
	assert_int_equal(rig_up(&r), -EINVAL);
	pwfile_down(&r);
	snprintf(extra, sizeof(extra), ", \"db_password_file\": \"%s\", \"db_password\": \"configured-pw-1\"", pwf);
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
		     extra, "forward");
	assert_int_equal(rig_up(&r), -EINVAL);
	pwfile_down(&r);
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}",
		     ", \"db_password_file\": \"etc/pw\"", "forward");
	assert_int_equal(rig_up(&r), -EINVAL);
	pwfile_down(&r);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		unlink(pwf);
		ut_write(pwf, files[i].text);
		assert_int_equal(chmod(pwf, files[i].mode), 0);
		snprintf(extra, sizeof(extra), ", \"db_password_file\": \"%s\"", pwf);
		write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}",
			     "{\"da\": 1}", extra, "forward");
		assert_int_equal(rig_up(&r), 0);
		pw = NULL;
		if (lv_db_password(&r.t, false, &pw) != files[i].want)
			fail_msg("%s (mode %o): lv_db_password did not return %d", files[i].text, (unsigned)files[i].mode,
				 files[i].want);
		if (!files[i].want)
			assert_string_equal(pw, i == 0 ? "windows-pw-123" : "windows-pw-456");
		pwfile_down(&r);
	}
	unlink(pwf);
	ut_target_base = UT_TARGET_BASE;
}

/*
 * The campaign's loader as the libvirt target uses it (issue 11 item 3): the golden copy is
 * loaded on the drive's first VM and fingerprinted there, the fingerprint goes into the
 * domain's metadata (a second build_golden reuses it without loading), verify() asks the
 * loader for a restored VM's fingerprint over its endpoint, and readiness is the loader's
 * login probe: a VM whose driver's user cannot log in yet is not ready, and one that never
 * can times out naming why. TPC-C on a SQL Server guest: no MySQL greeting to probe first.
 */
struct stub {
	struct target_loader l;
	unsigned loads, fingerprints, readies, ready_after; /* ready_after: -EAGAIN that many times first */
	unsigned tamper_port; /* the fingerprint read on this port differs */
	char last_db[32];
	unsigned last_port;
};

static void stub_identity(void *arg, struct strbuf *out)
{
	(void)arg;
	strbuf_adds(out, "tpcc warehouses=1");
}

static int stub_load(void *arg, const char *what, const struct target_endpoint *ep, const char *log)
{
	struct stub *s = arg;

	(void)what;
	(void)log;
	s->loads++;
	snprintf(s->last_db, sizeof(s->last_db), "%s", ep->database);
	return 0;
}

static int stub_fingerprint(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
			    struct strbuf *fp)
{
	struct stub *s = arg;

	(void)what;
	(void)log;
	s->fingerprints++;
	s->last_port = ep->port;
	strbuf_adds(fp, ep->port == s->tamper_port ? "rows: warehouse=1 district=9" : "rows: warehouse=1 district=10 <&>");
	return 0;
}

static int stub_ready(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
		      struct strbuf *why)
{
	struct stub *s = arg;

	(void)what;
	(void)ep;
	(void)log;
	if (s->readies++ < s->ready_after) {
		strbuf_adds(why, "user dbrig cannot log into database tpcc yet: Login failed");
		return -EAGAIN;
	}
	return 0;
}

static void test_golden_verify_ready(void **state)
{
	struct stub s = {.l = {.identity = stub_identity, .load = stub_load, .fingerprint = stub_fingerprint,
			       .ready = stub_ready},
			 .ready_after = 1};
	struct rig r = {0};
	struct strbuf fp;

	(void)state;
	s.l.arg = &s;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	ut_wait_database = "true";
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-golden-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}", "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 2}",
		     ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"ready_timeout\": \"2s\"",
		     "forward");
	assert_int_equal(campaign_config_load(r.file, &r.cfg), 0);
	r.cfg->env.loader = &s.l;
	r.plan = plan_make(r.cfg);
	r.t.ops = r.cfg->target;
	r.t.env = &r.cfg->env;
	assert_int_equal(r.t.ops->init(&r.t), 0);
	assert_int_equal(r.t.ops->preflight(&r.t, r.plan->insts, r.plan->ninsts), 0);
	assert_int_equal(provision(&r), 0);
	strbuf_init(&fp, 0);
	assert_int_equal(r.t.ops->build_golden(&r.t, 0, &fp), 0);
	assert_string_equal(fp.buf, "rows: warehouse=1 district=10 <&>");
	assert_int_equal(s.loads, 1);
	assert_string_equal(s.last_db, "tpcc");
	/* ready only at the second login probe (no greeting probe for SQL Server) */
	assert_int_equal(s.readies, 2);
	/* complete: the recorded fingerprint (XML entities decoded), nothing loaded again (1: reused) */
	strbuf_reset(&fp);
	assert_int_equal(r.t.ops->build_golden(&r.t, 0, &fp), 1);
	assert_string_equal(fp.buf, "rows: warehouse=1 district=10 <&>");
	assert_int_equal(s.loads, 1);
	/* verify: the restored vm2's fingerprint over vm2's own endpoint */
	struct target_instance *vm2 = &r.plan->insts[1];
	assert_int_equal(r.t.ops->restore(&r.t, vm2), 0);
	assert_int_equal(r.t.ops->start(&r.t, vm2), 0);
	strbuf_reset(&fp);
	s.fingerprints = 0;
	assert_int_equal(r.t.ops->verify(&r.t, vm2, &fp), 0);
	assert_int_equal(s.fingerprints, 1);
	assert_int_equal(s.last_port, 33400 + vm2->index);
	assert_string_equal(fp.buf, "rows: warehouse=1 district=10 <&>");
	assert_int_equal(r.t.ops->stop(&r.t, vm2), 0);
	/* a login that never works: not ready within ready_timeout */
	s.readies = 0;
	s.ready_after = 1000000;
	assert_int_equal(r.t.ops->start(&r.t, vm2), -ETIMEDOUT);
	assert_true(s.readies >= 2);
	assert_int_equal(r.t.ops->stop(&r.t, vm2), 0);
	teardown_all(&r);
	strbuf_release(&fp);
	rig_down(&r);
}

/*
 * Issue 11 item 4, same bytes on every drive: drive da's golden copy is loaded once and
 * cloned (virStorageVolCreateXMLFrom from da's pool into db's) into db's pre-built volumes
 * and its first VM's under-test disk, which boots for the fingerprint; db is not loaded.
 * The clone is recorded complete only with the source's fingerprint: a tampered one is
 * cloned again next time. test:///default looks the source volume of
 * virStorageVolCreateXMLFrom up in the destination pool (libvirt's storage driver looks in
 * the source volume's own pool, storageVolCreateXMLFrom): db's pool gets a same-named
 * stand-in; the QEMU end-to-end test clones across the real pools.
 */
static void test_clone_golden(void **state)
{
	struct stub s = {.l = {.identity = stub_identity, .load = stub_load, .fingerprint = stub_fingerprint,
			       .ready = stub_ready}};
	struct rig r = {0};
	struct strbuf fp, cl;
	const char *how = NULL;

	(void)state;
	s.l.arg = &s;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	ut_wait_database = "true";
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-clone-%d.json", (int)getpid());
	write_config(r.file, "{\"h\": \"test:///default\"}",
		     "{\"name\": \"da\", \"path\": \"/srv/da\"}, {\"name\": \"db\", \"path\": \"/srv/db\"}",
		     "{\"da\": 2, \"db\": 2}",
		     ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"ready_timeout\": \"2s\"",
		     "forward");
	assert_int_equal(campaign_config_load(r.file, &r.cfg), 0);
	assert_int_equal(r.cfg->env.golden_source, 0);
	r.cfg->env.loader = &s.l;
	r.plan = plan_make(r.cfg);
	r.t.ops = r.cfg->target;
	r.t.env = &r.cfg->env;
	assert_int_equal(r.t.ops->init(&r.t), 0);
	assert_int_equal(r.t.ops->preflight(&r.t, r.plan->insts, r.plan->ninsts), 0);
	assert_int_equal(provision(&r), 0);
	virStoragePoolPtr dbp = virStoragePoolLookupByName(lv_conn(&r.t, 1), "dbrig-ut-db");
	assert_non_null(dbp);
	virStorageVolPtr standin = virStorageVolCreateXML(dbp, "<volume><name>dbrig-ut-da-vm1-prebuilt.img</name>"
							       "<capacity unit='G'>1</capacity></volume>", 0);
	assert_non_null(standin);
	strbuf_init(&fp, 0);
	strbuf_init(&cl, 0);
	assert_int_equal(r.t.ops->build_golden(&r.t, 0, &fp), 0);
	assert_int_equal(s.loads, 1);
	/* db's vm1 (instance index 2) reads a different fingerprint: not recorded as complete */
	struct target_instance *db1 = &r.plan->insts[2];
	assert_int_equal(db1->drive, 1);
	s.tamper_port = 33400 + db1->index;
	s.fingerprints = 0;
	assert_int_equal(r.t.ops->clone_golden(&r.t, 0, 1, fp.buf, &cl, &how), 0);
	assert_string_equal(cl.buf, "rows: warehouse=1 district=9");
	assert_string_equal(how, "volume clone");
	assert_int_equal(s.fingerprints, 1);
	assert_int_equal(s.last_port, 33400 + db1->index);
	/* cloned again (not "already complete"), now the same bytes: recorded, and kept the next time */
	s.tamper_port = 0;
	strbuf_reset(&cl);
	assert_int_equal(r.t.ops->clone_golden(&r.t, 0, 1, fp.buf, &cl, &how), 0);
	assert_string_equal(how, "volume clone");
	assert_string_equal(cl.buf, fp.buf);
	strbuf_reset(&cl);
	assert_int_equal(r.t.ops->clone_golden(&r.t, 0, 1, fp.buf, &cl, &how), 0);
	assert_string_equal(how, "already complete");
	assert_string_equal(cl.buf, fp.buf);
	assert_int_equal(s.loads, 1);
	/* db's vm2 restores from its pre-built volume, the clone */
	struct target_instance *db2 = &r.plan->insts[3];
	assert_int_equal(r.t.ops->restore(&r.t, db2), 0);
	vol_exists(lv_conn(&r.t, 1), "dbrig-ut-db", "dbrig-ut-db-vm2-prebuilt.img", true);
	assert_int_equal(virStorageVolDelete(standin, 0), 0);
	virStorageVolFree(standin);
	virStoragePoolFree(dbp);
	teardown_all(&r);
	strbuf_release(&fp);
	strbuf_release(&cl);
	rig_down(&r);
}

/*
 * Issue 25 item 1: one golden load for drives on two hosts. db (host h2) receives da's (h1)
 * golden copy by stream (virStorageVolDownload on h1, virStorageVolUpload on h2) into its
 * first VM's pre-built volume. libvirt's test driver has no virStorageVolDownload, so this
 * stream breaks at its start, as a broken link would break it later: the clone fails, the
 * volume made to receive it is removed again (nothing partial is left), nothing is marked
 * complete (a second try streams again, never "already complete"), and no VM was booted
 * for a fingerprint. The stream itself is test_stream.c's (a break half-way included); the
 * QEMU end-to-end test streams for real over qemu+tcp.
 */
static void test_stream_golden(void **state)
{
	struct stub s = {.l = {.identity = stub_identity, .load = stub_load, .fingerprint = stub_fingerprint,
			       .ready = stub_ready}};
	struct rig r = {0};
	struct strbuf fp, cl, hosts;
	const char *how = NULL;

	(void)state;
	s.l.arg = &s;
	ut_head = "\"workload\": {\"kind\": \"tpcc\", \"options\": {\"warehouses\": 1}},\n"
		  " \"engine\": {\"kind\": \"sqlserver\", \"buffer_pool\": \"128M\"}";
	ut_wait_database = "true";
	strbuf_init(&hosts, 0);
	strbuf_addf(&hosts, "{\"h1\": \"test://%s/tests/fixtures/libvirt/host1.xml\", "
			    "\"h2\": \"test://%s/tests/fixtures/libvirt/host2.xml\"}", src_dir(), src_dir());
	snprintf(r.file, sizeof(r.file), "/tmp/dbrig-ut-libvirt-stream-%d.json", (int)getpid());
	write_config(r.file, hosts.buf,
		     "{\"name\": \"da\", \"path\": \"/srv/da\", \"host\": \"h1\"}, "
		     "{\"name\": \"db\", \"path\": \"/srv/db\", \"host\": \"h2\"}",
		     "{\"da\": 1, \"db\": 2}",
		     ", \"template\": \"sqlserver\", \"sqlserver_trust_server_certificate\": true, \"ready_timeout\": \"2s\"",
		     "forward");
	assert_int_equal(campaign_config_load(r.file, &r.cfg), 0);
	assert_int_equal(r.cfg->env.golden_source, 0);
	r.cfg->env.loader = &s.l;
	r.plan = plan_make(r.cfg);
	r.t.ops = r.cfg->target;
	r.t.env = &r.cfg->env;
	assert_int_equal(r.t.ops->init(&r.t), 0);
	assert_int_equal(r.t.ops->preflight(&r.t, r.plan->insts, r.plan->ninsts), 0);
	assert_int_equal(provision(&r), 0);
	strbuf_init(&fp, 0);
	strbuf_init(&cl, 0);
	assert_int_equal(r.t.ops->build_golden(&r.t, 0, &fp), 0);
	assert_int_equal(s.loads, 1);
	vol_exists(lv_conn(&r.t, 1), "dbrig-ut-db", "dbrig-ut-db-vm1-prebuilt.img", true);
	s.fingerprints = 0;
	for (int k = 0; k < 2; k++) {
		strbuf_reset(&cl);
		assert_int_equal(r.t.ops->clone_golden(&r.t, 0, 1, fp.buf, &cl, &how), -EIO);
		assert_string_equal(how, "stream from another host");
		vol_exists(lv_conn(&r.t, 1), "dbrig-ut-db", "dbrig-ut-db-vm1-prebuilt.img", false);
		/* db's vm2 got nothing: the clones on h2 come from the streamed volume, after it */
		vol_exists(lv_conn(&r.t, 1), "dbrig-ut-db", "dbrig-ut-db-vm2-prebuilt.img", true);
		assert_int_equal(s.fingerprints, 0);
		assert_int_equal(s.loads, 1);
	}
	teardown_all(&r);
	strbuf_release(&fp);
	strbuf_release(&cl);
	strbuf_release(&hosts);
	rig_down(&r);
}

/*
 * security-review finding 21: host URIs are limited to transports that run no
 * program the URI names; the ext transport and command= / netcat= need
 * "allow_ext_transport": true. (The refusals' messages are checked one by one
 * in tests/bad-input/campaign-libvirt-uri-ext and -ssh-command.)
 */
/*
 * The VM disk's block stats as QEMU answers them: every counter a signed long
 * long (VIR_TYPED_PARAM_LLONG, seen on this machine's QEMU through
 * virDomainBlockStatsFlags). Reading them as unsigned only made every VM disk
 * read 0 in the QEMU end-to-end test; test:///default has no
 * virDomainBlockStatsFlags, so only this test sees the typed answer.
 */
static void test_block_stats_types(void **state)
{
	virTypedParameterPtr p = NULL;
	int n = 0, max = 0;

	(void)state;
	assert_int_equal(virTypedParamsAddLLong(&p, &n, &max, VIR_DOMAIN_BLOCK_STATS_READ_REQ, 1234), 0);
	assert_int_equal(virTypedParamsAddLLong(&p, &n, &max, VIR_DOMAIN_BLOCK_STATS_WRITE_TOTAL_TIMES,
						  5000000000LL), 0);
	assert_int_equal(virTypedParamsAddLLong(&p, &n, &max, VIR_DOMAIN_BLOCK_STATS_FLUSH_REQ, -1), 0);
	assert_int_equal(virTypedParamsAddULLong(&p, &n, &max, VIR_DOMAIN_BLOCK_STATS_WRITE_BYTES, 1ULL << 40), 0);
	assert_int_equal(lv_block_stat(p, n, VIR_DOMAIN_BLOCK_STATS_READ_REQ), 1234);
	assert_int_equal(lv_block_stat(p, n, VIR_DOMAIN_BLOCK_STATS_WRITE_TOTAL_TIMES), 5000000000ULL);
	assert_int_equal(lv_block_stat(p, n, VIR_DOMAIN_BLOCK_STATS_WRITE_BYTES), 1ULL << 40);
	/* unsupported (-1) and missing counters are 0 */
	assert_int_equal(lv_block_stat(p, n, VIR_DOMAIN_BLOCK_STATS_FLUSH_REQ), 0);
	assert_int_equal(lv_block_stat(p, n, VIR_DOMAIN_BLOCK_STATS_READ_BYTES), 0);
	virTypedParamsFree(p, n);
	virResetLastError();
}

/* What lv_warn_guest_reach(env, 0, c) writes on stderr. */
static char *guest_reach_warning(const struct campaign_config *cfg, virConnectPtr c)
{
	char tmp[] = "/tmp/dbrig-ut-reach-XXXXXX", *text = NULL;
	int fd = mkstemp(tmp), saved = dup(2);
	size_t len;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	assert_int_equal(dup2(fd, 2), 2);
	lv_warn_guest_reach(&cfg->env, 0, c);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	assert_int_equal(read_file(tmp, &text, &len), 0);
	unlink(tmp);
	return text;
}

/*
 * Endpoint "guest" on a host that is another machine (issue 25 item 4): the
 * VMs' network is read through that host's connection (here test:///default's
 * NAT network "default" stands for it) and one line says this machine cannot
 * reach its guests; nothing with endpoint "forward" (validate's line says
 * that) or for a host on this machine; a network that is not there is said.
 */
static void test_guest_reach(void **state)
{
	static const struct {
		const char *uri, *endpoint, *extra, *want;
	} cases[] = {
		{"qemu+ssh://root@kvm2/system", "guest", "",
		 ": .target.network: \"default\" on host h (qemu+ssh://root@kvm2/system, another machine) is NAT "
		 "(<forward mode='nat'>): its guests reach out, nothing reaches in: the drivers here cannot reach its guests "
		 "with endpoint \"guest\" (docs/libvirt.md, \"Reaching guests on other hosts\")\n"},
		{"qemu+ssh://root@kvm2/system", "guest", ", \"network\": \"lab\"",
		 ": .target.network: \"lab\" on host h (qemu+ssh://root@kvm2/system, another machine) cannot be read there ("},
		{"qemu+ssh://root@kvm2/system", "forward", "", NULL},
		{"qemu+tcp://127.0.0.1:16509/system", "guest", "", NULL},
		{"qemu:///system", "guest", "", NULL},
	};
	virConnectPtr c = virConnectOpen("test:///default");
	char file[256], hosts[256];

	(void)state;
	assert_non_null(c);
	snprintf(file, sizeof(file), "/tmp/dbrig-ut-libvirt-reach-%d.json", (int)getpid());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct campaign_config *cfg = NULL;
		char *text;
		snprintf(hosts, sizeof(hosts), "{\"h\": \"%s\"}", cases[i].uri);
		write_config(file, hosts, "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}", cases[i].extra,
			     cases[i].endpoint);
		assert_int_equal(campaign_config_load(file, &cfg), 0);
		text = guest_reach_warning(cfg, c);
		if (cases[i].want ? !strstr(text, cases[i].want) || strchr(text, '\n') != strrchr(text, '\n') : text[0])
			fail_msg("%s %s: got \"%s\", expected \"%s\"", cases[i].uri, cases[i].endpoint, text,
				 cases[i].want ? cases[i].want : "");
		free(text);
		campaign_config_free(cfg);
	}
	unlink(file);
	assert_int_equal(virConnectClose(c), 0);
}

static void test_host_uris(void **state)
{
	static const struct {
		const char *uri, *extra;
		int want;
	} cases[] = {
		{"qemu:///system", "", 0},
		{"qemu+ssh://root@kvm2:2222/system?keyfile=/root/.ssh/id_ed25519&no_tty=1&mode=direct", "", 0},
		{"qemu+libssh2://u@h/system?known_hosts=/root/.ssh/known_hosts&sshauth=privkey,agent", "", 0},
		{"qemu+tls://[fd00::1]/system?pkipath=/etc/pki/dbrig&tls_priority=NORMAL:-VERS-TLS1.0", "", 0},
		{"test:///default", "", 0},
		{"qemu+ext:///system?command=/usr/local/bin/tunnel", "", -EINVAL},
		{"qemu+ext:///system?command=/usr/local/bin/tunnel", ", \"allow_ext_transport\": true", 0},
		{"qemu+ssh://h/system?netcat=/opt/nc", "", -EINVAL},
		{"qemu+ssh://h/system?netcat=/opt/nc", ", \"allow_ext_transport\": true", 0},
		{"qemu+ssh://h/system?command=/x", "", -EINVAL},
		{"qemu+ssh://h/system?no_verify=1", "", -EINVAL},
		{"qemu+libssh://h/system?known_hosts_verify=ignore", "", -EINVAL},
		{"qemu+ssh://h/system?name=qemu%2Bext:///system", "", -EINVAL},
		{"qemu:///system?bogus=1", "", -EINVAL},
		{"lxc:///system", "", -EINVAL},
		{"qemu+fd:///system", "", -EINVAL},
		{"qemu://h/system#frag", "", -EINVAL},
		{"qemu:system", "", -EINVAL},
	};
	char file[256], hosts[512];

	(void)state;
	snprintf(file, sizeof(file), "/tmp/dbrig-ut-libvirt-uri-%d.json", (int)getpid());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct campaign_config *cfg = NULL;
		int ret;
		snprintf(hosts, sizeof(hosts), "{\"h\": \"%s\"}", cases[i].uri);
		write_config(file, hosts, "{\"name\": \"da\", \"path\": \"/srv/da\"}", "{\"da\": 1}", cases[i].extra,
			     "forward");
		ret = campaign_config_load(file, &cfg);
		if (ret != cases[i].want)
			fail_msg("%s%s: load returned %d, expected %d", cases[i].uri, cases[i].extra, ret, cases[i].want);
		campaign_config_free(cfg);
	}
	unlink(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provision_4vm),
		cmocka_unit_test(test_allocation_sparse),
		cmocka_unit_test(test_provision_each),
		cmocka_unit_test(test_provision_8vm_8drives),
		cmocka_unit_test(test_collision_rolls_back),
		cmocka_unit_test_teardown(test_two_hosts, reset_config),
		cmocka_unit_test(test_host_uris),
		cmocka_unit_test(test_guest_reach),
		cmocka_unit_test(test_block_stats_types),
		cmocka_unit_test_teardown(test_generated_password, reset_config),
		cmocka_unit_test_teardown(test_fresh_keeps_state, reset_config),
		cmocka_unit_test_teardown(test_foreign_volumes_kept, reset_config),
		cmocka_unit_test_teardown(test_same_name_other_identity, reset_config),
		cmocka_unit_test_teardown(test_sqlserver_connection, reset_config),
		cmocka_unit_test_teardown(test_guest_apt_key, reset_config),
		cmocka_unit_test_teardown(test_sqlserver_files, reset_config),
		cmocka_unit_test_teardown(test_db_password_file, reset_config),
		cmocka_unit_test_teardown(test_db_port_default, reset_config),
		cmocka_unit_test_teardown(test_sqlserver_driver_missing, reset_config),
		cmocka_unit_test_teardown(test_golden_verify_ready, reset_config),
		cmocka_unit_test_teardown(test_clone_golden, reset_config),
		cmocka_unit_test_teardown(test_stream_golden, reset_config),
	};

	char out_dir[96], rm[256];
	int ret;

	snprintf(out_dir, sizeof(out_dir), "/tmp/dbrig-ut-libvirt-out-%d", (int)getpid());
	snprintf(ut_output_default, sizeof(ut_output_default), ", \"output\": \"%s\"", out_dir);
	/* The SQL Server campaigns' preflight asks the ODBC driver manager for their driver:
	 * registered here (never loaded) in a private odbcinst.ini. */
	snprintf(ut_odbc_dir, sizeof(ut_odbc_dir), "/tmp/dbrig-ut-libvirt-odbc-%d", (int)getpid());
	ut_odbc_register(true);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(rm, sizeof(rm), "rm -rf %s %s", out_dir, ut_odbc_dir);
	if (system(rm) != 0)
		ret = 1;
	return ret;
}
