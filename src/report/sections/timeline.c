/* report/sections/timeline.c - the sections over time and latency: time, regimes, series, watch, watchRegimes, modes. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/hist.h"
#include "report/base/alloc.h"
#include "report/base/stats.h"

#define MAX_STEPS 16

#define MAX_MODES 8

static const struct tcol time_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "buckets", "buckets", TC_INT, 0 },
	{ "meanOpsPerSec", "mean ops/s", TC_NUM, 1 },
	{ "minOpsPerSec", "min ops/s", TC_NUM, 1 },
	{ "maxOpsPerSec", "max ops/s", TC_NUM, 1 },
	{ "cv", "CV", TC_NUM, 3 },
	{ "regimeChanges", "changes", TC_INT, 0 },
};

static const struct tcol regimes_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "atSeconds", "from (s)", TC_NUM, 0 },
	{ "startUtc", "start (UTC)", TC_STR, 0 },
	{ "beforeOpsPerSec", "before ops/s", TC_NUM, 1 },
	{ "afterOpsPerSec", "after ops/s", TC_NUM, 1 },
	{ "change", "change", TC_PCT, 0 },
	{ "direction", "step", TC_STR, 0 },
};

/* Both the throughput-over-time table and its regime changes. */
static void build_time(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_TIME], *reg = &tables[SEC_REGIMES];
	const struct rep_db *db = ctx->db;
	const struct rep_opts *o = ctx->o;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		/* A probe's throughput is its schedule; its latency series is the watch section. */
		if (c->npts < 2 || c->watch)
			continue;
		double *x = rep_calloc(c->npts, sizeof(*x));
		double sum = 0, lo = INFINITY, hi = 0;
		for (size_t k = 0; k < c->npts; k++) {
			x[k] = c->pts[k].ops;
			sum += x[k];
			lo = fmin(lo, x[k]);
			hi = fmax(hi, x[k]);
		}
		struct stats_step steps[MAX_STEPS];
		size_t ns = stats_regimes(x, c->npts, o->regime_min, o->regime_rel, steps, MAX_STEPS);
		table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, c->host, (double)c->npts,
			  sum / (double)c->npts, lo, hi, stats_cv(x, c->npts), (double)ns);
		for (size_t k = 0; k < ns; k++) {
			double at = c->pts[steps[k].at].t - c->pts[0].t;
			double change = steps[k].before > 0 ? steps[k].after / steps[k].before - 1 : NAN;
			/* launchTime is an epoch for iobench, seconds of uptime for the 2012 tool */
			char utc[32] = "";
			double when = c->pts[steps[k].at].t;
			if (when > 1e9 && when < 1e11) {
				time_t tt = (time_t)when;
				struct tm tm;
				if (gmtime_r(&tt, &tm))
					strftime(utc, sizeof(utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
			}
			table_row(reg, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, c->host, at,
				  utc[0] ? utc : NULL, steps[k].before, steps[k].after, change,
				  steps[k].after < steps[k].before ? "down" : "up");
		}
		free(x);
	}
}

static const struct tcol series_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "atSeconds", "at (s)", TC_NUM, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "vsHostMedian", "vs host median", TC_NUM, 3 },
};

static void build_series(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_SERIES];
	const struct rep_db *db = ctx->db;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		if (c->npts == 0 || c->watch)
			continue;
		double *x = rep_calloc(c->npts, sizeof(*x));
		for (size_t k = 0; k < c->npts; k++)
			x[k] = c->pts[k].ops;
		double med = stats_median(x, c->npts);
		for (size_t k = 0; k < c->npts; k++)
			table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, c->host,
				  c->pts[k].t - c->pts[0].t, c->pts[k].ops,
				  med > 0 ? c->pts[k].ops / med : NAN);
		free(x);
	}
}

static const struct tcol watch_cols[] = {
	OP_COLS,
	CONFIG_COLS,
	{ "host", "host", TC_STR, 0 },
	{ "periods", "periods", TC_INT, 0 },
	{ "firstUtc", "first (UTC)", TC_STR, 0 },
	{ "lastUtc", "last (UTC)", TC_STR, 0 },
	{ "medianP50Ns", "median p50", TC_NS, 0 },
	{ "medianP99Ns", "median p99", TC_NS, 0 },
	{ "maxP99Ns", "max p99", TC_NS, 0 },
	{ "regimeChanges", "p99 changes", TC_INT, 0 },
};

static const struct tcol watch_regimes_cols[] = {
	OP_COLS,
	CONFIG_COLS,
	{ "host", "host", TC_STR, 0 },
	{ "startUtc", "from (UTC)", TC_STR, 0 },
	{ "beforeP99Ns", "p99 before", TC_NS, 0 },
	{ "afterP99Ns", "p99 after", TC_NS, 0 },
	{ "change", "change", TC_PCT, 0 },
	{ "direction", "step", TC_STR, 0 },
};

