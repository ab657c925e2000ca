/*
 * The libvirt target: N identical VMs per drive on KVM hosts, one storage
 * pool per drive. The only file that calls vir*.
 *
 * Names, all derived from the campaign, so every object is found again by a
 * later process (provision, then campaign, status, restore, teardown):
 *   pool      dbrig-<campaign>-<drive>           (when dbrig creates it)
 *   domain    dbrig-<campaign>-<drive>-<vmN>     with <metadata><dbrig:vm> naming
 *                                                campaign, drive and instance
 *   volumes   <domain>-boot.qcow2, -prebuilt.<fmt>, -undertest.<fmt>, -seed.iso
 * Ownership: a domain is dbrig's only when its metadata names this campaign,
 * drive and instance; a volume or pool only by its name prefix. Anything else
 * with a colliding name is never reused or removed: create fails instead.
 *
 * The drive's golden copy: vm1's under-test disk is loaded (build_golden),
 * then cloned into every VM's prebuilt volume; the fingerprint goes into vm1's
 * metadata, which marks the golden copy complete. restore clones prebuilt
 * over under-test.
 *
 * Errors: every failing vir* call is reported with virGetLastErrorMessage()
 * right after it, naming the VM (drive/vmN) or pool and the host.
 */
#include "target/target.h"

#include "campaign/config.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/proc.h"
#include "target/libvirt/vmxml.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct target_option libvirt_options[] = {
	{"hosts", TOPT_STRMAP, "{\"default\": \"qemu:///system\"}", 0, 0,
	 "hypervisor hosts by name: libvirt URIs (qemu:///system, qemu+ssh://host/system, test:///default); "
	 "a drive's \"host\" picks one, the first is the default"},
	{"network", TOPT_STRING, "default", 0, 0, "libvirt network of the VMs' NIC (endpoint \"guest\")"},
	{"endpoint", TOPT_STRING, "guest", 0, 0,
	 "how drivers reach a VM's database: \"guest\" (the VM's address on its network) or \"forward\" "
	 "(a port forwarded to 127.0.0.1 by QEMU user networking)"},
	{"forward_base_port", TOPT_UINT, "33400", 1024, 65000, "first host port with endpoint \"forward\" (one per VM)"},
	{"forward_backend", TOPT_STRING, "slirp", 0, 0,
	 "user networking with endpoint \"forward\": slirp (QEMU hostfwd via <qemu:commandline>) or passt (<portForward>, libvirt 9.2 or later)"},
	{"template", TOPT_STRING, "sysbench", 0, 0, "domain template in vm-templates/: sysbench or sqlserver"},
	{"templates", TOPT_STRING, DBRIG_SOURCE_DIR "/vm-templates", 0, 0,
	 "folder of the domain, pool, volume and cloud-init templates"},
	{"base_image", TOPT_STRING, NULL, 0, 0, "boot disk base image (qcow2) the boot volumes are made from"},
	{"boot_mode", TOPT_STRING, "overlay", 0, 0,
	 "boot volume from base_image: overlay (qcow2 backed by it) or copy (a full clone; base_image must be a volume)"},
	{"boot_size", TOPT_SIZE, "92G", 0, 0, "boot volume size"},
	{"prebuilt_size", TOPT_SIZE, "447G", 0, 0, "pre-built (golden copy) volume size"},
	{"under_test_size", TOPT_SIZE, "270G", 0, 0, "under-test volume size"},
	{"disk_format", TOPT_STRING, "raw", 0, 0, "volume format of pre-built and under-test: raw or qcow2"},
	{"disk_cache", TOPT_STRING, "none", 0, 0,
	 "QEMU cache mode of the disks: none (O_DIRECT, the drive is measured, not host RAM), directsync or writeback"},
	{"vcpus", TOPT_UINT, "8", 1, 1024, "vCPUs per VM"},
	{"memory", TOPT_SIZE, "60G", 0, 0, "memory per VM"},
	{"controller", TOPT_STRING, "virtio-scsi", 0, 0,
	 "disk controller: virtio-scsi, lsisas1068 (the published \"LSI Logic SAS\"), lsisas1078 or lsilogic"},
	{"domain_type", TOPT_STRING, "kvm", 0, 0, "libvirt domain type: kvm, or qemu (TCG emulation, no /dev/kvm)"},
	{"kernel", TOPT_STRING, NULL, 0, 0, "direct kernel boot: kernel path on the host (with initrd and cmdline)"},
	{"initrd", TOPT_STRING, NULL, 0, 0, "direct kernel boot: initrd path on the host"},
	{"cmdline", TOPT_STRING, "root=LABEL=root ro console=ttyS0 net.ifnames=0", 0, 0,
	 "direct kernel boot: kernel command line"},
	{"iotune", TOPT_STRMAP, NULL, 0, 0,
	 "per drive name, <iotune> limits of its VMs' under-test disks, e.g. \"total_iops_sec=200,write_bytes_sec=16M\""},
	{"create_pools", TOPT_BOOL, "false", 0, 0, "create a dir pool on a drive's path when none exists"},
	{"cloud_init", TOPT_BOOL, "true", 0, 0, "attach a cloud-init NoCloud seed ISO (cidata) to every VM"},
	{"ssh_key", TOPT_STRING, NULL, 0, 0, "SSH public key cloud-init installs for the guest's default user"},
	{"guest_packages", TOPT_STRING, "install", 0, 0,
	 "what cloud-init does about the engine and guest agent packages: install (apt update and install them) "
	 "or preinstalled (the base image has them: no package step, no mirror needed)"},
	{"db_user", TOPT_STRING, "dbrig", 0, 0, "database user the guest setup creates for the driver"},
	{"db_password", TOPT_STRING, "dbrig", 0, 0, "its password (letters, digits and ._+-=@%:,~ only)"},
	{"db_port", TOPT_UINT, "3306", 1, 65535, "database port in the guest"},
	{"wait_database", TOPT_BOOL, "true", 0, 0,
	 "readiness includes the database accepting a TCP connection (false: the VM's address only)"},
	{"ready_timeout", TOPT_DURATION, "10m", 0, 0, "how long a VM may take to boot and accept database connections"},
	{"stop_timeout", TOPT_DURATION, "3m", 0, 0, "how long a clean shutdown may take before the VM is powered off"},
	{NULL, TOPT_STRING, NULL, 0, 0, NULL},
};

struct lv_host {
	const char *name, *uri;
	virConnectPtr conn;
};

struct lv_drive {
	struct lv_host *host;
	char *pool;        /* resolved or to be created */
	bool pool_ours;    /* named dbrig-<campaign>-<drive>: dbrig creates and removes it */
	bool pool_exists;
	bool pool_created; /* by this process */
	bool has_iotune;
	struct vm_iotune iotune;
	unsigned destroyed; /* instances destroyed, to drop the pool with the last */
};

struct lv_inst {
	char *dom;
	char *vol[VM_DISKS];
	bool dom_created, vol_created[VM_DISKS]; /* by this process */
	unsigned fwd_port;
	char addr[INET6_ADDRSTRLEN];
};

struct lv {
	struct lv_host *hosts;
	size_t nhosts;
	struct lv_drive *drives;
	bool dry_run, connected;
	const char *tmpl_dir, *template;
	enum vm_controller controller;
	enum vm_nic nic;
	struct target_instance *insts; /* from preflight */
	size_t ninsts;
};

static const char *setting_str(const struct campaign_config *cfg, const char *name)
{
	const struct target_setting *s = target_setting(cfg, name);

	return s->set ? s->str : NULL;
}

static uint64_t setting_num(const struct campaign_config *cfg, const char *name)
{
	return target_setting(cfg, name)->num;
}

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* "\"ide\" is not a disk controller (expected virtio-scsi, lsisas1068, lsisas1078 or lsilogic)" */
static int check_choice(const struct campaign_config *cfg, const char *name, const char *noun,
			const char *const *list)
{
	const char *s = setting_str(cfg, name);
	struct strbuf sb, jp;

	if (one_of(s, list))
		return 0;
	strbuf_init(&sb, 0);
	strbuf_init(&jp, 0);
	for (const char *const *l = list; *l; l++)
		strbuf_addf(&sb, "%s%s", l == list ? "" : l[1] ? ", " : " or ", *l);
	strbuf_addf(&jp, ".target.%s", name);
	campaign_config_error(cfg, jp.buf, "\"%s\" is not %s (expected %s)", s, noun, sb.buf);
	strbuf_release(&sb);
	strbuf_release(&jp);
	return -EINVAL;
}

static bool safe_word(const char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-=@%:,~", *s))
			return false;
	return true;
}

