/* report/analyze.c - the report's sections, built from grouped cells. */
#include "report/analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/units.h"
#include "report/alloc.h"
#include "report/durability.h"
#include "report/price.h"
#include "report/section.h"
#include "report/stats.h"

#define MAX_MODES 8
#define MAX_STEPS 16

void rep_opts_default(struct rep_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->floor_ns = 50e3;
	o->tier_min = STATS_TIER_MIN;
	o->regime_rel = 0.2;
	o->regime_min = 3;
	o->mode_min_share = 0.01;
	o->within = 0.05;
	o->rounds = 2000;
	o->seed = 12;
}

static const char *host_of(const struct rep_group *g, char *buf, size_t len)
{
	if (g->n == 1)
		return g->cells[0]->host;
	snprintf(buf, len, "(%zu hosts)", g->n);
	return buf;
}

static double mb_per_sec(double ops, uint64_t block)
{
	return block ? ops * (double)block / 1e6 : NAN;
}

/* ---- sections ---- */

/* Every section that names a configuration: its name, and the user's labels as data. */
#define CONFIG_COLS { "config", "config", TC_STR, 0 }, { "labels", NULL, TC_STR, 0 }

/*
 * Every section that names an op: the 2012 signature (read,4K,4K) as data,
 * which scripts select on, and the op as typed (read4k), which people read.
 */
#define OP_COLS { "signature", NULL, TC_STR, 0 }, { "op", "op", TC_STR, 0 }

static const struct tcol groups_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "provision", NULL, TC_STR, 0 },
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "hosts", "hosts", TC_INT, 0 },
	{ "runs", "runs", TC_INT, 0 },
	{ "count", "ops", TC_INT, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "mbPerSec", "MB/s", TC_NUM, 2 },
	{ "meanNs", "mean", TC_NS, 0 },
	{ "p50Ns", "p50", TC_NS, 0 },
	{ "p90Ns", "p90", TC_NS, 0 },
	{ "p95Ns", "p95", TC_NS, 0 },
	{ "p99Ns", "p99", TC_NS, 0 },
	{ "p999Ns", "p99.9", TC_NS, 0 },
	{ "maxNs", "max", TC_NS, 0 },
	{ "errors", "errors", TC_INT, 0 },
	{ "cpuNsPerOp", "cpu/op", TC_NS, 0 },
	{ "writeP99Ns", NULL, TC_NS, 0 },
	{ "syncP99Ns", NULL, TC_NS, 0 },
};

/*
 * p99 of a syncing op's writes alone (sync false) or of its fdatasyncs
 * (true), merged over the group; NAN unless every run kept them apart.
 */
static double split_p99(const struct rep_group *g, bool sync)
{
	struct hist h;
	hist_init(&h);
	for (size_t k = 0; k < g->n; k++) {
		const struct rep_cell *c = g->cells[k];
		if (c->split_runs != c->runs)
			return NAN;
		hist_merge(&h, sync ? &c->sync : &c->write_only);
	}
	return h.count ? hist_percentile(&h, 0.99) : NAN;
}

/* CPU time per operation over the group's runs that recorded it; NAN when none did. */
static double cpu_per_op(const struct rep_group *g)
{
	double ns = 0, ops = 0;
	for (size_t k = 0; k < g->n; k++) {
		ns += g->cells[k]->cpu_ns;
		ops += g->cells[k]->cpu_ops;
	}
	return ops > 0 ? ns / ops : NAN;
}

static void build_groups(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_GROUPS];
	const struct rep_group *g = ctx->view;
	size_t ng = ctx->nv;
	char hb[64];
	for (size_t i = 0; i < ng; i++) {
		const struct rep_cell *c = g[i].cells[0];
		const struct hist *h = &g[i].total;
		table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, c->cfg->facts, (double)c->size,
			  host_of(&g[i], hb, sizeof(hb)), (double)g[i].n, (double)g[i].runs, (double)h->count, g[i].ops,
			  mb_per_sec(g[i].ops, c->block), hist_mean(h), hist_percentile(h, 0.5),
			  hist_percentile(h, 0.9), hist_percentile(h, 0.95), hist_percentile(h, 0.99),
			  hist_percentile(h, 0.999), h->count ? (double)h->max_ns : NAN, (double)h->errors,
			  cpu_per_op(&g[i]), split_p99(&g[i], false), split_p99(&g[i], true));
	}
}

static const struct tcol instances_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "hosts", NULL, TC_INT, 0 },
	{ "plannedHosts", NULL, TC_INT, 0 },
	{ NULL, "hosts", TC_STR, 0 },
	{ "minOpsPerSec", "min ops/s", TC_NUM, 1 },
	{ "medianOpsPerSec", "median ops/s", TC_NUM, 1 },
	{ "maxOpsPerSec", "max ops/s", TC_NUM, 1 },
	{ "bestWorstRatio", "best/worst", TC_NUM, 2 },
	{ "madOpsPerSec", "MAD", TC_NUM, 1 },
	{ "badApples", "bad apples", TC_INT, 0 },
	{ "atCap", "at cap", TC_INT, 0 },
	{ "capOpsPerSec", "cap", TC_NUM, 0 },
	{ "p50Ns", "fleet p50", TC_NS, 0 },
	{ "p95Ns", "fleet p95", TC_NS, 0 },
	{ "p99Ns", "fleet p99", TC_NS, 0 },
	{ "oneInTenChance", NULL, TC_NUM, 3 },
	{ "note", "note", TC_STR, 0 },
};

static const struct tcol bad_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "medianOpsPerSec", "fleet median", TC_NUM, 1 },
	{ "vsMedian", "vs median", TC_PCT, 0 },
	{ "capOpsPerSec", "cap", TC_NUM, 0 },
	{ "p50Ns", "p50", TC_NS, 0 },
	{ "p95Ns", "p95", TC_NS, 0 },
	{ "p99Ns", "p99", TC_NS, 0 },
	{ "errors", "errors", TC_INT, 0 },
	{ "badApple", NULL, TC_BOOL, 0 },
	{ "rule", "rule", TC_STR, 0 },
};

static int cmp_host(const void *key, const void *cell)
{
	return strverscmp(key, (*(struct rep_cell *const *)cell)->host);
}

/* True when one of the group's cells (sorted by host) is of host name. */
static bool group_has_host(const struct rep_group *g, const char *name)
{
	return bsearch(name, g->cells, g->n, sizeof(*g->cells), cmp_host) != NULL;
}

static bool in_list(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* True when some cell of host name is of configuration cfg. */
static bool host_ran_config(const struct rep_db *db, const char *name, const struct rep_config *cfg)
{
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->cfg == cfg && strcmp(db->cells[i]->host, name) == 0)
			return true;
	return false;
}

/*
 * Whether fleet host f (not among g's) was meant to run g's configuration:
 * its provisioned facts say so when the manifest has them; else its lines,
 * when it sent some (a host that ran only other configurations was not);
 * else it may have been.
 */
static bool planned_for(const struct rep_db *db, const struct rep_fleet_host *f, const struct rep_group *g)
{
	const struct rep_config *cfg = g->cells[0]->cfg;
	if (f->facts[0])
		return !cfg->facts[0] || strcmp(f->facts, cfg->facts) == 0;
	return !f->has_lines || host_ran_config(db, f->name, cfg);
}

/*
 * The hosts planned for group g: its own, and the hosts of the same fleet
 * runs (any manifest that names one of its hosts) that sent nothing for it
 * but were meant to run its configuration. NAN when no manifest names its
 * hosts.
 */
