/*
 * The libvirt target: N identical VMs per drive on KVM hosts, one storage
 * pool per drive. vir* is called here and in golden.c, storage.c, domain.c,
 * stream.c, telemetry.c, sizing.c (read-only, for --plan and preflight) and
 * seed.c (libvirt.h lists the files); validate.c makes no libvirt call.
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
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/clock.h"
#include "core/datadir.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "core/proc.h"
#include "core/sysstat.h"

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
#include <time.h>
#include <unistd.h>

/* ---- helpers ---- */

void lv_vir_fail(const char *what, const char *call)
{
	log_error("%s: %s: %s", what, call, virGetLastErrorMessage());
}

void lv_what(const struct target *t, const struct target_instance *inst, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", t->env->drives[inst->drive].name, inst->name);
}

struct lv_inst *lv_inst_priv(struct target *t, struct target_instance *inst)
{
	const struct target_env *env = t->env;
	static const char *const suffix[VM_DISKS] = {"boot.qcow2", "prebuilt", "undertest", "seed.iso"};
	struct lv_inst *li = inst->priv;
	struct strbuf sb;

	if (li)
		return li;
	li = xcalloc(1, sizeof(*li));
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "dbrig-%s-%s-%s", env->name, env->drives[inst->drive].name, inst->name);
	li->dom = strbuf_detach(&sb);
	for (int d = 0; d < VM_DISKS; d++) {
		strbuf_init(&sb, 0);
		strbuf_addf(&sb, "%s-%s", li->dom, suffix[d]);
		if (d == VMD_PREBUILT || d == VMD_UNDERTEST)
			strbuf_adds(&sb, strcmp(lv_setting_str(env, "disk_format"), "qcow2") ? ".img" : ".qcow2");
		li->vol[d] = strbuf_detach(&sb);
	}
	li->fwd_port = (unsigned)lv_setting_num(env, "forward_base_port") + inst->index;
	{
		const char *enc = lv_setting_str(env, "sqlserver_encrypt");
		const struct target_setting *trust = target_setting(env, "sqlserver_trust_server_certificate");
		if (db_odbc_driver_freetds(lv_setting_str(env, "odbc_driver"))) {
			/* FreeTDS's keyword; it checks no certificate (validate refused false) */
			const char *mode = !enc                                         ? NULL
					   : !strcmp(enc, "no")                         ? "off"
					   : !strcmp(enc, "optional")                   ? "request"
											: "require";
			snprintf(li->odbc_options, sizeof(li->odbc_options), "%s%s", mode ? "Encryption=" : "",
				 mode ? mode : "");
		} else
			snprintf(li->odbc_options, sizeof(li->odbc_options), "%s%s%s%s%s", enc ? "Encrypt=" : "",
				 enc ? enc : "", enc && trust->set ? ";" : "", trust->set ? "TrustServerCertificate=" : "",
				 trust->set ? (trust->num ? "yes" : "no") : "");
	}
	inst->priv = li;
	return li;
}

