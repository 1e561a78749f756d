/* report/charts/plot_heat.c - latency heat maps: time x, log latency y, operations as colour, p50/p99 over it. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot_heat.h"
#include "report/charts/plot_chart.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "report/base/alloc.h"

/* Columns of a map: past this, neighbouring time buckets share a column (an SVG of a few thousand cells). */
#define MAX_COLS 240
/* A map of fewer operations draws noise. */
#define MIN_OPS 20

/* The ratio of one bin: REP_HEAT_MERGE of the histogram's buckets. */
static double bin_ratio(void)
{
	return pow(HIST_RATIO, REP_HEAT_MERGE);
}

/* The lower bound in ns of bin b. */
static double bin_start(unsigned b)
{
	return HIST_PIN_MIN * pow(bin_ratio(), b);
}

/*
 * The value under which a fraction q of a column's operations fall: the bin
 * that holds it, interpolated geometrically inside it (as hist_percentile
 * does in a bucket); NAN for an empty column.
 */
static double column_pct(const uint64_t *col, unsigned nb, unsigned b0, uint64_t total, double q)
{
	if (total == 0)
		return NAN;
	double want = q * (double)total, cum = 0;
	for (unsigned b = 0; b < nb; b++) {
		if (col[b] == 0)
			continue;
		if (cum + (double)col[b] >= want) {
			double frac = ((want - cum) / (double)col[b]);
			return bin_start(b0 + b) * pow(bin_ratio(), frac);
		}
		cum += (double)col[b];
	}
	return bin_start(b0 + nb);
}

/* The smallest positive step between a cell's consecutive buckets, else their length; 0 none. */
static double cell_step(const struct rep_cell *c)
{
	double step = 0;
	for (size_t i = 1; i < c->nheat; i++) {
		double d = c->heat[i].t - c->heat[i - 1].t;
		if (d > 0 && (step == 0 || d < step))
			step = d;
	}
	if (step == 0 && c->nheat)
		step = c->heat[0].seconds;
	return step;
}

/*
 * The map's grid: columns of *step seconds from each host's first bucket
 * (watch: from the first period of all), bins b0..b0+*nb; every host's
 * operations added in exactly. The grid (column-major, calloc'd), or NULL
 * when there is nothing worth a map: no host of two buckets (watch: one),
 * or under MIN_OPS operations.
 */
static uint64_t *heat_grid(const struct rep_group *g, bool watch, double *step, size_t *ncols, unsigned *b0,
			   unsigned *nb, size_t *hosts)
{
	double span = 0, t0 = INFINITY;
	unsigned b1 = 0;
	uint64_t ops = 0;
	*step = 0;
	*b0 = REP_HEAT_BINS;
	*hosts = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct rep_cell *c = g->cells[i];
		if (c->nheat < (watch ? 1u : 2u))
			continue;
		(*hosts)++;
		double s = cell_step(c);
		if (s > 0 && (*step == 0 || s < *step))
			*step = s;
		t0 = fmin(t0, c->heat[0].t);
		for (size_t j = 0; j < c->nheat; j++) {
			const struct rep_heat *h = &c->heat[j];
			if (h->n == 0)
				continue;
			*b0 = h->first < *b0 ? h->first : *b0;
			b1 = (unsigned)(h->first + h->n) > b1 ? (unsigned)(h->first + h->n) : b1;
			for (unsigned b = 0; b < h->n; b++)
				ops += c->hbins[h->off + b];
		}
	}
	if (*hosts == 0 || *step <= 0 || *b0 >= b1 || ops < MIN_OPS)
		return NULL;
	for (size_t i = 0; i < g->n; i++) {
		const struct rep_cell *c = g->cells[i];
		if (c->nheat >= (watch ? 1u : 2u))
			span = fmax(span, c->heat[c->nheat - 1].t - (watch ? t0 : c->heat[0].t));
	}
	*ncols = (size_t)floor(span / *step + 1e-9) + 1;
	if (*ncols > MAX_COLS) {
		*step *= ceil((double)*ncols / MAX_COLS);
		*ncols = (size_t)floor(span / *step + 1e-9) + 1;
	}
	*nb = b1 - *b0;
	uint64_t *grid = rep_calloc(*ncols * *nb + 1, sizeof(*grid));
	for (size_t i = 0; i < g->n; i++) {
		const struct rep_cell *c = g->cells[i];
		if (c->nheat < (watch ? 1u : 2u))
			continue;
		double from = watch ? t0 : c->heat[0].t;
		for (size_t j = 0; j < c->nheat; j++) {
			const struct rep_heat *h = &c->heat[j];
			size_t col = (size_t)floor((h->t - from) / *step + 1e-9);
			if (col >= *ncols)
				col = *ncols - 1;
			for (unsigned b = 0; b < h->n; b++)
				grid[col * *nb + h->first - *b0 + b] += c->hbins[h->off + b];
		}
	}
	return grid;
}