static double planned_hosts(const struct rep_db *db, const struct rep_group *g)
{
	const char **runs = rep_calloc(db->nfleet + 1, sizeof(*runs));
	size_t nr = 0;
	for (size_t i = 0; i < db->nfleet; i++)
		if (!in_list(runs, nr, db->fleet[i].run) && group_has_host(g, db->fleet[i].name))
			runs[nr++] = db->fleet[i].run;
	double planned = nr ? (double)g->n : NAN;
	const char *counted = NULL;
	for (size_t i = 0; nr && i < db->nfleet; i++) {
		const struct rep_fleet_host *f = &db->fleet[i];
		if (!in_list(runs, nr, f->run) || group_has_host(g, f->name) || !planned_for(db, f, g))
			continue;
		/* db->fleet is sorted by name: one host of two runs is counted once */
		if (!counted || strcmp(counted, f->name) != 0)
			planned++;
		counted = f->name;
	}
	free(runs);
	return planned;
}

/* "3000 ops/s provisioned", "125 MiB/s gp3 baseline"-style words for a cell's cap. */
static void cap_words(const struct rep_cell *c, double cap, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f ops/s %s", cap,
		 c->rate > 0 ? "its --rate" : rep_cell_cap_is_baseline(c) ? "by the volume type's baseline" : "provisioned");
}

/* Why a flagged host is a bad apple: both tests (or the shortfall alone, said so), and a cap that does not hold. */
static void bad_rule(char *buf, size_t len, double v, double med, double mad, size_t n, double far_cap)
{
	double z = stats_robust_z(v, med, mad);
	int o = 0;
	if (n < STATS_Z_MIN_HOSTS)
		o = snprintf(buf, len, "%.0f%% below the median (>= %.0f%%); %zu hosts: too few for a robust z, "
			     "the shortfall alone", 100 * (1 - v / med), 100 * STATS_MIN_SHORTFALL, n);
	else if (isinf(z))
		o = snprintf(buf, len, "robust z -inf (MAD 0) < %.0f and %.0f%% below the median (>= %.0f%%)",
			     STATS_BAD_Z, 100 * (1 - v / med), 100 * STATS_MIN_SHORTFALL);
	else
		o = snprintf(buf, len, "robust z %.1f < %.0f and %.0f%% below the median (>= %.0f%%)", z, STATS_BAD_Z,
			     100 * (1 - v / med), 100 * STATS_MIN_SHORTFALL);
	if (far_cap > 0 && o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o,
			 "; fleet median %.0f ops/s is far above the %.0f ops/s cap: the facts are wrong or the volume "
			 "was not what was measured, so the host is judged against the fleet", med, far_cap);
}

/*
 * Whether host cell c running v ops/s is at its cap in a fleet of median
 * med: within 5% of the cap (or of what is left after a burst), and, for a
 * cap from the volume's facts, the fleet's median near it too (a fleet far
 * above the cap says the cap model does not describe these hosts). *far
 * gets the provisioned cap the median runs far above, else 0.
 */
static bool held_at_cap(const struct rep_cell *c, double v, double med, double *far)
{
	double cap = rep_cell_cap(c), lo = rep_cell_cap_after_burst(c);
	*far = 0;
	if (!(cap > 0))
		return false;
	bool at = stats_at_cap(v, cap) || stats_at_cap(v, lo);
	if (c->rate > 0)
		return at;
	if (stats_cap_far_below_median(med, cap)) {
		*far = cap;
		return false;
	}
	return at && med >= lo / STATS_CAP_FAR;
}

/* Both the instances table and the bad apples among them. */
static void build_instances(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_INSTANCES], *bad = &tables[SEC_BAD_APPLES];
	const struct rep_group *g = ctx->fleet;
	size_t ng = ctx->nf;
	for (size_t i = 0; i < ng; i++) {
		/* partial runs are no host's measure: they stay in the tables that show runs, marked */
		if (g[i].cells[0]->cfg->partial)
			continue;
		double planned = planned_hosts(ctx->db, &g[i]);
		/* one host is no spread, unless the fleet meant more */
		if (g[i].n < 2 && !(planned > (double)g[i].n))
			continue;
		size_t n = g[i].n;
		char of[64];
		if (isnan(planned))
			snprintf(of, sizeof(of), "%zu", n);
		else
			snprintf(of, sizeof(of), "%zu of %.0f", n, planned);
		double *v = rep_calloc(n, sizeof(*v));
		bool *flag = rep_calloc(n, sizeof(*flag));
		double lo = INFINITY, hi = 0, med, mad;
		for (size_t k = 0; k < n; k++) {
			v[k] = rep_cell_ops(g[i].cells[k]);
			lo = fmin(lo, v[k]);
			hi = fmax(hi, v[k]);
		}
		size_t nbad = 0, ncap = 0;
		stats_flag_low(v, n, flag, &med, &mad);
		double far_cap = 0, group_cap = NAN;
		for (size_t k = 0; k < n; k++) {
			const struct rep_cell *h = g[i].cells[k];
			double cap = rep_cell_cap(h), far;
			bool held = held_at_cap(h, v[k], med, &far);
			ncap += held;
			if (far > 0)
				far_cap = far;
			if (cap > 0 && !(h->rate > 0))
				group_cap = cap;
			if (!flag[k])
				continue;
			char rule[512], words[96];
			if (held) {
				cap_words(h, cap, words, sizeof(words));
				snprintf(rule, sizeof(rule), "at its cap (%s): not a bad apple", words);
			} else {
				bad_rule(rule, sizeof(rule), v[k], med, mad, n, far);
				nbad++;
			}
			table_row(bad, h->sig, h->op, h->threads, rep_cfg_name(h), h->cfg->labels, (double)h->size, h->host, v[k], med,
				  med > 0 ? v[k] / med : NAN, cap > 0 ? cap : NAN, hist_percentile(&h->total, 0.5),
				  hist_percentile(&h->total, 0.95), hist_percentile(&h->total, 0.99), (double)h->total.errors,
				  held ? 0.0 : 1.0, rule);
		}
		char note[256] = "";
		if (far_cap > 0)
			snprintf(note, sizeof(note), "fleet median %.0f ops/s is far above the %.0f ops/s cap: the facts are "
				 "wrong or the volume was not what was measured", med, far_cap);
		const struct rep_cell *c = g[i].cells[0];
		table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, (double)n, planned, of, lo,
			  med, hi, lo > 0 ? hi / lo : NAN, mad, (double)nbad, (double)ncap, group_cap,
			  hist_percentile(&g[i].total, 0.5), hist_percentile(&g[i].total, 0.95),
			  hist_percentile(&g[i].total, 0.99), 1 - pow(0.9, (double)n), note[0] ? note : NULL);
		free(v);
		free(flag);
	}
}

static const struct tcol threads_cols[] = {
	OP_COLS,
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "hosts", "hosts", TC_INT, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "mbPerSec", "MB/s", TC_NUM, 2 },
	{ "p50Ns", "p50", TC_NS, 0 },
	{ "p95Ns", "p95", TC_NS, 0 },
	{ "p99Ns", "p99", TC_NS, 0 },
	{ "vsBest", "vs best", TC_PCT, 0 },
	{ "optimal", "optimal", TC_BOOL, 0 },
};

