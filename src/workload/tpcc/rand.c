/* TPC-C's random inputs: NURand, C constants, last names, the deck, delays. */
#include "workload/tpcc/tpcc.h"

#include "core/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[TPCC_TYPES] = {
	[TT_NEW_ORDER] = "new_order",
	[TT_PAYMENT] = "payment",
	[TT_ORDER_STATUS] = "order_status",
	[TT_DELIVERY] = "delivery",
	[TT_STOCK_LEVEL] = "stock_level",
	[TT_NEW_ORDER_ROLLBACK] = "new_order_rollback",
};

const char *tpcc_type_name(enum tpcc_type t)
{
	return type_names[t];
}

const double tpcc_spec_keying_s[TPCC_DECK_TYPES] = {18, 3, 2, 2, 2};
const double tpcc_spec_think_s[TPCC_DECK_TYPES] = {12, 12, 10, 5, 5};
/* Delivery's limit is for the deferred execution; its queuing has 5 s. */
const double tpcc_p90_limit_s[TPCC_DECK_TYPES] = {5, 5, 5, 80, 20};

int tpcc_alnum(unsigned bits6)
{
	static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

	return bits6 < 62 ? alnum[bits6] : -1;
}

void tpcc_astring(struct rng *r, char *out, unsigned n)
{
	uint64_t bits = 0;
	unsigned left = 0;

	for (unsigned i = 0; i < n;) {
		int ch;
		if (left == 0) {
			bits = rng_next(r);
			left = 10;
		}
		ch = tpcc_alnum((unsigned)(bits & 63));
		bits >>= 6;
		left--;
		if (ch >= 0)
			out[i++] = (char)ch;
	}
}

uint32_t tpcc_nurand(struct rng *r, uint32_t a, uint32_t x, uint32_t y, uint32_t c)
{
	return (((rng_uniform(r, 0, a) | rng_uniform(r, x, y)) + c) % (y - x + 1)) + x;
}

bool tpcc_c_delta_valid(unsigned c_load, unsigned c_run)
{
	unsigned d = c_load > c_run ? c_load - c_run : c_run - c_load;

	return d >= 65 && d <= 119 && d != 96 && d != 112;
}

void tpcc_pick_c_run(struct rng *r, const struct tpcc_c *load, struct tpcc_c *run)
{
	for (;;) {
		unsigned d = rng_uniform(r, 65, 119);
		int c;
		if (d == 96 || d == 112)
			continue;
		c = rng_uniform(r, 0, 1) ? (int)load->c_last + (int)d : (int)load->c_last - (int)d;
		if (c < 0 || c > 255)
			continue;
		run->c_last = (unsigned)c;
		break;
	}
	run->c_id = rng_uniform(r, 0, 1023);
	run->ol_i_id = rng_uniform(r, 0, 8191);
}

unsigned tpcc_last_name(unsigned num, char *out)
{
	static const char *const syl[10] = {"BAR", "OUGHT", "ABLE", "PRI", "PRES",
					    "ESE", "ANTI", "CALLY", "ATION", "EING"};
	unsigned n = 0;
	unsigned digits[3] = {num / 100 % 10, num / 10 % 10, num % 10};

	for (int i = 0; i < 3; i++) {
		size_t l = strlen(syl[digits[i]]);
		memcpy(out + n, syl[digits[i]], l);
		n += (unsigned)l;
	}
	out[n] = '\0';
	return n;
}

static unsigned deck_size(const unsigned w[TPCC_DECK_TYPES])
{
	unsigned n = 0;

	for (int i = 0; i < TPCC_DECK_TYPES; i++)
		n += w[i];
	return n;
}

void tpcc_deck_init(struct tpcc_deck *d, const unsigned weights[TPCC_DECK_TYPES])
{
	d->n = (uint8_t)deck_size(weights);
	d->pos = d->n; /* empty: the first draw shuffles */
}

enum tpcc_type tpcc_deck_next(struct tpcc_deck *d, const unsigned weights[TPCC_DECK_TYPES], struct rng *r)
{
	if (d->pos >= d->n) {
		unsigned k = 0;
		for (int t = 0; t < TPCC_DECK_TYPES; t++)
			for (unsigned i = 0; i < weights[t]; i++)
				d->card[k++] = (uint8_t)t;
		for (unsigned i = d->n - 1; i > 0; i--) {
			unsigned j = rng_uniform(r, 0, i);
			uint8_t x = d->card[i];
			d->card[i] = d->card[j];
			d->card[j] = x;
		}
		d->pos = 0;
	}
	return (enum tpcc_type)d->card[d->pos++];
}

bool tpcc_weights_meet_spec(const unsigned w[TPCC_DECK_TYPES])
{
	double n = deck_size(w);

	return n > 0 && w[TT_PAYMENT] / n >= 0.43 && w[TT_ORDER_STATUS] / n >= 0.04 &&
	       w[TT_DELIVERY] / n >= 0.04 && w[TT_STOCK_LEVEL] / n >= 0.04;
}

double tpcc_spec_mean_cycle_s(const unsigned w[TPCC_DECK_TYPES])
{
	double n = deck_size(w), sum = 0;

	for (int t = 0; t < TPCC_DECK_TYPES; t++)
		sum += w[t] * (tpcc_spec_keying_s[t] + tpcc_spec_think_s[t]);
	return n > 0 ? sum / n : 0;
}

void tpcc_spec_delays_ns(double factor, uint64_t keying_ns[TPCC_DECK_TYPES], uint64_t think_ns[TPCC_DECK_TYPES])
{
	for (unsigned t = 0; t < TPCC_DECK_TYPES; t++) {
		keying_ns[t] = (uint64_t)(tpcc_spec_keying_s[t] * factor * 1e9);
		think_ns[t] = (uint64_t)(tpcc_spec_think_s[t] * factor * 1e9);
	}
}

int tpcc_delays_parse(const char *s, const unsigned w[TPCC_DECK_TYPES], double *factor)
{
	double v;

	if (!strcmp(s, "spec")) {
		*factor = 1;
		return 0;
	}
	if (!strcmp(s, "off")) {
		*factor = 0;
		return 0;
	}
	if (!strncmp(s, "scale:", 6) && parse_double(s + 6, &v) == 0 && v >= 0 && v <= 1000) {
		*factor = v;
		return 0;
	}
	if (!strncmp(s, "cycle:", 6) && parse_double(s + 6, &v) == 0 && v >= 0 && v <= 86400) {
		*factor = v / tpcc_spec_mean_cycle_s(w);
		return 0;
	}
	return -EINVAL;
}
