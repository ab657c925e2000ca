/* The engine table (db/engine.h). */
#include "db/engine.h"

#include "core/features.h"
#include "core/strbuf.h"
#if DBRIG_HAVE_ODBC
#include "db/odbc.h"
#endif

#include <string.h>
#include <strings.h>

/* Protocol=7.4-1: a failed statement rolls the whole transaction back (docs/tpcc.md). */
static void pg_connect(struct strbuf *sb, const char *driver, const char *host, unsigned port, const char *database,
		       const char *user)
{
	strbuf_addf(sb, "Driver={%s};Server=%s;Port=%u;Database=%s;UID=%s;Protocol=7.4-1", driver, host, port, database,
		    user);
}

static bool contains_ci(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s; s++)
		if (!strncasecmp(s, word, n))
			return true;
	return false;
}

bool db_odbc_driver_freetds(const char *driver)
{
	return driver && (contains_ci(driver, "freetds") || contains_ci(driver, "tdsodbc"));
}

/* msodbcsql: Server=tcp:host,port. FreeTDS reads no port in Server= (a
 * "host,port" is a host name to it): Port= and TDS_Version=7.4 (SQL Server
 * 2012 and later; without it FreeTDS tries versions in turn). */
static void mssql_connect(struct strbuf *sb, const char *driver, const char *host, unsigned port,
			  const char *database, const char *user)
{
	if (db_odbc_driver_freetds(driver))
		strbuf_addf(sb, "Driver={%s};Server=%s;Port=%u;TDS_Version=7.4;Database=%s;UID=%s", driver, host, port,
			    database, user);
	else
		strbuf_addf(sb, "Driver={%s};Server=tcp:%s,%u;Database=%s;UID=%s", driver, host, port, database,
			    user);
}

const struct db_engine db_engine_mariadb = {
	.name = "mariadb",
	.protocol = DB_PROTO_MYSQL,
	.db_driver = "mysql",
	.port = 3306,
	.guest_packages = "mariadb-server",
	.guest_template = "sysbench",
	.client = "mariadb",
};

const struct db_engine db_engine_percona = {
	.name = "percona",
	.protocol = DB_PROTO_MYSQL,
	.db_driver = "mysql",
	.port = 3306,
	.guest_packages = "percona-server-server",
	.guest_repo = "Percona's apt repository (repo.percona.com)",
	.guest_template = "sysbench",
	.client = "mysql",
};

const struct db_engine db_engine_mysql = {
	.name = "mysql",
	.protocol = DB_PROTO_MYSQL,
	.db_driver = "mysql",
	.port = 3306,
	.guest_packages = "mysql-server",
	.guest_repo = "MySQL's apt repository (repo.mysql.com) or Ubuntu's archive",
	.guest_template = "sysbench",
	.client = "mysql",
};

const struct db_engine db_engine_postgresql = {
	.name = "postgresql",
	.protocol = DB_PROTO_POSTGRESQL,
	.db_driver = "odbc",
	.odbc_driver = "PostgreSQL Unicode",
	.port = 5432,
	.guest_packages = "postgresql",
	.client = "psql",
	.odbc_connect = pg_connect,
};

/* Microsoft's repositories for Ubuntu 22.04: mssql-server (2022) and prod (mssql-tools18, msodbcsql18). */
static const char *const mssql_apt_sources[] = {
	"deb [arch=amd64 signed-by=$KEY_FILE] https://packages.microsoft.com/ubuntu/22.04/mssql-server-2022 jammy main",
	"deb [arch=amd64 signed-by=$KEY_FILE] https://packages.microsoft.com/ubuntu/22.04/prod jammy main",
	NULL,
};

const struct db_engine db_engine_sqlserver = {
	.name = "sqlserver",
	.protocol = DB_PROTO_TDS,
	.db_driver = "odbc",
	.odbc_driver = "ODBC Driver 18 for SQL Server",
	.port = 1433,
	.guest_packages = "mssql-server mssql-tools18",
	.guest_repo = "Microsoft's apt repository (packages.microsoft.com)",
	.guest_apt_sources = mssql_apt_sources,
	.guest_apt_key_url = "https://packages.microsoft.com/keys/microsoft.asc",
	/* mssql-tools18 and its dependency msodbcsql18 refuse to install until their EULA is accepted. */
	.guest_debconf = "msodbcsql18 msodbcsql/ACCEPT_EULA boolean true\n"
			 "mssql-tools18 mssql-tools/accept_eula boolean true\n",
	.guest_template = "sqlserver",
	.client = "sqlcmd",
	.odbc_connect = mssql_connect,
};

const struct db_engine *const db_engines[] = {
	&db_engine_mariadb, &db_engine_percona, &db_engine_mysql, &db_engine_postgresql, &db_engine_sqlserver, NULL,
};

const struct db_engine *db_engine_find(const char *name)
{
	for (const struct db_engine *const *e = db_engines; *e; e++)
		if (!strcmp((*e)->name, name))
			return *e;
	return NULL;
}

void db_engine_names(struct strbuf *sb, bool (*keep)(const struct db_engine *e))
{
	size_t n = 0, k = 0;

	for (const struct db_engine *const *e = db_engines; *e; e++)
		n += !keep || keep(*e);
	for (const struct db_engine *const *e = db_engines; *e; e++) {
		if (keep && !keep(*e))
			continue;
		strbuf_addf(sb, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", (*e)->name);
		k++;
	}
}

int db_engine_driver_present(const struct db_engine *e, const char *driver)
{
	if (!e->odbc_connect)
		return 1;
#if DBRIG_HAVE_ODBC
	return odbc_driver_installed(driver ? driver : e->odbc_driver);
#else
	(void)driver;
	return 0; /* built without ODBC (the campaign refuses such an engine first) */
#endif
}