static void build_threads(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_THREADS];
	const struct rep_opts *o = ctx->o;
	const struct rep_group *g = ctx->fleet;
	size_t ng = ctx->nf;
	for (size_t i = 0; i < ng;) {
		size_t j = rep_curve_end(g, ng, i);
		size_t n = j - i;
		/* a curve of partial runs finds no optimum (round two would run it) */
		if (n >= 2 && !g[i].cells[0]->cfg->partial) {
			double *thr = rep_calloc(n, sizeof(*thr)), *ops = rep_calloc(n, sizeof(*ops));
			double best = 0;
			for (size_t k = 0; k < n; k++) {
				thr[k] = g[i + k].cells[0]->threads;
				ops[k] = g[i + k].ops;
				best = fmax(best, ops[k]);
			}
			size_t opt = stats_thread_optimum(thr, ops, n, o->within);
			for (size_t k = 0; k < n; k++) {
				const struct rep_group *x = &g[i + k];
				const struct rep_cell *c = x->cells[0];
				table_row(t, c->sig, c->op, rep_cfg_name(c), c->cfg->labels, (double)c->size, c->threads, (double)x->n, x->ops,
					  mb_per_sec(x->ops, c->block), hist_percentile(&x->total, 0.5),
					  hist_percentile(&x->total, 0.95), hist_percentile(&x->total, 0.99),
					  best > 0 ? x->ops / best : NAN,
					  k == opt ? 1.0 : 0.0);
			}
			free(thr);
			free(ops);
		}
		i = j;
	}
}

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

static void utc_of(double when, char *buf, size_t len)
{
	buf[0] = '\0';
	if (when > 1e9 && when < 1e11) {
		time_t tt = (time_t)when;
		struct tm tm;
		if (gmtime_r(&tt, &tm))
			strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
}

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
		utc_of(at[0], first, sizeof(first));
		utc_of(at[n - 1], last, sizeof(last));
		for (size_t k = 0; k < ns; k++) {
			char from[32];
			utc_of(at[steps[k].at], from, sizeof(from));
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
			table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)c->size, host_of(&g[i], hb, sizeof(hb)),
				  (double)(k + 1), at, m[k].share, hist_bucket_start(m[k].from),
				  hist_bucket_start(m[k].to + 1), note);
		}
	}
}

static const struct tcol tiers_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "tier", "tier", TC_INT, 0 },
	{ "fromSize", "from", TC_SIZE, 0 },
	{ "toSize", "to", TC_SIZE, 0 },
	{ "sizes", "sizes", TC_INT, 0 },
	{ "p50Ns", "p50", TC_NS, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "noise", "noise", TC_PCT, 0 },
	{ "stepNeeded", "step needed", TC_PCT, 0 },
};

/* The CV of a cell's time buckets' ops/s; NAN with fewer than 3 (or watch periods). */
static double bucket_cv(const struct rep_cell *c)
{
	if (c->watch || c->npts < 3)
		return NAN;
	double *x = rep_calloc(c->npts, sizeof(*x));
	for (size_t k = 0; k < c->npts; k++)
		x[k] = c->pts[k].ops;
	double cv = stats_cv(x, c->npts);
	free(x);
	return cv;
}

/* How much one size's figures move by themselves: its hosts' bucket CV, or their p50s' spread. */
static double size_noise(const struct rep_group *x)
{
	double *v = rep_calloc(x->n, sizeof(*v));
	size_t m = 0;
	for (size_t k = 0; k < x->n; k++) {
		double cv = bucket_cv(x->cells[k]);
		if (!isnan(cv))
			v[m++] = cv;
	}
	double noise = m ? stats_median(v, m) : 0;
	if (x->n >= 2) {
		for (size_t k = 0; k < x->n; k++)
			v[k] = log(fmax(hist_percentile(&x->cells[k]->total, 0.5), 1));
		double med = stats_median(v, x->n);
		for (size_t k = 0; k < x->n; k++)
			v[k] = log(fmax(hist_percentile(&x->cells[k]->total, 0.5), 1));
		noise = fmax(noise, expm1(1.4826 * stats_mad(v, x->n, med)));
	}
	free(v);
	return noise;
}

/* The median ops/s of tier t's sizes. */
static double rep_tier_ops(const struct rep_group *g, const size_t *idx, const struct stats_tier *t)
{
	size_t cnt = t->last - t->first + 1;
	double *v = rep_calloc(cnt, sizeof(*v));
	for (size_t k = 0; k < cnt; k++)
		v[k] = g[idx[t->first + k]].ops;
	double m = stats_median(v, cnt);
	free(v);
	return m;
}

size_t rep_sweep_tiers(const struct rep_group *g, const size_t *idx, size_t n, const struct rep_opts *o,
		       double *p50, struct stats_tier *out, double *noise, double *step)
{
	double *nz = rep_calloc(n + 1, sizeof(*nz));
	for (size_t k = 0; k < n; k++) {
		p50[k] = hist_percentile(&g[idx[k]].total, 0.5);
		nz[k] = size_noise(&g[idx[k]]);
	}
	*noise = stats_median(nz, n);
	free(nz);
	size_t nt = stats_tiers(p50, n, *noise, o->tier_min, out, n, step);
	/*
	 * A cache tier changes what the threads get done, not only how long
	 * half of the operations take: with a fixed number of threads (closed
	 * loop) ops/s steps with it. A volume held to a rate (EBS IOPS, a
	 * blkio cap) keeps its ops/s at every size while its p50 wanders with
	 * the throttle's queueing: that is one tier. Adjacent tiers whose ops/s
	 * differ by less than the step needed are one. Runs held to --rate
	 * (open loop) cannot show a step in ops/s: latency alone decides.
	 */
	if (nt < 2 || g[idx[0]].cells[0]->rate > 0)
		return nt;
	double need = log1p(*step);
	size_t m = 0;
	for (size_t k = 0; k < nt; k++) {
		if (m > 0) {
			double a = rep_tier_ops(g, idx, &out[m - 1]), b = rep_tier_ops(g, idx, &out[k]);
			if (a > 0 && b > 0 && !(fabs(log(b / a)) > need)) {
				size_t cnt = out[k].last - out[m - 1].first + 1;
				double *v = rep_calloc(cnt, sizeof(*v));
				memcpy(v, p50 + out[m - 1].first, cnt * sizeof(*v));
				out[m - 1].last = out[k].last;
				out[m - 1].level = stats_median(v, cnt);
				free(v);
				continue;
			}
		}
		out[m++] = out[k];
	}
	return m;
}

static void build_tiers(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_TIERS];
	const struct rep_group *g = ctx->fleet;
	size_t ng = ctx->nf;
	const struct rep_opts *o = ctx->o;
	size_t *idx = rep_calloc(ng, sizeof(*idx));
	double *p50 = rep_calloc(ng, sizeof(*p50)), *ops = rep_calloc(ng, sizeof(*ops));
	struct stats_tier *tiers = rep_calloc(ng, sizeof(*tiers));
	for (size_t i = 0; i < ng; i++) {
		size_t n = rep_sweep_of(g, ng, i, idx);
		if (n < 3 || idx[0] != i || g[i].cells[0]->cfg->partial)
			continue;
		double noise, step;
		size_t nt = rep_sweep_tiers(g, idx, n, o, p50, tiers, &noise, &step);
		for (size_t k = 0; k < n; k++)
			ops[k] = g[idx[k]].ops;
		const struct rep_cell *c = g[i].cells[0];
		for (size_t k = 0; k < nt; k++) {
			size_t cnt = tiers[k].last - tiers[k].first + 1;
			double *tmp = rep_calloc(cnt, sizeof(*tmp));
			memcpy(tmp, ops + tiers[k].first, cnt * sizeof(*tmp));
			double lvl_ops = stats_median(tmp, cnt);
			free(tmp);
			table_row(t, c->sig, c->op, c->threads, rep_cfg_name(c), c->cfg->labels, (double)(k + 1),
				  (double)g[idx[tiers[k].first]].cells[0]->size,
				  (double)g[idx[tiers[k].last]].cells[0]->size, (double)cnt, tiers[k].level,
				  lvl_ops, noise, step);
		}
	}
	free(idx);
	free(p50);
	free(ops);
	free(tiers);
}

