/*
 * Block-device resolution on real devices (root: loop devices, ext4, a
 * partition table) and on a made-up sysfs tree for device-mapper, which this
 * machine's kernel lacks. Also the diskstats of a real loop device moving
 * after I/O. Without root the test fails: it cannot check anything.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/blockdev.h"
#include "core/strbuf.h"
#include "core/sysstat.h"

static char tmp[] = "/tmp/dbrig-blockdev-XXXXXX";
static char loops[3][32];  /* attached here, detached at teardown */
static char mounts[3][300];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	struct strbuf cmd;
	va_list ap;
	int st;

	strbuf_init(&cmd, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_adds(&cmd, " >/dev/null 2>&1");
	st = system(cmd.buf);
	if (st != 0)
		fprintf(stderr, "test_blockdev: failed (%d): %s\n", st, cmd.buf);
	strbuf_release(&cmd);
	return st;
}

/* losetup -f --show: the new device ("/dev/loopN") into out. */
static int attach(const char *opts, const char *file, char *out, size_t n)
{
	char cmd[600];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "losetup -f --show %s '%s'", opts, file);
	p = popen(cmd, "r");
	if (!p || !fgets(out, (int)n, p)) {
		if (p)
			pclose(p);
		return -1;
	}
	out[strcspn(out, "\n")] = '\0';
	return pclose(p) == 0 ? 0 : -1;
}

static const char *kname(const char *devpath)
{
	return strrchr(devpath, '/') + 1;
}

static void write_attr(const char *dir, const char *name, const char *text)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		fprintf(stderr, "test_blockdev: needs root (loop devices, mount); CI runs as root\n");
		return -1;
	}
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 2; i >= 0; i--) {
		if (mounts[i][0])
			sh("umount '%s'", mounts[i]);
		if (loops[i][0])
			sh("losetup -d %s", loops[i]);
	}
	sh("rm -rf '%s'", tmp);
	return 0;
}

/* The chain of the folder the images live in (the machine's own disk),
 * or none when /tmp has no block device (a container's overlay). */
static int tmp_chain(struct blockdev_chain *c)
{
	return blockdev_resolve(tmp, c, NULL);
}

/* The nodes of `sub` appear in `c` from index `at` on, in order. */
static void assert_tail(const struct blockdev_chain *c, size_t at, const struct blockdev_chain *sub)
{
	assert_int_equal(c->n, at + sub->n);
	for (size_t i = 0; i < sub->n; i++) {
		assert_string_equal(c->v[at + i].dev.name, sub->v[i].dev.name);
		assert_int_equal(c->v[at + i].leaf, sub->v[i].leaf);
	}
}

/*
 * ext4 on loop B, whose backing file sits on ext4 on loop A, whose backing
 * file sits in /tmp: B (mount) <- A (loop backing) <- /tmp's disk.
 */