static int libvirt_validate(const struct campaign_config *cfg)
{
	static const char *const endpoints[] = {"guest", "forward", NULL};
	static const char *const backends[] = {"passt", "slirp", NULL};
	static const char *const templates[] = {"sysbench", "sqlserver", NULL};
	static const char *const formats[] = {"raw", "qcow2", NULL};
	static const char *const controllers[] = {"virtio-scsi", "lsisas1068", "lsisas1078", "lsilogic", NULL};
	static const char *const boot_modes[] = {"overlay", "copy", NULL};
	static const char *const caches[] = {"none", "directsync", "writeback", "writethrough", NULL};
	static const char *const types[] = {"kvm", "qemu", NULL};
	static const char *const package_modes[] = {"install", "preinstalled", NULL};
	const struct target_setting *hosts = target_setting(cfg, "hosts");
	const struct target_setting *iot = target_setting(cfg, "iotune");
	const char *s, *why;
	char jp[160];

	if (check_choice(cfg, "endpoint", "an endpoint style", endpoints) < 0 ||
	    check_choice(cfg, "forward_backend", "a user networking backend", backends) < 0 ||
	    check_choice(cfg, "template", "a VM template", templates) < 0 ||
	    check_choice(cfg, "disk_format", "a volume format", formats) < 0 ||
	    check_choice(cfg, "controller", "a disk controller", controllers) < 0 ||
	    check_choice(cfg, "boot_mode", "a boot volume mode", boot_modes) < 0 ||
	    check_choice(cfg, "disk_cache", "a disk cache mode", caches) < 0 ||
	    check_choice(cfg, "domain_type", "a domain type", types) < 0 ||
	    check_choice(cfg, "guest_packages", "a guest package mode", package_modes) < 0)
		return -EINVAL;
	for (size_t h = 0; h < hosts->nmap; h++) {
		if (!strstr(hosts->map[h].value, ":/")) {
			snprintf(jp, sizeof(jp), ".target.hosts.%s", hosts->map[h].key);
			campaign_config_error(cfg, jp, "\"%s\" is not a libvirt URI (expected e.g. qemu:///system or "
					      "qemu+ssh://host/system)", hosts->map[h].value);
			return -EINVAL;
		}
	}
	s = setting_str(cfg, "db_password");
	if (!safe_word(s) || !safe_word(setting_str(cfg, "db_user"))) {
		campaign_config_error(cfg, safe_word(s) ? ".target.db_user" : ".target.db_password",
				      "holds a character outside letters, digits and ._+-=@%%:,~ (it goes into the guest's "
				      "setup script and SQL)");
		return -EINVAL;
	}
	if ((s = setting_str(cfg, "ssh_key")) && strpbrk(s, "\n\r'\"")) {
		campaign_config_error(cfg, ".target.ssh_key", "holds a newline or quote (expected one public key line)");
		return -EINVAL;
	}
	if (setting_str(cfg, "kernel") && !setting_str(cfg, "initrd")) {
		campaign_config_error(cfg, ".target.initrd", "missing (expected an initrd path with \"kernel\")");
		return -EINVAL;
	}
	if (!strcmp(setting_str(cfg, "boot_mode"), "copy") && !setting_str(cfg, "base_image")) {
		campaign_config_error(cfg, ".target.base_image",
				      "missing (expected the image a \"copy\" boot volume is cloned from)");
		return -EINVAL;
	}
	for (size_t d = 0; d < cfg->ndrives; d++) {
		bool found = !cfg->drives[d].host;

		for (size_t h = 0; h < hosts->nmap && !found; h++)
			found = !strcmp(hosts->map[h].key, cfg->drives[d].host);
		if (!found) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			for (size_t h = 0; h < hosts->nmap; h++)
				strbuf_addf(&sb, "%s%s", h ? ", " : "", hosts->map[h].key);
			snprintf(jp, sizeof(jp), ".drives[%zu].host", d);
			campaign_config_error(cfg, jp, "\"%s\" is not a host of .target.hosts (expected one of: %s)",
					      cfg->drives[d].host, sb.buf);
			strbuf_release(&sb);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < iot->nmap; i++) {
		bool found = false;
		struct vm_iotune t;

		for (size_t d = 0; d < cfg->ndrives; d++)
			found = found || !strcmp(cfg->drives[d].name, iot->map[i].key);
		snprintf(jp, sizeof(jp), ".target.iotune.%s", iot->map[i].key);
		if (!found) {
			campaign_config_error(cfg, jp, "\"%s\" is not a drive of .drives (expected a drive name)",
					      iot->map[i].key);
			return -EINVAL;
		}
		if (vm_iotune_parse(iot->map[i].value, &t, &why) < 0) {
			campaign_config_error(cfg, jp, "\"%s\" is not an I/O limit (%s)", iot->map[i].value, why);
			return -EINVAL;
		}
	}
	/* Known QEMU/Linux limit, not an error: Windows guests see mptsas1068 disks. */
	if (!strcmp(setting_str(cfg, "controller"), "lsisas1068") && !strcmp(setting_str(cfg, "template"), "sysbench"))
		log_warn("%s: .target.controller: lsisas1068 with the Linux (sysbench) template: Linux guests (6.1) do "
			 "not see disks behind QEMU's mptsas1068, so the VMs will not boot or find their database disk; "
			 "use virtio-scsi, lsisas1078 or lsilogic (see docs/libvirt.md)", cfg->file);
	return 0;
}

/* ---- helpers ---- */

static void vir_fail(const char *what, const char *call)
{
	log_error("%s: %s: %s", what, call, virGetLastErrorMessage());
}

static void what_inst(const struct target *t, const struct target_instance *inst, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", t->cfg->drives[inst->drive].name, inst->name);
}

static struct lv_inst *inst_priv(struct target *t, struct target_instance *inst)
{
	const struct campaign_config *cfg = t->cfg;
	static const char *const suffix[VM_DISKS] = {"boot.qcow2", "prebuilt", "undertest", "seed.iso"};
	struct lv_inst *li = inst->priv;
	struct strbuf sb;

	if (li)
		return li;
	li = xcalloc(1, sizeof(*li));
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "dbrig-%s-%s-%s", cfg->name, cfg->drives[inst->drive].name, inst->name);
	li->dom = strbuf_detach(&sb);
	for (int d = 0; d < VM_DISKS; d++) {
		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "%s-%s", li->dom, suffix[d]);
		if (d == VMD_PREBUILT || d == VMD_UNDERTEST)
			strbuf_adds(&sb, strcmp(setting_str(cfg, "disk_format"), "qcow2") ? ".img" : ".qcow2");
		li->vol[d] = strbuf_detach(&sb);
	}
	li->fwd_port = (unsigned)setting_num(cfg, "forward_base_port") + inst->index;
	inst->priv = li;
	return li;
}

static virConnectPtr conn_of(struct target *t, size_t drive)
{
	struct lv *lv = t->priv;

	return lv->drives[drive].host->conn;
}

/* Metadata of a dbrig domain: 1 ours (campaign, drive, instance match), 0 not ours, <0 error. */
static int owned(virDomainPtr dom, const struct target *t, const struct target_instance *inst, char **golden)
{
	char *xml = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, VM_METADATA_NS, VIR_DOMAIN_AFFECT_CONFIG);
	const char *fields[3] = {"campaign>", "drive>", "instance>"};
	const char *want[3] = {t->cfg->name, t->cfg->drives[inst->drive].name, inst->name};
	int ret = 1;

	if (!xml) {
		virErrorPtr e = virGetLastError();
		return e && e->code == VIR_ERR_NO_DOMAIN_METADATA ? 0 : -EIO;
	}
	for (int i = 0; i < 3 && ret; i++) {
		const char *p = strstr(xml, fields[i]);
		size_t n = strlen(want[i]);
		ret = p && !strncmp(p + strlen(fields[i]), want[i], n) && p[strlen(fields[i]) + n] == '<';
	}
	if (ret && golden) {
		const char *p = strstr(xml, "golden>");
		*golden = NULL;
		if (p) {
			p += strlen("golden>");
			size_t n = strcspn(p, "<");
			*golden = xmalloc(n + 1);
			memcpy(*golden, p, n);
			(*golden)[n] = '\0';
		}
	}
	free(xml);
	return ret;
}

