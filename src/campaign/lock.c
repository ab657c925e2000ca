#include "campaign/lock.h"

#include "campaign/plan.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "dbrig campaign c.json --resume" from /proc/<pid>/cmdline, at most 200 bytes; "" if gone. */
static void cmdline_of(pid_t pid, struct strbuf *sb)
{
	char path[64], buf[201];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < n; i++)
		buf[i] = buf[i] ? buf[i] : ' ';
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	if (n > 0)
		strbuf_add(sb, buf, (size_t)n);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int campaign_lock_take(const struct campaign_config *cfg, struct campaign_lock *lk)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	struct strbuf sb, dir;
	int ret;

	memset(lk, 0, sizeof(*lk));
	lk->fd = -1;
	lk->output = xstrdup(cfg->output);
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/.%s.lock", cfg->output, cfg->name);
	lk->path = strbuf_detach(&sb);
	strbuf_init(&dir, 0);
	plan_campaign_dir(cfg, &dir);
	lk->made_output = !exists(cfg->output);
	if ((ret = mkdir_p(cfg->output, 0755)) < 0) {
		log_error("cannot create the results folder %s: %s", cfg->output, strerror(-ret));
		goto fail;
	}
	lk->fd = open(lk->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (lk->fd < 0) {
		ret = -errno;
		log_error("%s: cannot open the campaign lock: %s", lk->path, strerror(errno));
		goto fail;
	}
	if (fcntl(lk->fd, F_SETLK, &fl) == 0) {
		strbuf_release(&dir);
		return 0;
	}
	ret = errno == EACCES || errno == EAGAIN ? -EBUSY : -errno;
	if (ret != -EBUSY) {
		log_error("%s: cannot lock: %s", lk->path, strerror(-ret));
		goto fail;
	}
	fl = (struct flock){.l_type = F_WRLCK, .l_whence = SEEK_SET};
	strbuf_init(&sb, 0);
	if (fcntl(lk->fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
		cmdline_of(fl.l_pid, &sb);
	if (fl.l_type != F_UNLCK && fl.l_pid > 0)
		log_error("%s: campaign \"%s\" is already running here (pid %ld%s%s); one dbrig process per "
			  "campaign (expected it to finish, or to be stopped, first)", dir.buf, cfg->name,
			  (long)fl.l_pid, sb.len ? ": " : "", sb.buf);
	else
		log_error("%s: campaign \"%s\" is in use by another dbrig process; one dbrig process per campaign "
			  "(expected it to finish, or to be stopped, first)", dir.buf, cfg->name);
	strbuf_release(&sb);
	/* The folder is the holder's: nothing of it is removed. */
	lk->made_output = false;
fail:
	strbuf_release(&dir);
	campaign_lock_release(lk);
	return ret;
}

/* Only `lock` (a file name) in dir. */
static bool only(const char *dir, const char *lock)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool ok = true;

	if (!d)
		return false;
	while ((e = readdir(d)) && ok)
		ok = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, lock);
	closedir(d);
	return ok;
}

void campaign_lock_release(struct campaign_lock *lk)
{
	if (lk->made_output && lk->path && only(lk->output, strrchr(lk->path, '/') + 1)) {
		unlink(lk->path);
		rmdir(lk->output);
	}
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
	free(lk->output);
	free(lk->path);
	lk->output = lk->path = NULL;
}
