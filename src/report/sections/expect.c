/* report/sections/expect.c - `--expect FILE`: expected figures for a box, PASS or FAIL against the results. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/expect.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/sections/section.h"
#include "report/base/stats.h"
#include "report/store/opname.h"

#define MAX_WORDS 12
/* An expectation is a dozen words: a longer line is no expectations file. */
#define MAX_LINE 4096

static const struct {
	const char *name;
	enum rep_metric metric;
	double pct;
} metrics[] = {
	{ "iops", RM_OPS, 0 },       { "ops/s", RM_OPS, 0 },     { "mbps", RM_MBPS, 0 },    { "MB/s", RM_MBPS, 0 },
	{ "p50", RM_PCT, 0.5 },      { "p90", RM_PCT, 0.9 },     { "p95", RM_PCT, 0.95 },   { "p99", RM_PCT, 0.99 },
	{ "p99.9", RM_PCT, 0.999 },  { "p99.99", RM_PCT, 0.9999 }, { "mean", RM_MEAN, 0 }, { "max", RM_MAX, 0 },
	{ "errors", RM_ERRORS, 0 },
};

/* The largest thread count an expectation may name: iobench runs at most this many. */
#define MAX_THREADS 4096

static int metric_find(const char *w)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (strcasecmp(w, metrics[i].name) == 0)
			return (int)i;
	return -1;
}

static bool is_latency(enum rep_metric m)
{
	return m == RM_PCT || m == RM_MEAN || m == RM_MAX;
}

/* A duration unit's factor to ns, or 0: the one table of units (lib/units.h), as --floor reads it. */
static double duration_unit(const char *u)
{
	return units_duration_ns(u);
}

/* "PATH:LINE: what; what to do" into err; -EINVAL. */
__attribute__((format(printf, 5, 0)))
static int vrefuse(char *err, size_t errlen, const char *path, unsigned line, const char *fmt, va_list ap)
{
	char what[400];
	vsnprintf(what, sizeof(what), fmt, ap);
	snprintf(err, errlen, "%s:%u: %s", path, line, what);
	return -EINVAL;
}

/* A line refused with its own advice (fmt says what is wrong and what to do). */
__attribute__((format(printf, 5, 6)))
static int refuse(char *err, size_t errlen, const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vrefuse(err, errlen, path, line, fmt, ap);
	va_end(ap);
	return rc;
}

/* A line refused for its form: what is wrong, then the grammar by example. */
__attribute__((format(printf, 5, 6)))
static int bad(char *err, size_t errlen, const char *path, unsigned line, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return refuse(err, errlen, path, line, "%s; write e.g. 'read4k >= 15000 iops at 16 threads' or 'write4k p99 <= 5ms'",
		      what);
}

/* Whether w starts as a hex number does ("0x10"): refused, not read as 0 and a unit "x10". */
static bool is_hex(const char *w)
{
	return w[0] == '0' && (w[1] == 'x' || w[1] == 'X');
}

/* The thread count of "at N threads": a whole number 1..MAX_THREADS in decimal; 0 or -EINVAL (err set). */
static int parse_threads(const char *w, double *out, const char *path, unsigned line, char *err, size_t errlen)
{
	uint64_t n;
	double v;
	const char *end;
	if (is_hex(w))
		return refuse(err, errlen, path, line, "thread count '%s' is hex; write it in decimal, e.g. at 16 threads", w);
	if (units_parse_u64(w, 1, MAX_THREADS, &n) == 0) {
		*out = (double)n;
		return 0;
	}
	if (units_parse_decimal(w, &v, &end) == 0 && *end == '\0' && v > 0 && v <= MAX_THREADS)
		return refuse(err, errlen, path, line, "'at %s threads': a thread count is a whole number; say at %.0f or %.0f "
			      "threads", w, floor(v) > 0 ? floor(v) : 1, ceil(v));
	return refuse(err, errlen, path, line, "'%s' is not a thread count; say at N threads, N a whole number from 1 to %d",
		      w, MAX_THREADS);
}

