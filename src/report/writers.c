#include "report/writer.h"
#include "workload/registry.h"

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
	const struct workload_desc *wd = workload_find(kind);

	return wd ? wd->title : kind;
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

/* "−42%" for a latency ratio of 0.58: the change of the faster drive's latency, with a real minus sign. */
static void pct_change(struct strbuf *sb, double ratio)
{
	double pct = (ratio - 1) * 100;

	if (pct < -0.5)
		strbuf_addf(sb, "−%.0f%%", -pct);
	else if (pct > 0.5)
		strbuf_addf(sb, "+%.0f%%", pct);
	else
		strbuf_adds(sb, "±0%");
}

/* "; p99 −42% (95% CI −48…−35%), significant" appended to sb. */
static void headline_latency(struct strbuf *sb, const char *what, const struct ci_ratio *r, const struct ci_welch *w,
			     bool *warn)
{
	if (r->ratio <= 0)
		return;
	strbuf_addf(sb, "; %s ", what);
	pct_change(sb, r->ratio);
	if (r->valid) {
		strbuf_adds(sb, " (95% CI ");
		pct_change(sb, r->lo);
		strbuf_adds(sb, "…");
		pct_change(sb, r->hi);
		strbuf_adds(sb, ")");
	}
	if (w->valid) {
		strbuf_addf(sb, ", %s", w->significant ? "significant" : "NOT significant");
		*warn |= !w->significant;
	} else {
		strbuf_adds(sb, ", no test");
	}
}

void report_headlines(const struct report *rep, report_headline_fn *emit, void *ctx)
{
	struct strbuf t;

	strbuf_init(&t, 0);
	for (size_t i = 0; i < rep->ncmps; i++) {
		const struct agg_cmp *c = &rep->cmps[i];
		const struct agg_group *a = &rep->groups[c->faster], *g = &rep->groups[c->slower];
		size_t ndr = 1, last = i;
		bool warn = false;

		/* One sentence per run group: its first pair, and the spread when it has more drives. */
		if (i > 0 && agg_same_run_group(&rep->groups[rep->cmps[i - 1].faster], a))
			continue;
		while (last + 1 < rep->ncmps && agg_same_run_group(&rep->groups[rep->cmps[last + 1].faster], a))
			last++;
		ndr += last - i + 1;
		strbuf_reset(&t);
		if (ndr > 2) {
			const struct agg_group *z = &rep->groups[rep->cmps[last].slower];

			strbuf_addf(&t, "%zu drives; the fastest, %s, ", ndr, a->drive);
			if (z->tps.mean > 0)
				strbuf_addf(&t, "has %.2f× the TPS of the slowest, ", a->tps.mean / z->tps.mean);
			else
				strbuf_adds(&t, "beats the slowest, ");
			strbuf_addf(&t, "%s (every neighbouring pair in Drive comparison).", z->drive);
			emit(ctx, a->run_group, t.buf, false);
			continue;
		}
		if (g->tps.mean > 0)
			strbuf_addf(&t, "%s %.2f× %s TPS", a->drive, c->ratio.ratio, g->drive);
		else
			strbuf_addf(&t, "%s more than %s TPS", a->drive, g->drive);
		if (c->ratio.valid)
			strbuf_addf(&t, " (95%% CI %.2f–%.2f)", c->ratio.lo, c->ratio.hi);
		if (c->welch.valid) {
			strbuf_addf(&t, ", %s (Welch p = %.3g)", c->welch.significant ? "significant" : "NOT significant",
				    c->welch.p);
			warn |= !c->welch.significant;
		} else {
			strbuf_adds(&t, ", no test (needs 2 repetitions on both drives)");
		}
		if (c->has_p99)
			headline_latency(&t, "p99", &c->p99_ratio, &c->p99_welch, &warn);
		headline_latency(&t, "average latency", &c->avg_ratio, &c->avg_welch, &warn);
		if (a->incomplete || g->incomplete) {
			strbuf_adds(&t, " (an incomplete group)");
			warn = true;
		}
		strbuf_adds(&t, ".");
		emit(ctx, a->run_group, t.buf, warn);
	}
	if (!rep->ncmps) {
		for (size_t i = 0; i < rep->ngroups; i++) {
			const struct agg_group *g = &rep->groups[i];
			char b[64];

			strbuf_reset(&t);
			report_fmt_num(b, sizeof(b), g->tps.mean, 2);
			strbuf_addf(&t, "%s TPS, average ", b);
			report_fmt_num(b, sizeof(b), g->avg_ms_mean.mean, 2);
			strbuf_addf(&t, "%s ms", b);
			if (g->has_p99_mean) {
				report_fmt_num(b, sizeof(b), g->p99_mean.mean, 2);
				strbuf_addf(&t, ", p99 %s ms", b);
			}
			strbuf_addf(&t, "%s.", g->incomplete ? " (INCOMPLETE)" : "");
			emit(ctx, g->label, t.buf, g->incomplete);
		}
	}
	strbuf_release(&t);
}

