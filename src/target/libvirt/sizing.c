/*
 * What a libvirt campaign needs of its hosts, and the checks before anything is
 * made or boots:
 *   libvirt_plan      --plan's sizing: per drive the volumes' capacity once filled
 *                     against the free space there, per host the guests' RAM and
 *                     vCPUs against the host's (virNodeGetInfo), the restore copy
 *   lv_preflight_paths, lv_preflight_space, lv_preflight_pools
 *                     refusals, one line each: a missing base_image, kernel or
 *                     initrd, no /dev/kvm for a kvm domain, volumes that will not fit
 *                     their drive, two drives on one block device or a drive on the
 *                     OS's device (target/devices.c), two drives in one pool of a host
 *                     ("allow_shared_device": true makes the last three warnings)
 *   lv_net_unreachable, lv_warn_guest_reach
 *                     endpoint "guest" on a host that is another machine: whether
 *                     this machine reaches that host's network (its forward mode,
 *                     and for a routed one a route here to its subnet); one warning
 *                     line when it does not, for --plan and preflight
 * Paths (base_image, drive paths, /dev/kvm) are checked where dbrig can see them:
 * on a local host (a URI without a server part, qemu:///system); a remote host's
 * free space comes from its pool (virStoragePoolGetInfo: the pool named, or the one whose
 * target is the drive's path) when the pool exists, and two drives of one host in one pool
 * (the host's drives as libvirt sees them) are refused like two drives on one device.
 */
#include "target/libvirt/libvirt.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libvirt/virterror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GIB (UINT64_C(1) << 30)

/* A URI whose host part is empty (qemu:///system, test:///default): dbrig runs there. */
bool lv_uri_local(const char *uri)
{
	const char *p = strstr(uri, "://");

	return p && p[3] == '/';
}

static bool uri_test(const char *uri)
{
	return !strncmp(uri, "test:", 5);
}

/* Bytes one VM's volumes hold once filled (the seed ISO is under a MiB). */
uint64_t lv_vm_capacity(const struct target_env *env)
{
	return lv_vol_size(env, VMD_BOOT) + lv_vol_size(env, VMD_PREBUILT) + lv_vol_size(env, VMD_UNDERTEST);
}

static void gib(uint64_t b, char *buf, size_t n)
{
	snprintf(buf, n, "%.1f GiB", (double)b / (double)GIB);
}

/* Free bytes where the drive's volumes go: statvfs of its path (or the nearest existing
 * parent: a pool dbrig creates makes the folder) on a local host, else the available bytes of
 * its pool on the host (virStoragePoolGetInfo): `pool` when it is resolved, else the pool the
 * config names, else the pool whose target is the drive's path. false: not known (why says so). */
static bool drive_free(const struct target_env *env, size_t d, const char *uri, virConnectPtr conn, const char *pool,
		       uint64_t *out, struct strbuf *why)
{
	const struct target_drive *dr = &env->drives[d];

	if (dr->path && lv_uri_local(uri) && !uri_test(uri)) {
		int err = target_path_free(dr->path, out);
		if (err < 0)
			strbuf_addf(why, "statvfs %s: %s", dr->path, strerror(-err));
		return err == 0;
	}
	if (!pool)
		pool = dr->pool;
	if (conn) {
		virStoragePoolPtr p = pool ? virStoragePoolLookupByName(conn, pool)
					   : lv_pool_on_path(conn, dr->path);
		virStoragePoolInfo info;
		bool ok = p && virStoragePoolGetInfo(p, &info) == 0;
		if (p)
			virStoragePoolFree(p);
		if (ok) {
			*out = info.available;
			return true;
		}
	}
	if (pool)
		strbuf_addf(why, "not known (pool %s not reachable)", pool);
	else
		strbuf_addf(why, "not known (no pool on %s%s)", dr->path, conn ? " on that host" : ": host not reachable");
	return false;
}

static size_t host_of(const struct target_env *env, size_t d)
{
	const struct target_setting *hosts = target_setting(env, "hosts");

	for (size_t h = 0; h < hosts->nmap && env->drives[d].host; h++)
		if (!strcmp(hosts->map[h].key, env->drives[d].host))
			return h;
	return 0;
}

