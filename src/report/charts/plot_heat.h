/*
 * SPDX-License-Identifier: Apache-2.0
 * plot_heat.h - latency heat maps of `iobench report --plot` (report/charts/plot_heat.c).
 *
 * plot.c draws a heat map beside each throughput-over-time chart (time-N:
 * heat-N) and each watch chart (watch-N: watchheat-N), handing over its own
 * chart helpers in a struct plot_kit: plot_heat.c calls plot.c only
 * through them, so the two files call each other round no loop.
 */
#ifndef IOBENCH_REPORT_PLOT_HEAT_H
#define IOBENCH_REPORT_PLOT_HEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/sections/analyze.h"

struct plotter; /* plot.c's: the folder, the charts written, what every title names */

/* plot.c's chart helpers, as plot.c's charts use them. */
struct plot_kit {
	struct plotter *p;
	/* DIR/NAME.EXT opened for writing (never through a link), or NULL (said) */
	FILE *(*open)(struct plotter *p, const char *name, const char *ext);
	/* both closed, a write error said; the chart is then not drawn */
	void (*close_pair)(struct plotter *p, FILE *dat, FILE *gp);
	/* the script's SVG lines written, both closed, the chart listed for rendering and the page */
	void (*end)(struct plotter *p, FILE *dat, FILE *gp, const char *name, const char *title);
	/* the script's head: the PNG terminal and output, title, axis labels, grid */
	void (*head)(FILE *f, const char *name, const char *title, const char *xlabel, const char *ylabel);
	/* "WHAT\nrun r1, 2026-11-21" */
	void (*title)(char *buf, size_t len, const struct plotter *p, const char *what, double launch);
	/* "read4k, 8 threads, m5.large / gp3 x4, size 1G" */
	void (*describe)(char *buf, size_t len, const struct rep_cell *c, bool with_threads, bool with_size);
	/* a number for a .dat file: 4 significant digits, NaN */
	void (*num)(FILE *f, double v);
};

/*
 * The latency heat map of fleet group g, chart number chart: time on x
 * (each host from its first bucket; watch: hours from the first period),
 * the latency bins on a log y axis, operations per bin as colour on a log
 * scale said beside it, and the p50 and p99 of each column over it; the
 * hosts' histograms merged exactly at the same time offset. Nothing when
 * its cells kept no heat (db->keep_heat) or have under two buckets.
 */
void rep_plot_heat(const struct plot_kit *k, const struct rep_group *g, size_t chart);

#endif
