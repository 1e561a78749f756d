/*
 * SPDX-License-Identifier: Apache-2.0
 * compare.h - how two configurations differ, by dimension.
 *
 * A configuration is instance (instanceType, ebsOptimized) x volume
 * (volumeType, volumeSize, volumeIops, volumeThroughput, instanceStore) x
 * layout (volumeCount, raidLevel, raidChunk, filesystem) x placement (az,
 * zone, availabilityZone, placementGroup); each label (or label part
 * between slashes: config=large/ebs4) and each other fact is a dimension
 * of its own. Before comparing, a volume given no IOPS or MiB/s gets its
 * type's baseline (gp3: 3000 and 125), a volume type no count gets 1, and
 * raidLevel "none" counts as no RAID, so that a fact left unsaid does not
 * make a difference. Pure; thread-safe.
 */
#ifndef IOBENCH_REPORT_COMPARE_H
#define IOBENCH_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/store/db.h"

/*
 * The number of dimensions in which x and y differ. Writes to buf what
 * differs, A's side first: "volume gp3 3000 IOPS → io2 8000 IOPS", with
 * "; " between dimensions, and to dims their names ("instance, volume").
 * *swap is set when y should be A (its first differing value sorts first;
 * an absent value sorts last, so "study=2012" is A beside today's). A label
 * that differs beside the settings names them (--label config=uring-qd4 on
 * the io_uring runs): the two count as one dimension.
 */
size_t rep_config_diff(const struct rep_config *x, const struct rep_config *y, char *buf, size_t len,
		       char *dims, size_t dlen, bool *swap);

/* A ratio for people into buf: two decimals, two significant digits under 0.1 (never "0.00"), none from 100, "-" for NAN. */
void rep_format_ratio(char *buf, size_t len, double r);

#endif
