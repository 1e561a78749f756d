/*
 * SPDX-License-Identifier: Apache-2.0
 * report/sections/summary.c - the report's answers, one finding a row, drawn from the
 * other sections' tables (by column key, so a section can change its layout).
 *
 * Per op (as typed, at the size most of its thread curves ran): the config
 * with the most ops/s at its optimal thread count, the one with the most
 * ops (MB) per dollar, each comparison's verdict and its ratio per dollar.
 * Then the hosts (bad apples, at their cap, failed or missing), the thread
 * optima as a config x op matrix, cache tiers, durability and what was left
 * out. Every finding names the section holding its evidence.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/sections/summary.h"
#include "report/base/alloc.h"
#include "report/sections/compare.h"
#include "report/sections/section.h"
#include "report/render/term.h"
#include "report/store/config.h"

static const struct tcol rep_summary_cols[] = {
	{ "topic", "", TC_STR, 0 },        /* what a reader scans for: an op, "hosts", "threads", ... */
	{ "kind", NULL, TC_STR, 0 },       /* the finding's machine name: best, perDollar, compare, ... */
	{ "op", NULL, TC_STR, 0 },
	{ "config", NULL, TC_STR, 0 },
	{ "value", NULL, TC_NUM, 6 },      /* the finding's figure: ops/s, ops/$, a ratio, a count */
	{ "low", NULL, TC_NUM, 6 },        /* its 95% interval, for a ratio */
	{ "high", NULL, TC_NUM, 6 },
	{ "threads", NULL, TC_INT, 0 },
	{ "perDollar", NULL, TC_NUM, 6 },  /* a comparison's ratio per dollar: the ratio x the price ratio */
	{ "hosts", NULL, TC_INT, 0 },      /* the hosts the figure rests on (bad apples left out) */
	{ "hostsOf", NULL, TC_INT, 0 },    /* of how many */
	{ "leftOut", NULL, TC_STR, 0 },    /* the hosts left out, by name */
	{ "finding", "finding", TC_STR, 0 },
	{ "section", "see", TC_STR, 0 },   /* the section with the evidence */
};
enum { S_TOPIC, S_KIND, S_OP, S_CONFIG, S_VALUE, S_LOW, S_HIGH, S_THREADS, S_PER_DOLLAR, S_HOSTS, S_HOSTS_OF,
       S_LEFT_OUT, S_FINDING, S_SECTION };

void rep_summary_needs(bool want[SEC_COUNT])
{
	static const enum rep_section needs[] = { SEC_GROUPS, SEC_FLEET,   SEC_TARGETS, SEC_INSTANCES,  SEC_BAD_APPLES,
						  SEC_THREADS, SEC_COMPARE, SEC_TIERS,	    SEC_DURABILITY,
						  SEC_COST,    SEC_DUR_VERIFY, SEC_PERIODIC, SEC_DEVICES,
						  SEC_STEADY };
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		want[needs[i]] = true;
}

/* ---- reading the other tables by column key ---- */

static const char *str_at(const struct table *t, size_t r, const char *key)
{
	return table_str(t, r, table_col(t, key));
}

static double num_at(const struct table *t, size_t r, const char *key)
{
	return table_num(t, r, table_col(t, key));
}

static bool str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The row's op as typed: its "op" column, else its signature's short name; " @SIZE" cut off. */
static void op_at(const struct table *t, size_t r, char *buf, size_t len)
{
	rep_row_op(t, r, buf, len);
	char *at = strstr(buf, " @");
	if (at)
		*at = '\0';
}

/* ---- numbers and names for people ---- */

/*
 * Two config names with the parts they share left out ("m5.large / gp3 x1"
 * and "m5.large / io2 x1" are "gp3 x1" and "io2 x1"; "m5.large / gp3 x1"
 * and "m5.large / gp3 x4 / raid0" are "gp3 x1" and "gp3 x4 / raid0"): the
 * dimensions that differ, never cut mid-word; whole when nothing would be
 * left of one.
 */
static void short_names(const char *a, const char *b, char *sa, size_t la, char *sb, size_t lb)
{
	char pa[8][160], pb[8][160];
	size_t na = 0, nb = 0;
	for (const char *p = a; p && na < 8;) {
		const char *e = strstr(p, " / ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(pa[na++], sizeof(pa[0]), "%.*s", (int)n, p);
		p = e ? e + 3 : NULL;
	}
	for (const char *p = b; p && nb < 8;) {
		const char *e = strstr(p, " / ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		snprintf(pb[nb++], sizeof(pb[0]), "%.*s", (int)n, p);
		p = e ? e + 3 : NULL;
	}
	snprintf(sa, la, "%s", a ? a : "-");
	snprintf(sb, lb, "%s", b ? b : "-");
	char ka[512] = "", kb[512] = "";
	/* a part is kept where the other name lacks it; a part both have is shared */
	for (size_t i = 0; i < na; i++) {
		bool shared = false;
		for (size_t j = 0; j < nb && !shared; j++)
			shared = strcmp(pa[i], pb[j]) == 0;
		if (!shared)
			snprintf(ka + strlen(ka), sizeof(ka) - strlen(ka), "%s%s", ka[0] ? " / " : "", pa[i]);
	}
	for (size_t i = 0; i < nb; i++) {
		bool shared = false;
		for (size_t j = 0; j < na && !shared; j++)
			shared = strcmp(pb[i], pa[j]) == 0;
		if (!shared)
			snprintf(kb + strlen(kb), sizeof(kb) - strlen(kb), "%s%s", kb[0] ? " / " : "", pb[i]);
	}
	if (ka[0] && kb[0] && strlen(ka) < la && strlen(kb) < lb) {
		snprintf(sa, la, "%s", ka);
		snprintf(sb, lb, "%s", kb);
	}
}

/* What a finding rests on, for scripts: per-dollar ratio, hosts used of how many, the hosts left out. */
struct rests {
	double per_dollar, hosts, of;
	const char *left_out;
};

static void vfinding(struct table *s, const char *topic, const char *kind, const char *op, const char *config,
		     const double fig[4], const struct rests *on, const char *section, const char *fmt, va_list ap)
{
	char text[1024];
	vsnprintf(text, sizeof(text), fmt, ap);
	static const double none[4] = { NAN, NAN, NAN, NAN };
	static const struct rests nothing = { NAN, NAN, NAN, NULL };
	if (!fig)
		fig = none;
	if (!on)
		on = &nothing;
	table_row(s, topic, kind, op, config, fig[0], fig[1], fig[2], fig[3], on->per_dollar, on->hosts, on->of,
		  on->left_out && on->left_out[0] ? on->left_out : NULL, text, section);
}

__attribute__((format(printf, 8, 9)))
static void finding(struct table *s, const char *topic, const char *kind, const char *op, const char *config,
		    const double fig[4], const char *section, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfinding(s, topic, kind, op, config, fig, NULL, section, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 9, 10)))
static void finding_on(struct table *s, const char *topic, const char *kind, const char *op, const char *config,
		       const double fig[4], const struct rests *on, const char *section, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfinding(s, topic, kind, op, config, fig, on, section, fmt, ap);
	va_end(ap);
}

/* ---- the ops: which, at which size ---- */

#define MAX_OPS 32

struct op_size {
	char op[64];
	double size;   /* the size most of the op's thread-curve rows ran at (the larger on a tie) */
	size_t rows;
	size_t sizes;  /* how many sizes it ran at */
};

/* The ops of table t (the groups), in the order they first appear, each at its main size. */
static size_t ops_of(const struct table *t, struct op_size *ops)
{
	/* each row's op and size read once: a study of many configs has many rows */
	char (*name)[64] = rep_calloc(t->nrows + 1, sizeof(*name));
	double *sz = rep_calloc(t->nrows + 1, sizeof(*sz));
	for (size_t r = 0; r < t->nrows; r++) {
		op_at(t, r, name[r], sizeof(name[r]));
		sz[r] = num_at(t, r, "size");
	}
	/* per op: its sizes with their row counts */
	size_t n = 0;
	struct { size_t op; double size; size_t rows; } *sizes = rep_calloc(t->nrows + 1, sizeof(*sizes));
	size_t ns = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		size_t i = 0;
		while (i < n && strcmp(ops[i].op, name[r]) != 0)
			i++;
		if (i == n) {
			if (n == MAX_OPS)
				continue;
			snprintf(ops[n].op, sizeof(ops[n].op), "%s", name[r]);
			ops[n].size = NAN;
			ops[n].rows = 0;
			ops[n].sizes = 0;
			n++;
		}
		size_t k = 0;
		while (k < ns && !(sizes[k].op == i && (sizes[k].size == sz[r] || (isnan(sizes[k].size) && isnan(sz[r])))))
			k++;
		if (k == ns) {
			sizes[ns].op = i;
			sizes[ns].size = sz[r];
			sizes[ns++].rows = 0;
			ops[i].sizes++;
		}
		sizes[k].rows++;
	}
	/* the size most of its rows ran at, the larger on a tie */
	for (size_t k = 0; k < ns; k++) {
		struct op_size *o = &ops[sizes[k].op];
		if (sizes[k].rows > o->rows || (sizes[k].rows == o->rows && sizes[k].size > o->size)) {
			o->rows = sizes[k].rows;
			o->size = sizes[k].size;
		}
	}
	free(sizes);
	free(name);
	free(sz);
	return n;
}

