/*
 * Domains of the libvirt target: which are dbrig's (their metadata), their
 * definition from the template, stop (clean shutdown, then power off) and
 * start, the guest's address and the database's readiness, the endpoint.
 */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/clock.h"
#include "core/escape.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "core/units.h"

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

/* The text of <NAME> or <prefix:NAME> in a metadata element, or NULL. */
static char *meta_field(const char *xml, const char *name)
{
	char open[40], *v;
	const char *p;
	size_t n;

	snprintf(open, sizeof(open), ":%s>", name);
	if (!(p = strstr(xml, open))) {
		snprintf(open, sizeof(open), "<%s>", name);
		p = strstr(xml, open);
	}
	if (!p)
		return NULL;
	p += strlen(open);
	n = strcspn(p, "<");
	v = xmalloc(n + 1);
	/* The five entities escape_xml writes, back to their characters. */
	static const char *const ent[][2] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&apos;", "'"}};
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t e = 0;
		while (e < 5 && (p[i] != '&' || strncmp(p + i, ent[e][0], strlen(ent[e][0]))))
			e++;
		if (e < 5) {
			v[k++] = ent[e][1][0];
			i += strlen(ent[e][0]);
		} else {
			v[k++] = p[i++];
		}
	}
	v[k] = '\0';
	return v;
}

char *lv_dom_meta(virDomainPtr dom, const char *name)
{
	char *xml = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, VM_METADATA_NS, VIR_DOMAIN_AFFECT_CONFIG);
	char *v = xml ? meta_field(xml, name) : NULL;

	free(xml);
	return v;
}

/*
 * A domain is this campaign's only when its <metadata><dbrig:vm> names this
 * campaign, drive and instance AND carries this campaign's identity: the
 * random id written to <output>/.<campaign>.libvirt/LV_IDENTITY at its first provision
 * (names alone are ambiguous: two campaigns may share a name). 1 ours, 0 not (*why says why), <0 error. golden: the
 * fingerprint of a domain that is ours, or NULL.
 */
int lv_owned(virDomainPtr dom, const struct target *t, const struct target_instance *inst, char **golden,
		 const char **why)
{
	const struct lv *lv = t->priv;
	char *xml = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, VM_METADATA_NS, VIR_DOMAIN_AFFECT_CONFIG);
	const char *fields[3] = {"campaign", "drive", "instance"};
	const char *want[3] = {t->env->name, t->env->drives[inst->drive].name, inst->name};
	char *id = NULL;
	int ret = 1;

	if (golden)
		*golden = NULL;
	if (!xml) {
		virErrorPtr e = virGetLastError();
		*why = "it has no dbrig metadata";
		return e && e->code == VIR_ERR_NO_DOMAIN_METADATA ? 0 : -EIO;
	}
	for (int i = 0; i < 3 && ret; i++) {
		char *v = meta_field(xml, fields[i]);
		ret = v && !strcmp(v, want[i]);
		free(v);
	}
	if (!ret) {
		*why = "its dbrig metadata names another campaign, drive or instance";
		goto out;
	}
	id = meta_field(xml, "id");
	if (!id)
		*why = "its dbrig metadata carries no campaign identity";
	else if (!lv->id)
		*why = "this campaign has no identity yet (" LV_IDENTITY " is missing from <output>/.<campaign>.libvirt/: were the VMs "
		       "provisioned with another \"output\"?)";
	else if (strcmp(id, lv->id))
		*why = "its metadata carries another campaign identity (a campaign of the same name provisioned from "
		       "another output folder?)";
	ret = id && lv->id && !strcmp(id, lv->id);
	if (ret && golden)
		*golden = meta_field(xml, "golden");
out:
	free(id);
	free(xml);
	return ret;
}

