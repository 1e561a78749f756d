/* report/steady.c - runs in rounds: steady state attained (at round k of n) or not, and the burst before it. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/alloc.h"
#include "report/section.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct tcol rep_steady_cols[] = {
	{ "host", "host", TC_STR, 0 },
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "attained", "steady", TC_BOOL, 0 },
	{ "round", "at round", TC_INT, 0 },
	{ "rounds", "of", TC_INT, 0 },
	{ "roundSeconds", "round s", TC_NUM, 0 },
	{ "opsPerSec", "steady ops/s", TC_NUM, 0 },
	{ "firstOpsPerSec", "round 1", TC_NUM, 0 },
	{ "burstRounds", "burst rounds", TC_INT, 0 },
	{ "burstOpsPerSec", "burst ops/s", TC_NUM, 0 },
	{ "rangePct", "range %", TC_NUM, 1 },
	{ "slopePct", "slope %", TC_NUM, 1 },
	{ "runs", NULL, TC_INT, 0 },
	{ "finding", "finding", TC_STR, 0 },
};

static void rep_build_steady(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_STEADY];
	const struct rep_db *db = ctx->db;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		const struct rep_steady *s = &c->steady;
		if (!s->runs)
			continue;
		double burst;
		size_t nburst = rep_cell_burst(c, &burst);
		char finding[200], v[32], b[32], len[32];
		table_format_prose(v, sizeof(v), s->steady_ops);
		if (s->round)
			snprintf(finding, sizeof(finding), "steady at round %u of %u: %s ops/s", s->round, s->rounds, v);
		else
			snprintf(finding, sizeof(finding), "not attained in %u rounds: last window %s ops/s, ranked marked",
				 s->rounds, v);
		if (nburst) {
			table_format_prose(b, sizeof(b), burst);
			snprintf(len, sizeof(len), "%g s", (double)nburst * s->bucket);
			size_t n = strlen(finding);
			snprintf(finding + n, sizeof(finding) - n, "; a burst of %s ops/s for %s first", b, len);
		}
		table_row(t, c->host, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, s->round ? 1.0 : 0.0,
			  s->round ? (double)s->round : NAN, (double)s->rounds, s->bucket, s->steady_ops, s->first_ops,
			  (double)nburst, nburst ? burst : NAN, s->range_pct, s->slope_pct, (double)s->runs, finding);
	}
	if (t->nrows)
		table_note(t, "A run in rounds (iobench run --steady) is steady when the ops/s of its last %s rounds lie within "
			      "20%% of their average and their least-squares line moves within 10%% of it (SNIA PTS); "
			      "its figure everywhere in this report is that window's, or the last window's when it never "
			      "settled (marked where it is ranked).",
			   "window of");
}

const struct rep_section_def rep_sec_steady = {
	.name = "steady",
	.title = "Steady state (runs in rounds, SNIA PTS: range within 20%, slope within 10%)",
	.help = "runs in rounds (run --steady) per host and op: steady state attained\n"
		"at round k of n or not, the steady figure, the first round's and the\n"
		"burst before it",
	SECTION_COLS(rep_steady_cols),
	.build = rep_build_steady,
};