static bool row_is(const struct table *t, size_t r, const struct op_size *o)
{
	char op[64];
	op_at(t, r, op, sizeof(op));
	double size = num_at(t, r, "size");
	return strcmp(op, o->op) == 0 && (isnan(size) || isnan(o->size) || size == o->size);
}

/* ---- per op ---- */

/* A config's figure for an op: the basis (report/sections/basis.h), its curve at the optimum. */
struct best {
	const char *config;
	const struct rep_config *cfg;
	double ops, mb, threads, p50, p99;
	size_t hosts, of;    /* hosts used, of how many */
	const char *host;    /* the host, when one host's run is the figure */
	const char *section;
	char left[256];      /* hosts left out */
	char doubt[320];     /* why it is not offered as an answer; "" none */
	size_t steady, unsettled; /* its hosts with runs in rounds; of them, those that never attained steady state */
};

/* Partial runs and other rounds are configs of their own ("... [interrupted]"): left out of the answers. */
static bool is_whole(const char *cfg)
{
	return !cfg || !strchr(cfg, '[');
}

/* Config cfg's figure for op o, false when it has none. */
static bool best_of(const struct rep_ctx *ctx, const struct op_size *o, const char *cfg, struct best *b)
{
	memset(b, 0, sizeof(*b));
	b->config = cfg;
	b->ops = NAN;
	for (size_t i = 0, end; i < ctx->nf; i = end) {
		end = rep_curve_end(ctx->fleet, ctx->nf, i);
		const struct rep_cell *c = ctx->fleet[i].cells[0];
		if (strcmp(c->op, o->op) != 0 || !(isnan(o->size) || (double)c->size == o->size) ||
		    !str_eq(rep_cfg_name(c), cfg))
			continue;
		const struct rep_group *opt = rep_curve_optimum(ctx->fleet, ctx->nf, i, &end, ctx->o->within);
		b->cfg = c->cfg;
		b->ops = opt->med_ops;
		b->mb = c->block ? rep_mb_per_sec(b->ops, c->block) : NAN;
		b->threads = opt->cells[0]->threads;
		b->hosts = opt->nused;
		b->of = opt->n;
		b->p50 = opt->med_p50;
		b->p99 = opt->med_p99;
		b->host = opt->n == 1 ? opt->cells[0]->host : NULL;
		b->section = end - i > 1 ? "threads" : opt->n > 1 ? "instances" : "groups";
		rep_group_left_out(opt, b->left, sizeof(b->left));
		rep_basis_doubt(ctx->db, opt, b->doubt, sizeof(b->doubt));
		for (size_t k = 0; k < opt->n; k++) {
			const struct rep_steady *st = &opt->cells[k]->steady;
			b->steady += st->runs > 0;
			b->unsettled += st->runs > 0 && st->attained < st->runs;
		}
		return !isnan(b->ops);
	}
	return false;
}

/* "median host, " / "median host of 3 of 4, g2 left out, " / "host h1, ": whose figure it is. */
static void whose(const struct best *b, char *buf, size_t len)
{
	char steady[96] = "";
	if (b->unsettled)
		snprintf(steady, sizeof(steady), "not steady: %zu of %zu host%s never settled, ", b->unsettled, b->steady,
			 b->steady == 1 ? "" : "s");
	else if (b->steady)
		snprintf(steady, sizeof(steady), "steady figure, ");
	size_t n = strlen(steady);
	if (n >= len)
		return;
	snprintf(buf, len, "%s", steady);
	buf += n;
	len -= n;
	if (b->host)
		snprintf(buf, len, "host %s, ", b->host);
	else if (b->hosts < b->of)
		snprintf(buf, len, "median host of %zu of %zu, %s left out, ", b->hosts, b->of, b->left);
	else if (b->hosts > 1)
		snprintf(buf, len, "median host of %zu, ", b->hosts);
	else
		buf[0] = '\0';
}

/*
 * The most ops/s per op: each config at its optimum (the basis), the best
 * named, the runner-up beside it; a config whose figure is in doubt is not
 * ranked, and said in a line of its own.
 */
