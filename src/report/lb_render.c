/*
 * The published leaderboard rendered: a board's entries marked (lb_mark), on
 * the terminal (lb_text), and the report's sections, one board per distinct
 * protocol among the measured groups, in Markdown, HTML and report.json (with
 * the optional fields of the published rows). leaderboard.c builds the boards
 * (report/lb_int.h); their rankings are tables of report/tables.c
 * (report_table_leaderboard), rendered as the pages' other tables.
 */
#include "report/lb_int.h"

#include "core/escape.h"
#include "core/strbuf.h"
#include "report/html_int.h"
#include "report/md_int.h"
#include "report/tables.h"
#include "report/writer.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lb_mark(const struct lb_entry *e, struct strbuf *sb)
{
	if (!e->pub) {
		strbuf_addf(sb, "measured · %s", e->where);
		return;
	}
	strbuf_addf(sb, "published · %s", e->where);
	if (e->pub->x.machine_translated)
		strbuf_adds(sb, " · machine-translated");
}

static void fmt2(char *b, size_t n, double v)
{
	report_fmt_num(b, n, v, 2);
}

/* Why the board is ranked by latency (think times). */
static void latency_reason(const struct lb_board *b, struct strbuf *sb)
{
	char per[48];
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (b->e[i].pub) {
			sum += b->e[i].tps;
			n++;
		}
	}
	strbuf_adds(sb, "Ranked by average latency: with ");
	lb_num(sb, b->proto.users);
	strbuf_adds(sb, " users per instance that key and think between transactions, the think times set the "
			"TPS (users / cycle time), not the storage");
	if (n && b->proto.vm_count) {
		fmt2(per, sizeof(per), sum / (double)n / (double)b->proto.vm_count);
		strbuf_addf(sb, " (the published rows here run %s TPS per instance on average)", per);
	}
	strbuf_adds(sb, "; latency is what separates the drives.");
}

static const size_t *primary(const struct lb_board *b, const char **what)
{
	*what = b->latency_only ? "average latency, lowest first" : "TPS, most first";
	return b->latency_only ? b->by_avg : b->by_tps;
}

void lb_text(const struct lb_board *b, struct strbuf *sb)
{
	struct strbuf m;
	const char *what;
	const size_t *order = primary(b, &what);

	strbuf_init(&m, 0);
	strbuf_adds(sb, "Protocol: ");
	lb_proto_describe(&b->proto, sb);
	strbuf_adds(sb, "\n");
	if (b->latency_only) {
		latency_reason(b, sb);
		strbuf_adds(sb, "\n");
	}
	for (int pass = 0; pass < 2; pass++) {
		const size_t *ord = pass ? b->by_p99 : order;
		size_t cnt = pass ? b->np99 : b->n;

		if (pass)
			strbuf_addf(sb, "Ranked by p99 latency, lowest first (%zu of %zu rows publish one):\n", b->np99,
				    b->n);
		else
			strbuf_addf(sb, "Ranked by %s (%zu rows):\n", what, b->n);
		if (!cnt) {
			strbuf_adds(sb, "  (none)\n");
			continue;
		}
		strbuf_addf(sb, "%4s %12s %9s %9s  %s\n", "rank", "TPS", "avg ms", "p99 ms", "drive: where");
		for (size_t r = 0; r < cnt; r++) {
			const struct lb_entry *e = &b->e[ord[r]];
			char tps[32], avg[32], p99[32];

			fmt2(tps, sizeof(tps), e->tps);
			fmt2(avg, sizeof(avg), e->avg_ms);
			if (e->has_p99)
				fmt2(p99, sizeof(p99), e->p99_ms);
			else
				snprintf(p99, sizeof(p99), "-");
			strbuf_reset(&m);
			lb_mark(e, &m);
			strbuf_addf(sb, "%4zu %12s %9s %9s  %s%s: %s\n", r + 1, tps, avg, p99, e->pub ? "" : "* ", e->name,
				    m.buf);
		}
	}
	if (b->nnear) {
		strbuf_adds(sb, "Nearest rows of another protocol (not ranked):\n");
		for (size_t i = 0; i < b->nnear; i++) {
			const struct pub_result *p = b->near[i].pub;
			strbuf_addf(sb, "  %s, %s (%s): differs in %s\n", p->x.drive, p->label, p->review->file,
				    b->near[i].fields);
		}
	}
	strbuf_release(&m);
}

