/*
 * SPDX-License-Identifier: Apache-2.0
 * stats.h - the pure analyses behind `iobench report`.
 *
 * No I/O, no global state, thread-safe. Each function works on plain arrays
 * so the unit tests can feed it synthetic data with known answers.
 */
#ifndef IOBENCH_REPORT_STATS_H
#define IOBENCH_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Median of v[0..n) (v is reordered in place, not sorted). 0 when n == 0. */
double stats_median(double *v, size_t n);

/* Median absolute deviation of v[0..n) around med (v is left unchanged). */
double stats_mad(const double *v, size_t n, double med);

/* Coefficient of variation (population stddev / mean); 0 when n < 2 or mean == 0. */
double stats_cv(const double *v, size_t n);

/* A bad apple runs at least this fraction below the fleet's median (a minimum effect). */
#define STATS_MIN_SHORTFALL 0.20
/* Fewer hosts than this give no robust z worth the name: the shortfall alone judges. */
#define STATS_Z_MIN_HOSTS 5
/* A bad apple's robust z (in robust sd, 1.4826 x MAD) is below this. */
#define STATS_BAD_Z (-3.0)

/*
 * The robust z of v: (v - median) / (1.4826 x mad). When mad is 0 (the
 * other hosts agree exactly), -INFINITY below the median, +INFINITY above,
 * 0 at it.
 */
double stats_robust_z(double v, double median, double mad);

/*
 * Bad apples: flag[i] is set for every v[i] (a throughput, higher is better)
 * at least STATS_MIN_SHORTFALL (20%) below the median and, with
 * STATS_Z_MIN_HOSTS (5) hosts or more, also with a robust z below
 * STATS_BAD_Z (-3); with fewer hosts the shortfall alone decides (the MAD
 * of two or three hosts says nothing: two equal hosts make it 0). Writes
 * the median and MAD to *median / *mad when not NULL. Returns how many were
 * flagged.
 */
size_t stats_flag_low(const double *v, size_t n, bool *flag, double *median, double *mad);

/* A host within this fraction of its cap (either side) runs at its cap. */
#define STATS_AT_CAP 0.05
/* A fleet median above cap x this runs far above the cap: the cap model does not hold. */
#define STATS_CAP_FAR 1.25

/* True when v is within STATS_AT_CAP of cap (> 0): 2999.3 of 3000 is. */
bool stats_at_cap(double v, double cap);

/*
 * True when the fleet's median runs far above cap (> 0): more than
 * STATS_CAP_FAR times it. Then the hosts were not held by that cap (the
 * facts are wrong, or the volume was not what was measured), and being at
 * it excuses nothing.
 */
bool stats_cap_far_below_median(double median, double cap);

/*
 * Thread curve optimum: the index of the smallest threads[i] whose ops[i]
 * is within a fraction `within` (0.05: 5%) of the best ops. threads need
 * not be sorted. n must be > 0.
 */
size_t stats_thread_optimum(const double *threads, const double *ops, size_t n, double within);

/*
 * Bootstrap confidence interval of median(b) / median(a): `rounds` times,
 * resample each side with replacement (a generator seeded with seed, so the
 * same input gives the same interval) and take the ratio of the medians;
 * *lo and *hi are the (1 - level) / 2 and (1 + level) / 2 quantiles of those
 * ratios, *ratio the ratio of the samples as they are. All NAN when a side
 * is empty or a median is 0. A side of one value is no spread: its
 * interval comes from the other side alone.
 */
void stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, unsigned rounds,
			   uint64_t seed, double level, double *ratio, double *lo, double *hi);

/*
 * Hosts needed to include, with probability `confidence`, at least one of a
 * kind that a fraction `share` of hosts are: the smallest n with
 * 1 - (1 - share)^n >= confidence (share 0.1, confidence 0.95: 29).
 */
unsigned stats_hosts_needed(double share, double confidence);

/* One latency mode of a histogram. */
struct stats_mode {
	unsigned peak;   /* bucket with the most operations in the mode */
	unsigned from;   /* first non-empty bucket of the mode's basin */
	unsigned to;     /* last non-empty bucket of the basin (inclusive) */
	double share;    /* fraction of all operations in the basin, 0..1 */
};

/*
 * Peaks of a log-bucketed histogram (counts[0..n)): smooth with a 5-bucket
 * triangle kernel, take local maxima, merge two neighbours when the valley
 * between them is above half of the smaller peak, split the buckets at the
 * valleys and drop modes holding less than min_share of the operations.
 * Writes at most max modes, fastest first; returns how many.
 */