virConnectPtr lv_conn(struct target *t, size_t drive)
{
	struct lv *lv = t->priv;

	return lv->drives[drive].host->conn;
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
	const struct target_env *env = t->env;
	const struct target_setting *hosts = target_setting(env, "hosts");
	const struct target_setting *iot = target_setting(env, "iotune");
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
	lv->drives = xcalloc(env->ndrives, sizeof(*lv->drives));
	for (size_t d = 0; d < env->ndrives; d++) {
		struct lv_drive *ld = &lv->drives[d];
		ld->host = &lv->hosts[0];
		for (size_t h = 0; h < lv->nhosts && env->drives[d].host; h++)
			if (!strcmp(lv->hosts[h].name, env->drives[d].host))
				ld->host = &lv->hosts[h];
		for (size_t i = 0; i < iot->nmap; i++)
			if (!strcmp(iot->map[i].key, env->drives[d].name))
				ld->has_iotune = vm_iotune_parse(iot->map[i].value, &ld->iotune, &why) == 0;
	}
	lv->tmpl_dir = lv_setting_str(env, "templates");
	if (!lv->tmpl_dir)
		lv->tmpl_dir = lv->tmpl_owned = datadir_path("vm-templates");
	lv->template = lv_setting_str(env, "template");
	if (vm_controller_parse(lv_setting_str(env, "controller"), &lv->controller) < 0)
		lv->controller = VMC_VIRTIO_SCSI;
	lv->nic = strcmp(lv_setting_str(env, "endpoint"), "forward") ? VMNIC_NETWORK
		  : strcmp(lv_setting_str(env, "forward_backend"), "slirp") ? VMNIC_PASST : VMNIC_SLIRP;
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
		for (size_t d = 0; d < t->env->ndrives; d++)
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

static int libvirt_preflight(struct target *t, struct target_instance *insts, size_t n)
{
	struct lv *lv = t->priv;
	int ret;

	lv->insts = insts;
	lv->ninsts = n;
	/* ODBC Driver 18 verifies the server's certificate unless told otherwise, and SQL
	 * Server's own certificate is self-signed: left to the default, every login of the
	 * campaign would be refused after the VMs are up. The campaign says which it is. */
	if (t->env->engine->protocol == DB_PROTO_TDS &&
	    !target_setting(t->env, "sqlserver_trust_server_certificate")->set) {
		target_env_error(t->env, ".target.sqlserver_trust_server_certificate",
				 "unset (expected true, on the private network to the guests whose SQL Server "
				 "certificate is self-signed, or false with a certificate this host trusts: ODBC "
				 "Driver 18 verifies it by default and every login would fail)");
		return -EINVAL;
	}
	/* The drivers run on this host: their ODBC driver must be registered before any VM
	 * boots, not found missing at the first login after hours of golden load. */
	const char *odrv = lv_setting_str(t->env, "odbc_driver");
	if (t->env->engine->odbc_connect && db_engine_driver_present(t->env->engine, odrv) != 1) {
		if (odrv)
			target_env_error(t->env, ".target.odbc_driver",
					 "\"%s\" is not registered on this host (SQLDrivers, odbcinst.ini; expected the "
					 "driver installed under that name: docs/libvirt.md)", odrv);
		else
			target_env_error(t->env, ".engine.kind",
					 "\"%s\": the ODBC driver \"%s\" is not registered on this host (SQLDrivers, "
					 "odbcinst.ini; expected it installed: docs/libvirt.md)", t->env->engine->name,
					 t->env->engine->odbc_driver);
		return -ENOENT;
	}
	if ((ret = lv_preflight_paths(t)) < 0 || (ret = lv_campaign_id(t, false)) < 0 || (ret = connect_hosts(t)) < 0)
		return ret;
	for (size_t h = 0; h < lv->nhosts; h++)
		lv_warn_guest_reach(t->env, h, lv->hosts[h].conn);
	for (size_t d = 0; d < t->env->ndrives; d++)
		if ((ret = lv_resolve_pool(t, d)) < 0)
			return ret;
	for (size_t i = 0; i < n; i++)
		lv_inst_priv(t, &insts[i]);
	if ((ret = lv_preflight_space(t)) < 0)
		return ret;
	return lv_preflight_pools(t);
}

/* ---- create ---- */

void lv_dry_print(const char *host, const char *action, const char *name, const char *xml)
{
	printf("<!-- %s: %s %s -->\n%s%s", host, action, name, xml, xml[0] && xml[strlen(xml) - 1] == '\n' ? "" : "\n");
}

/* The volume `name` of the pool, or NULL (*err 0: none; -EIO: printed). */
static virStorageVolPtr vol_in(virStoragePoolPtr pool, const char *name, const char *what, int *err)
{
	virStorageVolPtr v = virStorageVolLookupByName(pool, name);

	*err = 0;
	if (!v) {
		virErrorPtr e = virGetLastError();
		if (!(e && e->code == VIR_ERR_NO_STORAGE_VOL)) {
			lv_vir_fail(what, "virStorageVolLookupByName");
			*err = -EIO;
		}
	}
	return v;
}

/*
 * Provision one VM: the domain first, carrying the campaign's identity, then
 * its volumes. A volume with one of the VM's names is only ever this
 * campaign's as a disk of that domain, so before the domain exists any such
 * volume is someone else's and provision stops (adopting it as "made by
 * dbrig for it" would hand another campaign's data to this one).
 */
static int libvirt_create(struct target *t, struct target_instance *inst)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	virDomainPtr dom = NULL;
	virStoragePoolPtr pool = NULL;
	struct vm_spec spec;
	struct strbuf xml;
	char what[200];
	bool foreign = false, offline = lv->dry_run && !ld->host->conn, seed = lv_setting_num(env, "cloud_init");
	const char *pw;
	int ret;

	lv_what(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	/* The campaign's identity and password, made at its first provision, before anything that uses them. */
	if (!lv->dry_run && ((ret = lv_campaign_id(t, true)) < 0 || (seed && (ret = lv_db_password(t, true, &pw)) < 0)))
		goto out;
	if ((ret = lv_ensure_pool(t, inst->drive)) < 0)
		goto out;
	if (!offline && (ret = lv_lookup_dom(t, inst, &dom, &foreign)) < 0)
		goto out;
	if (foreign) {
		log_error("%s: host %s already has a domain named %s that is not this campaign's (%s); rename or remove "
			  "it, dbrig will not reuse it", what, ld->host->name, li->dom, li->why);
		ret = -EEXIST;
		goto out;
	}
	if (!offline) {
		pool = virStoragePoolLookupByName(ld->host->conn, ld->pool);
		if (!pool && !lv->dry_run) {
			lv_vir_fail(what, "virStoragePoolLookupByName");
			ret = -EIO;
			goto out;
		}
	}
	for (int d = 0; d < VM_DISKS && pool && !dom; d++) {
		virStorageVolPtr v;
		if (d == VMD_SEED && !seed)
			continue;
		if ((v = vol_in(pool, li->vol[d], what, &ret))) {
			virStorageVolFree(v);
			log_error("%s: pool %s on host %s already has a volume %s, and no domain with this campaign's "
				  "identity uses it; dbrig will not reuse or remove it (remove or rename it, or use another "
				  "pool)", what, ld->pool, ld->host->name, li->vol[d]);
			ret = -EEXIST;
		}
		if (ret < 0)
			goto out;
	}
	if (dom) {
		log_info("%s: domain %s already provisioned on host %s", what, li->dom, ld->host->name);
	} else {
		lv_fill_spec(t, inst, NULL, &spec);
		if ((ret = vm_render_domain(lv->tmpl_dir, lv->template, &spec, &xml)) < 0)
			goto out;
		if (lv->dry_run) {
			lv_dry_print(ld->host->uri, "define domain", li->dom, xml.buf);
		} else {
			if (!(dom = virDomainDefineXML(ld->host->conn, xml.buf))) {
				lv_vir_fail(what, "virDomainDefineXML");
				ret = -EIO;
				goto out;
			}
			li->dom_created = true;
			log_info("%s: defined %s on host %s (pool %s)", what, li->dom, ld->host->name, ld->pool);
		}
	}
	for (int d = 0; d < VM_DISKS; d++) {
		virStorageVolPtr v = NULL;
		if (d == VMD_SEED && !seed)
			continue;
		if (pool && (v = vol_in(pool, li->vol[d], what, &ret))) {
			/* A disk of this campaign's domain (it was checked, or defined, above): kept. */
			virStorageVolFree(v);
			continue;
		}
		if (ret < 0 || (ret = lv_create_volume(t, inst, pool, d)) < 0)
			goto out;
	}
	inst->created = !lv->dry_run;
out:
	if (dom)
		virDomainFree(dom);
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&xml);
	return ret;
}

