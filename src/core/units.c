#include "core/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NS_MS UINT64_C(1000000)
#define NS_S UINT64_C(1000000000)
#define NS_M (60 * NS_S)
#define NS_H (3600 * NS_S)
#define NS_D (86400 * NS_S)
/* Ten Julian years: far beyond any benchmark phase, far below 2^64 ns. */
#define DURATION_MAX_NS (UINT64_C(315576000) * NS_S)

static const char why_dur_empty[] =
	"expected a duration such as 10, 30m, 1h30m or 250ms, not an empty string";
static const char why_dur_space[] = "expected a duration without spaces, such as 1h30m";
static const char why_dur_sign[] = "expected a non-negative duration without a sign";
static const char why_dur_number[] =
	"expected a number such as 10 or 1.5 (digits on both sides of the point)";
static const char why_dur_unit[] = "expected a number with unit ms, s, m, h or d";
static const char why_dur_bare[] =
	"expected a unit after every number of a combined duration, as in 1h30m";
static const char why_dur_order[] =
	"expected each unit at most once, largest first, as in 1h30m";
static const char why_dur_range[] = "expected a duration of at most 10 years";

static const char why_size_empty[] =
	"expected a size such as 100, 4KiB, 512M or 1.5T, not an empty string";
static const char why_size_space[] = "expected a size without spaces, such as 512M";
static const char why_size_sign[] = "expected a non-negative size without a sign";
static const char why_size_number[] =
	"expected a number such as 24 or 1.5 (digits on both sides of the point)";
static const char why_size_unit[] =
	"expected a number with unit B, K, KiB, M, MiB, G, GiB, T or TiB";
static const char why_size_whole[] = "expected a whole number of bytes";
static const char why_size_range[] = "expected a size below 16 EiB (2^64 bytes)";

/* Digits beyond this many decimals are below 1e-18 of the unit: ignored. */
#define FRAC_DIGITS_MAX 18

struct decimal {
	uint64_t ip;   /* integer part */
	uint64_t fnum; /* fraction = fnum / fden, fnum < fden <= 10^18 */
	uint64_t fden;
	bool overflow; /* integer part does not fit in uint64 */
};

static void fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
}

/* Digits, optionally '.' and more digits. Returns false when there is no
 * number at *sp or a point has no digit on one of its sides. */
static bool scan_decimal(const char **sp, struct decimal *d)
{
	const char *p = *sp;

	d->ip = 0;
	d->fnum = 0;
	d->fden = 1;
	d->overflow = false;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned dig = (unsigned)(*p - '0');
		if (d->ip > (UINT64_MAX - dig) / 10)
			d->overflow = true;
		else
			d->ip = d->ip * 10 + dig;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return false;
		for (int n = 0; isdigit((unsigned char)*p); p++, n++) {
			if (n < FRAC_DIGITS_MAX) {
				d->fnum = d->fnum * 10 + (uint64_t)(*p - '0');
				d->fden *= 10;
			}
		}
	}
	*sp = p;
	return true;
}

/*
 * floor(num * mult / den) for num < den <= 10^18, without 128-bit integers:
 * long multiplication over the bits of mult, keeping q + r/den exact and
 * r < den, so 2r and r + num stay below 2^63.
 */
static uint64_t mul_frac(uint64_t num, uint64_t den, uint64_t mult)
{
	uint64_t q = 0, r = 0;

	for (int bit = 63; bit >= 0; bit--) {
		q <<= 1;
		r <<= 1;
		if (r >= den) {
			q++;
			r -= den;
		}
		if (mult >> bit & 1) {
			r += num;
			if (r >= den) {
				q++;
				r -= den;
			}
		}
	}
	return q;
}

/* value * mult, plus the fraction, into *out; false on overflow of limit. */
static bool scale(const struct decimal *d, uint64_t mult, uint64_t limit, uint64_t *out)
{
	if (d->overflow || d->ip > limit / mult)
		return false;
	uint64_t v = d->ip * mult;
	uint64_t f = mul_frac(d->fnum, d->fden, mult);
	if (f > limit - v)
		return false;
	*out = v + f;
	return true;
}

/* Whitespace and signs are checked up front so that " 10" or "-1h" get the
 * message about the real problem, not a generic "not a number". */
static const char *precheck(const char *s, const char *empty, const char *space,
			    const char *sign)
{
	if (!s || !*s)
		return empty;
	for (const char *p = s; *p; p++) {
		if (isspace((unsigned char)*p))
			return space;
	}
	for (const char *p = s; *p; p++) {
		if (*p == '-' || *p == '+')
			return sign;
	}
	return NULL;
}

struct dur_unit {
	const char *name;
	uint64_t ns;
};

/* Largest first; "ms" before "m" so the longer name wins. */
static const struct dur_unit dur_units[] = {
	{ "d", NS_D },
	{ "h", NS_H },
	{ "ms", NS_MS },
	{ "m", NS_M },
	{ "s", NS_S },
};

