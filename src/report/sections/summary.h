/*
 * SPDX-License-Identifier: Apache-2.0
 * summary.h - the answers first (summary.c; its section is rep_sec_summary).
 */
#ifndef IOBENCH_REPORT_SUMMARY_H
#define IOBENCH_REPORT_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "report/render/table.h"
#include "report/sections/analyze.h"

/*
 * The summary table as text: a finding a line (wrapped within width
 * columns, at most 100; 0 for 100), its evidence's section in brackets,
 * the thread optima as a config x op matrix.
 */
void rep_summary_print_text(const struct table *t, FILE *out, size_t width);

/*
 * summary.c reads other sections' tables: rep_summary_needs marks in want[]
 * the sections it reads, and the summary is built after them.
 */
void rep_summary_needs(bool want[SEC_COUNT]);

#endif
