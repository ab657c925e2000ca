#include "workload/tpcc/sql.h"

#include "core/strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define I DB_TYPE_INT32
#define L DB_TYPE_INT64
#define D DB_TYPE_DOUBLE
#define S DB_TYPE_STRING
#define DT DB_TYPE_TIMESTAMP
#define T(...) ((const enum db_type[]){__VA_ARGS__}), (sizeof((const enum db_type[]){__VA_ARGS__}) / sizeof(enum db_type))
#define NONE NULL, 0

static const struct tpcc_stmt_def defs[TS_COUNT] = {
	[TS_NO_CUST_WH] = {"no_cust_wh", T(I, I, I), T(D, S, S, D)},
	[TS_NO_DIST_UPD] = {"no_dist_upd", T(I, I), NONE},
	[TS_NO_DIST] = {"no_dist", T(I, I), T(I, D)},
	[TS_NO_INS_ORDER] = {"no_ins_order", T(I, I, I, I, I, I), NONE},
	[TS_NO_INS_NEW_ORDER] = {"no_ins_new_order", T(I, I, I), NONE},
	[TS_NO_ITEM] = {"no_item", T(I), T(D, S, S)},
	[TS_NO_STOCK] = {"no_stock", T(I, I, I), T(I, S, S)},
	[TS_NO_STOCK_UPD] = {"no_stock_upd", T(I, I, I, I, I), NONE},
	[TS_NO_INS_ORDER_LINE] = {"no_ins_order_line", T(I, I, I, I, I, I, I, D, S), NONE},
	[TS_PAY_WH_UPD] = {"pay_wh_upd", T(D, I), NONE},
	[TS_PAY_WH] = {"pay_wh", T(I), T(S, S, S, S, S, S)},
	[TS_PAY_DIST_UPD] = {"pay_dist_upd", T(D, I, I), NONE},
	[TS_PAY_DIST] = {"pay_dist", T(I, I), T(S, S, S, S, S, S)},
	[TS_CUST_BY_NAME] = {"cust_by_name", T(I, I, S), T(I)},
	[TS_PAY_CUST] = {"pay_cust", T(I, I, I), T(S, S, S, S, S, S, S, S, S, S, D, D, D, S)},
	[TS_PAY_CUST_UPD] = {"pay_cust_upd", T(D, D, I, I, I), NONE},
	[TS_PAY_CUST_DATA] = {"pay_cust_data", T(I, I, I), T(S)},
	[TS_PAY_CUST_DATA_UPD] = {"pay_cust_data_upd", T(S, I, I, I), NONE},
	[TS_PAY_INS_HISTORY] = {"pay_ins_history", T(I, I, I, I, I, D, S), NONE},
	[TS_OS_CUST] = {"os_cust", T(I, I, I), T(S, S, S, D)},
	[TS_OS_LAST_ORDER] = {"os_last_order", T(I, I, I), T(I, I, S)},
	[TS_OS_LINES] = {"os_lines", T(I, I, I), T(I, I, I, D, S)},
	[TS_DL_OLDEST_NEW_ORDER] = {"dl_oldest_new_order", T(I, I), T(I)},
	[TS_DL_DEL_NEW_ORDER] = {"dl_del_new_order", T(I, I, I), NONE},
	[TS_DL_ORDER] = {"dl_order", T(I, I, I), T(I)},
	[TS_DL_ORDER_UPD] = {"dl_order_upd", T(I, I, I, I), NONE},
	[TS_DL_LINES_UPD] = {"dl_lines_upd", T(I, I, I), NONE},
	[TS_DL_LINES_SUM] = {"dl_lines_sum", T(I, I, I), T(D)},
	[TS_DL_CUST_UPD] = {"dl_cust_upd", T(D, I, I, I), NONE},
	[TS_SL_DIST] = {"sl_dist", T(I, I), T(I)},
	[TS_SL_COUNT] = {"sl_count", T(I, I, I, I, I, I), T(L)},
	[TS_PR_NEWORD] = {"pr_neword", T(I, I, I, I, I, S, S, S, S), T(I, I, D)},
	[TS_PR_PAYMENT] = {"pr_payment", T(I, I, I, I, I, S, I, D), T(I, D, S)},
	[TS_PR_OSTAT] = {"pr_ostat", T(I, I, I, S, I), T(I, I, I, I, I, I, D, S)},
	[TS_PR_DELIVERY] = {"pr_delivery", T(I, I), T(I, I, S)},
	[TS_PR_SLEV] = {"pr_slev", T(I, I, I), T(I)},
	[TS_LD_ITEM] = {"ld_item", T(I, I, S, D, S), NONE},
	[TS_LD_WAREHOUSE] = {"ld_warehouse", T(I, S, S, S, S, S, S, D, D), NONE},
	[TS_LD_DISTRICT] = {"ld_district", T(I, I, S, S, S, S, S, S, D, D, I), NONE},
	[TS_LD_CUSTOMER] = {"ld_customer", T(I, I, I, S, S, S, S, S, S, S, S, S, S, D, D, D, D, I, I, S), NONE},
	[TS_LD_HISTORY] = {"ld_history", T(I, I, I, I, I, D, S), NONE},
	[TS_LD_ORDERS] = {"ld_orders", T(I, I, I, I, DT, I, I, I), NONE},
	[TS_LD_NEW_ORDER] = {"ld_new_order", T(I, I, I), NONE},
	[TS_LD_ORDER_LINE] = {"ld_order_line", T(I, I, I, I, I, I, DT, I, D, S), NONE},
	[TS_LD_STOCK] = {"ld_stock", T(I, I, I, S, S, S, S, S, S, S, S, S, S, I, I, I, S), NONE},
	[TS_LD_META] = {"ld_meta", T(S, I), NONE},
	[TS_META_GET] = {"meta_get", NONE, T(S, I)},
	[TS_CHK_1] = {"chk_1", NONE, T(L, L)},
	[TS_CHK_2] = {"chk_2", NONE, T(L, L, L)},
	[TS_CHK_3] = {"chk_3", NONE, T(L, L)},
	[TS_CHK_4] = {"chk_4", NONE, T(L, L)},
	[TS_CHK_5_7] = {"chk_5_7", NONE, T(L, L, L, L, L)},
	[TS_CHK_8] = {"chk_8", NONE, T(L, L)},
	[TS_CHK_9] = {"chk_9", NONE, T(L, L)},
	[TS_CHK_10_12] = {"chk_10_12", NONE, T(L, L, L)},
	[TS_CHK_11] = {"chk_11", NONE, T(L, L)},
	[TS_CHK_DELIVERED] = {"chk_delivered", NONE, T(L)},
	[TS_CHK_ROWS] = {"chk_rows", NONE, T(L, L, L, L, L, L, L, L, L, L)},
	[TS_CHK_OL_CNT] = {"chk_ol_cnt", NONE, T(L)},
};