/* The domain if it exists and is ours; *foreign when the name is taken by another. */
static int lookup_dom(struct target *t, struct target_instance *inst, virDomainPtr *out, bool *foreign)
{
	struct lv_inst *li = inst_priv(t, inst);
	char what[200];
	virDomainPtr dom;
	int r;

	*out = NULL;
	*foreign = false;
	what_inst(t, inst, what, sizeof(what));
	dom = virDomainLookupByName(conn_of(t, inst->drive), li->dom);
	if (!dom) {
		virErrorPtr e = virGetLastError();
		if (e && e->code == VIR_ERR_NO_DOMAIN)
			return 0;
		vir_fail(what, "virDomainLookupByName");
		return -EIO;
	}
	r = owned(dom, t, inst, NULL);
	if (r < 0) {
		vir_fail(what, "virDomainGetMetadata");
		virDomainFree(dom);
		return -EIO;
	}
	if (!r) {
		*foreign = true;
		virDomainFree(dom);
		return 0;
	}
	*out = dom;
	return 0;
}

static virStorageVolPtr lookup_vol(struct target *t, size_t drive, const char *name, int *err)
{
	struct lv *lv = t->priv;
	virStoragePoolPtr pool;
	virStorageVolPtr vol = NULL;

	*err = 0;
	pool = virStoragePoolLookupByName(conn_of(t, drive), lv->drives[drive].pool);
	if (!pool) {
		virErrorPtr e = virGetLastError();
		if (!(e && e->code == VIR_ERR_NO_STORAGE_POOL)) {
			vir_fail(lv->drives[drive].pool, "virStoragePoolLookupByName");
			*err = -EIO;
		}
		return NULL;
	}
	vol = virStorageVolLookupByName(pool, name);
	if (!vol) {
		virErrorPtr e = virGetLastError();
		if (!(e && e->code == VIR_ERR_NO_STORAGE_VOL)) {
			vir_fail(name, "virStorageVolLookupByName");
			*err = -EIO;
		}
	}
	virStoragePoolFree(pool);
	return vol;
}

/* ---- init, preflight ---- */

/* libvirt prints every error on stderr by default; dbrig reports them itself. */
static void quiet(void *opaque, virErrorPtr err)
{
	(void)opaque;
	(void)err;
}

static int libvirt_init(struct target *t)
{
	const struct campaign_config *cfg = t->cfg;
	const struct target_setting *hosts = target_setting(cfg, "hosts");
	const struct target_setting *iot = target_setting(cfg, "iotune");
	struct lv *lv = xcalloc(1, sizeof(*lv));
	const char *why;

	virSetErrorFunc(NULL, quiet);
	lv->dry_run = t->dry_run;
	lv->nhosts = hosts->nmap;
	lv->hosts = xcalloc(lv->nhosts, sizeof(*lv->hosts));
	for (size_t h = 0; h < lv->nhosts; h++) {
		lv->hosts[h].name = hosts->map[h].key;
		lv->hosts[h].uri = hosts->map[h].value;
	}
	lv->drives = xcalloc(cfg->ndrives, sizeof(*lv->drives));
	for (size_t d = 0; d < cfg->ndrives; d++) {
		struct lv_drive *ld = &lv->drives[d];
		ld->host = &lv->hosts[0];
		for (size_t h = 0; h < lv->nhosts && cfg->drives[d].host; h++)
			if (!strcmp(lv->hosts[h].name, cfg->drives[d].host))
				ld->host = &lv->hosts[h];
		for (size_t i = 0; i < iot->nmap; i++)
			if (!strcmp(iot->map[i].key, cfg->drives[d].name))
				ld->has_iotune = vm_iotune_parse(iot->map[i].value, &ld->iotune, &why) == 0;
	}
	lv->tmpl_dir = setting_str(cfg, "templates");
	lv->template = setting_str(cfg, "template");
	if (vm_controller_parse(setting_str(cfg, "controller"), &lv->controller) < 0)
		lv->controller = VMC_VIRTIO_SCSI;
	lv->nic = strcmp(setting_str(cfg, "endpoint"), "forward") ? VMNIC_NETWORK
		  : strcmp(setting_str(cfg, "forward_backend"), "slirp") ? VMNIC_PASST : VMNIC_SLIRP;
	t->priv = lv;
	return 0;
}

static int connect_hosts(struct target *t)
{
	struct lv *lv = t->priv;
	int ret = 0;

	for (size_t h = 0; h < lv->nhosts && ret == 0; h++) {
		struct lv_host *ho = &lv->hosts[h];
		bool used = false;
		for (size_t d = 0; d < t->cfg->ndrives; d++)
			used = used || lv->drives[d].host == ho;
		if (!used || ho->conn)
			continue;
		ho->conn = lv->dry_run ? virConnectOpenReadOnly(ho->uri) : virConnectOpen(ho->uri);
		if (!ho->conn) {
			if (lv->dry_run) {
				log_warn("host %s (%s): %s; --dry-run prints the XML as if nothing existed there", ho->name,
					 ho->uri, virGetLastErrorMessage());
				continue;
			}
			log_error("host %s: cannot connect to %s: %s", ho->name, ho->uri, virGetLastErrorMessage());
			ret = -EIO;
		}
	}
	lv->connected = ret == 0;
	return ret;
}

/* Target path of a pool, from its XML (<target><path>...</path>). */
static char *pool_path(virStoragePoolPtr pool)
{
	char *xml = virStoragePoolGetXMLDesc(pool, 0), *path = NULL;
	const char *tg, *p, *e;

	if (!xml)
		return NULL;
	if ((tg = strstr(xml, "<target>")) && (p = strstr(tg, "<path>")) && (e = strstr(p, "</path>"))) {
		p += strlen("<path>");
		path = xmalloc((size_t)(e - p) + 1);
		memcpy(path, p, (size_t)(e - p));
		path[e - p] = '\0';
	}
	free(xml);
	return path;
}

static int resolve_pool(struct target *t, size_t d)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_drive *ld = &lv->drives[d];
	const struct campaign_drive *dr = &cfg->drives[d];
	virConnectPtr conn = ld->host->conn;
	virStoragePoolPtr *pools = NULL, pool = NULL;
	struct strbuf sb;
	int n, ret = 0;

	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "dbrig-%s-%s", cfg->name, dr->name);
	free(ld->pool);
	ld->pool = NULL;
	if (dr->pool) {
		ld->pool = xstrdup(dr->pool);
		if (!conn)
			goto out;
		pool = virStoragePoolLookupByName(conn, dr->pool);
		if (!pool) {
			log_error("drive %s: host %s (%s) has no storage pool \"%s\": %s (expected an existing pool)",
				  dr->name, ld->host->name, ld->host->uri, dr->pool, virGetLastErrorMessage());
			ret = -EINVAL;
			goto out;
		}
		ld->pool_exists = true;
		goto out;
	}
	if (!conn) {
		ld->pool = strbuf_detach(&sb);
		ld->pool_ours = true;
		goto out;
	}
	/* A pool already on the path, ours (by name) or the lab's: use it, never remove the lab's. */
	n = virConnectListAllStoragePools(conn, &pools, 0);
	if (n < 0) {
		vir_fail(ld->host->uri, "virConnectListAllStoragePools");
		ret = -EIO;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char *path = ld->pool ? NULL : pool_path(pools[i]);
		if (path && !strcmp(path, dr->path)) {
			ld->pool = xstrdup(virStoragePoolGetName(pools[i]));
			ld->pool_ours = !strcmp(ld->pool, sb.buf);
			ld->pool_exists = true;
		}
		free(path);
		virStoragePoolFree(pools[i]);
	}
	free(pools);
	if (ld->pool)
		goto out;
	pool = virStoragePoolLookupByName(conn, sb.buf);
	if (pool) {
		log_error("drive %s: host %s already has a pool \"%s\" on another path (expected it on %s)", dr->name,
			  ld->host->name, sb.buf, dr->path);
		ret = -EEXIST;
		goto out;
	}
	if (!setting_num(cfg, "create_pools")) {
		log_error("drive %s: host %s has no storage pool on %s (expected a dir pool there, or "
			  "\"create_pools\": true in .target)", dr->name, ld->host->name, dr->path);
		ret = -EINVAL;
		goto out;
	}
	ld->pool = strbuf_detach(&sb);
	ld->pool_ours = true;
out:
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&sb);
	return ret;
}

static int libvirt_preflight(struct target *t, struct target_instance *insts, size_t n)
{
	struct lv *lv = t->priv;
	int ret;

	lv->insts = insts;
	lv->ninsts = n;
	if ((ret = connect_hosts(t)) < 0)
		return ret;
	for (size_t d = 0; d < t->cfg->ndrives; d++)
		if ((ret = resolve_pool(t, d)) < 0)
			return ret;
	for (size_t i = 0; i < n; i++)
		inst_priv(t, &insts[i]);
	return 0;
}

