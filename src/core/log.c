#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

static int verbosity = 3;

void log_set_verbosity(int v)
{
	verbosity = v;
}

int log_verbosity(void)
{
	return verbosity;
}

static void emit(const char *prefix, const char *fmt, va_list ap)
{
	char line[2048];

	vsnprintf(line, sizeof(line), fmt, ap);
	/* One fprintf per message so lines from several threads never interleave. */
	fprintf(stderr, "dbrig: %s%s\n", prefix, line);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 1)
		return;
	va_start(ap, fmt);
	emit("", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 2)
		return;
	va_start(ap, fmt);
	emit("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < 3)
		return;
	va_start(ap, fmt);
	emit("", fmt, ap);
	va_end(ap);
}
