/*
 * Isolation per transaction type (--isolation=LEVEL,TYPE:LEVEL,...; tpcc.h).
 *
 * The connections keep the base level (set at connect, as before); a type
 * with a level of its own gets one text statement before its transaction,
 * which the runner sends and counts as one of the transaction's round trips:
 *  - MySQL/MariaDB, and PostgreSQL in the statement mode: "SET TRANSACTION
 *    ISOLATION LEVEL x", for that one transaction (MariaDB: the next one,
 *    sent while none is open; PostgreSQL: the first statement after the
 *    BEGIN psqlODBC sends), so the next transaction is at the base level
 *    again with nothing sent;
 *  - SQL Server (its SET TRANSACTION ISOLATION LEVEL lasts for the session),
 *    and PostgreSQL in the procedure mode (autocommit: a function runs in
 *    the call's own transaction, so the session default must change first):
 *    a session-wide setting, sent only when the session's level is not the
 *    one the transaction needs, and back to the base when a later one needs
 *    that. A procedure inherits the session's level.
 */
#include "workload/tpcc/tpcc.h"

#include <stdio.h>
#include <string.h>

static const char *const level_names[] = {"default", "read-committed", "repeatable-read", "serializable", "snapshot"};
static const char *const level_sql[] = {NULL, "READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE", "SNAPSHOT"};

static const struct {
	const char *name, *alt;
	enum tpcc_type type;
} type_names[] = {
	{"neword", "new_order", TT_NEW_ORDER},   {"payment", NULL, TT_PAYMENT},
	{"ostat", "order_status", TT_ORDER_STATUS}, {"delivery", NULL, TT_DELIVERY},
	{"slev", "stock_level", TT_STOCK_LEVEL},
};

static int level_of(const char *s, size_t n, enum db_isolation *out)
{
	for (int i = 0; i < 5; i++)
		if (strlen(level_names[i]) == n && !strncmp(s, level_names[i], n)) {
			*out = (enum db_isolation)i;
			return 0;
		}
	return -1;
}

static int type_of(const char *s, size_t n, enum tpcc_type *out)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if ((strlen(type_names[i].name) == n && !strncmp(s, type_names[i].name, n)) ||
		    (type_names[i].alt && strlen(type_names[i].alt) == n && !strncmp(s, type_names[i].alt, n))) {
			*out = type_names[i].type;
			return 0;
		}
	return -1;
}

const char *tpcc_isolation_name(enum db_isolation l)
{
	return (unsigned)l < 5 ? level_names[l] : "?";
}

int tpcc_isolation_parse(const char *s, struct tpcc_isolation *iso, char *err, size_t n)
{
	bool base_given = false;

	memset(iso, 0, sizeof(*iso));
	for (const char *p = s;;) {
		const char *end = strchr(p, ','), *colon;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		enum db_isolation l;
		enum tpcc_type t;
		colon = memchr(p, ':', len);
		if (!colon) {
			if (level_of(p, len, &l) < 0 || base_given) {
				snprintf(err, n, "\"%.*s\" is not %s (expected default, read-committed, repeatable-read, "
					 "serializable or snapshot, once, and TYPE:LEVEL items, TYPE one of neword, payment, "
					 "ostat, delivery, slev)", (int)len, p, base_given ? "a second level for every type" : "a level");
				return -1;
			}
			iso->base = l;
			base_given = true;
		} else {
			if (type_of(p, (size_t)(colon - p), &t) < 0) {
				snprintf(err, n, "\"%.*s\" names no transaction type (expected neword, payment, ostat, "
					 "delivery or slev before the ':')", (int)(colon - p), p);
				return -1;
			}
			if (level_of(colon + 1, len - (size_t)(colon - p) - 1, &l) < 0 || iso->given[t]) {
				snprintf(err, n, "\"%.*s\": %s (expected TYPE:LEVEL once per type, LEVEL one of default, "
					 "read-committed, repeatable-read, serializable or snapshot)", (int)len, p,
					 iso->given[t] ? "a second level for the type" : "not a level");
				return -1;
			}
			iso->level[t] = l;
			iso->given[t] = true;
		}
		if (!end)
			break;
		p = end + 1;
	}
	for (int t = 0; t < TPCC_DECK_TYPES; t++) {
		if (!iso->given[t])
			iso->level[t] = iso->base;
		/* "default" is the server's level: a transaction cannot return to
		 * it from another base level with a statement of its own. */
		if (iso->given[t] && iso->level[t] == DB_ISO_DEFAULT && iso->base != DB_ISO_DEFAULT) {
			snprintf(err, n, "\"%s:default\" with the level %s for the others (expected the level by its name)",
				 type_names[t].name, level_names[iso->base]);
			return -1;
		}
		if (iso->level[t] == DB_ISO_DEFAULT)
			iso->given[t] = false;
	}
	return 0;
}

