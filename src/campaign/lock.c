#include "campaign/lock.h"

#include "campaign/plan.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
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

/*
 * An exclusive record lock on `path` into *fd: 0, -EBUSY with the holder's
 * pid in *holder (0 when F_GETLK cannot tell), or -errno after one message.
 */
static int lock_file(const char *path, int *fd, pid_t *holder)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	int ret;

	*holder = 0;
	for (int tries = 0;; tries++) {
		struct stat held, named;

		*fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (*fd < 0) {
			ret = -errno;
			log_error("%s: cannot open the campaign lock: %s", path, strerror(errno));
			return ret;
		}
		if (fcntl(*fd, F_SETLK, &fl) != 0)
			break;
		/* The lock counts only if the path still names the file locked: a
		 * holder that releases removes the file (campaign_lock_release), and
		 * one opened just before that removal is locked by nobody else, while
		 * the next process creates and locks a new one. */
		if (fstat(*fd, &held) == 0 && lstat(path, &named) == 0 && held.st_dev == named.st_dev &&
		    held.st_ino == named.st_ino)
			return 0;
		close(*fd);
		*fd = -1;
		if (tries == 100) {
			log_error("%s: the campaign lock file keeps being replaced while dbrig locks it "
				  "(expected one dbrig process per campaign)", path);
			return -EAGAIN;
		}
	}
	ret = errno == EACCES || errno == EAGAIN ? -EBUSY : -errno;
	if (ret != -EBUSY) {
		log_error("%s: cannot lock: %s", path, strerror(-ret));
		return ret;
	}
	fl = (struct flock){.l_type = F_WRLCK, .l_whence = SEEK_SET};
	if (fcntl(*fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK && fl.l_pid > 0)
		*holder = fl.l_pid;
	return -EBUSY;
}

/* "(pid 123: dbrig campaign c.json)" or "" into sb. */
static void holder_text(pid_t pid, struct strbuf *sb)
{
	struct strbuf cmd;

	if (pid <= 0)
		return;
	strbuf_init(&cmd, 0);
	cmdline_of(pid, &cmd);
	strbuf_addf(sb, " (pid %ld%s%s)", (long)pid, cmd.len ? ": " : "", cmd.buf);
	strbuf_release(&cmd);
}

/*
 * The folder of the drive locks: $DBRIG_LOCK_DIR, else /run/lock, else /tmp,
 * then dbrig-<uid>/ (0700, this user's, never a link) so that no other user
 * can plant or hold a lock file there. 0 or -errno after one message.
 */