static const struct tcol durability_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "writeP50Ns", "write p50", TC_NS, 0 },
	{ "readSignature", NULL, TC_STR, 0 },
	{ "readOp", "read op", TC_STR, 0 },
	{ "readP50Ns", "read p50", TC_NS, 0 },
	{ "floorNs", "floor", TC_NS, 0 },
	{ "suspicious", "suspicious", TC_BOOL, 0 },
	{ "evidence", "evidence", TC_STR, 0 },
	{ "verdict", "verdict", TC_STR, 0 },
};

/* Reads are looked up by target (host or fleet, labels, size) and block size. */
static int cmp_target(const struct rep_group *a, const struct rep_group *b)
{
	const struct rep_cell *x = a->cells[0], *y = b->cells[0];
	int r = (a->n > b->n) - (a->n < b->n);
	if (!r && a->n == 1)
		r = strcmp(x->host, y->host);
	if (!r && x->cfg != y->cfg)
		r = x->cfg < y->cfg ? -1 : 1;
	if (!r)
		r = (x->size > y->size) - (x->size < y->size);
	if (!r)
		r = (x->block > y->block) - (x->block < y->block);
	return r;
}

static int cmp_group_ptr(const void *a, const void *b)
{
	return cmp_target(*(const struct rep_group *const *)a, *(const struct rep_group *const *)b);
}

/*
 * A flushed write on an EBS volume waits for a network round trip to the
 * replicas: none returns in under this (single-digit hundreds of us in
 * practice). EBS is known from the provision facts, or from the device's
 * model where Nitro's NVMe names it; never from the rotational flag (virtio
 * and loop devices say 1 whatever is behind them).
 */
#define DUR_EBS_FLOOR_NS 100e3
/* The model an EBS volume reports on Nitro (NVMe); Xen's virtio and blkfront say none. */
#define DUR_EBS_MODEL "Amazon Elastic Block Store"
/* A flush that returns in under this share of a read of the same target wrote to a cache, not the media. */
#define DUR_READ_SHARE 0.25

/* The EBS volume type of a configuration's provision facts; false when it names none. */
static bool dur_ebs_type(const struct rep_config *cfg, char *buf, size_t len)
{
	static const char *const ebs[] = { "standard", "gp2", "gp3", "io1", "io2", "st1", "sc1" };
	if (!rep_label_value(cfg->facts, "volumeType", buf, len))
		return false;
	for (size_t i = 0; i < sizeof(ebs) / sizeof(ebs[0]); i++)
		if (strcmp(buf, ebs[i]) == 0)
			return true;
	return false;
}

static void build_durability(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_DURABILITY];
	const struct rep_group *g = ctx->view;
	size_t ng = ctx->nv;
	const struct rep_opts *o = ctx->o;
	char hb[64], verdict[600], evidence[400];
	const struct rep_group **reads = rep_calloc(ng, sizeof(*reads));
	size_t nr = 0;
	for (size_t i = 0; i < ng; i++)
		if (g[i].cells[0]->kind == REP_READ)
			reads[nr++] = &g[i];
	qsort(reads, nr, sizeof(*reads), cmp_group_ptr);
	for (size_t i = 0; i < ng; i++) {
		const struct rep_cell *w = g[i].cells[0];
		if (w->kind != REP_WRITE_FLUSH)
			continue;
		/* The read of the same target and block size: same threads, else the nearest count. */
		size_t lo = 0, hi = nr;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (cmp_target(reads[mid], &g[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		const struct rep_group *r = NULL;
		for (size_t j = lo; j < nr && cmp_target(reads[j], &g[i]) == 0; j++)
			if (!r || fabs(reads[j]->cells[0]->threads - w->threads) <
					  fabs(r->cells[0]->threads - w->threads))
				r = reads[j];
		double wp = hist_percentile(&g[i].total, 0.5);
		double rp = r ? hist_percentile(&r->total, 0.5) : NAN;
		char vtype[64], fb[32], wb[32], rb[32], why[600] = "", checked[200] = "";
		bool by_facts = dur_ebs_type(w->cfg, vtype, sizeof(vtype));
		bool by_model = !by_facts && strcmp(w->model, DUR_EBS_MODEL) == 0;
		bool ebs = by_facts || by_model;
		double floor_ns = ebs ? fmax(o->floor_ns, DUR_EBS_FLOOR_NS) : o->floor_ns;
		units_format_ns(wb, sizeof(wb), wp);
		evidence[0] = '\0';
		/* each piece of evidence that fires, said with its figures; what was checked when none does */
		if (ebs) {
			units_format_ns(fb, sizeof(fb), DUR_EBS_FLOOR_NS);
			if (wp < DUR_EBS_FLOOR_NS && by_facts) {
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s on EBS (%s, by the provision facts), a network round trip that takes "
					 "%s at least", why[0] ? "; " : "", wb, vtype, fb);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence), "%sEBS round trip",
					 evidence[0] ? ", " : "");
			} else if (wp < DUR_EBS_FLOOR_NS) {
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s on EBS (by the device model %s), a network round trip that takes %s at least",
					 why[0] ? "; " : "", wb, w->model, fb);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence),
					 "%sdevice model %s: EBS is a network round trip (%s)", evidence[0] ? ", " : "",
					 w->model, fb);
			}
			snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%sEBS round trip",
				 checked[0] ? ", " : "");
		}
		if (r) {
			const char *rop = r->cells[0]->op;
			units_format_ns(rb, sizeof(rb), rp);
			if (wp < rp * DUR_READ_SHARE) {
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s is under a quarter of a %s of the same target (%s)", why[0] ? "; " : "", wb,
					 rop, rb);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence),
					 "%sread of the same target", evidence[0] ? ", " : "");
			}
			snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%s%s p50",
				 checked[0] ? ", " : "", rop);
		}
		units_format_ns(fb, sizeof(fb), o->floor_ns);
		if (wp < o->floor_ns) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s is below the %s floor (--floor)",
				 why[0] ? "; " : "", wb, fb);
			snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence), "%sfloor",
				 evidence[0] ? ", " : "");
		}
		snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%s%s floor",
			 checked[0] ? ", " : "", fb);
		bool suspicious = why[0] != '\0';
		if (suspicious)
			snprintf(verdict, sizeof(verdict), "durability suspicious: %s", why);
		else {
			snprintf(verdict, sizeof(verdict), "plausible");
			snprintf(evidence, sizeof(evidence), "none (checked: %s)", checked);
		}
		table_row(t, w->sig, w->op, w->threads, rep_cfg_name(w), w->cfg->labels, (double)w->size, host_of(&g[i], hb, sizeof(hb)),
			  wp, r ? r->cells[0]->sig : NULL, r ? r->cells[0]->op : NULL, rp, floor_ns, suspicious ? 1.0 : 0.0, evidence, verdict);
	}
	free(reads);
}

