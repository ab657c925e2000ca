/*
 * LD_PRELOAD shim for the NOCOUNT test: the ODBC driver's SQLRowCount gives
 * -1 for every prepared DELETE, as SQL Server does with NOCOUNT on
 * (sp_configure 'user options', 512). Everything else goes to the real
 * driver manager (libodbc), found with dlsym(RTLD_NEXT).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sql.h>
#include <strings.h>

#define MAX_STMTS 4096

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static SQLHSTMT deletes[MAX_STMTS];
static unsigned ndeletes;

SQLRETURN SQL_API SQLPrepare(SQLHSTMT h, SQLCHAR *text, SQLINTEGER len);
SQLRETURN SQL_API SQLRowCount(SQLHSTMT h, SQLLEN *count);

SQLRETURN SQL_API SQLPrepare(SQLHSTMT h, SQLCHAR *text, SQLINTEGER len)
{
	SQLRETURN (*real)(SQLHSTMT, SQLCHAR *, SQLINTEGER) =
		(SQLRETURN(*)(SQLHSTMT, SQLCHAR *, SQLINTEGER))dlsym(RTLD_NEXT, "SQLPrepare");

	if (text && !strncasecmp((const char *)text, "DELETE", 6)) {
		pthread_mutex_lock(&mu);
		if (ndeletes < MAX_STMTS)
			deletes[ndeletes++] = h;
		pthread_mutex_unlock(&mu);
	}
	return real(h, text, len);
}

SQLRETURN SQL_API SQLRowCount(SQLHSTMT h, SQLLEN *count)
{
	SQLRETURN (*real)(SQLHSTMT, SQLLEN *) = (SQLRETURN(*)(SQLHSTMT, SQLLEN *))dlsym(RTLD_NEXT, "SQLRowCount");
	SQLRETURN rc = real(h, count);
	int hit = 0;

	pthread_mutex_lock(&mu);
	for (unsigned i = 0; i < ndeletes && !hit; i++)
		hit = deletes[i] == h;
	pthread_mutex_unlock(&mu);
	if (hit && count && (rc == SQL_SUCCESS || rc == SQL_SUCCESS_WITH_INFO))
		*count = -1;
	return rc;
}
