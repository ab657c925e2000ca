#include "core/escape.h"

#include "core/strbuf.h"

#include <stdbool.h>

static void escape(struct strbuf *sb, const char *s, bool apos)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			strbuf_adds(sb, "&amp;");
			break;
		case '<':
			strbuf_adds(sb, "&lt;");
			break;
		case '>':
			strbuf_adds(sb, "&gt;");
			break;
		case '"':
			strbuf_adds(sb, "&quot;");
			break;
		case '\'':
			if (apos) {
				strbuf_adds(sb, "&apos;");
				break;
			}
			strbuf_addc(sb, *s);
			break;
		default:
			strbuf_addc(sb, *s);
		}
	}
}

void escape_xml(struct strbuf *sb, const char *s)
{
	escape(sb, s, true);
}

void escape_html(struct strbuf *sb, const char *s)
{
	escape(sb, s, false);
}