/* One line's words (w[0..nw)) into e; 0 or -EINVAL (err set). */
static int parse_words(char **w, int nw, struct rep_expect *e, const char *path, char *err, size_t errlen)
{
	int i = 0;
	/* the op as typed, whichever form the line used: rows show it so, and match either */
	rep_op_name(w[i++], e->op, sizeof(e->op));
	int m = i < nw ? metric_find(w[i]) : -1;
	bool have_metric = m >= 0;
	if (have_metric) {
		e->metric = metrics[m].metric;
		e->pct = metrics[m].pct;
		i++;
	}
	if (i >= nw || !(strcmp(w[i], ">=") == 0 || strcmp(w[i], "<=") == 0 || strcmp(w[i], ">") == 0 ||
			 strcmp(w[i], "<") == 0))
		return bad(err, errlen, path, e->line, "expected a comparison (>=, <=, >, <) after '%s'", w[i - 1]);
	snprintf(e->cmp, sizeof(e->cmp), "%s", w[i++]);
	if (i >= nw)
		return bad(err, errlen, path, e->line, "no number after '%s'", e->cmp);
	const char *num = w[i], *end;
	double v;
	if (is_hex(num))
		return refuse(err, errlen, path, e->line, "'%s' is hex; write the number in decimal", num);
	/* a plain decimal: no sign, no hex, no inf or nan */
	if (units_parse_decimal(num, &v, &end) != 0)
		return bad(err, errlen, path, e->line, "'%s' is not a number", num);
	i++;
	/* the unit: stuck to the number (5ms) or the next word (5 ms, 15000 iops) */
	const char *unit = *end ? end : NULL;
	if (!unit && i < nw && strcmp(w[i], "at") != 0)
		unit = w[i++];
	int um = unit ? metric_find(unit) : -1;
	double scale = unit ? duration_unit(unit) : 0;
	if (unit && um >= 0 && metrics[um].metric != RM_ERRORS && !is_latency(metrics[um].metric)) {
		if (have_metric && e->metric != metrics[um].metric)
			return bad(err, errlen, path, e->line, "unit '%s' does not go with a %s figure", unit,
				   is_latency(e->metric) ? "latency" : "throughput");
		e->metric = metrics[um].metric;
		have_metric = true;
	} else if (unit && scale > 0) {
		if (!have_metric)
			return bad(err, errlen, path, e->line, "say which latency (p50, p99, mean, max ...) is %s", w[i - 1]);
		if (!is_latency(e->metric))
			return bad(err, errlen, path, e->line, "a duration '%s' for a throughput figure", unit);
		v *= scale;
	} else if (unit && !(um >= 0 && metrics[um].metric == RM_ERRORS && have_metric && e->metric == RM_ERRORS)) {
		return bad(err, errlen, path, e->line, "unknown unit '%s' (iops, ops/s, MB/s; ns, us or \xc2\xb5s, ms, s)",
			   unit);
	}
	if (!have_metric)
		return bad(err, errlen, path, e->line, "say what %s is (iops, MB/s, p99 ...)", w[i - 1]);
	/* 5 could be 5us or 5ms: a latency says its unit, as a bare throughput says what it counts */
	if (!unit && is_latency(e->metric))
		return refuse(err, errlen, path, e->line, "latency '%s' has no unit; say %sus or %gms (ns, us or \xc2\xb5s, "
			      "ms, s)", num, num, v / 1e3);
	e->value = v;
	if (i < nw) {
		if (strcmp(w[i], "at") != 0 || i + 1 >= nw)
			return bad(err, errlen, path, e->line, "unexpected '%s' (only 'at N threads' may follow)", w[i]);
		if (parse_threads(w[i + 1], &e->threads, path, e->line, err, errlen) != 0)
			return -EINVAL;
		i += 2;
		if (i < nw && (strcmp(w[i], "threads") == 0 || strcmp(w[i], "thread") == 0))
			i++;
	}
	if (i < nw)
		return bad(err, errlen, path, e->line, "unexpected '%s' at the end", w[i]);
	return 0;
}

/*
 * The next line of f into buf (newline dropped): 1, 0 at the end, or -1 for
 * a line over MAX_LINE bytes (read no further: /dev/zero has no newline)
 * or a NUL byte (not a text file).
 */
static int next_line(FILE *f, char *buf, size_t len)
{
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0' || n + 1 >= len)
			return -1;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return c == EOF && n == 0 ? 0 : 1;
}

