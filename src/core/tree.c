#define _GNU_SOURCE /* copy_file_range */
#include "core/tree.h"

#include "core/fileio.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

bool tree_is_marked(const char *path)
{
	struct strbuf sb;
	bool ok;

	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", path, TREE_MARKER);
	ok = access(sb.buf, F_OK) == 0;
	strbuf_release(&sb);
	return ok;
}

int tree_make_marked(const char *path, const char *what)
{
	struct strbuf sb;
	struct stat st;
	int ret = 0;

	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	strbuf_init(&sb, 0);
	ret = mkdir_p(path, 0755);
	if (ret < 0)
		goto out;
	strbuf_addf(&sb, "%s/%s", path, TREE_MARKER);
	const char *text = what ? what : "created by dbrig\n";
	ret = atomic_write_file(sb.buf, text, strlen(text));
out:
	strbuf_release(&sb);
	return ret;
}

static int remove_at(int parent, const char *name)
{
	struct stat st;
	int fd, ret = 0;
	DIR *d;
	struct dirent *e;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(parent, name, 0) < 0 && errno != ENOENT ? -errno : 0;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ret = remove_at(dirfd(d), e->d_name);
		if (ret < 0)
			break;
	}
	closedir(d);
	if (ret == 0 && unlinkat(parent, name, AT_REMOVEDIR) < 0)
		ret = -errno;
	return ret;
}

int tree_remove_marked(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!tree_is_marked(path))
		return -EPERM;
	return remove_at(AT_FDCWD, path);
}

int tree_remove_child(const char *dir, const char *name)
{
	int fd, ret;

	if (!tree_is_marked(dir))
		return -EPERM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = remove_at(fd, name);
	close(fd);
	return ret;
}

static int copy_file(int sfd, int dfd, bool *reflinked)
{
	static char buf[1 << 20];

	if (ioctl(dfd, FICLONE, sfd) == 0)
		return 0;
	*reflinked = false;
	/* In the kernel (no user-space buffer; across filesystems since Linux 5.3), else read/write. */
	for (bool first = true;; first = false) {
		ssize_t n = copy_file_range(sfd, NULL, dfd, NULL, (size_t)1 << 30, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && first && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP))
			break;
		if (n < 0)
			return -errno;
		if (n == 0)
			return fdatasync(dfd) < 0 ? -errno : 0;
	}
	for (;;) {
		ssize_t n = read(sfd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(dfd, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -errno;
			off += w;
		}
	}
	return fdatasync(dfd) < 0 ? -errno : 0;
}

static int copy_at(int sdir, int ddir, const char *name, bool *reflinked)
{
	struct stat st;
	int sfd = -1, dfd = -1, ret = 0;
	DIR *d = NULL;
	struct dirent *e;

	if (fstatat(sdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlinkat(sdir, name, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		return symlinkat(target, ddir, name) < 0 ? -errno : 0;
	}
	if (S_ISREG(st.st_mode)) {
		sfd = openat(sdir, name, O_RDONLY | O_CLOEXEC);
		if (sfd < 0)
			return -errno;
		dfd = openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
		if (dfd < 0) {
			ret = -errno;
			goto out;
		}
		ret = copy_file(sfd, dfd, reflinked);
		goto out;
	}
	if (!S_ISDIR(st.st_mode))
		return 0; /* sockets, fifos: a stopped server's datadir has none worth copying */
	if (mkdirat(ddir, name, st.st_mode & 07777) < 0)
		return -errno;
	sfd = openat(sdir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dfd = openat(ddir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0 || dfd < 0) {
		ret = -errno;
		goto out;
	}
	d = fdopendir(sfd);
	if (!d) {
		ret = -errno;
		goto out;
	}
	sfd = -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		ret = copy_at(dirfd(d), dfd, e->d_name, reflinked);
		if (ret < 0)
			break;
	}
	if (ret == 0 && fsync(dfd) < 0)
		ret = -errno;
out:
	if (d)
		closedir(d);
	if (sfd >= 0)
		close(sfd);
	if (dfd >= 0 && close(dfd) < 0 && ret == 0)
		ret = -errno;
	return ret;
}

int tree_copy(const char *src, const char *dst, bool *reflinked)
{
	struct strbuf sp, dp;
	char *s = xstrdup(src), *d = xstrdup(dst);
	int sdir = -1, ddir = -1, ret;

	*reflinked = true;
	strbuf_init(&sp, 0);
	strbuf_init(&dp, 0);
	/* Copy src's last component into dst's parent under dst's name. */
	char *sslash = strrchr(s, '/'), *dslash = strrchr(d, '/');
	const char *sname = sslash ? sslash + 1 : s, *dname = dslash ? dslash + 1 : d;
	strbuf_add(&sp, s, sslash ? (size_t)(sslash - s) : 0);
	strbuf_add(&dp, d, dslash ? (size_t)(dslash - d) : 0);
	sdir = open(sp.len ? sp.buf : (sslash ? "/" : "."), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ddir = open(dp.len ? dp.buf : (dslash ? "/" : "."), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sdir < 0 || ddir < 0) {
		ret = -errno;
		goto out;
	}
	struct stat st;
	if (fstatat(sdir, sname, &st, 0) < 0 || !S_ISDIR(st.st_mode)) {
		ret = -ENOTDIR;
		goto out;
	}
	/* Rename-free: the top folder is made here and filled by copy_at's loop. */
	if (mkdirat(ddir, dname, st.st_mode & 07777) < 0) {
		ret = -errno;
		goto out;
	}
	int from = openat(sdir, sname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int to = openat(ddir, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dd = from >= 0 ? fdopendir(from) : NULL;
	ret = 0;
	if (!dd || to < 0) {
		ret = -errno;
		if (from >= 0 && !dd)
			close(from);
	} else {
		struct dirent *e;
		while ((e = readdir(dd))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			ret = copy_at(dirfd(dd), to, e->d_name, reflinked);
			if (ret < 0)
				break;
		}
		if (ret == 0 && fsync(to) < 0)
			ret = -errno;
	}
	if (dd)
		closedir(dd);
	if (to >= 0)
		close(to);
out:
	if (sdir >= 0)
		close(sdir);
	if (ddir >= 0)
		close(ddir);
	free(s);
	free(d);
	strbuf_release(&sp);
	strbuf_release(&dp);
	return ret;
}
