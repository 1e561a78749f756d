/*
 * SPDX-License-Identifier: Apache-2.0
 * report/sections/periodic.h - the periodic section's search, bounded in the
 * length of the series.
 *
 * stats_periodic() costs time in the square of the points (a Fourier sum
 * per frequency); `run` allows 1,000,000 time buckets, which would take
 * hours. A series of more than REP_PERIODIC_MAX_POINTS points is searched
 * as the means of rep_periodic_block(n) consecutive points (whole blocks:
 * a last partial one is left out), at most REP_PERIODIC_MAX_POINTS of
 * them: periods of two blocks or more are found as in the whole series
 * (a block mean is a low-pass filter: nothing shorter folds onto them),
 * shorter ones are not sought, and the time stays bounded.
 */
#ifndef IOBENCH_REPORT_PERIODIC_H
#define IOBENCH_REPORT_PERIODIC_H

#include <stddef.h>

#include "report/base/stats.h"

#define REP_PERIODIC_MAX_POINTS 4096

/* The points of a series of n that one searched point stands for: 1 up to the limit, else ceil(n / limit). */
size_t rep_periodic_block(size_t n);

/*
 * stats_periodic() on x[0..n) (dt apart), or on its block means when n is
 * over the limit (their dt the block's); *block is the block size used
 * (1: the series as it is). Returns what stats_periodic() returns; the
 * period comes out in the unit of dt either way.
 */
int rep_periodic_search(const double *x, size_t n, double dt, struct stats_period *out, size_t *block);

#endif
