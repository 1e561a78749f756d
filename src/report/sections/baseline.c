/*
 * SPDX-License-Identifier: Apache-2.0
 * report/sections/baseline.c - these results against a baseline (--baseline), cell
 * by cell, with a verdict a CI can act on.
 *
 * A cell is an op, thread count, configuration and size; its figure is the
 * one basis (report/sections/basis.h): the median host's ops/s over the hosts that
 * are not bad apples, on each side judged among its own hosts. The
 * baseline is A in every sentence: B/A below 1 is slower.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/sections/compare.h"
#include "report/sections/section.h"
#include "report/base/stats.h"
#include "report/store/config.h"

#define LEVEL 0.95
/* A one-host side's interval comes from its time buckets, when it has this many (as compare's). */
#define MIN_BUCKETS 5

/* What a narrow terminal keeps longest comes first: the cell, its verdict, the figures (table.c drops from the right). */
static const struct tcol rep_baseline_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "status", "cell", TC_STR, 0 },        /* paired, new, gone */
	{ "metric", "on", TC_STR, 0 },          /* what the verdict and B/A are of: ops/s; p99 for runs at one --rate */
	{ "verdict", "verdict", TC_STR, 0 },    /* faster, slower, no difference, new, gone, no figure */
	{ "opsPerSecA", "ops/s A", TC_NUM, 1 },
	{ "opsPerSecB", "ops/s B", TC_NUM, 1 },
	{ "ratio", "B/A", TC_NUM, 2 },          /* of the metric */
	{ "low", "95% low", TC_NUM, 2 },
	{ "high", "95% high", TC_NUM, 2 },
	{ "hostsA", "hosts A", TC_INT, 0 },
	{ "hostsB", "hosts B", TC_INT, 0 },
	{ "differs", "differs", TC_STR, 0 },    /* settings or run kind changed between the sides; "-" */
	{ "p50NsA", "p50 A", TC_NS, 0 },
	{ "p50NsB", "p50 B", TC_NS, 0 },
	{ "p99NsA", "p99 A", TC_NS, 0 },
	{ "p99NsB", "p99 B", TC_NS, 0 },
	{ "regression", "regression", TC_BOOL, 0 }, /* slower beyond the tolerance: the exit status says it */
	{ "detail", "detail", TC_STR, 0 },
};

/* Same op, threads, size, labels and facts; exact: the same settings and kind of runs too. */
static bool same_cell(const struct rep_cell *a, const struct rep_cell *b, bool exact)
{
	if (a->threads != b->threads || a->size != b->size || strcmp(a->sig, b->sig) != 0 ||
	    strcmp(a->cfg->labels, b->cfg->labels) != 0 || strcmp(a->cfg->facts, b->cfg->facts) != 0 ||
	    a->cfg->partial != b->cfg->partial)
		return false;
	return !exact || (strcmp(a->cfg->settings, b->cfg->settings) == 0 && strcmp(a->cfg->runs, b->cfg->runs) == 0);
}

/* The side's sample of ops/s: its used hosts; one host, its time buckets (as the compare section takes it). */
static size_t side_sample(const struct rep_group *g, double **out)
{
	double *v = rep_calloc(g->n + (g->nused == 1 ? g->cells[0]->npts : 0) + 1, sizeof(*v));
	size_t n = 0;
	if (g->nused == 1 && g->n == 1) {
		const struct rep_cell *c = g->cells[0];
		for (size_t k = 0; k < c->npts; k++)
			v[n++] = c->pts[k].ops;
		if (n < MIN_BUCKETS)
			n = 0;
	}
	if (n == 0)
		for (size_t k = 0; k < g->n; k++)
			if (!g->used || g->used[k])
				v[n++] = rep_cell_ops(g->cells[k]);
	*out = v;
	return n;
}

/* Whether side g's figure has a spread to resample: several hosts, or one with time buckets enough. */
static bool side_spread(const struct rep_group *g)
{
	return g->nused > 1 || (g->n == 1 && g->cells[0]->npts >= MIN_BUCKETS);
}

/* "+12.0%", "-48.9%": a ratio as a change. */
static void format_change(char *buf, size_t len, double r)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", (r - 1) * 100);
}

/*
 * The keys whose values differ between the lists a and b, for people:
 * "rate default -> 1000, engine sync -> io_uring" (a key one side lacks
 * is that side's default).
 */
