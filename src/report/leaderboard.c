/*
 * The published leaderboard, its protocols and its boards: a protocol from a
 * published row, from a measured group or from --protocol, described and
 * compared field by field (lb_proto_diff, lb_group_matches); the board of one
 * protocol built from the published rows that state it and the measured
 * entries, ranked by TPS, p99 and average latency. lb_render.c renders the
 * boards (report/lb_int.h).
 */
#include "report/lb_int.h"

#include "core/strbuf.h"
#include "report/writer.h"
#include "workload/registry.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_str(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

void lb_proto_of_pub(const struct pub_result *p, struct lb_proto *out)
{
	memset(out, 0, sizeof(*out));
	set_str(out->kind, sizeof(out->kind), p->kind);
	set_str(out->test, sizeof(out->test), p->test);
	out->vm_count = p->vm_count;
	out->threads = p->threads_per_vm;
	out->users = p->users_per_vm;
	out->tables = p->x.tables;
	out->table_size = p->x.table_size;
	out->warehouses = p->x.warehouses;
}

/* The integer value of "key=N" in a canonical params string; 0 when absent. */
static int64_t param_int(const char *params, const char *key)
{
	size_t kl = strlen(key);

	for (const char *s = params; s && *s;) {
		if (!strncmp(s, key, kl) && s[kl] == '=')
			return strtoll(s + kl + 1, NULL, 10);
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	return 0;
}

static bool param_is(const char *params, const char *key, const char *val)
{
	size_t kl = strlen(key), vl = strlen(val);

	for (const char *s = params; s && *s;) {
		if (!strncmp(s, key, kl) && s[kl] == '=')
			return !strncmp(s + kl + 1, val, vl) && (s[kl + 1 + vl] == ' ' || !s[kl + 1 + vl]);
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	return false;
}

void lb_proto_of_group(const struct agg_group *g, struct lb_proto *out)
{
	memset(out, 0, sizeof(*out));
	set_str(out->kind, sizeof(out->kind), g->kind);
	set_str(out->test, sizeof(out->test), g->test);
	out->vm_count = g->vm_count;
	if (workload_has_users(g->kind)) {
		int64_t terminals = param_int(g->params, "terminals");
		out->warehouses = param_int(g->params, "warehouses");
		/* Terminals that key and think are users; without delays they are a closed loop. */
		if (param_is(g->params, "delays", "off") || !strstr(g->params ? g->params : "", "delays="))
			out->threads = terminals;
		else
			out->users = terminals;
	} else {
		out->threads = param_int(g->params, "threads");
		out->tables = param_int(g->params, "tables");
		out->table_size = param_int(g->params, "table_size");
	}
}

static int spec_int(const char *key, const char *val, int64_t *out, struct strbuf *err)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(val, &end, 10);
	if (!*val || *end || errno || v < 1 || v > 100000000000LL) {
		strbuf_addf(err, "--protocol: %s=%s (expected an integer >= 1)", key, val);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int lb_proto_parse(const char *spec, struct lb_proto *out, struct strbuf *err)
{
	char buf[512], *save = NULL;

	memset(out, 0, sizeof(*out));
	if (strlen(spec) >= sizeof(buf)) {
		strbuf_adds(err, "--protocol: too long (expected at most 511 characters)");
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		const char *val;
		int ret = 0;

		if (!eq) {
			strbuf_addf(err, "--protocol: %s (expected key=value: workload, test, vms, threads, users, "
					 "tables, table_size, warehouses)", kv);
			return -EINVAL;
		}
		*eq = '\0';
		val = eq + 1;
		if (!strcmp(kv, "workload")) {
			if (!workload_find(val)) {
				strbuf_addf(err, "--protocol: workload=%s (expected ", val);
				workload_names(err);
				strbuf_adds(err, ")");
				return -EINVAL;
			}
			set_str(out->kind, sizeof(out->kind), val);
		} else if (!strcmp(kv, "test")) {
			if (!*val || strlen(val) >= sizeof(out->test)) {
				strbuf_addf(err, "--protocol: test=%s (expected a test name, e.g. oltp_read_write)", val);
				return -EINVAL;
			}
			set_str(out->test, sizeof(out->test), val);
		} else if (!strcmp(kv, "vms")) {
			ret = spec_int(kv, val, &out->vm_count, err);
		} else if (!strcmp(kv, "threads")) {
			ret = spec_int(kv, val, &out->threads, err);
		} else if (!strcmp(kv, "users")) {
			ret = spec_int(kv, val, &out->users, err);
		} else if (!strcmp(kv, "tables")) {
			ret = spec_int(kv, val, &out->tables, err);
		} else if (!strcmp(kv, "table_size")) {
			ret = spec_int(kv, val, &out->table_size, err);
		} else if (!strcmp(kv, "warehouses")) {
			ret = spec_int(kv, val, &out->warehouses, err);
		} else {
			strbuf_addf(err, "--protocol: %s=%s (expected one of workload, test, vms, threads, users, tables, "
					 "table_size, warehouses)", kv, val);
			return -EINVAL;
		}
		if (ret < 0)
			return ret;
	}
	if (!out->kind[0] || !out->vm_count) {
		strbuf_addf(err, "--protocol: %s (expected at least workload=", spec);
		workload_list(err, "", "|", "|");
		strbuf_adds(err, " and vms=N)");
		return -EINVAL;
	}
	if (out->threads && out->users) {
		strbuf_addf(err, "--protocol: %s (expected threads=N (closed loop) or users=N (think times), not both)",
			    spec);
		return -EINVAL;
	}
	if (!out->test[0])
		set_str(out->test, sizeof(out->test), workload_find(out->kind)->default_test);
	return 0;
}

void lb_num(struct strbuf *sb, int64_t v)
{
	char b[48];

	report_fmt_num(b, sizeof(b), (double)v, 0);
	strbuf_adds(sb, b);
}

static void load_describe(const struct lb_proto *p, struct strbuf *sb)
{
	if (p->threads) {
		lb_num(sb, p->threads);
		strbuf_adds(sb, p->threads == 1 ? " thread" : " threads");
	} else if (p->users) {
		lb_num(sb, p->users);
		strbuf_adds(sb, " users with think times");
	} else {
		strbuf_adds(sb, "load not stated");
	}
}

static void scale_describe(const struct lb_proto *p, struct strbuf *sb)
{
	if (workload_scale_param(p->kind, "warehouses")) {
		if (p->warehouses) {
			lb_num(sb, p->warehouses);
			strbuf_adds(sb, " warehouses");
		} else {
			strbuf_adds(sb, "scale not stated");
		}
		return;
	}
	if (p->tables || p->table_size) {
		if (p->tables)
			lb_num(sb, p->tables);
		else
			strbuf_adds(sb, "?");
		strbuf_adds(sb, " x ");
		if (p->table_size)
			lb_num(sb, p->table_size);
		else
			strbuf_adds(sb, "?");
		strbuf_adds(sb, " rows");
	} else {
		strbuf_adds(sb, "scale not stated");
	}
}

void lb_proto_describe(const struct lb_proto *p, struct strbuf *sb)
{
	strbuf_addf(sb, "%s %s, ", p->kind, p->test);
	if (p->vm_count) {
		lb_num(sb, p->vm_count);
		strbuf_adds(sb, p->vm_count == 1 ? " instance x " : " instances x ");
	} else {
		strbuf_adds(sb, "instances not stated x ");
	}
	load_describe(p, sb);
	strbuf_adds(sb, ", ");
	scale_describe(p, sb);
}

static void diff_field(struct strbuf *f, size_t *n, const char *what)
{
	if (f) {
		if (*n)
			strbuf_adds(f, "; ");
		strbuf_adds(f, what);
	}
	(*n)++;
}

size_t lb_proto_diff(const struct lb_proto *want, const struct lb_proto *row, struct strbuf *f)
{
	struct strbuf t;
	size_t n = 0;

	strbuf_init(&t, 0);
	if (strcmp(want->kind, row->kind)) {
		strbuf_addf(&t, "workload %s vs %s", row->kind, want->kind);
		diff_field(f, &n, t.buf);
	}
	if (strcmp(want->test, row->test)) {
		strbuf_reset(&t);
		strbuf_addf(&t, "test %s vs %s", row->test, want->test);
		diff_field(f, &n, t.buf);
	}
	if (want->vm_count && row->vm_count != want->vm_count) {
		strbuf_reset(&t);
		strbuf_adds(&t, "instances ");
		if (row->vm_count)
			lb_num(&t, row->vm_count);
		else
			strbuf_adds(&t, "not stated");
		strbuf_adds(&t, " vs ");
		lb_num(&t, want->vm_count);
		diff_field(f, &n, t.buf);
	}
	/* The load where both state it (a closed loop against think times always differs). */
	if ((want->threads || want->users) && (row->threads || row->users) &&
	    (row->threads != want->threads || row->users != want->users)) {
		strbuf_reset(&t);
		strbuf_adds(&t, "load per instance ");
		load_describe(row, &t);
		strbuf_adds(&t, " vs ");
		load_describe(want, &t);
		diff_field(f, &n, t.buf);
	}
	/* The scale only where both state it. */
	if (!strcmp(want->kind, row->kind) &&
	    ((want->tables && row->tables && want->tables != row->tables) ||
	     (want->table_size && row->table_size && want->table_size != row->table_size) ||
	     (want->warehouses && row->warehouses && want->warehouses != row->warehouses))) {
		strbuf_reset(&t);
		strbuf_adds(&t, "scale ");
		scale_describe(row, &t);
		strbuf_adds(&t, " vs ");
		scale_describe(want, &t);
		diff_field(f, &n, t.buf);
	}
	strbuf_release(&t);
	return n;
}

bool lb_group_matches(const struct agg_group *g, const struct pub_result *p)
{
	struct lb_proto gp, rp;

	lb_proto_of_group(g, &gp);
	lb_proto_of_pub(p, &rp);
	return lb_proto_diff(&gp, &rp, NULL) == 0;
}

static const struct lb_entry *sort_base;

static int name_cmp(const struct lb_entry *a, const struct lb_entry *b)
{
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->where, b->where);
}

static int by_tps_cmp(const void *pa, const void *pb)
{
	const struct lb_entry *a = &sort_base[*(const size_t *)pa], *b = &sort_base[*(const size_t *)pb];

	if (a->tps != b->tps)
		return a->tps > b->tps ? -1 : 1; /* most TPS first */
	return name_cmp(a, b);
}

static int by_p99_cmp(const void *pa, const void *pb)
{
	const struct lb_entry *a = &sort_base[*(const size_t *)pa], *b = &sort_base[*(const size_t *)pb];

	if (a->p99_ms != b->p99_ms)
		return a->p99_ms < b->p99_ms ? -1 : 1; /* lowest p99 first */
	return name_cmp(a, b);
}

static int by_avg_cmp(const void *pa, const void *pb)
{
	const struct lb_entry *a = &sort_base[*(const size_t *)pa], *b = &sort_base[*(const size_t *)pb];

	if (a->avg_ms != b->avg_ms)
		return a->avg_ms < b->avg_ms ? -1 : 1; /* lowest latency first */
	return name_cmp(a, b);
}

static void add_near(struct lb_board *b, const struct pub_result *p, size_t ndiff, const char *fields)
{
	size_t at = b->nnear;

	/* Kept sorted by ndiff, the first found first among equals. */
	while (at > 0 && b->near[at - 1].ndiff > ndiff)
		at--;
	if (at >= LB_NEAR_MAX)
		return;
	if (b->nnear < LB_NEAR_MAX)
		b->nnear++;
	memmove(&b->near[at + 1], &b->near[at], (b->nnear - 1 - at) * sizeof(b->near[0]));
	b->near[at].pub = p;
	b->near[at].ndiff = ndiff;
	set_str(b->near[at].fields, sizeof(b->near[at].fields), fields);
}

static void rank_all(struct lb_board *b)
{
	size_t np99 = 0;

	for (size_t i = 0; i < b->n; i++) {
		b->by_tps[i] = b->by_avg[i] = i;
		if (b->e[i].has_p99)
			b->by_p99[np99++] = i;
	}
	b->np99 = np99;
	sort_base = b->e;
	if (b->n) {
		qsort(b->by_tps, b->n, sizeof(size_t), by_tps_cmp);
		qsort(b->by_avg, b->n, sizeof(size_t), by_avg_cmp);
	}
	if (np99)
		qsort(b->by_p99, np99, sizeof(size_t), by_p99_cmp);
	sort_base = NULL;
	for (size_t r = 0; r < b->n; r++) {
		b->e[b->by_tps[r]].rank_tps = r + 1;
		b->e[b->by_avg[r]].rank_avg = r + 1;
	}
	for (size_t r = 0; r < np99; r++)
		b->e[b->by_p99[r]].rank_p99 = r + 1;
}

void lb_build(const struct pub_set *pub, const struct lb_proto *want, const struct lb_entry *measured,
	      size_t nmeasured, struct lb_board *out)
{
	size_t cap = nmeasured + 1;
	struct strbuf f;

	memset(out, 0, sizeof(*out));
	out->proto = *want;
	out->latency_only = want->users > 0;
	for (size_t i = 0; pub && i < pub->n; i++)
		cap += pub->reviews[i].nresults;
	out->e = xcalloc(cap, sizeof(*out->e));
	out->by_tps = xcalloc(cap, sizeof(size_t));
	out->by_p99 = xcalloc(cap, sizeof(size_t));
	out->by_avg = xcalloc(cap, sizeof(size_t));
	strbuf_init(&f, 0);
	for (size_t i = 0; pub && i < pub->n; i++) {
		const struct pub_review *rv = &pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct lb_proto rp;
			size_t nd;

			lb_proto_of_pub(p, &rp);
			strbuf_reset(&f);
			nd = lb_proto_diff(want, &rp, &f);
			if (nd) {
				add_near(out, p, nd, f.buf);
				continue;
			}
			out->e[out->n++] = (struct lb_entry){.pub = p, .name = p->x.drive,
							     .where = *p->x.era ? p->x.era : rv->platform,
							     .tps = p->tps, .avg_ms = p->avg_ms,
							     .has_p99 = p->has_p99, .p99_ms = p->p99_ms};
		}
	}
	strbuf_release(&f);
	for (size_t i = 0; i < nmeasured; i++) {
		out->e[out->n] = measured[i];
		out->e[out->n].pub = NULL;
		out->n++;
	}
	rank_all(out);
}

void lb_release(struct lb_board *b)
{
	free(b->e);
	free(b->by_tps);
	free(b->by_p99);
	free(b->by_avg);
	memset(b, 0, sizeof(*b));
}