/* ---- create ---- */

static void dry_print(const char *host, const char *action, const char *name, const char *xml)
{
	printf("<!-- %s: %s %s -->\n%s%s", host, action, name, xml, xml[0] && xml[strlen(xml) - 1] == '\n' ? "" : "\n");
}

static int ensure_pool(struct target *t, size_t d)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_drive *ld = &lv->drives[d];
	virStoragePoolPtr pool = NULL;
	struct strbuf xml;
	int ret;

	if (ld->pool_exists)
		return 0;
	strbuf_init(&xml, 0);
	if ((ret = vm_render_pool(lv->tmpl_dir, ld->pool, cfg->drives[d].path, &xml)) < 0)
		goto out;
	if (lv->dry_run) {
		dry_print(ld->host->uri, "define, build and start pool", ld->pool, xml.buf);
		ld->pool_exists = true;
		goto out;
	}
	ret = -EIO;
	pool = virStoragePoolDefineXML(ld->host->conn, xml.buf, 0);
	if (!pool) {
		vir_fail(ld->pool, "virStoragePoolDefineXML");
		goto out;
	}
	ld->pool_exists = ld->pool_created = true;
	if (virStoragePoolBuild(pool, 0) < 0) {
		vir_fail(ld->pool, "virStoragePoolBuild");
		goto out;
	}
	if (virStoragePoolCreate(pool, 0) < 0) {
		vir_fail(ld->pool, "virStoragePoolCreate");
		goto out;
	}
	log_info("drive %s: created pool %s on %s (host %s)", cfg->drives[d].name, ld->pool, cfg->drives[d].path,
		 ld->host->name);
	ret = 0;
out:
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&xml);
	return ret;
}

static void fill_spec(struct target *t, struct target_instance *inst, const char *golden, struct vm_spec *s)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	const char *fmt = setting_str(cfg, "disk_format");

	memset(s, 0, sizeof(*s));
	s->name = li->dom;
	s->campaign = cfg->name;
	s->drive = cfg->drives[inst->drive].name;
	s->instance = inst->name;
	s->golden = golden;
	s->domain_type = setting_str(cfg, "domain_type");
	s->vcpus = (unsigned)setting_num(cfg, "vcpus");
	s->memory_kib = setting_num(cfg, "memory") / 1024;
	s->controller = lv->controller;
	s->pool = ld->pool;
	for (int d = 0; d < VM_DISKS; d++)
		s->vol[d] = li->vol[d];
	if (!setting_num(cfg, "cloud_init"))
		s->vol[VMD_SEED] = NULL;
	s->vol_format[VMD_BOOT] = "qcow2";
	s->vol_format[VMD_PREBUILT] = fmt;
	s->vol_format[VMD_UNDERTEST] = fmt;
	s->vol_format[VMD_SEED] = "raw";
	s->cache = setting_str(cfg, "disk_cache");
	s->iotune = ld->has_iotune ? &ld->iotune : NULL;
	s->nic = lv->nic;
	s->network = setting_str(cfg, "network");
	vm_mac(cfg->name, inst->index, s->mac);
	s->fwd_port = li->fwd_port;
	s->guest_port = (unsigned)setting_num(cfg, "db_port");
	s->kernel = setting_str(cfg, "kernel");
	s->initrd = setting_str(cfg, "initrd");
	s->cmdline = s->kernel ? setting_str(cfg, "cmdline") : NULL;
}

static uint64_t vol_size(const struct campaign_config *cfg, int role)
{
	switch ((enum vm_disk_role)role) {
	case VMD_BOOT:
		return setting_num(cfg, "boot_size");
	case VMD_PREBUILT:
		return setting_num(cfg, "prebuilt_size");
	case VMD_UNDERTEST:
		return setting_num(cfg, "under_test_size");
	case VMD_SEED:
		return 0;
	}
	return 0;
}

static void engine_packages(const struct campaign_config *cfg, struct strbuf *sb)
{
	switch (cfg->engine) {
	case ENGINE_MARIADB:
		strbuf_adds(sb, "mariadb-server");
		break;
	case ENGINE_PERCONA:
		strbuf_adds(sb, "percona-server-server");
		break;
	case ENGINE_MYSQL:
		strbuf_adds(sb, "mysql-server");
		break;
	case ENGINE_POSTGRESQL:
		strbuf_adds(sb, "postgresql");
		break;
	case ENGINE_SQLSERVER:
		strbuf_adds(sb, "mssql-server mssql-tools18");
		break;
	}
	strbuf_adds(sb, " qemu-guest-agent");
}

static int render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud,
		       struct strbuf *md, struct strbuf *sh)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct strbuf host, pk, so;
	int ret;

	strbuf_init(&host, 0);
	strbuf_init(&pk, 0);
	strbuf_init(&so, 0);
	strbuf_addf(&host, "%.50s-%s", cfg->drives[inst->drive].name, inst->name);
	for (char *p = host.buf; *p; p++)
		if (*p == '.' || *p == '_')
			*p = '-';
	engine_packages(cfg, &pk);
	for (size_t i = 0; i < cfg->nserver_options; i++)
		strbuf_addf(&so, "%s = %s\n", cfg->server_options[i].key, cfg->server_options[i].value);
	struct vm_seed s = {
		.name = li->dom,
		.hostname = host.buf,
		.campaign = cfg->name,
		.drive = cfg->drives[inst->drive].name,
		.instance = inst->name,
		.packages = strcmp(setting_str(cfg, "guest_packages"), "preinstalled") ? pk.buf : NULL,
		.ssh_key = setting_str(cfg, "ssh_key"),
		.db_user = setting_str(cfg, "db_user"),
		.db_password = mask ? "********" : setting_str(cfg, "db_password"),
		.db_port = (unsigned)setting_num(cfg, "db_port"),
		.buffer_pool = cfg->buffer_pool,
		.server_options = so.buf,
	};
	ret = vm_render_seed(lv->tmpl_dir, lv->template, &s, ud, md, sh);
	strbuf_release(&host);
	strbuf_release(&pk);
	strbuf_release(&so);
	return ret;
}

struct upload {
	int fd;
};

static int upload_source(virStreamPtr st, char *data, size_t nbytes, void *opaque)
{
	struct upload *u = opaque;

	(void)st;
	return (int)read(u->fd, data, nbytes);
}

static int write_text(const char *dir, const char *name, const struct strbuf *sb)
{
	struct strbuf p;
	int ret;

	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s/%s", dir, name);
	ret = atomic_write_file(p.buf, sb->buf, sb->len);
	strbuf_release(&p);
	return ret;
}

