/* Growable byte buffer, always NUL-terminated (git's strbuf, in small). */
#ifndef DBRIG_CORE_STRBUF_H
#define DBRIG_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf; /* NULL only after strbuf_detach (grows again on use) */
	size_t len;
	size_t cap;
};

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addc(struct strbuf *sb, char c);
/* s with its control characters escaped as JSON writes them (\n, \r, \t,
 * \u00XX): text from the input (a key, a parser's "near '...'") kept on the
 * one line a message is. */
void strbuf_add_oneline(struct strbuf *sb, const char *s);
/*
 * s as a message shows it, on one line and safe for a terminal: control
 * characters and bytes that are not UTF-8 as \xNN, and the invisible
 * characters that reorder or hide text (bidi overrides and isolates such as
 * U+202E, zero-width characters, the BOM, line and paragraph separators, C1
 * controls) as \u{XXXX}; a backslash stays a backslash. Beyond max bytes
 * (once escaped) the MIDDLE is left out ("…[N bytes]…"), so that both the
 * start (the file and field) and the end (the reason, "(expected …)") stay.
 * max 0: no bound.
 */
void strbuf_add_shown(struct strbuf *sb, const char *s, size_t max);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Hand the buffer to the caller (free with free()); sb is left empty. */
char *strbuf_detach(struct strbuf *sb);

/* Allocation failure is not recoverable for a benchmark driver: these abort
 * with a message rather than return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
