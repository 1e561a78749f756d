/*
 * SPDX-License-Identifier: Apache-2.0
 * section.h - what a report section's builder works with (private to src/report/).
 *
 * Each section is a file (a few close ones share one): its columns, its
 * builder and its definition (struct rep_section_def, below); REP_SECTIONS
 * in analyze.h lists them in the order they print. groups.c holds what the
 * builders share (groups.h): the builders call it, never each other or
 * analyze.c (the summary reads other sections' tables, not their code).
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

#endif
