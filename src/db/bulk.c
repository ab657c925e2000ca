#include "db/bulk.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

bool db_bulk_refused(const struct db_conn *c)
{
	int n = c->err.native;

	return n == 1148 || n == 2068 || n == 3948 || n == 4166;
}

static void add_u64(struct strbuf *sb, uint64_t x)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	strbuf_add(sb, tmp + sizeof(tmp) - n, (size_t)n);
}

static void add_i64(struct strbuf *sb, int64_t x)
{
	if (x < 0) {
		strbuf_addc(sb, '-');
		add_u64(sb, (uint64_t)0 - (uint64_t)x);
	} else {
		add_u64(sb, (uint64_t)x);
	}
}

void db_bulk_field(struct strbuf *sb, const struct db_value *v)
{
	if (v->is_null) {
		strbuf_add(sb, "\\N", 2);
		return;
	}
	switch (v->type) {
	case DB_TYPE_INT32:
	case DB_TYPE_INT64:
		add_i64(sb, v->i);
		break;
	case DB_TYPE_DOUBLE: {
		double a = fabs(v->d) * 10000.0;
		if (!(a < 9e15)) { /* beyond exact fixed point (or not finite): printf's way */
			strbuf_addf(sb, "%.4f", v->d);
			break;
		}
		uint64_t x = (uint64_t)llround(a);
		char frac[4];
		if (v->d < 0 && x)
			strbuf_addc(sb, '-');
		add_u64(sb, x / 10000);
		for (int k = 3; k >= 0; k--, x /= 10)
			frac[k] = (char)('0' + x % 10);
		strbuf_addc(sb, '.');
		strbuf_add(sb, frac, 4);
		break;
	}
	case DB_TYPE_TIMESTAMP:
	case DB_TYPE_STRING: {
		const char *s = v->s, *end = s + v->len, *run = s;
		for (; s < end; s++) {
			char e;
			switch (*s) {
			case '\\': e = '\\'; break;
			case '\t': e = 't'; break;
			case '\n': e = 'n'; break;
			case '\0': e = '0'; break;
			default: continue;
			}
			strbuf_add(sb, run, (size_t)(s - run));
			strbuf_addc(sb, '\\');
			strbuf_addc(sb, e);
			run = s + 1;
		}
		strbuf_add(sb, run, (size_t)(end - run));
		break;
	}
	}
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* The end of the comma-separated item starting at p (a top-level ',' or the
 * closing ')' of the list), or NULL when the list is not closed. */
static const char *item_end(const char *p)
{
	int depth = 0;
	char quote = 0;

	for (; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
		} else if (*p == '\'' || *p == '"' || *p == '`') {
			quote = *p;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (depth-- == 0)
				return p;
		} else if (*p == ',' && depth == 0) {
			return p;
		}
	}
	return NULL;
}

static size_t trimmed_len(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		e--;
	return (size_t)(e - s);
}

/* Does s start with word (ASCII letters in any case, a space in word also
 * matching a tab or newline)? */
static bool prefix_ci(const char *s, const char *word)
{
	for (; *word; s++, word++) {
		if (*word == ' ' ? !(*s == ' ' || *s == '\t' || *s == '\n') : tolower((unsigned char)*s) != *word)
			return false;
	}
	return true;
}

/* "INSERT INTO t (c1, …) VALUES (v1, …)": the table name, and the first
 * column and first value (just after their '('). Returns 0 or -1. */
static int parse_insert(const char *insert, const char **table, size_t *table_len, const char **cols,
			const char **vals)
{
	const char *p = skip_ws(insert), *v;

	if (!prefix_ci(p, "insert into "))
		return -1;
	*table = skip_ws(p + 12);
	*table_len = strcspn(*table, " \t\n(");
	*cols = skip_ws(*table + *table_len);
	if (*table_len == 0 || **cols != '(')
		return -1;
	/* VALUES ( after the column list */
	v = item_end(*cols + 1);
	while (v && *v == ',')
		v = item_end(v + 1);
	if (!v)
		return -1;
	v = skip_ws(v + 1);
	if (!prefix_ci(v, "values"))
		return -1;
	v = skip_ws(v + 6);
	if (*v != '(')
		return -1;
	*cols += 1;
	*vals = v + 1;
	return 0;
}

