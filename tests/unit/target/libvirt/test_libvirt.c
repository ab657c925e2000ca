/*
 * The libvirt target: XML rendering against golden files (tests/golden/libvirt/;
 * DBRIG_UPDATE_GOLDEN=1 rewrites them), and provision / restore / teardown
 * through the target ops against libvirt's test driver: test:///default and
 * two test:///<file> connections standing for two hosts. The test reads the
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

static void golden(const char *name, const char *got)
{
	char path[4096], *want = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/tests/golden/libvirt/%s", src_dir(), name);
	if (getenv("DBRIG_UPDATE_GOLDEN")) {
		assert_int_equal(atomic_write_file(path, got, strlen(got)), 0);
		return;
	}
	if (read_file(path, &want, &len) < 0)
		fail_msg("missing golden file %s (DBRIG_UPDATE_GOLDEN=1 writes it)", path);
	if (strcmp(want, got)) {
		fprintf(stderr, "--- %s\n%s\n--- got\n%s\n", path, want, got);
		fail_msg("%s differs", name);
	}
	free(want);
}

static void base_spec(struct vm_spec *s, enum vm_controller c)
{
	static const struct vm_iotune iot = {.total_iops_sec = 200, .write_bytes_sec = 16777216};

	memset(s, 0, sizeof(*s));
	s->name = "dbrig-lab-pm1743-a-vm2";
	s->campaign = "lab";
	s->drive = "pm1743-a";
	s->instance = "vm2";
	s->domain_type = "kvm";
	s->vcpus = 8;
	s->memory_kib = UINT64_C(62914560);
	s->controller = c;
	s->pool = "dbrig-lab-pm1743-a";
	s->vol[VMD_BOOT] = "dbrig-lab-pm1743-a-vm2-boot.qcow2";
	s->vol[VMD_PREBUILT] = "dbrig-lab-pm1743-a-vm2-prebuilt.img";
	s->vol[VMD_UNDERTEST] = "dbrig-lab-pm1743-a-vm2-undertest.img";
	s->vol[VMD_SEED] = "dbrig-lab-pm1743-a-vm2-seed.iso";
	s->vol_format[VMD_BOOT] = "qcow2";
	s->vol_format[VMD_PREBUILT] = "raw";
	s->vol_format[VMD_UNDERTEST] = "raw";
	s->vol_format[VMD_SEED] = "raw";
	s->cache = "none";
	s->iotune = &iot;
	s->nic = VMNIC_NETWORK;
	s->network = "default";
	vm_mac("lab", 1, s->mac);
	s->fwd_port = 33401;
	s->guest_port = 3306;
}

static void render_golden(const struct vm_spec *s, const char *tmpl, const char *name)
{
	char dir[4096];
	struct strbuf sb;

	snprintf(dir, sizeof(dir), "%s/vm-templates", src_dir());
	strbuf_init(&sb, 0);
	assert_int_equal(vm_render_domain(dir, tmpl, s, &sb), 0);
	golden(name, sb.buf);
	strbuf_release(&sb);
}

static void test_render_controllers(void **state)
{
	static const char *const files[] = {"domain-virtio-scsi.xml", "domain-lsisas1068.xml", "domain-lsisas1078.xml",
					     "domain-lsilogic.xml"};
	struct vm_spec s;

	(void)state;
	for (int c = VMC_VIRTIO_SCSI; c <= VMC_LSILOGIC; c++) {
		base_spec(&s, (enum vm_controller)c);
		render_golden(&s, "sysbench", files[c]);
	}
}

static void test_render_variants(void **state)
{
	struct vm_spec s;

	(void)state;
	base_spec(&s, VMC_VIRTIO_SCSI);
	s.nic = VMNIC_PASST;
	s.iotune = NULL;
	s.vol[VMD_SEED] = NULL;
	s.domain_type = "qemu";
	s.kernel = "/var/cache/dbrig/vmlinuz";
	s.initrd = "/var/cache/dbrig/initrd.img";
	s.cmdline = "root=LABEL=root ro console=ttyS0";
	s.golden = "sysbench oltp_read_write tables=1 table_size=1000";
	render_golden(&s, "sysbench", "domain-passt-kernel.xml");
	base_spec(&s, VMC_VIRTIO_SCSI);
	s.nic = VMNIC_SLIRP;
	render_golden(&s, "sysbench", "domain-slirp.xml");
	base_spec(&s, VMC_LSISAS1068);
	render_golden(&s, "sqlserver", "domain-sqlserver.xml");
}

static void test_render_pool_volume(void **state)
{
	char dir[4096];
	struct strbuf sb;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/vm-templates", src_dir());
	strbuf_init(&sb, 0);
	assert_int_equal(vm_render_pool(dir, "dbrig-lab-pm1743-a", "/mnt/pm1743-a", &sb), 0);
	golden("pool.xml", sb.buf);
	strbuf_reset(&sb);
	assert_int_equal(vm_render_volume(dir, "dbrig-lab-pm1743-a-vm2-boot.qcow2", UINT64_C(98784247808), "qcow2",
					  "/var/lib/libvirt/images/base.qcow2", "qcow2", &sb), 0);
	golden("volume-boot-overlay.xml", sb.buf);
	strbuf_reset(&sb);
	assert_int_equal(vm_render_volume(dir, "dbrig-lab-pm1743-a-vm2-undertest.img", UINT64_C(289910292480), "raw",
					  NULL, NULL, &sb), 0);
	golden("volume-undertest.xml", sb.buf);
	strbuf_release(&sb);
}

/* The seed of vm2 on drive pm1743-a of campaign "lab", engine installed by cloud-init. */
static const struct vm_seed lab_seed = {
	.name = "dbrig-lab-pm1743-a-vm2", .hostname = "pm1743-a-vm2", .campaign = "lab", .drive = "pm1743-a",
	.instance = "vm2", .packages = "mariadb-server qemu-guest-agent", .ssh_key = "ssh-ed25519 AAAA lab",
	.db_user = "dbrig", .db_password = "s3cret", .db_port = 3306, .buffer_pool = UINT64_C(25769803776),
	.server_options = "innodb_flush_log_at_trx_commit = 1\n",
};

