#include "core/fileio.h"

#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int atomic_write_file(const char *path, const void *data, size_t len)
{
	struct strbuf tmp;
	const char *p = data;
	int fd = -1;
	int ret = -EIO;

	strbuf_init(&tmp, 0);
	strbuf_addf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
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
	ret = fsync_dir_of(path);
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

int read_file(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb;
	char chunk[65536];
	size_t n;

	if (!f)
		return -errno;
	strbuf_init(&sb, 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&sb, chunk, n);
	if (ferror(f)) {
		int e = errno ? -errno : -EIO;
		fclose(f);
		strbuf_release(&sb);
		return e;
	}
	fclose(f);
	if (len)
		*len = sb.len;
	*out = strbuf_detach(&sb);
	return 0;
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
