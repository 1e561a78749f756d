/*
 * SPDX-License-Identifier: Apache-2.0
 * plot_heat.h - latency heat maps of `iobench report --plot` (report/charts/plot_heat.c).
 *
 * plot.c draws a heat map beside each throughput-over-time chart (time-N:
 * heat-N) and each watch chart (watch-N: watchheat-N), on the chart
 * skeleton (report/plot_chart.h) as its own charts.
 */
#ifndef IOBENCH_REPORT_PLOT_HEAT_H
#define IOBENCH_REPORT_PLOT_HEAT_H

#include <stddef.h>

#include "report/sections/groups.h"

struct plotter; /* report/plot_chart.h: the charts of one --plot */

/*
 * The latency heat map of fleet group g, chart number chart: time on x
 * (each host from its first bucket; watch: hours from the first period),
 * the latency bins on a log y axis, operations per bin as colour on a log
 * scale said beside it, and the p50 and p99 of each column over it; the
 * hosts' histograms merged exactly at the same time offset. Nothing when
 * its cells kept no heat (db->keep_heat) or have under two buckets.
 */
void rep_plot_heat(struct plotter *p, const struct rep_group *g, size_t chart);

#endif