/* The NoCloud ISO (volume id cidata) built here with genisoimage, uploaded into the pool. */
static int make_seed(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, virStorageVolPtr *out)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct strbuf ud, md, sh, iso, xml, err;
	char dir[] = "/tmp/dbrig-seed.XXXXXX", what[200];
	virStreamPtr st = NULL;
	virStorageVolPtr vol = NULL;
	struct upload u = {.fd = -1};
	struct stat stt;
	bool made = false;
	int ret, status = 0;

	strbuf_init(&ud, 0);
	strbuf_init(&md, 0);
	strbuf_init(&sh, 0);
	strbuf_init(&iso, 0);
	strbuf_init(&xml, 0);
	strbuf_init(&err, 0);
	what_inst(t, inst, what, sizeof(what));
	if ((ret = render_seed(t, inst, false, &ud, &md, &sh)) < 0)
		goto out;
	if (!mkdtemp(dir)) {
		ret = -errno;
		log_error("%s: cannot create a folder for the seed ISO: %s", what, strerror(errno));
		goto out;
	}
	made = true;
	if ((ret = write_text(dir, "user-data", &ud)) < 0 || (ret = write_text(dir, "meta-data", &md)) < 0 ||
	    (ret = write_text(dir, "dbrig-setup.sh", &sh)) < 0) {
		log_error("%s: cannot write the seed files in %s: %s", what, dir, strerror(-ret));
		goto out;
	}
	strbuf_addf(&iso, "%s/seed.iso", dir);
	{
		char *prog = proc_find_program("genisoimage", NULL);
		char ud_p[300], md_p[300], sh_p[300];
		snprintf(ud_p, sizeof(ud_p), "%s/user-data", dir);
		snprintf(md_p, sizeof(md_p), "%s/meta-data", dir);
		snprintf(sh_p, sizeof(sh_p), "%s/dbrig-setup.sh", dir);
		char *argv[] = {prog, "-quiet", "-output", iso.buf, "-volid", "cidata", "-joliet", "-rock",
				ud_p, md_p, sh_p, NULL};
		if (!prog) {
			log_error("%s: genisoimage is not installed (expected it in PATH to make the cloud-init seed; "
				  "apt-get install genisoimage, or \"cloud_init\": false)", what);
			ret = -ENOENT;
			goto out;
		}
		struct proc_spec spec = {.argv = argv};
		ret = proc_run(&spec, NULL, &status);
		free(prog);
		if (ret < 0) {
			proc_describe_status(status, &err);
			log_error("%s: genisoimage %s", what, err.buf);
			goto out;
		}
	}
	u.fd = open(iso.buf, O_RDONLY | O_CLOEXEC);
	if (u.fd < 0 || fstat(u.fd, &stt) < 0) {
		ret = -errno;
		log_error("%s: cannot read %s: %s", what, iso.buf, strerror(errno));
		goto out;
	}
	if ((ret = vm_render_volume(lv->tmpl_dir, li->vol[VMD_SEED], (uint64_t)stt.st_size, "raw", NULL, NULL, &xml)) < 0)
		goto out;
	ret = -EIO;
	vol = virStorageVolCreateXML(pool, xml.buf, 0);
	if (!vol) {
		vir_fail(what, "virStorageVolCreateXML (seed)");
		goto out;
	}
	li->vol_created[VMD_SEED] = true;
	st = virStreamNew(lv->drives[inst->drive].host->conn, 0);
	if (!st) {
		vir_fail(what, "virStreamNew");
		goto out;
	}
	if (virStorageVolUpload(vol, st, 0, (unsigned long long)stt.st_size, 0) < 0) {
		vir_fail(what, "virStorageVolUpload");
		goto out;
	}
	if (virStreamSendAll(st, upload_source, &u) < 0) {
		vir_fail(what, "virStreamSendAll");
		virStreamAbort(st);
		goto out;
	}
	if (virStreamFinish(st) < 0) {
		vir_fail(what, "virStreamFinish");
		goto out;
	}
	*out = vol;
	vol = NULL;
	ret = 0;
out:
	if (u.fd >= 0)
		close(u.fd);
	if (st)
		virStreamFree(st);
	if (vol)
		virStorageVolFree(vol);
	if (made) {
		const char *files[] = {"user-data", "meta-data", "dbrig-setup.sh", "seed.iso"};
		for (size_t i = 0; i < 4; i++) {
			strbuf_reset(&err);
			strbuf_addf(&err, "%s/%s", dir, files[i]);
			unlink(err.buf);
		}
		rmdir(dir);
	}
	strbuf_release(&ud);
	strbuf_release(&md);
	strbuf_release(&sh);
	strbuf_release(&iso);
	strbuf_release(&xml);
	strbuf_release(&err);
	return ret;
}

static int create_volume(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, int role)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	const char *base = setting_str(cfg, "base_image");
	bool copy = role == VMD_BOOT && base && !strcmp(setting_str(cfg, "boot_mode"), "copy");
	const char *fmt = role == VMD_BOOT ? "qcow2" : setting_str(cfg, "disk_format");
	virStorageVolPtr vol = NULL, src = NULL;
	struct strbuf xml;
	char what[200];
	int ret;

	what_inst(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	if (role == VMD_SEED && !lv->dry_run) {
		ret = make_seed(t, inst, pool, &vol);
		goto out;
	}
	if (role == VMD_SEED) {
		struct strbuf md, sh;
		strbuf_init(&md, 0);
		strbuf_init(&sh, 0);
		ret = render_seed(t, inst, true, &xml, &md, &sh);
		if (ret == 0) {
			printf("# %s: seed ISO %s (cidata, made with genisoimage and uploaded), user-data:\n%s", lv->drives[inst->drive].host->uri,
			       li->vol[VMD_SEED], xml.buf);
			printf("# meta-data:\n%s# dbrig-setup.sh:\n%s", md.buf, sh.buf);
		}
		strbuf_release(&md);
		strbuf_release(&sh);
		goto out;
	}
	ret = vm_render_volume(lv->tmpl_dir, li->vol[role], vol_size(cfg, role), fmt,
			       role == VMD_BOOT && base && !copy ? base : NULL, "qcow2", &xml);
	if (ret < 0)
		goto out;
	if (lv->dry_run) {
		dry_print(lv->drives[inst->drive].host->uri, copy ? "clone base image into volume" : "create volume",
			  li->vol[role], xml.buf);
		goto out;
	}
	ret = -EIO;
	if (copy) {
		src = virStorageVolLookupByPath(lv->drives[inst->drive].host->conn, base);
		if (!src) {
			log_error("%s: base_image %s is not a volume of a pool on host %s: %s (expected it in a pool "
				  "with boot_mode \"copy\")", what, base, lv->drives[inst->drive].host->name,
				  virGetLastErrorMessage());
			goto out;
		}
		vol = virStorageVolCreateXMLFrom(pool, xml.buf, src, 0);
	} else {
		vol = virStorageVolCreateXML(pool, xml.buf, 0);
	}
	if (!vol) {
		vir_fail(what, copy ? "virStorageVolCreateXMLFrom" : "virStorageVolCreateXML");
		goto out;
	}
	li->vol_created[role] = true;
	ret = 0;
out:
	if (src)
		virStorageVolFree(src);
	if (vol)
		virStorageVolFree(vol);
	strbuf_release(&xml);
	return ret;
}

static int libvirt_create(struct target *t, struct target_instance *inst)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	virDomainPtr dom = NULL;
	virStoragePoolPtr pool = NULL;
	struct vm_spec spec;
	struct strbuf xml;
	char what[200];
	bool foreign = false, offline = lv->dry_run && !ld->host->conn;
	int ret;

	what_inst(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	if ((ret = ensure_pool(t, inst->drive)) < 0)
		goto out;
	if (!offline && (ret = lookup_dom(t, inst, &dom, &foreign)) < 0)
		goto out;
	if (foreign) {
		log_error("%s: host %s already has a domain named %s that dbrig did not create for this campaign (no "
			  "matching dbrig metadata); rename or remove it, dbrig will not reuse it", what, ld->host->name,
			  li->dom);
		ret = -EEXIST;
		goto out;
	}
	if (!offline) {
		pool = virStoragePoolLookupByName(ld->host->conn, ld->pool);
		if (!pool && !lv->dry_run) {
			vir_fail(what, "virStoragePoolLookupByName");
			ret = -EIO;
			goto out;
		}
	}
	for (int d = 0; d < VM_DISKS; d++) {
		virStorageVolPtr v = NULL;
		int err = 0;
		if (d == VMD_SEED && !setting_num(cfg, "cloud_init"))
			continue;
		if (pool) {
			v = virStorageVolLookupByName(pool, li->vol[d]);
			if (!v) {
				virErrorPtr e = virGetLastError();
				if (!(e && e->code == VIR_ERR_NO_STORAGE_VOL)) {
					vir_fail(what, "virStorageVolLookupByName");
					err = -EIO;
				}
			}
		}
		if (v) {
			/* Named with this VM's prefix: made by dbrig for it, kept. */
			virStorageVolFree(v);
			continue;
		}
		if (err < 0 || (ret = create_volume(t, inst, pool, d)) < 0) {
			ret = err < 0 ? err : ret;
			goto out;
		}
	}
	if (dom) {
		log_info("%s: domain %s already provisioned on host %s", what, li->dom, ld->host->name);
		inst->created = true;
		goto out;
	}
	fill_spec(t, inst, NULL, &spec);
	if ((ret = vm_render_domain(lv->tmpl_dir, lv->template, &spec, &xml)) < 0)
		goto out;
	if (lv->dry_run) {
		dry_print(ld->host->uri, "define domain", li->dom, xml.buf);
		goto out;
	}
	dom = virDomainDefineXML(ld->host->conn, xml.buf);
	if (!dom) {
		vir_fail(what, "virDomainDefineXML");
		ret = -EIO;
		goto out;
	}
	li->dom_created = true;
	inst->created = true;
	log_info("%s: defined %s on host %s (pool %s)", what, li->dom, ld->host->name, ld->pool);
out:
	if (dom)
		virDomainFree(dom);
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&xml);
	return ret;
}

/* ---- removal ---- */

static int delete_vol(struct target *t, size_t drive, const char *name, const char *what)
{
	virStorageVolPtr vol;
	int err, ret = 0;

	vol = lookup_vol(t, drive, name, &err);
	if (!vol)
		return err;
	if (virStorageVolDelete(vol, 0) < 0) {
		vir_fail(what, "virStorageVolDelete");
		ret = -EIO;
	}
	virStorageVolFree(vol);
	return ret;
}

