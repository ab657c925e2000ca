/*
 * Storage of the libvirt target: the drive's pool (found on the drive's path,
 * named, or created), each VM's volumes (boot from the base image, pre-built,
 * under-test, the cloud-init seed uploaded through a stream), clones for the
 * golden copy and restores, and their removal.
 */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/clock.h"
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

virStorageVolPtr lv_lookup_vol(struct target *t, size_t drive, const char *name, int *err)
{
	struct lv *lv = t->priv;
	virStoragePoolPtr pool;
	virStorageVolPtr vol = NULL;

	*err = 0;
	pool = virStoragePoolLookupByName(lv_conn(t, drive), lv->drives[drive].pool);
	if (!pool) {
		virErrorPtr e = virGetLastError();
		if (!(e && e->code == VIR_ERR_NO_STORAGE_POOL)) {
			lv_vir_fail(lv->drives[drive].pool, "virStoragePoolLookupByName");
			*err = -EIO;
		}
		return NULL;
	}
	vol = virStorageVolLookupByName(pool, name);
	if (!vol) {
		virErrorPtr e = virGetLastError();
		if (!(e && e->code == VIR_ERR_NO_STORAGE_VOL)) {
			lv_vir_fail(name, "virStorageVolLookupByName");
			*err = -EIO;
		}
	}
	virStoragePoolFree(pool);
	return vol;
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

virStoragePoolPtr lv_pool_on_path(virConnectPtr conn, const char *path)
{
	virStoragePoolPtr *pools = NULL, found = NULL;
	int n = virConnectListAllStoragePools(conn, &pools, 0);

	for (int i = 0; i < n; i++) {
		char *p = found ? NULL : pool_path(pools[i]);
		if (p && !strcmp(p, path))
			found = pools[i];
		else
			virStoragePoolFree(pools[i]);
		free(p);
	}
	free(pools);
	return found;
}

int lv_resolve_pool(struct target *t, size_t d)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_drive *ld = &lv->drives[d];
	const struct target_drive *dr = &env->drives[d];
	virConnectPtr conn = ld->host->conn;
	virStoragePoolPtr *pools = NULL, pool = NULL;
	struct strbuf sb;
	int n, ret = 0;

	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "dbrig-%s-%s", env->name, dr->name);
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
		lv_vir_fail(ld->host->uri, "virConnectListAllStoragePools");
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
	if (!lv_setting_num(env, "create_pools")) {
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

int lv_ensure_pool(struct target *t, size_t d)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_drive *ld = &lv->drives[d];
	virStoragePoolPtr pool = NULL;
	struct strbuf xml;
	int ret;

	if (ld->pool_exists)
		return 0;
	strbuf_init(&xml, 0);
	if ((ret = vm_render_pool(lv->tmpl_dir, ld->pool, env->drives[d].path, &xml)) < 0)
		goto out;
	if (lv->dry_run) {
		lv_dry_print(ld->host->uri, "define, build and start pool", ld->pool, xml.buf);
		ld->pool_exists = true;
		goto out;
	}
	ret = -EIO;
	pool = virStoragePoolDefineXML(ld->host->conn, xml.buf, 0);
	if (!pool) {
		lv_vir_fail(ld->pool, "virStoragePoolDefineXML");
		goto out;
	}
	ld->pool_exists = ld->pool_created = true;
	if (virStoragePoolBuild(pool, 0) < 0) {
		lv_vir_fail(ld->pool, "virStoragePoolBuild");
		goto out;
	}
	if (virStoragePoolCreate(pool, 0) < 0) {
		lv_vir_fail(ld->pool, "virStoragePoolCreate");
		goto out;
	}
	log_info("drive %s: created pool %s on %s (host %s)", env->drives[d].name, ld->pool, env->drives[d].path,
		 ld->host->name);
	ret = 0;
out:
	if (pool)
		virStoragePoolFree(pool);
	strbuf_release(&xml);
	return ret;
}

uint64_t lv_vol_size(const struct target_env *env, int role)
{
	switch ((enum vm_disk_role)role) {
	case VMD_BOOT:
		return lv_setting_num(env, "boot_size");
	case VMD_PREBUILT:
		return lv_setting_num(env, "prebuilt_size");
	case VMD_UNDERTEST:
		return lv_setting_num(env, "under_test_size");
	case VMD_SEED:
		return 0;
	}
	return 0;
}

