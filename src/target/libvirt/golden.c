/* The libvirt target's golden copy: build_golden, clone_golden and verify (libvirt.c's ops table names them). */
#include "target/libvirt/libvirt.h"

#include "core/escape.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdlib.h>
#include <string.h>

/*
 * The drive's first VM, running on a fresh under-test disk, gets the workload's tables, then
 * their fingerprint (the campaign's loader, as on the local target): what every restore of
 * the drive must reproduce.
 */
static int load_first(struct target *t, struct target_instance *first, const char *what, struct strbuf *fp)
{
	struct target_endpoint ep;
	struct strbuf logp;
	int ret;

	if ((ret = libvirt_endpoint(t, first, &ep)) < 0)
		return ret;
	strbuf_init(&logp, 0);
	strbuf_addf(&logp, "%s/golden-%s.log", t->env->log_dir, t->env->drives[first->drive].name);
	ret = mkdir_p(t->env->log_dir, 0755);
	const char *log = ret == 0 ? logp.buf : NULL;
	if ((ret = t->env->loader->load(t->env->loader->arg, what, &ep, log)) == 0)
		ret = t->env->loader->fingerprint(t->env->loader->arg, what, &ep, log, fp);
	strbuf_release(&logp);
	return ret;
}

/* first's metadata records the drive's golden copy as complete: its content and fingerprint. */
static int golden_meta(struct target *t, struct target_instance *first, virDomainPtr dom, const char *id,
		       const char *fp, const char *what)
{
	struct lv *lv = t->priv;
	struct strbuf meta;
	int ret = 0;

	strbuf_init(&meta, 0);
	/* libvirt adds the namespace itself: the element goes in without prefix or xmlns
	 * (names are [A-Za-z0-9._-], the fingerprint plain text). */
	strbuf_addf(&meta, "<vm><campaign>%s</campaign><drive>%s</drive><instance>%s</instance><id>%s</id><golden>",
		    t->env->name, t->env->drives[first->drive].name, first->name, lv->id);
	escape_xml(&meta, id);
	strbuf_adds(&meta, "</golden><fingerprint>");
	escape_xml(&meta, fp);
	strbuf_adds(&meta, "</fingerprint></vm>");
	if (virDomainSetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, meta.buf, VM_METADATA_KEY, VM_METADATA_NS,
				 VIR_DOMAIN_AFFECT_CONFIG) < 0) {
		lv_vir_fail(what, "virDomainSetMetadata");
		ret = -EIO;
	}
	strbuf_release(&meta);
	return ret;
}

/* The drive's first VM (the one that loads or receives its golden copy), or NULL. */
static struct target_instance *first_of(struct lv *lv, size_t drive)
{
	for (size_t i = 0; i < lv->ninsts; i++)
		if (lv->insts[i].drive == drive)
			return &lv->insts[i];
	return NULL;
}

int libvirt_golden(struct target *t, size_t drive, struct strbuf *fp)
{
	struct lv *lv = t->priv;
	struct target_instance *first = NULL;
	virDomainPtr dom = NULL;
	char *golden = NULL, *done_fp = NULL, what[200];
	struct strbuf id;
	int ret;

	strbuf_init(&id, 0);
	t->env->loader->identity(t->env->loader->arg, &id);
	if (lv->dry_run) {
		strbuf_adds(fp, id.buf);
		goto done;
	}
	first = first_of(lv, drive);
	if (!first) {
		ret = 0;
		goto out;
	}
	lv_what(t, first, what, sizeof(what));
	if ((ret = lv_get_dom(t, first, &dom)) < 0)
		goto out;
	/* Complete: the metadata names this campaign's content and the fingerprint it had when loaded
	 * (a copy made before dbrig recorded fingerprints is loaded again). */
	if (lv_owned(dom, t, first, &golden, &lv_inst_priv(t, first)->why) == 1 && golden && !strcmp(golden, id.buf) &&
	    (done_fp = lv_dom_meta(dom, "fingerprint")) != NULL) {
		log_info("drive %s: golden copy already complete (%s; %s)", t->env->drives[drive].name, golden, done_fp);
		strbuf_adds(fp, done_fp);
		ret = 1;
		goto out;
	}
	/* Loaded from nothing: a fresh under-test disk, formatted by the guest at boot. */
	if ((ret = libvirt_stop(t, first)) < 0 || (ret = lv_own_vol(t, first, VMD_UNDERTEST)) < 0 ||
	    (ret = lv_delete_vol(t, drive, lv_inst_priv(t, first)->vol[VMD_UNDERTEST], what)) < 0)
		goto out;
	{
		virStoragePoolPtr pool = virStoragePoolLookupByName(lv_conn(t, drive), lv->drives[drive].pool);
		if (!pool) {
			lv_vir_fail(what, "virStoragePoolLookupByName");
			ret = -EIO;
			goto out;
		}
		ret = lv_create_volume(t, first, pool, VMD_UNDERTEST);
		virStoragePoolFree(pool);
		if (ret < 0)
			goto out;
	}
	strbuf_reset(fp);
	if ((ret = libvirt_start(t, first)) < 0 || (ret = load_first(t, first, what, fp)) < 0)
		goto stop;
	if ((ret = libvirt_stop(t, first)) < 0)
		goto out;
	for (size_t i = 0; i < lv->ninsts; i++) {
		if (lv->insts[i].drive != drive)
			continue;
		if ((ret = lv_clone_vol(t, &lv->insts[i], VMD_PREBUILT, drive, lv_inst_priv(t, first)->vol[VMD_UNDERTEST])) < 0)
			goto out;
	}
	if ((ret = golden_meta(t, first, dom, id.buf, fp->buf, what)) < 0)
		goto out;
	log_info("drive %s: golden copy cloned into every VM's pre-built volume", t->env->drives[drive].name);
done:
	ret = 0;
	goto out;
stop:
	if (libvirt_stop(t, first) < 0 && ret == 0)
		ret = -EIO;
out:
	free(golden);
	free(done_fp);
	if (dom)
		virDomainFree(dom);
	strbuf_release(&id);
	return ret;
}

