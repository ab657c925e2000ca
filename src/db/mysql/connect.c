/* MySQL connections: connect and disconnect, session settings, LOAD DATA LOCAL INFILE from a generator. */
#include "db/mysql/mysql_int.h"

#include "core/log.h"
#include "core/strbuf.h"

#include <errmsg.h>
#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static int infile_refuse(void **ptr, const char *name, void *userdata);
static int infile_read(void *ptr, char *buf, unsigned int len);
static void infile_end(void *ptr);
static int infile_error(void *ptr, char *msg, unsigned int len);

int my_global_init(void)
{
	return mysql_library_init(0, NULL, NULL) ? -1 : 0;
}

static const struct {
	const char *name;
	enum my_ssl_mode mode;
} ssl_modes[] = {
	{"off", MY_SSL_OFF},           {"disabled", MY_SSL_OFF},          {"on", MY_SSL_COMPAT},
	{"required", MY_SSL_REQUIRED}, {"verify_ca", MY_SSL_VERIFY_CA}, {"verify_identity", MY_SSL_VERIFY_IDENTITY},
};

int my_ssl_mode(const char *name)
{
	for (size_t i = 0; name && i < sizeof(ssl_modes) / sizeof(ssl_modes[0]); i++)
		if (!strcasecmp(name, ssl_modes[i].name))
			return (int)ssl_modes[i].mode;
	return -1;
}

/*
 * --mysql-ssl=mode and its files: the mode by name (case ignored), the files
 * readable, verify_ca and verify_identity with a CA, a certificate with its
 * key. A connection that is encrypted but whose server is not checked gets
 * one warning.
 */
int my_check_options(const void *opts)
{
	const struct my_options *o = opts;
	const char *ca = o->ssl_ca, *cert = o->ssl_cert, *key = o->ssl_key;
	const struct {
		const char *opt, *path;
	} files[] = {{"mysql-ssl-ca", ca}, {"mysql-ssl-cert", cert}, {"mysql-ssl-key", key}};
	int mode = my_ssl_mode(o->ssl);
	const char *name = o->ssl;

	if (mode < 0) {
		log_error("--mysql-ssl: \"%s\" is not a TLS mode (expected off, required, verify_ca, verify_identity, "
			  "or on as in sysbench 1.0)", o->ssl);
		return -EINVAL;
	}
	/* The mode as the table spells it, in the messages below. */
	for (size_t i = 0; i < sizeof(ssl_modes) / sizeof(ssl_modes[0]); i++)
		if (!strcasecmp(o->ssl, ssl_modes[i].name)) {
			name = ssl_modes[i].name;
			break;
		}
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		if (files[f].path && access(files[f].path, R_OK) < 0) {
			log_error("--%s: \"%s\": %s (expected a readable PEM file)", files[f].opt, files[f].path,
				  strerror(errno));
			return -EINVAL;
		}
	}
	if (!cert != !key) {
		log_error("--%s: given without --%s (expected both, or neither)", cert ? "mysql-ssl-cert" : "mysql-ssl-key",
			  cert ? "mysql-ssl-key" : "mysql-ssl-cert");
		return -EINVAL;
	}
	if ((mode == MY_SSL_VERIFY_CA || mode == MY_SSL_VERIFY_IDENTITY) && !ca) {
		log_error("--mysql-ssl=%s: needs --mysql-ssl-ca (expected the PEM file of the CA that signed the server's "
			  "certificate)", name);
		return -EINVAL;
	}
	if ((mode == MY_SSL_OFF || mode == MY_SSL_COMPAT) && (ca || cert)) {
		log_error("--mysql-ssl-%s: given with --mysql-ssl=%s (expected --mysql-ssl=required, verify_ca or "
			  "verify_identity)", ca ? "ca" : "cert", name);
		return -EINVAL;
	}
	if ((mode == MY_SSL_REQUIRED && !ca) || (mode == MY_SSL_COMPAT && access("cacert.pem", R_OK) < 0))
		log_warn("--mysql-ssl=%s: the connection is encrypted but the server is not authenticated (expected "
			 "--mysql-ssl=verify_identity --mysql-ssl-ca=FILE to check its certificate)", name);
	return 0;
}

/* TLS by mode (enum my_ssl_mode), from the options my_check_options passed:
 * --mysql-ssl=on alone encrypts without authenticating the server. No
 * options: a plain connection. */
