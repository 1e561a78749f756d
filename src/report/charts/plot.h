/*
 * SPDX-License-Identifier: Apache-2.0
 * plot.h - gnuplot charts of a report.
 *
 * Writes, into DIR, one NAME.gp script per chart with its NAME.dat data
 * (gnuplot blocks separated by two blank lines, one block a line of the
 * chart) and runs gnuplot there to render NAME.png and NAME.svg. Charts:
 *   latency-N    latency histogram, log x, one line per config or host
 *   time-N       throughput over time per host; timenorm-N over each host's median
 *   heat-N       latency heat map beside time-N (report/charts/plot_heat.h); watchheat-N beside watch-N
 *   threads      a panel per op: ops/s, and p50/p95/p99, by thread count, a line per config
 *   apples-N     hosts per throughput level (log scale), per group of 3 hosts or more
 *   instances-N  per-instance p50/p90/p99/p99.9 sorted best to worst
 *   sizes-N      p50 and ops/s over a file-size sweep, tier boundaries marked
 *   watch-N      iobench watch: p50 and p99 per period per host
 *   cost         a panel per op: a bar per config at its optimum, ops (or MB) per $ (--prices),
 *                with the 95% interval of its median host (rep_group_interval); doubted: grey
 *   compare      B/A per op and metric with its 95% interval, 1x marked, throughput over
 *                latency, coloured by which side is better, a legend saying so
 *   steady-N     a run in rounds: rounds' ops/s, the window, its average +-10%, the fit (plot_steady.c)
 * Each chart is drawn for the width the page shows it (plot_chart.h: CHART_W, CHART_FONT):
 * index.html never shows it narrower, so its text is never under CHART_FONT px.
 * Scripts name their data files relatively, so DIR can be moved. gnuplot's
 * own messages are appended to DIR/gnuplot.log. DIR/index.html holds the
 * findings, every table with rows and every chart (its SVG inline) on one page.
 */
#ifndef IOBENCH_REPORT_PLOT_H
#define IOBENCH_REPORT_PLOT_H

#include "report/sections/analyze.h"
#include "report/store/db.h"

/*
 * 0 when gnuplot is an executable file in a folder of PATH, else -ENOENT.
 * The caller asks before reading anything: --plot without gnuplot is said
 * in one line, not after the work.
 */
int rep_plot_check(void);

/*
 * Write the charts. What fails (cannot create DIR, gnuplot missing or
 * failing, a file not written) is said through db->warn, and the result is
 * -1; 0 when every chart rendered. *charts: how many charts
 * DIR/index.html shows once it is written, else SIZE_MAX.
 */
int rep_plot(const struct rep_db *db, const struct rep_opts *o,
	     const struct table tables[SEC_COUNT], const char *dir, size_t *charts);

#endif
