/*
 * SPDX-License-Identifier: Apache-2.0
 * verdict.h - `iobench durability verify` lines in the store
 * (report/store/verdict.c): one verdict per verification, in the struct
 * rep_db's verdict list, which db.c frees and filters with the cells. The
 * section durabilityVerify (report/sections/durability.c) shows them.
 *
 * rep_line_add() hands every line with "mode": "durability" here instead
 * of treating it as a run. Not thread-safe (one rep_db, one thread).
 */
#ifndef IOBENCH_REPORT_STORE_VERDICT_H
#define IOBENCH_REPORT_STORE_VERDICT_H

#include <jansson.h>
#include <stdbool.h>

#include "report/store/model.h"

/* One verification: who, which run, what it found. Missing numbers are NAN. */
struct rep_verdict {
	char *host, *labels, *target, *op, *run; /* labels as "k=v,k=v", sorted by key */
	double writers, writers_cut;
	double acknowledged, intact, newer, torn, lost, never_acknowledged;
	double launch;
};


/*
 * Add the verdict of a verify line to db (host from the line, else
 * fallback_host). False, adding nothing, when the line lacks the
 * "durability" object or its acknowledged/lost counts: the caller says so.
 */
bool rep_dur_add(struct rep_db *db, const json_t *root, const char *fallback_host);

/* Free one verdict's strings (not the verdict itself). */
void rep_dur_verdict_free(struct rep_verdict *v);

#endif