int rep_expect_parse(FILE *f, const char *path, struct rep_expect **out, size_t *n, char *err, size_t errlen)
{
	char *line = rep_realloc(NULL, MAX_LINE + 1);
	size_t have = 0, room = 0;
	struct rep_expect *list = NULL;
	unsigned lineno = 0;
	int rc = 0;
	*out = NULL;
	*n = 0;
	for (int got; (got = next_line(f, line, MAX_LINE + 1)) != 0;) {
		lineno++;
		if (got < 0) {
			rc = bad(err, errlen, path, lineno, "not a line of text (over %d bytes, or a NUL byte)", MAX_LINE);
			break;
		}
		/* a UTF-8 byte-order mark (an editor's) is skipped, as in result files */
		char *text = lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0 ? line + 3 : line;
		text[strcspn(text, "#\r\n")] = '\0';
		char *w[MAX_WORDS + 1];
		int nw = 0;
		for (char *tok = strtok(text, " \t"); tok; tok = strtok(NULL, " \t"))
			if (nw <= MAX_WORDS)
				w[nw++] = tok;
		if (nw == 0)
			continue;
		if (nw > MAX_WORDS) {
			rc = bad(err, errlen, path, lineno, "too many words");
			break;
		}
		if (have == room) {
			room = room ? room * 2 : 8;
			list = rep_realloc(list, room * sizeof(*list));
		}
		struct rep_expect *e = &list[have];
		memset(e, 0, sizeof(*e));
		e->line = lineno;
		rc = parse_words(w, nw, e, path, err, errlen);
		if (rc)
			break;
		/* as written, but the op as typed: read,4K,4K reads read4k in the table */
		for (int k = 0; k < nw; k++)
			snprintf(e->text + strlen(e->text), sizeof(e->text) - strlen(e->text), "%s%s", k ? " " : "",
				 k ? w[k] : e->op);
		have++;
	}
	free(line);
	if (rc == 0 && have == 0) {
		snprintf(err, errlen, "%s: has no expectations; write one per line, e.g. 'read4k >= 15000 iops'", path);
		rc = -EINVAL;
	}
	if (rc) {
		free(list);
		return rc;
	}
	*out = list;
	*n = have;
	return 0;
}

int rep_expect_holds(const struct rep_expect *e, double measured)
{
	if (isnan(measured))
		return 0;
	if (strcmp(e->cmp, ">=") == 0)
		return measured >= e->value;
	if (strcmp(e->cmp, "<=") == 0)
		return measured <= e->value;
	if (strcmp(e->cmp, ">") == 0)
		return measured > e->value;
	return measured < e->value;
}

/* ---- the section ---- */

static const struct tcol rep_expect_cols[] = {
	{ "result", "result", TC_STR, 0 },
	{ "line", "line", TC_INT, 0 },
	{ "expectation", "expected", TC_STR, 0 },
	{ "op", NULL, TC_STR, 0 },        /* as typed; the expectation shows it */
	{ "signature", NULL, TC_STR, 0 }, /* the 2012 signature of the runs judged; null when none ran */
	{ "host", "host", TC_STR, 0 },
	{ "config", "config", TC_STR, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "measured", NULL, TC_NUM, 6 },
	{ NULL, "measured", TC_STR, 0 },
	{ "detail", "detail", TC_STR, 0 },
};
/* e->op is as typed whichever form its line used (parse_words); a signature it does not know stays one. */
static bool op_is(const struct rep_cell *c, const char *op)
{
	return strcmp(c->op, op) == 0 || strcmp(c->sig, op) == 0;
}

static double measure(const struct rep_expect *e, const struct rep_cell *c)
{
	double ops = rep_cell_ops(c);
	switch (e->metric) {
	case RM_OPS:
		return ops;
	case RM_MBPS:
		return c->block ? ops * (double)c->block / 1e6 : NAN;
	case RM_PCT:
		return c->total.count ? hist_percentile(&c->total, e->pct) : NAN;
	case RM_MEAN:
		return c->total.count ? hist_mean(&c->total) : NAN;
	case RM_MAX:
		return c->total.count ? (double)c->total.max_ns : NAN;
	case RM_ERRORS:
		return (double)c->total.errors;
	}
	return NAN;
}

static void format_measured(const struct rep_expect *e, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (e->metric == RM_OPS)
		snprintf(buf, len, "%.0f iops", v);
	else if (e->metric == RM_MBPS)
		snprintf(buf, len, "%.1f MB/s", v);
	else if (e->metric == RM_ERRORS)
		snprintf(buf, len, "%.0f errors", v);
	else
		units_format_ns(buf, len, v);
}

/* Cells a and b are one box's runs of one op: same host, config and size. */
static bool same_box(const struct rep_cell *a, const struct rep_cell *b)
{
	return a->cfg == b->cfg && a->size == b->size && strcmp(a->host, b->host) == 0 && strcmp(a->sig, b->sig) == 0;
}