const struct tpcc_stmt_def *tpcc_stmt_def(enum tpcc_stmt s)
{
	return &defs[s];
}

static const char *const dialect_names[TPCC_DIALECT_COUNT] = {
	[TPCC_MSSQL] = "mssql",
	[TPCC_MYSQL] = "mysql",
	[TPCC_POSTGRESQL] = "postgresql",
};

const char *tpcc_dialect_name(enum tpcc_dialect d)
{
	return dialect_names[d];
}

int tpcc_dialect_parse(const char *s, enum tpcc_dialect *out)
{
	for (int i = 0; i < TPCC_DIALECT_COUNT; i++) {
		if (!strcmp(s, dialect_names[i])) {
			*out = (enum tpcc_dialect)i;
			return 0;
		}
	}
	return -EINVAL;
}

int tpcc_dialect_detect(const char *name, enum tpcc_dialect *out)
{
	if (!name)
		return -EINVAL;
	if (strstr(name, "SQL Server")) {
		*out = TPCC_MSSQL;
		return 0;
	}
	if (!strncasecmp(name, "MariaDB", 7) || !strncasecmp(name, "MySQL", 5)) {
		*out = TPCC_MYSQL;
		return 0;
	}
	if (!strncasecmp(name, "PostgreSQL", 10)) {
		*out = TPCC_POSTGRESQL;
		return 0;
	}
	return -EINVAL;
}

const char *tpcc_sql_file_text(enum tpcc_dialect d, const char *base)
{
	char want[64];

	snprintf(want, sizeof(want), "%s/%s", dialect_names[d], base);
	for (const struct tpcc_sql_file *f = tpcc_sql_files; f->name; f++)
		if (!strcmp(f->name, want))
			return f->text;
	return NULL;
}

/* Split ';'-terminated statements, dropping "--" comment lines. With
 * `names`, a "-- name: X" line names the statement that follows. */
struct piece {
	char *name;
	char *text;
};

static int split(const char *text, struct piece **out, unsigned *n)
{
	struct strbuf cur;
	char *name = NULL;
	const char *p = text;

	*out = NULL;
	*n = 0;
	strbuf_init(&cur, 256);
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len >= 2 && p[0] == '-' && p[1] == '-') {
			if (len > 9 && !strncmp(p, "-- name: ", 9)) {
				free(name);
				name = xmalloc(len - 9 + 1);
				memcpy(name, p + 9, len - 9);
				name[len - 9] = '\0';
			}
		} else if (len > 0) {
			if (cur.len)
				strbuf_addc(&cur, '\n');
			strbuf_add(&cur, p, len);
			if (p[len - 1] == ';') {
				cur.buf[--cur.len] = '\0';
				*out = xrealloc(*out, (*n + 1) * sizeof(**out));
				(*out)[*n].name = name;
				(*out)[*n].text = xstrdup(cur.buf);
				(*n)++;
				name = NULL;
				strbuf_reset(&cur);
			}
		}
		p += len + (eol ? 1 : 0);
	}
	free(name);
	if (cur.len) {
		strbuf_release(&cur);
		return -1; /* text without a final ';' */
	}
	strbuf_release(&cur);
	return 0;
}

