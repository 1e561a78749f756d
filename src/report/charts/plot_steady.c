/* report/charts/plot_steady.c - the SNIA PTS chart: rounds' ops/s, the window, its average, +-10% and the fitted line. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot_steady.h"

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

/* Block of the two ends of the window: x, then the columns f gives at each. */
static void ends(FILE *dat, const struct plot_kit *kit, const struct rep_steady *s, const char *what, int which)
{
	fprintf(dat, "# %s\n", what);
	unsigned x[2] = { s->first, s->last };
	for (int e = 0; e < 2; e++) {
		double avg = s->steady_ops, fit = s->intercept + s->slope * (double)(x[e] - s->first);
		fprintf(dat, "%u ", x[e]);
		if (which == 0) {
			kit->num(dat, avg);
		} else if (which == 1) {
			kit->num(dat, avg * (1 - STEADY_MAX_SLOPE_PCT / 100));
			fputc(' ', dat);
			kit->num(dat, avg * (1 + STEADY_MAX_SLOPE_PCT / 100));
		} else {
			kit->num(dat, fit);
		}
		fputc('\n', dat);
	}
	fputs("\n\n", dat);
}

static void one_chart(const struct plot_kit *kit, const struct rep_cell *c, size_t n,
		      const char *more)
{
	const struct rep_steady *s = &c->steady;
	char name[32], what[400], head[700], title[900];
	snprintf(name, sizeof(name), "steady-%zu", n);
	FILE *dat = kit->open(kit->p, name, "dat"), *gp = kit->open(kit->p, name, "gp");
	if (!dat || !gp) {
		kit->close_pair(kit->p, dat, gp);
		return;
	}
	kit->describe(what, sizeof(what), c, true, false);
	if (s->round)
		snprintf(head, sizeof(head), "Steady state (SNIA PTS): %s, host %s: attained at round %u of %u%s", what,
			 c->host, s->round, s->rounds, more);
	else
		snprintf(head, sizeof(head), "Steady state (SNIA PTS): %s, host %s: not attained in %u rounds%s", what,
			 c->host, s->rounds, more);
	kit->title(title, sizeof(title), kit->p, head, s->launch);
	char xlabel[64];
	snprintf(xlabel, sizeof(xlabel), "round (%g s each)", s->bucket);
	kit->head(gp, name, title, xlabel, "ops/s");
	/* below the plot: the burst rounds are at its top left */
	fputs("set key below horizontal maxcols 3\n", gp);
	fprintf(gp, "set xrange [0.5:%g]\nset yrange [0:*]\nset xtics 1\n", s->rounds + 0.5);
	/* blocks: 0 every round, 1 the window's rounds, 2 its average, 3 the band, 4 the fitted line */
	fputs("# every round\n# round ops_per_sec\n", dat);
	for (unsigned k = 1; k <= s->rounds; k++) {
		fprintf(dat, "%u ", k);
		kit->num(dat, round_ops(c, k));
		fputc('\n', dat);
	}
	fputs("\n\n# the window's rounds\n", dat);
	for (unsigned k = s->first; k <= s->last; k++) {
		fprintf(dat, "%u ", k);
		kit->num(dat, round_ops(c, k));
		fputc('\n', dat);
	}
	fputs("\n\n", dat);
	ends(dat, kit, s, "the window's average", 0);
	ends(dat, kit, s, "its band: average -10% and +10%", 1);
	ends(dat, kit, s, "the least-squares line over the window", 2);
	char avg[64];
	snprintf(avg, sizeof(avg), "window average %.0f ops/s", s->steady_ops);
	fprintf(gp, "plot '%s.dat' index 3 using 1:2:3 with filledcurves fs transparent solid 0.15 lc rgb '#2a9d8f' "
		    "title 'average +-10%%', \\\n", name);
	fputs("     '' index 0 using 1:2 with linespoints lw 1 pt 7 ps 0.8 lc rgb '#777777' title 'ops/s per round', \\\n"
	      "     '' index 1 using 1:2 with points pt 7 ps 1.4 lc rgb '#e76f51' title 'the window', \\\n", gp);
	fprintf(gp, "     '' index 2 using 1:2 with lines lw 2 lc rgb '#2a9d8f' title '%s', \\\n", avg);
	fputs("     '' index 4 using 1:2 with lines lw 2 dt 2 lc rgb '#264653' title 'least-squares fit'\n", gp);
	kit->end(kit->p, dat, gp, name, title);
}

void rep_plot_steady(const struct plot_kit *kit, const struct rep_db *db)
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
		one_chart(kit, c, n, more);
	}
}