static void say_changed(const char *what, const char *a, const char *b, char *buf, size_t len)
{
	char key[64], va[128], vb[128];
	const char *sides[2] = { a, b };
	for (int s = 0; s < 2; s++)
		for (const char *p = sides[s]; (p = rep_kv_next(p, key, sizeof(key), va, sizeof(va))) != NULL;) {
			const char *other = rep_label_value(sides[!s], key, vb, sizeof(vb)) ? vb : NULL;
			if (s == 1 && other)
				continue; /* said from a's side */
			if (other && strcmp(other, va) == 0)
				continue;
			size_t used = strlen(buf);
			const char *from = s == 0 ? va : (other ? other : "default");
			const char *to = s == 0 ? (other ? other : "default") : va;
			snprintf(buf + used, len - used, "%s %s %s → %s", used ? "," : what, key, from, to);
		}
}

/* What differs between a loosely paired baseline config a and new config b: their settings, their kind of runs. */
static void say_differs(const struct rep_config *a, const struct rep_config *b, char *buf, size_t len)
{
	buf[0] = '\0';
	if (strcmp(a->settings, b->settings) != 0)
		say_changed("settings:", a->settings, b->settings, buf, len);
	if (strcmp(a->runs, b->runs) != 0) {
		size_t used = strlen(buf);
		if (used && used + 2 < len) {
			strcpy(buf + used, "; ");
			used += 2;
		}
		say_changed("runs:", a->runs, b->runs, buf + used, len - used);
	}
}

struct verdicts {
	size_t paired, faster, slower, regressions, same, nofigure, added, gone;
};

/* Each used host's p99 (ns) of side g. */
static size_t side_p99(const struct rep_group *g, double **out)
{
	double *v = rep_calloc(g->n + 1, sizeof(*v));
	size_t n = 0;
	for (size_t k = 0; k < g->n; k++)
		if (!g->used || g->used[k])
			v[n++] = hist_percentile(&g->cells[k]->total, 0.99);
	*out = v;
	return n;
}

/*
 * One paired cell: a the baseline's group, b these results'. The verdict
 * is on ops/s; for runs held to one --rate on both sides (open loop: their
 * ops/s is the rate), on the p99, where higher is slower.
 */
