/*
 * SPDX-License-Identifier: Apache-2.0
 * plot_steady.h - the SNIA PTS steady-state chart of `iobench report --plot`,
 * drawn on the chart skeleton (report/plot_chart.h) as plot.c's charts.
 */
#ifndef IOBENCH_REPORT_PLOT_STEADY_H
#define IOBENCH_REPORT_PLOT_STEADY_H

#include "report/store/db.h"

struct plotter; /* report/charts/plot_chart.h: the charts of one --plot */

/* At most this many steady charts (the first cells in the report's order); the rest are said in the last title. */
#define PLOT_STEADY_MAX 24

/*
 * steady-N: per cell with runs in rounds (its last such run), the rounds'
 * ops/s, the window marked, its average, the band of +-10% around it and
 * the least-squares line through it, as the PTS report draws them.
 */
void rep_plot_steady(struct plotter *p, const struct rep_db *db);

#endif
