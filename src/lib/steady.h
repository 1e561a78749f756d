/*
 * SPDX-License-Identifier: Apache-2.0
 * steady.h - the SNIA PTS steady-state criteria over a series of rounds.
 *
 * A window of the last n rounds of a tracked variable (IOPS, or a p99
 * latency) is steady when both hold:
 *   - its range (max - min) is at most STEADY_MAX_RANGE_PCT of its average;
 *   - the least-squares line through it (x = 0 .. n-1) moves at most
 *     STEADY_MAX_SLOPE_PCT of the average from the window's first round to
 *     its last (|slope| x (n - 1)).
 * Pure: no I/O, no allocation, thread-safe.
 */
#ifndef IOBENCH_LIB_STEADY_H
#define IOBENCH_LIB_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define STEADY_MAX_RANGE_PCT 20.0
#define STEADY_MAX_SLOPE_PCT 10.0
/* The defaults of --steady-round (seconds), --steady-window and --max-rounds. */
#define STEADY_DEFAULT_ROUND_S 60
#define STEADY_DEFAULT_WINDOW 5
#define STEADY_DEFAULT_MAX_ROUNDS 25
/* The fewest rounds a window may have: a line through two points has no spread to judge. */
#define STEADY_MIN_WINDOW 3

/* One window judged. */
struct steady_fit {
	double avg;        /* the window's average */
	double range_pct;  /* (max - min) / avg x 100 */
	double slope;      /* the fitted line's slope, units per round */
	double intercept;  /* its value at the window's first round */
	double slope_pct;  /* |slope| x (n - 1) / avg x 100 */
	bool steady;       /* both criteria hold */
};

/*
 * Judge the window y[0..n-1] (oldest first) into *fit. Returns 0, or
 * -EINVAL when n < 2 or the average is not positive (nothing measured: a
 * window of zeros is never steady; *fit then says steady = false).
 */
int steady_judge(const double *y, size_t n, struct steady_fit *fit);

/*
 * The first round (1-based) at which the window of the last `window` rounds
 * of y[0..n-1] is steady, with that window's fit in *fit; 0 when no window
 * is (then *fit is the last window's, or all zero when n < window).
 */
size_t steady_first(const double *y, size_t n, size_t window, struct steady_fit *fit);

/*
 * A long series that reached steady state and left it: the first round
 * (1-based) after *attained (the first steady window's last round, 0 when
 * none is) whose window is no longer steady and whose own value lies off
 * the attained window's average by more than STEADY_MAX_RANGE_PCT, as do
 * most of the rounds from it on, a window's worth (the level moved: a lone
 * spike is no leaving); 0 when
 * the series never left it (or never reached it). *avg: that average.
 */
size_t steady_left(const double *y, size_t n, size_t window, size_t *attained, double *avg);

#endif