/* --- report sections --- */


/* The measured entries of groups with protocol `want`; `done` marks groups used. */
static size_t measured_of(const struct report *rep, const struct lb_proto *want, bool *done, struct lb_entry *out)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		struct lb_proto gp;

		if (g->slice || done[i])
			continue;
		lb_proto_of_group(g, &gp);
		if (lb_proto_diff(want, &gp, NULL) || lb_proto_diff(&gp, want, NULL))
			continue;
		done[i] = true;
		out[n++] = (struct lb_entry){.name = g->drive, .where = g->label, .tps = g->tps.mean,
					     .avg_ms = g->avg_ms_mean.mean, .has_p99 = g->has_p99_mean,
					     .p99_ms = g->p99_mean.mean};
	}
	return n;
}

typedef void (*board_fn)(void *ctx, const struct lb_board *b);

/* One board per distinct protocol among the measured groups. */
static void each_board(void *ctx, const struct report *rep, board_fn fn)
{
	bool *done = xcalloc(rep->ngroups + 1, sizeof(bool));
	struct lb_entry *m = xcalloc(rep->ngroups + 1, sizeof(*m));

	for (size_t i = 0; i < rep->ngroups; i++) {
		struct lb_proto want;
		struct lb_board b;
		size_t nm;

		if (rep->groups[i].slice || done[i])
			continue;
		lb_proto_of_group(&rep->groups[i], &want);
		nm = measured_of(rep, &want, done, m);
		lb_build(rep->pub, &want, m, nm, &b);
		fn(ctx, &b);
		lb_release(&b);
	}
	free(done);
	free(m);
}

typedef void table_fn(struct strbuf *sb, const struct report_table *t);

/* One ranking of a board: built as the report's other tables (report/tables.c), rendered by the page's writer
 * (md_table, html_table). */
static void ranking(struct strbuf *sb, const struct lb_board *b, const size_t *ord, size_t cnt, table_fn *render)
{
	struct report_table t;

	report_table_leaderboard(b, ord, cnt, &t);
	render(sb, &t);
	report_table_release(&t);
}

static void md_board(void *ctx, const struct lb_board *b)
{
	struct strbuf *sb = ctx;
	const char *what;
	const size_t *order = primary(b, &what);
	size_t npub = 0;

	for (size_t i = 0; i < b->n; i++)
		npub += b->e[i].pub != NULL;
	strbuf_adds(sb, "### ");
	lb_proto_describe(&b->proto, sb);
	strbuf_addf(sb, "\n\n%zu published row%s of this protocol.", npub, npub == 1 ? "" : "s");
	if (b->latency_only) {
		strbuf_addc(sb, ' ');
		latency_reason(b, sb);
	}
	strbuf_addf(sb, "\n\nRanked by %s; measured drives in bold:\n\n", what);
	ranking(sb, b, order, b->n, md_table); /* md_table ends it with a blank line */
	if (b->np99) {
		strbuf_addf(sb, "Ranked by p99 latency, lowest first (%zu of %zu rows publish one):\n\n", b->np99, b->n);
		ranking(sb, b, b->by_p99, b->np99, md_table);
	}
	if (b->nnear) {
		strbuf_adds(sb, "Nearest published rows of another protocol (not ranked):\n\n");
		for (size_t i = 0; i < b->nnear; i++) {
			const struct pub_result *p = b->near[i].pub;
			strbuf_addf(sb, "- %s, %s (`%s`%s): differs in %s\n", p->x.drive, p->label, p->review->file,
				    p->x.machine_translated ? ", machine-translated" : "", b->near[i].fields);
		}
		strbuf_addc(sb, '\n');
	}
}