static int remove_pool(struct target *t, size_t d)
{
	struct lv *lv = t->priv;
	struct lv_drive *ld = &lv->drives[d];
	virStoragePoolPtr pool;
	int n, ret = 0;

	pool = virStoragePoolLookupByName(ld->host->conn, ld->pool);
	if (!pool)
		return 0;
	if (virStoragePoolRefresh(pool, 0) < 0) {
		/* an inactive pool has nothing to refresh */
	}
	n = virStoragePoolNumOfVolumes(pool);
	if (n > 0) {
		log_warn("drive %s: pool %s still holds %d volume(s) dbrig did not make; kept", t->cfg->drives[d].name,
			 ld->pool, n);
		goto out;
	}
	if (virStoragePoolIsActive(pool) == 1 && virStoragePoolDestroy(pool) < 0) {
		vir_fail(ld->pool, "virStoragePoolDestroy");
		ret = -EIO;
		goto out;
	}
	if (virStoragePoolUndefine(pool) < 0) {
		vir_fail(ld->pool, "virStoragePoolUndefine");
		ret = -EIO;
		goto out;
	}
	ld->pool_exists = false;
	log_info("drive %s: removed pool %s", t->cfg->drives[d].name, ld->pool);
out:
	virStoragePoolFree(pool);
	return ret;
}

static int undefine(virDomainPtr dom, const char *what)
{
	if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0) {
		vir_fail(what, "virDomainDestroy");
		return -EIO;
	}
	if (virDomainUndefineFlags(dom, VIR_DOMAIN_UNDEFINE_MANAGED_SAVE | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA) < 0) {
		vir_fail(what, "virDomainUndefineFlags");
		return -EIO;
	}
	return 0;
}

static int libvirt_rollback(struct target *t, struct target_instance *insts, size_t n)
{
	struct lv *lv = t->priv;
	int ret = 0;

	if (lv->dry_run)
		return 0;
	for (size_t i = n; i-- > 0;) {
		struct lv_inst *li = insts[i].priv;
		char what[200];
		if (!li)
			continue;
		what_inst(t, &insts[i], what, sizeof(what));
		if (li->dom_created) {
			virDomainPtr dom = virDomainLookupByName(conn_of(t, insts[i].drive), li->dom);
			if (!dom || undefine(dom, what) < 0)
				ret = -EIO;
			if (dom)
				virDomainFree(dom);
			li->dom_created = false;
			insts[i].created = false;
		}
		for (int d = VM_DISKS; d-- > 0;) {
			if (li->vol_created[d] && delete_vol(t, insts[i].drive, li->vol[d], what) < 0)
				ret = -EIO;
			li->vol_created[d] = false;
		}
	}
	for (size_t d = 0; d < t->cfg->ndrives; d++)
		if (lv->drives[d].pool_created && remove_pool(t, d) < 0)
			ret = -EIO;
	return ret;
}

static int libvirt_destroy(struct target *t, struct target_instance *inst)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	virDomainPtr dom = NULL;
	bool foreign = false;
	char what[200];
	int ret;

	what_inst(t, inst, what, sizeof(what));
	if (lv->dry_run) {
		printf("<!-- %s: destroy and undefine domain %s; delete volumes", ld->host->uri, li->dom);
		for (int d = 0; d < VM_DISKS; d++)
			printf(" %s", li->vol[d]);
		printf(" -->\n");
		return 0;
	}
	if ((ret = lookup_dom(t, inst, &dom, &foreign)) < 0)
		return ret;
	if (foreign) {
		log_warn("%s: domain %s on host %s is not dbrig's (no matching metadata); left alone", what, li->dom,
			 ld->host->name);
	} else if (dom) {
		ret = undefine(dom, what);
		virDomainFree(dom);
		if (ret < 0)
			return ret;
	}
	for (int d = 0; d < VM_DISKS && !foreign; d++)
		if ((ret = delete_vol(t, inst->drive, li->vol[d], what)) < 0)
			return ret;
	inst->created = false;
	inst->running = false;
	log_info("%s: removed %s and its volumes", what, li->dom);
	if (++ld->destroyed == campaign_drive_instances(t->cfg, inst->drive) && ld->pool_ours)
		return remove_pool(t, inst->drive);
	return 0;
}

/* ---- run time: stop, start, readiness, restore, golden copy ---- */

static int dom_state(virDomainPtr dom)
{
	int state = 0, reason = 0;

	if (virDomainGetState(dom, &state, &reason, 0) < 0)
		return -1;
	return state;
}

static int get_dom(struct target *t, struct target_instance *inst, virDomainPtr *out)
{
	struct lv_inst *li = inst_priv(t, inst);
	bool foreign;
	char what[200];
	int ret;

	what_inst(t, inst, what, sizeof(what));
	if ((ret = lookup_dom(t, inst, out, &foreign)) < 0)
		return ret;
	if (!*out) {
		log_error("%s: domain %s %s (expected dbrig provision first)", what, li->dom,
			  foreign ? "is not dbrig's" : "does not exist");
		return -ENOENT;
	}
	return 0;
}

static int libvirt_stop(struct target *t, struct target_instance *inst)
{
	virDomainPtr dom = NULL;
	char what[200];
	uint64_t deadline;
	int ret;

	what_inst(t, inst, what, sizeof(what));
	if (((struct lv *)t->priv)->dry_run)
		return 0;
	if ((ret = get_dom(t, inst, &dom)) < 0)
		return ret;
	ret = 0;
	if (virDomainIsActive(dom) != 1)
		goto out;
	deadline = clock_now_ns() + setting_num(t->cfg, "stop_timeout");
	if (virDomainShutdownFlags(dom, VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN | VIR_DOMAIN_SHUTDOWN_GUEST_AGENT) < 0 &&
	    virDomainShutdown(dom) < 0) {
		log_warn("%s: clean shutdown refused (%s); powering off", what, virGetLastErrorMessage());
		deadline = 0;
	}
	while (dom_state(dom) != VIR_DOMAIN_SHUTOFF && clock_now_ns() < deadline) {
		struct timespec ts = {0, 250000000};
		nanosleep(&ts, NULL);
	}
	if (dom_state(dom) != VIR_DOMAIN_SHUTOFF) {
		if (deadline)
			log_warn("%s: no clean shutdown within stop_timeout; powering off", what);
		if (virDomainDestroy(dom) < 0) {
			vir_fail(what, "virDomainDestroy");
			ret = -EIO;
			goto out;
		}
	}
	inst->running = false;
	log_info("%s: stopped", what);
out:
	virDomainFree(dom);
	return ret;
}

/* The guest's IPv4 address on the NIC with its MAC: DHCP lease, then guest agent. */
static int guest_addr(virDomainPtr dom, const char *mac, char *buf, size_t n)
{
	static const unsigned srcs[] = {VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_LEASE, VIR_DOMAIN_INTERFACE_ADDRESSES_SRC_AGENT};

	buf[0] = '\0';
	for (size_t s = 0; s < 2 && !buf[0]; s++) {
		virDomainInterfacePtr *ifs = NULL;
		int nif = virDomainInterfaceAddresses(dom, &ifs, srcs[s], 0);
		for (int i = 0; i < nif; i++) {
			for (unsigned a = 0; a < ifs[i]->naddrs && !buf[0]; a++)
				if (ifs[i]->hwaddr && !strcasecmp(ifs[i]->hwaddr, mac) &&
				    ifs[i]->addrs[a].type == VIR_IP_ADDR_TYPE_IPV4)
					snprintf(buf, n, "%s", ifs[i]->addrs[a].addr);
			virDomainInterfaceFree(ifs[i]);
		}
		free(ifs);
	}
	return buf[0] ? 0 : -EAGAIN;
}

