/*
 * results_load_dir (result/read.h): a folder of result files and journals,
 * walked and read in path order.
 */
#include "result/read.h"

#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "result/model.h"
#include "result/read_int.h"
#include "result/result.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Intervals of a journal for a result file that carried none: line by line, the
 * fields the series needs; a journal that is not that plain, read whole. */
static void journal_intervals_into(struct run *r, const char *name, const char *text)
{
	struct strbuf err;
	struct run *j = NULL;

	if (rd_journal_series(r, name, text) == 0)
		return;
	strbuf_init(&err, 0);
	if (results_parse_journal(name, text, &j, &err) < 0) {
		log_warn("%s", err.buf);
	} else {
		free(r->intervals);
		r->intervals = j->intervals;
		r->nintervals = j->nintervals;
		j->intervals = NULL;
		j->nintervals = 0;
	}
	run_free(j);
	strbuf_release(&err);
}

struct file_list {
	size_t n, cap;
	char **v;
};

#define WALK_MAX_DEPTH 32

/*
 * Every *.json / *.jsonl under root/rel. Links to folders are never followed
 * (a warning names them): `again -> .` made the walk count every result 41
 * times, and two such links made it exponential.
 * Links to files are read. The depth is bounded as well (bind mounts).
 */
static int walk(const char *root, const char *rel, struct file_list *fl, unsigned depth)
{
	struct strbuf dirpath;
	DIR *d = NULL;
	struct dirent *de;
	int ret = 0;

	strbuf_init(&dirpath, 0);
	strbuf_addf(&dirpath, "%s%s%s", root, *rel ? "/" : "", rel);
	d = opendir(dirpath.buf);
	if (!d) {
		ret = -errno;
		goto out;
	}
	while ((de = readdir(d))) {
		struct strbuf child, full;
		struct stat st;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		strbuf_init(&child, 0);
		strbuf_init(&full, 0);
		strbuf_addf(&child, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		strbuf_addf(&full, "%s/%s", root, child.buf);
		bool is_dir = false, dir_link = false;
		if (lstat(full.buf, &st) == 0) {
			if (S_ISLNK(st.st_mode))
				dir_link = stat(full.buf, &st) == 0 && S_ISDIR(st.st_mode);
			else
				is_dir = S_ISDIR(st.st_mode);
		}
		if (dir_link) {
			log_warn("%s: a link to a folder; not followed (expected results in real folders)", child.buf);
		} else if (is_dir) {
			if (depth >= WALK_MAX_DEPTH)
				ret = -ELOOP;
			else
				ret = walk(root, child.buf, fl, depth + 1);
		} else if ((n > 5 && !strcmp(de->d_name + n - 5, ".json")) ||
			   (n > 6 && !strcmp(de->d_name + n - 6, ".jsonl"))) {
			if (fl->n == fl->cap) {
				fl->cap = fl->cap ? fl->cap * 2 : 64;
				fl->v = xrealloc(fl->v, fl->cap * sizeof(*fl->v));
			}
			fl->v[fl->n++] = strbuf_detach(&child);
		}
		strbuf_release(&child);
		strbuf_release(&full);
		if (ret < 0)
			goto out;
	}
out:
	if (d)
		closedir(d);
	strbuf_release(&dirpath);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* "…/vm1.partial-2.json" or ".jsonl": an attempt that `campaign --resume` kept apart. */
static bool is_partial(const char *path)
{
	const char *dot = strrchr(path, '.'), *p;

	if (!dot)
		return false;
	for (p = dot; p > path && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	return p < dot && p - path >= 9 && !strncmp(p - 9, ".partial-", 9);
}

static void sort_by_path(struct run **v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		for (size_t j = i; j > 0 && strcmp(v[j - 1]->path, v[j]->path) > 0; j--) {
			struct run *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	}
}

/* The run whose result is <stem>.json, among the runs or the superseded attempts; NULL when none. */
static struct run *owner_of(struct run_set *rs, const char *stem, size_t n)
{
	for (int l = 0; l < 2; l++) {
		struct run **v = l ? rs->superseded : rs->runs;
		size_t nv = l ? rs->nsuperseded : rs->n;

		for (size_t k = 0; k < nv; k++)
			if (!v[k]->from_journal && !strncmp(v[k]->path, stem, n) && !strcmp(v[k]->path + n, ".json"))
				return v[k];
	}
	return NULL;
}

/*
 * <instance>.telemetry.json into the run of <instance>.json. One without its
 * result (a run whose driver left none) is left out: there is no run for it.
 */
static int merge_telemetry_file(const char *dir, const char *rel, struct run_set *rs, struct strbuf *err)
{
	struct run *owner = owner_of(rs, rel, strlen(rel) - strlen(TEL_FILE_SUFFIX));
	struct strbuf full;
	char *text = NULL;
	int ret = 0;

	if (!owner)
		return 0;
	strbuf_init(&full, 0);
	strbuf_addf(&full, "%s/%s", dir, rel);
	ret = read_file(full.buf, &text, NULL);
	if (ret < 0)
		strbuf_addf(err, "%s: %s (expected a readable file)", rel, read_file_strerror(ret));
	else
		ret = results_merge_telemetry(owner, rel, text, err);
	if (ret < 0 && is_partial(owner->path)) {
		log_warn("%s; an attempt kept by campaign --resume, left without its telemetry", err->buf);
		strbuf_reset(err);
		ret = 0;
	}
	free(text);
	strbuf_release(&full);
	return ret;
}

/* A result that left its intervals to a journal that is not there has none: one warning each. */
static void warn_journals_gone(const struct run_set *rs)
{
	for (int l = 0; l < 2; l++) {
		struct run *const *v = l ? rs->superseded : rs->runs;
		for (size_t k = 0, nv = l ? rs->nsuperseded : rs->n; k < nv; k++)
			if (v[k]->intervals_in_journal && !v[k]->journal)
				log_warn("%s: its intervals are in its journal (\"journal\"), which is not beside it (expected "
					 "%.*s.jsonl): its run has no intervals (charts, steady state)", v[k]->path,
					 (int)(strlen(v[k]->path) - 5), v[k]->path);
	}
}

int results_load_dir(const char *dir, struct run_set **out, struct strbuf *err)
{
	struct file_list fl = {0};
	struct run_set *rs = xcalloc(1, sizeof(*rs));
	struct strbuf full;
	char *text = NULL;
	int ret;

	*out = NULL;
	strbuf_init(&full, 0);
	ret = walk(dir, "", &fl, 0);
	if (ret < 0) {
		strbuf_addf(err, "%s: %s (expected a readable folder of results)", dir, strerror(-ret));
		goto out;
	}
	if (fl.n) /* qsort(NULL, 0, ...) is undefined */
		qsort(fl.v, fl.n, sizeof(*fl.v), cmp_str);
	rs->runs = xcalloc(fl.n + 1, sizeof(*rs->runs));
	rs->superseded = xcalloc(fl.n + 1, sizeof(*rs->superseded));
	/* Result files first, so journals can find their result. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < fl.n; i++) {
			bool is_journal = ends_with(fl.v[i], ".jsonl");
			bool partial = is_partial(fl.v[i]);
			struct run **list = partial ? rs->superseded : rs->runs;
			size_t *nlist = partial ? &rs->nsuperseded : &rs->n;
			struct run *r = NULL;

			if (is_journal != (pass == 1) || ends_with(fl.v[i], TEL_FILE_SUFFIX))
				continue;
			strbuf_reset(&full);
			strbuf_addf(&full, "%s/%s", dir, fl.v[i]);
			free(text);
			text = NULL;
			ret = read_file(full.buf, &text, NULL);
			if (ret < 0)
				strbuf_addf(err, "%s: %s (expected a readable file)", fl.v[i], read_file_strerror(ret));
			else if (!is_journal)
				ret = results_parse_result(fl.v[i], text, &r, err);
			/* A superseded attempt is history: one that cannot be read (an empty
			 * journal of a driver stopped by a full disk, seen in the fault soak)
			 * is left out with a warning instead of failing the whole report. */
			if (ret < 0 && partial) {
				log_warn("%s; an attempt kept by campaign --resume, left out", err->buf);
				strbuf_reset(err);
				continue;
			}
			if (ret < 0)
				goto out;
			if (!is_journal) {
				if (ret == 0)
					list[(*nlist)++] = r;
				continue;
			}
			/* A journal: does its result file sit beside it? */
			struct run *owner = NULL;
			size_t stem = strlen(fl.v[i]) - 1; /* "x.jsonl" -> "x.json" */
			for (size_t k = 0; k < *nlist; k++) {
				if (!strncmp(list[k]->path, fl.v[i], stem) && list[k]->path[stem] == '\0') {
					owner = list[k];
					break;
				}
			}
			if (owner) {
				owner->journal = xstrdup(fl.v[i]);
				if (!owner->nintervals)
					journal_intervals_into(owner, fl.v[i], text);
				continue;
			}
			ret = results_parse_journal(fl.v[i], text, &r, err);
			if (ret < 0 && partial) {
				log_warn("%s; an attempt kept by campaign --resume, left out", err->buf);
				strbuf_reset(err);
				continue;
			}
			if (ret < 0)
				goto out;
			list[(*nlist)++] = r;
		}
	}
	warn_journals_gone(rs);
	/* Then the telemetry files, onto their runs' intervals from the result or its journal. */
	for (size_t i = 0; i < fl.n; i++) {
		if (ends_with(fl.v[i], TEL_FILE_SUFFIX) && (ret = merge_telemetry_file(dir, fl.v[i], rs, err)) < 0)
			goto out;
	}
	/* Keep the order by path, journals among their results. */
	sort_by_path(rs->runs, rs->n);
	sort_by_path(rs->superseded, rs->nsuperseded);
	*out = rs;
	rs = NULL;
	ret = 0;
out:
	free(text);
	for (size_t i = 0; i < fl.n; i++)
		free(fl.v[i]);
	free(fl.v);
	strbuf_release(&full);
	run_set_free(rs);
	return ret;
}