static const struct tcol cost_cols[] = {
	OP_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "config", "config", TC_STR, 0 },
	{ "labels", NULL, TC_STR, 0 },
	{ "instance", "instance", TC_STR, 0 },
	{ "volume", "volume", TC_STR, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "opsPerSec", "ops/s", TC_NUM, 1 },
	{ "mbPerSec", "MB/s", TC_NUM, 1 },
	{ "dollarsPerHour", "$/h", TC_NUM, 4 },
	{ "ioDollarsPerHour", NULL, TC_NUM, 6 },
	{ "opsPerDollar", NULL, TC_NUM, 0 },
	{ NULL, "ops per $", TC_STR, 0 },
	{ "mbPerDollar", NULL, TC_NUM, 0 },
	{ NULL, "MB per $", TC_STR, 0 },
	{ "rank", "rank", TC_INT, 0 },
};

/* A price key: the prices file's config object member first, then the labels, then the provision facts. */
static bool cost_field(const json_t *cfg, const struct rep_config *conf, const char *const *keys,
		       char *buf, size_t len)
{
	for (const char *const *k = keys; *k; k++) {
		const json_t *v = json_object_get(cfg, *k);
		if (json_is_string(v)) {
			snprintf(buf, len, "%s", json_string_value(v));
			return true;
		}
		if (json_is_number(v)) {
			snprintf(buf, len, "%.15g", json_number_value(v));
			return true;
		}
	}
	for (const char *const *k = keys; *k; k++)
		if (rep_label_value(conf->labels, *k, buf, len))
			return true;
	for (const char *const *k = keys; *k; k++)
		if (rep_label_value(conf->facts, *k, buf, len))
			return true;
	return false;
}

/* A number field for the price; NAN when absent or not a number. */
static double cost_num(const json_t *cfg, const struct rep_config *conf, const char *const *keys)
{
	char v[64], *end;
	if (!cost_field(cfg, conf, keys, v, sizeof(v)))
		return NAN;
	double d = strtod(v, &end);
	return end != v && *end == '\0' ? d : NAN;
}

/* An op moves bulk data (MB per $ is its figure) from this many bytes up: read4m, write1m. */
#define COST_BULK_BYTES (1u << 20)

struct cost_row {
	const struct rep_group *g; /* the curve at its optimum */
	size_t sig_order;          /* first appearance of its signature, for the order of rows */
	char config[128], inst[128], vol[128];
	double ops, mbs, dph, io_dph, opd, mbd;
	unsigned rank;
};

static int cmp_cost_row(const void *a, const void *b)
{
	const struct cost_row *x = a, *y = b;
	const struct rep_cell *cx = x->g->cells[0], *cy = y->g->cells[0];
	if (x->sig_order != y->sig_order)
		return x->sig_order < y->sig_order ? -1 : 1;
	if (cx->size != cy->size)
		return cx->size < cy->size ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(cx->cfg->name, cy->cfg->name);
}

/* The configuration's price facts (the prices file's config, labels, provision facts); false if none. */
static bool cost_facts(const struct rep_cell *c, const json_t *cfg, struct cost_row *r, struct price_facts *f)
{
	static const char *const inst_keys[] = { "instance", "instanceType", NULL };
	static const char *const vol_keys[] = { "volume", "volumeType", NULL };
	static const char *const store_keys[] = { "instanceStore", NULL };
	static const char *const count_keys[] = { "volumeCount", NULL };
	static const char *const gb_keys[] = { "volumeGB", "volumeSize", NULL };
	static const char *const iops_keys[] = { "volumeIops", NULL };
	static const char *const mibps_keys[] = { "volumeThroughput", NULL };
	char store[16] = "";
	bool has_inst = cost_field(cfg, c->cfg, inst_keys, r->inst, sizeof(r->inst));
	bool has_vol = cost_field(cfg, c->cfg, vol_keys, r->vol, sizeof(r->vol));
	/* instance-store disks come with the instance: the list's "ephemeral" prices them (at 0 in the sample) */
	if (!has_vol && cost_field(cfg, c->cfg, store_keys, store, sizeof(store)) && strcmp(store, "true") == 0) {
		snprintf(r->vol, sizeof(r->vol), "ephemeral");
		has_vol = true;
	}
	if (!has_inst && !has_vol)
		return false;
	f->instance = has_inst ? r->inst : NULL;
	f->volume = has_vol ? r->vol : NULL;
	f->count = cost_num(cfg, c->cfg, count_keys);
	f->size_gib = cost_num(cfg, c->cfg, gb_keys);
	if (isnan(f->size_gib) && c->size) /* no volume size said: the file's, a lower bound */
		f->size_gib = ceil((double)c->size / (1u << 30));
	f->iops = cost_num(cfg, c->cfg, iops_keys);
	f->mibps = cost_num(cfg, c->cfg, mibps_keys);
	return true;
}

static void build_cost(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_COST];
	const struct rep_group *g = ctx->fleet;
	size_t ng = ctx->nf;
	const struct rep_opts *o = ctx->o;
	if (!o->prices)
		return;
	const json_t *configs = json_object_get(o->prices, "configs");
	struct cost_row *rows = rep_calloc(ng + 1, sizeof(*rows));
	size_t nr = 0, unpriced = 0;
	for (size_t i = 0, end; i < ng; i = end) {
		const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, o->within);
		const struct rep_cell *c = opt->cells[0];
		struct cost_row *r = &rows[nr];
		memset(r, 0, sizeof(*r));
		rep_label_value(c->cfg->labels, "config", r->config, sizeof(r->config));
		const json_t *cfg = r->config[0] ? json_object_get(configs, r->config) : NULL;
		struct price_facts f;
		struct price_hour ph;
		if (!cost_facts(c, cfg, r, &f))
			continue;
		if (price_hourly(o->prices, &f, &ph) != 0) {
			unpriced++;
			continue; /* no price known for it: no row rather than a wrong one */
		}
		r->g = opt;
		r->sig_order = i;
		for (size_t k = 0; k < nr; k++)
			if (strcmp(rows[k].g->cells[0]->sig, c->sig) == 0) {
				r->sig_order = rows[k].sig_order;
				break;
			}
		r->ops = opt->ops;
		r->mbs = c->block ? r->ops * (double)c->block / 1e6 : NAN;
		r->dph = price_with_io(&ph, r->ops);
		r->io_dph = r->dph - ph.fixed;
		r->opd = r->dph > 0 ? r->ops * 3600 / r->dph : NAN;
		r->mbd = r->dph > 0 && c->block >= COST_BULK_BYTES ? r->mbs * 3600 / r->dph : NAN;
		nr++;
	}
	/* rank 1: the most operations per dollar among the configs that ran the op at that size */
	for (size_t i = 0; i < nr; i++) {
		rows[i].rank = 1;
		for (size_t k = 0; k < nr; k++)
			if (k != i && rows[k].sig_order == rows[i].sig_order &&
			    rows[k].g->cells[0]->size == rows[i].g->cells[0]->size && rows[k].opd > rows[i].opd)
				rows[i].rank++;
	}
	if (nr)
		qsort(rows, nr, sizeof(*rows), cmp_cost_row);
	for (size_t i = 0; i < nr; i++) {
		const struct cost_row *r = &rows[i];
		const struct rep_cell *c = r->g->cells[0];
		char opd[32], mbd[32];
		table_format_count(opd, sizeof(opd), r->opd);
		table_format_count(mbd, sizeof(mbd), r->mbd);
		/* the prices file's config when it has one, else the configuration's name */
		table_row(t, c->sig, c->op, (double)c->size, r->config[0] ? r->config : rep_cfg_name(c), c->cfg->labels,
			  r->inst[0] ? r->inst : NULL, r->vol[0] ? r->vol : NULL, c->threads, r->ops, r->mbs, r->dph,
			  r->io_dph, r->opd, opd, r->mbd, mbd, (double)r->rank);
	}
	const json_t *date = json_object_get(o->prices, "date");
	if (nr)
		table_note(t,
			   "Each op at its optimal thread count (fewest within %.0f%% of the best); rank 1 = most per $ "
			   "for that op. $/h: instance + GB-months + provisioned IOPS and MiB/s above the free baseline "
			   "+ per-I/O charges at the measured rate; MB per $ for ops of 1M and more. Prices of %s.",
			   o->within * 100, json_is_string(date) ? json_string_value(date) : "an undated list");
	else
		table_note(t, "No configuration has a price: %s", unpriced
			   ? "its instance or volume type is not in the price list; add it"
			   : "the runs carry no instanceType/volumeType facts (--provision-fact) or config label the list names");
	free(rows);
}

