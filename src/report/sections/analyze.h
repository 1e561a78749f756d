/*
 * SPDX-License-Identifier: Apache-2.0
 * analyze.h - the sections of the report (analyze.c): their list, their
 * options, and the one builder of all their tables.
 *
 * The folder's front door for the command and the charts: it brings
 * groups.h (the groups every section and chart is made of) with it. Each
 * section is one struct table; the CLI decides which to print and how.
 */
#ifndef IOBENCH_REPORT_ANALYZE_H
#define IOBENCH_REPORT_ANALYZE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/base/stats.h"
#include "report/render/table.h"
#include "report/sections/groups.h"
#include "report/store/db.h"

/*
 * The sections, one row each, in the order they print: X(ENUM, DEF), DEF
 * being the struct rep_section_def its file defines (report/section.h:
 * key, title, --help, columns, builder, when it is shown). Everything else
 * follows from the row: the enum value, the extern, --help's Sections list,
 * --section's names and the default outputs. Adding a section is its file
 * and its row here.
 */
#define REP_SECTIONS(X)                                                                                          \
	X(SEC_SUMMARY, rep_sec_summary)   /* the answers, a finding a row, each naming its evidence's section */   \
	X(SEC_FLEET, rep_sec_fleet)       /* failed and missing hosts of a fleet's manifest.json: first */          \
	X(SEC_TARGETS, rep_sec_targets)   /* runs on RAM, or not on the volume provisioned */                       \
	X(SEC_GROUPS, rep_sec_groups)                                                                            \
	X(SEC_INSTANCES, rep_sec_instances)                                                                      \
	X(SEC_BAD_APPLES, rep_sec_badApples)                                                                     \
	X(SEC_THREADS, rep_sec_threads)                                                                          \
	X(SEC_STEADY, rep_sec_steady)     /* runs in rounds: steady state attained or not, the burst before it */  \
	X(SEC_COMPARE, rep_sec_compare)   /* config A vs B per op: ratios with bootstrap intervals */              \
	X(SEC_TIME, rep_sec_time)                                                                                \
	X(SEC_REGIMES, rep_sec_regimes)                                                                          \
	X(SEC_SERIES, rep_sec_series)     /* every time bucket: only when asked for by name */                     \
	X(SEC_MODES, rep_sec_modes)                                                                              \
	X(SEC_DEVICES, rep_sec_devices)   /* array members against their siblings: the slow one */                \
	X(SEC_TIERS, rep_sec_tiers)                                                                              \
	X(SEC_DURABILITY, rep_sec_durability)                                                                    \
	X(SEC_COST, rep_sec_cost)                                                                                \
	X(SEC_BONNIE, rep_sec_bonnie)                                                                            \
	X(SEC_BONNIE_RUNS, rep_sec_bonnieRuns) /* bonnie++ per host and config: mean and spread over runs */      \
	X(SEC_WATCH, rep_sec_watch)       /* `iobench watch` lines: latency per period */                          \
	X(SEC_WATCH_REGIMES, rep_sec_watchRegimes) /* lasting steps in the probes' p99 */                        \
	X(SEC_PERIODIC, rep_sec_periodic) /* a period in the probes' p50/p99 or in runs' ops/s */                  \
	X(SEC_NOTES, rep_sec_notes)       /* each run's bookkeeping: only when named, or in --json */              \
	X(SEC_DUR_VERIFY, rep_sec_durabilityVerify) /* `iobench durability verify` verdicts */                   \
	X(SEC_EXPECT, rep_sec_expect)     /* --expect FILE: PASS/FAIL per expected figure */                       \
	X(SEC_BASELINE, rep_sec_baseline) /* --baseline: each cell against the baseline's, a verdict */

enum rep_section {
#define REP_SECTION_ENUM(e, def) e,
	REP_SECTIONS(REP_SECTION_ENUM)
#undef REP_SECTION_ENUM
	SEC_COUNT
};

/*
 * When a section is in the report's default output (--section names any
 * section, whatever its kind): its struct rep_section_def says which.
 */
enum rep_shown {
	REP_SHOWN_ALWAYS, /* in text, JSON and --plot's page (CSV's default is the groups alone) */
	REP_SHOWN_DETAIL, /* per host: text leaves it to --detail; JSON and --plot's page have it */
	REP_SHOWN_JSON,   /* bookkeeping: in JSON only */
	REP_SHOWN_NAMED,  /* only when --section names it (series: every time bucket) */
	REP_SHOWN_OPTION, /* only with its option (--expect, --baseline): the command turns it on */
};

/* A section's key: "groups", "instances", "badApples", ... (--section, JSON, CSV). */
const char *rep_section_name(enum rep_section s);

/* What a section shows, for --help ('\n' starts a continuation line). */
const char *rep_section_help(enum rep_section s);

/* When a section is in the default output. */
enum rep_shown rep_section_shown(enum rep_section s);

/* Whether --plot draws on the section's table (it is then built with --plot, shown or not). */
bool rep_section_plotted(enum rep_section s);

/*
 * The defaults of --floor (microseconds), --within and --tier-threshold
 * (percent): rep_opts_default's values, and what `iobench report`'s table
 * writes as the options' defaults.
 */
#define REP_FLOOR_US 50
#define REP_WITHIN_PCT 5
#define REP_TIER_PCT 50
#define REP_TOLERANCE_PCT 5

/* The section whose key is name[0..len), or -1. */
int rep_section_find(const char *name, size_t len);

struct price_list;

struct rep_opts {
	bool merge_hosts;      /* groups/modes/durability across hosts instead of per host */
	double floor_ns;       /* flushed writes faster than this are suspicious */
	const struct price_list *prices; /* parsed --prices file (report/base/price.h) or NULL */
	double tier_min;       /* --tier-threshold: smallest p50 step between tiers, factor - 1 (0.5) */
	double regime_rel;     /* smallest lasting step, fraction of the level */
	size_t regime_min;     /* buckets a regime must last */
	double mode_min_share; /* modes smaller than this are not shown */
	double within;         /* thread optimum: fewest threads within this fraction of the best (0.05) */
	const char *const *compare; /* --compare "A vs B": sides to compare, ncompare of them */
	size_t ncompare;
	unsigned rounds;       /* bootstrap resamples (2000) */
	unsigned long seed;    /* bootstrap seed: the same data gives the same intervals */
	const struct rep_expect *expect; /* --expect FILE's lines (report_expect.h), nexpect of them */
	size_t nexpect;
	const struct rep_db *baseline; /* --baseline's results, finished (rep_db_finish); NULL none */
	double tolerance;      /* --tolerance: a cell slower than 1 - this is a regression (0.05) */
};

void rep_opts_default(struct rep_opts *o);

/*
 * Fill tables[SEC_COUNT]: every table is table_init'ed (caller table_free()s
 * them all), rows are computed only for sections with want[s] set.
 */
void rep_build_tables(const struct rep_db *db, const struct rep_opts *o, const bool want[SEC_COUNT],
		      struct table tables[SEC_COUNT]);

#endif
