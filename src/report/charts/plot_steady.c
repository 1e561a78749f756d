/* report/charts/plot_steady.c - the SNIA PTS chart: rounds' ops/s, the window, its average, +-10% and the fitted line. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot_steady.h"
#include "report/charts/plot_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/steady.h"

/* Round k's (1-based) ops/s of c's last run in rounds, from its points; NAN when it has none. */
static double round_ops(const struct rep_cell *c, unsigned k)
{
	const struct rep_steady *s = &c->steady;
	double t = s->launch + (double)(k - 1) * s->bucket;
	for (size_t i = 0; i < c->npts; i++)
		if (fabs(c->pts[i].t - t) < s->bucket / 2)
			return c->pts[i].ops;
	return NAN;
}

/* Block of the two ends of the window: x, then its average (which 0), its band (1) or the fitted line (2) at each. */
static void ends(struct chart *ch, const struct rep_steady *s, const char *what, int which)
{
	chart_block(ch, what, NULL);
	unsigned x[2] = { s->first, s->last };
	for (int e = 0; e < 2; e++) {
		double avg = s->steady_ops, fit = s->intercept + s->slope * (double)(x[e] - s->first);
		if (which == 0)
			chart_row(ch, (const double[]){ x[e], avg }, 2);
		else if (which == 1)
			chart_row(ch, (const double[]){ x[e], avg * (1 - STEADY_MAX_SLOPE_PCT / 100),
							avg * (1 + STEADY_MAX_SLOPE_PCT / 100) }, 3);
		else
			chart_row(ch, (const double[]){ x[e], fit }, 2);
	}
	chart_block_end(ch);
}

/* Rounds first..last of c's last run in rounds as a block: the round, its ops/s. */
static void rounds(struct chart *ch, const struct rep_cell *c, unsigned first, unsigned last, const char *what,
		   const char *columns)
{
	chart_block(ch, what, columns);
	for (unsigned k = first; k <= last; k++)
		chart_row(ch, (const double[]){ k, round_ops(c, k) }, 2);
	chart_block_end(ch);
}

static void one_chart(struct plotter *p, const struct rep_cell *c, size_t n, const char *more)
{
	const struct rep_steady *s = &c->steady;
	char name[32], what[400], head[700], xlabel[64], avg[64];
	snprintf(name, sizeof(name), "steady-%zu", n);
	chart_describe(what, sizeof(what), c, true, false);
	if (s->round)
		snprintf(head, sizeof(head), "Steady state (SNIA PTS): %s, host %s: attained at round %u of %u%s", what,
			 c->host, s->round, s->rounds, more);
	else
		snprintf(head, sizeof(head), "Steady state (SNIA PTS): %s, host %s: not attained in %u rounds%s", what,
			 c->host, s->rounds, more);
	snprintf(xlabel, sizeof(xlabel), "round (%g s each)", s->bucket);
	struct chart ch = { .title_max = 900 };
	if (!chart_open(&ch, p, name, head, s->launch, xlabel, "ops/s"))
		return;
	/* below the plot: the burst rounds are at its top left */
	fputs("set key below horizontal maxcols 3\n", ch.gp);
	fprintf(ch.gp, "set xrange [0.5:%g]\nset yrange [0:*]\nset xtics 1\n", s->rounds + 0.5);
	/* blocks: 0 every round, 1 the window's rounds, 2 its average, 3 the band, 4 the fitted line */
	rounds(&ch, c, 1, s->rounds, "every round", "round ops_per_sec");
	rounds(&ch, c, s->first, s->last, "the window's rounds", NULL);
	ends(&ch, s, "the window's average", 0);
	ends(&ch, s, "its band: average -10% and +10%", 1);
	ends(&ch, s, "the least-squares line over the window", 2);
	snprintf(avg, sizeof(avg), "window average %.0f ops/s", s->steady_ops);
	chart_series(&ch, 3, "1:2:3", "filledcurves fs transparent solid 0.15 lc rgb '#2a9d8f'", "average +-10%");
	chart_series(&ch, 0, "1:2", "linespoints lw 1 pt 7 ps 0.8 lc rgb '#777777'", "ops/s per round");
	chart_series(&ch, 1, "1:2", "points pt 7 ps 1.4 lc rgb '#e76f51'", "the window");
	chart_series(&ch, 2, "1:2", "lines lw 2 lc rgb '#2a9d8f'", avg);
	chart_series(&ch, 4, "1:2", "lines lw 2 dt 2 lc rgb '#264653'", "least-squares fit");
	chart_close(&ch);
}

void rep_plot_steady(struct plotter *p, const struct rep_db *db)
{
	size_t total = 0, n = 0;
	for (size_t i = 0; i < db->ncells; i++)
		total += db->cells[i]->steady.runs > 0 && db->cells[i]->steady.rounds > 0;
	for (size_t i = 0; i < db->ncells && n < PLOT_STEADY_MAX; i++) {
		const struct rep_cell *c = db->cells[i];
		if (!c->steady.runs || !c->steady.rounds || !(c->steady.bucket > 0))
			continue;
		char more[64] = "";
		if (++n == PLOT_STEADY_MAX && total > n)
			snprintf(more, sizeof(more), " (the last of %d charts; %zu runs in rounds)", PLOT_STEADY_MAX, total);
		one_chart(p, c, n, more);
	}
}