static void incomplete_list(struct strbuf *sb, const struct report *rep, bool html)
{
	size_t n = 0;

	for (size_t i = 0; rep->pub && i < rep->pub->n; i++)
		n += rep->pub->reviews[i].nincomplete;
	if (!n)
		return;
	strbuf_adds(sb, html ? "<p>Published without a figure, not ranked:</p>\n<ul>\n"
			     : "Published without a figure, not ranked:\n\n");
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nincomplete; k++) {
			const struct pub_incomplete *p = &rv->incomplete[k];
			struct strbuf t;

			strbuf_init(&t, 0);
			strbuf_addf(&t, "%s, %s (%s, %s%s): %s", p->x.drive, p->label, rv->file,
				    *p->x.era ? p->x.era : rv->platform,
				    p->x.machine_translated ? ", machine-translated" : "", p->missing);
			if (p->has_avg)
				strbuf_addf(&t, "; average latency %.2f ms", p->avg_ms);
			if (html) {
				strbuf_adds(sb, "<li>");
				escape_html(sb, t.buf);
				strbuf_adds(sb, "</li>\n");
			} else {
				strbuf_addf(sb, "- %s\n", t.buf);
			}
			strbuf_release(&t);
		}
	}
	strbuf_adds(sb, html ? "</ul>\n" : "\n");
}

void lb_md_section(struct strbuf *sb, const struct report *rep)
{
	if (!rep->pub)
		return;
	strbuf_adds(sb, "## Leaderboard\n\nEach measured protocol beside the published rows that state the same "
			"protocol (workload and test, instances, load per instance, scale where both state it); "
			"published rows carry their era or platform, and a machine-translated source is always "
			"marked. See docs/reading-reports.md, \"Leaderboard\".\n\n");
	each_board(sb, rep, md_board);
	incomplete_list(sb, rep, false);
}

static void html_board(void *ctx, const struct lb_board *b)
{
	struct strbuf *sb = ctx;
	struct strbuf t;
	const char *what;
	const size_t *order = primary(b, &what);

	strbuf_init(&t, 0);
	lb_proto_describe(&b->proto, &t);
	strbuf_adds(sb, "<h3>");
	escape_html(sb, t.buf);
	strbuf_adds(sb, "</h3>\n");
	if (b->latency_only) {
		strbuf_reset(&t);
		latency_reason(b, &t);
		strbuf_adds(sb, "<p>");
		escape_html(sb, t.buf);
		strbuf_adds(sb, "</p>\n");
	}
	strbuf_addf(sb, "<p>Ranked by %s; measured drives in bold.</p>\n", what);
	ranking(sb, b, order, b->n, html_table);
	if (b->np99) {
		strbuf_addf(sb, "<p>Ranked by p99 latency, lowest first (%zu of %zu rows publish one).</p>\n", b->np99,
			    b->n);
		ranking(sb, b, b->by_p99, b->np99, html_table);
	}
	if (b->nnear) {
		strbuf_adds(sb, "<p>Nearest published rows of another protocol (not ranked):</p>\n<ul>\n");
		for (size_t i = 0; i < b->nnear; i++) {
			const struct pub_result *p = b->near[i].pub;
			strbuf_reset(&t);
			strbuf_addf(&t, "%s, %s (%s%s): differs in %s", p->x.drive, p->label, p->review->file,
				    p->x.machine_translated ? ", machine-translated" : "", b->near[i].fields);
			strbuf_adds(sb, "<li>");
			escape_html(sb, t.buf);
			strbuf_adds(sb, "</li>\n");
		}
		strbuf_adds(sb, "</ul>\n");
	}
	strbuf_release(&t);
}

void lb_html_section(struct strbuf *sb, const struct report *rep)
{
	if (!rep->pub)
		return;
	strbuf_adds(sb, "<h2 id=\"leaderboard\">Leaderboard</h2>\n<p>Each measured protocol beside the published rows "
			"that state the same protocol (workload and test, instances, load per instance, scale where both "
			"state it); published rows carry their era or platform, and a machine-translated source is "
			"always marked.</p>\n");
	each_board(sb, rep, html_board);
	incomplete_list(sb, rep, true);
}

/* --- report.json --- */

