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