static void pieces_free(struct piece *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].text);
	}
	free(p);
}

static unsigned count_params(const char *s)
{
	unsigned n = 0;
	bool quoted = false;

	for (; *s; s++) {
		if (*s == '\'')
			quoted = !quoted;
		else if (*s == '?' && !quoted)
			n++;
	}
	return n;
}

static int load_list(enum tpcc_dialect d, const char *base, char ***out, unsigned *n, char *err, size_t errlen)
{
	const char *text = tpcc_sql_file_text(d, base);
	struct piece *p;
	unsigned np;

	if (!text || split(text, &p, &np) < 0) {
		snprintf(err, errlen, "sql/%s/%s: %s", dialect_names[d], base,
			 text ? "text after the last ';'" : "missing from this build");
		return -1;
	}
	*out = xcalloc(np, sizeof(**out));
	for (unsigned i = 0; i < np; i++) {
		(*out)[i] = p[i].text;
		p[i].text = NULL;
	}
	*n = np;
	pieces_free(p, np);
	return 0;
}

/* procedures.sql: a "-- procedure: NAME" line starts a block that runs to the
 * next such line; comment lines before the first block are the file's
 * header. A block is sent as it is written, without its trailing ';'. */
static int load_procs(enum tpcc_dialect d, struct tpcc_sql *s, char *err, size_t errlen)
{
	static const char mark[] = "-- procedure: ";
	const char *text = tpcc_sql_file_text(d, "procedures.sql");
	const char *p;
	struct strbuf cur;

	if (!text) {
		snprintf(err, errlen, "sql/%s/procedures.sql: missing from this build", dialect_names[d]);
		return -1;
	}
	strbuf_init(&cur, 4096);
	if (!strncmp(text, mark, sizeof(mark) - 1))
		p = text;
	else if ((p = strstr(text, "\n-- procedure: ")))
		p++;
	while (p) {
		const char *name = p + sizeof(mark) - 1, *eol = strchr(name, '\n');
		const char *next = eol ? strstr(eol, "\n-- procedure: ") : NULL;
		const char *end = next ? next + 1 : name + strlen(name);
		size_t nlen = eol ? (size_t)(eol - name) : strlen(name);
		strbuf_reset(&cur);
		if (eol)
			strbuf_add(&cur, eol + 1, (size_t)(end - eol - 1));
		while (cur.len && (cur.buf[cur.len - 1] == '\n' || cur.buf[cur.len - 1] == ' '))
			cur.buf[--cur.len] = '\0';
		if (cur.len && cur.buf[cur.len - 1] == ';')
			cur.buf[--cur.len] = '\0';
		if (!nlen || !cur.len) {
			snprintf(err, errlen, "sql/%s/procedures.sql: an empty \"-- procedure:\" block", dialect_names[d]);
			strbuf_release(&cur);
			return -1;
		}
		s->procs = xrealloc(s->procs, (s->nprocs + 1) * sizeof(*s->procs));
		s->proc_names = xrealloc(s->proc_names, (s->nprocs + 1) * sizeof(*s->proc_names));
		s->procs[s->nprocs] = xstrdup(cur.buf);
		s->proc_names[s->nprocs] = xmalloc(nlen + 1);
		memcpy(s->proc_names[s->nprocs], name, nlen);
		s->proc_names[s->nprocs][nlen] = '\0';
		s->nprocs++;
		p = next ? next + 1 : NULL;
	}
	strbuf_release(&cur);
	if (!s->nprocs) {
		snprintf(err, errlen, "sql/%s/procedures.sql: no \"-- procedure: NAME\" block", dialect_names[d]);
		return -1;
	}
	return 0;
}

void tpcc_sql_free(struct tpcc_sql *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < TS_COUNT; i++)
		free(s->stmt[i]);
	for (unsigned i = 0; i < s->nschema; i++)
		free(s->schema[i]);
	for (unsigned i = 0; i < s->nindexes; i++)
		free(s->indexes[i]);
	for (unsigned i = 0; i < s->ndrop; i++)
		free(s->drop[i]);
	for (unsigned i = 0; i < s->nsession; i++)
		free(s->session[i]);
	free(s->session);
	for (unsigned i = 0; i < s->nsettings; i++)
		free(s->settings[i]);
	free(s->settings);
	for (unsigned i = 0; i < s->nprocs; i++) {
		free(s->procs[i]);
		free(s->proc_names[i]);
	}
	free(s->procs);
	free(s->proc_names);
	free(s->schema);
	free(s->indexes);
	free(s->drop);
	free(s);
}

