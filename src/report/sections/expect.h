/*
 * SPDX-License-Identifier: Apache-2.0
 * expect.h - `iobench report --expect FILE`: the figures a box is
 * expected to reach, one per line, checked against the results read.
 *
 * Grammar (blank lines and text after '#' are ignored; words separated by blanks):
 *
 *   OP [METRIC] CMP NUMBER[UNIT] [UNIT] [at N threads]
 *
 *   OP      the op as typed (read4k, write4k/64) or its signature (read,4K,4K)
 *   METRIC  iops (or ops/s), mbps (or MB/s), p50 p90 p95 p99 p99.9 p99.99,
 *           mean, max, errors; when left out the unit says it (iops, MB/s)
 *   CMP     >= <= > <
 *   NUMBER  a plain decimal (15000, 0.6, 1e3): no sign, no hex
 *   UNIT    iops, ops/s, MB/s for throughput; ns, us (or µs), ms, s for a
 *           latency, which must say one (600 alone is refused: 600us or
 *           0.6ms?); errors take none
 *   at N threads   the run with N threads, N a whole number 1..4096; without
 *                  it, each host's optimal thread count (fewest within 5% of
 *                  its best ops/s)
 *
 *   read4k >= 15000 iops at 16 threads
 *   write4k p99 <= 5ms
 *
 * Pure parsing: no global state, thread-safe.
 */
#ifndef IOBENCH_REPORT_EXPECT_H
#define IOBENCH_REPORT_EXPECT_H

#include <stddef.h>
#include <stdio.h>

enum rep_metric { RM_OPS, RM_MBPS, RM_PCT, RM_MEAN, RM_MAX, RM_ERRORS };

struct rep_expect {
	unsigned line;       /* line number in the file */
	char text[160];      /* the expectation as written, blanks squeezed, its op as typed */
	char op[64];         /* as typed (read4k), whichever form the line used (read,4K,4K) */
	enum rep_metric metric;
	double pct;          /* RM_PCT: 0.99 for p99 */
	char cmp[3];         /* ">=", "<=", ">", "<" */
	double value;        /* ops/s, MB/s (10^6 bytes), ns, or a count */
	double threads;      /* the thread count asked for; 0: each host's optimum */
};

/*
 * Parse the expectations of f (named path in messages) into *out (malloc'd,
 * *n of them; caller frees). Returns 0, or -EINVAL with err set to
 * "PATH:LINE: what is wrong; ..." for the first bad line, or to "PATH: has
 * no expectations" when none is there.
 */
int rep_expect_parse(FILE *f, const char *path, struct rep_expect **out, size_t *n, char *err, size_t errlen);

/* True when measured satisfies e's comparison. */
int rep_expect_holds(const struct rep_expect *e, double measured);

#endif
