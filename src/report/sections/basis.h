/*
 * SPDX-License-Identifier: Apache-2.0
 * basis.h - the one basis of the report's answer (report/sections/basis.c).
 *
 * A configuration's figure for an op is the median host at the
 * configuration's optimal thread count, over the hosts that are not bad
 * apples. Ops/s, MB/s, ops and MB per dollar, a comparison's ratio and its
 * ratio per dollar all come from it; the fleet mean stays in the detail.
 *
 * A bad apple is a host slow consistently, not in one cell: a cell is
 * slow for a host when it runs at least 20% below the cell's median (and,
 * with 5 hosts or more, at a robust z below -3), by more than twice the
 * noise of its own time buckets, and not at its cap; a bad apple is slow
 * in at least half its cells of a configuration (and in more than one,
 * unless it ran one). A slow cell of a host that is no bad apple is a
 * noisy cell. Cells of fewer than REP_APPLE_MIN_HOSTS hosts judge nobody:
 * too few to tell.
 *
 * Not thread-safe: one report builds it once, on its thread.
 */
#ifndef IOBENCH_REPORT_BASIS_H
#define IOBENCH_REPORT_BASIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/sections/analyze.h"

/* A cell with fewer hosts than this tells no bad apple (the median of two blames either). */
#define REP_APPLE_MIN_HOSTS 3

/* One host of one configuration, judged over all its cells. */
struct rep_apple {
	const char *host;             /* into the cells */
	const struct rep_config *cfg;
	unsigned cells;               /* cells judged (of REP_APPLE_MIN_HOSTS hosts or more) */
	unsigned slow;                /* of them, slow */
	unsigned unjudged;            /* cells of too few hosts to judge */
	double worst, typical;        /* its lowest and its median ratio to the cells' medians */
	bool bad;                     /* slow in half or more of its judged cells, more than one of them */
};

struct rep_apples {
	struct rep_apple *a;          /* sorted by configuration, then host */
	size_t n;
};

/*
 * Judge the hosts of the fleet groups g[0..n) (rep_groups, not by host)
 * into *out, then set every group's basis: used[] (its cells whose host is
 * no bad apple), nused, med_ops, med_p50, med_p99. Partial runs are judged
 * nobody and used whole. Free with rep_apples_free (the groups' used[] with
 * rep_groups_free).
 */
void rep_apples_judge(struct rep_apples *out, struct rep_group *g, size_t n);

void rep_apples_free(struct rep_apples *a);

/* Host host of configuration cfg as judged, or NULL when it ran no cell of it. */
const struct rep_apple *rep_apple_of(const struct rep_apples *a, const struct rep_config *cfg, const char *host);

/*
 * The slow cells of group g: slow[k] for cell k (g->n entries), as the
 * rule above says; NULL for none wanted. *median and *mad (when not NULL)
 * get the cell's median and MAD of per-host ops/s. Returns how many.
 */
size_t rep_group_slow(const struct rep_group *g, bool *slow, double *median, double *mad);

/*
 * Whether host cell c running v ops/s is at its cap in a fleet of median
 * med: within 5% of the cap (or of what is left after a burst), and, for a
 * cap from the volume's facts, the fleet's median near it too. *far gets
 * the provisioned cap the median runs far above, else 0.
 */
bool rep_held_at_cap(const struct rep_cell *c, double v, double med, double *far);

/* The relative noise of a group's figure: 1.4826 x MAD / median of its used hosts; one host, its buckets' CV. */
double rep_group_noise(const struct rep_group *g);

/*
 * The 95% interval of a group's figure (med_ops): a bootstrap of the
 * median over its used hosts, rounds resamples seeded with seed, as the
 * compare section resamples; a group of one host, over its time buckets
 * when it has REP_INTERVAL_BUCKETS of them. *lo and *hi NAN when there is
 * nothing to resample.
 */
#define REP_INTERVAL_BUCKETS 5
void rep_group_interval(const struct rep_group *g, unsigned rounds, uint64_t seed, double *lo, double *hi);

/*
 * Why a curve's figure (its optimum, opt) is not offered as an answer:
 * above what its caps allow by more than the noise (its median over
 * max(STATS_CAP_FAR, 1 + 2 x noise) times the cap), or its runs flagged by
 * the targets section. Writes the reason into why (a clause: "1,508 MB/s
 * is 12x the 125 MiB/s its facts allow: the target was not on the volume,
 * or the facts are wrong") and returns true; false and why "" when sound.
 */
bool rep_basis_doubt(const struct rep_db *db, const struct rep_group *opt, char *why, size_t len);

/*
 * A campaign's earlier round: cfg's runs are round N ("round=N" in its
 * runs) and another configuration of the same labels, facts and settings
 * ran a later round, whose number goes to *last. Round one searches the
 * thread counts, the last is the result: rounds are never ranked against
 * each other.
 */
bool rep_config_superseded(const struct rep_db *db, const struct rep_config *cfg, unsigned *last);

/* The names of the hosts a group's figure leaves out, ", "-separated into buf ("" none). */
void rep_group_left_out(const struct rep_group *g, char *buf, size_t len);

#endif