size_t stats_modes(const uint64_t *counts, size_t n, double min_share,
		   struct stats_mode *out, size_t max);

/* One level stretch of a size sweep. */
struct stats_tier {
	size_t first, last; /* indexes into the sweep (inclusive) */
	double level;       /* median value over the tier */
};

/*
 * Cache tiers: v[0..n) > 0 the metric (e.g. p50 latency) over a sweep in
 * ascending size. Binary segmentation on log v: the cut goes where the
 * medians of the two sides differ most, and is kept when that difference
 * (as a factor) exceeds both 1 + min_rel and 2x the noise: the larger of
 * noise (a relative spread measured elsewhere, e.g. from the runs' time
 * buckets; 0 unknown) and each side's own spread (1.4826 x MAD of log v).
 * A tier inside the sweep holds at least two sizes (one size between two
 * levels is the transition, not a tier); the first and last may hold one.
 * Writes at most max tiers, smallest sizes first; returns how many. *step,
 * when not NULL, gets the smallest factor - 1 a boundary needed at the top
 * level (what the reader may take as noise).
 */
size_t stats_tiers(const double *v, size_t n, double noise, double min_rel, struct stats_tier *out, size_t max,
		   double *step);

/* One lasting step in a time series. */
struct stats_step {
	size_t at;       /* index of the first value of the new regime */
	double before;   /* median of the regime before */
	double after;    /* median of the regime from `at` on */
};

/*
 * Regime changes in x[0..n) by binary segmentation: the cut goes where the
 * mean shift is most significant, and is kept when both sides hold at least
 * minlen values and their medians differ by at least min_rel of the larger
 * median and by 3 noise deviations (noise estimated from the median
 * successive difference, which steps barely move), and the minlen values
 * just before and after the cut differ by min_rel as well (a step is abrupt;
 * slow drift is not a regime). One spike is no regime.
 * Steps are written in time order (at most max); returns how many.
 */
size_t stats_regimes(const double *x, size_t n, size_t minlen, double min_rel,
		     struct stats_step *out, size_t max);

/* A series needs this many values before a period is looked for. */
#define STATS_PERIOD_MIN_N 8
/* A period must repeat at least this many times in the series. */
#define STATS_PERIOD_MIN_CYCLES 3
/* The largest p-value that counts as a period (false alarms on noise: 1 in 100). */
#define STATS_PERIOD_ALPHA 0.01

/* A periodic component of a time series. */
struct stats_period {
	double period;    /* in the unit of dt */
	double cycles;    /* how many periods the series spans: n x dt / period */
	double swing;     /* amplitude of the fitted sinusoid, in the unit of x */
	double level;     /* median of x */
	double amplitude; /* swing / level (0.4: "+-40%"); NAN when level <= 0 */
	double p;         /* the peak's p-value against a red-noise background */
	double acf;       /* autocorrelation of the detrended series at the period */
	double acf_half;  /* ... and at half the period */
};

/*
 * A periodic component of x[0..n), values dt apart (any unit: the period
 * comes out in it). The series is detrended (least-squares line); its
 * periodogram is divided by the spectrum of a red-noise process (AR(1),
 * with the series' own lag-1 autocorrelation) so that a random walk, a
 * step or a drift, all of them loud at low frequencies, raise no peak; the
 * largest normalised ordinate of STATS_PERIOD_MIN_CYCLES (3) cycles or more
 * is Fisher's g, whose p-value (the first term of Fisher's exact sum:
 * m (1 - g)^(m - 1), over m ordinates) must be below STATS_PERIOD_ALPHA.
 * The peak's frequency is then refined between the Fourier frequencies;
 * the period must still fit 3 times in the series, and the detrended
 * series must correlate positively with itself one period apart and more
 * than half a period apart (an oscillation; a decaying memory does not).
 * The amplitude is that of the least-squares sinusoid at the period (a
 * square wave of half-height h reads 4h/pi).
 *
 * Returns 1 and fills *out when a period is found; 0 when none is (n <
 * STATS_PERIOD_MIN_N, a flat series, no significant peak: *out then holds
 * the best candidate when there was one, period 0 when not); -EINVAL when
 * a value is not finite or dt <= 0 (a gap must be filled or the series
 * cut by the caller: dropping it would shift the phase); -ENOMEM.
 * Deterministic; allocates nothing that outlives the call.
 */
int stats_periodic(const double *x, size_t n, double dt, struct stats_period *out);

#endif