/* The latency axis over [ylo, yhi] (log10 of us): a tick a decade; 1, 2 and 5 a decade when it spans under three. */
static void heat_tics(struct chart *ch, double ylo, double yhi)
{
	static const char *const unit[] = { "us", "us", "us", "ms", "ms", "ms", "s", "s" };
	static const int mult[] = { 1, 2, 5 };
	fputs("set ytics (", ch->gp);
	bool fine = yhi - ylo < 3;
	for (int u = 0, first = 1; u < 8; u++)
		for (int m = 0; m < (fine ? 3 : 1); m++) {
			fprintf(ch->gp, "%s'%d%s' %.4f", first ? "" : ", ", mult[m] * (int)pow(10, u % 3), unit[u],
				u + log10(mult[m]));
			first = 0;
		}
	fputs(")\nset grid front lc rgb '#bbbbbb'\n", ch->gp);
}

/*
 * The data: block 0 the map (a row per column and bin: its middle in x
 * units, its bin's middle in log10 us, its operations, NaN for none), block
 * 1 each column's p50 and p99 from its bins.
 */
static void heat_data(struct chart *ch, const uint64_t *grid, size_t ncols, unsigned b0, unsigned nb, double step,
		      double xunit, double ylo, bool watch)
{
	char what[160];
	snprintf(what, sizeof(what), "%s: operations per time column and latency bin (bins of %.2fx, REP_HEAT_MERGE "
		 "histogram buckets)", ch->name, bin_ratio());
	chart_block(ch, what, watch ? "hours log10_us operations" : "seconds log10_us operations");
	double dy = log10(bin_ratio());
	for (size_t col = 0; col < ncols; col++) {
		for (unsigned b = 0; b < nb; b++) {
			uint64_t n = grid[col * nb + b];
			chart_row(ch, (const double[]){ ((double)col + 0.5) * step / xunit, ylo + ((double)b + 0.5) * dy,
							n ? (double)n : NAN }, 3);
		}
		fputc('\n', ch->dat);
	}
	fputc('\n', ch->dat);
	chart_block(ch, NULL, "seconds_or_hours log10_p50_us log10_p99_us");
	for (size_t col = 0; col < ncols; col++) {
		uint64_t total = 0;
		for (unsigned b = 0; b < nb; b++)
			total += grid[col * nb + b];
		if (total == 0)
			continue;
		double p50 = column_pct(&grid[col * nb], nb, b0, total, 0.5);
		double p99 = column_pct(&grid[col * nb], nb, b0, total, 0.99);
		chart_row(ch, (const double[]){ ((double)col + 0.5) * step / xunit, log10(p50 / 1e3), log10(p99 / 1e3) }, 3);
	}
}

void rep_plot_heat(struct plotter *p, const struct rep_group *g, size_t chart)
{
	bool watch = g->cells[0]->watch;
	double step;
	size_t ncols, hosts;
	unsigned b0, nb;
	uint64_t *grid = heat_grid(g, watch, &step, &ncols, &b0, &nb, &hosts);
	if (!grid)
		return;
	char name[64], head[600], what[400], more[80] = "";
	snprintf(name, sizeof(name), "%s-%zu", watch ? "watchheat" : "heat", chart);
	chart_describe(what, sizeof(what), g->cells[0], !watch, true);
	if (hosts > 1)
		snprintf(more, sizeof(more), ", %zu hosts merged", hosts);
	snprintf(head, sizeof(head), "Latency heat map: %s%s", what, more);
	/* watch periods span days: hours on the axis */
	double xunit = watch ? 3600 : 1;
	struct chart ch = { .title_max = 700 };
	if (!chart_open(&ch, p, name, head, g->cells[0]->launch,
			watch ? "hours since the first period" : "time since the host's first bucket (s)",
			"latency (log scale)")) {
		free(grid);
		return;
	}
	/* the map: one row per bin, log10 of microseconds on y, labelled as people read them */
	double ylo = log10(bin_start(b0) / 1e3), yhi = log10(bin_start(b0 + nb) / 1e3);
	fprintf(ch.gp, "set yrange [%.4f:%.4f]\nset xrange [%.6g:%.6g]\n", ylo, yhi, 0.0, (double)ncols * step / xunit);
	heat_tics(&ch, ylo, yhi);
	/* count as colour on a log scale, said by the colour box's label; empty bins stay white */
	/* gnuplot's SVG sets the box's label a few px past the canvas, the legend against the axis label */
	fputs("set logscale cb\nset cbrange [1:*]\nset cblabel 'operations in the bin (log scale)' offset -1,0\n"
	      "set colorbox\nset palette defined (0 '#fff7bc', 0.35 '#fec44f', 0.7 '#ec7014', 1 '#8c2d04')\n"
	      "set key below horizontal height 1\n", ch.gp);
	heat_data(&ch, grid, ncols, b0, nb, step, xunit, ylo, watch);
	chart_series(&ch, 0, "1:2:3", "image notitle", NULL);
	chart_series(&ch, 1, "1:2", "lines lw 2 lc rgb '#1f5fa8'", "p50");
	chart_series(&ch, 1, "1:3", "lines lw 2 dt 2 lc rgb '#111111'", "p99");
	chart_close(&ch);
	free(grid);
}