static void best_ops(struct table *s, const struct rep_ctx *ctx, const struct op_size *o)
{
	struct best *all = rep_calloc(ctx->nf + 1, sizeof(*all));
	size_t n = 0, best = SIZE_MAX, second = SIZE_MAX;
	/* each config's curve of the op at its size, once (fleet groups sort by op, config, size) */
	for (size_t i = 0, end; i < ctx->nf; i = end) {
		end = rep_curve_end(ctx->fleet, ctx->nf, i);
		const struct rep_cell *c = ctx->fleet[i].cells[0];
		const char *cfg = rep_cfg_name(c);
		if (strcmp(c->op, o->op) != 0 || !(isnan(o->size) || (double)c->size == o->size) || !is_whole(cfg) ||
		    !best_of(ctx, o, cfg, &all[n]))
			continue;
		/* a campaign's earlier round searched the threads: its last round is the answer */
		if (all[n].cfg && rep_config_superseded(ctx->db, all[n].cfg, NULL))
			continue;
		if (!all[n].doubt[0]) {
			if (best == SIZE_MAX || all[n].ops > all[best].ops) {
				second = best;
				best = n;
			} else if (second == SIZE_MAX || all[n].ops > all[second].ops) {
				second = n;
			}
		}
		n++;
	}
	/* one config alone ranks against nothing: its figure is said, its doubt beside it */
	bool alone = n == 1 && best == SIZE_MAX;
	if (alone)
		best = 0;
	char size[16] = "";
	if (o->size > 0 && o->sizes > 1)
		units_format_signature_size(size, sizeof(size), (uint64_t)o->size);
	if (best != SIZE_MAX) {
		const struct best *b = &all[best];
		char v[32], m[48] = "", who[400], other[320] = "";
		table_format_prose(v, sizeof(v), b->ops);
		/* big ops are read as bandwidth */
		if (b->mb > 0 && b->mb / b->ops >= 0.5)
			snprintf(m, sizeof(m), " ops/s, %.0f MB/s", b->mb);
		whose(b, who, sizeof(who));
		if (second != SIZE_MAX) {
			char sv[32], sa[256], sb[256];
			table_format_prose(sv, sizeof(sv), all[second].ops);
			short_names(b->config, all[second].config, sa, sizeof(sa), sb, sizeof(sb));
			snprintf(other, sizeof(other), "; %s: %s%s", sb, sv, all[second].unsettled ? " (not steady)" : "");
		}
		char lat[64] = "";
		if (n == 1 && b->p99 > 0) {
			char p50[24], p99[24];
			units_format_ns(p50, sizeof(p50), b->p50);
			units_format_ns(p99, sizeof(p99), b->p99);
			snprintf(lat, sizeof(lat), ", p50 %s, p99 %s", p50, p99);
		}
		const double fig[4] = { b->ops, NAN, NAN, b->threads };
		const struct rests on = { NAN, (double)b->hosts, (double)b->of, b->left };
		finding_on(s, o->op, "best", o->op, b->config, fig, &on, b->section,
			   "%s%s%s%s%s%s (%s%.0f thread%s%s%s)%s", n > 1 ? "most ops/s: " : "", b->config ? b->config : "",
			   b->config ? (n > 1 ? ", " : ": ") : "", v, m[0] ? m : n > 1 ? "" : " ops/s", lat, who, b->threads,
			   b->threads == 1 ? "" : "s", size[0] ? ", " : "", size, other);
	}
	/* a doubted figure: where it would have stood, what contradicts it */
	for (size_t k = 0; k < n; k++) {
		if (!all[k].doubt[0])
			continue;
		char sa[256], sb[256];
		short_names(best != SIZE_MAX ? all[best].config : all[k].config, all[k].config, sa, sizeof(sa), sb,
			    sizeof(sb));
		const double fig[4] = { all[k].ops, NAN, NAN, all[k].threads };
		const struct rests on = { NAN, (double)all[k].hosts, (double)all[k].of, all[k].left };
		finding_on(s, o->op, "doubt", o->op, all[k].config, fig, &on, "targets", "%s: %s, %s",
			   alone ? "in doubt" : "not ranked", all[k].config ? all[k].config : "-", all[k].doubt);
	}
	free(all);
}

/* Seconds as "40 s", "12 min", "3.5 h". */
static void human_seconds(double sec, char *buf, size_t len)
{
	if (sec < 120)
		snprintf(buf, len, "%.0f s", sec);
	else if (sec < 7200)
		snprintf(buf, len, "%.0f min", sec / 60);
	else
		snprintf(buf, len, "%.1f h", sec / 3600);
}

/*
 * Bursts named: a config whose runs in rounds began far above their steady
 * figure (most of its hosts' first rounds over it by more than the PTS
 * range), as "gp2 read4k: 3,000 ops/s for 12 min, then 300: ranked on 300".
 */
static void bursts(struct table *s, const struct rep_ctx *ctx, const struct op_size *o)
{
	for (size_t i = 0, end; i < ctx->nf; i = end) {
		end = rep_curve_end(ctx->fleet, ctx->nf, i);
		const struct rep_cell *c0 = ctx->fleet[i].cells[0];
		const char *cfg = rep_cfg_name(c0);
		if (strcmp(c0->op, o->op) != 0 || !(isnan(o->size) || (double)c0->size == o->size) || !is_whole(cfg))
			continue;
		const struct rep_group *opt = rep_curve_optimum(ctx->fleet, ctx->nf, i, &end, ctx->o->within);
		double *ops = rep_calloc(opt->n + 1, sizeof(*ops)), *secs = rep_calloc(opt->n + 1, sizeof(*secs));
		size_t steady = 0, n = 0;
		for (size_t k = 0; k < opt->n; k++) {
			const struct rep_cell *c = opt->cells[k];
			steady += c->steady.runs > 0;
			double b;
			size_t rounds = rep_cell_burst(c, &b);
			if (rounds) {
				ops[n] = b;
				secs[n++] = (double)rounds * c->steady.bucket;
			}
		}
		if (steady && 2 * n > steady) {
			char burst[32], then[32], len[32];
			table_format_prose(burst, sizeof(burst), stats_median(ops, n));
			table_format_prose(then, sizeof(then), opt->med_ops);
			human_seconds(stats_median(secs, n), len, sizeof(len));
			const double fig[4] = { opt->med_ops, NAN, NAN, opt->cells[0]->threads };
			finding(s, o->op, "burst", o->op, cfg, fig, "steady", "%s%s%s: %s ops/s for %s, then %s: ranked on %s%s",
				cfg ? cfg : "", cfg ? " " : "", o->op, burst, len, then, then,
				n < steady ? " (not every host burst)" : "");
		}
		free(ops);
		free(secs);
	}
}

