/*
 * SPDX-License-Identifier: Apache-2.0
 * warn.h - the report's warnings (report/store/warn.c): counted in the store and
 * handed, formatted, to the command layer's function (rep_warn_fn, db.h),
 * which says them as "iobench: ..."; the report never prints. Not
 * thread-safe: the store's thread (readers keep theirs in struct rep_line).
 */
#ifndef IOBENCH_REPORT_STORE_WARN_H
#define IOBENCH_REPORT_STORE_WARN_H

#include <stdarg.h>

#include "report/store/model.h"

/* Count a warning and hand it, formatted, to db->warn (if any). */
__attribute__((format(printf, 2, 3))) void rep_warn(struct rep_db *db, const char *fmt, ...);
__attribute__((format(printf, 2, 0))) void rep_vwarn(struct rep_db *db, const char *fmt, va_list ap);

/* The same without a store to count in (warn may be NULL: nothing is said). */
__attribute__((format(printf, 3, 4))) void rep_say(rep_warn_fn *warn, void *arg, const char *fmt, ...);

#endif