static void loop_over_file_on_ext4(void **state)
{
	struct blockdev_chain c = {0}, base = {0};
	struct blockdev sampled[8];
	struct strbuf err, desc;
	char img[400];
	size_t ns;
	int tr;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&desc, 0);
	snprintf(img, sizeof(img), "%s/a.img", tmp);
	assert_int_equal(sh("truncate -s 64M '%s'", img), 0);
	assert_int_equal(attach("", img, loops[0], sizeof(loops[0])), 0);
	assert_int_equal(sh("mkfs.ext4 -q -F %s", loops[0]), 0);
	snprintf(mounts[0], sizeof(mounts[0]), "%s/a", tmp);
	assert_int_equal(sh("mkdir -p '%s' && mount %s '%s'", mounts[0], loops[0], mounts[0]), 0);
	snprintf(img, sizeof(img), "%s/b.img", mounts[0]);
	assert_int_equal(sh("truncate -s 24M '%s'", img), 0);
	assert_int_equal(attach("--direct-io=on", img, loops[1], sizeof(loops[1])), 0);
	assert_int_equal(sh("mkfs.ext4 -q -F %s", loops[1]), 0);
	snprintf(mounts[1], sizeof(mounts[1]), "%s/b", tmp);
	assert_int_equal(sh("mkdir -p '%s' && mount %s '%s'", mounts[1], loops[1], mounts[1]), 0);
	assert_int_equal(sh("mkdir -p '%s/data'", mounts[1]), 0);

	snprintf(img, sizeof(img), "%s/data", mounts[1]);
	assert_int_equal(blockdev_resolve(img, &c, &err), 0);
	assert_true(c.n >= 2);
	assert_string_equal(c.v[0].dev.name, kname(loops[1]));
	assert_int_equal(c.v[0].via, BLOCKDEV_VIA_MOUNT);
	assert_int_equal(c.v[0].parent, -1);
	assert_false(c.v[0].leaf);
	assert_non_null(c.v[0].backing);
	assert_non_null(strstr(c.v[0].backing, "/a/b.img"));
	assert_string_equal(c.v[1].dev.name, kname(loops[0]));
	assert_int_equal(c.v[1].via, BLOCKDEV_VIA_LOOP);
	assert_int_equal(c.v[1].parent, 0);
	tr = tmp_chain(&base);
	if (tr == 0) {
		/* Below loop A: exactly what /tmp itself resolves to. */
		assert_false(c.v[1].leaf);
		assert_int_equal(c.v[2].via, BLOCKDEV_VIA_LOOP);
		assert_int_equal(c.v[2].parent, 1);
		assert_tail(&c, 2, &base);
	} else {
		assert_int_equal(tr, -ENODEV);
		assert_true(c.v[1].leaf);
		assert_int_equal(c.n, 2);
	}
	/* Sampled: the top (loop B) and the leaves, once each. */
	ns = blockdev_chain_sampled(&c, sampled, 8);
	assert_true(ns >= 2);
	assert_string_equal(sampled[0].name, kname(loops[1]));
	for (size_t i = 1; i < ns; i++)
		assert_string_not_equal(sampled[i].name, kname(loops[1]));
	blockdev_chain_describe(&c, &desc);
	assert_non_null(strstr(desc.buf, kname(loops[1])));
	assert_non_null(strstr(desc.buf, " on "));
	assert_non_null(strstr(desc.buf, "(file "));

	/* The sampling arithmetic on the real device: 1 MiB written with
	 * O_DIRECT shows as at least 2,048 sectors written. */
	{
		struct sysstat_disk a, b;
		struct sysstat_disk_rates r;
		char file[400];
		void *buf;
		int fd;

		assert_int_equal(sysstat_disk_read("/proc/diskstats", &c.v[0].dev, 1, &a), 0);
		snprintf(file, sizeof(file), "%s/data/f", mounts[1]);
		fd = open(file, O_CREAT | O_WRONLY | O_DIRECT, 0644);
		assert_true(fd >= 0);
		assert_int_equal(posix_memalign(&buf, 4096, 1 << 20), 0);
		memset(buf, 0x5a, 1 << 20);
		assert_int_equal(write(fd, buf, 1 << 20), 1 << 20);
		assert_int_equal(fdatasync(fd), 0);
		close(fd);
		free(buf);
		assert_int_equal(sysstat_disk_read("/proc/diskstats", &c.v[0].dev, 1, &b), 0);
		assert_true(b.wr_sectors - a.wr_sectors >= 2048);
		assert_true(b.wr_ios > a.wr_ios);
		sysstat_disk_rates(&a, &b, 1.0, &r);
		assert_true(r.w_mbps >= 1.048576 - 1e-9);
	}
	blockdev_chain_release(&c);
	blockdev_chain_release(&base);
	strbuf_release(&err);
	strbuf_release(&desc);
}

/* ext4 on the first partition of a loop device: p1 -> the loop -> /tmp's disk. */
static void partition(void **state)
{
	struct blockdev_chain c = {0}, base = {0};
	struct strbuf err;
	char img[400], part[48];

	(void)state;
	strbuf_init(&err, 0);
	snprintf(img, sizeof(img), "%s/p.img", tmp);
	assert_int_equal(sh("truncate -s 40M '%s' && echo 'start=2048, type=83' | sfdisk -q '%s'", img, img), 0);
	assert_int_equal(attach("-P", img, loops[2], sizeof(loops[2])), 0);
	snprintf(part, sizeof(part), "%sp1", loops[2]);
	/* Kernels built without partition parsers (this machine's) leave the
	 * table to user space: partx adds what the kernel did not. */
	assert_int_equal(sh("[ -b %s ] || partx -a %s; mkfs.ext4 -q -F %s", part, loops[2], part), 0);
	snprintf(mounts[2], sizeof(mounts[2]), "%s/p", tmp);
	assert_int_equal(sh("mkdir -p '%s' && mount %s '%s'", mounts[2], part, mounts[2]), 0);
	assert_int_equal(blockdev_resolve(mounts[2], &c, &err), 0);
	assert_true(c.n >= 2);
	assert_string_equal(c.v[0].dev.name, kname(part));
	assert_false(c.v[0].leaf);
	assert_string_equal(c.v[1].dev.name, kname(loops[2]));
	assert_int_equal(c.v[1].via, BLOCKDEV_VIA_PARTITION);
	assert_int_equal(c.v[1].parent, 0);
	assert_non_null(c.v[1].backing);
	assert_non_null(strstr(c.v[1].backing, "/p.img"));
	if (tmp_chain(&base) == 0)
		assert_tail(&c, 2, &base);
	else
		assert_true(c.v[1].leaf);
	blockdev_chain_release(&c);
	blockdev_chain_release(&base);
	strbuf_release(&err);
}

/*
 * A made-up sysfs: dm-0 ("vg-data") on sda2 (partition of sda) and on sdb.
 * Chain: dm-0, sda2 (slave), sda (partition), sdb (slave); leaves sda, sdb.
 */
