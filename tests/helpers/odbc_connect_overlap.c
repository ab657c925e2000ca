/*
 * LD_PRELOAD shim for the connect-serialization test: counts how many
 * threads are inside SQLDriverConnect at once, holding each call 2 ms longer
 * so that calls that are not serialized overlap for certain. At exit it
 * writes the largest count seen to the file $DBRIG_CONNECT_OVERLAP names.
 * Everything else goes to the real driver manager (libodbc), found with
 * dlsym(RTLD_NEXT). psqlODBC calls setlocale() inside SQLDriverConnect,
 * which is not thread-safe: dbrig must never have two there at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sql.h>
#include <sqlext.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_int inside, most;

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC dbc, SQLHWND win, SQLCHAR *in, SQLSMALLINT inlen, SQLCHAR *out,
				   SQLSMALLINT outmax, SQLSMALLINT *outlen, SQLUSMALLINT completion);

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC dbc, SQLHWND win, SQLCHAR *in, SQLSMALLINT inlen, SQLCHAR *out,
				   SQLSMALLINT outmax, SQLSMALLINT *outlen, SQLUSMALLINT completion)
{
	SQLRETURN (*real)(SQLHDBC, SQLHWND, SQLCHAR *, SQLSMALLINT, SQLCHAR *, SQLSMALLINT, SQLSMALLINT *,
			  SQLUSMALLINT) = (SQLRETURN(*)(SQLHDBC, SQLHWND, SQLCHAR *, SQLSMALLINT, SQLCHAR *, SQLSMALLINT,
						       SQLSMALLINT *, SQLUSMALLINT))dlsym(RTLD_NEXT, "SQLDriverConnect");
	const struct timespec hold = {0, 2000000};
	int now = atomic_fetch_add(&inside, 1) + 1, seen = atomic_load(&most);
	SQLRETURN rc;

	while (now > seen && !atomic_compare_exchange_weak(&most, &seen, now))
		;
	nanosleep(&hold, NULL);
	rc = real(dbc, win, in, inlen, out, outmax, outlen, completion);
	atomic_fetch_sub(&inside, 1);
	return rc;
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("DBRIG_CONNECT_OVERLAP");
	FILE *f;

	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%d\n", atomic_load(&most));
		fclose(f);
	}
}
