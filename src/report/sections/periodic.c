/* report/sections/periodic.c - oscillations in the probes' latency and in runs' throughput over time. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/periodic.h"

#include "report/base/alloc.h"
#include "report/sections/section.h"
#include "report/store/opname.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A series shorter than this (evenly spaced points) is not searched: 3 cycles of 8. */
#define PERIODIC_MIN_POINTS 24

static const struct tcol rep_periodic_cols[] = {
	{ "host", "host", TC_STR, 0 },
	{ "op", "op", TC_STR, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "series", "series", TC_STR, 0 },
	{ "periodSeconds", NULL, TC_NUM, 1 },
	{ "periodHuman", "period", TC_STR, 0 },
	{ "amplitude", "±", TC_PCT, 0 },
	{ "cycles", "cycles", TC_NUM, 1 },
	{ "pValue", NULL, TC_NUM, 6 },
	{ "points", "points", TC_INT, 0 },
	{ "finding", "finding", TC_STR, 0 },
};
size_t rep_periodic_block(size_t n)
{
	return n > REP_PERIODIC_MAX_POINTS ? (n + REP_PERIODIC_MAX_POINTS - 1) / REP_PERIODIC_MAX_POINTS : 1;
}

int rep_periodic_search(const double *x, size_t n, double dt, struct stats_period *out, size_t *block)
{
	size_t k = rep_periodic_block(n);
	*block = k;
	if (k == 1)
		return stats_periodic(x, n, dt, out);
	/* whole blocks only: a last partial one would weigh a few points as one */
	size_t m = n / k;
	double *means = rep_calloc(m, sizeof(*means));
	for (size_t i = 0; i < m; i++) {
		double sum = 0;
		for (size_t j = 0; j < k; j++)
			sum += x[i * k + j];
		means[i] = sum / (double)k;
	}
	int rc = stats_periodic(means, m, dt * (double)k, out);
	free(means);
	return rc;
}

/* The series a cell offers: a probe's latency per period, a run's throughput per time bucket. */
static const struct {
	const char *name;
	bool watch; /* of watch cells; else of runs' */
} series[] = {
	{ "p50", true },
	{ "p99", true },
	{ "ops/s", false },
};

static double value_of(const struct rep_point *p, size_t s)
{
	return s == 0 ? p->p50 : s == 1 ? p->p99 : p->ops;
}

/*
 * The longest stretch of c's points that are evenly spaced (each step
 * within a quarter of the median step) with a finite value of series s:
 * its values into x (room for c->npts), its step (seconds) into *dt.
 * A restart, a lost period or the next run breaks a stretch: filling the
 * gap would invent values, closing it would shift every later phase.
 */
static size_t even_stretch(const struct rep_cell *c, size_t s, double *x, double *dt)
{
	double *d = rep_calloc(c->npts, sizeof(*d));
	size_t nd = 0;
	for (size_t k = 1; k < c->npts; k++)
		if (c->pts[k].t > c->pts[k - 1].t)
			d[nd++] = c->pts[k].t - c->pts[k - 1].t;
	*dt = stats_median(d, nd);
	free(d);
	if (!(*dt > 0))
		return 0;
	size_t from = 0, len = 0, best = 0, best_n = 0;
	for (size_t k = 0; k < c->npts; k++) {
		if (!isfinite(value_of(&c->pts[k], s))) {
			len = 0;
			continue;
		}
		if (len > 0 && fabs(c->pts[k].t - c->pts[k - 1].t - *dt) <= 0.25 * *dt) {
			len++;
		} else {
			from = k;
			len = 1;
		}
		if (len > best_n) {
			best = from;
			best_n = len;
		}
	}
	for (size_t k = 0; k < best_n; k++)
		x[k] = value_of(&c->pts[best + k], s);
	return best_n;
}

/* A duration as a reader says it: "45 s", "7.5 min", "2.5 h", "3 d". */
static void human_duration(double sec, char *buf, size_t len)
{
	static const struct {
		double below, unit; /* up to `below` seconds, in `unit` seconds */
		const char *name;
	} units[] = {
		{ 90, 1, "s" },
		{ 90 * 60, 60, "min" },
		{ 36 * 3600, 3600, "h" },
		{ INFINITY, 86400, "d" },
	};
	size_t u = 0;
	while (sec >= units[u].below)
		u++;
	snprintf(buf, len, "%.3g %s", sec / units[u].unit, units[u].name);
}

static void rep_build_periodic(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_PERIODIC];
	const struct rep_db *db = ctx->db;
	size_t block = 1, longest = 0;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		if (c->npts < PERIODIC_MIN_POINTS)
			continue;
		double *x = rep_calloc(c->npts, sizeof(*x));
		char op[64];
		rep_op_name(c->sig, op, sizeof(op));
		for (size_t s = 0; s < sizeof(series) / sizeof(series[0]); s++) {
			if (series[s].watch != c->watch)
				continue;
			double dt;
			size_t n = even_stretch(c, s, x, &dt);
			struct stats_period p;
			size_t k;
			if (n < PERIODIC_MIN_POINTS)
				continue;
			int found = rep_periodic_search(x, n, dt, &p, &k);
			if (k > block || (k == block && n > longest)) {
				block = k;
				longest = n;
			}
			if (found != 1)
				continue;
			char when[32], finding[128];
			human_duration(p.period, when, sizeof(when));
			if (isfinite(p.amplitude))
				snprintf(finding, sizeof(finding), "%s oscillates every %s, ±%.0f%%", series[s].name, when,
					 100 * p.amplitude);
			else
				snprintf(finding, sizeof(finding), "%s oscillates every %s", series[s].name, when);
			table_row(t, c->host, op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size,
				  series[s].name, p.period, when, p.amplitude, p.cycles, p.p, (double)n, finding);
		}
		free(x);
	}
	if (block > 1 && t->nrows > 0)
		table_note(t, "A series of more than %d points is searched as the means of consecutive blocks, at most "
			      "%d of them (here up to %zu points, blocks of %zu): a period under two blocks is not sought "
			      "there, the time a series takes stays bounded.",
			   REP_PERIODIC_MAX_POINTS, REP_PERIODIC_MAX_POINTS, longest, block);
}

const struct rep_section_def rep_sec_periodic = {
	.name = "periodic",
	.title = "Oscillations (a period in the probes' p50/p99 or in runs' ops/s)",
	.help = "a regular oscillation in the probes' p50/p99 or in runs' ops/s\n"
		"(24 time buckets or more; over 4096, searched as means of blocks):\n"
		"its period, amplitude and p-value",
	SECTION_COLS(rep_periodic_cols),
	.build = rep_build_periodic,
};
