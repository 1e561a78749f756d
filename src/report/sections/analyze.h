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

enum rep_section {
	SEC_SUMMARY, /* the answers, a finding a row, each naming its evidence's section (report/sections/summary.c) */
	SEC_FLEET,  /* failed and missing hosts of a fleet's manifest.json: first, above all */
	SEC_TARGETS, /* runs on RAM, or not on the volume provisioned (report/sections/targets.c) */
	SEC_GROUPS,
	SEC_INSTANCES,
	SEC_BAD_APPLES,
	SEC_THREADS,
	SEC_STEADY,        /* runs in rounds: steady state attained or not, the burst before it (report/sections/steady.c) */
	SEC_COMPARE,     /* config A vs B per op: ratios with bootstrap intervals */
	SEC_TIME,
	SEC_REGIMES,
	SEC_SERIES, /* every time bucket: only when asked for by name */
	SEC_MODES,
	SEC_DEVICES, /* array members against their siblings: the slow one (report/sections/devices.c) */
	SEC_TIERS,
	SEC_DURABILITY,
	SEC_COST,
	SEC_BONNIE,
	SEC_BONNIE_RUNS, /* bonnie++ per host and config: mean and spread over runs */
	SEC_WATCH,         /* `iobench watch` lines: latency per period */
	SEC_WATCH_REGIMES, /* lasting steps in the probes' p99 */
	SEC_PERIODIC,      /* a period in the probes' p50/p99 or in runs' ops/s (report/sections/periodic.c) */
	SEC_NOTES,         /* each run's bookkeeping: only when named, or in --json */
	SEC_DUR_VERIFY,    /* `iobench durability verify` verdicts (report/sections/durability.c) */
	SEC_EXPECT,        /* --expect FILE: PASS/FAIL per expected figure */
	SEC_BASELINE,      /* --baseline: each cell against the baseline's, a verdict (report/sections/baseline.c) */
	SEC_COUNT
};

/* A section's key: "groups", "instances", "badApples", ... (--section, JSON, CSV). */
const char *rep_section_name(enum rep_section s);

/* What a section shows, for --help ('\n' starts a continuation line). */
const char *rep_section_help(enum rep_section s);

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