/* A MySQL/MariaDB server answers a connect with its handshake (protocol 10). */
static int db_answers(const char *host, unsigned port, struct strbuf *why)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	unsigned char buf[5];
	struct pollfd pfd;
	int fd, ret = -EAGAIN;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		strbuf_addf(why, "\"%s\" is not an IPv4 address", host);
		return -EINVAL;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		strbuf_addf(why, "connect to %s:%u: %s", host, port, strerror(errno));
		goto out;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1 || read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		strbuf_addf(why, "%s:%u accepted the connection but sent no server greeting", host, port);
		goto out;
	}
	/* An error packet (0xff) instead: e.g. "host not allowed" while the guest's setup has not
	 * created the driver's user yet; not ready. */
	if (buf[4] != 10) {
		strbuf_addf(why, "%s:%u %s", host, port, buf[4] == 0xff ? "refused the connection with an error "
			    "(the guest setup has not created the driver's user yet?)" : "answered with something else than a MySQL greeting");
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

static int probe(struct target *t, struct target_instance *inst, virDomainPtr dom, bool check_db, struct strbuf *why)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	const char *host = "127.0.0.1";
	unsigned port = li->fwd_port;
	char mac[18];

	if (lv->nic == VMNIC_NETWORK) {
		vm_mac(t->cfg->name, inst->index, mac);
		if (guest_addr(dom, mac, li->addr, sizeof(li->addr)) < 0) {
			strbuf_addf(why, "no address for MAC %s yet (DHCP lease or guest agent)", mac);
			return -EAGAIN;
		}
		host = li->addr;
		port = (unsigned)setting_num(t->cfg, "db_port");
	} else {
		snprintf(li->addr, sizeof(li->addr), "%s", host);
	}
	if (!check_db)
		return 0;
	return db_answers(host, port, why);
}

static int wait_ready(struct target *t, struct target_instance *inst, virDomainPtr dom)
{
	uint64_t deadline = clock_now_ns() + setting_num(t->cfg, "ready_timeout");
	bool check_db = setting_num(t->cfg, "wait_database");
	struct strbuf why;
	char what[200], d[32];
	int ret;

	strbuf_init(&why, 0);
	what_inst(t, inst, what, sizeof(what));
	for (;;) {
		strbuf_reset(&why);
		ret = probe(t, inst, dom, check_db, &why);
		if (ret == 0 || ret == -EINVAL)
			break;
		if (dom_state(dom) != VIR_DOMAIN_RUNNING) {
			log_error("%s: the VM stopped while booting (state %d); see its console log on the host", what,
				  dom_state(dom));
			ret = -EIO;
			break;
		}
		if (clock_now_ns() > deadline) {
			format_duration(setting_num(t->cfg, "ready_timeout"), d, sizeof(d));
			log_error("%s: not ready within ready_timeout %s (last: %s)", what, d, why.buf);
			ret = -ETIMEDOUT;
			break;
		}
		sleep(1);
	}
	strbuf_release(&why);
	return ret;
}

static int libvirt_start(struct target *t, struct target_instance *inst)
{
	virDomainPtr dom = NULL;
	char what[200];
	uint64_t t0 = clock_now_ns();
	int ret;

	if (((struct lv *)t->priv)->dry_run)
		return 0;
	what_inst(t, inst, what, sizeof(what));
	if ((ret = get_dom(t, inst, &dom)) < 0)
		return ret;
	if (virDomainIsActive(dom) != 1 && virDomainCreate(dom) < 0) {
		vir_fail(what, "virDomainCreate");
		ret = -EIO;
		goto out;
	}
	inst->running = true;
	if ((ret = wait_ready(t, inst, dom)) == 0)
		log_info("%s: ready at %s:%u after %.1f s", what, ((struct lv_inst *)inst->priv)->addr,
			 ((struct lv *)t->priv)->nic == VMNIC_NETWORK ? (unsigned)setting_num(t->cfg, "db_port")
								     : ((struct lv_inst *)inst->priv)->fwd_port,
			 (double)(clock_now_ns() - t0) / 1e9);
out:
	virDomainFree(dom);
	return ret;
}

static int libvirt_endpoint(struct target *t, struct target_instance *inst, struct target_endpoint *ep)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	virDomainPtr dom = NULL;
	struct strbuf why;
	int ret = 0;

	memset(ep, 0, sizeof(*ep));
	strbuf_init(&why, 0);
	if (lv->nic == VMNIC_NETWORK && !li->addr[0]) {
		if ((ret = get_dom(t, inst, &dom)) < 0)
			goto out;
		if ((ret = probe(t, inst, dom, false, &why)) < 0) {
			char what[200];
			what_inst(t, inst, what, sizeof(what));
			log_error("%s: %s", what, why.buf);
			goto out;
		}
	}
	ep->host = lv->nic == VMNIC_NETWORK ? li->addr : "127.0.0.1";
	ep->port = lv->nic == VMNIC_NETWORK ? (unsigned)setting_num(t->cfg, "db_port") : li->fwd_port;
	ep->user = setting_str(t->cfg, "db_user");
	ep->password = setting_str(t->cfg, "db_password");
	ep->database = "sbtest";
out:
	if (dom)
		virDomainFree(dom);
	strbuf_release(&why);
	return ret;
}

/* dst <- clone of src (both in the drive's pool); dst is removed first. */
static int clone_vol(struct target *t, struct target_instance *inst, int dst_role, const char *src_name)
{
	const struct campaign_config *cfg = t->cfg;
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	virStoragePoolPtr pool = NULL;
	virStorageVolPtr src = NULL, vol = NULL;
	struct strbuf xml;
	char what[200];
	int ret;

	what_inst(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	if ((ret = delete_vol(t, inst->drive, li->vol[dst_role], what)) < 0)
		goto out;
	ret = -EIO;
	pool = virStoragePoolLookupByName(conn_of(t, inst->drive), lv->drives[inst->drive].pool);
	if (!pool) {
		vir_fail(what, "virStoragePoolLookupByName");
		goto out;
	}
	src = virStorageVolLookupByName(pool, src_name);
	if (!src) {
		vir_fail(what, "virStorageVolLookupByName");
		goto out;
	}
	if ((ret = vm_render_volume(lv->tmpl_dir, li->vol[dst_role], vol_size(cfg, dst_role),
				    setting_str(cfg, "disk_format"), NULL, NULL, &xml)) < 0)
		goto out;
	ret = -EIO;
	vol = virStorageVolCreateXMLFrom(pool, xml.buf, src, 0);
	if (!vol) {
		vir_fail(what, "virStorageVolCreateXMLFrom");
		goto out;
	}
	ret = 0;
out:
	if (vol)
		virStorageVolFree(vol);
	if (src)
		virStorageVolFree(src);
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&xml);
	return ret;
}

static int libvirt_restore(struct target *t, struct target_instance *inst)
{
	struct lv_inst *li = inst_priv(t, inst);
	char what[200];
	int ret;

	if (((struct lv *)t->priv)->dry_run)
		return 0;
	what_inst(t, inst, what, sizeof(what));
	if ((ret = clone_vol(t, inst, VMD_UNDERTEST, li->vol[VMD_PREBUILT])) == 0)
		log_info("%s: under-test restored from pre-built", what);
	return ret;
}

static void golden_text(const struct campaign_config *cfg, struct strbuf *fp)
{
	strbuf_addf(fp, "%s %s tables=%u table_size=%" PRIu64, workload_kind_name(cfg->workload),
		    cfg->test ? cfg->test : "-", cfg->tables, cfg->table_size);
}

static int run_prepare(struct target *t, struct target_instance *inst, const char *what)
{
	const struct campaign_config *cfg = t->cfg;
	struct target_endpoint ep;
	struct strbuf host, port, user, thr, opt, logp, st;
	char *argv[80];
	size_t n = 0;
	int ret, status = 0;

	if ((ret = libvirt_endpoint(t, inst, &ep)) < 0)
		return ret;
	strbuf_init(&host, 0);
	strbuf_init(&port, 0);
	strbuf_init(&user, 0);
	strbuf_init(&thr, 0);
	strbuf_init(&opt, 0);
	strbuf_init(&logp, 0);
	strbuf_init(&st, 0);
	strbuf_addf(&host, "--mysql-host=%s", ep.host);
	strbuf_addf(&port, "--mysql-port=%u", ep.port);
	strbuf_addf(&user, "--mysql-user=%s", ep.user);
	strbuf_addf(&thr, "--threads=%u", cfg->tables < cfg->threads ? cfg->tables : cfg->threads);
	argv[n++] = (char *)t->dbrig_exe;
	argv[n++] = "sysbench";
	argv[n++] = "--db-driver=mysql";
	argv[n++] = host.buf;
	argv[n++] = port.buf;
	argv[n++] = user.buf;
	argv[n++] = "--mysql-db=sbtest";
	argv[n++] = thr.buf;
	for (size_t i = 0; i < cfg->nwl_options; i++)
		strbuf_addf(&opt, "--%s=%s%c", cfg->wl_options[i].key, cfg->wl_options[i].value, '\0');
	for (size_t i = 0, off = 0; i < cfg->nwl_options && n < 75; i++) {
		argv[n++] = opt.buf + off;
		off += strlen(opt.buf + off) + 1;
	}
	argv[n++] = cfg->test;
	argv[n++] = "prepare";
	argv[n] = NULL;
	strbuf_addf(&logp, "%s/%s/golden-%s.log", cfg->output, cfg->name, cfg->drives[inst->drive].name);
	{
		char *slash = strrchr(logp.buf, '/');
		*slash = '\0';
		ret = mkdir_p(logp.buf, 0755);
		*slash = '/';
	}
	log_info("%s: loading %u table(s) of %" PRIu64 " rows for the golden copy (log %s)", what, cfg->tables,
		 cfg->table_size, logp.buf);
	struct proc_spec spec = {.argv = argv, .log_path = ret == 0 ? logp.buf : NULL, .mysql_pwd = ep.password,
				 .new_group = true};
	ret = proc_run(&spec, NULL, &status);
	if (ret < 0) {
		proc_describe_status(status, &st);
		strbuf_addf(&st, " (see %s)", logp.buf);
		proc_add_log_tail(logp.buf, &st);
		log_error("%s: dbrig sysbench prepare %s", what, st.buf);
	}
	strbuf_release(&host);
	strbuf_release(&port);
	strbuf_release(&user);
	strbuf_release(&thr);
	strbuf_release(&opt);
	strbuf_release(&logp);
	strbuf_release(&st);
	return ret;
}

