/* ODBC errors: SQLSTATE and native codes classified, c->err from the diagnostic records. */
#include "db/odbc/odbc_int.h"

#include <stdio.h>
#include <string.h>

/* --- classification (no SQL* calls; unit-tested) --- */

static bool state_is(const char *s, const char *want)
{
	return !strcmp(s, want);
}

static enum db_err_class retry(enum db_retry_kind *why, enum db_retry_kind k)
{
	if (why)
		*why = k;
	return DB_ERR_RETRY;
}

enum db_err_class odbc_classify(const char *sqlstate, int native, const struct db_conn_params *p,
				enum db_retry_kind *why)
{
	const char *s = sqlstate ? sqlstate : "";

	if (!strncmp(s, "08", 2) || state_is(s, "57P01") || state_is(s, "57P02") || state_is(s, "57P03"))
		return DB_ERR_RECONNECT;
	if (state_is(s, "40001"))
		return retry(why, native == 1205 || native == 1213 ? DB_RETRY_DEADLOCK : DB_RETRY_SERIALIZATION);
	if (state_is(s, "40P01"))
		return retry(why, DB_RETRY_DEADLOCK);
	if (state_is(s, "55P03"))
		return retry(why, DB_RETRY_LOCK_TIMEOUT);
	/* FreeTDS maps SQL Server's 1205 to no SQLSTATE of its own: severity 13
	 * becomes 42000 (msodbcsql says 40001). */
	if (state_is(s, "42000") && native == 1205)
		return retry(why, DB_RETRY_DEADLOCK);
	/* SQL Server's snapshot update conflict (3960, severity 16: 42000 on
	 * FreeTDS), reachable with --isolation=snapshot. */
	if (state_is(s, "42000") && native == 3960)
		return retry(why, DB_RETRY_SERIALIZATION);
	if (state_is(s, "HY000")) {
		switch (native) {
		case 1213: /* MariaDB ER_LOCK_DEADLOCK */
			return retry(why, DB_RETRY_DEADLOCK);
		case 1205: /* MariaDB ER_LOCK_WAIT_TIMEOUT */
			return retry(why, DB_RETRY_LOCK_TIMEOUT);
		case 2002: /* CR_CONNECTION_ERROR */
		case 2003: /* CR_CONN_HOST_ERROR */
		case 2006: /* CR_SERVER_GONE_ERROR */
		case 2013: /* CR_SERVER_LOST */
		case 1927: /* ER_CONNECTION_KILLED */
		case 1053: /* ER_SERVER_SHUTDOWN */
			return DB_ERR_RECONNECT;
		default:
			break;
		}
	}
	if (p && native && (p->retry_all || db_code_in_list(native, p->retry_codes, p->n_retry_codes)))
		return retry(why, DB_RETRY_LISTED);
	return DB_ERR_FATAL;
}

/* --- diagnostics --- */

/* Fill c->err from the handle's diagnostic records: the first record that
 * is not a warning (class 01) names the error; messages are joined. */
int diag(struct db_conn *c, SQLSMALLINT type, SQLHANDLE h, const char *what)
{
	struct od_conn *o = c->priv;
	SQLCHAR state[6], msg[512];
	SQLINTEGER native;
	SQLSMALLINT len;
	bool have = false;

	memset(&c->err, 0, sizeof(c->err));
	for (SQLSMALLINT i = 1; i <= 8; i++) {
		if (!ok(SQLGetDiagRec(type, h, i, state, &native, msg, sizeof(msg), &len)))
			break;
		if (have && !strncmp((char *)state, "01", 2))
			continue;
		if (!have || !strncmp(c->err.sqlstate, "01", 2)) {
			snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", (char *)state);
			c->err.native = (int)native;
			snprintf(c->err.msg, sizeof(c->err.msg), "%s", (char *)msg);
			have = true;
		}
	}
	if (!have) {
		snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "HY000");
		snprintf(c->err.msg, sizeof(c->err.msg), "%s failed without a diagnostic record", what);
	}
	c->err.cls = odbc_classify(c->err.sqlstate, c->err.native, c->params, &c->err.retry);
	if (c->err.cls == DB_ERR_FATAL && o && o->connected) {
		SQLUINTEGER dead = SQL_CD_FALSE;
		if (ok(SQLGetConnectAttr(o->dbc, SQL_ATTR_CONNECTION_DEAD, &dead, 0, NULL)) && dead == SQL_CD_TRUE)
			c->err.cls = DB_ERR_RECONNECT;
	}
	return -1;
}

int stmt_diag(struct db_conn *c, SQLHSTMT h, const char *what)
{
	return diag(c, SQL_HANDLE_STMT, h, what);
}
