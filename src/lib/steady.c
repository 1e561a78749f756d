/* steady.c - the SNIA PTS steady-state criteria: range and least-squares slope over a window. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/steady.h"

#include <errno.h>
#include <math.h>

int steady_judge(const double *y, size_t n, struct steady_fit *fit)
{
	*fit = (struct steady_fit){ 0 };
	if (n < 2)
		return -EINVAL;
	double sum = 0, lo = y[0], hi = y[0];
	for (size_t i = 0; i < n; i++) {
		sum += y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	double avg = sum / (double)n;
	fit->avg = avg;
	if (!(avg > 0))
		return -EINVAL;
	/* x = 0 .. n-1, centred on its mean: slope = sum((x - xm)(y - avg)) / sum((x - xm)^2). */
	double xm = (double)(n - 1) / 2, sxy = 0, sxx = 0;
	for (size_t i = 0; i < n; i++) {
		double dx = (double)i - xm;
		sxy += dx * (y[i] - avg);
		sxx += dx * dx;
	}
	fit->slope = sxy / sxx;
	fit->intercept = avg - fit->slope * xm;
	fit->range_pct = (hi - lo) / avg * 100;
	fit->slope_pct = fabs(fit->slope) * (double)(n - 1) / avg * 100;
	/* A hair of tolerance: a series exactly at a limit is within it, whatever the rounding. */
	fit->steady = fit->range_pct <= STEADY_MAX_RANGE_PCT + 1e-9 && fit->slope_pct <= STEADY_MAX_SLOPE_PCT + 1e-9;
	return 0;
}

size_t steady_first(const double *y, size_t n, size_t window, struct steady_fit *fit)
{
	*fit = (struct steady_fit){ 0 };
	if (window < 2)
		return 0;
	for (size_t end = window; end <= n; end++)
		if (steady_judge(y + end - window, window, fit) == 0 && fit->steady)
			return end;
	return 0;
}

/* Off the average by more than the PTS range allows. */
static bool off_by(double v, double avg)
{
	return fabs(v - avg) > avg * STEADY_MAX_RANGE_PCT / 100;
}

/*
 * Whether the level moved from avg, not one round: most of y[0..n-1] (the
 * round and those after it, a window's worth) are off it too, so a lone
 * spike among rounds back at avg is no move.
 */
static bool moved(const double *y, size_t n, double avg)
{
	size_t off = 0;
	for (size_t i = 0; i < n; i++)
		off += off_by(y[i], avg);
	return 2 * off > n;
}

size_t steady_left(const double *y, size_t n, size_t window, size_t *attained, double *avg)
{
	struct steady_fit fit;
	*attained = steady_first(y, n, window, &fit);
	*avg = fit.avg;
	if (!*attained)
		return 0;
	for (size_t end = *attained + 1; end <= n; end++) {
		struct steady_fit now;
		if (off_by(y[end - 1], fit.avg) && steady_judge(y + end - window, window, &now) == 0 && !now.steady &&
		    moved(y + end - 1, n - end + 1 < window ? n - end + 1 : window, fit.avg))
			return end;
	}
	return 0;
}