static void pair_row(struct table *t, const struct rep_ctx *ctx, const struct rep_group *a, const struct rep_group *b,
		     struct verdicts *vs)
{
	const struct rep_cell *ca = a->cells[0], *cb = b->cells[0];
	double tol = ctx->o->tolerance;
	bool lat = ca->rate > 0 && ca->rate == cb->rate;
	double *va, *vb, r, lo, hi;
	size_t na = lat ? side_p99(a, &va) : side_sample(a, &va), nb = lat ? side_p99(b, &vb) : side_sample(b, &vb);
	/* the seed depends on what is compared, not on what else was read */
	uint64_t seed = ctx->o->seed;
	for (const char *p = cb->sig; *p; p++)
		seed = (seed ^ (unsigned char)*p) * 1099511628211ULL;
	seed ^= cb->size ^ (uint64_t)cb->threads;
	stats_bootstrap_ratio(va, na, vb, nb, ctx->o->rounds, seed, LEVEL, &r, &lo, &hi);
	free(va);
	free(vb);
	/* the figure is the basis's; the interval is the bootstrap's around it */
	double ratio = lat ? (a->med_p99 > 0 ? b->med_p99 / a->med_p99 : NAN) : (a->med_ops > 0 ? b->med_ops / a->med_ops : NAN);
	/* a latency of one host has no spread to resample (its buckets keep no percentile) */
	bool spread = lat ? a->nused > 1 || b->nused > 1 : side_spread(a) || side_spread(b);
	/* a spread of figures that do not vary is a sure ratio: an interval of one point */
	if (!spread || !(hi >= lo))
		lo = hi = NAN;
	/*
	 * The bootstrap resamples buckets or hosts around its own ratio r (of
	 * their means); its interval is moved to stand around the basis's figure,
	 * so that the figure printed lies inside the interval printed beside it.
	 */
	if (r > 0 && ratio > 0) {
		lo *= ratio / r;
		hi *= ratio / r;
	}
	/* worse: less ops/s, or a higher p99 */
	bool worse_sure = lat ? lo > 1 : hi < 1, better_sure = lat ? hi < 1 : lo > 1;
	bool worse_beyond = lat ? ratio > 1 + tol : ratio < 1 - tol, better_beyond = lat ? ratio < 1 - tol : ratio > 1 + tol;
	char verdict[400], detail[600] = "", differs[700] = "", rs[40], ls[24], hs[24], tols[24];
	format_change(rs, sizeof(rs), ratio);
	if (lat) {
		char tmp[24];
		snprintf(tmp, sizeof(tmp), "%s", rs);
		snprintf(rs, sizeof(rs), "p99 %s", tmp);
	}
	format_change(ls, sizeof(ls), lo);
	format_change(hs, sizeof(hs), hi);
	snprintf(tols, sizeof(tols), "%g%%", tol * 100);
	bool regression = false;
	vs->paired++;
	if (isnan(ratio)) {
		snprintf(verdict, sizeof(verdict), "no figure (the baseline's median is 0)");
		vs->nofigure++;
	} else if (isnan(lo)) {
		/* no spread to resample: the tolerance alone decides, said */
		regression = worse_beyond;
		if (regression)
			snprintf(verdict, sizeof(verdict), "slower %s: regression (no interval)", rs);
		else if (better_beyond)
			snprintf(verdict, sizeof(verdict), "faster %s (no interval)", rs);
		else
			snprintf(verdict, sizeof(verdict), "no difference beyond %s (%s, no interval)", tols, rs);
		snprintf(detail, sizeof(detail), "no interval: one host%s; judged on the tolerance alone",
			 lat ? " (a latency)" : " and under 5 time buckets a side");
		if (regression)
			vs->slower++;
		else if (better_beyond)
			vs->faster++;
		else
			vs->same++;
	} else if (worse_sure) {
		regression = worse_beyond;
		if (regression)
			snprintf(verdict, sizeof(verdict), "slower %s [%s, %s]: regression", rs, ls, hs);
		else
			snprintf(verdict, sizeof(verdict), "slower %s [%s, %s], within %s", rs, ls, hs, tols);
		vs->slower++;
	} else if (better_sure) {
		snprintf(verdict, sizeof(verdict), "faster %s [%s, %s]", rs, ls, hs);
		vs->faster++;
	} else {
		snprintf(verdict, sizeof(verdict), "no difference at this sample size [%s, %s]", ls, hs);
		vs->same++;
	}
	vs->regressions += regression;
	if (ca->cfg != cb->cfg && (strcmp(ca->cfg->settings, cb->cfg->settings) != 0 ||
				   strcmp(ca->cfg->runs, cb->cfg->runs) != 0))
		say_differs(ca->cfg, cb->cfg, differs, sizeof(differs));
	if (a->n != a->nused || b->n != b->nused) {
		size_t used = strlen(detail);
		snprintf(detail + used, sizeof(detail) - used, "%sbad apples left out: %zu of %zu hosts of A, %zu of %zu of B",
			 used ? "; " : "", a->n - a->nused, a->n, b->n - b->nused, b->n);
	}
	table_row(t, cb->sig, cb->op, cb->threads, rep_cfg_name(cb), cb->cfg->labels, (double)cb->size, "paired",
		  lat ? "p99" : "ops/s", verdict, a->med_ops, b->med_ops, ratio, lo, hi, (double)a->nused,
		  (double)b->nused, differs[0] ? differs : "-", a->med_p50, b->med_p50, a->med_p99, b->med_p99,
		  regression ? 1.0 : 0.0, detail[0] ? detail : NULL);
}

/* A cell on one side only: new (these results) or gone (the baseline's). */
static void alone_row(struct table *t, const struct rep_group *g, bool added, struct verdicts *vs)
{
	const struct rep_cell *c = g->cells[0];
	if (added)
		vs->added++;
	else
		vs->gone++;
	table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, added ? "new" : "gone",
		  "-", added ? "new: not in the baseline" : "gone: in the baseline, not in these results",
		  added ? NAN : g->med_ops, added ? g->med_ops : NAN, NAN, NAN, NAN, added ? NAN : (double)g->nused,
		  added ? (double)g->nused : NAN, "-", added ? NAN : g->med_p50, added ? g->med_p50 : NAN,
		  added ? NAN : g->med_p99, added ? g->med_p99 : NAN, 0.0,
		  added ? "no cell of the baseline with this op, threads, config and size"
			: "no cell of these results with this op, threads, config and size");
}

