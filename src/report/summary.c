/* report/summary.c - the report's answers, one finding a row, drawn from the other sections. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "section.h"

/*
 * topic: what a reader scans for (an op as typed, "hosts", "threads",
 * "tiers", "durability", "left out"); kind: the finding's machine name;
 * finding: the sentence; section: where its evidence is.
 */
const struct tcol rep_summary_cols[] = {
	{ "topic", "", TC_STR, 0 },
	{ "kind", NULL, TC_STR, 0 },
	{ "op", NULL, TC_STR, 0 },
	{ "config", NULL, TC_STR, 0 },
	{ "value", NULL, TC_NUM, 6 },
	{ "low", NULL, TC_NUM, 6 },
	{ "high", NULL, TC_NUM, 6 },
	{ "threads", NULL, TC_INT, 0 },
	{ "finding", "finding", TC_STR, 0 },
	{ "section", "see", TC_STR, 0 },
};
const size_t rep_summary_ncols = sizeof(rep_summary_cols) / sizeof(rep_summary_cols[0]);

void rep_summary_needs(bool want[SEC_COUNT])
{
	static const enum rep_section needs[] = { SEC_FLEET, SEC_TARGETS,  SEC_INSTANCES,  SEC_BAD_APPLES,
						  SEC_THREADS, SEC_COMPARE, SEC_TIERS, SEC_DURABILITY,
						  SEC_COST, SEC_DUR_VERIFY };
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		want[needs[i]] = true;
}

void rep_build_summary(struct table *tables, const struct rep_ctx *ctx)
{
	(void)tables;
	(void)ctx;
}
