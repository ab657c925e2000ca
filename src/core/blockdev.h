/*
 * Which block devices carry a path's I/O.
 *
 * blockdev_resolve(path) starts from the device the path's filesystem is
 * mounted from (stat's st_dev; through /proc/self/mountinfo when the
 * filesystem reports an anonymous device, as btrfs does) and follows sysfs
 * down to the devices that do the I/O:
 *   partition      -> the whole disk it is part of (sda2 -> sda)
 *   device-mapper, md and anything else with holders -> each of its
 *                     /sys/block/X/slaves (dm-0 -> sda2, sdb)
 *   loop           -> the device under its backing file (loop3 -> the
 *                     filesystem holding /var/img/a.img -> vda), recursively
 * The result is a tree flattened in visit order: v[0] is the top (the device
 * the filesystem is on), every other node names the node it was reached from.
 * Leaves are the devices that do the I/O: a leaf has no whole disk above it,
 * no slaves and no loop backing file (a loop whose backing file sits on a
 * filesystem without a block device, tmpfs say, is a leaf too).
 *
 * What a sampler reads is the top (the load as the database's filesystem sees
 * it) and the leaves (the drives), each once: blockdev_chain_sampled.
 *
 * Names are the kernel's (as in /proc/diskstats); major:minor identify a
 * device. A path on a filesystem without any block device (tmpfs, proc, NFS)
 * is -ENODEV, with a message naming the filesystem type.
 */
#ifndef DBRIG_CORE_BLOCKDEV_H
#define DBRIG_CORE_BLOCKDEV_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

#define BLOCKDEV_NAME_MAX 32
#define BLOCKDEV_MAX_NODES 32   /* a deeper or wider stack is refused (-ELOOP) */

struct blockdev {
	unsigned major, minor;
	char name[BLOCKDEV_NAME_MAX]; /* kernel name: "nvme0n1p2", "dm-0", "loop3" */
};

enum blockdev_via {
	BLOCKDEV_VIA_MOUNT,     /* the filesystem is on it (v[0] only) */
	BLOCKDEV_VIA_PARTITION, /* the whole disk of the partition `parent` */
	BLOCKDEV_VIA_SLAVE,     /* a slave of `parent` (device-mapper, md) */
	BLOCKDEV_VIA_LOOP,      /* holds the backing file of loop device `parent` */
};

struct blockdev_node {
	struct blockdev dev;
	enum blockdev_via via;
	int parent;             /* index into the chain, -1 for v[0] */
	bool leaf;
	char *backing;          /* loop devices: the backing file; else NULL */
	char *dm_name;          /* device-mapper devices: dm/name ("vg-data"); else NULL */
};

struct blockdev_chain {
	size_t n;
	struct blockdev_node *v;
};

/* Resolve the devices under `path`. 0, or -errno with one line in err:
 * -ENOENT the path, -ENODEV no block device, -ELOOP too deep, -EIO sysfs
 * unreadable. `err` may be NULL. */
int blockdev_resolve(const char *path, struct blockdev_chain *out, struct strbuf *err)
	__attribute__((warn_unused_result));

/* The same from a device number, under a sysfs root (tests pass a fake tree;
 * "/sys" otherwise). Loop backing files are resolved through the real
 * filesystem. */
int blockdev_resolve_dev(const char *sysfs, unsigned major, unsigned minor, struct blockdev_chain *out,
			 struct strbuf *err) __attribute__((warn_unused_result));

void blockdev_chain_release(struct blockdev_chain *c); /* accepts a zeroed chain */

/* The top, then every leaf not already listed; returns how many (<= max). */
size_t blockdev_chain_sampled(const struct blockdev_chain *c, struct blockdev *out, size_t max);

/* "loop1 (file /x/a.img) on loop0 (file /b.img) on vda", or, branching,
 * "dm-0 [vg-data] on sda2 (partition of sda), sdb". */
void blockdev_chain_describe(const struct blockdev_chain *c, struct strbuf *sb);

#endif