void libvirt_storage(const struct target_env *env, struct strbuf *out)
{
	strbuf_addf(out, "format=%s allocation=%s", lv_setting_str(env, "disk_format"), lv_setting_str(env, "allocation"));
}

/* The value of attribute `name` in the tag at `tag` (up to its '>'), in buf; false when absent. */
static bool xml_attr(const char *tag, const char *name, char *buf, size_t n)
{
	const char *end = strchr(tag, '>'), *p = tag;
	size_t len = strlen(name);

	while (end && (p = strstr(p, name)) && p < end) {
		if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && p[len] == '=' && (p[len + 1] == '\'' || p[len + 1] == '"')) {
			const char *v = p + len + 2, *q = strchr(v, p[len + 1]);
			if (!q || q > end || (size_t)(q - v) >= n)
				return false;
			memcpy(buf, v, (size_t)(q - v));
			buf[q - v] = '\0';
			return true;
		}
		p += len;
	}
	return false;
}

/* Whether /proc/net/route's text has a route other than the default one that covers addr/mask
 * (both as that file prints them: the network-order bytes read as a native word). */
static bool route_covers(const char *routes, uint32_t addr, uint32_t mask)
{
	const char *line = routes ? strchr(routes, '\n') : NULL; /* after the header */

	while (line && *++line) {
		char ifname[64];
		unsigned dest, gw, flags, refcnt, use, metric, rmask;
		if (sscanf(line, "%63s %x %x %x %u %u %u %x", ifname, &dest, &gw, &flags, &refcnt, &use, &metric,
			   &rmask) == 8 && rmask && (flags & 1) && (addr & rmask) == dest && (mask & rmask) == rmask)
			return true;
		line = strchr(line, '\n');
	}
	return false;
}

/*
 * Whether the guests of a libvirt network whose XML is `xml` (virNetworkGetXMLDesc) on another
 * machine can be reached from here, whose routing table is `routes` (/proc/net/route's text):
 * false when they may be (bridged onto a LAN, a macvtap or hostdev network, routed or open with
 * a route here to its IPv4 subnet, or an address libvirt does not give); true with one clause in
 * why when they cannot (NAT, isolated, routed with no route here).
 */
bool lv_net_unreachable(const char *xml, const char *routes, struct strbuf *why)
{
	const char *fw = strstr(xml, "<forward"), *ip = xml;
	char mode[32] = "nat", a[64], m[64];
	struct in_addr addr, mask = {0};

	if (!fw) {
		strbuf_adds(why, "is isolated (no <forward>): nothing outside its host reaches its guests");
		return true;
	}
	(void)xml_attr(fw, "mode", mode, sizeof(mode));
	if (!strcmp(mode, "nat")) {
		strbuf_adds(why, "is NAT (<forward mode='nat'>): its guests reach out, nothing reaches in");
		return true;
	}
	if (strcmp(mode, "route") && strcmp(mode, "open"))
		return false; /* bridge, private, vepa, passthrough, hostdev: on the host's LAN */
	while ((ip = strstr(ip, "<ip "))) {
		char fam[16] = "ipv4";
		(void)xml_attr(ip, "family", fam, sizeof(fam));
		if (!strcmp(fam, "ipv4") && xml_attr(ip, "address", a, sizeof(a)) && inet_pton(AF_INET, a, &addr) == 1)
			break;
		ip += 4;
	}
	if (!ip)
		return false; /* no IPv4 subnet given: nothing to look for */
	if (xml_attr(ip, "netmask", m, sizeof(m))) {
		if (inet_pton(AF_INET, m, &mask) != 1)
			return false;
	} else {
		long bits = xml_attr(ip, "prefix", m, sizeof(m)) ? strtol(m, NULL, 10) : 24;
		if (bits < 0 || bits > 32)
			return false;
		mask.s_addr = htonl(bits ? ~UINT32_C(0) << (32 - bits) : 0);
	}
	addr.s_addr &= mask.s_addr;
	if (route_covers(routes, addr.s_addr, mask.s_addr))
		return false;
	inet_ntop(AF_INET, &addr, a, sizeof(a));
	int bits = 0;
	for (uint32_t v = ntohl(mask.s_addr); v & UINT32_C(0x80000000); v <<= 1)
		bits++;
	strbuf_addf(why, "is %s (<forward mode='%s'>) to %s/%d, and this machine has no route to it but its default one "
		    "(expected ip route add %s/%d via that host, or a router that routes it)",
		    strcmp(mode, "route") ? "open" : "routed", mode, a, bits, a, bits);
	return true;
}

