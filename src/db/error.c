/*
 * Error-class helpers shared by the drivers and the commands: the retry lists
 * (--mysql-ignore-errors, --retry-errors) and the class names of results.
 * Which native error is RETRY, RECONNECT or FATAL is each driver's decision
 * (db.h); these only parse and look up the lists.
 */
#include "db/db.h"

#include "core/strbuf.h"
#include "core/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool db_code_in_list(int code, const int *codes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (codes[i] == code)
			return true;
	return false;
}

int db_parse_code_list(const char *s, int **codes, size_t *n, bool *all)
{
	char *copy = xstrdup(s);
	char *save = NULL;
	int *out = NULL;
	size_t cnt = 0;
	int ret = 0;

	*all = false;
	if (!strcmp(s, "all")) {
		*all = true;
		goto out;
	}
	if (!strcmp(s, "none") || !*s)
		goto out;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int64_t v;
		if (parse_int64(tok, 1, 1000000, &v) < 0) {
			ret = -EINVAL;
			goto out;
		}
		out = xrealloc(out, (cnt + 1) * sizeof(*out));
		out[cnt++] = (int)v;
	}
out:
	free(copy);
	if (ret < 0) {
		free(out);
		out = NULL;
		cnt = 0;
	}
	*codes = out;
	*n = cnt;
	return ret;
}

const char *db_err_class_name(enum db_err_class c)
{
	switch (c) {
	case DB_ERR_NONE:
		return "none";
	case DB_ERR_RETRY:
		return "retry";
	case DB_ERR_RECONNECT:
		return "reconnect";
	case DB_ERR_FATAL:
		return "fatal";
	}
	return "?";
}

const char *db_retry_kind_name(enum db_retry_kind k)
{
	switch (k) {
	case DB_RETRY_DEADLOCK:
		return "deadlock";
	case DB_RETRY_LOCK_TIMEOUT:
		return "lock_timeout";
	case DB_RETRY_SERIALIZATION:
		return "serialization";
	case DB_RETRY_CONFLICT:
		return "conflict";
	case DB_RETRY_LISTED:
		return "listed";
	}
	return "?";
}