/* The most ops (MB) per dollar, from the cost table (rank 1 at the op's size). */
static void best_dollar(struct table *s, const struct table *cost, const struct op_size *o)
{
	size_t best = SIZE_MAX, n = 0, runner = SIZE_MAX;
	for (size_t r = 0; r < cost->nrows; r++) {
		if (!row_is(cost, r, o))
			continue;
		n++;
		double rank = num_at(cost, r, "rank");
		if (rank == 1)
			best = r;
		else if (rank == 2)
			runner = r;
	}
	if (best == SIZE_MAX)
		return;
	const char *cfg = str_at(cost, best, "config");
	double opd = num_at(cost, best, "opsPerDollar"), mbd = num_at(cost, best, "mbPerDollar");
	double ops = num_at(cost, best, "opsPerSec"), mb = num_at(cost, best, "mbPerSec");
	bool bandwidth = mb > 0 && ops > 0 && mb / ops >= 0.5;
	char v[32], other[320] = "";
	table_format_prose(v, sizeof(v), bandwidth ? mbd : opd);
	if (runner != SIZE_MAX) {
		char rv[32], sa[256], sb[256];
		table_format_prose(rv, sizeof(rv), num_at(cost, runner, bandwidth ? "mbPerDollar" : "opsPerDollar"));
		short_names(cfg, str_at(cost, runner, "config"), sa, sizeof(sa), sb, sizeof(sb));
		snprintf(other, sizeof(other), "; %s: %s", sb, rv);
	}
	const double fig[4] = { bandwidth ? mbd : opd, NAN, NAN, num_at(cost, best, "threads") };
	const struct rests on = { NAN, num_at(cost, best, "hosts"), num_at(cost, best, "hostsOf"),
				  str_at(cost, best, "leftOut") };
	finding_on(s, o->op, bandwidth ? "perDollarMB" : "perDollar", o->op, cfg, fig, &on, "cost", "%s %s, %s %s/$ at $%.3g/h%s",
		n > 1 ? "most per $:" : "per $:", cfg ? cfg : "-", v, bandwidth ? "MB" : "ops",
		num_at(cost, best, "dollarsPerHour"), other);
}

/* At most this many comparisons per op in the summary; the compare section has them all. */
#define MAX_COMPARISONS 6

/* The $/h of config cfg for op o (its per-I/O charges at its figure), NAN when not priced. */
static double dollars_of(const struct table *cost, const struct op_size *o, const char *cfg)
{
	for (size_t r = 0; r < cost->nrows; r++)
		if (row_is(cost, r, o) && str_eq(str_at(cost, r, "config"), cfg))
			return num_at(cost, r, "dollarsPerHour");
	return NAN;
}

/* "3 of 4 gp3 x1 hosts, g2 left out": what a side of a comparison rests on, when it left hosts out. */
static void side_rests(char *buf, size_t len, const char *name, double hosts, double left, const char *names)
{
	buf[0] = '\0';
	if (left > 0)
		snprintf(buf, len, "%.0f of %.0f %s hosts, %s left out", hosts, hosts + left, name,
			 names ? names : "bad apples");
}

/*
 * Each comparison of the op's throughput: B vs A with its interval, the
 * hosts it left out, and per dollar: the ratio times the price ratio (each
 * side's $/h at its figure), so the three agree to the rounding shown.
 */
