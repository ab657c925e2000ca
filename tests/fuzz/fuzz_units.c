/*
 * libFuzzer target: the duration, size and number parsers of core/units.c.
 * Besides memory errors it checks the documented properties: an accepted
 * duration is at most 10 years, format_duration's output parses back to the
 * same value, and a rejected input always says why.
 */
#include "core/units.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TEN_YEARS_NS (3652ULL * 86400ULL * 1000000000ULL + 43200ULL * 1000000000ULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *why = NULL;
	uint64_t ns = 0, bytes = 0;
	int64_t i = 0;
	double d = 0;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	if (parse_duration_ns(s, &ns, &why) == 0) {
		char buf[64];
		uint64_t back = 0;

		if (ns > TEN_YEARS_NS)
			abort();
		format_duration(ns, buf, sizeof(buf));
		if (parse_duration_ns(buf, &back, NULL) != 0 || back != ns)
			abort();
	} else if (!why || !*why) {
		abort();
	}
	why = NULL;
	if (parse_size_bytes(s, &bytes, &why) != 0 && (!why || !*why))
		abort();
	if (parse_int64(s, -1000, 1000, &i) == 0 && (i < -1000 || i > 1000))
		abort();
	if (parse_double(s, &d) == 0 && !isfinite(d))
		abort();
	free(s);
	return 0;
}