/* "nvme0n1: SAMSUNG …, serial S6…, firmware GDC7102Q, 3,841 GB, 512/4096-byte blocks". */
void report_drive_id_text(struct strbuf *t, const struct drive_id *id)
{
	char b[64];

	strbuf_addf(t, "%s: %s", id->dev, *id->model ? id->model : "model not reported");
	if (*id->serial)
		strbuf_addf(t, ", serial %s", id->serial);
	if (*id->firmware)
		strbuf_addf(t, ", firmware %s", id->firmware);
	if (id->size_bytes) {
		report_fmt_num(b, sizeof(b), (double)id->size_bytes / 1e9, 0);
		strbuf_addf(t, ", %s GB", b);
	}
	if (id->logical_block)
		strbuf_addf(t, ", %u/%u-byte blocks (logical/physical)", id->logical_block, id->physical_block);
}

/* The distinct non-empty values of a run field, "; "-separated, in result order. */
static char *distinct(const struct report *rep, const char *drive, const char *(*get)(const struct run *))
{
	struct strbuf out;

	strbuf_init(&out, 0);
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		const char *v = get(r);
		bool seen = !v || !*v || (drive && strcmp(r->drive, drive));

		for (size_t k = 0; k < i && !seen; k++)
			seen = (!drive || !strcmp(rep->runs->runs[k]->drive, drive)) && get(rep->runs->runs[k]) &&
			       !strcmp(get(rep->runs->runs[k]), v);
		if (!seen)
			strbuf_addf(&out, "%s%s", out.len ? "; " : "", v);
	}
	return strbuf_detach(&out);
}

static const char *get_campaign(const struct run *r) { return r->campaign; }
static const char *get_tool(const struct run *r) { return r->tool_version; }
static const char *get_engine(const struct run *r) { return r->engine; }
static const char *get_storage(const struct run *r) { return r->storage; }

/* One result of each campaign run (run id), in result order, into b->runs. */
static void bed_runs(const struct report *rep, struct report_bed *b)
{
	b->runs = xcalloc(rep->runs->n + 1, sizeof(*b->runs));
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		bool seen = !*r->run_id;

		for (size_t k = 0; k < b->nruns && !seen; k++)
			seen = !strcmp(b->runs[k]->run_id, r->run_id);
		if (!seen)
			b->runs[b->nruns++] = r;
	}
}

/* "format=raw allocation=full" -> "raw volume, allocation full (preallocated)". */
static char *storage_text(const char *st)
{
	struct strbuf out;
	char *copy = xstrdup(st), *save = NULL;
	const char *fmt = NULL, *alloc = NULL;

	strbuf_init(&out, 0);
	for (char *tok = strtok_r(copy, " ;", &save); tok; tok = strtok_r(NULL, " ;", &save)) {
		if (!strncmp(tok, "format=", 7))
			fmt = tok + 7;
		else if (!strncmp(tok, "allocation=", 11))
			alloc = tok + 11;
	}
	if (fmt || alloc) {
		strbuf_addf(&out, "%s volume", fmt ? fmt : "format not reported,");
		if (alloc)
			strbuf_addf(&out, ", allocation %s (%s)", alloc,
				    !strcmp(alloc, "full") ? "preallocated" : !strcmp(alloc, "sparse") ? "allocated as written"
												 : "?");
	} else {
		strbuf_adds(&out, st);
	}
	free(copy);
	return strbuf_detach(&out);
}

