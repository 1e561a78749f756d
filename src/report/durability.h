/*
 * durability.h - `iobench durability verify` lines in the report (private to
 * src/report/): one verdict per verification, shown in the section
 * "durabilityVerify" (a row of the section table in analyze.c).
 *
 * read.c hands every JSON document with "mode": "durability" here instead
 * of treating it as a run; the verdicts live in the struct rep_db's verdict
 * list (read.c frees and filters them with the cells). Not thread-safe (one
 * rep_db, one thread).
 */
#ifndef IOBENCH_REPORT_DURABILITY_H
#define IOBENCH_REPORT_DURABILITY_H

#include <jansson.h>
#include <stdbool.h>

#include "report/db.h"
#include "report/table.h"

/* One verification: who, which run, what it found. Missing numbers are NAN. */
struct rep_verdict {
	char *host, *labels, *target, *op, *run; /* labels as "k=v,k=v", sorted by key */
	double writers, writers_cut;
	double acknowledged, intact, newer, torn, lost, never_acknowledged;
	double launch;
};

/* True for a verify line ("mode": "durability"). */
bool rep_dur_is_line(const json_t *root);

/*
 * Add the verdict of a verify line to db (host from the line, else
 * fallback_host). False, adding nothing, when the line lacks the
 * "durability" object or its acknowledged/lost counts: the caller says so.
 */
bool rep_dur_add(struct rep_db *db, const json_t *root, const char *fallback_host);

/* Free one verdict's strings (not the verdict itself). */
void rep_dur_verdict_free(struct rep_verdict *v);

/* The section's columns, and its rows: one per verdict, by host, labels, target, time. */
#define REP_DUR_NCOLS 14
extern const struct tcol rep_dur_cols[REP_DUR_NCOLS];
void rep_dur_build(struct table *t, const struct rep_db *db);

#endif
