/*
 * Database engines: the server products a campaign runs (MariaDB, Percona,
 * MySQL, PostgreSQL, SQL Server), as data. What differs between them is in
 * this one table: which dbrig driver reaches them, how an ODBC connection
 * string for them reads, their default port, the packages a guest installs,
 * their command-line client. Campaigns and targets ask the table; nothing
 * switches on an engine's name.
 */
#ifndef DBRIG_DB_ENGINE_H
#define DBRIG_DB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* The wire protocol, what a target's server and setup code follow. */
enum db_protocol {
	DB_PROTO_MYSQL,      /* MariaDB, Percona, MySQL */
	DB_PROTO_POSTGRESQL,
	DB_PROTO_TDS,        /* SQL Server */
};

struct db_engine {
	const char *name;           /* as in a campaign's .engine.kind */
	enum db_protocol protocol;
	const char *db_driver;      /* the --db-driver of `dbrig sysbench|tpcc` that reaches it */
	const char *odbc_driver;    /* ODBC engines: the driver's default name in odbcinst.ini */
	unsigned port;              /* the server's default TCP port */
	const char *guest_packages; /* what a Debian/Ubuntu guest installs for it */
	/* NULL: Debian's archive carries guest_packages; else the vendor's apt repository
	 * the guest image must have before cloud-init can install them. */
	const char *guest_repo;
	/* With guest_repo: the apt sources the user-data adds when the campaign names the
	 * vendor's signing key (.target.guest_apt_key), deb lines whose signed-by is
	 * $KEY_FILE (cloud-init writes the key there), NULL-terminated; where that key is
	 * published; and the debconf answers (EULAs) its packages ask. NULL: none. */
	const char *const *guest_apt_sources;
	const char *guest_apt_key_url;
	const char *guest_debconf;
	/* The VM template (vm-templates/<name>-setup.sh, -domain.xml) whose guest runs it;
	 * NULL: no guest template sets it up (the libvirt target refuses the engine). */
	const char *guest_template;
	const char *client;         /* its command-line client */
	/* ODBC engines: appends the connection string for an endpoint (the
	 * password is never in it: ODBC_PWD). NULL for libmysqlclient engines. */
	void (*odbc_connect)(struct strbuf *sb, const char *driver, const char *host, unsigned port,
			     const char *database, const char *user);
};

/* The registry, NULL-terminated. */
extern const struct db_engine *const db_engines[];
extern const struct db_engine db_engine_mariadb, db_engine_percona, db_engine_mysql, db_engine_postgresql,
	db_engine_sqlserver;

const struct db_engine *db_engine_find(const char *name);
/* Is `name` (a long option without its "--") one of a compiled-in db driver's
 * own options (--mysql-*, --odbc-*: struct db_driver_ops.option_prefix)? */
bool db_driver_option(const char *name);
/* ODBC engines: is `driver` (NULL: the engine's default) registered with the ODBC
 * driver manager of this host? 1 yes (and always for libmysqlclient engines), 0 no,
 * -EIO when it cannot be asked. For a check before anything boots. */
int db_engine_driver_present(const struct db_engine *e, const char *driver);
/* Is this ODBC driver name FreeTDS's (it holds "freetds" or "tdsodbc", any case)?
 * SQL Server's connection string then takes FreeTDS's form
 * (Server=host;Port=port;TDS_Version=7.4) instead of msodbcsql's
 * (Server=tcp:host,port). */
bool db_odbc_driver_freetds(const char *driver);
/* "a, b or c" of the engines for which keep(engine) is true (all when keep is NULL). */
void db_engine_names(struct strbuf *sb, bool (*keep)(const struct db_engine *e));

#endif
