/*
 * section.h - what a report section's builder works with (private to src/report/).
 *
 * analyze.c holds the table of sections; a section that needs a file of its
 * own (compare.c, expect.c) gets its builder declared here and its row there.
 * groups.c holds what builders share (the two functions below): the
 * builders call it, never each other or analyze.c.
 */
#ifndef IOBENCH_REPORT_SECTION_H
#define IOBENCH_REPORT_SECTION_H

#include "report/analyze.h"

/* What every section's builder may draw on. */
struct rep_ctx {
	const struct rep_db *db;
	const struct rep_opts *o;
	const struct rep_group *fleet; /* groups across hosts */
	size_t nf;
	const struct rep_group *view;  /* the groups as shown: per host, or fleet with --merge-hosts */
	size_t nv;
};

/* The configuration's name for a table: NULL when it has none ("-" in text, null in JSON). */
const char *rep_cfg_name(const struct rep_cell *c);

/*
 * The group of fleet groups g[0..n) of one curve (same signature, config
 * and size) at its optimal thread count (fewest within o->within of the
 * best), or the only one; from is the curve's first group, *end set past
 * its last.
 */
const struct rep_group *rep_curve_optimum(const struct rep_group *g, size_t n, size_t from, size_t *end,
					  double within);

/* Past the last of the fleet groups g[from..n) on the same curve as g[from]. */
size_t rep_curve_end(const struct rep_group *g, size_t n, size_t from);

/* compare.c: config A vs B per op, ratios with bootstrap intervals (SEC_COMPARE). */
extern const struct tcol rep_compare_cols[];
extern const size_t rep_compare_ncols;
void rep_build_compare(struct table *tables, const struct rep_ctx *ctx);

/* targets.c: runs whose target was RAM or not the volume provisioned (SEC_TARGETS). */
extern const struct tcol rep_targets_cols[];
extern const size_t rep_targets_ncols;
void rep_build_targets(struct table *tables, const struct rep_ctx *ctx);

/* expect.c: --expect FILE's lines, PASS or FAIL (SEC_EXPECT). */
extern const struct tcol rep_expect_cols[];
extern const size_t rep_expect_ncols;
void rep_build_expect(struct table *tables, const struct rep_ctx *ctx);

/*
 * periodic.c: a period in the probes' p50 and p99 (watch cells) and in runs'
 * ops/s per time bucket (cells with 24 buckets or more), by stats_periodic
 * over the longest evenly spaced stretch (SEC_PERIODIC).
 */
extern const struct tcol rep_periodic_cols[];
extern const size_t rep_periodic_ncols;
void rep_build_periodic(struct table *tables, const struct rep_ctx *ctx);

/*
 * summary.c: the findings, drawn from the other sections' tables (SEC_SUMMARY).
 * rep_summary_needs marks in want[] the sections it reads; the summary is
 * built after them.
 */
extern const struct tcol rep_summary_cols[];
extern const size_t rep_summary_ncols;
void rep_summary_needs(bool want[SEC_COUNT]);
void rep_build_summary(struct table *tables, const struct rep_ctx *ctx);

/* devices.c: array members against their siblings, the slow one named (SEC_DEVICES). */
extern const struct tcol rep_devices_cols[];
extern const size_t rep_devices_ncols;
void rep_build_devices(struct table *tables, const struct rep_ctx *ctx);

#endif
