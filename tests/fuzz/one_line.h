/*
 * What the fuzz targets check beyond "no crash": a reader either accepts its
 * input (0) or passes over a file that is not its kind (1) and says nothing,
 * or refuses it (< 0) with exactly one line that starts with the file's name (README: bad input gets one clear line naming the place, the
 * value and what was expected). Aborts (a finding) otherwise.
 */
#ifndef DBRIG_FUZZ_ONE_LINE_H
#define DBRIG_FUZZ_ONE_LINE_H

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void fuzz_check_verdict(int rc, const struct strbuf *err, const char *name)
{
	size_t n = strlen(name);

	if (rc >= 0 && err->len) {
		fprintf(stderr, "accepted or passed over (%d), yet said: %s\n", rc, err->buf);
		abort();
	}
	if (rc >= 0)
		return;
	if (!err->len || strncmp(err->buf, name, n) || err->buf[n] != ':') {
		fprintf(stderr, "refused without a line naming %s: \"%s\"\n", name, err->len ? err->buf : "");
		abort();
	}
	if (memchr(err->buf, '\n', err->len) || memchr(err->buf, '\r', err->len) || strlen(err->buf) != err->len) {
		fprintf(stderr, "refused with more than one line: \"%s\"\n", err->buf);
		abort();
	}
}

#endif
