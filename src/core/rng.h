/*
 * Per-thread pseudo-random numbers and sysbench's distributions.
 *
 * The generator is xoshiro256** (public domain algorithm by Blackman and Vigna),
 * seeded with splitmix64. Each worker owns one `struct rng`; nothing is shared,
 * so a fixed --rand-seed gives the same sequence per worker on every run
 * (unlike sysbench 1.0, whose threads share libc random(), sysbench #524).
 *
 * Distributions return integers in [a, b] (inclusive; out-of-range parameters
 * are clamped into it rather than wrapping) and reproduce sysbench
 * 1.0.20's src/sb_rand.c semantics:
 *   uniform  - every value equally likely
 *   gaussian - mean of `spec_iter` uniforms over [a, b] (Irwin-Hall), as 1.0.20
 *   special  - `spec_res` percent of draws uniform in the middle `spec_pct`
 *              percent of the range, the rest gaussian over the whole range
 *              (1.0.20's default: iter 12, pct 1, res 75; as in 1.0.20
 *              the special draws fill only the upper res percent of that
 *              window, e.g. 4975..5051 of 1..10000)
 *   pareto   - sysbench's pareto with parameter h (--rand-pareto-h, default 0.2)
 *   zipfian  - zipf with exponent s (--rand-zipfian-exp, default 0.8), value a
 *              most frequent, computed by rejection-inversion (Hormann and
 *              Derflinger) so no table of size b-a is needed
 */
#ifndef DBRIG_CORE_RNG_H
#define DBRIG_CORE_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
double rng_double(struct rng *r);                          /* [0, 1) */
uint32_t rng_uniform(struct rng *r, uint32_t a, uint32_t b); /* [a, b], unbiased */
double rng_exponential(struct rng *r, double mean);         /* mean > 0 */

enum rand_type {
	RAND_UNIFORM,
	RAND_GAUSSIAN,
	RAND_SPECIAL,
	RAND_PARETO,
	RAND_ZIPFIAN,
};

struct rand_dist {
	enum rand_type type;
	int spec_iter;     /* --rand-spec-iter, 12 */
	double spec_pct;   /* --rand-spec-pct, 1 */
	double spec_res;   /* --rand-spec-res, 75 */
	double pareto_h;   /* --rand-pareto-h, 0.2 */
	double zipf_exp;   /* --rand-zipfian-exp, 0.8 */
};

void rand_dist_defaults(struct rand_dist *d);
/* "uniform", "gaussian", "special", "pareto", "zipfian" -> 0, else -EINVAL. */
int rand_type_parse(const char *s, enum rand_type *out) __attribute__((warn_unused_result));
const char *rand_type_name(enum rand_type t);

/* A draw in [a, b] (a <= b) following d. */
uint32_t rand_dist_draw(struct rng *r, const struct rand_dist *d, uint32_t a, uint32_t b);

/* sysbench's sb_rand_str: '#' -> random digit, '@' -> random letter a-z, other
 * characters copied. Writes strlen(tmpl) bytes to out (no terminator added). */
void rand_template(struct rng *r, const char *tmpl, char *out);

#endif
