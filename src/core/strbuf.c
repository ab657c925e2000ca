#include "core/strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("dbrig: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fputs("dbrig: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fputs("dbrig: out of memory\n", stderr);
		abort();
	}
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

static void grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->cap = cap;
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->len = 0;
	sb->cap = hint ? hint + 1 : 64;
	sb->buf = xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addc(struct strbuf *sb, char c)
{
	grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void strbuf_add_oneline(struct strbuf *sb, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '\n')
			strbuf_adds(sb, "\\n");
		else if (*c == '\r')
			strbuf_adds(sb, "\\r");
		else if (*c == '\t')
			strbuf_adds(sb, "\\t");
		else if (*c < 0x20 || *c == 0x7f)
			strbuf_addf(sb, "\\u%04x", *c);
		else
			strbuf_addc(sb, (char)*c);
	}
}

/* The length of the UTF-8 sequence at c (its code point in *cp), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *c, uint32_t *cp)
{
	size_t n;
	uint32_t v;

	if (*c < 0x80) {
		*cp = *c;
		return 1;
	}
	if (*c >= 0xc2 && *c <= 0xdf)
		n = 2, v = *c & 0x1fu;
	else if (*c >= 0xe0 && *c <= 0xef)
		n = 3, v = *c & 0x0fu;
	else if (*c >= 0xf0 && *c <= 0xf4)
		n = 4, v = *c & 0x07u;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((c[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (c[i] & 0x3fu);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* Characters that change how the rest of a line is shown without being seen. */
static bool invisible(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0xad || cp == 0x61c || cp == 0x180e || (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb);
}

/* s escaped (above) into out. */
static void add_escaped(struct strbuf *out, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c;) {
		uint32_t cp;
		size_t n = utf8_seq(c, &cp);

		if (n == 0 || cp < 0x20 || cp == 0x7f) {
			strbuf_addf(out, "\\x%02X", *c);
			c++;
		} else if (invisible(cp)) {
			strbuf_addf(out, "\\u{%04X}", (unsigned)cp);
			c += n;
		} else {
			strbuf_add(out, c, n);
			c += n;
		}
	}
}

/* Not inside a UTF-8 sequence or an escape: a place the text may be cut. */
static bool cut_ok(const char *s, size_t i)
{
	return (s[i] & 0xc0) != 0x80 && s[i] != '\\' && !(i > 0 && s[i - 1] == '\\');
}

void strbuf_add_shown(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf e;
	size_t head, tail;

	strbuf_init(&e, strlen(s) + 16);
	add_escaped(&e, s);
	if (!max || e.len <= max || max < 64) {
		strbuf_add(sb, e.buf, e.len);
		strbuf_release(&e);
		return;
	}
	/* The first and the last part, each cut where no character or escape is split. */
	head = (max - 32) / 2;
	tail = e.len - (max - 32 - head);
	while (head > 0 && !cut_ok(e.buf, head))
		head--;
	while (tail < e.len && !cut_ok(e.buf, tail))
		tail++;
	strbuf_add(sb, e.buf, head);
	strbuf_addf(sb, "\xe2\x80\xa6[%zu bytes]\xe2\x80\xa6", tail - head);
	strbuf_add(sb, e.buf + tail, e.len - tail);
	strbuf_release(&e);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;

	va_copy(cp, ap);
	if (!sb->buf)
		grow(sb, 0);
	int n = vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	/* Leave the strbuf empty without allocating: it grows again on use. */
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}