static const struct tcol bonnie_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "fileSize", "file", TC_STR, 0 },
	{ "seqOutBlockKBps", "seq out KB/s", TC_NUM, 0 },
	{ "seqOutBlockCpu", "cpu%", TC_NUM, 0 },
	{ "seqOutRewriteKBps", "rewrite KB/s", TC_NUM, 0 },
	{ "seqOutRewriteCpu", "cpu%", TC_NUM, 0 },
	{ "seqInBlockKBps", "seq in KB/s", TC_NUM, 0 },
	{ "seqInBlockCpu", "cpu%", TC_NUM, 0 },
	{ "randomSeeksPerSec", "seeks/s", TC_NUM, 1 },
	{ "randomSeeksCpu", "cpu%", TC_NUM, 0 },
	/* bonnie++'s own text ("17561us") as data; for people, the same as a latency ("17.6ms") */
	{ "seqOutBlockLatency", NULL, TC_STR, 0 },
	{ "seqInBlockLatency", NULL, TC_STR, 0 },
	{ "randomSeeksLatency", NULL, TC_STR, 0 },
	{ NULL, "out lat", TC_NS, 0 },
	{ NULL, "in lat", TC_NS, 0 },
	{ NULL, "seek lat", TC_NS, 0 },
};

/* A bonnie++ latency ("17561us", "95ms", "2s", "800ns") in ns; NAN when it is none. */
static double bonnie_ns(const char *text)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	char *end;
	if (!text || !*text)
		return NAN;
	double v = strtod(text, &end);
	for (size_t i = 0; end != text && i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0 && isfinite(v) && v >= 0)
			return v * units[i].ns;
	return NAN;
}

static void build_bonnie(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_BONNIE];
	const struct rep_db *db = ctx->db;
	for (size_t i = 0; i < db->nbonnie; i++) {
		const struct rep_bonnie *b = &db->bonnie[i];
		char *config = rep_config_name(b->labels, b->facts);
		table_row(t, b->host, config, b->labels, b->file_size, b->rate[REP_BONNIE_SEQ_OUT],
			  b->cpu[REP_BONNIE_SEQ_OUT], b->rate[REP_BONNIE_REWRITE], b->cpu[REP_BONNIE_REWRITE],
			  b->rate[REP_BONNIE_SEQ_IN], b->cpu[REP_BONNIE_SEQ_IN], b->rate[REP_BONNIE_SEEKS],
			  b->cpu[REP_BONNIE_SEEKS], b->latency[REP_BONNIE_SEQ_OUT],
			  b->latency[REP_BONNIE_SEQ_IN], b->latency[REP_BONNIE_SEEKS], bonnie_ns(b->latency[REP_BONNIE_SEQ_OUT]),
			  bonnie_ns(b->latency[REP_BONNIE_SEQ_IN]), bonnie_ns(b->latency[REP_BONNIE_SEEKS]));
		free(config);
	}
}

static const struct tcol bonnie_runs_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "runs", "runs", TC_INT, 0 },
	{ "seqOutBlockKBps", "seq out KB/s", TC_NUM, 0 },
	{ "seqOutBlockKBpsSd", "sd", TC_NUM, 0 },
	{ "seqOutRewriteKBps", "rewrite KB/s", TC_NUM, 0 },
	{ "seqOutRewriteKBpsSd", "sd", TC_NUM, 0 },
	{ "seqInBlockKBps", "seq in KB/s", TC_NUM, 0 },
	{ "seqInBlockKBpsSd", "sd", TC_NUM, 0 },
	{ "randomSeeksPerSec", "seeks/s", TC_NUM, 1 },
	{ "randomSeeksPerSecSd", "sd", TC_NUM, 1 },
	{ "volumes", "volumes", TC_INT, 0 },
	{ "seeksPerVolume", "seeks/s per volume", TC_NUM, 1 },
};

/* Mean and sample standard deviation of the non-NAN v[0..n). */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double sum = 0, sq = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i])) {
			sum += v[i];
			k++;
		}
	*mean = k ? sum / (double)k : NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			sq += (v[i] - *mean) * (v[i] - *mean);
	*sd = k > 1 ? sqrt(sq / (double)(k - 1)) : NAN;
}

/* The member volumes behind a bonnie++ line: a volumeCount fact, else label; NAN unknown. */
static double bonnie_volumes(const struct rep_bonnie *b)
{
	char v[64];
	if (rep_label_value(b->facts, "volumeCount", v, sizeof(v)) || rep_label_value(b->labels, "volumeCount", v, sizeof(v)))
		return atof(v) >= 1 ? atof(v) : NAN;
	return NAN;
}

static int cmp_bonnie(const void *a, const void *b)
{
	const struct rep_bonnie *x = *(const struct rep_bonnie *const *)a, *y = *(const struct rep_bonnie *const *)b;
	int r = strverscmp(x->host, y->host);
	if (!r)
		r = strcmp(x->labels, y->labels);
	return r ? r : strcmp(x->facts, y->facts);
}

/* bonnie++ runs of one host and config: the average of several runs, as the bonnie++ post compares them. */
static void build_bonnie_runs(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_BONNIE_RUNS];
	const struct rep_db *db = ctx->db;
	const struct rep_bonnie **b = rep_calloc(db->nbonnie + 1, sizeof(*b));
	for (size_t i = 0; i < db->nbonnie; i++)
		b[i] = &db->bonnie[i];
	qsort(b, db->nbonnie, sizeof(*b), cmp_bonnie);
	double *v = rep_calloc(db->nbonnie + 1, sizeof(*v));
	for (size_t i = 0; i < db->nbonnie;) {
		size_t j = i + 1;
		while (j < db->nbonnie && cmp_bonnie(&b[i], &b[j]) == 0)
			j++;
		double mean[REP_BONNIE_NFIELDS], sd[REP_BONNIE_NFIELDS];
		for (int k = 0; k < REP_BONNIE_NFIELDS; k++) {
			for (size_t r = i; r < j; r++)
				v[r - i] = b[r]->rate[k];
			mean_sd(v, j - i, &mean[k], &sd[k]);
		}
		double vols = bonnie_volumes(b[i]);
		char *config = rep_config_name(b[i]->labels, b[i]->facts);
		table_row(t, b[i]->host, config, b[i]->labels, (double)(j - i), mean[REP_BONNIE_SEQ_OUT], sd[REP_BONNIE_SEQ_OUT],
			  mean[REP_BONNIE_REWRITE], sd[REP_BONNIE_REWRITE], mean[REP_BONNIE_SEQ_IN], sd[REP_BONNIE_SEQ_IN],
			  mean[REP_BONNIE_SEEKS], sd[REP_BONNIE_SEEKS], vols, mean[REP_BONNIE_SEEKS] / vols);
		free(config);
		i = j;
	}
	free(v);
	free(b);
}