static void test_render_seed(void **state)
{
	char dir[4096];
	struct strbuf ud, md, sh;
	struct vm_seed s = lab_seed;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/vm-templates", src_dir());
	strbuf_init(&ud, 0);
	strbuf_init(&md, 0);
	strbuf_init(&sh, 0);
	assert_int_equal(vm_render_seed(dir, "sysbench", &s, &ud, &md, &sh), 0);
	golden("user-data", ud.buf);
	golden("meta-data", md.buf);
	golden("sysbench-setup.sh", sh.buf);
	strbuf_release(&ud);
	strbuf_release(&md);
	strbuf_release(&sh);
}

/* cloud-init's own schema check of a rendered user-data, when cloud-init is on the host
 * (scripts/deps-libvirt.txt installs it; skipped without it). */
static void cloud_init_schema(const char *name, const char *user_data)
{
	char path[256], cmd[512];

	if (system("command -v cloud-init >/dev/null 2>&1") != 0) {
		fprintf(stderr, "note: cloud-init not installed: %s not checked against its schema\n", name);
		return;
	}
	snprintf(path, sizeof(path), "/tmp/dbrig-ut-%s-%d", name, (int)getpid());
	assert_int_equal(atomic_write_file(path, user_data, strlen(user_data)), 0);
	snprintf(cmd, sizeof(cmd), "cloud-init schema --config-file %s >/dev/null", path);
	if (system(cmd) != 0) {
		fprintf(stderr, "%s", user_data);
		unlink(path);
		fail_msg("%s: cloud-init schema --config-file refused it", name);
	}
	unlink(path);
}

/* "guest_packages": "preinstalled": the base image has the engine and the guest agent,
 * so the user-data has no package step (no apt update, no mirror needed) but still the
 * hostname, the SSH key, the setup script and the unit that runs it at every boot. */