static void comparisons(struct table *s, const struct rep_ctx *ctx, const struct table *cmp, const struct table *cost,
			const struct op_size *o)
{
	bool side_said = false;
	/* an op compared at several sizes ("read4k @128M"): the size most of its runs had */
	char main_tag[24] = "";
	if (o->size > 0) {
		strcpy(main_tag, " @");
		units_format_signature_size(main_tag + 2, sizeof(main_tag) - 2, (uint64_t)o->size);
	}
	bool at_main = false;
	for (size_t r = 0; r < cmp->nrows; r++) {
		const char *full = str_at(cmp, r, "op");
		at_main |= full && main_tag[0] && strstr(full, main_tag) && !strcmp(strstr(full, main_tag), main_tag);
	}
	size_t said = 0, more = 0;
	for (size_t r = 0; r < cmp->nrows; r++) {
		char op[64];
		op_at(cmp, r, op, sizeof(op));
		if (strcmp(op, o->op) != 0 || !str_eq(str_at(cmp, r, "metric"), "ops/s"))
			continue;
		const char *full = str_at(cmp, r, "op"), *tag = full ? strstr(full, " @") : NULL;
		if (at_main && tag && strcmp(tag, main_tag) != 0)
			continue;
		/* the summary stays a page: the first comparisons, then how many more the section holds */
		if (said == MAX_COMPARISONS) {
			more++;
			continue;
		}
		said++;
		const char *a = str_at(cmp, r, "a"), *b = str_at(cmp, r, "b");
		double ratio = num_at(cmp, r, "ratio"), lo = num_at(cmp, r, "low"), hi = num_at(cmp, r, "high");
		char sa[256], sb[256];
		short_names(a, b, sa, sizeof(sa), sb, sizeof(sb));
		if (isnan(ratio)) {
			if (!side_said)
				finding(s, o->op, "sideBySide", o->op, NULL, NULL, "compare", "%s and %s: %s", sa, sb,
					str_at(cmp, r, "verdict") ? str_at(cmp, r, "verdict") : "not compared");
			side_said = true;
			continue;
		}
		char interval[64] = "", dollar[64] = "", rs[24], ls[24], hs[24], ra[320], rb[320], rests[700] = "";
		rep_format_ratio(rs, sizeof(rs), ratio);
		rep_format_ratio(ls, sizeof(ls), lo);
		rep_format_ratio(hs, sizeof(hs), hi);
		if (!isnan(lo))
			snprintf(interval, sizeof(interval), " [%s, %s]", ls, hs);
		else
			snprintf(interval, sizeof(interval), " (one host: no interval)");
		double ha = num_at(cmp, r, "hostsA"), hb = num_at(cmp, r, "hostsB");
		const char *la = str_at(cmp, r, "leftOutA"), *lb = str_at(cmp, r, "leftOutB");
		/* how many each side left out: its names, counted */
		double na = 0, nb = 0;
		for (const char *p = la; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			na++;
		for (const char *p = lb; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
			nb++;
		side_rests(ra, sizeof(ra), sa, ha, na, la);
		side_rests(rb, sizeof(rb), sb, hb, nb, lb);
		if (ra[0] || rb[0]) {
			char al[24], ah[24];
			rep_format_ratio(al, sizeof(al), num_at(cmp, r, "lowAll"));
			rep_format_ratio(ah, sizeof(ah), num_at(cmp, r, "highAll"));
			snprintf(rests, sizeof(rests), " (%s%s%s; with them: [%s, %s])", ra, ra[0] && rb[0] ? "; " : "", rb,
				 al, ah);
		}
		/* a side whose figure is in doubt: the ratio is said as measured, with the doubt, and no per dollar */
		struct best ba, bb;
		char doubt[160] = "";
		bool doubt_a = best_of(ctx, o, a, &ba) && ba.doubt[0], doubt_b = best_of(ctx, o, b, &bb) && bb.doubt[0];
		if (doubt_a || doubt_b)
			snprintf(doubt, sizeof(doubt), "; %s%s%s's figure is in doubt (not ranked, above)", doubt_a ? sa : "",
				 doubt_a && doubt_b ? "'s and " : "", doubt_b ? sb : "");
		double da = dollars_of(cost, o, a), db = dollars_of(cost, o, b), pd = NAN;
		if (da > 0 && db > 0 && !doubt[0]) {
			char ps[24];
			pd = ratio * da / db;
			rep_format_ratio(ps, sizeof(ps), pd);
			snprintf(dollar, sizeof(dollar), "; %sx per dollar", ps);
		}
		const double fig[4] = { ratio, lo, hi, NAN };
		const struct rests on = { pd, ha + hb, ha + hb + na + nb, NULL };
		if (!isnan(lo) && lo <= 1 && hi >= 1)
			finding_on(s, o->op, "compare", o->op, b, fig, &on, "compare",
				   "%s vs %s: no difference at this sample size%s%s%s%s", sb, sa, interval, rests, dollar,
				   doubt);
		else
			finding_on(s, o->op, "compare", o->op, b, fig, &on, "compare", "%s is %sx %s%s%s%s%s", sb, rs, sa,
				   interval, rests, dollar, doubt);
	}
	if (more) {
		const double fig[4] = { (double)more, NAN, NAN, NAN };
		finding(s, o->op, "moreComparisons", o->op, NULL, fig, "compare", "and %zu more comparisons", more);
	}
}

/* ---- hosts ---- */

static int cmp_severity(const void *x, const void *y)
{
	const struct rep_apple *a = *(const struct rep_apple *const *)x, *b = *(const struct rep_apple *const *)y;
	if (a->typical != b->typical)
		return a->typical < b->typical ? -1 : 1;
	return strcmp(a->host, b->host);
}

/*
 * Bad apples by host and config, the most severe first (the lowest typical
 * ratio to the cells' medians), with the rule; configs whose cells had too
 * few hosts to tell, said so.
 */
static void bad_apples(struct table *s, const struct rep_ctx *ctx)
{
	const struct rep_apples *ap = ctx->apples;
	const struct rep_apple **bad = rep_calloc(ap->n + 1, sizeof(*bad));
	size_t nb = 0;
	for (size_t i = 0; i < ap->n; i++)
		if (ap->a[i].bad)
			bad[nb++] = &ap->a[i];
	qsort(bad, nb, sizeof(*bad), cmp_severity);
	for (size_t i = 0; i < nb; i++) {
		const struct rep_apple *a = bad[i];
		const double fig[4] = { a->typical, NAN, NAN, NAN };
		finding(s, "hosts", "badApple", NULL, a->cfg->name[0] ? a->cfg->name : NULL, fig, "badApples",
			"bad apple %s (%s): slow in %u of %u cells, typically %.2g%% of the median, at worst %.2g%% "
			"(rule: slow in half or more of its cells, beyond their noise)", a->host, a->cfg->name[0] ? a->cfg->name : "-", a->slow,
			a->cells, a->typical * 100, a->worst * 100);
	}
	/* configs of several hosts none of whose cells had enough to judge: one line, the first few named */
	char names[400] = "";
	size_t few = 0, most_hosts = 0;
	const char *only = NULL;
	for (size_t i = 0; i < ap->n;) {
		size_t j = i, hosts = 0;
		bool judged = false;
		for (; j < ap->n && ap->a[j].cfg == ap->a[i].cfg; j++) {
			hosts++;
			judged |= ap->a[j].cells > 0;
		}
		if (!judged && hosts > 1 && !ap->a[i].cfg->partial) {
			const char *name = ap->a[i].cfg->name[0] ? ap->a[i].cfg->name : "-";
			if (few < 3)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", few ? ", " : "", name);
			only = few ? NULL : ap->a[i].cfg->name;
			few++;
			most_hosts = hosts > most_hosts ? hosts : most_hosts;
		}
		i = j;
	}
	if (few == 1)
		finding(s, "hosts", "tooFewHosts", NULL, only && only[0] ? only : NULL, NULL, "badApples",
			"%s: %zu hosts, too few to tell a bad apple (%d at least)", names, most_hosts, REP_APPLE_MIN_HOSTS);
	else if (few > 1) {
		const double fig[4] = { (double)few, NAN, NAN, NAN };
		finding(s, "hosts", "tooFewHosts", NULL, NULL, fig, "badApples",
			"%s%s (%zu configs): at most %zu hosts a cell, too few to tell a bad apple (%d at least)", names,
			few > 3 ? " and more" : "", few, most_hosts, REP_APPLE_MIN_HOSTS);
	}
	free(bad);
}

static bool in_names(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return true;
	return false;
}

/*
 * Per config, the hosts at their cap in any of its cells (2,999 of 3,000
 * is), of all its hosts, and where: each op's cap and the thread counts at
 * which hosts were held there.
 */
static void at_cap(struct table *s, const struct rep_ctx *ctx)
{
	const struct rep_group *g = ctx->fleet;
	bool *done = rep_calloc(ctx->nf + 1, sizeof(*done));
	for (size_t i = 0; i < ctx->nf; i++) {
		if (done[i])
			continue;
		const struct rep_config *cfg = g[i].cells[0]->cfg;
		size_t cells = 0;
		for (size_t j = i; j < ctx->nf; j++)
			cells += g[j].cells[0]->cfg == cfg ? g[j].n : 0;
		const char **all = rep_calloc(cells + 1, sizeof(*all)), **held = rep_calloc(cells + 1, sizeof(*held));
		size_t nall = 0, nheld = 0;
		/* per op: its cap and the thread counts held at it, each once, in order */
		struct { const char *op; double cap, thr[16]; size_t nt; } at[8];
		size_t nat = 0;
		for (size_t j = i; j < ctx->nf; j++) {
			const struct rep_group *x = &g[j];
			if (x->cells[0]->cfg != cfg)
				continue;
			done[j] = true;
			bool here = false;
			double med = x->med_ops, cap = rep_cell_cap(x->cells[0]);
			for (size_t k = 0; k < x->n; k++) {
				const struct rep_cell *c = x->cells[k];
				double far;
				if (!in_names(all, nall, c->host))
					all[nall++] = c->host;
				if (cfg->partial || x->n < 2 || !rep_held_at_cap(c, rep_cell_ops(c), med, &far))
					continue;
				here = true;
				if (!in_names(held, nheld, c->host))
					held[nheld++] = c->host;
			}
			if (!here)
				continue;
			size_t a = 0;
			while (a < nat && strcmp(at[a].op, x->cells[0]->op) != 0)
				a++;
			if (a == nat) {
				if (nat == sizeof(at) / sizeof(at[0]))
					continue;
				at[nat].op = x->cells[0]->op;
				at[nat].cap = x->cells[0]->rate > 0 ? x->cells[0]->rate : cap;
				at[nat++].nt = 0;
			}
			size_t t = 0;
			while (t < at[a].nt && at[a].thr[t] < x->cells[0]->threads)
				t++;
			if ((t == at[a].nt || at[a].thr[t] != x->cells[0]->threads) && at[a].nt < 16) {
				memmove(&at[a].thr[t + 1], &at[a].thr[t], (at[a].nt - t) * sizeof(at[a].thr[0]));
				at[a].thr[t] = x->cells[0]->threads;
				at[a].nt++;
			}
		}
		/* "read4k 3,000 ops/s at 1, 2, 4 threads; write4k/64 ..." */
		char where[600] = "";
		for (size_t a = 0; a < nat; a++) {
			char c[32];
			table_format_prose(c, sizeof(c), at[a].cap);
			snprintf(where + strlen(where), sizeof(where) - strlen(where), "%s%s %s ops/s at ", a ? "; " : "",
				 at[a].op, c);
			for (size_t t = 0; t < at[a].nt; t++)
				snprintf(where + strlen(where), sizeof(where) - strlen(where), "%s%g", t ? ", " : "",
					 at[a].thr[t]);
			snprintf(where + strlen(where), sizeof(where) - strlen(where), " thread%s",
				 at[a].nt == 1 && at[a].thr[0] == 1 ? "" : "s");
		}
		if (nheld) {
			const double fig[4] = { (double)nheld, NAN, NAN, NAN };
			const struct rests on = { NAN, (double)nheld, (double)nall, NULL };
			finding_on(s, "hosts", "atCap", NULL, cfg->name[0] ? cfg->name : NULL, fig, &on, "instances",
				   "at their cap: %zu of %zu hosts of %s (%s)", nheld, nall,
				   cfg->name[0] ? cfg->name : "-", where);
		}
		free(all);
		free(held);
	}
	free(done);
}

/* The fleets' failed and missing hosts, one finding. */
static void fleet_hosts(struct table *s, const struct table *fl)
{
	if (fl->nrows == 0)
		return;
	char text[600] = "";
	size_t shown = 0;
	for (size_t r = 0; r < fl->nrows && shown < 6; r++, shown++) {
		const char *kind = str_at(fl, r, "kind"), *status = str_at(fl, r, "status");
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s (%s)", shown ? ", " : "",
			 str_at(fl, r, "host") ? str_at(fl, r, "host") : "-",
			 kind && kind[0] ? kind : status && status[0] ? status : "sent nothing");
	}
	if (fl->nrows > shown)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), " and %zu more", fl->nrows - shown);
	const double fig[4] = { (double)fl->nrows, NAN, NAN, NAN };
	finding(s, "hosts", "failed", NULL, NULL, fig, "fleet", "failed or sent nothing: %s", text);
}

