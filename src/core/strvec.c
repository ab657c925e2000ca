#include "core/strvec.h"

#include "core/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void strvec_init(struct strvec *sv)
{
	sv->n = 0;
	sv->cap = 8;
	sv->v = xcalloc(sv->cap, sizeof(*sv->v));
}

static void push_owned(struct strvec *sv, char *s)
{
	if (sv->n + 1 >= sv->cap) {
		sv->cap *= 2;
		sv->v = xrealloc(sv->v, sv->cap * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	push_owned(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb;
	va_list ap;

	strbuf_init(&sb, 0);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	push_owned(sv, strbuf_detach(&sb));
}

void strvec_push_nul_list(struct strvec *sv, const struct strbuf *list)
{
	for (size_t off = 0; off < list->len; off += strlen(list->buf + off) + 1)
		strvec_push(sv, list->buf + off);
}

void strvec_clear(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}