char *db_bulk_load_sql(const char *insert)
{
	struct strbuf fields, set, out;
	const char *table, *cols, *vals;
	size_t table_len;
	unsigned var = 0;
	bool ok = false;

	if (parse_insert(insert, &table, &table_len, &cols, &vals) < 0)
		return NULL;
	strbuf_init(&fields, 256);
	strbuf_init(&set, 256);
	strbuf_init(&out, 512);
	for (;;) {
		const char *ce = item_end(cols), *ve = item_end(vals);
		const char *c = skip_ws(cols), *v = skip_ws(vals);
		size_t clen, vlen;
		if (!ce || !ve || (*ce == ')') != (*ve == ')'))
			goto out;
		clen = trimmed_len(c, ce);
		vlen = trimmed_len(v, ve);
		if (clen == 0 || vlen == 0)
			goto out;
		if (vlen == 1 && *v == '?') {
			if (fields.len)
				strbuf_addc(&fields, ',');
			strbuf_add(&fields, c, clen);
		} else {
			char quote = 0;
			strbuf_adds(&set, set.len ? ", " : " SET ");
			strbuf_add(&set, c, clen);
			strbuf_adds(&set, " = ");
			for (size_t i = 0; i < vlen; i++) {
				if (quote) {
					if (v[i] == quote)
						quote = 0;
				} else if (v[i] == '\'' || v[i] == '"' || v[i] == '`') {
					quote = v[i];
				} else if (v[i] == '?') {
					strbuf_addf(&set, "@p%u", ++var);
					strbuf_addf(&fields, "%s@p%u", fields.len ? "," : "", var);
					continue;
				}
				strbuf_addc(&set, v[i]);
			}
		}
		if (*ce == ')')
			break;
		cols = ce + 1;
		vals = ve + 1;
	}
	if (fields.len == 0)
		goto out;
	strbuf_adds(&out, "LOAD DATA LOCAL INFILE 'dbrig-rows' INTO TABLE ");
	strbuf_add(&out, table, table_len);
	strbuf_adds(&out, " (");
	strbuf_add(&out, fields.buf, fields.len);
	strbuf_addc(&out, ')');
	strbuf_add(&out, set.buf, set.len);
	ok = true;
out:
	strbuf_release(&fields);
	strbuf_release(&set);
	if (!ok) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out);
}

/* s[0..len) is word, ignoring case and runs of blanks (a space in word). */
static bool equal_ci(const char *s, size_t len, const char *word)
{
	const char *end = s + len;

	for (; *word; word++) {
		if (*word == ' ') {
			if (s == end || !(*s == ' ' || *s == '\t' || *s == '\n'))
				return false;
			while (s < end && (*s == ' ' || *s == '\t' || *s == '\n'))
				s++;
		} else {
			if (s == end || tolower((unsigned char)*s) != *word)
				return false;
			s++;
		}
	}
	return s == end;
}

int db_bulk_copy_plan(const char *insert, char *table, size_t table_size, struct db_copy_col *out, unsigned max,
		      unsigned *ncols)
{
	const char *t, *cols, *vals;
	size_t table_len;
	unsigned n = 0, param = 0;

	*ncols = 0;
	if (parse_insert(insert, &t, &table_len, &cols, &vals) < 0 || table_len >= table_size)
		return -EINVAL;
	memcpy(table, t, table_len);
	table[table_len] = '\0';
	for (;;) {
		const char *ce = item_end(cols), *ve = item_end(vals);
		const char *c = skip_ws(cols), *v = skip_ws(vals);
		size_t clen, vlen;
		if (!ce || !ve || (*ce == ')') != (*ve == ')') || n == max)
			return -EINVAL;
		clen = trimmed_len(c, ce);
		vlen = trimmed_len(v, ve);
		if (clen == 0 || clen >= sizeof(out[n].name))
			return -EINVAL;
		memcpy(out[n].name, c, clen);
		out[n].name[clen] = '\0';
		out[n].param = param;
		if (vlen == 1 && *v == '?') {
			out[n].kind = DB_COPY_PARAM;
			param++;
		} else if (equal_ci(v, vlen, "current_timestamp")) {
			out[n].kind = DB_COPY_NOW;
		} else if (equal_ci(v, vlen, "null")) {
			out[n].kind = DB_COPY_NULL;
		} else {
			return -EINVAL;
		}
		n++;
		if (*ce == ')')
			break;
		cols = ce + 1;
		vals = ve + 1;
	}
	*ncols = n;
	return 0;
}

struct mem_stream {
	const char *p;
	size_t left;
};

static long mem_fill(void *arg, char *buf, size_t cap)
{
	struct mem_stream *m = arg;
	size_t n = m->left < cap ? m->left : cap;

	memcpy(buf, m->p, n);
	m->p += n;
	m->left -= n;
	return (long)n;
}

int db_bulk_load_buffer(struct db_conn *c, const char *sql, const char *rows, size_t len, struct db_exec_result *r)
{
	struct mem_stream m = {rows, len};

	return c->ops->load_stream(c, sql, mem_fill, &m, r);
}