/*
 * Endpoint "guest" on a host that is another machine: one warning line when this machine
 * cannot reach the guests of the VMs' network there (lv_net_unreachable), or when that
 * network cannot be read. Nothing for a host on this machine, another endpoint, or no
 * connection (--plan says the host is not reachable).
 */
void lv_warn_guest_reach(const struct target_env *env, size_t h, virConnectPtr conn)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	const char *net = lv_setting_str(env, "network");
	struct strbuf why;
	virNetworkPtr n;
	char *xml = NULL, *routes = NULL;
	size_t len;

	if (!conn || h >= hosts->nmap || strcmp(lv_setting_str(env, "endpoint"), "guest") ||
	    lv_uri_is_this_machine(hosts->map[h].value))
		return;
	strbuf_init(&why, 0);
	if (!(n = virNetworkLookupByName(conn, net)) || !(xml = virNetworkGetXMLDesc(n, 0)))
		strbuf_addf(&why, "cannot be read there (%s)", virGetLastErrorMessage());
	else if (read_file("/proc/net/route", &routes, &len) < 0 || !lv_net_unreachable(xml, routes, &why))
		strbuf_reset(&why);
	if (why.len)
		log_warn("%s: .target.network: \"%s\" on host %s (%s, another machine) %s: the drivers here cannot reach "
			 "its guests with endpoint \"guest\" (docs/libvirt.md, \"Reaching guests on other hosts\")",
			 env->file, net, hosts->map[h].key, hosts->map[h].value, why.buf);
	if (n)
		virNetworkFree(n);
	free(xml);
	free(routes);
	strbuf_release(&why);
}

/* libvirt prints every error on stderr by default; the lines here say what they could not learn. */
static void quiet(void *opaque, virErrorPtr err)
{
	(void)opaque;
	(void)err;
}

