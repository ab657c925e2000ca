/*
 * What a libvirt campaign needs of its hosts, and the checks before anything is
 * made or boots:
 *   libvirt_plan      --plan's sizing: per drive the volumes' capacity once filled
 *                     against the free space there, per host the guests' RAM and
 *                     vCPUs against the host's (virNodeGetInfo), the restore copy
 *   lv_preflight_paths, lv_preflight_space  refusals, one line each: a missing base_image, kernel or
 *                     initrd, no /dev/kvm for a kvm domain, volumes that will not fit
 *                     their drive, two drives on one block device or a drive on the
 *                     OS's device ("allow_shared_device": true makes the last two
 *                     warnings)
 * Paths (base_image, drive paths, /dev/kvm) are checked where dbrig can see them:
 * on a local host (a URI without a server part, qemu:///system); a remote host's
 * free space comes from its pool (virStoragePoolGetInfo) when the pool exists.
 */
#include "target/libvirt/libvirt.h"

#include "core/blockdev.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <libvirt/virterror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
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
 * parent: a pool dbrig creates makes the folder) on a local host, else the pool's
 * available bytes. false: not known (why says so). */
static bool drive_free(const struct target_env *env, size_t d, const char *uri, virConnectPtr conn, uint64_t *out,
		       struct strbuf *why)
{
	const struct target_drive *dr = &env->drives[d];

	if (dr->path && lv_uri_local(uri) && !uri_test(uri)) {
		char p[4096];
		struct statvfs sv;
		snprintf(p, sizeof(p), "%s", dr->path);
		while (statvfs(p, &sv) < 0) {
			char *s = strrchr(p, '/');
			if (errno != ENOENT || !s || s == p) {
				strbuf_addf(why, "statvfs %s: %s", dr->path, strerror(errno));
				return false;
			}
			*s = '\0';
		}
		*out = (uint64_t)sv.f_bavail * sv.f_frsize;
		return true;
	}
	if (conn && dr->pool) {
		virStoragePoolPtr pool = virStoragePoolLookupByName(conn, dr->pool);
		virStoragePoolInfo info;
		bool ok = pool && virStoragePoolGetInfo(pool, &info) == 0;
		if (pool)
			virStoragePoolFree(pool);
		if (ok) {
			*out = info.available;
			return true;
		}
	}
	strbuf_addf(why, "not known (%s)", dr->path ? "the path is on a remote host" : "pool not reachable");
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
		known = drive_free(env, d, hosts->map[h].value, conns[h], &fr, &why);
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
	}
	gib(lv_vol_size(env, VMD_PREBUILT), b, sizeof(b));
	fprintf(out, "            restore before every run: each of its VMs' pre-built volume (up to %s) copied onto "
		"its under-test volume (%u VM(s) in all; copy time not estimated)\n", b, total);
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

/* The whole-disk devices (leaves) under a path: 0, or -errno (the path has no block device). */
static int leaves(const char *path, struct blockdev *out, size_t max, size_t *n)
{
	struct blockdev_chain ch = {0};
	int ret = blockdev_resolve(path, &ch, NULL);

	*n = 0;
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < ch.n && *n < max; i++)
		if (ch.v[i].leaf)
			out[(*n)++] = ch.v[i].dev;
	blockdev_chain_release(&ch);
	return 0;
}

static const struct blockdev *shared(const struct blockdev *a, size_t na, const struct blockdev *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (a[i].major == b[j].major && a[i].minor == b[j].minor)
				return &a[i];
	return NULL;
}

/* The existing parent of a path that may not exist yet (a pool dbrig creates). */
static void existing(const char *path, char *buf, size_t n)
{
	snprintf(buf, n, "%s", path);
	while (access(buf, F_OK) < 0) {
		char *s = strrchr(buf, '/');
		if (!s || s == buf) {
			snprintf(buf, n, "/");
			return;
		}
		*s = '\0';
	}
}

/* Two drives on one block device, or a drive on the OS's (the root file system's). */
static int check_devices(const struct target_env *env)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	bool allow = lv_setting_num(env, "allow_shared_device");
	struct blockdev root[BLOCKDEV_MAX_NODES], (*dev)[BLOCKDEV_MAX_NODES] = xcalloc(env->ndrives + 1, sizeof(*dev));
	size_t nroot = 0, *nd = xcalloc(env->ndrives + 1, sizeof(*nd));
	int ret = 0;

	if (leaves("/", root, BLOCKDEV_MAX_NODES, &nroot) < 0)
		nroot = 0;
	for (size_t d = 0; d < env->ndrives && ret == 0; d++) {
		const char *uri = hosts->map[host_of(env, d)].value;
		const struct blockdev *s;
		char p[4096];
		if (!env->drives[d].path || !env->instances[d] || !lv_uri_local(uri) || uri_test(uri))
			continue;
		existing(env->drives[d].path, p, sizeof(p));
		if (leaves(p, dev[d], BLOCKDEV_MAX_NODES, &nd[d]) < 0)
			continue;
		for (size_t o = 0; o < d && ret == 0; o++) {
			if (!(s = shared(dev[d], nd[d], dev[o], nd[o])))
				continue;
			if (allow) {
				log_warn("%s: drives %s and %s are both on block device %s: they share its bandwidth "
					 "(allowed by \"allow_shared_device\": true)", env->file, env->drives[o].name,
					 env->drives[d].name, s->name);
			} else {
				log_error("%s: drives %s (%s) and %s (%s) are both on block device %s (expected one "
					  "drive each, or \"allow_shared_device\": true in .target)", env->file,
					  env->drives[o].name, env->drives[o].path, env->drives[d].name,
					  env->drives[d].path, s->name);
				ret = -EINVAL;
			}
		}
		if (ret == 0 && (s = shared(dev[d], nd[d], root, nroot))) {
			if (allow) {
				log_warn("%s: drive %s (%s) is on block device %s, which holds the root file system "
					 "(allowed by \"allow_shared_device\": true)", env->file, env->drives[d].name,
					 env->drives[d].path, s->name);
			} else {
				log_error("%s: drive %s (%s) is on block device %s, which holds the root file system "
					  "(expected a drive of its own, or \"allow_shared_device\": true in .target)",
					  env->file, env->drives[d].name, env->drives[d].path, s->name);
				ret = -EINVAL;
			}
		}
	}
	free(dev);
	free(nd);
	return ret;
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
	return ret ? ret : check_devices(env);
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
		if (need && drive_free(env, d, lv->drives[d].host->uri, lv->drives[d].host->conn, &fr, &why) &&
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
