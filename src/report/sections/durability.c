/* report/sections/durability.c - the section durabilityVerify: a row per `iobench durability verify` verdict. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/verdict.h"

static const struct tcol rep_dur_cols[] = {
	{ "host", "host", TC_STR, 0 },
	{ "labels", "labels", TC_STR, 0 },
	{ "target", "target", TC_STR, 0 },
	{ "op", "op", TC_STR, 0 },
	{ "writers", "writers", TC_INT, 0 },
	{ "writersCut", "cut off", TC_INT, 0 },
	{ "acknowledged", "acknowledged", TC_INT, 0 },
	{ "intact", "intact", TC_INT, 0 },
	{ "newer", "newer", TC_INT, 0 },
	{ "torn", "torn", TC_INT, 0 },
	{ "lost", "LOST", TC_INT, 0 },
	{ "neverAcknowledged", "unacked", TC_INT, 0 },
	{ "run", "run", TC_STR, 0 },
	{ "verdict", "verdict", TC_STR, 0 },
};

static int cmp_verdict(const void *a, const void *b)
{
	const struct rep_verdict *x = a, *y = b;
	int c = strcmp(x->host, y->host);
	if (!c)
		c = strcmp(x->labels, y->labels);
	if (!c)
		c = strcmp(x->target, y->target);
	return c ? c : (x->launch > y->launch) - (x->launch < y->launch);
}

/* The section's rows: one per verdict, by host, labels, target, time. */
static void build_dur_verify(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_DUR_VERIFY];
	const struct rep_db *db = ctx->db;
	if (db->nverdicts == 0)
		return;
	struct rep_verdict *v = rep_calloc(db->nverdicts, sizeof(*v));
	memcpy(v, db->verdicts, db->nverdicts * sizeof(*v));
	qsort(v, db->nverdicts, sizeof(*v), cmp_verdict);
	for (size_t i = 0; i < db->nverdicts; i++)
		table_row(t, v[i].host, v[i].labels, v[i].target, v[i].op, v[i].writers, v[i].writers_cut,
			  v[i].acknowledged, v[i].intact, v[i].newer, v[i].torn, v[i].lost,
			  v[i].never_acknowledged, v[i].run, v[i].lost > 0 ? "LOST" : "ok");
	free(v);
}

const struct rep_section_def rep_sec_durabilityVerify = {
	.name = "durabilityVerify",
	.title = "Durability after a power cut (iobench durability verify)",
	.help = "iobench durability verify lines: acknowledged blocks\n"
		"intact or LOST after a power cut, a row per verification",
	SECTION_COLS(rep_dur_cols),
	.build = build_dur_verify,
};
