#include "campaign/steps.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int steps_self_exe(char *buf, size_t n)
{
	char tmp[PATH_MAX];

	if (!realpath("/proc/self/exe", tmp) || strlen(tmp) >= n) {
		int err = errno ? errno : ENAMETOOLONG;
		log_error("cannot find this program's path through /proc/self/exe: %s", strerror(err));
		return -err;
	}
	memcpy(buf, tmp, strlen(tmp) + 1);
	return 0;
}

int steps_open(struct steps *s, struct campaign_config *cfg, struct plan *p, bool dry_run)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->plan = p;
	if ((ret = steps_self_exe(s->exe, sizeof(s->exe))) < 0)
		return ret;
	golden_init(&s->golden, cfg, s->exe);
	s->env = cfg->env;
	s->env.loader = &s->golden.loader;
	s->tgt.ops = cfg->target;
	s->tgt.env = &s->env;
	s->tgt.dry_run = dry_run;
	if ((ret = s->tgt.ops->init(&s->tgt)) < 0)
		return ret;
	s->open = true;
	return 0;
}

int steps_preflight(struct steps *s)
{
	return s->tgt.ops->preflight(&s->tgt, s->plan->insts, s->plan->ninsts);
}

int steps_provision(struct steps *s, const bool *need)
{
	const struct target_ops *ops = s->tgt.ops;
	size_t done;
	int ret = 0;

	for (done = 0; done < s->plan->ninsts && ret == 0; done++)
		if (!need || need[done])
			ret = ops->create(&s->tgt, &s->plan->insts[done]);
	if (ret == 0)
		return 0;
	if (ops->rollback && ops->rollback(&s->tgt, s->plan->insts, done) < 0)
		log_error("%s: removing what this provision created failed too; see the messages above", s->cfg->file);
	else if (ops->rollback)
		log_info("%s: removed what this provision had created", s->cfg->file);
	return ret;
}

int steps_status(struct steps *s, FILE *out)
{
	struct strbuf line;
	bool all = true;
	int ret = 0;

	if (!s->tgt.ops->status) {
		log_error("%s: the %s target has no status (expected a libvirt campaign)", s->cfg->file, s->tgt.ops->name);
		return -ENOTSUP;
	}
	strbuf_init(&line, 0);
	for (size_t i = 0; i < s->plan->ninsts && ret >= 0; i++) {
		strbuf_reset(&line);
		ret = s->tgt.ops->status(&s->tgt, &s->plan->insts[i], &line);
		if (ret >= 0)
			fprintf(out, "%s\n", line.buf);
		all = all && ret == 0;
	}
	strbuf_release(&line);
	if (ret < 0)
		return ret;
	return all ? 0 : -EAGAIN;
}

int steps_restore(struct steps *s)
{
	const struct target_ops *ops = s->tgt.ops;
	int ret = 0;

	for (size_t i = 0; i < s->plan->ninsts && ret == 0; i++) {
		struct target_instance *in = &s->plan->insts[i];
		in->created = true;
		ret = ops->stop(&s->tgt, in);
		if (ret == 0)
			ret = ops->restore(&s->tgt, in);
		if (ret == 0)
			ret = ops->start(&s->tgt, in);
	}
	return ret;
}

int steps_teardown(struct steps *s, bool only_created, struct steps_removed *n)
{
	struct steps_removed cnt = {0};
	int ret = 0;

	/* Keep going past a failure: remove all that can be removed, report the first error. */
	for (size_t i = 0; i < s->plan->ninsts; i++) {
		int r;
		if (only_created && !s->plan->insts[i].created)
			continue;
		r = s->tgt.ops->destroy(&s->tgt, &s->plan->insts[i]);
		if (r < 0 && ret == 0)
			ret = r;
		cnt.removed += r == TARGET_REMOVED;
		cnt.absent += r == TARGET_ABSENT;
		cnt.kept += r == TARGET_KEPT;
	}
	if (n)
		*n = cnt;
	return ret;
}

int steps_stop(struct steps *s, const size_t *idx, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct target_instance *in = &s->plan->insts[idx ? idx[i] : i];
		if (in->created && s->tgt.ops->stop(&s->tgt, in) < 0)
			ret = -EIO;
	}
	return ret;
}

void steps_close(struct steps *s)
{
	if (!s->open)
		return;
	for (size_t i = 0; s->plan && i < s->plan->ninsts; i++)
		s->tgt.ops->release(&s->tgt, &s->plan->insts[i]);
	s->tgt.ops->cleanup(&s->tgt);
	s->open = false;
}
