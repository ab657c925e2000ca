/*
 * Before a run opens its sessions: does the server take that many? The
 * dialect's sessions.sql answers in one row (max sessions, sessions open,
 * max prepared statements, prepared statements open; NULL where there is no
 * limit); a run that would not fit is refused in one line naming the server
 * setting, instead of failing on connection 1,001 of 2,000 after minutes of
 * ramp-up. A server that cannot answer (a missing privilege, another
 * product) gets a warning and is not checked.
 */
#include "workload/tpcc/tpcc.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dialect file's one statement: its comment lines and the final ';' go. */
static char *limits_sql(enum tpcc_dialect d)
{
	const char *text = tpcc_sql_file_text(d, "sessions.sql");
	struct strbuf sb;

	if (!text)
		return NULL;
	strbuf_init(&sb, 0);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (!(n >= 2 && p[0] == '-' && p[1] == '-') && n) {
			strbuf_add(&sb, p, n);
			strbuf_addc(&sb, ' ');
		}
		p += n + (nl ? 1 : 0);
	}
	while (sb.len && (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == ';'))
		sb.buf[--sb.len] = '\0';
	return strbuf_detach(&sb);
}

static const char *sessions_setting(enum tpcc_dialect d)
{
	switch (d) {
	case TPCC_MSSQL:
		return "'user connections'";
	case TPCC_MYSQL:
		return "max_connections";
	case TPCC_POSTGRESQL:
		return "max_connections less superuser_reserved_connections";
	}
	return "max_connections";
}

int tpcc_read_limits(const struct tpcc_sql *sql, const struct db_driver_ops *drv, const struct db_conn_params *cp,
		     struct tpcc_limits *out)
{
	static const enum db_type cols[4] = {DB_TYPE_INT64, DB_TYPE_INT64, DB_TYPE_INT64, DB_TYPE_INT64};
	struct db_conn c = {.ops = drv};
	struct db_stmt *st = NULL;
	struct db_exec_result r;
	struct db_value v[4];
	char *q = limits_sql(sql->dialect);
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!q) {
		snprintf(out->error, sizeof(out->error), "no sessions.sql for dialect %s", tpcc_dialect_name(sql->dialect));
		return -1;
	}
	if (drv->connect(&c, cp) < 0 || drv->prepare(&c, q, NULL, 0, cols, 4, &st) < 0 ||
	    drv->execute(&c, st, NULL, &r) < 0 || drv->fetch(&c, st, v) != 1) {
		snprintf(out->error, sizeof(out->error), "error %d (%s): %s", c.err.native, c.err.sqlstate, c.err.msg);
		goto out;
	}
	out->setting = sessions_setting(sql->dialect);
	out->max_sessions = v[0].is_null ? 0 : v[0].i;
	out->open_sessions = v[1].is_null ? 0 : v[1].i;
	out->max_prepared = v[2].is_null ? -1 : v[2].i;
	out->open_prepared = v[3].is_null ? 0 : v[3].i;
	while (drv->fetch(&c, st, v) == 1)
		;
	drv->commit(&c);
	ret = 0;
out:
	drv->disconnect(&c);
	free(q);
	return ret;
}

int tpcc_limits_check(const struct tpcc_limits *l, const char *what, unsigned sessions, unsigned stmts_per_session,
		      char *err, size_t errlen)
{
	/* The connection that read the limits is one of the open sessions. */
	long long others = l->open_sessions > 0 ? l->open_sessions - 1 : 0;
	long long stmts = (long long)sessions * stmts_per_session;
	const char *setting = l->setting ? l->setting : "max_connections";

	if (l->max_sessions > 0 && (long long)sessions + others > l->max_sessions) {
		snprintf(err, errlen,
			 "%s: %u sessions, but the server takes %lld connections (%s) and %lld are open: "
			 "raise it to at least %lld, or use fewer",
			 what, sessions, l->max_sessions, setting, others, (long long)sessions + others);
		return -1;
	}
	if (l->max_prepared >= 0 && stmts + l->open_prepared > l->max_prepared) {
		snprintf(err, errlen,
			 "%s: %u sessions prepare %lld statements, but the server allows %lld (max_prepared_stmt_count) "
			 "and %lld are prepared: raise max_prepared_stmt_count to at least %lld, or use fewer sessions",
			 what, sessions, stmts, l->max_prepared, l->open_prepared, stmts + l->open_prepared);
		return -1;
	}
	return 0;
}
