/*
 * SPDX-License-Identifier: Apache-2.0
 * junit.h - the report's verdicts as JUnit XML (report/render/junit.c), the
 * format CI systems read.
 */
#ifndef IOBENCH_REPORT_JUNIT_H
#define IOBENCH_REPORT_JUNIT_H

#include "report/render/table.h"

/*
 * Write to path (replaced whole, through a temp file beside it) a
 * <testsuites> with a <testsuite name="baseline"> of one <testcase> per row
 * of the baseline table (a <failure> for each regression, <skipped> for a
 * cell gone from the results) and a <testsuite name="expect"> of one per
 * row of the expect table (a <failure> for each FAIL); a NULL table is left
 * out. Text from result files is cleaned (control characters and bad UTF-8
 * as '?') and escaped. Returns 0 or -errno.
 */
int rep_junit_write(const char *path, const struct table *baseline, const struct table *expect);

#endif
