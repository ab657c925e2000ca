#include "core/blockdev.h"

#include "core/fileio.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void fail(struct strbuf *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct strbuf *err, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->len)
		return; /* the first, innermost message wins */
	va_start(ap, fmt);
	strbuf_vaddf(err, fmt, ap);
	va_end(ap);
}

/* A small sysfs file without its trailing newline; NULL when absent. */
static char *read_attr(const char *dir, const char *name)
{
	struct strbuf p;
	char *text = NULL;
	size_t len = 0;

	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s/%s", dir, name);
	if (read_file(p.buf, &text, &len) < 0)
		text = NULL;
	strbuf_release(&p);
	while (text && len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	return text;
}

static int parse_devno(const char *s, unsigned *major, unsigned *minor)
{
	char tail;

	return s && sscanf(s, "%u:%u%c", major, minor, &tail) == 2 ? 0 : -EIO;
}

/*
 * The mount whose device number is st_dev (0:N, an anonymous device) and
 * which holds `path`: the longest mount point that prefixes it. Gives the
 * filesystem type and source.
 */
static int mount_of(const char *path, dev_t dev, char *fstype, size_t ftn, char *source, size_t sn)
{
	char real[PATH_MAX], *text = NULL, *line, *save = NULL;
	size_t len, best = 0;
	int ret = -ENOENT;

	if (!realpath(path, real) || read_file("/proc/self/mountinfo", &text, &len) < 0)
		return -ENOENT;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned ma, mi;
		char mnt[PATH_MAX], fs[64], src[PATH_MAX], *sep = strstr(line, " - ");
		size_t ml;

		if (!sep || sscanf(line, "%*s %*s %u:%u %*s %4095s", &ma, &mi, mnt) != 3 ||
		    sscanf(sep + 3, "%63s %4095s", fs, src) != 2)
			continue;
		if (makedev(ma, mi) != dev)
			continue;
		ml = strlen(mnt);
		if (strncmp(real, mnt, ml) || (ml > 1 && real[ml] && real[ml] != '/'))
			continue;
		if (ret == 0 && ml < best)
			continue;
		best = ml;
		snprintf(fstype, ftn, "%s", fs);
		snprintf(source, sn, "%s", src);
		ret = 0;
	}
	free(text);
	return ret;
}

/* The block device number under `path`'s filesystem. */
static int path_dev(const char *path, unsigned *major, unsigned *minor, struct strbuf *err)
{
	struct stat st, bs;
	char fstype[64] = "?", source[PATH_MAX] = "?";

	if (stat(path, &st) < 0) {
		int e = errno;
		fail(err, "%s: %s (expected a path on a drive)", path, strerror(e));
		return -e;
	}
	if (major(st.st_dev) != 0) {
		*major = major(st.st_dev);
		*minor = minor(st.st_dev);
		return 0;
	}
	/* Anonymous device: btrfs and the like name the real one as the source. */
	if (mount_of(path, st.st_dev, fstype, sizeof(fstype), source, sizeof(source)) == 0 &&
	    !strncmp(source, "/dev/", 5) && stat(source, &bs) == 0 && S_ISBLK(bs.st_mode)) {
		*major = major(bs.st_rdev);
		*minor = minor(bs.st_rdev);
		return 0;
	}
	fail(err, "%s: on a %s filesystem (source %s), which has no block device (expected a path on a drive)",
	     path, fstype, source);
	return -ENODEV;
}

static int chain_find(const struct blockdev_chain *c, unsigned major, unsigned minor)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].dev.major == major && c->v[i].dev.minor == minor)
			return (int)i;
	return -1;
}

static int walk(const char *sysfs, unsigned major, unsigned minor, enum blockdev_via via, int parent,
		struct blockdev_chain *c, struct strbuf *err);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each entry of dir/slaves, in name order. */
static int walk_slaves(const char *sysfs, const char *dir, int idx, struct blockdev_chain *c, struct strbuf *err,
		       bool *any)
{
	struct strbuf p;
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int ret = 0;

	*any = false;
	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s/slaves", dir);
	d = opendir(p.buf);
	if (!d)
		goto out;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n) /* qsort(NULL, 0, ...) is undefined: a device without holders/slaves */
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && ret == 0; i++) {
		unsigned ma, mi;
		char *sub;

		strbuf_reset(&p);
		strbuf_addf(&p, "%s/slaves/%s", dir, names[i]);
		sub = read_attr(p.buf, "dev");
		if (parse_devno(sub, &ma, &mi) < 0) {
			fail(err, "%s/dev: unreadable (expected \"major:minor\")", p.buf);
			ret = -EIO;
		} else {
			*any = true;
			ret = walk(sysfs, ma, mi, BLOCKDEV_VIA_SLAVE, idx, c, err);
		}
		free(sub);
	}
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&p);
	return ret;
}

/* A loop device: the device under its backing file, or a leaf when there is none. */
static int walk_loop(const char *sysfs, int idx, char *backing, struct blockdev_chain *c, struct strbuf *err)
{
	static const char deleted[] = " (deleted)";
	size_t bl = strlen(backing);
	unsigned ma, mi;
	int ret;

	if (bl > sizeof(deleted) - 1 && !strcmp(backing + bl - (sizeof(deleted) - 1), deleted))
		backing[bl - (sizeof(deleted) - 1)] = '\0';
	c->v[idx].backing = backing;
	ret = path_dev(backing, &ma, &mi, NULL);
	if (ret < 0) {
		/* Deleted file, or a filesystem without a device (tmpfs): the loop does the I/O. */
		c->v[idx].leaf = true;
		return 0;
	}
	return walk(sysfs, ma, mi, BLOCKDEV_VIA_LOOP, idx, c, err);
}