static void ssl_setup(MYSQL *my, const struct db_conn_params *p)
{
	my_bool enforce = 1, verify = 0;
	const struct my_options *o = p->driver_opts;
	const char *key = o ? o->ssl_key : NULL, *cert = o ? o->ssl_cert : NULL, *ca = o ? o->ssl_ca : NULL;
	const char *cipher = o && o->ssl_cipher && *o->ssl_cipher ? o->ssl_cipher : NULL;
	int mode = o ? my_ssl_mode(o->ssl) : MY_SSL_OFF;

	switch ((enum my_ssl_mode)(mode < 0 ? MY_SSL_OFF : mode)) {
	case MY_SSL_OFF:
		return;
	case MY_SSL_COMPAT:
		/* sysbench 1.0 reads client-key.pem, client-cert.pem and cacert.pem
		 * from the current directory when --mysql-ssl=on; do the same when
		 * they exist (a CA there verifies the chain, as libmariadb does). */
		key = access("client-key.pem", R_OK) == 0 ? "client-key.pem" : NULL;
		cert = access("client-cert.pem", R_OK) == 0 ? "client-cert.pem" : NULL;
		ca = access("cacert.pem", R_OK) == 0 ? "cacert.pem" : NULL;
		break;
	case MY_SSL_REQUIRED:
	case MY_SSL_VERIFY_CA:
		break;
	case MY_SSL_VERIFY_IDENTITY:
		verify = 1;
		break;
	}
	/* libmariadb verifies the chain whenever a CA is set; the host name only with VERIFY_SERVER_CERT. */
	mysql_ssl_set(my, key, cert, ca, NULL, cipher);
	mysql_options(my, MYSQL_OPT_SSL_ENFORCE, &enforce);
	mysql_options(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
}

int my_connect(struct db_conn *c, const struct db_conn_params *p)
{
	struct my_conn *m = xcalloc(1, sizeof(*m));
	unsigned timeout = p->connect_timeout_s ? p->connect_timeout_s : 10;

	c->priv = m;
	c->params = p;
	memset(&c->err, 0, sizeof(c->err));
	m->mysql = mysql_init(NULL);
	if (!m->mysql) {
		set_error(c, CR_OUT_OF_MEMORY, "HY000", "mysql_init failed: out of memory");
		return -1;
	}
	mysql_options(m->mysql, MYSQL_OPT_NONBLOCK, 0);
	if (p->allow_load_stream) {
		unsigned int on = 1;
		mysql_options(m->mysql, MYSQL_OPT_LOCAL_INFILE, &on);
	}
	/* Local infile requests are only ever answered from our own generator
	 * (load_stream); otherwise a server could make the client read files. */
	mysql_set_local_infile_handler(m->mysql, infile_refuse, infile_read, infile_end, infile_error, NULL);
	mysql_options(m->mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
	ssl_setup(m->mysql, p);
	if (p->driver_opts && ((const struct my_options *)p->driver_opts)->compression)
		mysql_options(m->mysql, MYSQL_OPT_COMPRESS, NULL);
	if (!mysql_real_connect(m->mysql, p->host, p->user, p->password ? p->password : "", p->database,
				p->port, p->socket, 0))
		return conn_error(c);
	return 0;
}

void my_disconnect(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	if (!m)
		return;
	while (m->stmts) {
		struct my_stmt *n = m->stmts->next;
		my_stmt_free(m->stmts);
		m->stmts = n;
	}
	if (m->mysql)
		mysql_close(m->mysql);
	free(m);
	c->priv = NULL;
}

const char *my_server_version(struct db_conn *c)
{
	struct my_conn *m = c->priv;

	return mysql_get_server_info(m->mysql);
}

/* --- LOAD DATA LOCAL INFILE from a generator --- */

struct stream {
	long (*fill)(void *arg, char *buf, size_t cap);
	void *arg;
	int failed;
};

static int infile_init(void **ptr, const char *name, void *userdata)
{
	(void)name;
	*ptr = userdata;
	return 0;
}

static int infile_refuse(void **ptr, const char *name, void *userdata)
{
	(void)name;
	(void)userdata;
	*ptr = NULL;
	return 1;
}

static int infile_read(void *ptr, char *buf, unsigned int len)
{
	struct stream *st = ptr;
	long n;

	if (!st)
		return -1;
	n = st->fill(st->arg, buf, len);

	if (n < 0)
		st->failed = 1;
	return (int)n;
}

static void infile_end(void *ptr)
{
	(void)ptr;
}

static int infile_error(void *ptr, char *msg, unsigned int len)
{
	snprintf(msg, len, ptr ? "row generator failed" : "LOCAL INFILE request refused by dbrig");
	return CR_UNKNOWN_ERROR;
}

int my_load_stream(struct db_conn *c, const char *sql, long (*fill)(void *arg, char *buf, size_t cap),
		   void *arg, struct db_exec_result *r)
{
	struct my_conn *m = c->priv;
	struct stream st = {fill, arg, 0};
	int ret;

	mysql_set_local_infile_handler(m->mysql, infile_init, infile_read, infile_end, infile_error, &st);
	ret = my_query(c, sql, strlen(sql), r);
	mysql_set_local_infile_handler(m->mysql, infile_refuse, infile_read, infile_end, infile_error, NULL);
	return ret;
}

static const char *iso_sql(enum db_isolation i)
{
	switch (i) {
	case DB_ISO_DEFAULT:
		return NULL;
	case DB_ISO_READ_COMMITTED:
		return "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED";
	case DB_ISO_REPEATABLE_READ:
		return "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ";
	case DB_ISO_SERIALIZABLE:
		return "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE";
	case DB_ISO_SNAPSHOT: /* SQL Server's, through ODBC only: the caller refuses it here */
		return NULL;
	}
	return NULL;
}

/* Transactions start implicitly, like ODBC's manual-commit mode, so no BEGIN
 * round trip; with db_conn_params.autocommit every statement (a CALL) is its
 * own transaction instead. */
int my_session_setup(struct db_conn *c, enum db_isolation isolation)
{
	const char *iso = iso_sql(isolation);
	const char *ac = c->params && c->params->autocommit ? "SET autocommit=1" : "SET autocommit=0";

	if (my_query(c, ac, strlen(ac), NULL) < 0 || (iso && my_query(c, iso, strlen(iso), NULL) < 0))
		return -1;
	return 0;
}

/*
 * unique_checks=0 / foreign_key_checks=0 skip work a loader does not need
 * (MariaDB 10.11 then takes its bulk-insert path for a transaction into an
 * empty table); autocommit=0 lets the loader commit in batches.
 */
void my_bulk_session(struct db_conn *c)
{
	static const char *const sets[] = {
		"SET SESSION unique_checks=0",
		"SET SESSION foreign_key_checks=0",
		"SET SESSION autocommit=0",
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (my_query(c, sets[i], strlen(sets[i]), NULL) < 0) {
			/* ignored: a slower load still loads */
		}
}