static void rep_build_baseline(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_BASELINE];
	const struct rep_db *base = ctx->o->baseline;
	if (!base)
		return;
	struct rep_group *bg;
	size_t nb = rep_groups(base, false, &bg);
	struct rep_apples apples; /* the baseline's hosts judged among themselves: the same basis */
	rep_apples_judge(&apples, bg, nb);
	/* watch periods are a latency series, not a run's cell */
	size_t *pair_of = rep_calloc(ctx->nf + 1, sizeof(*pair_of)); /* baseline index + 1; 0 none */
	bool *taken = rep_calloc(nb + 1, sizeof(*taken));
	/* exact pairs first (same settings and kind of runs), then a lone candidate on each side */
	for (int exact = 1; exact >= 0; exact--)
		for (size_t i = 0; i < ctx->nf; i++) {
			const struct rep_cell *c = ctx->fleet[i].cells[0];
			if (pair_of[i] || c->watch)
				continue;
			size_t found = 0, cands = 0;
			for (size_t j = 0; j < nb; j++)
				if (!taken[j] && !bg[j].cells[0]->watch && same_cell(bg[j].cells[0], c, exact)) {
					found = j + 1;
					cands++;
				}
			if (!exact && cands == 1) {
				/* the one baseline candidate must have only this new one */
				size_t rivals = 0;
				for (size_t k = 0; k < ctx->nf; k++)
					rivals += !pair_of[k] && !ctx->fleet[k].cells[0]->watch &&
						  same_cell(bg[found - 1].cells[0], ctx->fleet[k].cells[0], false);
				if (rivals != 1)
					cands = 0;
			}
			if (cands >= 1 && (exact || cands == 1)) {
				pair_of[i] = found;
				taken[found - 1] = true;
			}
		}
	struct verdicts vs = { 0 };
	for (size_t i = 0; i < ctx->nf; i++) {
		if (ctx->fleet[i].cells[0]->watch)
			continue;
		if (pair_of[i])
			pair_row(t, ctx, &bg[pair_of[i] - 1], &ctx->fleet[i], &vs);
		else
			alone_row(t, &ctx->fleet[i], true, &vs);
	}
	for (size_t j = 0; j < nb; j++)
		if (!taken[j] && !bg[j].cells[0]->watch)
			alone_row(t, &bg[j], false, &vs);
	char tols[24];
	snprintf(tols, sizeof(tols), "%g%%", ctx->o->tolerance * 100);
	if (t->nrows)
		table_note(t,
			   "%s: %zu of %zu paired cells slower beyond the %s tolerance; %zu slower, %zu faster, %zu no "
			   "difference%s; %zu new, %zu gone. "
			   "A is the baseline (--baseline), B these results; a cell is an op, thread count, config and "
			   "size (a cell whose settings or run duration changed is paired when it is the only candidate on "
			   "each side, what changed said). Per cell B/A of the median host's ops/s (of its p99 for runs held to "
			   "one --rate on both sides, where higher is slower), bad apples left out, "
			   "with a bootstrap %.0f%% interval (%u resamples, seeded; a side of one host resampled over its "
			   "time buckets). Faster: the interval above 1 (a p99's below); slower: below 1; a regression: "
			   "slower and B/A under %g (a p99's over %g; --tolerance %s), which makes the exit status 4; "
			   "else no difference at this sample size. Without an interval the tolerance alone decides.",
			   vs.regressions ? "REGRESSION" : "OK", vs.regressions, vs.paired, tols, vs.slower, vs.faster,
			   vs.same, vs.nofigure ? " (some with no figure)" : "", vs.added, vs.gone, LEVEL * 100,
			   ctx->o->rounds, 1 - ctx->o->tolerance, 1 + ctx->o->tolerance, tols);
	free(pair_of);
	free(taken);
	rep_groups_free(bg, nb);
	rep_apples_free(&apples);
}

const struct rep_section_def rep_sec_baseline = {
	.name = "baseline",
	.title = "Against the baseline: A the baseline (--baseline), B these results, per op, threads, config and size",
	.help = "with --baseline: each cell against the baseline's same op, threads,\n"
		"config and size: B/A of the median host's ops/s with a bootstrap 95%\n"
		"interval, faster, slower (a regression past --tolerance: exit 4) or no\n"
		"difference; cells on one side only listed as new or gone",
	SECTION_COLS(rep_baseline_cols),
	.build = rep_build_baseline,
	.shown = REP_SHOWN_OPTION,
};