static void device_mapper_fake_sysfs(void **state)
{
	struct blockdev_chain c = {0};
	struct blockdev s[8];
	struct strbuf err, desc, root;

	(void)state;
	strbuf_init(&err, 0);
	strbuf_init(&desc, 0);
	strbuf_init(&root, 0);
	strbuf_addf(&root, "%s/sys", tmp);
	assert_int_equal(sh("cd '%s' && mkdir -p sys/dev/block sys/devices/virtual/block/dm-0/dm "
			    "sys/devices/virtual/block/dm-0/slaves sys/devices/pci0/block/sda/sda2 "
			    "sys/devices/pci0/block/sdb sys/devices/pci0/block/sda/sda1", tmp), 0);
	write_attr(root.buf, "devices/virtual/block/dm-0/dev", "253:0\n");
	write_attr(root.buf, "devices/virtual/block/dm-0/dm/name", "vg-data\n");
	write_attr(root.buf, "devices/pci0/block/sda/dev", "8:0\n");
	write_attr(root.buf, "devices/pci0/block/sda/sda2/dev", "8:2\n");
	write_attr(root.buf, "devices/pci0/block/sda/sda2/partition", "2\n");
	write_attr(root.buf, "devices/pci0/block/sda/sda1/dev", "8:1\n");
	write_attr(root.buf, "devices/pci0/block/sda/sda1/partition", "1\n");
	write_attr(root.buf, "devices/pci0/block/sdb/dev", "8:16\n");
	assert_int_equal(sh("cd '%s/sys' && ln -s ../../devices/virtual/block/dm-0 dev/block/253:0 && "
			    "ln -s ../../devices/pci0/block/sda dev/block/8:0 && "
			    "ln -s ../../devices/pci0/block/sda/sda1 dev/block/8:1 && "
			    "ln -s ../../devices/pci0/block/sda/sda2 dev/block/8:2 && "
			    "ln -s ../../devices/pci0/block/sdb dev/block/8:16 && "
			    "ln -s ../../../../pci0/block/sda/sda2 devices/virtual/block/dm-0/slaves/sda2 && "
			    "ln -s ../../../../pci0/block/sdb devices/virtual/block/dm-0/slaves/sdb", tmp), 0);
	assert_int_equal(blockdev_resolve_dev(root.buf, 253, 0, &c, &err), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].dev.name, "dm-0");
	assert_string_equal(c.v[0].dm_name, "vg-data");
	assert_string_equal(c.v[1].dev.name, "sda2");
	assert_int_equal(c.v[1].via, BLOCKDEV_VIA_SLAVE);
	assert_string_equal(c.v[2].dev.name, "sda");
	assert_int_equal(c.v[2].via, BLOCKDEV_VIA_PARTITION);
	assert_int_equal(c.v[2].parent, 1);
	assert_int_equal(c.v[2].dev.major, 8);
	assert_int_equal(c.v[2].dev.minor, 0);
	assert_string_equal(c.v[3].dev.name, "sdb");
	assert_int_equal(c.v[3].parent, 0);
	assert_false(c.v[0].leaf || c.v[1].leaf);
	assert_true(c.v[2].leaf && c.v[3].leaf);
	assert_int_equal(blockdev_chain_sampled(&c, s, 8), 3);
	assert_string_equal(s[0].name, "dm-0");
	assert_string_equal(s[1].name, "sda");
	assert_string_equal(s[2].name, "sdb");
	blockdev_chain_describe(&c, &desc);
	assert_string_equal(desc.buf, "dm-0 [vg-data] on (sda2 on sda, sdb)");
	blockdev_chain_release(&c);

	/* A second slave on the same disk (sda1) reaches sda once. */
	assert_int_equal(sh("cd '%s/sys' && ln -s ../../../../pci0/block/sda/sda1 devices/virtual/block/dm-0/slaves/sda1",
			    tmp), 0);
	assert_int_equal(blockdev_resolve_dev(root.buf, 253, 0, &c, &err), 0);
	assert_int_equal(c.n, 5); /* dm-0, sda1, sda, sda2, sdb */
	assert_int_equal(blockdev_chain_sampled(&c, s, 8), 3);
	blockdev_chain_release(&c);

	/* A device number sysfs does not know: one line naming it. */
	assert_int_equal(blockdev_resolve_dev(root.buf, 9, 9, &c, &err), -EIO);
	assert_non_null(strstr(err.buf, "block device 9:9"));
	assert_int_equal(c.n, 0);
	strbuf_release(&err);
	strbuf_release(&desc);
	strbuf_release(&root);
}

/* proc has no block device; a missing path is ENOENT; both say so. */
static void no_block_device(void **state)
{
	struct blockdev_chain c = {0};
	struct strbuf err;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(blockdev_resolve("/proc/self", &c, &err), -ENODEV);
	assert_non_null(strstr(err.buf, "/proc/self: on a proc filesystem"));
	assert_non_null(strstr(err.buf, "no block device"));
	strbuf_reset(&err);
	assert_int_equal(blockdev_resolve("/nonexistent/dbrig", &c, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "/nonexistent/dbrig: No such file or directory"));
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_block_device),
		cmocka_unit_test(device_mapper_fake_sysfs),
		cmocka_unit_test(loop_over_file_on_ext4),
		cmocka_unit_test(partition),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
