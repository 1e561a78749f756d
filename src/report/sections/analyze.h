/*
 * SPDX-License-Identifier: Apache-2.0
 * analyze.h - turn the cells of a struct rep_db into report tables.
 *
 * A group is a run of cells that differ only by host (a fleet group) or a
 * single cell (per-host view). Each section is one struct table; the CLI
 * decides which to print and how.
 */
#ifndef IOBENCH_REPORT_ANALYZE_H
#define IOBENCH_REPORT_ANALYZE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/store/db.h"
#include "report/base/stats.h"
#include "report/render/table.h"

struct rep_group {
	struct rep_cell **cells; /* into db->cells, n of them, sorted by host */
	size_t n;
	struct hist total;       /* exact merge over the cells */
	double ops;              /* mean per-host ops/s (the fleet mean: detail, never the answer) */
	unsigned runs;
	/* its figure (report/sections/basis.h): the median over the hosts that are not bad apples */
	bool *used;              /* per cell: counted (NULL: all are) */
	size_t nused;
	double med_ops;          /* the median host's ops/s over the used cells */
	double med_p50, med_p99; /* the median over them of each host's p50, p99 (ns) */
};

/* Free groups made by rep_groups (their used[] too). */
void rep_groups_free(struct rep_group *g, size_t n);

/* Operations per second of one cell: count / summed run time. */
double rep_cell_ops(const struct rep_cell *c);

/*
 * The ops/s a cell's host was held to: its --rate; else what its volumes
 * allow: volumeIops x volumeCount (an operation over 256 KiB counting as
 * one per 256 KiB, as EBS counts them; 1 MiB on st1/sc1) and
 * volumeThroughput (MiB/s) x volumeCount over the operation size, the
 * smaller. A limit the facts leave out is the volume type's baseline: gp3
 * 3000 IOPS and 125 MiB/s; gp2 3 IOPS per GiB (100-16000) bursting to 3000;
 * st1 250 and sc1 80 MiB/s per TiB at burst (at most 500 and 250). 0 unknown.
 */
double rep_cell_cap(const struct rep_cell *c);

/* The same once a burst is spent (gp2 3 IOPS per GiB; st1 40, sc1 12 MiB/s per TiB). */
double rep_cell_cap_after_burst(const struct rep_cell *c);

/* True when the cap came (in part) from the volume type's baseline, not from given facts or --rate. */
bool rep_cell_cap_is_baseline(const struct rep_cell *c);

/*
 * Groups over db->cells (rep_db_finish() first): one per cell when by_host,
 * else one per signature x threads x configuration x size, each with its
 * figure over all its hosts (rep_apples_judge then leaves the bad apples
 * out). Free with rep_groups_free.
 */
size_t rep_groups(const struct rep_db *db, bool by_host, struct rep_group **out);

/*
 * Indexes (into fleet groups g[0..n)) of the size sweep that group i belongs
 * to: same signature, threads and configuration, ascending size. Returns the count;
 * idx must hold n entries.
 */
size_t rep_sweep_of(const struct rep_group *g, size_t n, size_t i, size_t *idx);

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
 * The summary table as text: a finding a line (wrapped within width
 * columns, at most 100; 0 for 100), its evidence's section in brackets,
 * the thread optima as a config x op matrix.
 */
void rep_summary_print_text(const struct table *t, FILE *out, size_t width);

/*
 * Fill tables[SEC_COUNT]: every table is table_init'ed (caller table_free()s
 * them all), rows are computed only for sections with want[s] set.
 */
void rep_build_tables(const struct rep_db *db, const struct rep_opts *o, const bool want[SEC_COUNT],
		      struct table tables[SEC_COUNT]);

#endif