/* The domain if it exists and is ours; *foreign when the name is taken by another (li->why says why). */
int lv_lookup_dom(struct target *t, struct target_instance *inst, virDomainPtr *out, bool *foreign)
{
	struct lv_inst *li = lv_inst_priv(t, inst);
	char what[200];
	virDomainPtr dom;
	int r;

	*out = NULL;
	*foreign = false;
	lv_what(t, inst, what, sizeof(what));
	dom = virDomainLookupByName(lv_conn(t, inst->drive), li->dom);
	if (!dom) {
		virErrorPtr e = virGetLastError();
		if (e && e->code == VIR_ERR_NO_DOMAIN)
			return 0;
		lv_vir_fail(what, "virDomainLookupByName");
		return -EIO;
	}
	r = lv_owned(dom, t, inst, NULL, &li->why);
	if (r < 0) {
		lv_vir_fail(what, "virDomainGetMetadata");
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

/*
 * Whether the volume is one of dom's disks (<source pool='P' volume='V'/>):
 * libvirt keeps no metadata on volumes, so a volume is this campaign's only
 * as a disk of a domain that is. 1 yes, 0 no, -EIO.
 */
int lv_dom_uses_vol(virDomainPtr dom, const char *pool, const char *vol)
{
	char *xml = virDomainGetXMLDesc(dom, VIR_DOMAIN_XML_INACTIVE);
	struct strbuf want;
	int ret;

	if (!xml)
		return -EIO;
	strbuf_init(&want, 0);
	strbuf_adds(&want, " pool='");
	escape_xml(&want, pool);
	strbuf_adds(&want, "' volume='");
	escape_xml(&want, vol);
	strbuf_adds(&want, "'");
	ret = strstr(xml, want.buf) != NULL;
	strbuf_release(&want);
	free(xml);
	return ret;
}

void lv_fill_spec(struct target *t, struct target_instance *inst, const char *golden, struct vm_spec *s)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct lv_drive *ld = &lv->drives[inst->drive];
	const char *fmt = lv_setting_str(env, "disk_format");

	memset(s, 0, sizeof(*s));
	s->name = li->dom;
	s->campaign = env->name;
	s->drive = env->drives[inst->drive].name;
	s->instance = inst->name;
	s->id = lv->id;
	s->golden = golden;
	s->domain_type = lv_setting_str(env, "domain_type");
	s->vcpus = (unsigned)lv_setting_num(env, "vcpus");
	s->memory_kib = lv_setting_num(env, "memory") / 1024;
	s->controller = lv->controller;
	s->pool = ld->pool;
	for (int d = 0; d < VM_DISKS; d++)
		s->vol[d] = li->vol[d];
	if (!lv_setting_num(env, "cloud_init"))
		s->vol[VMD_SEED] = NULL;
	s->vol_format[VMD_BOOT] = "qcow2";
	s->vol_format[VMD_PREBUILT] = fmt;
	s->vol_format[VMD_UNDERTEST] = fmt;
	s->vol_format[VMD_SEED] = "raw";
	s->cache = lv_setting_str(env, "disk_cache");
	s->iotune = ld->has_iotune ? &ld->iotune : NULL;
	s->nic = lv->nic;
	s->network = lv_setting_str(env, "network");
	vm_mac(env->name, inst->index, s->mac);
	s->fwd_port = li->fwd_port;
	s->guest_port = lv_db_port(env);
	s->kernel = lv_setting_str(env, "kernel");
	s->initrd = lv_setting_str(env, "initrd");
	s->cmdline = s->kernel ? lv_setting_str(env, "cmdline") : NULL;
}

int lv_undefine(virDomainPtr dom, const char *what)
{
	if (virDomainIsActive(dom) == 1 && virDomainDestroy(dom) < 0) {
		lv_vir_fail(what, "virDomainDestroy");
		return -EIO;
	}
	if (virDomainUndefineFlags(dom, VIR_DOMAIN_UNDEFINE_MANAGED_SAVE | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA) < 0) {
		lv_vir_fail(what, "virDomainUndefineFlags");
		return -EIO;
	}
	return 0;
}

int lv_dom_state(virDomainPtr dom)
{
	int state = 0, reason = 0;

	if (virDomainGetState(dom, &state, &reason, 0) < 0)
		return -1;
	return state;
}

int lv_get_dom(struct target *t, struct target_instance *inst, virDomainPtr *out)
{
	struct lv_inst *li = lv_inst_priv(t, inst);
	bool foreign;
	char what[200];
	int ret;

	lv_what(t, inst, what, sizeof(what));
	if ((ret = lv_lookup_dom(t, inst, out, &foreign)) < 0)
		return ret;
	if (!*out && foreign) {
		log_error("%s: domain %s is not this campaign's (%s); left alone", what, li->dom, li->why);
		return -ENOENT;
	}
	if (!*out) {
		log_error("%s: domain %s does not exist (expected dbrig provision first)", what, li->dom);
		return -ENOENT;
	}
	return 0;
}

/*
 * 0 when the VM's domain is this campaign's and the volume of `role` is one of
 * its disks: only then may a restore or a golden load replace the volume.
 * Else printed, and -ENOENT, -EPERM or -EIO.
 */
int lv_own_vol(struct target *t, struct target_instance *inst, int role)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	virDomainPtr dom;
	char what[200];
	int ret;

	lv_what(t, inst, what, sizeof(what));
	if ((ret = lv_get_dom(t, inst, &dom)) < 0)
		return ret;
	ret = lv_dom_uses_vol(dom, lv->drives[inst->drive].pool, li->vol[role]);
	virDomainFree(dom);
	if (ret < 0) {
		lv_vir_fail(what, "virDomainGetXMLDesc");
		return -EIO;
	}
	if (!ret) {
		log_error("%s: volume %s is not a disk of this campaign's domain %s; left alone", what, li->vol[role],
			  li->dom);
		return -EPERM;
	}
	return 0;
}

