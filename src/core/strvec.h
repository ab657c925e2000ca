/*
 * A growable, NULL-terminated argv (git's strvec): every string is copied in
 * and owned, so a command line is never cut at a fixed array size (fixed arrays
 * silently dropped server options and driver arguments beyond their size).
 */
#ifndef DBRIG_CORE_STRVEC_H
#define DBRIG_CORE_STRVEC_H

#include <stddef.h>

struct strbuf;

struct strvec {
	char **v;   /* v[n] == NULL */
	size_t n, cap;
};

void strvec_init(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every string of a buffer of NUL-terminated strings ("a\0b\0"). */
void strvec_push_nul_list(struct strvec *sv, const struct strbuf *list);
void strvec_clear(struct strvec *sv); /* frees everything (strvec_init to use it again) */

#endif
