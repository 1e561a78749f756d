/*
 * SPDX-License-Identifier: Apache-2.0
 * tiers.h - the cache tiers of a file-size sweep (tiers.c; its section is rep_sec_tiers).
 */
#ifndef IOBENCH_REPORT_TIERS_H
#define IOBENCH_REPORT_TIERS_H

#include <stddef.h>

#include "report/base/stats.h"
#include "report/sections/groups.h"

struct rep_opts;

/*
 * The tiers of the size sweep idx[0..n) of fleet groups g (as rep_sweep_of
 * gives it): each size's p50 into p50[0..n), the tiers into out (room for
 * n) by stats_tiers with o->tier_min and the runs' noise: per size, the
 * median over its hosts of the time buckets' CV of ops/s, or the spread of
 * its hosts' p50 when larger; the median over the sizes. *noise gets that,
 * *step the smallest step a boundary needed (factor - 1). Closed-loop
 * runs also need that step in ops/s (a volume held to a rate keeps its
 * ops/s while its p50 wanders: one tier). Returns the number of tiers.
 */
size_t rep_sweep_tiers(const struct rep_group *g, const size_t *idx, size_t n, const struct rep_opts *o,
		       double *p50, struct stats_tier *out, double *noise, double *step);

#endif