int libvirt_stop(struct target *t, struct target_instance *inst)
{
	virDomainPtr dom = NULL;
	char what[200];
	uint64_t deadline;
	int ret;

	lv_what(t, inst, what, sizeof(what));
	if (((struct lv *)t->priv)->dry_run)
		return 0;
	if ((ret = lv_get_dom(t, inst, &dom)) < 0)
		return ret;
	ret = 0;
	if (virDomainIsActive(dom) != 1)
		goto out;
	deadline = clock_now_ns() + lv_setting_num(t->env, "stop_timeout");
	if (virDomainShutdownFlags(dom, VIR_DOMAIN_SHUTDOWN_ACPI_POWER_BTN | VIR_DOMAIN_SHUTDOWN_GUEST_AGENT) < 0 &&
	    virDomainShutdown(dom) < 0) {
		log_warn("%s: clean shutdown refused (%s); powering off", what, virGetLastErrorMessage());
		deadline = 0;
	}
	while (lv_dom_state(dom) != VIR_DOMAIN_SHUTOFF && clock_now_ns() < deadline) {
		struct timespec ts = {0, 250000000};
		nanosleep(&ts, NULL);
	}
	if (lv_dom_state(dom) != VIR_DOMAIN_SHUTOFF) {
		if (deadline)
			log_warn("%s: no clean shutdown within stop_timeout; powering off", what);
		if (virDomainDestroy(dom) < 0) {
			lv_vir_fail(what, "virDomainDestroy");
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

int lv_probe(struct target *t, struct target_instance *inst, virDomainPtr dom, bool check_db, struct strbuf *why)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	const char *host = "127.0.0.1";
	unsigned port = li->fwd_port;
	struct target_endpoint ep;
	struct strbuf log;
	char mac[18], what[200];
	int ret;

	if (lv->nic == VMNIC_NETWORK) {
		vm_mac(t->env->name, inst->index, mac);
		if (guest_addr(dom, mac, li->addr, sizeof(li->addr)) < 0) {
			strbuf_addf(why, "no address for MAC %s yet (DHCP lease or guest agent)", mac);
			return -EAGAIN;
		}
		host = li->addr;
		port = lv_db_port(t->env);
	} else {
		snprintf(li->addr, sizeof(li->addr), "%s", host);
	}
	if (!check_db)
		return 0;
	/* A MySQL-protocol server first greets (cheap, and names a missing grant for the host)... */
	if (t->env->engine->protocol == DB_PROTO_MYSQL && (ret = target_probe_mysql(host, port, 5000, false, why)) < 0)
		return ret;
	/* ...then the driver's user logs into the workload's database as the drivers will (the
	 * campaign's `dbrig <workload> ping`): a guest whose grant is not in place yet is not ready. */
	if (!t->env->loader || !t->env->loader->ready)
		return 0;
	if ((ret = libvirt_endpoint(t, inst, &ep)) < 0)
		return ret;
	strbuf_init(&log, 0);
	strbuf_addf(&log, "%s/ready-%s-%s.log", t->env->log_dir, t->env->drives[inst->drive].name, inst->name);
	lv_what(t, inst, what, sizeof(what));
	ret = t->env->loader->ready(t->env->loader->arg, what, &ep, access(t->env->log_dir, W_OK) == 0 ? log.buf
													: "/dev/null", why);
	strbuf_release(&log);
	return ret;
}

static int wait_ready(struct target *t, struct target_instance *inst, virDomainPtr dom)
{
	uint64_t deadline = clock_now_ns() + lv_setting_num(t->env, "ready_timeout");
	bool check_db = lv_setting_num(t->env, "wait_database");
	struct strbuf why;
	char what[200], d[32];
	int ret;

	strbuf_init(&why, 0);
	lv_what(t, inst, what, sizeof(what));
	for (;;) {
		strbuf_reset(&why);
		ret = lv_probe(t, inst, dom, check_db, &why);
		if (ret == 0 || ret == -EINVAL)
			break;
		if (lv_dom_state(dom) != VIR_DOMAIN_RUNNING) {
			log_error("%s: the VM stopped while booting (state %d); see its console log on the host", what,
				  lv_dom_state(dom));
			ret = -EIO;
			break;
		}
		if (clock_now_ns() > deadline) {
			format_duration(lv_setting_num(t->env, "ready_timeout"), d, sizeof(d));
			log_error("%s: not ready within ready_timeout %s (last: %s)", what, d, why.buf);
			ret = -ETIMEDOUT;
			break;
		}
		sleep(1);
	}
	strbuf_release(&why);
	return ret;
}

int libvirt_start(struct target *t, struct target_instance *inst)
{
	virDomainPtr dom = NULL;
	char what[200];
	uint64_t t0 = clock_now_ns();
	int ret;

	if (((struct lv *)t->priv)->dry_run)
		return 0;
	lv_what(t, inst, what, sizeof(what));
	if ((ret = lv_get_dom(t, inst, &dom)) < 0)
		return ret;
	if (virDomainIsActive(dom) != 1 && virDomainCreate(dom) < 0) {
		lv_vir_fail(what, "virDomainCreate");
		ret = -EIO;
		goto out;
	}
	inst->running = true;
	if ((ret = wait_ready(t, inst, dom)) == 0)
		log_info("%s: ready at %s:%u after %.1f s", what, ((struct lv_inst *)inst->priv)->addr,
			 ((struct lv *)t->priv)->nic == VMNIC_NETWORK ? lv_db_port(t->env)
								     : ((struct lv_inst *)inst->priv)->fwd_port,
			 (double)(clock_now_ns() - t0) / 1e9);
out:
	virDomainFree(dom);
	return ret;
}

int libvirt_endpoint(struct target *t, struct target_instance *inst, struct target_endpoint *ep)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	virDomainPtr dom = NULL;
	struct strbuf why;
	int ret = 0;

	memset(ep, 0, sizeof(*ep));
	strbuf_init(&why, 0);
	if (lv->nic == VMNIC_NETWORK && !li->addr[0]) {
		if ((ret = lv_get_dom(t, inst, &dom)) < 0)
			goto out;
		if ((ret = lv_probe(t, inst, dom, false, &why)) < 0) {
			char what[200];
			lv_what(t, inst, what, sizeof(what));
			log_error("%s: %s", what, why.buf);
			goto out;
		}
	}
	ep->host = lv->nic == VMNIC_NETWORK ? li->addr : "127.0.0.1";
	ep->port = lv->nic == VMNIC_NETWORK ? lv_db_port(t->env) : li->fwd_port;
	ep->user = lv_setting_str(t->env, "db_user");
	if ((ret = lv_db_password(t, false, &ep->password)) < 0)
		goto out;
	ep->database = t->env->database;
	ep->odbc_options = li->odbc_options[0] ? li->odbc_options : NULL;
	ep->odbc_driver = lv_setting_str(t->env, "odbc_driver"); /* NULL: the engine's */
out:
	if (dom)
		virDomainFree(dom);
	strbuf_release(&why);
	return ret;
}