void libvirt_plan(const struct target_env *env, FILE *out)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	uint64_t vm = lv_vm_capacity(env), mem = lv_setting_num(env, "memory");
	unsigned vcpus = (unsigned)lv_setting_num(env, "vcpus"), total = 0;
	virConnectPtr *conns = xcalloc(hosts->nmap + 1, sizeof(*conns));
	char a[32], b[32], c[32], e[32];

	virSetErrorFunc(NULL, quiet);
	gib(lv_vol_size(env, VMD_BOOT), a, sizeof(a));
	gib(lv_vol_size(env, VMD_PREBUILT), b, sizeof(b));
	gib(lv_vol_size(env, VMD_UNDERTEST), c, sizeof(c));
	gib(vm, e, sizeof(e));
	fprintf(out, "  sizing    per VM: boot %s + pre-built %s + under-test %s = %s once filled (%s, %s)\n", a, b, c,
		e, lv_setting_str(env, "disk_format"),
		strcmp(lv_setting_str(env, "allocation"), "full") ? "sparse: allocated as the guest writes"
								 : "full: pre-built and under-test allocated at provision");
	for (size_t h = 0; h < hosts->nmap; h++)
		conns[h] = virConnectOpenReadOnly(hosts->map[h].value);
	for (size_t d = 0; d < env->ndrives; d++) {
		struct strbuf why;
		uint64_t fr = 0;
		size_t h = host_of(env, d);
		bool known;
		if (!env->instances[d])
			continue;
		strbuf_init(&why, 0);
		known = drive_free(env, d, hosts->map[h].value, conns[h], NULL, &fr, &why);
		gib(vm * env->instances[d], a, sizeof(a));
		gib(fr, b, sizeof(b));
		fprintf(out, "            drive %s: %u VM(s) x %s = %s once filled; free there: %s%s\n",
			env->drives[d].name, env->instances[d], e, a, known ? b : why.buf,
			known && fr < vm * env->instances[d] ? "  DOES NOT FIT" : "");
		strbuf_release(&why);
	}
	for (size_t h = 0; h < hosts->nmap; h++) {
		unsigned n = 0;
		virNodeInfo ni;
		for (size_t d = 0; d < env->ndrives; d++)
			if (host_of(env, d) == h)
				n += env->instances[d];
		total += n;
		if (!n)
			continue;
		gib(mem * n, a, sizeof(a));
		fprintf(out, "            host %s: %u VM(s) x (%u vCPU(s), ", hosts->map[h].key, n, vcpus);
		gib(mem, b, sizeof(b));
		fprintf(out, "%s) = %u vCPU(s), %s RAM; ", b, vcpus * n, a);
		if (conns[h] && virNodeGetInfo(conns[h], &ni) == 0) {
			gib((uint64_t)ni.memory << 10, b, sizeof(b));
			fprintf(out, "the host has %u CPU(s), %s%s%s\n", ni.cpus, b,
				((uint64_t)ni.memory << 10) < mem * n ? "  NOT ENOUGH RAM" : "",
				ni.cpus < vcpus * n ? "  MORE vCPUs THAN CPUs" : "");
		} else {
			fprintf(out, "the host's CPUs and RAM not known (%s: %s)\n", hosts->map[h].value,
				virGetLastErrorMessage());
		}
		lv_warn_guest_reach(env, h, conns[h]);
	}
	gib(lv_vol_size(env, VMD_PREBUILT), b, sizeof(b));
	fprintf(out, "            restore before every run: each of its VMs' pre-built volume (up to %s) copied onto "
		"its under-test volume (%u VM(s) in all; copy time not estimated)\n", b, total);
	/* One golden load: a drive on another host than the loaded one receives it by stream (golden.c). */
	for (size_t d = 0; env->golden_source >= 0 && d < env->ndrives; d++) {
		size_t sh = host_of(env, (size_t)env->golden_source);
		if (!env->instances[d] || host_of(env, d) == sh)
			continue;
		fprintf(out, "            golden copy to drive %s (host %s): streamed from drive %s (host %s), one "
			"pre-built volume (up to %s) over the hosts' link, then cloned on host %s (stream time not "
			"estimated)\n", env->drives[d].name, hosts->map[host_of(env, d)].key,
			env->drives[env->golden_source].name, hosts->map[sh].key, b, hosts->map[host_of(env, d)].key);
	}
	for (size_t h = 0; h < hosts->nmap; h++)
		if (conns[h])
			virConnectClose(conns[h]);
	free(conns);
}

/* 0, or -ENOENT with one line: a path the VMs boot from is missing on a local host. */
static int check_file(const struct target_env *env, const char *field, const char *host, const char *hint)
{
	const char *p = lv_setting_str(env, field);

	if (!p || access(p, R_OK) == 0)
		return 0;
	log_error("%s: .target.%s: \"%s\" cannot be read on host %s: %s (expected %s)", env->file, field, p, host,
		  strerror(errno), hint);
	return -ENOENT;
}

/* A drive dbrig can look at: on a local host (not the test driver's pretend one). */
static bool drive_here(const struct target_env *env, size_t d)
{
	const char *uri = target_setting(env, "hosts")->map[host_of(env, d)].value;

	return lv_uri_local(uri) && !uri_test(uri);
}

/* The volumes of the drive's VMs that do not exist yet, in bytes once filled. */
static uint64_t drive_needs(struct target *t, size_t d)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	uint64_t need = 0;

	for (size_t i = 0; i < lv->ninsts; i++) {
		struct lv_inst *li;
		if (lv->insts[i].drive != d)
			continue;
		li = lv_inst_priv(t, &lv->insts[i]);
		for (int r = VMD_BOOT; r <= VMD_UNDERTEST; r++) {
			int err = 0;
			virStorageVolPtr v = lv->drives[d].pool_exists ? lv_lookup_vol(t, d, li->vol[r], &err) : NULL;
			if (v)
				virStorageVolFree(v);
			else
				need += lv_vol_size(env, r);
		}
	}
	return need;
}