/* ---- threads, tiers, durability ---- */

/* The thread optimum per config and op: a row each (the text shows them as a matrix). */
static void optima(struct table *s, const struct table *th, const struct op_size *ops, size_t nops)
{
	for (size_t r = 0; r < th->nrows; r++) {
		if (!(num_at(th, r, "optimal") > 0))
			continue;
		for (size_t i = 0; i < nops; i++)
			if (row_is(th, r, &ops[i])) {
				double thr = num_at(th, r, "threads");
				const double fig[4] = { num_at(th, r, "opsPerSec"), NAN, NAN, thr };
				finding(s, "threads", "optimum", ops[i].op, str_at(th, r, "config"), fig, "threads", "%s %s: %.0f",
					str_at(th, r, "config") ? str_at(th, r, "config") : "-", ops[i].op, thr);
			}
	}
}

static void tiers(struct table *s, const struct table *t)
{
	for (size_t r = 0; r < t->nrows;) {
		size_t q = r + 1;
		while (q < t->nrows && num_at(t, q, "tier") > num_at(t, q - 1, "tier"))
			q++;
		char op[64], from[16], to[16], text[600] = "";
		op_at(t, r, op, sizeof(op));
		const char *cfg = str_at(t, r, "config");
		for (size_t k = r; k < q; k++) {
			char p50[24];
			table_format_cell(t, k, (size_t)table_col(t, "fromSize"), from, sizeof(from));
			table_format_cell(t, k, (size_t)table_col(t, "toSize"), to, sizeof(to));
			units_format_ns(p50, sizeof(p50), num_at(t, k, "p50Ns"));
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%s%s%s p50 %s", k > r ? "; " : "", from,
				 strcmp(from, to) ? "-" : "", strcmp(from, to) ? to : "", p50);
		}
		double thr = num_at(t, r, "threads");
		const double fig[4] = { (double)(q - r), NAN, NAN, thr };
		if (q - r == 1)
			finding(s, "tiers", "tiers", op, cfg, fig, "tiers", "%s %s (%.0f threads): one tier, no cache cliff (%s)",
				cfg ? cfg : "-", op, thr, text);
		else
			finding(s, "tiers", "tiers", op, cfg, fig, "tiers", "%s %s (%.0f threads): %zu tiers (%s)", cfg ? cfg : "-", op,
				thr, q - r, text);
		r = q;
	}
}

