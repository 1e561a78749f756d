/*
 * report_durability.h - `iobench durability verify` lines in the report: one
 * verdict row per verification (section "durabilityVerify").
 *
 * The reader hands every JSON document with "mode": "durability" here
 * instead of treating it as a run; the rows are kept in the struct rep_db's
 * verdict list and freed with it. Not thread-safe (one rep_db, one thread).
 */
#ifndef IOBENCH_REPORT_DURABILITY_H
#define IOBENCH_REPORT_DURABILITY_H

#include <stdbool.h>

#include "report.h"
#include "report_table.h"

/* One verification: who, which run, what it found. */
struct rep_verdict {
	char *host, *labels, *target, *op, *run;
	double writers, writers_cut;
	double acknowledged, intact, newer, torn, lost, never_acknowledged;
	double launch;
};

/* True for a verify line ("mode": "durability"). */
bool rep_dur_is_line(const void *json_root);

/* Add one; false (with a warning on db->diag) when it lacks the "durability" counts. */
bool rep_dur_add(struct rep_db *db, const void *json_root, const char *where, const char *fallback_host);

/* Keep the verdicts whose host or label KEY matches the fnmatch(3) pattern (as rep_db_filter). */
void rep_dur_filter(struct rep_db *db, const char *key, const char *pattern);

void rep_dur_free(struct rep_db *db);

/* table_init the section's table (always) and fill it when want. */
void rep_dur_table(struct table *t, const struct rep_db *db, bool want);

#endif
