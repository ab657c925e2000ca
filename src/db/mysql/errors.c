/* MySQL errors: the client's and the server's codes classified into c->err. */
#include "db/mysql/mysql_int.h"

#include <errmsg.h>
#include <mysqld_error.h>

#include <stdio.h>
#include <string.h>

static int is_reconnect_code(unsigned code)
{
	switch (code) {
	case CR_CONNECTION_ERROR:
	case CR_CONN_HOST_ERROR:
	case CR_SERVER_GONE_ERROR:
	case CR_SERVER_LOST:
	case CR_SERVER_LOST_EXTENDED:
	case CR_TCP_CONNECTION:
	case 1927: /* ER_CONNECTION_KILLED (MariaDB) */
	case ER_SERVER_SHUTDOWN:
	case 4031: /* ER_CLIENT_INTERACTION_TIMEOUT */
		return 1;
	default:
		return 0;
	}
}

void set_error(struct db_conn *c, unsigned code, const char *state, const char *msg)
{
	const struct db_conn_params *p = c->params;

	c->err.native = (int)code;
	snprintf(c->err.sqlstate, sizeof(c->err.sqlstate), "%s", state ? state : "");
	snprintf(c->err.msg, sizeof(c->err.msg), "%s", msg ? msg : "unknown error");
	c->err.retry = code == ER_LOCK_DEADLOCK ? DB_RETRY_DEADLOCK
		       : code == ER_LOCK_WAIT_TIMEOUT ? DB_RETRY_LOCK_TIMEOUT
		       : !strcmp(c->err.sqlstate, "40001") ? DB_RETRY_SERIALIZATION
							 : DB_RETRY_LISTED;
	if (is_reconnect_code(code))
		c->err.cls = DB_ERR_RECONNECT;
	else if (p && p->retry_deadlocks && (code == ER_LOCK_DEADLOCK || !strcmp(c->err.sqlstate, "40001")))
		c->err.cls = DB_ERR_RETRY;
	else if (p && (p->retry_all || db_code_in_list((int)code, p->retry_codes, p->n_retry_codes)))
		c->err.cls = DB_ERR_RETRY;
	else
		c->err.cls = DB_ERR_FATAL;
}

int conn_error(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	set_error(c, mysql_errno(m->mysql), mysql_sqlstate(m->mysql), mysql_error(m->mysql));
	return -1;
}

int stmt_error(struct db_conn *c, struct my_stmt *s)
{
	unsigned code = mysql_stmt_errno(s->st);

	if (code == 0) /* some failures are only recorded on the connection */
		return conn_error(c);
	set_error(c, code, mysql_stmt_sqlstate(s->st), mysql_stmt_error(s->st));
	return -1;
}