/* Flushed writes: per op and config, how many hosts' were faster than the evidence allows. */
static void durability(struct table *s, const struct table *d, const struct table *verify)
{
	size_t total = 0, suspicious = 0;
	bool *done = rep_calloc(d->nrows + 1, sizeof(*done));
	for (size_t r = 0; r < d->nrows; r++) {
		total++;
		if (done[r] || !(num_at(d, r, "suspicious") > 0))
			continue;
		char op[64];
		op_at(d, r, op, sizeof(op));
		const char *cfg = str_at(d, r, "config");
		size_t n = 0, of = 0;
		for (size_t q = 0; q < d->nrows; q++) {
			char o2[64];
			op_at(d, q, o2, sizeof(o2));
			if (strcmp(o2, op) || !str_eq(str_at(d, q, "config"), cfg))
				continue;
			of++;
			if (num_at(d, q, "suspicious") > 0 && !done[q]) {
				done[q] = true;
				n++;
			}
		}
		suspicious += n;
		char p50[24], floor[24];
		units_format_ns(p50, sizeof(p50), num_at(d, r, "writeP50Ns"));
		units_format_ns(floor, sizeof(floor), num_at(d, r, "floorNs"));
		const double fig[4] = { (double)n, NAN, NAN, NAN };
		finding(s, "durability", "suspicious", op, cfg, fig, "durability",
			"%s on %s: %zu of %zu faster than a flush allows (p50 %s, floor %s): not on stable storage?", op,
			cfg ? cfg : "-", n, of, p50, floor);
	}
	free(done);
	if (total && !suspicious) {
		const double fig[4] = { 0, NAN, NAN, NAN };
		finding(s, "durability", "durable", NULL, NULL, fig, "durability",
			"no flushed write faster than the evidence allows (%zu checked)", total);
	}
	size_t lost = 0, runs = verify->nrows;
	for (size_t r = 0; r < runs; r++)
		lost += num_at(verify, r, "lost") > 0;
	if (runs) {
		const double fig[4] = { (double)lost, NAN, NAN, NAN };
		finding(s, "durability", "powerCut", NULL, NULL, fig, "durabilityVerify",
			lost ? "after a power cut: %zu of %zu verifications LOST acknowledged blocks"
			     : "after a power cut: %zu of %zu verifications lost nothing acknowledged",
			lost ? lost : runs, runs);
	}
}

/* Oscillations over time (the periodic section): the first three, then how many more. */
/* Watch series that reached steady state and left it (the steady section's rows with a period left at). */
static void left_steady(struct table *s, const struct table *st)
{
	for (size_t r = 0; r < st->nrows; r++) {
		if (isnan(num_at(st, r, "leftAt")))
			continue;
		char op[64], p99[32], then[32];
		op_at(st, r, op, sizeof(op));
		units_format_ns(p99, sizeof(p99), num_at(st, r, "p99Ns"));
		units_format_ns(then, sizeof(then), num_at(st, r, "leftP99Ns"));
		const char *when = str_at(st, r, "leftAtUtc");
		const double fig[4] = { num_at(st, r, "leftP99Ns"), NAN, NAN, num_at(st, r, "threads") };
		finding(s, op, "leftSteady", op, str_at(st, r, "config"), fig, "steady",
			"%s on %s left its steady state: p99 %s from period %.0f, then %s from period %.0f%s%s",
			op, str_at(st, r, "host"), p99, num_at(st, r, "round"), then, num_at(st, r, "leftAt"),
			when ? " at " : "", when ? when : "");
	}
}

static void oscillations(struct table *s, const struct table *p)
{
	for (size_t r = 0; r < p->nrows; r++) {
		if (r == 3) {
			finding(s, "time", "oscillation", NULL, NULL, NULL, "periodic", "and %zu more series oscillate",
				p->nrows - r);
			break;
		}
		char op[64];
		op_at(p, r, op, sizeof(op));
		const double fig[4] = { num_at(p, r, "periodSeconds"), NAN, NAN, num_at(p, r, "threads") };
		finding(s, "time", "oscillation", op, str_at(p, r, "config"), fig, "periodic", "%s %s: %s",
			str_at(p, r, "host") ? str_at(p, r, "host") : "-", op,
			str_at(p, r, "finding") ? str_at(p, r, "finding") : "oscillates");
	}
}

/* Slow array members (the devices section): a host's bad apple with its cause. */
static void slow_members(struct table *s, const struct table *d)
{
	size_t said = 0, slow = 0;
	for (size_t r = 0; r < d->nrows; r++) {
		if (!(num_at(d, r, "slow") > 0))
			continue;
		slow++;
		if (said == 5)
			continue;
		said++;
		const char *vol = str_at(d, r, "volume");
		char v[96] = "";
		if (vol)
			snprintf(v, sizeof(v), " (%s)", vol);
		const double fig[4] = { num_at(d, r, "vsSiblings"), NAN, NAN, num_at(d, r, "threads") };
		finding(s, "devices", "slowMember", str_at(d, r, "op"), str_at(d, r, "config"), fig, "devices",
			"slow member %s%s of %s on %s: await %.1fx its siblings', busy %.0f%%, %.0f of %.0f buckets; "
			"the array's await %.3g ms, %.3g at their speed",
			str_at(d, r, "member") ? str_at(d, r, "member") : "-", v, str_at(d, r, "array") ? str_at(d, r, "array") : "-",
			str_at(d, r, "host") ? str_at(d, r, "host") : "-", num_at(d, r, "vsSiblings"), num_at(d, r, "utilPct"),
			num_at(d, r, "slowBuckets"), num_at(d, r, "buckets"), num_at(d, r, "arrayAwaitMs"),
			num_at(d, r, "arrayAwaitAtSiblingsMs"));
	}
	if (slow > said)
		finding(s, "devices", "slowMember", NULL, NULL, NULL, "devices", "and %zu more slow members", slow - said);
}

/* ---- what to distrust, what was left out ---- */

static void targets(struct table *s, const struct table *t)
{
	size_t shown = 0;
	for (size_t r = 0; r < t->nrows; r++, shown++) {
		if (shown == 3) {
			finding(s, "targets", "target", NULL, NULL, NULL, "targets", "and %zu more hosts' targets",
				t->nrows - shown);
			break;
		}
		finding(s, "targets", "target", NULL, str_at(t, r, "config"), NULL, "targets", "%s: %s",
			str_at(t, r, "host") ? str_at(t, r, "host") : "-",
			str_at(t, r, "finding") ? str_at(t, r, "finding") : "not the volume provisioned");
	}
}

static void left_out(struct table *s, const struct rep_db *db)
{
	char text[400] = "";
	unsigned long total = 0;
	for (int k = 0; k < REP_PARTIAL_KINDS; k++)
		if (db->kept_apart[k]) {
			total += db->kept_apart[k];
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s%lu %s run%s", text[0] ? ", " : "",
				 db->kept_apart[k], rep_partial_name(k), db->kept_apart[k] == 1 ? "" : "s");
		}
	if (total) {
		const double fig[4] = { (double)total, NAN, NAN, NAN };
		finding(s, "left out", "keptApart", NULL, NULL, fig, "groups",
			"%s: kept apart, out of the figures (--include-partial merges them)", text);
	}
	if (db->runs_split)
		finding(s, "left out", "rounds", NULL, NULL, NULL, "groups",
			"rounds or runs of other durations are groups of their own (--merge-rounds)");
	if (db->skipped) {
		const double fig[4] = { (double)db->skipped, NAN, NAN, NAN };
		finding(s, "left out", "skipped", NULL, NULL, fig, "inputs",
			"%lu unreadable line%s skipped (said on stderr)", db->skipped, db->skipped == 1 ? "" : "s");
	}
}

