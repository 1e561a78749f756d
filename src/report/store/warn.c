/* report/store/warn.c - the report's warnings, counted and handed to the command layer's function. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/warn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void vsay(rep_warn_fn *warn, void *arg, const char *fmt, va_list ap)
{
	if (!warn)
		return;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	warn(arg, msg ? msg : "out of memory for a warning");
	free(msg);
}

void rep_say(rep_warn_fn *warn, void *arg, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(warn, arg, fmt, ap);
	va_end(ap);
}

void rep_vwarn(struct rep_db *db, const char *fmt, va_list ap)
{
	db->warnings++;
	vsay(db->warn, db->warn_arg, fmt, ap);
}

void rep_warn(struct rep_db *db, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rep_vwarn(db, fmt, ap);
	va_end(ap);
}
