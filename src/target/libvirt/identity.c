/* The libvirt campaign's own files beside its results folder (lv_campaign_file), and its identity. */
#include "target/libvirt/libvirt.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

/* <output>/<campaign>/<name>: the campaign's own files beside its results. */
/*
 * <output>/.<campaign>.libvirt/<name>: beside the campaign's results folder,
 * not in it, so that `--fresh` moving the results aside keeps the state the
 * VMs depend on (the identity their metadata carries, the password their
 * seed sets) where every later command looks for it.
 */
void lv_campaign_file(const struct target_env *env, const char *name, struct strbuf *sb)
{
	size_t n = strlen(env->log_dir), c = strlen(env->name);

	/* log_dir is "<output>/<campaign>" */
	if (n > c && env->log_dir[n - c - 1] == '/' && !strcmp(env->log_dir + n - c, env->name))
		strbuf_add(sb, env->log_dir, n - c);
	else
		strbuf_addf(sb, "%s/", env->log_dir);
	strbuf_addf(sb, ".%s.libvirt/%s", env->name, name);
}

int lv_read_campaign_file(const struct target_env *env, const char *name, struct strbuf *path, char **out)
{
	struct strbuf old;
	int ret;

	lv_campaign_file(env, name, path);
	ret = read_file(path->buf, out, NULL);
	if (ret == -ENOENT) {
		/* Where versions before 0.x kept it: inside the results folder. */
		strbuf_init(&old, 0);
		strbuf_addf(&old, "%s/%s", env->log_dir, name);
		/* Where earlier versions kept it, inside the results folder: read there (a provision writes it
		 * to its new place: lv_campaign_id, lv_db_password). */
		ret = read_file(old.buf, out, NULL);
		strbuf_release(&old);
	}
	if (ret == 0)
		(*out)[strcspn(*out, "\n")] = '\0';
	return ret;
}

/* Write a small file of the campaign (mode `mode`, its folder made first). */
int lv_store_campaign_file(const char *path, const char *text, mode_t mode)
{
	char dir[4096];
	char *slash;
	mode_t old;
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	if (slash && (ret = mkdir_p(dir, 0755)) < 0)
		return ret;
	old = umask(077);
	ret = atomic_write_file(path, text, strlen(text));
	umask(old);
	if (ret == 0 && chmod(path, mode) < 0)
		ret = -errno;
	return ret;
}

/*
 * The campaign's identity: 32 random hex digits in <output>/<campaign>/
 * LV_IDENTITY, written at its first provision (`create`) and carried by every
 * domain it defines. Without it no domain, and so no volume, is this
 * campaign's. 0 (lv->id set, or NULL when absent and not created), or a
 * negative errno (printed).
 */
int lv_campaign_id(struct target *t, bool create)
{
	struct lv *lv = t->priv;
	struct strbuf path;
	char *text = NULL, id[40];
	unsigned char raw[16];
	int ret;

	strbuf_init(&path, 0);
	if (lv->id) {
		/* Cached (preflight read it) but the file is gone: written again, so that the next command
		 * recognises the domains that carry it. */
		struct stat st;
		lv_campaign_file(t->env, LV_IDENTITY, &path);
		ret = 0;
		if (create && stat(path.buf, &st) < 0 && errno == ENOENT) {
			snprintf(id, sizeof(id), "%s\n", lv->id);
			if ((ret = lv_store_campaign_file(path.buf, id, 0644)) < 0)
				log_error("%s: cannot store the campaign's identity: %s", path.buf, strerror(-ret));
			else
				log_info("campaign %s: identity %s written again to %s", t->env->name, lv->id, path.buf);
		}
		goto out;
	}
	ret = lv_read_campaign_file(t->env, LV_IDENTITY, &path, &text);
	if (ret == 0) {
		if (strlen(text) != 32 || strspn(text, "0123456789abcdef") != 32) {
			log_error("%s: not a campaign identity dbrig wrote (expected 32 hex digits)", path.buf);
			ret = -EINVAL;
			goto out;
		}
		lv->id = text;
		text = NULL;
		goto out;
	}
	if (ret != -ENOENT) {
		log_error("%s: cannot read the campaign's identity: %s", path.buf, strerror(-ret));
		goto out;
	}
	ret = 0;
	if (!create)
		goto out;
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		ret = -EIO;
		log_error("cannot generate a campaign identity: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(id + 2 * i, 3, "%02x", raw[i]);
	strcat(id, "\n");
	if ((ret = lv_store_campaign_file(path.buf, id, 0644)) < 0) {
		log_error("%s: cannot store the campaign's identity: %s", path.buf, strerror(-ret));
		goto out;
	}
	id[32] = '\0';
	lv->id = xstrdup(id);
	lv->id_created = true;
	log_info("campaign %s: identity %s, kept in %s; only domains carrying it are this campaign's", t->env->name,
		 lv->id, path.buf);
out:
	free(text);
	strbuf_release(&path);
	return ret;
}