/* ---- removal ---- */

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
		lv_what(t, &insts[i], what, sizeof(what));
		if (li->dom_created) {
			virDomainPtr dom = virDomainLookupByName(lv_conn(t, insts[i].drive), li->dom);
			if (!dom || lv_undefine(dom, what) < 0)
				ret = -EIO;
			if (dom)
				virDomainFree(dom);
			li->dom_created = false;
			insts[i].created = false;
		}
		for (int d = VM_DISKS; d-- > 0;) {
			if (li->vol_created[d] && lv_delete_vol(t, insts[i].drive, li->vol[d], what) < 0)
				ret = -EIO;
			li->vol_created[d] = false;
		}
	}
	for (size_t d = 0; d < t->env->ndrives; d++)
		if (lv->drives[d].pool_created && lv_remove_pool(t, d) < 0)
			ret = -EIO;
	/* The identity and password this provision made go too, unless a domain of the campaign still
	 * exists (one made before: it carries the identity and its seed sets the password). */
	if (lv->id_created || lv->pw_created) {
		const char *dom = lv_any_domain(t);
		struct strbuf path;
		strbuf_init(&path, 0);
		for (int k = 0; k < 2; k++) {
			bool made = k ? lv->pw_created : lv->id_created;
			if (!made)
				continue;
			strbuf_reset(&path);
			lv_campaign_file(t->env, k ? LV_CREDENTIALS : LV_IDENTITY, &path);
			if (dom) {
				log_info("%s: kept, although this provision made it: domain %s of the campaign exists", path.buf,
					 dom);
			} else if (unlink(path.buf) < 0 && errno != ENOENT) {
				log_error("%s: cannot remove it: %s", path.buf, strerror(errno));
				ret = -EIO;
			} else {
				log_info("%s: removed (this provision had made it)", path.buf);
			}
		}
		if (!dom) {
			lv_campaign_file(t->env, "", &path);
			(void)rmdir(path.buf); /* the folder, when nothing else is in it */
			free(lv->id);
			lv->id = NULL;
			free(lv->password);
			lv->password = NULL;
		}
		lv->id_created = lv->pw_created = false;
		strbuf_release(&path);
	}
	return ret;
}