/* Check e on every box that ran its op: one row each, or one FAIL row when none did. */
static void check_one(struct table *t, const struct rep_ctx *ctx, const struct rep_expect *e, size_t *failed)
{
	const struct rep_db *db = ctx->db;
	size_t rows = t->nrows;
	bool *done = rep_calloc(db->ncells + 1, sizeof(*done));
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		if (done[i] || c->watch || !op_is(c, e->op))
			continue;
		/* this box's runs of the op: the thread count asked for, else its optimum */
		double thr[64], ops[64];
		const struct rep_cell *cand[64];
		size_t n = 0;
		for (size_t j = i; j < db->ncells; j++)
			if (!done[j] && same_box(c, db->cells[j])) {
				done[j] = true;
				if (n < 64 && (e->threads == 0 || db->cells[j]->threads == e->threads)) {
					cand[n] = db->cells[j];
					thr[n] = cand[n]->threads;
					ops[n] = rep_cell_ops(cand[n]);
					n++;
				}
			}
		char detail[200] = "", shown[64];
		const struct rep_cell *pick = n ? cand[stats_thread_optimum(thr, ops, n, ctx->o->within)] : NULL;
		/*
		 * A latency or an error count said without a thread count must hold
		 * at every thread count measured (a p99 fine at the optimum's one
		 * thread and 101 ms at 16 is no pass): judged at the one that binds,
		 * the first that fails, else the closest to failing.
		 */
		bool every = e->threads == 0 && n > 1 && e->metric != RM_OPS && e->metric != RM_MBPS;
		if (every) {
			pick = NULL;
			for (size_t k = 0; k < n && !(pick && !rep_expect_holds(e, measure(e, pick))); k++) {
				double x = measure(e, cand[k]), best = pick ? measure(e, pick) : NAN;
				/* closest to failing: the largest under an upper bound (<, <=), the smallest over a lower */
				bool up = e->cmp[0] == '<';
				bool worse = !pick || !rep_expect_holds(e, x) || (!isnan(best) && (up ? x > best : x < best));
				if (worse)
					pick = cand[k];
			}
		}
		double v = pick ? measure(e, pick) : NAN;
		bool ok = pick && rep_expect_holds(e, v);
		if (!pick)
			snprintf(detail, sizeof(detail), "no run of %s at %g threads", e->op, e->threads);
		else if (every) {
			char list[96] = "";
			for (size_t k = 0; k < n && strlen(list) < sizeof(list) - 12; k++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%g", k ? ", " : "", thr[k]);
			if (ok)
				snprintf(detail, sizeof(detail), "holds at every thread count measured (%s)", list);
			else
				snprintf(detail, sizeof(detail), "fails at %g threads (of %s measured: without \"at N "
					 "threads\" it must hold at each)", pick->threads, list);
		} else if (e->threads == 0 && n > 1)
			snprintf(detail, sizeof(detail), "at its optimal thread count");
		format_measured(e, v, shown, sizeof(shown));
		*failed += !ok;
		table_row(t, ok ? "PASS" : "FAIL", (double)e->line, e->text, c->op, c->sig, c->host, rep_cfg_name(c),
			  pick ? pick->threads : NAN, v, shown, detail[0] ? detail : NULL);
	}
	free(done);
	if (t->nrows == rows) {
		char detail[200];
		snprintf(detail, sizeof(detail), "no %s results were read", e->op);
		(*failed)++;
		table_row(t, "FAIL", (double)e->line, e->text, e->op, NULL, NULL, NULL, NAN, NAN, "-", detail);
	}
}

static void rep_build_expect(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_EXPECT];
	size_t failed = 0;
	for (size_t i = 0; i < ctx->o->nexpect; i++)
		check_one(t, ctx, &ctx->o->expect[i], &failed);
	if (t->nrows)
		table_note(t, "%s: %zu of %zu checks passed", failed ? "FAIL" : "PASS", t->nrows - failed, t->nrows);
}

const struct rep_section_def rep_sec_expect = {
	.name = "expect",
	.title = "Expectations (--expect): PASS or FAIL per box",
	.help = "--expect FILE's expected figures, PASS or FAIL per host (only with\n"
		"--expect, and then alone unless --section names others)",
	SECTION_COLS(rep_expect_cols),
	.build = rep_build_expect,
	.shown = REP_SHOWN_OPTION,
};