static int libvirt_golden(struct target *t, size_t drive, struct strbuf *fp)
{
	struct lv *lv = t->priv;
	struct target_instance *first = NULL;
	virDomainPtr dom = NULL;
	char *golden = NULL, what[200];
	struct strbuf meta;
	int ret;

	strbuf_init(&meta, 0);
	golden_text(t->cfg, fp);
	if (lv->dry_run)
		goto done;
	for (size_t i = 0; i < lv->ninsts && !first; i++)
		if (lv->insts[i].drive == drive)
			first = &lv->insts[i];
	if (!first) {
		ret = 0;
		goto out;
	}
	what_inst(t, first, what, sizeof(what));
	if ((ret = get_dom(t, first, &dom)) < 0)
		goto out;
	if (owned(dom, t, first, &golden) == 1 && golden && !strcmp(golden, fp->buf)) {
		log_info("drive %s: golden copy already complete (%s)", t->cfg->drives[drive].name, golden);
		goto done;
	}
	/* Loaded from nothing: a fresh under-test disk, formatted by the guest at boot. */
	if ((ret = libvirt_stop(t, first)) < 0 || (ret = delete_vol(t, drive, inst_priv(t, first)->vol[VMD_UNDERTEST], what)) < 0)
		goto out;
	{
		virStoragePoolPtr pool = virStoragePoolLookupByName(conn_of(t, drive), lv->drives[drive].pool);
		if (!pool) {
			vir_fail(what, "virStoragePoolLookupByName");
			ret = -EIO;
			goto out;
		}
		ret = create_volume(t, first, pool, VMD_UNDERTEST);
		virStoragePoolFree(pool);
		if (ret < 0)
			goto out;
	}
	if ((ret = libvirt_start(t, first)) < 0 || (ret = run_prepare(t, first, what)) < 0)
		goto stop;
	if ((ret = libvirt_stop(t, first)) < 0)
		goto out;
	for (size_t i = 0; i < lv->ninsts; i++) {
		if (lv->insts[i].drive != drive)
			continue;
		if ((ret = clone_vol(t, &lv->insts[i], VMD_PREBUILT, inst_priv(t, first)->vol[VMD_UNDERTEST])) < 0)
			goto out;
	}
	/* libvirt adds the namespace itself: the element goes in without prefix or xmlns
	 * (names are [A-Za-z0-9._-], the fingerprint plain text). */
	strbuf_addf(&meta, "<vm><campaign>%s</campaign><drive>%s</drive><instance>%s</instance><golden>%s</golden></vm>",
		    t->cfg->name, t->cfg->drives[drive].name, first->name, fp->buf);
	if (virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, meta.buf, VM_METADATA_KEY, VM_METADATA_NS,
				 VIR_DOMAIN_AFFECT_CONFIG) < 0) {
		vir_fail(what, "virDomainSetMetadata");
		ret = -EIO;
		goto out;
	}
	log_info("drive %s: golden copy cloned into every VM's pre-built volume", t->cfg->drives[drive].name);
done:
	ret = 0;
	goto out;
stop:
	if (libvirt_stop(t, first) < 0 && ret == 0)
		ret = -EIO;
out:
	free(golden);
	if (dom)
		virDomainFree(dom);
	strbuf_release(&meta);
	return ret;
}

static int libvirt_verify(struct target *t, struct target_instance *inst, struct strbuf *fp)
{
	(void)t;
	(void)inst;
	(void)fp;
	return -ENOTSUP;
}

static int libvirt_status(struct target *t, struct target_instance *inst, struct strbuf *line)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	static const char *const states[] = {"no state", "running", "blocked", "paused", "shutting down",
					     "shut off", "crashed", "suspended"};
	virDomainPtr dom = NULL;
	bool foreign = false, ready = false;
	struct strbuf why;
	char what[200];
	int ret, st;

	what_inst(t, inst, what, sizeof(what));
	strbuf_init(&why, 0);
	strbuf_addf(line, "%-24s host %s, pool %s: ", what, ld->host->name, ld->pool);
	if ((ret = lookup_dom(t, inst, &dom, &foreign)) < 0)
		goto out;
	if (!dom) {
		strbuf_addf(line, "domain %s %s", li->dom, foreign ? "exists but is NOT dbrig's" : "absent");
		goto out;
	}
	st = dom_state(dom);
	strbuf_addf(line, "%s %s; volumes", li->dom, st >= 0 && st < 8 ? states[st] : "unknown");
	for (int d = 0; d < VM_DISKS; d++) {
		int err;
		virStorageVolPtr v;
		if (d == VMD_SEED && !setting_num(t->cfg, "cloud_init"))
			continue;
		v = lookup_vol(t, inst->drive, li->vol[d], &err);
		strbuf_addf(line, " %s %s", vm_disk_role_name((enum vm_disk_role)d), v ? "ok" : "MISSING");
		if (v)
			virStorageVolFree(v);
	}
	if (st == VIR_DOMAIN_RUNNING) {
		ret = probe(t, inst, dom, setting_num(t->cfg, "wait_database"), &why);
		if (ret == 0) {
			ready = true;
			strbuf_addf(line, "; endpoint %s:%u, %s", li->addr,
				    lv->nic == VMNIC_NETWORK ? (unsigned)setting_num(t->cfg, "db_port") : li->fwd_port,
				    setting_num(t->cfg, "wait_database") ? "database ready" : "database not checked");
		} else {
			strbuf_addf(line, "; not ready: %s", why.buf);
		}
	}
	ret = 0;
out:
	if (dom)
		virDomainFree(dom);
	strbuf_release(&why);
	return ret < 0 ? ret : ready ? 0 : 1;
}

static void libvirt_release(struct target *t, struct target_instance *inst)
{
	struct lv_inst *li = inst->priv;

	(void)t;
	if (!li)
		return;
	free(li->dom);
	for (int d = 0; d < VM_DISKS; d++)
		free(li->vol[d]);
	free(li);
	inst->priv = NULL;
}

static void libvirt_cleanup(struct target *t)
{
	struct lv *lv = t->priv;

	if (!lv)
		return;
	for (size_t h = 0; h < lv->nhosts; h++)
		if (lv->hosts[h].conn && virConnectClose(lv->hosts[h].conn) < 0)
			log_warn("host %s: closing the connection to %s: %s", lv->hosts[h].name, lv->hosts[h].uri,
				 virGetLastErrorMessage());
	for (size_t d = 0; d < t->cfg->ndrives; d++)
		free(lv->drives[d].pool);
	free(lv->drives);
	free(lv->hosts);
	free(lv);
	t->priv = NULL;
}

const struct target_ops target_libvirt_ops = {
	.name = "libvirt",
	.summary = "VMs through libvirt (qemu:///system, qemu+ssh://host/system), one storage pool per drive",
	.options = libvirt_options,
	.init = libvirt_init,
	.validate = libvirt_validate,
	.preflight = libvirt_preflight,
	.create = libvirt_create,
	.build_golden = libvirt_golden,
	.restore = libvirt_restore,
	.start = libvirt_start,
	.endpoint = libvirt_endpoint,
	.verify = libvirt_verify,
	.stop = libvirt_stop,
	.destroy = libvirt_destroy,
	.status = libvirt_status,
	.rollback = libvirt_rollback,
	.release = libvirt_release,
	.cleanup = libvirt_cleanup,
};
