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
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/config.h"
#include "campaign/plan.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "target/target.h"
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

static void write_config(const char *file, const char *hosts, const char *drives, const char *placement,
			 const char *extra, const char *endpoint)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"ut\", \"workload\": {\"kind\": \"sysbench\", \"test\": \"oltp_read_write\"},\n"
		" \"engine\": {\"kind\": \"mariadb\", \"buffer_pool\": \"128M\"},\n"
		" \"target\": {\"kind\": \"libvirt\", \"hosts\": %s, \"endpoint\": \"%s\", \"vcpus\": 2,\n"
		"   \"memory\": \"1G\", \"controller\": \"lsisas1078\", \"create_pools\": true, \"cloud_init\": false,\n"
		"   \"wait_database\": false, \"boot_size\": \"4G\", \"prebuilt_size\": \"2G\", \"under_test_size\": \"1G\",\n"
		"   \"templates\": \"%s/vm-templates\"%s},\n"
		" \"drives\": [%s],\n"
		" \"run_groups\": [{\"name\": \"g\", \"placement\": %s}],\n"
		" \"precondition\": 0, \"sample\": \"1s\"}\n",
		hosts, endpoint, src_dir(), extra, drives, placement);
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

static void restore_cycle(struct rig *r, bool forward)
{
	struct strbuf line;

	strbuf_init(&line, 0);
	for (size_t i = 0; i < r->plan->ninsts; i++) {
		struct target_instance *in = &r->plan->insts[i];
		struct target_endpoint ep;
		assert_int_equal(r->t.ops->stop(&r->t, in), 0);
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
		assert_int_equal(r->t.ops->stop(&r->t, in), 0);
	}
	strbuf_release(&line);
}

static void teardown_all(struct rig *r)
{
	for (size_t i = 0; i < r->plan->ninsts; i++)
		assert_int_equal(r->t.ops->destroy(&r->t, &r->plan->insts[i]), 0);
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
	/* Provisioning again reuses what this campaign made. */
	assert_int_equal(provision(&r), 0);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 4);
	restore_cycle(&r, false);
	teardown_all(&r);
	assert_int_equal(count_prefixed_domains(c, "dbrig-ut-"), 0);
	assert_int_equal(count_prefixed_pools(c, "dbrig-"), 0);
	/* The test driver's own objects are untouched. */
	assert_int_equal(count_prefixed_domains(c, "test"), 1);
	assert_int_equal(count_prefixed_pools(c, "default-pool"), 1);
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
	restore_cycle(&r, true);
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
	assert_int_equal(rig_up(&r), 0);
	assert_int_equal(provision(&r), 0);
	for (size_t i = 0; i < r.plan->ninsts; i++) {
		strbuf_reset(&line);
		assert_int_equal(r.t.ops->status(&r.t, &r.plan->insts[i], &line), 1);
		assert_non_null(strstr(line.buf, r.plan->insts[i].drive == 0 ? "host h1" : "host h2"));
		assert_non_null(strstr(line.buf, "shut off; volumes boot ok prebuilt ok undertest ok"));
	}
	restore_cycle(&r, true);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_provision_4vm),
		cmocka_unit_test(test_provision_8vm_8drives),
		cmocka_unit_test(test_collision_rolls_back),
		cmocka_unit_test(test_two_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
