#define _GNU_SOURCE /* renameat2 */
#include "campaign/fresh.h"

#include "core/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int fresh_aside_name(const char *dir, struct strbuf *out)
{
	struct strbuf p;
	struct stat stb;
	struct tm tm;
	char stamp[32];
	size_t base;
	int ret = 0;

	strbuf_init(&p, 0);
	strbuf_addf(&p, "%s/state.json", dir);
	if (stat(p.buf, &stb) < 0 && stat(dir, &stb) < 0) {
		ret = -errno;
		goto out;
	}
	gmtime_r(&stb.st_mtime, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	strbuf_reset(out);
	strbuf_addf(out, "%s.%s", dir, stamp);
	base = out->len;
	for (unsigned n = 2; lstat(out->buf, &stb) == 0; n++) {
		out->len = base;
		out->buf[base] = '\0';
		strbuf_addf(out, "-%u", n);
	}
	if (errno != ENOENT)
		ret = -errno;
out:
	strbuf_release(&p);
	return ret;
}

int fresh_move_aside(const char *dir, struct strbuf *moved_to)
{
	int ret;

	for (unsigned tries = 0;; tries++) {
		ret = fresh_aside_name(dir, moved_to);
		if (ret == -ENOENT)
			return 1;
		if (ret < 0) {
			log_error("%s: cannot examine the earlier results: %s", dir, strerror(-ret));
			return ret;
		}
		/* Never overwrite: plain rename() would replace an empty folder made since the check. */
		if (renameat2(AT_FDCWD, dir, AT_FDCWD, moved_to->buf, RENAME_NOREPLACE) == 0)
			break;
		ret = -errno;
		/* A file system without the flag: the plain rename, after the check above. */
		if (ret == -EINVAL && rename(dir, moved_to->buf) == 0)
			break;
		if (ret == -EINVAL)
			ret = -errno;
		if ((ret != -EEXIST && ret != -ENOTEMPTY) || tries >= 10) {
			log_error("%s: cannot move the earlier results to %s: %s (nothing was started)", dir, moved_to->buf,
				  strerror(-ret));
			return ret;
		}
	}
	log_info("--fresh: the earlier results (%s) are now %s/", dir, moved_to->buf);
	return 0;
}

void fresh_refuse(const struct campaign_config *cfg, const struct plan *p, const struct campaign_state *st,
		  const char *dir)
{
	struct strbuf aside, report;
	size_t done = 0;

	strbuf_init(&aside, 0);
	strbuf_init(&report, 0);
	for (size_t i = 0; i < p->nruns; i++)
		done += st->runs[i].status == STATE_RUN_DONE;
	if (fresh_aside_name(dir, &aside) < 0) {
		strbuf_reset(&aside);
		strbuf_addf(&aside, "%s.<UTC time>", dir);
	}
	if (done < p->nruns) {
		log_error("%s: campaign %s is unfinished (%zu of %zu runs done; expected --resume to continue it, or "
			  "--fresh to start again, which keeps these results as %s/)",
			  dir, cfg->name, done, p->nruns, aside.buf);
		goto out;
	}
	strbuf_addf(&report, "%s/report/report.html", dir);
	if (access(report.buf, F_OK) == 0)
		log_error("%s: campaign %s already finished (%zu of %zu runs done), its report is %s (expected --fresh "
			  "to run it again, which keeps these results as %s/)",
			  dir, cfg->name, done, p->nruns, report.buf, aside.buf);
	else
		log_error("%s: campaign %s already finished (%zu of %zu runs done) but has no report (expected "
			  "--resume to write it, or --fresh to run it again, which keeps these results as %s/)",
			  dir, cfg->name, done, p->nruns, aside.buf);
out:
	strbuf_release(&aside);
	strbuf_release(&report);
}