static const struct tcol fleet_cols[] = {
	{ "run", "run", TC_STR, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "status", "status", TC_STR, 0 },
	{ "kind", "failure", TC_STR, 0 },
	{ "planned", "planned", TC_INT, 0 },
	{ "finished", "finished", TC_INT, 0 },
	{ "fetched", "fetched", TC_INT, 0 },
	{ "exit", "exit", TC_INT, 0 },
	{ "remotePath", NULL, TC_STR, 0 },
	{ "detail", "detail", TC_STR, 0 },
};

/* The hosts of the fleets' manifests that failed, or whose lines were not read. */
static void build_fleet(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_FLEET];
	const struct rep_db *db = ctx->db;
	for (size_t i = 0; i < db->nfleet; i++) {
		const struct rep_fleet_host *f = &db->fleet[i];
		bool ok = f->status && strcmp(f->status, "ok") == 0;
		if (ok && f->has_lines)
			continue;
		const char *status = f->status ? f->status : "unknown", *kind = f->kind, *detail = f->detail;
		char buf[1024];
		if ((kind && strcmp(kind, "not-fetched") == 0) || strcmp(status, "not-fetched") == 0) {
			kind = "not-fetched";
			snprintf(buf, sizeof(buf), "finished, results not fetched (still at %s)%s%s",
				 f->remote ? f->remote : "the host", f->detail ? ": " : "", f->detail ? f->detail : "");
			detail = buf;
		} else if (ok) {
			status = "missing";
			kind = "no-results";
			snprintf(buf, sizeof(buf), "the manifest says ok, but no result lines of it were read%s%s%s",
				 f->results ? " (expected in " : "", f->results ? f->results : "", f->results ? ")" : "");
			detail = buf;
		}
		table_row(t, f->run, f->name, status, kind, f->planned, f->finished, f->fetched, f->exit_code,
			  f->remote, detail);
	}
}

static const struct tcol notes_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "launchTime", NULL, TC_NUM, 0 },
	{ "startUtc", "start (UTC)", TC_STR, 0 },
	{ "signatures", NULL, TC_STR, 0 },
	{ "ops", "ops", TC_STR, 0 },
	{ "notes", "notes", TC_STR, 0 },
};

static int cmp_note(const void *a, const void *b)
{
	const struct rep_note *x = *(const struct rep_note *const *)a, *y = *(const struct rep_note *const *)b;
	int r = strverscmp(x->host, y->host);
	return r ? r : (x->launch > y->launch) - (x->launch < y->launch);
}

/* "read,4K,4K write64,4K,4K" as typed: "read4k write4k/64" (malloc'd). */
static char *ops_of(const char *sigs)
{
	size_t cap = 2 * strlen(sigs) + 1, used = 0;
	char *out = rep_calloc(cap, 1), sig[256], op[256];
	for (const char *p = sigs; *p; p += *p == ' ') {
		size_t len = strcspn(p, " ");
		snprintf(sig, sizeof(sig), "%.*s", (int)(len < sizeof(sig) ? len : sizeof(sig) - 1), p);
		rep_op_name(sig, op, sizeof(op));
		size_t need = strlen(op) + (used > 0);
		if (used + need + 1 > cap) {
			cap = 2 * (used + need + 1);
			out = rep_realloc(out, cap);
		}
		used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? " " : "", op);
		p += len;
	}
	return out;
}

/* Each run line's bookkeeping, by host and start. */
static void build_notes(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_NOTES];
	const struct rep_db *db = ctx->db;
	const struct rep_note **n = rep_calloc(db->nnotes + 1, sizeof(*n));
	for (size_t i = 0; i < db->nnotes; i++)
		n[i] = &db->notes[i];
	qsort(n, db->nnotes, sizeof(*n), cmp_note);
	for (size_t i = 0; i < db->nnotes; i++) {
		char utc[32];
		utc_of(n[i]->launch, utc, sizeof(utc));
		char *ops = ops_of(n[i]->sigs);
		table_row(t, n[i]->host, n[i]->cfg->name[0] ? n[i]->cfg->name : NULL, n[i]->cfg->labels, n[i]->launch,
			  utc[0] ? utc : NULL, n[i]->sigs, ops, n[i]->notes);
		free(ops);
	}
	free(n);
}

static void build_dur_verify(struct table *tables, const struct rep_ctx *ctx)
{
	rep_dur_build(&tables[SEC_DUR_VERIFY], ctx->db);
}

#define COLS(a) (a), sizeof(a) / sizeof((a)[0])

/*
 * The sections, in the order they print. A builder fills its section's
 * table; one that also fills the next section's (a table and the steps in
 * it) is on both rows and runs once.
 */