/* The restored, running VM's fingerprint through the campaign's loader (the same check the golden copy had). */
int libvirt_verify(struct target *t, struct target_instance *inst, struct strbuf *fp)
{
	struct target_endpoint ep;
	struct strbuf logp;
	char what[200];
	int ret;

	if (((struct lv *)t->priv)->dry_run)
		return 0;
	lv_what(t, inst, what, sizeof(what));
	if ((ret = libvirt_endpoint(t, inst, &ep)) < 0)
		return ret;
	strbuf_init(&logp, 0);
	strbuf_addf(&logp, "%s/check-%s-%s.log", t->env->log_dir, t->env->drives[inst->drive].name, inst->name);
	ret = mkdir_p(t->env->log_dir, 0755);
	ret = t->env->loader->fingerprint(t->env->loader->arg, what, &ep, ret == 0 ? logp.buf : NULL, fp);
	strbuf_release(&logp);
	return ret;
}

/*
 * Drive `to`'s golden copy from drive `from`'s: from's first VM's pre-built
 * volume is cloned (virStorageVolCreateXMLFrom) into the pre-built volume of
 * every VM of `to` and into to's first VM's under-test disk, which boots for
 * the loader's fingerprint; to's first VM's metadata records it when it is
 * `expect`. A drive on another host receives it by stream instead (from's
 * host downloads, to's uploads, into to's first VM's pre-built volume), and
 * the rest is cloned from that on to's host; until the fingerprint on arrival
 * is `expect` nothing is marked complete, so a campaign stopped or failed
 * half-way streams again when resumed.
 */
int libvirt_clone_golden(struct target *t, size_t from, size_t to, const char *expect, struct strbuf *fp,
			 const char **how)
{
	struct lv *lv = t->priv;
	struct target_instance *src = first_of(lv, from), *first = first_of(lv, to);
	virDomainPtr dom = NULL;
	char *golden = NULL, *done_fp = NULL, what[200];
	const char *vol;
	struct strbuf id;
	int ret = 0;

	bool remote = lv->drives[from].host != lv->drives[to].host;
	size_t vdrive = from; /* where `vol` is */

	*how = remote ? "stream from another host" : "volume clone";
	strbuf_init(&id, 0);
	t->env->loader->identity(t->env->loader->arg, &id);
	if (lv->dry_run || !first) {
		strbuf_adds(fp, lv->dry_run ? expect : "");
		goto out;
	}
	lv_what(t, first, what, sizeof(what));
	if (!src) {
		log_error("%s: cannot clone drive %s's golden copy: it has no VM", what, t->env->drives[from].name);
		ret = -ENOTSUP;
		goto out;
	}
	if ((ret = lv_get_dom(t, first, &dom)) < 0)
		goto out;
	if (lv_owned(dom, t, first, &golden, &lv_inst_priv(t, first)->why) == 1 && golden && !strcmp(golden, id.buf) &&
	    (done_fp = lv_dom_meta(dom, "fingerprint")) != NULL && !strcmp(done_fp, expect)) {
		strbuf_adds(fp, done_fp);
		*how = "already complete";
		goto out;
	}
	if ((ret = lv_own_vol(t, src, VMD_PREBUILT)) < 0)
		goto out;
	vol = lv_inst_priv(t, src)->vol[VMD_PREBUILT];
	if (remote) {
		log_info("drive %s: streaming the golden copy from drive %s (host %s) to host %s", t->env->drives[to].name,
			 t->env->drives[from].name, lv->drives[from].host->name, lv->drives[to].host->name);
		if ((ret = libvirt_stop(t, first)) < 0 || (ret = lv_stream_into(t, first, VMD_PREBUILT, from, vol)) < 0)
			goto out;
		vol = lv_inst_priv(t, first)->vol[VMD_PREBUILT];
		vdrive = to;
	}
	for (size_t i = 0; i < lv->ninsts && ret == 0; i++)
		if (lv->insts[i].drive == to && (!remote || &lv->insts[i] != first))
			ret = lv_clone_vol(t, &lv->insts[i], VMD_PREBUILT, vdrive, vol);
	if (ret < 0 || (ret = libvirt_stop(t, first)) < 0 ||
	    (ret = lv_clone_vol(t, first, VMD_UNDERTEST, vdrive, vol)) < 0)
		goto out;
	if ((ret = libvirt_start(t, first)) == 0)
		ret = libvirt_verify(t, first, fp);
	if (libvirt_stop(t, first) < 0 && ret == 0)
		ret = -EIO;
	if (ret == 0 && !strcmp(fp->buf, expect))
		ret = golden_meta(t, first, dom, id.buf, fp->buf, what);
out:
	free(golden);
	free(done_fp);
	if (dom)
		virDomainFree(dom);
	strbuf_release(&id);
	return ret;
}
