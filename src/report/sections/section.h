/*
 * SPDX-License-Identifier: Apache-2.0
 * section.h - what a report section's builder works with (private to src/report/).
 *
 * Each section is a file (a few close ones share one): its columns, its
 * builder and its definition (struct rep_section_def, below); REP_SECTIONS
 * in analyze.h lists them in the order they print. groups.c holds what the
 * builders share (the functions below): the builders call it, never each
 * other or analyze.c.
 */
#ifndef IOBENCH_REPORT_SECTION_H
#define IOBENCH_REPORT_SECTION_H

#include "report/sections/analyze.h"
#include "report/sections/basis.h"

/* What every section's builder may draw on. */
struct rep_ctx {
	const struct rep_db *db;
	const struct rep_opts *o;
	const struct rep_group *fleet; /* groups across hosts */
	size_t nf;
	const struct rep_group *view;  /* the groups as shown: per host, or fleet with --merge-hosts */
	size_t nv;
	const struct rep_apples *apples; /* the hosts judged (report/sections/basis.h): bad apples by host and config */
};

/* Every section that names a configuration: its name, and the user's labels as data. */
#define CONFIG_COLS { "config", "config", TC_STR, 0 }, { "labels", NULL, TC_STR, 0 }

/* A section row's columns: the array and its length, from the array. */
#define SECTION_COLS(c) .cols = (c), .ncols = sizeof(c) / sizeof((c)[0])

/*
 * Every section that names an op: the 2012 signature (read,4K,4K) as data,
 * which scripts select on, and the op as typed (read4k), which people read.
 */
#define OP_COLS { "signature", NULL, TC_STR, 0 }, { "op", "op", TC_STR, 0 }

/*
 * A table row's op as typed: its "op" column, else its "signature" named
 * by rep_op_name (read4k), else "-".
 */
void rep_row_op(const struct table *t, size_t r, char *buf, size_t len);

/* A group's host for a table: its one host, or "(N hosts)" written in buf. */
const char *rep_host_of(const struct rep_group *g, char *buf, size_t len);

/* A Unix time as "2026-11-26T12:00:00Z"; "" unless it is one (between 1e9 and 1e11 s). */
void rep_utc_of(double when, char *buf, size_t len);

/* MB/s (10^6 bytes) of ops operations a second of block bytes each; NAN when block is 0. */
double rep_mb_per_sec(double ops, uint64_t block);

/* The CV of a cell's time buckets' ops/s: how much it moves by itself; NAN under 3 buckets or for watch periods. */
double rep_cell_bucket_cv(const struct rep_cell *c);

/*
 * A cell's runs in rounds: the burst its last such run began with - the
 * leading rounds above its steady figure by more than the PTS range (20%) -
 * as their count and mean ops/s; 0 rounds when it began at its steady
 * figure (or has no rounds).
 */
size_t rep_cell_burst(const struct rep_cell *c, double *ops);

/* The configuration's name for a table: NULL when it has none ("-" in text, null in JSON). */
const char *rep_cfg_name(const struct rep_cell *c);

/*
 * The group of fleet groups g[0..n) of one curve (same signature, config
 * and size) at its optimal thread count (fewest within o->within of the
 * best median host, bad apples left out: the basis), or the only one; from is the curve's first group, *end set past
 * its last.
 */
const struct rep_group *rep_curve_optimum(const struct rep_group *g, size_t n, size_t from, size_t *end,
					  double within);

/* Past the last of the fleet groups g[from..n) on the same curve as g[from]. */
size_t rep_curve_end(const struct rep_group *g, size_t n, size_t from);

/*
 * A section: its key (--section, JSON member, CSV "# name" line), its
 * title over the text table, its --help ('\n' starts a continuation line),
 * its columns, its builder, and when it is shown. Each section's file
 * defines its own; a builder that fills two tables (a table and the steps
 * in it) is named by both sections and runs once. REP_SECTIONS in
 * analyze.h lists them in the order they print.
 */
struct rep_section_def {
	const char *name;
	const char *title;
	const char *help;
	const struct tcol *cols;
	size_t ncols;
	void (*build)(struct table *tables, const struct rep_ctx *ctx);
	enum rep_shown shown; /* in the default output: always (0), or only as it says */
	bool plot;            /* --plot's charts or page read its table: built with --plot */
};

/* Every row of REP_SECTIONS names its file's definition. */
#define REP_SECTION_EXTERN(e, def) extern const struct rep_section_def def;
REP_SECTIONS(REP_SECTION_EXTERN)
#undef REP_SECTION_EXTERN

/*
 * summary.c reads other sections' tables: rep_summary_needs marks in want[]
 * the sections it reads, and the summary is built after them.
 */
void rep_summary_needs(bool want[SEC_COUNT]);

#endif