/*
 * Remove a VM: only a domain with this campaign's identity, and only the
 * volumes that are its disks. Anything else with the VM's names is left
 * alone, each named in a warning (a name alone proves nothing: deleting by
 * name would remove another campaign's volumes).
 */
static int libvirt_destroy(struct target *t, struct target_instance *inst)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	virDomainPtr dom = NULL;
	bool foreign = false, uses[VM_DISKS] = {false};
	char what[200];
	unsigned kept = 0;
	int ret;

	lv_what(t, inst, what, sizeof(what));
	if (lv->dry_run) {
		printf("<!-- %s: destroy and undefine domain %s if it carries this campaign's identity; delete those of "
		       "its volumes that are its disks:", ld->host->uri, li->dom);
		for (int d = 0; d < VM_DISKS; d++)
			printf(" %s", li->vol[d]);
		printf(" -->\n");
		return 0;
	}
	if ((ret = lv_lookup_dom(t, inst, &dom, &foreign)) < 0)
		return ret;
	if (foreign)
		log_warn("%s: domain %s on host %s is not this campaign's (%s); left alone", what, li->dom, ld->host->name,
			 li->why);
	if (dom) {
		for (int d = 0; d < VM_DISKS && ret == 0; d++)
			if ((ret = lv_dom_uses_vol(dom, ld->pool, li->vol[d])) >= 0)
				uses[d] = ret == 1, ret = 0;
		if (ret < 0)
			lv_vir_fail(what, "virDomainGetXMLDesc");
		else
			ret = lv_undefine(dom, what);
		virDomainFree(dom);
		if (ret < 0)
			return ret;
	}
	for (int d = 0; d < VM_DISKS; d++) {
		virStorageVolPtr v;
		int err;
		if (uses[d]) {
			if ((ret = lv_delete_vol(t, inst->drive, li->vol[d], what)) < 0)
				return ret;
			continue;
		}
		if (!(v = lv_lookup_vol(t, inst->drive, li->vol[d], &err))) {
			if (err < 0)
				return err;
			continue;
		}
		virStorageVolFree(v);
		log_warn("%s: volume %s in pool %s on host %s: kept (no domain with this campaign's identity uses it)",
			 what, li->vol[d], ld->pool, ld->host->name);
		kept++;
	}
	inst->created = false;
	inst->running = false;
	if (dom)
		log_info("%s: removed %s and its volumes%s", what, li->dom, kept ? " (others kept, see above)" : "");
	else if (!foreign && !kept)
		log_info("%s: nothing of this campaign on host %s", what, ld->host->name);
	if (++ld->destroyed == t->env->instances[inst->drive] && ld->pool_ours && (ret = lv_remove_pool(t, inst->drive)) < 0)
		return ret;
	return foreign || kept ? TARGET_KEPT : dom ? TARGET_REMOVED : TARGET_ABSENT;
}

static int libvirt_restore(struct target *t, struct target_instance *inst)
{
	struct lv_inst *li = lv_inst_priv(t, inst);
	char what[200];
	int ret;

	if (((struct lv *)t->priv)->dry_run)
		return 0;
	lv_what(t, inst, what, sizeof(what));
	if ((ret = lv_own_vol(t, inst, VMD_PREBUILT)) == 0 && (ret = lv_clone_vol(t, inst, VMD_UNDERTEST, inst->drive, li->vol[VMD_PREBUILT])) == 0)
		log_info("%s: under-test restored from pre-built", what);
	return ret;
}