void report_bed_build(const struct report *rep, struct report_bed *b)
{
	struct strbuf t;

	memset(b, 0, sizeof(*b));
	strbuf_init(&t, 0);
	b->campaign = distinct(rep, NULL, get_campaign);
	bed_runs(rep, b);
	for (size_t k = 0; k < b->nruns; k++)
		strbuf_addf(&t, "%s%s, started %s", k ? "; " : "", b->runs[k]->run_id,
			    *b->runs[k]->run_started ? b->runs[k]->run_started : "?");
	b->run = strbuf_detach(&t);
	strbuf_init(&t, 0);
	b->tool = distinct(rep, NULL, get_tool);
	b->engine = distinct(rep, NULL, get_engine);
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];

		if (*r->started_at && (!b->first || strcmp(r->started_at, b->first) < 0))
			b->first = r->started_at;
		if (*r->finished_at && (!b->last || strcmp(r->finished_at, b->last) > 0))
			b->last = r->finished_at;
		if (!b->hostid && (*r->host.cpu_model || *r->host.kernel))
			b->hostid = &r->host;
		b->cpus = r->host_cpus > b->cpus ? r->host_cpus : b->cpus;
	}
	if (b->hostid) {
		char g[64];

		report_fmt_num(g, sizeof(g), (double)b->hostid->ram_bytes / (1024.0 * 1024 * 1024), 0);
		strbuf_addf(&t, "%s, %u CPUs, %s GiB RAM, %s",
			    *b->hostid->cpu_model ? b->hostid->cpu_model : "CPU model not reported", b->hostid->cpus, g,
			    *b->hostid->kernel ? b->hostid->kernel : "kernel not reported");
	} else if (b->cpus) {
		strbuf_addf(&t, "%u CPUs", b->cpus);
	}
	b->host = strbuf_detach(&t);
	b->drives = xcalloc(rep->runs->n + 1, sizeof(*b->drives));
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		struct report_bed_drive *d = NULL;

		for (size_t k = 0; k < b->ndrives && !d; k++)
			if (!strcmp(b->drives[k].name, r->drive))
				d = &b->drives[k];
		if (!d) {
			char *st;

			d = &b->drives[b->ndrives++];
			d->name = r->drive;
			st = distinct(rep, r->drive, get_storage);
			d->storage = *st ? storage_text(st) : xstrdup("");
			d->storage_raw = st;
		}
		if (!d->run && r->ndrive_ids)
			d->run = r;
		if (!d->stack && r->drive_stack)
			d->stack = r->drive_stack;
	}
	strbuf_release(&t);
}

void report_bed_release(struct report_bed *b)
{
	free(b->campaign);
	free(b->run);
	free(b->tool);
	free(b->engine);
	free(b->host);
	for (size_t i = 0; i < b->ndrives; i++) {
		free(b->drives[i].storage);
		free(b->drives[i].storage_raw);
	}
	free(b->drives);
	free(b->runs);
	memset(b, 0, sizeof(*b));
}

void report_bed_rows(const struct report_bed *b, struct strbuf *sb, report_bed_row_fn *row)
{
	struct strbuf t;

	strbuf_init(&t, 0);
	row(sb, "campaign", b->campaign);
	row(sb, "campaign run", b->run);
	if (b->first)
		strbuf_addf(&t, "%s – %s", b->first, b->last ? b->last : "?");
	row(sb, "runs", t.buf);
	row(sb, "dbrig", b->tool);
	row(sb, "engine and server", b->engine);
	row(sb, "host", b->host);
	strbuf_release(&t);
}

bool report_tel_sources_text(const struct report *rep, const char *drive, struct strbuf *out)
{
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		const struct tel_phase *t = &r->tel_sample;
		bool node = !strncmp(t->host_source, "libvirt node", 12), dev = false, vm = false;

		if (strcmp(r->drive, drive) || !t->present || !t->host_source[0])
			continue;
		for (size_t k = 0; k < t->ndevs; k++) {
			dev = dev || t->devs[k].has_util;
			vm = vm || !t->devs[k].has_util;
		}
		strbuf_addf(out, "host CPU: %s", t->host_source);
		if (t->has_host_mem)
			strbuf_addf(out, ", host memory %.0f%% used (%s)", 100 * t->host_mem_used, t->host_source);
		if (dev)
			strbuf_adds(out, "; block devices: /proc/diskstats on this machine");
		else if (node)
			strbuf_adds(out, "; block devices: none (the drive's host is another machine: dbrig reads "
					 "/proc/diskstats only here)");
		if (vm)
			strbuf_adds(out, "; VM disks: libvirt block stats");
		return true;
	}
	return false;
}
