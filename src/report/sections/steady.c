/* report/sections/steady.c - runs in rounds: steady state attained (at round k of n) or not, and the burst before it. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/steady.h"
#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/sections/section.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct tcol rep_steady_cols[] = {
	{ "host", "host", TC_STR, 0 },
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "attained", "steady", TC_BOOL, 0 },
	{ "round", "at round", TC_INT, 0 },
	{ "rounds", "of", TC_INT, 0 },
	{ "roundSeconds", "round s", TC_NUM, 1 },
	{ "opsPerSec", "steady ops/s", TC_NUM, 0 },
	{ "firstOpsPerSec", "round 1", TC_NUM, 0 },
	{ "burstRounds", "burst rounds", TC_INT, 0 },
	{ "burstOpsPerSec", "burst ops/s", TC_NUM, 0 },
	{ "rangePct", "range %", TC_NUM, 1 },
	{ "slopePct", "slope %", TC_NUM, 1 },
	{ "runs", NULL, TC_INT, 0 },
	{ "series", NULL, TC_STR, 0 },       /* what was judged: "ops/s" (runs in rounds), "p99" (watch periods) */
	{ "p99Ns", "steady p99", TC_NS, 0 }, /* watch: the steady window's mean p99 */
	{ "leftAt", "left at", TC_INT, 0 },  /* watch: the period that left the steady state */
	{ "leftAtUtc", NULL, TC_STR, 0 },
	{ "leftP99Ns", "then p99", TC_NS, 0 },
	{ "finding", "finding", TC_STR, 0 },
};

/*
 * A watch series: its periods are rounds, judged on their p99 (a probe's
 * ops/s is its --interval's). A row when it has a window of periods: where
 * it attained steady state, and where it left it, if it did.
 */
static void watch_row(struct table *t, const struct rep_cell *c)
{
	size_t n = c->npts, w = STEADY_DEFAULT_WINDOW;
	if (n < w)
		return;
	double *y = rep_calloc(n, sizeof(*y));
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		if (!isnan(c->pts[k].p99))
			y[m++] = c->pts[k].p99;
	size_t at = 0, left = 0;
	double avg = NAN;
	struct steady_fit fit = { 0 };
	if (m >= w) {
		left = steady_left(y, m, w, &at, &avg);
		if (at)
			steady_judge(y + at - w, w, &fit);
	}
	double period = n > 1 ? (c->pts[n - 1].t - c->pts[0].t) / (double)(n - 1) : NAN;
	char finding[240], p99[32], then[32], when[32] = "";
	units_format_ns(p99, sizeof(p99), avg);
	if (!at)
		snprintf(finding, sizeof(finding), "p99 never steady over %zu periods", m);
	else if (!left)
		snprintf(finding, sizeof(finding), "p99 steady at %s from period %zu of %zu, and stayed", p99, at, m);
	else {
		units_format_ns(then, sizeof(then), y[left - 1]);
		/* the points are in time order: the left-th one with a p99 */
		for (size_t k = 0, seen = 0; k < n; k++)
			if (!isnan(c->pts[k].p99) && ++seen == left)
				rep_utc_of(c->pts[k].t, when, sizeof(when));
		snprintf(finding, sizeof(finding), "p99 steady at %s from period %zu, left it at period %zu of %zu%s%s: %s",
			 p99, at, left, m, when[0] ? ", " : "", when, then);
	}
	table_row(t, c->host, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, at ? 1.0 : 0.0,
		  at ? (double)at : NAN, (double)m, period, NAN, NAN, NAN, NAN, at ? fit.range_pct : NAN,
		  at ? fit.slope_pct : NAN, (double)c->runs, "p99", at ? avg : NAN, left ? (double)left : NAN,
		  when[0] ? when : NULL, left ? y[left - 1] : NAN, finding);
	free(y);
}

static void rep_build_steady(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_STEADY];
	const struct rep_db *db = ctx->db;
	size_t rounds = 0, watch = 0;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		const struct rep_steady *s = &c->steady;
		if (c->watch) {
			size_t before = t->nrows;
			watch_row(t, c);
			watch += t->nrows - before;
		}
		if (!s->runs)
			continue;
		rounds++;
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
			  (double)nburst, nburst ? burst : NAN, s->range_pct, s->slope_pct, (double)s->runs, "ops/s", NAN,
			  NAN, NULL, NAN, finding);
	}
	if (rounds)
		table_note(t, "A run in rounds (iobench run --steady) is steady when the ops/s of its last %s rounds lie within "
			      "20%% of their average and their least-squares line moves within 10%% of it (SNIA PTS); "
			      "its figure everywhere in this report is that window's, or the last window's when it never "
			      "settled (marked where it is ranked).",
			   "window of");
	if (watch)
		table_note(t, "A watch series' periods are rounds too, judged on their p99 over windows of %d periods; it "
			      "left the steady state it reached at the first period off that window's average by more "
			      "than 20%% whose own window is no longer steady, with most of the %d periods from it off "
			      "too (a lone spike is no leaving).", STEADY_DEFAULT_WINDOW, STEADY_DEFAULT_WINDOW);
}

const struct rep_section_def rep_sec_steady = {
	.name = "steady",
	.title = "Steady state (runs in rounds, SNIA PTS: range within 20%, slope within 10%)",
	.help = "runs in rounds (run --steady) per host and op: steady state attained\n"
		"at round k of n or not, the steady figure, the first round's and the\n"
		"burst before it; watch series (periods as rounds, on p99): where they\n"
		"reached steady state and where they left it",
	SECTION_COLS(rep_steady_cols),
	.build = rep_build_steady,
};
