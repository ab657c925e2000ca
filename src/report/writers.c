#include "report/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct report_writer_ops *const report_writers[] = {
	&report_md_ops,
	&report_html_ops,
	&report_csv_ops,
	&report_json_ops,
	NULL,
};

const struct report_writer_ops *report_writer_find(const char *name)
{
	for (const struct report_writer_ops *const *w = report_writers; *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}

struct strbuf *report_files_add(struct report_files *fs, const char *name)
{
	struct report_file *f;

	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	f = &fs->v[fs->n++];
	f->name = xstrdup(name);
	strbuf_init(&f->body, 4096);
	return &f->body;
}

void report_files_release(struct report_files *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].name);
		strbuf_release(&fs->v[i].body);
	}
	free(fs->v);
	fs->v = NULL;
	fs->n = 0;
}

const char *report_kind_title(const char *kind)
{
	if (!strcmp(kind, "sysbench"))
		return "sysbench OLTP";
	if (!strcmp(kind, "tpcc"))
		return "TPC-C";
	return kind;
}

void report_fmt_num(char *buf, size_t n, double v, int decimals)
{
	char raw[64];
	char *dot, *p = raw;
	size_t len, intlen, o = 0;

	snprintf(raw, sizeof(raw), "%.*f", decimals, v);
	if (*p == '-') {
		if (o + 1 < n)
			buf[o++] = '-';
		p++;
	}
	dot = strchr(p, '.');
	len = strlen(p);
	intlen = dot ? (size_t)(dot - p) : len;
	for (size_t i = 0; i < len && o + 1 < n; i++) {
		if (i < intlen && i > 0 && (intlen - i) % 3 == 0) {
			buf[o++] = ',';
			if (o + 1 >= n)
				break;
		}
		buf[o++] = p[i];
	}
	buf[o] = '\0';
}

/* Ratios below 10 with two decimals ("1.74x"), above with one ("11.6x"). */
static int ratio_decimals(double r)
{
	return r >= 10 ? 1 : 2;
}

/* "; avg latency 0.58x (95% CI 0.51–0.66, significant)" appended to buf. */
static void compare_latency(char *buf, size_t n, const char *what, const struct ci_ratio *r, const struct ci_welch *w)
{
	size_t len = strlen(buf);
	int d = ratio_decimals(r->ratio);

	if (len + 1 >= n || r->ratio <= 0)
		return;
	if (r->valid)
		snprintf(buf + len, n - len, "; %s %.*fx (95%% CI %.*f–%.*f, %s)", what, d, r->ratio, d, r->lo, d, r->hi,
			 !w->valid ? "no test" : w->significant ? "significant" : "NOT significant");
	else
		snprintf(buf + len, n - len, "; %s %.*fx", what, d, r->ratio);
}

void report_compare_sentence(const struct agg_cmp *c, const struct agg_group *a, const struct agg_group *b,
			     char *buf, size_t n)
{
	int d = ratio_decimals(c->ratio.ratio);

	if (c->ratio.valid)
		snprintf(buf, n, "%s > %s by %.*fx (95%% CI %.*f–%.*f)", a->drive, b->drive, d, c->ratio.ratio, d,
			 c->ratio.lo, d, c->ratio.hi);
	else if (b->tps.mean > 0)
		snprintf(buf, n, "%s > %s by %.*fx (no CI: needs 2 repetitions on both)", a->drive, b->drive, d,
			 c->ratio.ratio);
	else
		snprintf(buf, n, "%s > %s (no TPS on %s)", a->drive, b->drive, b->drive);
	compare_latency(buf, n, "avg latency", &c->avg_ratio, &c->avg_welch);
	if (c->has_p99)
		compare_latency(buf, n, "p99", &c->p99_ratio, &c->p99_welch);
}

void report_dev_text(const struct tel_dev *d, char *buf, size_t n)
{
	char util[48] = "utilisation not known";

	if (d->has_util)
		snprintf(util, sizeof(util), "%.0f%% utilised", 100 * d->util);
	snprintf(buf, n, "%s: %.0f r + %.0f w IOPS, %.2f r + %.2f w MB/s, %.2f ms per I/O, queue depth %.1f, %s",
		 d->name, d->r_iops, d->w_iops, d->r_mbps, d->w_mbps, d->await_ms, d->queue_depth, util);
}

void report_md_cell(struct strbuf *sb, const char *s)
{
	strbuf_adds(sb, "| ");
	for (; *s; s++) {
		if (*s == '|')
			strbuf_adds(sb, "\\|");
		else if (*s == '\n')
			strbuf_addc(sb, ' ');
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, ' ');
}
