#include "core/log.h"

#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>

static int verbosity = 3;
static enum log_style style = LOG_STYLE_DBRIG;

void log_set_style(enum log_style s)
{
	style = s;
}

enum log_style log_style(void)
{
	return style;
}

void log_set_verbosity(int v)
{
	verbosity = v;
}

int log_verbosity(void)
{
	return verbosity;
}

/* The sysbench-style prefix of each kind of message. */
enum kind { K_ERROR, K_WARN, K_INFO };

/*
 * Every message is shown through strbuf_add_shown: what it echoes (a file
 * name, a JSON value, a server's text) can never put a raw control or bidi
 * character on the terminal or split the message over lines, and a long one
 * loses its middle, never its end, where the reason stands ("(expected …)").
 * Trailing newlines are the message's own (sysbench's blank lines) and stay.
 * The one exception is LOG_STYLE_SYSBENCH, below.
 */
static void emit(enum log_style st, enum kind k, const char *fmt, va_list ap)
{
	static const char *const dbrig_prefix[] = {[K_ERROR] = "", [K_WARN] = "warning: ", [K_INFO] = ""};
	static const char *const sb_prefix[] = {[K_ERROR] = "FATAL: ", [K_WARN] = "WARNING: ", [K_INFO] = ""};
	struct strbuf raw, line;
	size_t nl = 0;

	strbuf_init(&raw, 256);
	strbuf_init(&line, 256);
	strbuf_vaddf(&raw, fmt, ap);
	while (nl < raw.len && raw.buf[raw.len - 1 - nl] == '\n')
		nl++;
	raw.buf[raw.len - nl] = '\0';
	/* Inside dbrig sysbench, sysbench's own messages are its bytes (a failed
	 * query is quoted over several lines): only dbrig's are escaped there. */
	if (st == LOG_STYLE_SYSBENCH)
		strbuf_adds(&line, raw.buf);
	else
		strbuf_add_shown(&line, raw.buf, LOG_LINE_MAX);
	for (size_t i = 0; i < nl; i++)
		strbuf_addc(&line, '\n');
	/* One fprintf per message so lines from several threads never interleave. */
	if (st == LOG_STYLE_SYSBENCH) {
		fprintf(stdout, "%s%s\n", sb_prefix[k], line.buf);
		fflush(stdout);
	} else {
		fprintf(stderr, "dbrig: %s%s\n", dbrig_prefix[k], line.buf);
	}
	strbuf_release(&raw);
	strbuf_release(&line);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	/* sysbench prints fatal messages at every verbosity, even 0. */
	if (verbosity < (style == LOG_STYLE_SYSBENCH ? 0 : 1))
		return;
	va_start(ap, fmt);
	emit(style, K_ERROR, fmt, ap);
	va_end(ap);
}

void log_error_dbrig(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(LOG_STYLE_DBRIG, K_ERROR, fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 2)
		return;
	va_start(ap, fmt);
	emit(style, K_WARN, fmt, ap);
	va_end(ap);
}

void log_warn_dbrig(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 2)
		return;
	va_start(ap, fmt);
	emit(LOG_STYLE_DBRIG, K_WARN, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 3)
		return;
	va_start(ap, fmt);
	emit(style, K_INFO, fmt, ap);
	va_end(ap);
}
