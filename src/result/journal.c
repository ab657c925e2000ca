/*
 * The interval journal (dbrig.journal/1): a header line, one line per
 * interval, an end line; each written whole with write(2) and fdatasync'd
 * before the call returns, so a crash loses at most the line being written.
 */
#include "result/result.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct journal {
	int fd;
	char *path;
	bool failed;
};

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int journal_line(struct journal *j, const char *line)
{
	struct strbuf sb;
	int ret;

	strbuf_init(&sb, strlen(line) + 2);
	strbuf_adds(&sb, line);
	strbuf_addc(&sb, '\n');
	ret = write_all(j->fd, sb.buf, sb.len);
	strbuf_release(&sb);
	if (ret == 0 && fdatasync(j->fd) < 0 && errno != EINVAL)
		ret = -errno;
	return ret;
}

int journal_open(struct journal **out, const char *path, const struct result *r)
{
	struct journal *j = xcalloc(1, sizeof(*j));
	char *line;
	int ret;

	/* Never through a link, never a FIFO or device (core/fileio.c). */
	j->fd = open_for_write(path, WRITE_TRUNC, 0644);
	if (j->fd < 0) {
		ret = j->fd;
		free(j);
		return ret;
	}
	j->path = xstrdup(path);
	line = result_journal_header(r);
	ret = line ? journal_line(j, line) : -ENOMEM;
	free(line);
	if (ret < 0) {
		/* No journal rather than an empty or cut one (a full disk; found by bench/fault-soak.sh). */
		close(j->fd);
		unlink(j->path);
		free(j->path);
		free(j);
		return ret;
	}
	*out = j;
	return 0;
}

int journal_append(struct journal *j, const char *line)
{
	int ret;

	if (!j || j->failed)
		return 0;
	ret = journal_line(j, line);
	if (ret < 0)
		j->failed = true;
	return ret;
}

int journal_close(struct journal *j, const char *status)
{
	int ret = 0;

	if (!j)
		return 0;
	if (status && !j->failed) {
		char ts[32];
		json_t *end;
		char *line;
		clock_utc_iso8601(ts, sizeof(ts));
		end = json_pack("{s:s, s:s, s:s}", "type", "end", "status", status, "finished_at", ts);
		line = json_dumps(end, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
		json_decref(end);
		ret = line ? journal_line(j, line) : -ENOMEM;
		free(line);
	}
	if (close(j->fd) < 0 && ret == 0)
		ret = -errno;
	free(j->path);
	free(j);
	return ret;
}