static void test_render_seed_preinstalled(void **state)
{
	char dir[4096];
	struct strbuf ud, md, sh, ud_install, md2, sh2;
	struct vm_seed s = lab_seed;

	(void)state;
	s.packages = NULL;
	snprintf(dir, sizeof(dir), "%s/vm-templates", src_dir());
	strbuf_init(&ud, 0);
	strbuf_init(&md, 0);
	strbuf_init(&sh, 0);
	strbuf_init(&ud_install, 0);
	strbuf_init(&md2, 0);
	strbuf_init(&sh2, 0);
	assert_int_equal(vm_render_seed(dir, "sysbench", &s, &ud, &md, &sh), 0);
	golden("user-data-preinstalled", ud.buf);
	assert_null(strstr(ud.buf, "package_update"));
	assert_null(strstr(ud.buf, "packages:"));
	assert_non_null(strstr(ud.buf, "\nhostname: pm1743-a-vm2\n"));
	assert_non_null(strstr(ud.buf, "ssh_authorized_keys:\n  - ssh-ed25519 AAAA lab\n"));
	assert_non_null(strstr(ud.buf, "  - path: /usr/local/sbin/dbrig-setup.sh\n"));
	assert_non_null(strstr(ud.buf, "  - path: /etc/systemd/system/dbrig-setup.service\n"));
	assert_non_null(strstr(ud.buf, "  - [systemctl, enable, --now, --no-block, qemu-guest-agent.service, dbrig-setup.service]"));
	/* Only the package step differs from the default ("install"). */
	s.packages = lab_seed.packages;
	assert_int_equal(vm_render_seed(dir, "sysbench", &s, &ud_install, &md2, &sh2), 0);
	assert_non_null(strstr(ud_install.buf, "package_update: true\npackages:\n  - mariadb-server\n  - qemu-guest-agent\n"));
	assert_int_equal(ud_install.len - ud.len,
			 strlen("package_update: true\npackages:\n  - mariadb-server\n  - qemu-guest-agent\n"));
	assert_string_equal(md.buf, md2.buf);
	assert_string_equal(sh.buf, sh2.buf);
	cloud_init_schema("user-data-install", ud_install.buf);
	cloud_init_schema("user-data-preinstalled", ud.buf);
	strbuf_release(&ud);
	strbuf_release(&md);
	strbuf_release(&sh);
	strbuf_release(&ud_install);
	strbuf_release(&md2);
	strbuf_release(&sh2);
}

static void test_template_engine(void **state)
{
	const struct vm_var vars[] = {{"a", "x<y"}, {"b", NULL}, {"frag", "<ok/>"}};
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb, 0);
	assert_int_equal(vm_template_render("t", "[{{a}}|{{&frag}}]{{#b}}no{{/b}}{{^b}}yes{{/b}}", vars, 3, &sb), 0);
	assert_string_equal(sb.buf, "[x&lt;y|<ok/>]yes");
	strbuf_reset(&sb);
	assert_int_equal(vm_template_render("t", "  {{#a}}\n  in\n  {{/a}}\nout\n", vars, 3, &sb), 0);
	assert_string_equal(sb.buf, "  in\nout\n");
	assert_int_equal(vm_template_render("t", "{{nope}}", vars, 3, &sb), -EINVAL);
	assert_int_equal(vm_template_render("t", "{{#a}}open", vars, 3, &sb), -EINVAL);
	assert_int_equal(vm_template_render("t", "{{/a}}", vars, 3, &sb), -EINVAL);
	assert_int_equal(vm_template_render("t", "{{a", vars, 3, &sb), -EINVAL);
	strbuf_release(&sb);
}

static void test_mac_iotune(void **state)
{
	char a[18], b[18];
	struct vm_iotune t;
	const char *why;

	(void)state;
	vm_mac("lab", 0, a);
	vm_mac("lab", 1, b);
	assert_memory_equal(a, "52:54:00:", 9);
	assert_string_not_equal(a, b);
	assert_memory_equal(a, b, 15);
	vm_mac("lab", 1, a);
	assert_string_equal(a, b);
	assert_int_equal(vm_iotune_parse("total_iops_sec=100,write_bytes_sec=8M", &t, &why), 0);
	assert_int_equal(t.total_iops_sec, 100);
	assert_int_equal(t.write_bytes_sec, 8 << 20);
	assert_int_equal(vm_iotune_parse("total_iops_sec=100,read_iops_sec=5", &t, &why), -EINVAL);
	assert_int_equal(vm_iotune_parse("bogus=1", &t, &why), -EINVAL);
	assert_int_equal(vm_iotune_parse("total_iops_sec=0", &t, &why), -EINVAL);
	assert_int_equal(vm_iotune_parse("", &t, &why), -EINVAL);
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
	r->t.cfg = r->cfg;
	r->t.dbrig_exe = "/bin/false";
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
		cmocka_unit_test(test_template_engine),
		cmocka_unit_test(test_mac_iotune),
		cmocka_unit_test(test_render_controllers),
		cmocka_unit_test(test_render_variants),
		cmocka_unit_test(test_render_pool_volume),
		cmocka_unit_test(test_render_seed),
		cmocka_unit_test(test_render_seed_preinstalled),
		cmocka_unit_test(test_provision_4vm),
		cmocka_unit_test(test_provision_8vm_8drives),
		cmocka_unit_test(test_collision_rolls_back),
		cmocka_unit_test(test_two_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