/* "allocation": "full" preallocates the pre-built and under-test volumes (thick disks, as
 * published reviews run: no allocation on first write during a run), "sparse" leaves them
 * to grow as the guest writes. The boot overlay and the seed are always sparse. */
uint64_t lv_vol_allocation(const struct target_env *env, int role)
{
	if ((role != VMD_PREBUILT && role != VMD_UNDERTEST) || strcmp(lv_setting_str(env, "allocation"), "full"))
		return 0;
	return lv_vol_size(env, role);
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

/* Builds iso (the seed ISO) from dir's user-data and meta-data with genisoimage; < 0 (logged) when it cannot. */
static int run_genisoimage(const char *what, const char *dir, struct strbuf *iso, struct strbuf *err)
{
	int ret, status = 0;
	char *prog = proc_find_program("genisoimage", NULL);
	char ud_p[300], md_p[300];
	snprintf(ud_p, sizeof(ud_p), "%s/user-data", dir);
	snprintf(md_p, sizeof(md_p), "%s/meta-data", dir);
	char *argv[] = {prog, "-quiet", "-output", iso->buf, "-volid", "cidata", "-joliet", "-rock",
			ud_p, md_p, NULL};
	if (!prog) {
		log_error("%s: genisoimage is not installed (expected it in PATH to make the cloud-init seed; "
			  "apt-get install genisoimage, or \"cloud_init\": false)", what);
		ret = -ENOENT;
		return ret;
	}
	struct proc_spec spec = {.argv = argv};
	ret = proc_run(&spec, NULL, &status);
	free(prog);
	if (ret < 0) {
		proc_describe_status(status, err);
		log_error("%s: genisoimage %s", what, err->buf);
		return ret;
	}
	return ret;
}

/* Removes the seed folder's three files and the folder, err being the buffer for each file's path. */
static void remove_seed_dir(const char *dir, struct strbuf *err)
{
	const char *files[] = {"user-data", "meta-data", "seed.iso"};
	for (size_t i = 0; i < 3; i++) {
		strbuf_reset(err);
		strbuf_addf(err, "%s/%s", dir, files[i]);
		unlink(err->buf);
	}
	rmdir(dir);
}

/* The NoCloud ISO (volume id cidata) built here with genisoimage, uploaded into the pool. */
static int make_seed(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, virStorageVolPtr *out)
{
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	struct strbuf ud, md, iso, xml, err;
	char dir[] = "/tmp/dbrig-seed.XXXXXX", what[200];
	virStreamPtr st = NULL;
	virStorageVolPtr vol = NULL;
	struct upload u = {.fd = -1};
	struct stat stt;
	bool made = false;
	int ret;

	strbuf_init(&ud, 0);
	strbuf_init(&md, 0);
	strbuf_init(&iso, 0);
	strbuf_init(&xml, 0);
	strbuf_init(&err, 0);
	lv_what(t, inst, what, sizeof(what));
	if ((ret = lv_render_seed(t, inst, false, &ud, &md)) < 0)
		goto out;
	if (!mkdtemp(dir)) {
		ret = -errno;
		log_error("%s: cannot create a folder for the seed ISO: %s", what, strerror(errno));
		goto out;
	}
	made = true;
	if ((ret = write_text(dir, "user-data", &ud)) < 0 || (ret = write_text(dir, "meta-data", &md)) < 0) {
		log_error("%s: cannot write the seed files in %s: %s", what, dir, strerror(-ret));
		goto out;
	}
	strbuf_addf(&iso, "%s/seed.iso", dir);
	if ((ret = run_genisoimage(what, dir, &iso, &err)) < 0)
		goto out;
	u.fd = open(iso.buf, O_RDONLY | O_CLOEXEC);
	if (u.fd < 0 || fstat(u.fd, &stt) < 0) {
		ret = -errno;
		log_error("%s: cannot read %s: %s", what, iso.buf, strerror(errno));
		goto out;
	}
	if ((ret = vm_render_volume(lv->tmpl_dir, li->vol[VMD_SEED], (uint64_t)stt.st_size, 0, "raw", NULL, NULL, &xml)) < 0)
		goto out;
	ret = -EIO;
	vol = virStorageVolCreateXML(pool, xml.buf, 0);
	if (!vol) {
		lv_vir_fail(what, "virStorageVolCreateXML (seed)");
		goto out;
	}
	li->vol_created[VMD_SEED] = true;
	st = virStreamNew(lv->drives[inst->drive].host->conn, 0);
	if (!st) {
		lv_vir_fail(what, "virStreamNew");
		goto out;
	}
	if (virStorageVolUpload(vol, st, 0, (unsigned long long)stt.st_size, 0) < 0) {
		lv_vir_fail(what, "virStorageVolUpload");
		goto out;
	}
	if (virStreamSendAll(st, upload_source, &u) < 0) {
		lv_vir_fail(what, "virStreamSendAll");
		virStreamAbort(st);
		goto out;
	}
	if (virStreamFinish(st) < 0) {
		lv_vir_fail(what, "virStreamFinish");
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
	if (made)
		remove_seed_dir(dir, &err);
	strbuf_release(&ud);
	strbuf_release(&md);
	strbuf_release(&iso);
	strbuf_release(&xml);
	strbuf_release(&err);
	return ret;
}

int lv_create_volume(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, int role)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	const char *base = lv_setting_str(env, "base_image");
	bool copy = role == VMD_BOOT && base && !strcmp(lv_setting_str(env, "boot_mode"), "copy");
	const char *fmt = role == VMD_BOOT ? "qcow2" : lv_setting_str(env, "disk_format");
	virStorageVolPtr vol = NULL, src = NULL;
	struct strbuf xml;
	char what[200];
	int ret;

	lv_what(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	if (role == VMD_SEED && !lv->dry_run) {
		ret = make_seed(t, inst, pool, &vol);
		goto out;
	}
	if (role == VMD_SEED) {
		struct strbuf md;
		strbuf_init(&md, 0);
		ret = lv_render_seed(t, inst, true, &xml, &md);
		if (ret == 0) {
			printf("# %s: seed ISO %s (cidata, made with genisoimage and uploaded), user-data:\n%s",
			       lv->drives[inst->drive].host->uri, li->vol[VMD_SEED], xml.buf);
			printf("# meta-data:\n%s", md.buf);
		}
		strbuf_release(&md);
		goto out;
	}
	ret = vm_render_volume(lv->tmpl_dir, li->vol[role], lv_vol_size(env, role), lv_vol_allocation(env, role), fmt,
			       role == VMD_BOOT && base && !copy ? base : NULL, "qcow2", &xml);
	if (ret < 0)
		goto out;
	if (lv->dry_run) {
		lv_dry_print(lv->drives[inst->drive].host->uri, copy ? "clone base image into volume" : "create volume",
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
		lv_vir_fail(what, copy ? "virStorageVolCreateXMLFrom" : "virStorageVolCreateXML");
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

int lv_delete_vol(struct target *t, size_t drive, const char *name, const char *what)
{
	virStorageVolPtr vol;
	int err, ret = 0;

	vol = lv_lookup_vol(t, drive, name, &err);
	if (!vol)
		return err;
	if (virStorageVolDelete(vol, 0) < 0) {
		lv_vir_fail(what, "virStorageVolDelete");
		ret = -EIO;
	}
	virStorageVolFree(vol);
	return ret;
}

int lv_remove_pool(struct target *t, size_t d)
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
		log_warn("drive %s: pool %s still holds %d volume(s) that are not this campaign's; kept", t->env->drives[d].name,
			 ld->pool, n);
		goto out;
	}
	if (virStoragePoolIsActive(pool) == 1 && virStoragePoolDestroy(pool) < 0) {
		lv_vir_fail(ld->pool, "virStoragePoolDestroy");
		ret = -EIO;
		goto out;
	}
	if (virStoragePoolUndefine(pool) < 0) {
		lv_vir_fail(ld->pool, "virStoragePoolUndefine");
		ret = -EIO;
		goto out;
	}
	ld->pool_exists = false;
	log_info("drive %s: removed pool %s", t->env->drives[d].name, ld->pool);
out:
	virStoragePoolFree(pool);
	return ret;
}

/* dst <- clone of src (both in the drive's pool); dst is removed first. */
/*
 * dst <- src_name of drive src_drive's pool: cloned by the destination's host
 * (virStorageVolCreateXMLFrom, both pools on one host), or, with `stream`,
 * made anew in inst's drive's pool and filled through lv_stream_vol from the
 * source's host; a stream that breaks removes what it made, so nothing
 * partial is left. dst, a disk of this campaign's domain, is removed first.
 */
static int copy_vol(struct target *t, struct target_instance *inst, int dst_role, size_t src_drive,
		    const char *src_name, bool stream)
{
	const struct target_env *env = t->env;
	struct lv *lv = t->priv;
	struct lv_inst *li = lv_inst_priv(t, inst);
	virStoragePoolPtr pool = NULL;
	virStorageVolPtr src = NULL, vol = NULL;
	struct strbuf xml;
	char what[200];
	int ret;

	lv_what(t, inst, what, sizeof(what));
	strbuf_init(&xml, 0);
	if ((ret = lv_own_vol(t, inst, dst_role)) < 0 || (ret = lv_delete_vol(t, inst->drive, li->vol[dst_role], what)) < 0)
		goto out;
	ret = -EIO;
	pool = virStoragePoolLookupByName(lv_conn(t, inst->drive), lv->drives[inst->drive].pool);
	if (!pool) {
		lv_vir_fail(what, "virStoragePoolLookupByName");
		goto out;
	}
	/* In the source drive's pool, through its host's connection (the destination's, within one host). */
	src = lv_lookup_vol(t, src_drive, src_name, &ret);
	if (!src) {
		if (!ret)
			log_error("%s: drive %s has no volume %s to copy", what, env->drives[src_drive].name, src_name);
		ret = -EIO;
		goto out;
	}
	if ((ret = vm_render_volume(lv->tmpl_dir, li->vol[dst_role], lv_vol_size(env, dst_role),
				    lv_vol_allocation(env, dst_role), lv_setting_str(env, "disk_format"), NULL, NULL, &xml)) < 0)
		goto out;
	ret = -EIO;
	if (!stream) {
		if (!(vol = virStorageVolCreateXMLFrom(pool, xml.buf, src, 0)))
			lv_vir_fail(what, "virStorageVolCreateXMLFrom");
		else
			ret = 0;
		goto out;
	}
	virStorageVolInfo info;
	uint64_t copied;
	char label[300];
	/* The bytes the download sends (the file's size), else the capacity: for the progress only. */
	if (virStorageVolGetInfoFlags(src, &info, VIR_STORAGE_VOL_GET_PHYSICAL) < 0 && virStorageVolGetInfo(src, &info) < 0) {
		lv_vir_fail(what, "virStorageVolGetInfo");
		goto out;
	}
	if (!info.allocation)
		info.allocation = info.capacity;
	if (!(vol = virStorageVolCreateXML(pool, xml.buf, 0))) {
		lv_vir_fail(what, "virStorageVolCreateXML");
		goto out;
	}
	snprintf(label, sizeof(label), "%s: %s from host %s", what, li->vol[dst_role],
		 lv->drives[src_drive].host->name);
	if ((ret = lv_stream_vol(src, vol, info.allocation, LV_STREAM_PROGRESS_NS, label, &copied)) < 0) {
		log_error("%s: the stream from drive %s (host %s) broke after %" PRIu64 " of %llu bytes; the partial "
			  "volume is removed (a resumed campaign streams it again)", what, env->drives[src_drive].name,
			  lv->drives[src_drive].host->name, copied, info.allocation);
		if (virStorageVolDelete(vol, 0) < 0)
			lv_vir_fail(what, "virStorageVolDelete");
	}
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

int lv_clone_vol(struct target *t, struct target_instance *inst, int dst_role, size_t src_drive, const char *src_name)
{
	return copy_vol(t, inst, dst_role, src_drive, src_name, false);
}

int lv_stream_into(struct target *t, struct target_instance *inst, int dst_role, size_t src_drive, const char *src_name)
{
	return copy_vol(t, inst, dst_role, src_drive, src_name, true);
}