/* Probe lines: p50/p99 per period, and lasting steps in p99 (a tail that jumped and stayed). */
static void build_watch(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_WATCH], *reg = &tables[SEC_WATCH_REGIMES];
	const struct rep_db *db = ctx->db;
	const struct rep_opts *o = ctx->o;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		if (!c->watch || c->npts == 0)
			continue;
		double *p50 = rep_calloc(c->npts, sizeof(*p50)), *p99 = rep_calloc(c->npts, sizeof(*p99));
		double *at = rep_calloc(c->npts, sizeof(*at));
		size_t n = 0;
		double hi = 0;
		for (size_t k = 0; k < c->npts; k++) {
			if (isnan(c->pts[k].p99))
				continue;
			p50[n] = c->pts[k].p50;
			p99[n] = c->pts[k].p99;
			at[n] = c->pts[k].t;
			hi = fmax(hi, p99[n]);
			n++;
		}
		if (n == 0) {
			free(p50), free(p99), free(at);
			continue;
		}
		struct stats_step steps[MAX_STEPS];
		size_t ns = stats_regimes(p99, n, o->regime_min, o->regime_rel, steps, MAX_STEPS);
		char first[32], last[32];
		rep_utc_of(at[0], first, sizeof(first));
		rep_utc_of(at[n - 1], last, sizeof(last));
		for (size_t k = 0; k < ns; k++) {
			char from[32];
			rep_utc_of(at[steps[k].at], from, sizeof(from));
			table_row(reg, c->sig, c->op, rep_cfg_name(c), c->cfg->labels, c->host, from[0] ? from : NULL, steps[k].before,
				  steps[k].after, steps[k].before > 0 ? steps[k].after / steps[k].before - 1 : NAN,
				  steps[k].after < steps[k].before ? "down" : "up");
		}
		/* medians last: stats_median may reorder its input */
		double m50 = stats_median(p50, n), m99 = stats_median(p99, n);
		table_row(t, c->sig, c->op, rep_cfg_name(c), c->cfg->labels, c->host, (double)n, first[0] ? first : NULL,
			  last[0] ? last : NULL, m50, m99, hi, (double)ns);
		free(p50), free(p99), free(at);
	}
}

static const struct tcol modes_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "mode", "mode", TC_INT, 0 },
	{ "latencyNs", "latency", TC_NS, 0 },
	{ "share", "share", TC_PCT, 0 },
	{ "fromNs", "from", TC_NS, 0 },
	{ "toNs", "to", TC_NS, 0 },
	{ "note", "note", TC_STR, 0 },
};

static void build_modes(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_MODES];
	const struct rep_group *g = ctx->view;
	size_t ng = ctx->nv;
	const struct rep_opts *o = ctx->o;
	char hb[64], note[128];
	for (size_t i = 0; i < ng; i++) {
		struct stats_mode m[MAX_MODES];
		size_t nm = stats_modes(g[i].total.buckets, HIST_NBUCKETS, o->mode_min_share, m, MAX_MODES);
		const struct rep_cell *c = g[i].cells[0];
		for (size_t k = 0; k < nm; k++) {
			double at = hist_bucket_start(m[k].peak) * sqrt(HIST_RATIO);
			note[0] = '\0';
			if (k == 0 && nm >= 2) {
				double next = hist_bucket_start(m[1].peak) * sqrt(HIST_RATIO);
				if (at * 4 <= next)
					snprintf(note, sizeof(note), "fast mode: cache hit ratio about %.0f%%",
						 m[0].share * 100);
			}
			table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, rep_host_of(&g[i], hb, sizeof(hb)),
				  (double)(k + 1), at, m[k].share, hist_bucket_start(m[k].from),
				  hist_bucket_start(m[k].to + 1), note);
		}
	}
}

const struct rep_section_def rep_sec_time = {
	.name = "time",
	.title = "Throughput over time (per host, per time bucket)",
	.help = "per-host throughput per time bucket: mean, min, max, CV",
	SECTION_COLS(time_cols),
	.build = build_time,
	.shown = REP_SHOWN_DETAIL,
};

const struct rep_section_def rep_sec_regimes = {
	.name = "regimes",
	.title = "Regime changes (lasting steps in throughput)",
	.help = "lasting steps up or down in that throughput, with their start",
	SECTION_COLS(regimes_cols),
	.build = build_time,
	.shown = REP_SHOWN_DETAIL,
};

const struct rep_section_def rep_sec_series = {
	.name = "series",
	.title = "Throughput per time bucket (seconds since the host's first bucket)",
	.help = "every time bucket: ops/s and ops/s / host median (ask by name)",
	SECTION_COLS(series_cols),
	.build = build_series,
	.shown = REP_SHOWN_NAMED,
};

const struct rep_section_def rep_sec_watch = {
	.name = "watch",
	.title = "Latency over time (iobench watch, one point per period)",
	.help = "iobench watch lines: p50/p99 per period over days, per host and op",
	SECTION_COLS(watch_cols),
	.build = build_watch,
};

const struct rep_section_def rep_sec_watchRegimes = {
	.name = "watchRegimes",
	.title = "Regime changes in the probes' p99 (lasting steps)",
	.help = "lasting steps in the probes' p99 (a tail that jumped and stayed)",
	SECTION_COLS(watch_regimes_cols),
	.build = build_watch,
};

const struct rep_section_def rep_sec_modes = {
	.name = "modes",
	.title = "Latency modes (peaks of the log-scale histogram)",
	.help = "peaks of the latency histogram with their share of operations",
	SECTION_COLS(modes_cols),
	.build = build_modes,
	.shown = REP_SHOWN_DETAIL,
};