static int libvirt_status(struct target *t, struct target_instance *inst, struct strbuf *line)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	static const char *const states[] = {"no state", "running", "blocked", "paused", "shutting down",
					     "shut off", "crashed", "suspended"};
	virDomainPtr dom = NULL;
	bool foreign = false, ready = false;
	struct strbuf why;
	char what[200];
	int ret, st;

	lv_what(t, inst, what, sizeof(what));
	strbuf_init(&why, 0);
	strbuf_addf(line, "%-24s host %s, pool %s: ", what, ld->host->name, ld->pool);
	if ((ret = lv_lookup_dom(t, inst, &dom, &foreign)) < 0)
		goto out;
	if (!dom && foreign) {
		strbuf_addf(line, "domain %s exists but is NOT this campaign's (%s)", li->dom, li->why);
		goto out;
	}
	if (!dom) {
		strbuf_addf(line, "domain %s absent", li->dom);
		goto out;
	}
	st = lv_dom_state(dom);
	strbuf_addf(line, "%s %s; volumes", li->dom, st >= 0 && st < 8 ? states[st] : "unknown");
	for (int d = 0; d < VM_DISKS; d++) {
		int err;
		virStorageVolPtr v;
		if (d == VMD_SEED && !lv_setting_num(t->env, "cloud_init"))
			continue;
		v = lv_lookup_vol(t, inst->drive, li->vol[d], &err);
		strbuf_addf(line, " %s %s", vm_disk_role_name((enum vm_disk_role)d), v ? "ok" : "MISSING");
		if (v)
			virStorageVolFree(v);
	}
	if (st == VIR_DOMAIN_RUNNING) {
		ret = lv_probe(t, inst, dom, lv_setting_num(t->env, "wait_database"), &why);
		if (ret == 0) {
			ready = true;
			strbuf_addf(line, "; endpoint %s:%u, %s", li->addr,
				    lv->nic == VMNIC_NETWORK ? lv_db_port(t->env) : li->fwd_port,
				    lv_setting_num(t->env, "wait_database") ? "database ready" : "database not checked");
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
	if (li->tel_dom)
		virDomainFree(li->tel_dom);
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
	for (size_t d = 0; d < t->env->ndrives; d++)
		free(lv->drives[d].pool);
	free(lv->password);
	free(lv->id);
	free(lv->tmpl_owned);
	free(lv->drives);
	free(lv->hosts);
	free(lv);
	t->priv = NULL;
}

/*
 * The campaign lock's key of drive d: the host's URI and the pool that holds
 * the drive's volumes (the configured one, or dbrig-<campaign>-<drive> that
 * provision creates), which is what two campaigns of the same name would both
 * write into. Its folder, when the drive has one, may be on another host.
 */
static void libvirt_lock_key(const struct target_env *env, size_t d, struct strbuf *key)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	const struct target_drive *dr = &env->drives[d];
	const char *uri = hosts->nmap ? hosts->map[0].value : "";

	for (size_t h = 0; h < hosts->nmap && dr->host; h++)
		if (!strcmp(hosts->map[h].key, dr->host))
			uri = hosts->map[h].value;
	strbuf_addf(key, "%s pool ", uri);
	if (dr->pool)
		strbuf_adds(key, dr->pool);
	else
		strbuf_addf(key, "dbrig-%s-%s", env->name, dr->name);
}

const struct target_ops target_libvirt_ops = {
	.name = "libvirt",
	.summary = "VMs through libvirt (qemu:///system, qemu+ssh://host/system), one storage pool per drive",
	.options = libvirt_options,
	.init = libvirt_init,
	.validate = libvirt_validate,
	.preflight = libvirt_preflight,
	.plan = libvirt_plan,
	.storage = libvirt_storage,
	.create = libvirt_create,
	.build_golden = libvirt_golden,
	.clone_golden = libvirt_clone_golden,
	.restore = libvirt_restore,
	.start = libvirt_start,
	.endpoint = libvirt_endpoint,
	.verify = libvirt_verify,
	.stop = libvirt_stop,
	.destroy = libvirt_destroy,
	.status = libvirt_status,
	.rollback = libvirt_rollback,
	.telemetry = libvirt_telemetry,
	.host_read = libvirt_host_read,
	.guest_read = libvirt_guest_read,
	.release = libvirt_release,
	.lock_key = libvirt_lock_key,
	.cleanup = libvirt_cleanup,
};
