#include "stats/steady.h"

#include <math.h>

const char *steady_state_name(enum steady_state s)
{
	switch (s) {
	case STEADY_YES:
		return "steady";
	case STEADY_NO:
		return "NOT steady";
	case STEADY_NA:
		return "n/a";
	}
	return "?";
}

const char *steady_state_key(enum steady_state s)
{
	switch (s) {
	case STEADY_YES:
		return "steady";
	case STEADY_NO:
		return "not-steady";
	case STEADY_NA:
		return "n/a";
	}
	return "?";
}

struct steady_result steady_check(const double *y, size_t n)
{
	struct steady_result r = {.state = STEADY_NA, .rounds = n};
	double xm, sxy = 0, sxx = 0;

	if (n == 0)
		return r;
	r.min = r.max = y[0];
	for (size_t i = 0; i < n; i++) {
		r.mean += y[i];
		if (y[i] < r.min)
			r.min = y[i];
		if (y[i] > r.max)
			r.max = y[i];
	}
	r.mean /= (double)n;
	/* x = 1..n; centred sums, so the slope does not depend on where x starts. */
	xm = ((double)n + 1) / 2;
	for (size_t i = 0; i < n; i++) {
		double dx = (double)(i + 1) - xm;
		sxy += dx * (y[i] - r.mean);
		sxx += dx * dx;
	}
	r.slope = sxx > 0 ? sxy / sxx : 0;
	if (n < STEADY_MIN_WINDOW || !(r.mean > 0))
		return r;
	r.excursion = (r.max - r.min) / r.mean;
	r.slope_excursion = fabs(r.slope) * (double)(n - 1) / r.mean;
	/* A hair of tolerance so a window exactly on the limit (20.0%) passes
	 * despite rounding in the division. */
	r.excursion_ok = r.excursion <= STEADY_EXCURSION_LIMIT + 1e-12;
	r.slope_ok = r.slope_excursion <= STEADY_SLOPE_LIMIT + 1e-12;
	r.state = r.excursion_ok && r.slope_ok ? STEADY_YES : STEADY_NO;
	return r;
}

struct steady_result steady_last_window(const double *y, size_t n, size_t window)
{
	struct steady_result r = {.state = STEADY_NA};

	if (window < STEADY_MIN_WINDOW || n < window) {
		r.rounds = n;
		return r;
	}
	return steady_check(y + (n - window), window);
}

long steady_first_window(const double *y, size_t n, size_t window)
{
	if (window < STEADY_MIN_WINDOW)
		return -1;
	for (size_t i = 0; i + window <= n; i++)
		if (steady_check(y + i, window).state == STEADY_YES)
			return (long)i;
	return -1;
}
