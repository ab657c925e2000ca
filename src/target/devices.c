/*
 * What the targets check of the drives' paths on this machine before anything is made:
 * two drives on one block device, a drive on the root file system's device, and the free
 * space under a path (the local target's preflight, the libvirt target's for a local host).
 */
#include "target/target.h"

#include "core/blockdev.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

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

/* The existing parent of a path that may not exist yet (a folder or pool dbrig creates). */
static void existing(const char *path, char *buf, size_t n)
{
	snprintf(buf, n, "%s", path);
	while (access(buf, F_OK) < 0) {
		char *s = strrchr(buf, '/');
		if (!s || s == buf) {
			snprintf(buf, n, "%s", s == buf ? "/" : ".");
			return;
		}
		*s = '\0';
	}
}

int target_path_free(const char *path, uint64_t *out)
{
	char p[4096];
	struct statvfs sv;

	existing(path, p, sizeof(p));
	if (statvfs(p, &sv) < 0)
		return -errno;
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

/* One line: `warning`, allowed by "allow_shared_device": true (0); else `error`, whose "(expected ..."
 * clause this closes (-EINVAL). */
static int refuse_or_warn(const struct target_env *env, bool allow, const struct strbuf *warning,
			  const struct strbuf *error)
{
	if (allow) {
		log_warn("%s: %s (allowed by \"allow_shared_device\": true)", env->file, warning->buf);
		return 0;
	}
	log_error("%s: %s, or \"allow_shared_device\": true in .target)", env->file, error->buf);
	return -EINVAL;
}

int target_check_devices(const struct target_env *env, bool allow, bool (*here)(const struct target_env *env, size_t d))
{
	struct blockdev root[BLOCKDEV_MAX_NODES], (*dev)[BLOCKDEV_MAX_NODES] = xcalloc(env->ndrives + 1, sizeof(*dev));
	size_t nroot = 0, *nd = xcalloc(env->ndrives + 1, sizeof(*nd));
	struct strbuf w, e;
	int ret = 0;

	strbuf_init(&w, 0);
	strbuf_init(&e, 0);
	if (leaves("/", root, BLOCKDEV_MAX_NODES, &nroot) < 0)
		nroot = 0;
	for (size_t d = 0; d < env->ndrives && ret == 0; d++) {
		const struct blockdev *s;
		char p[4096];
		if (!env->drives[d].path || !env->instances[d] || (here && !here(env, d)))
			continue;
		existing(env->drives[d].path, p, sizeof(p));
		if (leaves(p, dev[d], BLOCKDEV_MAX_NODES, &nd[d]) < 0)
			continue;
		for (size_t o = 0; o < d && ret == 0; o++) {
			if (!(s = shared(dev[d], nd[d], dev[o], nd[o])))
				continue;
			strbuf_reset(&w);
			strbuf_reset(&e);
			strbuf_addf(&w, "drives %s and %s are both on block device %s: they share its bandwidth",
				    env->drives[o].name, env->drives[d].name, s->name);
			strbuf_addf(&e, "drives %s (%s) and %s (%s) are both on block device %s (expected one drive each",
				    env->drives[o].name, env->drives[o].path, env->drives[d].name, env->drives[d].path,
				    s->name);
			ret = refuse_or_warn(env, allow, &w, &e);
		}
		if (ret == 0 && (s = shared(dev[d], nd[d], root, nroot))) {
			strbuf_reset(&w);
			strbuf_addf(&w, "drive %s (%s) is on block device %s, which holds the root file system",
				    env->drives[d].name, env->drives[d].path, s->name);
			strbuf_reset(&e);
			strbuf_addf(&e, "%s (expected a drive of its own", w.buf);
			ret = refuse_or_warn(env, allow, &w, &e);
		}
	}
	strbuf_release(&w);
	strbuf_release(&e);
	free(dev);
	free(nd);
	return ret;
}