int tpcc_sql_load(enum tpcc_dialect d, struct tpcc_sql **out, char *err, size_t errlen)
{
	struct tpcc_sql *s = xcalloc(1, sizeof(*s));
	const char *text = tpcc_sql_file_text(d, "statements.sql");
	struct piece *p = NULL;
	unsigned np = 0;
	int ret = -1;

	s->dialect = d;
	if (load_list(d, "schema.sql", &s->schema, &s->nschema, err, errlen) < 0 ||
	    load_list(d, "indexes.sql", &s->indexes, &s->nindexes, err, errlen) < 0 ||
	    load_list(d, "drop.sql", &s->drop, &s->ndrop, err, errlen) < 0 ||
	    load_list(d, "session.sql", &s->session, &s->nsession, err, errlen) < 0 ||
	    load_list(d, "settings.sql", &s->settings, &s->nsettings, err, errlen) < 0 ||
	    load_procs(d, s, err, errlen) < 0)
		goto out;
	if (!text || split(text, &p, &np) < 0) {
		snprintf(err, errlen, "sql/%s/statements.sql: %s", dialect_names[d],
			 text ? "text after the last ';'" : "missing from this build");
		goto out;
	}
	for (unsigned i = 0; i < np; i++) {
		unsigned k;
		for (k = 0; k < TS_COUNT; k++)
			if (p[i].name && !strcmp(p[i].name, defs[k].name))
				break;
		if (k == TS_COUNT) {
			snprintf(err, errlen, "sql/%s/statements.sql: statement %u: unknown name \"%s\"", dialect_names[d],
				 i + 1, p[i].name ? p[i].name : "(none: add a \"-- name:\" line)");
			goto out;
		}
		if (s->stmt[k]) {
			snprintf(err, errlen, "sql/%s/statements.sql: \"%s\" given twice", dialect_names[d], p[i].name);
			goto out;
		}
		if (count_params(p[i].text) != defs[k].nparams) {
			snprintf(err, errlen, "sql/%s/statements.sql: \"%s\" has %u parameters (expected %u)",
				 dialect_names[d], p[i].name, count_params(p[i].text), defs[k].nparams);
			goto out;
		}
		s->stmt[k] = p[i].text;
		p[i].text = NULL;
	}
	for (unsigned k = 0; k < TS_COUNT; k++) {
		if (!s->stmt[k]) {
			snprintf(err, errlen, "sql/%s/statements.sql: \"%s\" is missing", dialect_names[d], defs[k].name);
			goto out;
		}
	}
	*out = s;
	s = NULL;
	ret = 0;
out:
	pieces_free(p, np);
	tpcc_sql_free(s);
	return ret;
}

void tpcc_sql_print(FILE *f, const struct tpcc_sql *s)
{
	const char *d = dialect_names[s->dialect];

	fprintf(f, "-- dbrig TPC-C, dialect %s: schema (sql/%s/schema.sql)\n\n", d, d);
	for (unsigned i = 0; i < s->nschema; i++)
		fprintf(f, "%s;\n\n", s->schema[i]);
	fprintf(f, "-- after the load (sql/%s/indexes.sql)\n\n", d);
	for (unsigned i = 0; i < s->nindexes; i++)
		fprintf(f, "%s;\n", s->indexes[i]);
	fprintf(f, "\n-- on every run connection (sql/%s/session.sql)\n\n", d);
	for (unsigned i = 0; i < s->nsession; i++)
		fprintf(f, "%s;\n", s->session[i]);
	fprintf(f, "\n-- what the server was, for the result (sql/%s/settings.sql)\n\n", d);
	for (unsigned i = 0; i < s->nsettings; i++)
		fprintf(f, "%s;\n", s->settings[i]);
	fprintf(f, "\n-- statements (sql/%s/statements.sql)\n\n", d);
	for (unsigned k = 0; k < TS_COUNT; k++)
		fprintf(f, "-- %s\n%s;\n", defs[k].name, s->stmt[k]);
	fprintf(f, "\n-- procedures, created by prepare (sql/%s/procedures.sql)\n", d);
	for (unsigned i = 0; i < s->nprocs; i++)
		fprintf(f, "\n-- procedure: %s\n%s;\n", s->proc_names[i], s->procs[i]);
	fprintf(f, "\n-- cleanup (sql/%s/drop.sql)\n\n", d);
	for (unsigned i = 0; i < s->ndrop; i++)
		fprintf(f, "%s;\n", s->drop[i]);
}