static json_t *opt_int(int64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

static void ext_json(const struct pub_row_ext *x, json_t *o)
{
	json_object_set_new(o, "drive", json_string(x->drive));
	json_object_set_new(o, "drive_details", json_string(x->drive_details));
	json_object_set_new(o, "era", json_string(x->era));
	json_object_set_new(o, "machine_translated", json_boolean(x->machine_translated));
	json_object_set_new(o, "drives_used", json_string(x->drives_used));
	json_object_set_new(o, "quote", json_string(x->quote));
	json_object_set_new(o, "tables", opt_int(x->tables));
	json_object_set_new(o, "table_size", opt_int(x->table_size));
	json_object_set_new(o, "warehouses", opt_int(x->warehouses));
}

void lb_row_json(const struct pub_result *p, json_t *obj)
{
	ext_json(&p->x, obj);
}

json_t *lb_incomplete_json(const struct pub_review *rv)
{
	json_t *a = json_array();

	for (size_t k = 0; k < rv->nincomplete; k++) {
		const struct pub_incomplete *p = &rv->incomplete[k];
		json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:s}", "label", p->label, "workload", p->kind,
				      "test", p->test, "vm_count", opt_int(p->vm_count), "users_per_vm",
				      opt_int(p->users_per_vm), "avg_latency_ms",
				      p->has_avg ? json_real(p->avg_ms) : json_null(), "method", p->method, "missing",
				      p->missing);
		ext_json(&p->x, o);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *proto_json(const struct lb_proto *p)
{
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "workload", p->kind, "test", p->test, "instances",
			 opt_int(p->vm_count), "threads_per_instance", opt_int(p->threads), "users_per_instance",
			 opt_int(p->users), "tables", opt_int(p->tables), "table_size", opt_int(p->table_size),
			 "warehouses", opt_int(p->warehouses));
}

static void board_json(void *ctx, const struct lb_board *b)
{
	json_t *arr = ctx;
	json_t *rows = json_array(), *near = json_array(), *o;
	const char *what;
	const size_t *order = primary(b, &what);
	struct strbuf t;

	strbuf_init(&t, 0);
	for (size_t r = 0; r < b->n; r++) {
		const struct lb_entry *e = &b->e[order[r]];
		o = json_pack("{s:I, s:I, s:o, s:I, s:b, s:s, s:s, s:f, s:f, s:o}", "rank", (json_int_t)(r + 1),
			      "rank_tps", (json_int_t)e->rank_tps, "rank_p99",
			      e->rank_p99 ? json_integer((json_int_t)e->rank_p99) : json_null(), "rank_avg_latency",
			      (json_int_t)e->rank_avg, "measured", !e->pub, "drive", e->name, "where", e->where, "tps",
			      e->tps, "avg_latency_ms", e->avg_ms, "p99_latency_ms",
			      e->has_p99 ? json_real(e->p99_ms) : json_null());
		if (e->pub) {
			json_object_set_new(o, "file", json_string(e->pub->review->file));
			json_object_set_new(o, "label", json_string(e->pub->label));
			json_object_set_new(o, "machine_translated", json_boolean(e->pub->x.machine_translated));
		}
		json_array_append_new(rows, o);
	}
	for (size_t i = 0; i < b->nnear; i++) {
		const struct pub_result *p = b->near[i].pub;
		json_array_append_new(near, json_pack("{s:s, s:s, s:s, s:b, s:s}", "file", p->review->file, "label",
						      p->label, "drive", p->x.drive, "machine_translated",
						      p->x.machine_translated, "differs", b->near[i].fields));
	}
	if (b->latency_only)
		latency_reason(b, &t);
	json_array_append_new(arr, json_pack("{s:o, s:s, s:o, s:o, s:o}", "protocol", proto_json(&b->proto),
					     "ranked_by", b->latency_only ? "avg_latency" : "tps", "reason",
					     b->latency_only ? json_string(t.buf) : json_null(), "rows", rows,
					     "nearest", near));
	strbuf_release(&t);
}

json_t *lb_json(const struct report *rep)
{
	json_t *a = json_array();

	if (!rep->pub)
		return a;
	each_board(a, rep, board_json);
	return a;
}
