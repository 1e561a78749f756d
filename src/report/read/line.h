/*
 * SPDX-License-Identifier: Apache-2.0
 * line.h - one document of a results file, read into what it will add to
 * the store (report/read/line.c): a struct rep_line (report/store/add.h),
 * which rep_line_add() adds on the store's thread.
 *
 * Reading a line is the costly part and touches nothing shared:
 * rep_line_read() may run on any thread, many at once.
 */
#ifndef IOBENCH_REPORT_READ_LINE_H
#define IOBENCH_REPORT_READ_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/base/json.h"
#include "report/store/add.h"

/*
 * The durations a run line may say ("elapsed", else "runtime"), seconds:
 * a microsecond (one operation) to about 31 years. Outside, its counts
 * would divide into inf or 0 ops/s: the line is skipped, said.
 */
#define REP_MIN_SECONDS 1e-6

/*
 * A device's time buckets kept per line, at most: a longer series is
 * folded, dev_fold consecutive buckets summed into one (reads, writes,
 * seconds; awaits weighted by what completed, busy by the seconds), so a
 * line of 64 devices x 100k buckets keeps 64 x 1024, not 6.4M.
 */
#define REP_DEVICE_POINTS 1024
#define REP_MAX_SECONDS 1e9

/*
 * Read the document text[0..len) into *l (zeroed first). doc is the
 * caller's (one per thread); fallback_host names the host of a line that
 * has none; layout_labels (NULL none) are the labels a 2012 archive's
 * layout gives the 2012 tool's lines that carry none; explicit_file: the
 * file was named (a non-result line in it is reported, not passed over);
 * heat: keep each time bucket's histogram, binned, for the heat maps
 * (report --plot; db->keep_heat). Thread-safe for different docs and lines.
 */
void rep_line_read(struct rep_line *l, struct jv_doc *doc, const char *text, size_t len,
		   const char *fallback_host, const char *layout_labels, bool explicit_file, bool heat);

#endif
