/*
 * SPDX-License-Identifier: Apache-2.0
 * groups.h - groups of cells and what every section shares (groups.c).
 *
 * A group is a run of cells that differ only by host (a fleet group) or a
 * single cell (per-host view); a curve is the groups of one signature,
 * config and size over thread counts. Pure functions of the store's cells:
 * no output, no errors (NAN or 0 for what cannot be told).
 */
#ifndef IOBENCH_REPORT_GROUPS_H
#define IOBENCH_REPORT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hist.h"
#include "report/render/table.h"
#include "report/store/db.h"

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

#endif
