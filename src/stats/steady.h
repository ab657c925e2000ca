/*
 * Steady state the way SNIA's Solid State Storage Performance Test
 * Specification (PTS) defines it, applied to per-round throughput.
 *
 * A round is one value y_i (dbrig: the TPS of one report interval). Over a
 * measurement window of w >= STEADY_MIN_WINDOW rounds, with the rounds
 * numbered x = 1..w:
 *   mean             = sum(y_i) / w
 *   excursion        = (max(y) - min(y)) / mean           must be <= 20%
 *   slope            = least-squares slope of y over x (per round)
 *   slope excursion  = |slope| * (w - 1) / mean          must be <= 10%
 * The slope excursion is how far the best-fit line moves across the window,
 * relative to the window's mean. Both limits hold: steady. Either fails: not
 * steady. Fewer than STEADY_MIN_WINDOW rounds, or a mean <= 0: not assessed.
 *
 * Pure arithmetic, no allocation, thread-safe.
 */
#ifndef DBRIG_STATS_STEADY_H
#define DBRIG_STATS_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define STEADY_MIN_WINDOW 5
#define STEADY_DEFAULT_WINDOW 5
#define STEADY_EXCURSION_LIMIT 0.20
#define STEADY_SLOPE_LIMIT 0.10

enum steady_state {
	STEADY_YES,
	STEADY_NO,
	STEADY_NA, /* fewer than STEADY_MIN_WINDOW rounds, or mean <= 0 */
};

struct steady_result {
	enum steady_state state;
	size_t rounds;          /* values in the window */
	double mean, min, max;
	double excursion;       /* (max - min) / mean */
	double slope;           /* per round */
	double slope_excursion; /* |slope| * (rounds - 1) / mean */
	bool excursion_ok, slope_ok;
};

/* The window is y[0..n). */
struct steady_result steady_check(const double *y, size_t n);

/* The last `window` rounds of y[0..n) (STEADY_NA when n < window or window <
 * STEADY_MIN_WINDOW). */
struct steady_result steady_last_window(const double *y, size_t n, size_t window);

/* Index of the first round of the first steady window of `window` rounds, or
 * -1 when none is (PTS: "steady state reached in rounds i+1..i+window"). */
long steady_first_window(const double *y, size_t n, size_t window);

const char *steady_state_name(enum steady_state s); /* "steady", "NOT steady", "n/a" */
const char *steady_state_key(enum steady_state s);  /* "steady", "not-steady", "n/a" (CSV, JSON) */

#endif