int lv_preflight_paths(struct target *t)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	int ret = 0;

	/* --dry-run shows what would be made, on a host that may not be ready yet; status and
	 * teardown must work whatever is missing. */
	if (lv->dry_run || !t->will_boot)
		return 0;
	for (size_t h = 0; h < lv->nhosts && ret == 0; h++) {
		const struct lv_host *ho = &lv->hosts[h];
		bool used = false;
		for (size_t d = 0; d < env->ndrives; d++)
			used = used || (lv->drives[d].host == ho && env->instances[d]);
		if (!used || !lv_uri_local(ho->uri) || uri_test(ho->uri))
			continue;
		if ((ret = check_file(env, "base_image", ho->name, "the image scripts/make-base-image.sh builds")) < 0 ||
		    (ret = check_file(env, "kernel", ho->name, "the kernel scripts/make-base-image.sh writes beside "
				      "the image")) < 0 ||
		    (ret = check_file(env, "initrd", ho->name, "the initrd scripts/make-base-image.sh writes beside "
				      "the image")) < 0)
			break;
		if (!strcmp(lv_setting_str(env, "domain_type"), "kvm") && access("/dev/kvm", F_OK) < 0) {
			log_error("%s: .target.domain_type \"kvm\": host %s has no /dev/kvm (expected KVM enabled in the "
				  "BIOS and its module loaded, or \"domain_type\": \"qemu\" for TCG emulation)", env->file,
				  ho->name);
			ret = -ENODEV;
		}
	}
	return ret ? ret : target_check_devices(env, lv_setting_num(env, "allow_shared_device"), drive_here);
}

int lv_preflight_space(struct target *t)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	int ret = 0;

	if (lv->dry_run || !t->will_boot)
		return 0;
	for (size_t d = 0; d < env->ndrives && ret == 0; d++) {
		struct strbuf why;
		uint64_t fr, need;
		char a[32], b[32];
		if (!env->instances[d])
			continue;
		strbuf_init(&why, 0);
		need = drive_needs(t, d);
		if (need && drive_free(env, d, lv->drives[d].host->uri, lv->drives[d].host->conn,
				       lv->drives[d].pool_exists ? lv->drives[d].pool : NULL, &fr, &why) &&
		    fr < need) {
			gib(need, a, sizeof(a));
			gib(fr, b, sizeof(b));
			log_error("%s: drive %s: its VMs' volumes need %s once filled and %s has %s free (expected a "
				  "larger drive, smaller .target boot_size, prebuilt_size or under_test_size, or fewer VMs)",
				  env->file, env->drives[d].name, a,
				  env->drives[d].path ? env->drives[d].path : env->drives[d].pool, b);
			ret = -ENOSPC;
		}
		strbuf_release(&why);
	}
	return ret;
}

int lv_preflight_pools(struct target *t)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	bool allow = lv_setting_num(env, "allow_shared_device");

	if (lv->dry_run || !t->will_boot)
		return 0;
	for (size_t d = 0; d < env->ndrives; d++) {
		const struct lv_drive *ld = &lv->drives[d];
		for (size_t o = 0; o < d && env->instances[d] && ld->pool; o++) {
			const struct lv_drive *lo = &lv->drives[o];
			if (!env->instances[o] || !lo->pool || lo->host != ld->host || strcmp(lo->pool, ld->pool))
				continue;
			if (!allow) {
				log_error("%s: drives %s and %s are both in storage pool %s on host %s (expected a pool of "
					  "its own for every drive, or \"allow_shared_device\": true in .target)", env->file,
					  env->drives[o].name, env->drives[d].name, ld->pool, ld->host->name);
				return -EINVAL;
			}
			log_warn("%s: drives %s and %s are both in storage pool %s on host %s: they share its storage "
				 "(allowed by \"allow_shared_device\": true)", env->file, env->drives[o].name,
				 env->drives[d].name, ld->pool, ld->host->name);
		}
	}
	return 0;
}