/* How many whole configs the groups ran. */
static size_t configs_in(const struct table *gr)
{
	size_t n = 0;
	for (size_t r = 0; r < gr->nrows; r++) {
		const char *cfg = str_at(gr, r, "config");
		bool seen = false;
		for (size_t q = 0; q < r && !seen; q++)
			seen = str_eq(str_at(gr, q, "config"), cfg);
		n += !seen && is_whole(cfg);
	}
	return n;
}

static void rep_build_summary(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *s = &tables[SEC_SUMMARY];
	const struct table *th = &tables[SEC_THREADS], *cost = &tables[SEC_COST];
	struct op_size ops[MAX_OPS];
	size_t nops = ops_of(&tables[SEC_GROUPS], ops);
	targets(s, &tables[SEC_TARGETS]);
	for (size_t i = 0; i < nops; i++) {
		best_ops(s, ctx, &ops[i]);
		bursts(s, ctx, &ops[i]);
		best_dollar(s, cost, &ops[i]);
		comparisons(s, ctx, &tables[SEC_COMPARE], cost, &ops[i]);
	}
	if (!ctx->o->prices && configs_in(&tables[SEC_GROUPS]) > 1)
		finding(s, "cost", "noPrices", NULL, NULL, NULL, "cost",
			"which config gives the most per dollar: add --prices FILE (share/prices-sample.json)");
	/* hosts that failed first: what is missing bounds everything else the hosts say */
	fleet_hosts(s, &tables[SEC_FLEET]);
	bad_apples(s, ctx);
	at_cap(s, ctx);
	slow_members(s, &tables[SEC_DEVICES]);
	optima(s, th, ops, nops);
	tiers(s, &tables[SEC_TIERS]);
	oscillations(s, &tables[SEC_PERIODIC]);
	left_steady(s, &tables[SEC_STEADY]);
	durability(s, &tables[SEC_DURABILITY], &tables[SEC_DUR_VERIFY]);
	left_out(s, ctx->db);
}

/* ---- text ---- */

/* Columns text takes on a terminal: UTF-8 continuation bytes take none. */
static size_t cols_of(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* text (then "[section]") after a topic column of tw, wrapped at width at blanks. */
static void print_wrapped(FILE *out, const char *topic, size_t tw, const char *text, const char *section, size_t width)
{
	char line[1024];
	/* the section sticks to the last word: \001 is a blank that does not break */
	/* the text quotes hosts, configs and ops: cleaned for the terminal, the \001s are ours */
	term_snprintf(line, sizeof(line), "%s\001\001[%s]", text ? text : "", section ? section : "-");
	size_t room = width > tw + 20 ? width - tw : 20;
	const char *p = line;
	bool first = true;
	while (*p) {
		size_t n = strlen(p);
		if (cols_of(p, n) > room) {
			/* the last blank that keeps the line within room */
			size_t cut = 0, w = 0;
			for (size_t i = 0; p[i] && w <= room; i++) {
				if (p[i] == ' ')
					cut = i;
				w += ((unsigned char)p[i] & 0xc0) != 0x80;
			}
			n = cut ? cut : n;
		}
		term_printf(out, "%-*s", (int)tw, first ? topic : "");
		for (size_t i = 0; i < n; i++)
			fputc(p[i] == '\001' ? ' ' : p[i], out);
		fputc('\n', out);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
}

/* The optimum rows as a matrix: a row per config, a column per op. */
static void print_optima(FILE *out, const struct table *t, size_t tw)
{
	const char *cfgs[64], *ops[MAX_OPS];
	size_t nc = 0, no = 0, cw = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!str_eq(str_at(t, r, "kind"), "optimum"))
			continue;
		const char *c = str_at(t, r, "config") ? str_at(t, r, "config") : "-", *o = str_at(t, r, "op");
		size_t i = 0;
		while (i < nc && strcmp(cfgs[i], c) != 0)
			i++;
		if (i == nc && nc < 64) {
			cfgs[nc++] = c;
			cw = cw > cols_of(c, strlen(c)) ? cw : cols_of(c, strlen(c));
		}
		for (i = 0; i < no && strcmp(ops[i], o) != 0;)
			i++;
		if (i == no && no < MAX_OPS)
			ops[no++] = o;
	}
	if (!nc)
		return;
	fprintf(out, "%-*s%-*s", (int)tw, "threads", (int)cw + 2, "optimal threads");
	for (size_t j = 0; j < no; j++)
		term_printf(out, "  %10s", ops[j]);
	fprintf(out, "  [threads]\n");
	for (size_t i = 0; i < nc; i++) {
		term_printf(out, "%-*s  %-*s", (int)tw, "", (int)cw, cfgs[i]);
		for (size_t j = 0; j < no; j++) {
			double thr = NAN;
			for (size_t r = 0; r < t->nrows; r++)
				if (str_eq(str_at(t, r, "kind"), "optimum") && str_eq(str_at(t, r, "op"), ops[j]) &&
				    str_eq(str_at(t, r, "config") ? str_at(t, r, "config") : "-", cfgs[i]))
					thr = num_at(t, r, "threads");
			if (isnan(thr))
				fprintf(out, "  %10s", "-");
			else
				fprintf(out, "  %10.0f", thr);
		}
		fputc('\n', out);
	}
}

void rep_summary_print_text(const struct table *t, FILE *out, size_t width)
{
	if (t->nrows == 0)
		return;
	if (width == 0 || width > 100)
		width = 100;
	size_t tw = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *topic = str_at(t, r, "topic");
		size_t w = topic ? cols_of(topic, strlen(topic)) : 0;
		tw = tw > w ? tw : w;
	}
	tw += 2;
	fprintf(out, "Summary (the section with the evidence in [brackets]; --section NAME shows it)\n");
	const char *last = NULL;
	bool optima_said = false;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *topic = str_at(t, r, "topic");
		if (str_eq(str_at(t, r, "kind"), "optimum")) {
			if (!optima_said)
				print_optima(out, t, tw);
			optima_said = true;
			last = topic;
			continue;
		}
		/* a topic is said once, at its first finding */
		print_wrapped(out, last && str_eq(last, topic) ? "" : topic ? topic : "", tw, str_at(t, r, "finding"),
			      str_at(t, r, "section"), width);
		last = topic;
	}
	fputc('\n', out);
}

const struct rep_section_def rep_sec_summary = {
	.name = "summary",
	.title = "Summary",
	.help = "the answers, a finding a line: per op the best config by ops/s and\n"
		"by ops (MB) per dollar at its optimal threads, the comparisons and\n"
		"their verdicts, bad apples and hosts at their cap, failed or missing\n"
		"hosts, the thread optima (config x op), cache tiers, durability,\n"
		"runs left out; each names the section that holds its evidence",
	SECTION_COLS(rep_summary_cols),
	.build = rep_build_summary,
	.plot = true,
};