static int walk(const char *sysfs, unsigned major, unsigned minor, enum blockdev_via via, int parent,
		struct blockdev_chain *c, struct strbuf *err)
{
	struct strbuf link;
	char dir[PATH_MAX], *attr = NULL, *base;
	int idx, ret = 0;
	bool any;

	if (chain_find(c, major, minor) >= 0)
		return 0; /* reached twice (two partitions of one disk under a dm device) */
	if (c->n >= BLOCKDEV_MAX_NODES) {
		fail(err, "block device %u:%u: more than %d devices in its stack (expected a simpler stack)", major,
		     minor, BLOCKDEV_MAX_NODES);
		return -ELOOP;
	}
	strbuf_init(&link, 0);
	strbuf_addf(&link, "%s/dev/block/%u:%u", sysfs, major, minor);
	if (!realpath(link.buf, dir)) {
		fail(err, "%s: %s (expected the sysfs entry of block device %u:%u)", link.buf, strerror(errno), major,
		     minor);
		ret = -EIO;
		goto out;
	}
	base = strrchr(dir, '/');
	c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	idx = (int)c->n++;
	memset(&c->v[idx], 0, sizeof(c->v[idx]));
	c->v[idx].dev.major = major;
	c->v[idx].dev.minor = minor;
	{
		const char *nm = base ? base + 1 : dir;
		size_t nl = strlen(nm);

		if (nl >= sizeof(c->v[idx].dev.name))
			nl = sizeof(c->v[idx].dev.name) - 1; /* kernel names are at most 31 characters */
		memcpy(c->v[idx].dev.name, nm, nl);
		c->v[idx].dev.name[nl] = '\0';
	}
	c->v[idx].via = via;
	c->v[idx].parent = parent;
	c->v[idx].dm_name = read_attr(dir, "dm/name");

	if ((attr = read_attr(dir, "partition"))) {
		unsigned ma, mi;

		/* The partition's folder sits in its disk's: sda/sda2. */
		free(attr);
		*base = '\0';
		attr = read_attr(dir, "dev");
		if (parse_devno(attr, &ma, &mi) < 0) {
			fail(err, "%s/dev: unreadable (expected \"major:minor\" of the disk holding %s)", dir,
			     c->v[idx].dev.name);
			ret = -EIO;
			goto out;
		}
		ret = walk(sysfs, ma, mi, BLOCKDEV_VIA_PARTITION, idx, c, err);
		goto out;
	}
	if ((ret = walk_slaves(sysfs, dir, idx, c, err, &any)) < 0 || any)
		goto out;
	if ((attr = read_attr(dir, "loop/backing_file"))) {
		ret = walk_loop(sysfs, idx, attr, c, err);
		attr = NULL; /* owned by the node now */
		goto out;
	}
	c->v[idx].leaf = true;
out:
	free(attr);
	strbuf_release(&link);
	return ret;
}

int blockdev_resolve_dev(const char *sysfs, unsigned major, unsigned minor, struct blockdev_chain *out,
			 struct strbuf *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = walk(sysfs, major, minor, BLOCKDEV_VIA_MOUNT, -1, out, err);
	if (ret < 0)
		blockdev_chain_release(out);
	return ret;
}

int blockdev_resolve(const char *path, struct blockdev_chain *out, struct strbuf *err)
{
	unsigned ma, mi;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = path_dev(path, &ma, &mi, err);
	if (ret < 0)
		return ret;
	return blockdev_resolve_dev("/sys", ma, mi, out, err);
}

void blockdev_chain_release(struct blockdev_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].backing);
		free(c->v[i].dm_name);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

size_t blockdev_chain_sampled(const struct blockdev_chain *c, struct blockdev *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n && n < max; i++)
		if (i == 0 || c->v[i].leaf)
			out[n++] = c->v[i].dev;
	return n;
}

static void describe(const struct blockdev_chain *c, size_t i, struct strbuf *sb)
{
	size_t nchild = 0;

	strbuf_adds(sb, c->v[i].dev.name);
	if (c->v[i].dm_name)
		strbuf_addf(sb, " [%s]", c->v[i].dm_name);
	if (c->v[i].backing)
		strbuf_addf(sb, " (file %s)", c->v[i].backing);
	for (size_t k = i + 1; k < c->n; k++)
		nchild += c->v[k].parent == (int)i;
	if (!nchild)
		return;
	strbuf_adds(sb, nchild > 1 ? " on (" : " on ");
	for (size_t k = i + 1, seen = 0; k < c->n; k++) {
		if (c->v[k].parent != (int)i)
			continue;
		if (seen++)
			strbuf_adds(sb, ", ");
		describe(c, k, sb);
	}
	if (nchild > 1)
		strbuf_addc(sb, ')');
}

void blockdev_chain_describe(const struct blockdev_chain *c, struct strbuf *sb)
{
	if (c->n)
		describe(c, 0, sb);
}
