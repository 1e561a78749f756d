/* report/warn.c - the report's warnings, counted and handed to the command layer's function. */
#include "report/db.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void rep_vwarn(struct rep_db *db, const char *fmt, va_list ap)
{
	db->warnings++;
	if (!db->warn)
		return;
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	db->warn(db->warn_arg, msg ? msg : "out of memory for a warning");
	free(msg);
}

void rep_warn(struct rep_db *db, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rep_vwarn(db, fmt, ap);
	va_end(ap);
}