static int lock_dir(struct strbuf *sb)
{
	const char *base = getenv("DBRIG_LOCK_DIR");
	struct stat st;

	if (!base || !*base)
		base = stat("/run/lock", &st) == 0 && S_ISDIR(st.st_mode) && access("/run/lock", W_OK) == 0
			       ? "/run/lock" : "/tmp";
	strbuf_addf(sb, "%s/dbrig-%ld", base, (long)geteuid());
	if (mkdir(sb->buf, 0700) < 0 && errno != EEXIST) {
		int ret = -errno;
		log_error("%s: cannot create the folder of the drive locks: %s", sb->buf, strerror(errno));
		return ret;
	}
	if (lstat(sb->buf, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		log_error("%s: the folder of the drive locks is not a folder of this user that only it can write "
			  "(expected one made by dbrig, mode 0700; remove it, or set DBRIG_LOCK_DIR)", sb->buf);
		return -EPERM;
	}
	return 0;
}

/* FNV-1a, 64 bits: a file name for a key of any length and any bytes. */
static uint64_t fnv64(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/*
 * The root of drive d (its folder's canonical path; for a folder not made
 * yet, its parent's canonical path and its name: the same text once it
 * exists), or the target's key (libvirt: URI and pool).
 */
static void drive_root(const struct campaign_config *cfg, size_t d, struct strbuf *root)
{
	const struct target_drive *dr = &cfg->drives[d];
	char real[PATH_MAX];

	if (cfg->target->lock_key) {
		cfg->target->lock_key(&cfg->env, d, root);
		return;
	}
	if (!dr->path)
		return;
	if (realpath(dr->path, real)) {
		strbuf_adds(root, real);
		return;
	}
	{
		char *copy = xstrdup(dr->path), *slash;
		size_t n = strlen(copy);
		while (n > 1 && copy[n - 1] == '/')
			copy[--n] = '\0';
		slash = strrchr(copy, '/');
		if (slash && slash != copy) {
			*slash = '\0';
			if (realpath(copy, real))
				strbuf_addf(root, "%s/%s", real, slash + 1);
			else
				strbuf_adds(root, dr->path);
		} else if (slash) {
			strbuf_adds(root, copy);
		} else if (getcwd(real, sizeof(real))) {
			strbuf_addf(root, "%s/%s", real, copy);
		} else {
			strbuf_adds(root, dr->path);
		}
		free(copy);
	}
}

/*
 * Every drive root the campaign touches, locked for this campaign's name: the
 * same campaign file started from another folder has another output lock but
 * the same drives, whose servers and data it would otherwise take over.
 */
static int lock_drives(const struct campaign_config *cfg, struct campaign_lock *lk)
{
	struct strbuf dir, root, path, who;
	int ret = 0;

	strbuf_init(&dir, 0);
	strbuf_init(&root, 0);
	strbuf_init(&path, 0);
	strbuf_init(&who, 0);
	lk->drive_fds = xcalloc(cfg->ndrives + 1, sizeof(int));
	for (size_t d = 0; d < cfg->ndrives; d++)
		lk->drive_fds[d] = -1;
	lk->ndrives = cfg->ndrives;
	for (size_t d = 0; d < cfg->ndrives && ret == 0; d++) {
		pid_t holder;
		strbuf_reset(&root);
		drive_root(cfg, d, &root);
		if (!root.len)
			continue;
		if (!dir.len && (ret = lock_dir(&dir)) < 0)
			break;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s-%016llx.lock", dir.buf, cfg->name, (unsigned long long)fnv64(root.buf));
		ret = lock_file(path.buf, &lk->drive_fds[d], &holder);
		if (ret == -EBUSY) {
			holder_text(holder, &who);
			log_error("%s: drive %s (%s) is in use by campaign \"%s\" from another folder%s; one dbrig process "
				  "per campaign and drive (expected it to finish, or to be stopped, first)",
				  cfg->file, cfg->drives[d].name, root.buf, cfg->name, who.buf);
		}
	}
	strbuf_release(&dir);
	strbuf_release(&root);
	strbuf_release(&path);
	strbuf_release(&who);
	return ret;
}

int campaign_lock_take(const struct campaign_config *cfg, struct campaign_lock *lk)
{
	struct strbuf sb, dir;
	pid_t holder;
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
	ret = lock_file(lk->path, &lk->fd, &holder);
	if (ret == 0) {
		if ((ret = lock_drives(cfg, lk)) == 0) {
			strbuf_release(&dir);
			return 0;
		}
		goto fail;
	}
	if (ret != -EBUSY)
		goto fail;
	strbuf_init(&sb, 0);
	holder_text(holder, &sb);
	if (holder > 0)
		log_error("%s: campaign \"%s\" is already running here%s; one dbrig process per "
			  "campaign (expected it to finish, or to be stopped, first)", dir.buf, cfg->name, sb.buf);
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
	/* Removed while still held: a process that opened it meanwhile finds it
	 * gone once it holds it, and takes the lock again (lock_file). */
	if (lk->made_output && lk->path && only(lk->output, strrchr(lk->path, '/') + 1)) {
		unlink(lk->path);
		rmdir(lk->output);
	}
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
	for (size_t d = 0; d < lk->ndrives; d++)
		if (lk->drive_fds[d] >= 0)
			close(lk->drive_fds[d]);
	free(lk->drive_fds);
	lk->drive_fds = NULL;
	lk->ndrives = 0;
	free(lk->output);
	free(lk->path);
	lk->output = lk->path = NULL;
}
