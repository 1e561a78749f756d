/*
 * SPDX-License-Identifier: Apache-2.0
 * html.h - the page of `iobench report --plot` (report/charts/html.c):
 * the findings, the sections' tables and the charts plot.c drew, in one
 * DIR/index.html. Not thread-safe (writes DIR).
 */
#ifndef IOBENCH_REPORT_CHARTS_HTML_H
#define IOBENCH_REPORT_CHARTS_HTML_H

#include <stddef.h>

#include "report/sections/analyze.h"
#include "report/store/db.h"

/*
 * Write DIR/index.html (through a temp file and rename): the findings (the
 * summary table's rows, each linked to its evidence's section) with the cost
 * and compare charts; then a block per section with rows or charts, its
 * table beside (or over) its charts of names[0..ncharts), per-host tables
 * and sections of many charts folded in <details>; the method last (what was
 * read, how runs group and merge, the fleet's failed hosts). Each chart is
 * DIR/NAME.svg inline (an <img> of NAME.png when it is missing).
 * Returns 0 or -errno.
 */
int rep_html(const struct rep_db *db, const struct table tables[SEC_COUNT], const char *dir,
	     const char *const *names, const char *const *titles, size_t ncharts);

#endif