int parse_duration_ns(const char *s, uint64_t *out_ns, const char **why)
{
	const char *msg = precheck(s, why_dur_empty, why_dur_space, why_dur_sign);
	if (msg)
		goto bad;

	uint64_t total = 0;
	uint64_t prev_ns = UINT64_MAX; /* unit of the previous component */
	const char *p = s;
	while (*p) {
		struct decimal d;
		if (!scan_decimal(&p, &d)) {
			msg = why_dur_number;
			goto bad;
		}

		const struct dur_unit *u = NULL;
		for (size_t i = 0; i < sizeof(dur_units) / sizeof(dur_units[0]); i++) {
			size_t n = strlen(dur_units[i].name);
			if (!strncmp(p, dur_units[i].name, n)) {
				u = &dur_units[i];
				p += n;
				break;
			}
		}

		uint64_t mult;
		if (u) {
			mult = u->ns;
		} else if (!*p && prev_ns == UINT64_MAX) {
			mult = NS_S; /* a bare number is seconds, like sysbench's --time */
		} else if (!*p) {
			msg = why_dur_bare;
			goto bad;
		} else {
			msg = *p == '.' ? why_dur_number : why_dur_unit;
			goto bad;
		}
		if (mult >= prev_ns) {
			msg = why_dur_order;
			goto bad;
		}
		prev_ns = mult;

		uint64_t v;
		if (!scale(&d, mult, DURATION_MAX_NS, &v) || v > DURATION_MAX_NS - total) {
			msg = why_dur_range;
			goto bad;
		}
		total += v;
	}
	*out_ns = total;
	return 0;
bad:
	fail(why, msg);
	return -EINVAL;
}

struct size_unit {
	const char *name;
	unsigned shift;
};

static const struct size_unit size_units[] = {
	{ "", 0 },    { "b", 0 },
	{ "k", 10 },  { "kb", 10 }, { "kib", 10 },
	{ "m", 20 },  { "mb", 20 }, { "mib", 20 },
	{ "g", 30 },  { "gb", 30 }, { "gib", 30 },
	{ "t", 40 },  { "tb", 40 }, { "tib", 40 },
};

int parse_size_bytes(const char *s, uint64_t *out_bytes, const char **why)
{
	const char *msg = precheck(s, why_size_empty, why_size_space, why_size_sign);
	if (msg)
		goto bad;

	const char *p = s;
	struct decimal d;
	if (!scan_decimal(&p, &d)) {
		msg = why_size_number;
		goto bad;
	}

	const struct size_unit *u = NULL;
	for (size_t i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		if (!strcasecmp(p, size_units[i].name)) {
			u = &size_units[i];
			break;
		}
	}
	if (!u) {
		msg = *p == '.' ? why_size_number : why_size_unit;
		goto bad;
	}
	/* "1.5" bytes is a typo, not a size; with a unit the fraction of a
	 * byte that 1.3K leaves over is dropped. */
	if (!u->shift && d.fnum) {
		msg = why_size_whole;
		goto bad;
	}
	if (!scale(&d, UINT64_C(1) << u->shift, UINT64_MAX, out_bytes)) {
		msg = why_size_range;
		goto bad;
	}
	return 0;
bad:
	fail(why, msg);
	return -EINVAL;
}

int parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	/* strtoll would skip leading spaces and accept an empty digit string. */
	if (!s)
		return -EINVAL;
	const char *digits = (*s == '-' || *s == '+') ? s + 1 : s;
	if (!isdigit((unsigned char)*digits))
		return -EINVAL;

	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = (int64_t)v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	/* Plain decimal notation only: strtod would also take leading spaces,
	 * hex floats, "inf" and "nan", none of which a user means. */
	if (!s || !*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) && !strchr(".eE+-", *p))
			return -EINVAL;
	}

	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Cut trailing zeros of a fixed-width fraction ("500000" -> "5"). */
static void trim_zeros(char *digits)
{
	size_t n = strlen(digits);

	while (n > 1 && digits[n - 1] == '0')
		digits[--n] = '\0';
}

/*
 * Output always parses back to the same value with parse_duration_ns, so a
 * formatted duration can be pasted into a campaign file.
 */
void format_duration(uint64_t ns, char *buf, unsigned bufsz)
{
	char tmp[96];
	char frac[16];
	int n = 0;
	uint64_t sec = ns / NS_S;
	uint64_t sub = ns % NS_S;

	if (!bufsz)
		return;
	if (!sec && sub) {
		uint64_t ms = sub / NS_MS, rest = sub % NS_MS;
		if (!rest) {
			snprintf(tmp, sizeof(tmp), "%" PRIu64 "ms", ms);
		} else {
			snprintf(frac, sizeof(frac), "%06" PRIu64, rest);
			trim_zeros(frac);
			snprintf(tmp, sizeof(tmp), "%" PRIu64 ".%sms", ms, frac);
		}
		goto out;
	}

	uint64_t days = sec / 86400, hours = sec / 3600 % 24, mins = sec / 60 % 60;
	sec %= 60;
	if (days)
		n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%" PRIu64 "d", days);
	if (hours)
		n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%" PRIu64 "h", hours);
	if (mins)
		n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%" PRIu64 "m", mins);
	if (sub) {
		snprintf(frac, sizeof(frac), "%09" PRIu64, sub);
		trim_zeros(frac);
		snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%" PRIu64 ".%ss", sec, frac);
	} else if (sec || !n) {
		snprintf(tmp + n, sizeof(tmp) - (size_t)n, "%" PRIu64 "s", sec);
	}
out:
	snprintf(buf, bufsz, "%s", tmp);
}
