#include "core/fileio.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static int fsync_dir_of(const char *path)
{
	char *copy = xstrdup(path);
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	int ret = 0;

	free(copy);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * A new file beside `path`, "<path>.tmp.<12 random hex digits>", created
 * exclusively (O_EXCL: never an existing file, never through a symbolic
 * link) with `mode` (less the umask, as open() does; mkstemp would give
 * 0600 and lose it). A name planted in a shared folder is never followed.
 * Returns the fd, or -errno.
 */
/* "<path>.tmp.<12 random hex digits>" into tmp; -EIO if no randomness. */
static int temp_name(const char *path, struct strbuf *tmp)
{
	unsigned char r[6];

	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -EIO;
	strbuf_reset(tmp);
	strbuf_addf(tmp, "%s.tmp.", path);
	for (size_t i = 0; i < sizeof(r); i++)
		strbuf_addf(tmp, "%02x", r[i]);
	return 0;
}

static int create_temp(const char *path, unsigned mode, struct strbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		int fd, ret = temp_name(path, tmp);

		if (ret < 0)
			return ret;
		fd = open(tmp->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* A hard link to path under a new name beside it (link() never replaces or follows what is there). */
static int link_backup(const char *path, struct strbuf *bak)
{
	for (int tries = 0; tries < 100; tries++) {
		int ret = temp_name(path, bak);

		if (ret < 0)
			return ret;
		if (link(path, bak->buf) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The data into a new exclusive temporary file beside path, fsynced and closed; its name in tmp. */
static int write_temp(const char *path, const void *data, size_t len, unsigned mode, struct strbuf *tmp)
{
	const char *p = data;
	int fd, ret = 0;

	fd = create_temp(path, mode, tmp);
	if (fd < 0)
		return fd;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret < 0)
		unlink(tmp->buf);
	return ret;
}

/*
 * The new file is in place: a folder that cannot be synced only means the
 * rename may not survive a power loss yet. Reporting "cannot write" for a
 * file that was written would be wrong.
 */
static void sync_dir_after_rename(const char *path)
{
	int ret = fsync_dir_of(path);

	if (ret < 0)
		log_warn("%s: written, but its folder could not be synced: %s", path, strerror(-ret));
}

/*
 * What is at an output path: nothing or a regular file (0), a symbolic link
 * (-ELOOP) or anything else (-EINVAL). lstat, so a link is seen as a link:
 * rename() would replace it, open() would follow it.
 */
static int output_path_ok(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

int output_path_check(const char *path)
{
	return output_path_ok(path);
}

int open_for_write(const char *path, enum write_how how, unsigned mode)
{
	/* O_APPEND either way: every write lands at the end, after a truncation too. */
	int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int fd, ret = output_path_ok(path);
	struct stat st;

	if (ret < 0)
		return ret;
	/* No O_TRUNC: the file is truncated only once known to be a regular one. */
	fd = open(path, flags, (mode_t)mode);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno; /* ENXIO: a FIFO with no reader */
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if (how == WRITE_TRUNC && ftruncate(fd, 0) < 0)
		ret = -errno;
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		ret = -errno;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

const char *write_file_strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link (expected a regular file or a new name: dbrig never writes through a link)";
	case -EINVAL:
		return "not a regular file (expected a regular file or a new name)";
	}
	return strerror(-err);
}

int atomic_write_file_mode(const char *path, const void *data, size_t len, unsigned mode)
{
	struct strbuf tmp;
	int ret = output_path_ok(path);

	if (ret < 0)
		return ret;
	strbuf_init(&tmp, 0);
	ret = write_temp(path, data, len, mode, &tmp);
	if (ret == 0 && rename(tmp.buf, path) < 0) {
		ret = -errno;
		unlink(tmp.buf);
	}
	if (ret == 0)
		sync_dir_after_rename(path);
	strbuf_release(&tmp);
	return ret;
}

void atomic_set_init(struct atomic_set *set)
{
	set->n = 0;
	set->v = NULL;
}

int atomic_set_add(struct atomic_set *set, const char *path, const void *data, size_t len)
{
	struct strbuf tmp;
	int ret = output_path_ok(path);

	if (ret < 0)
		return ret;
	strbuf_init(&tmp, 0);
	ret = write_temp(path, data, len, 0644, &tmp);
	if (ret < 0) {
		strbuf_release(&tmp);
		return ret;
	}
	set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	set->v[set->n].path = xstrdup(path);
	set->v[set->n].tmp = strbuf_detach(&tmp);
	set->v[set->n].bak = NULL;
	set->n++;
	return 0;
}

/*
 * Every file was written before any is renamed, so a full disk or any other
 * write error leaves the old set as it was. The renames themselves can fail
 * too (a folder's entry on a full file system): each file that existed is
 * first linked to a backup name, and a failed rename puts back the old files
 * and removes the new ones.
 */
int atomic_set_commit(struct atomic_set *set, const char **failed_path)
{
	struct strbuf bak;
	size_t done = 0;
	int ret = 0;

	*failed_path = NULL;
	strbuf_init(&bak, 0);
	for (size_t i = 0; i < set->n && ret == 0; i++) {
		ret = link_backup(set->v[i].path, &bak);
		if (ret == 0)
			set->v[i].bak = xstrdup(bak.buf);
		else if (ret == -ENOENT) /* a new file: nothing to put back */
			ret = 0;
		else
			*failed_path = set->v[i].path;
	}
	for (; ret == 0 && done < set->n; done++) {
		if (rename(set->v[done].tmp, set->v[done].path) < 0) {
			ret = -errno;
			*failed_path = set->v[done].path;
			break;
		}
		free(set->v[done].tmp);
		set->v[done].tmp = NULL;
	}
	if (ret < 0) {
		for (size_t i = 0; i < done; i++) {
			if (set->v[i].bak) {
				if (rename(set->v[i].bak, set->v[i].path) == 0) {
					free(set->v[i].bak);
					set->v[i].bak = NULL;
				}
			} else {
				unlink(set->v[i].path);
			}
		}
	} else if (set->n) {
		sync_dir_after_rename(set->v[0].path);
	}
	strbuf_release(&bak);
	return ret;
}

void atomic_set_release(struct atomic_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		if (set->v[i].tmp)
			unlink(set->v[i].tmp);
		if (set->v[i].bak)
			unlink(set->v[i].bak);
		free(set->v[i].tmp);
		free(set->v[i].bak);
		free(set->v[i].path);
	}
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

int atomic_write_file(const char *path, const void *data, size_t len)
{
	return atomic_write_file_mode(path, data, len, 0644);
}

int open_for_read(const char *path, struct stat *st)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		ret = -errno;
	/* A FIFO blocked forever, /dev/zero grew memory until abort: regular files only. */
	else if (!S_ISREG(st->st_mode))
		ret = -EINVAL;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

int read_file(const char *path, char **out, size_t *len)
{
	struct strbuf sb;
	struct stat st;
	char chunk[65536];
	int ret = 0, fd = open_for_read(path, &st);

	if (fd < 0)
		return fd;
	strbuf_init(&sb, st.st_size > 0 && (uint64_t)st.st_size < READ_FILE_MAX ? (size_t)st.st_size : 0);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		if (sb.len + (size_t)n > READ_FILE_MAX) {
			ret = -EFBIG;
			break;
		}
		strbuf_add(&sb, chunk, (size_t)n);
	}
	close(fd);
	if (ret < 0) {
		strbuf_release(&sb);
		return ret;
	}
	if (len)
		*len = sb.len;
	*out = strbuf_detach(&sb);
	return 0;
}

const char *read_file_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "not a regular file";
	case -EFBIG:
		return "larger than " READ_FILE_MAX_TEXT;
	}
	return strerror(-err);
}

int mkdir_p(const char *path, unsigned mode)
{
	char *copy = xstrdup(path);
	int ret = 0;

	for (char *p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(copy, (mode_t)mode) < 0 && errno != EEXIST) {
				ret = -errno;
				break;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	if (ret == 0) {
		struct stat st;
		if (stat(path, &st) < 0)
			ret = -errno;
		else if (!S_ISDIR(st.st_mode))
			ret = -ENOTDIR;
	}
	free(copy);
	return ret;
}