bool tpcc_isolation_snapshot(const struct tpcc_isolation *iso)
{
	for (int t = 0; t < TPCC_DECK_TYPES; t++)
		if (iso->level[t] == DB_ISO_SNAPSHOT)
			return true;
	return iso->base == DB_ISO_SNAPSHOT;
}

bool tpcc_isolation_dialect_default(struct tpcc_isolation *iso, enum tpcc_dialect d)
{
	/* Clause 3.4: Order-Status must read its screen at more than read
	 * committed. SQL Server's default is (locking) READ COMMITTED; MariaDB's
	 * REPEATABLE READ is already, PostgreSQL's READ COMMITTED reads each
	 * statement's own snapshot (docs/tpcc.md, "Isolation"). */
	if (d != TPCC_MSSQL || iso->given[TT_ORDER_STATUS] ||
	    (iso->base != DB_ISO_DEFAULT && iso->base != DB_ISO_READ_COMMITTED))
		return false;
	iso->level[TT_ORDER_STATUS] = DB_ISO_REPEATABLE_READ;
	iso->given[TT_ORDER_STATUS] = true;
	return true;
}

void tpcc_isolation_describe(const struct tpcc_isolation *iso, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]) && used < n; i++) {
		int w = snprintf(buf + used, n - used, "%s%s:%s", i ? "," : "", type_names[i].name,
				 level_names[iso->level[type_names[i].type]]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

static bool session_wide(enum tpcc_dialect d, enum tpcc_mode m)
{
	return d == TPCC_MSSQL || (d == TPCC_POSTGRESQL && m == TPCC_PROCEDURES);
}

const char *tpcc_isolation_step(const struct tpcc_isolation *iso, enum tpcc_dialect d, enum tpcc_mode m,
				enum tpcc_type t, enum db_isolation *cur, char *buf, size_t n)
{
	enum db_isolation want;

	if (t == TT_NEW_ORDER_ROLLBACK)
		t = TT_NEW_ORDER;
	if ((unsigned)t >= TPCC_DECK_TYPES)
		return NULL;
	want = iso->level[t];
	if (!session_wide(d, m))
		return want == iso->base ? NULL
					 : (snprintf(buf, n, "SET TRANSACTION ISOLATION LEVEL %s", level_sql[want]), buf);
	if (want == *cur)
		return NULL;
	*cur = want;
	if (d == TPCC_POSTGRESQL) {
		if (want == DB_ISO_DEFAULT)
			snprintf(buf, n, "SET default_transaction_isolation TO DEFAULT");
		else
			snprintf(buf, n, "SET default_transaction_isolation = '%s'", level_sql[want]);
		return buf;
	}
	/* SQL Server's level when none is set is READ COMMITTED (RCSI is a
	 * database option that changes how that level reads, not the level). */
	snprintf(buf, n, "SET TRANSACTION ISOLATION LEVEL %s", level_sql[want == DB_ISO_DEFAULT ? DB_ISO_READ_COMMITTED : want]);
	return buf;
}