static const struct {
	const char *name;  /* --section, JSON member, CSV "# name" line */
	const char *title; /* over the text table */
	const char *help;  /* --help; '\n' starts a continuation line */
	const struct tcol *cols;
	size_t ncols;
	void (*build)(struct table *tables, const struct rep_ctx *ctx);
} sections[SEC_COUNT] = {
	[SEC_SUMMARY] = { "summary", "Summary",
			  "the answers, a finding a line: per op the best config by ops/s and\n"
			  "by ops (MB) per dollar at its optimal threads, the comparisons and\n"
			  "their verdicts, bad apples and hosts at their cap, failed or missing\n"
			  "hosts, the thread optima (config x op), cache tiers, durability,\n"
			  "runs left out; each names the section that holds its evidence",
			  rep_summary_cols, 0, rep_build_summary },
	[SEC_FLEET] = { "fleet", "Failed and missing hosts (from the fleet's manifest.json)",
			"hosts a fleet run's manifest.json names that failed or sent no results:\n"
			"status, failure kind, runs planned/finished/fetched, detail", COLS(fleet_cols),
			build_fleet },
	[SEC_TARGETS] = { "targets", "Targets that were not the disk provisioned (RAM, the root disk, another size)",
			  "runs whose target was RAM (tmpfs, zram), or not the volume their\n"
			  "provision facts name: on the root disk, or a device of another size",
			  rep_targets_cols, 0, rep_build_targets },
	[SEC_GROUPS] = { "groups", "Groups (op x threads x config x size x host)",
			 "per op x threads x config x size x host: ops/s, MB/s, mean,\n"
			 "p50 p90 p95 p99 p99.9 max latency, errors, CPU per operation", COLS(groups_cols), build_groups },
	[SEC_INSTANCES] = { "instances", "Across instances (per-host ops/s; hosts: N of M a fleet planned)",
			    "groups that span hosts: N of M hosts, min/median/max per-host ops/s,\n"
			    "best/worst",
			    COLS(instances_cols), build_instances },
	[SEC_BAD_APPLES] = { "badApples", "Bad apples (robust z < -3 and >= 20% below the median; under 5 hosts the 20% alone)",
			     "hosts with a robust z (median, 1.4826 x MAD) below -3 and at least 20%\n"
			     "below the median (under 5 hosts the 20% alone); one within 5% of its\n"
			     "cap is said to be, unless the fleet's median runs far above the cap",
			     COLS(bad_cols), build_instances },
	[SEC_THREADS] = { "threads", "Thread curves (optimal = fewest threads within --within, 5%, of the best)",
			  "throughput by thread count; optimal = fewest within 5% (--within)\n"
			  "of the best", COLS(threads_cols),
			  build_threads },
	[SEC_COMPARE] = { "compare", "Comparisons, config A vs B per op (ratio of medians over hosts, bootstrap 95% interval)",
			  "config A vs B per op: B/A of the median per-host ops/s, p50 and p99\n"
			  "with a bootstrap 95% interval and a verdict; --compare 'A vs B', else\n"
			  "every two configs that differ in one dimension (instance, volume, layout,\n"
			  "placement, or a label or label part), what differs said; else side by side",
			  rep_compare_cols, 0, rep_build_compare },
	[SEC_TIME] = { "time", "Throughput over time (per host, per time bucket)",
		       "per-host throughput per time bucket: mean, min, max, CV", COLS(time_cols), build_time },
	[SEC_REGIMES] = { "regimes", "Regime changes (lasting steps in throughput)",
			  "lasting steps up or down in that throughput, with their start", COLS(regimes_cols),
			  build_time },
	[SEC_SERIES] = { "series", "Throughput per time bucket (seconds since the host's first bucket)",
			 "every time bucket: ops/s and ops/s / host median (ask by name)", COLS(series_cols),
			 build_series },
	[SEC_MODES] = { "modes", "Latency modes (peaks of the log-scale histogram)",
			"peaks of the latency histogram with their share of operations", COLS(modes_cols),
			build_modes },
	[SEC_DEVICES] = { "devices", "Array members against their siblings (iostat -x figures the runs recorded)",
			  "per md/dm array under a run's target, each member's await and util\n"
			  "against its siblings'; slow: await >= 2x the siblings' median and\n"
			  "busy >= 50%, with the time buckets it was slow in and the array's\n"
			  "await at the siblings' speed; per host (a slow member is its host's)",
			  rep_devices_cols, 0, rep_build_devices },
	[SEC_TIERS] = { "tiers", "Cache tiers over the size sweep (level p50 ranges)",
			"file-size sweep (labels fileSize/span or target.span): level ranges;\n"
			"a boundary needs a p50 step above --tier-threshold (50%) and twice\n"
			"the noise (time buckets' CV, hosts' spread, the tiers' own spread)", COLS(tiers_cols),
			build_tiers },
	[SEC_DURABILITY] = { "durability", "Durability check of flushed writes",
			     "flushed writes faster than the evidence allows: an EBS round trip (by\n"
			     "the provision facts or the device model), a quarter of a read of the\n"
			     "same target, the floor",
			     COLS(durability_cols), build_durability },
	[SEC_COST] = { "cost", "Operations per dollar", "per op and config at its optimal thread count: $/h (instance, GB-months,\n"
		       "provisioned IOPS and MiB/s above the free baseline, per-I/O charges),\n"
		       "ops and MB per dollar, rank per op (needs --prices)",
		       COLS(cost_cols), build_cost },
	[SEC_BONNIE] = { "bonnie", "Bonnie++ baseline", "bonnie++ lines as they are", COLS(bonnie_cols),
			 build_bonnie },
	[SEC_BONNIE_RUNS] = { "bonnieRuns", "Bonnie++ per host and config: mean and spread over runs",
			      "bonnie++ per host and config: runs, mean and sd of each rate,\n"
			      "seeks/s per member volume (volumeCount fact or label)",
			      COLS(bonnie_runs_cols), build_bonnie_runs },
	[SEC_WATCH] = { "watch", "Latency over time (iobench watch, one point per period)",
			"iobench watch lines: p50/p99 per period over days, per host and op", COLS(watch_cols),
			build_watch },
	[SEC_WATCH_REGIMES] = { "watchRegimes", "Regime changes in the probes' p99 (lasting steps)",
				"lasting steps in the probes' p99 (a tail that jumped and stayed)",
				COLS(watch_regimes_cols), build_watch },
	[SEC_PERIODIC] = { "periodic", "Oscillations (a period in the probes' p50/p99 or in runs' ops/s)",
			   "a regular oscillation in the probes' p50/p99 or in runs' ops/s\n"
			   "(24 time buckets or more): its period, amplitude and p-value",
			   rep_periodic_cols, 0, rep_build_periodic },
	[SEC_NOTES] = { "notes", "Bookkeeping (notes of each run, and older files' run/planStep/... labels)",
			"each run's notes (--note; legacy bookkeeping labels); ask by name,\n"
			"or in --json", COLS(notes_cols), build_notes },
	[SEC_DUR_VERIFY] = { "durabilityVerify", "Durability after a power cut (iobench durability verify)",
			     "iobench durability verify lines: acknowledged blocks\n"
			     "intact or LOST after a power cut, a row per verification",
			     COLS(rep_dur_cols), build_dur_verify },
	[SEC_EXPECT] = { "expect", "Expectations (--expect): PASS or FAIL per box",
			 "--expect FILE's expected figures, PASS or FAIL per host (only with\n"
			 "--expect, and then alone unless --section names others)", rep_expect_cols, 0,
			 rep_build_expect },
};

const char *rep_section_name(enum rep_section s)
{
	return sections[s].name;
}

const char *rep_section_help(enum rep_section s)
{
	return sections[s].help;
}

int rep_section_find(const char *name, size_t len)
{
	for (int s = 0; s < SEC_COUNT; s++)
		if (strlen(sections[s].name) == len && strncmp(name, sections[s].name, len) == 0)
			return s;
	return -1;
}

void rep_build_tables(const struct rep_db *db, const struct rep_opts *o, const bool want[SEC_COUNT],
		      struct table tables[SEC_COUNT])
{
	for (int s = 0; s < SEC_COUNT; s++)
		table_init(&tables[s], sections[s].name, sections[s].title, sections[s].cols, sections[s].ncols);
	/* columns defined in other files: their counts are not constants here */
	tables[SEC_COMPARE].ncols = rep_compare_ncols;
	tables[SEC_EXPECT].ncols = rep_expect_ncols;
	tables[SEC_TARGETS].ncols = rep_targets_ncols;
	tables[SEC_SUMMARY].ncols = rep_summary_ncols;
	tables[SEC_DEVICES].ncols = rep_devices_ncols;
	tables[SEC_PERIODIC].ncols = rep_periodic_ncols;
	/* the summary reads other sections' tables: they are built first, then it */
	bool build[SEC_COUNT];
	memcpy(build, want, sizeof(build));
	if (want[SEC_SUMMARY])
		rep_summary_needs(build);
	struct rep_group *fleet, *view;
	size_t nf = rep_groups(db, false, &fleet);
	size_t nv = o->merge_hosts ? nf : rep_groups(db, true, &view);
	if (o->merge_hosts)
		view = fleet;
	struct rep_ctx ctx = { .db = db, .o = o, .fleet = fleet, .nf = nf, .view = view, .nv = nv };
	for (int s = 0; s < SEC_COUNT; s++) {
		bool built = s == SEC_SUMMARY;
		for (int e = 0; e < s; e++)
			built |= build[e] && sections[e].build == sections[s].build;
		if (build[s] && !built)
			sections[s].build(tables, &ctx);
	}
	if (build[SEC_SUMMARY])
		rep_build_summary(tables, &ctx);
	if (view != fleet)
		free(view);
	free(fleet);
}
