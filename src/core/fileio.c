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
 * 0600 and lose it). A name planted in a shared folder is never followed:
 * security review finding 9. Returns the fd, or -errno.
 */
static int create_temp(const char *path, unsigned mode, struct strbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		int fd;

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EIO;
		strbuf_reset(tmp);
		strbuf_addf(tmp, "%s.tmp.", path);
		for (size_t i = 0; i < sizeof(r); i++)
			strbuf_addf(tmp, "%02x", r[i]);
		fd = open(tmp->buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int atomic_write_file_mode(const char *path, const void *data, size_t len, unsigned mode)
{
	struct strbuf tmp;
	const char *p = data;
	int fd = -1;
	int ret = -EIO;

	strbuf_init(&tmp, 0);
	fd = create_temp(path, mode, &tmp);
	if (fd < 0) {
		ret = fd;
		fd = -1;
		goto out;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out_unlink;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) < 0) {
		ret = -errno;
		goto out_unlink;
	}
	if (close(fd) < 0) {
		fd = -1;
		ret = -errno;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp.buf, path) < 0) {
		ret = -errno;
		goto out_unlink;
	}
	/*
	 * The new file is in place: a folder that cannot be synced only means the
	 * rename may not survive a power loss yet. Reporting "cannot write" for a
	 * file that was written would be wrong (security review finding 22).
	 */
	ret = fsync_dir_of(path);
	if (ret < 0)
		log_warn("%s: written, but its folder could not be synced: %s", path, strerror(-ret));
	ret = 0;
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(tmp.buf);
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&tmp);
	return ret;
}

int atomic_write_file(const char *path, const void *data, size_t len)
{
	return atomic_write_file_mode(path, data, len, 0644);
}

int read_file(const char *path, char **out, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct strbuf sb;
	struct stat st;
	char chunk[65536];
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* Security review finding 19: a FIFO blocked forever, /dev/zero grew memory until abort. */
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
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
