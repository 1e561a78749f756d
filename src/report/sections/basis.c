/* report/sections/basis.c - bad apples by host, and each group's figure: the median of the hosts that are not. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/basis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "report/base/alloc.h"
#include "report/sections/section.h"
#include "report/base/stats.h"
#include "report/store/config.h"

bool rep_held_at_cap(const struct rep_cell *c, double v, double med, double *far)
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

/* The CV of a cell's time buckets' ops/s; 0 when it has none to say (fewer than 3, or watch periods). */
static double bucket_cv(const struct rep_cell *c)
{
	double cv = rep_cell_bucket_cv(c);
	return isnan(cv) ? 0 : cv;
}

size_t rep_group_slow(const struct rep_group *g, bool *slow, double *median, double *mad)
{
	size_t n = g->n, count = 0;
	double *v = rep_calloc(n + 1, sizeof(*v));
	bool *flag = rep_calloc(n + 1, sizeof(*flag));
	for (size_t k = 0; k < n; k++)
		v[k] = rep_cell_ops(g->cells[k]);
	double med = 0, m = 0;
	stats_flag_low(v, n, flag, &med, &m);
	for (size_t k = 0; k < n; k++) {
		double far;
		/* beyond the host's own noise: a shortfall its buckets' swings could make is no evidence */
		bool s = n >= REP_APPLE_MIN_HOSTS && flag[k] && !rep_held_at_cap(g->cells[k], v[k], med, &far) &&
			 1 - v[k] / med > 2 * bucket_cv(g->cells[k]);
		if (slow)
			slow[k] = s;
		count += s;
	}
	if (median)
		*median = med;
	if (mad)
		*mad = m;
	free(v);
	free(flag);
	return count;
}

static int cmp_apple(const void *x, const void *y)
{
	const struct rep_apple *a = x, *b = y;
	int r = rep_config_cmp(a->cfg, b->cfg);
	return r ? r : strcmp(a->host, b->host);
}

const struct rep_apple *rep_apple_of(const struct rep_apples *a, const struct rep_config *cfg, const char *host)
{
	struct rep_apple key = { .host = host, .cfg = cfg };
	return a->n ? bsearch(&key, a->a, a->n, sizeof(*a->a), cmp_apple) : NULL;
}

/* Per host and config: its ratios to the cells' medians, collected before they are summed up. */
struct ratios {
	double *v;
	size_t n, cap;
};

static void group_basis(struct rep_group *g, const struct rep_apples *apples)
{
	free(g->used);
	g->used = rep_calloc(g->n + 1, sizeof(*g->used));
	double *ops = rep_calloc(g->n + 1, sizeof(*ops)), *p50 = rep_calloc(g->n + 1, sizeof(*p50)),
	       *p99 = rep_calloc(g->n + 1, sizeof(*p99));
	size_t m = 0;
	for (size_t k = 0; k < g->n; k++) {
		const struct rep_cell *c = g->cells[k];
		const struct rep_apple *a = apples ? rep_apple_of(apples, c->cfg, c->host) : NULL;
		g->used[k] = !(a && a->bad);
		if (!g->used[k])
			continue;
		ops[m] = rep_cell_ops(c);
		p50[m] = hist_percentile(&c->total, 0.5);
		p99[m] = hist_percentile(&c->total, 0.99);
		m++;
	}
	g->nused = m;
	g->med_ops = m ? stats_median(ops, m) : NAN;
	g->med_p50 = m ? stats_median(p50, m) : NAN;
	g->med_p99 = m ? stats_median(p99, m) : NAN;
	free(ops);
	free(p50);
	free(p99);
}

void rep_apples_judge(struct rep_apples *out, struct rep_group *g, size_t ng)
{
	/* every host of every config, once */
	size_t cap = 0;
	for (size_t i = 0; i < ng; i++)
		cap += g[i].n;
	struct rep_apple *a = rep_calloc(cap + 1, sizeof(*a));
	size_t n = 0;
	for (size_t i = 0; i < ng; i++)
		for (size_t k = 0; k < g[i].n; k++)
			a[n++] = (struct rep_apple){ .host = g[i].cells[k]->host, .cfg = g[i].cells[k]->cfg };
	if (n)
		qsort(a, n, sizeof(*a), cmp_apple);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || cmp_apple(&a[u - 1], &a[i]) != 0)
			a[u++] = a[i];
	out->a = a;
	out->n = u;
	struct ratios *r = rep_calloc(u + 1, sizeof(*r));
	for (size_t i = 0; i < ng; i++) {
		if (g[i].cells[0]->cfg->partial)
			continue;
		bool *slow = rep_calloc(g[i].n + 1, sizeof(*slow));
		double med;
		rep_group_slow(&g[i], slow, &med, NULL);
		for (size_t k = 0; k < g[i].n; k++) {
			const struct rep_cell *c = g[i].cells[k];
			struct rep_apple *h = (struct rep_apple *)rep_apple_of(out, c->cfg, c->host);
			if (g[i].n < REP_APPLE_MIN_HOSTS) {
				h->unjudged++;
				continue;
			}
			h->cells++;
			h->slow += slow[k];
			struct ratios *x = &r[h - a];
			if (x->n == x->cap) {
				x->cap = x->cap ? 2 * x->cap : 8;
				x->v = rep_realloc(x->v, x->cap * sizeof(*x->v));
			}
			x->v[x->n++] = med > 0 ? rep_cell_ops(c) / med : NAN;
		}
		free(slow);
	}
	for (size_t i = 0; i < u; i++) {
		struct rep_apple *h = &a[i];
		/* at least half its cells, and more than one unless it ran one: one slow cell of many is noise */
		h->bad = h->cells > 0 && 2 * h->slow >= h->cells && (h->slow >= 2 || h->cells == 1);
		h->worst = h->typical = NAN;
		if (r[i].n) {
			h->worst = INFINITY;
			for (size_t k = 0; k < r[i].n; k++)
				h->worst = fmin(h->worst, r[i].v[k]);
			h->typical = stats_median(r[i].v, r[i].n);
		}
		free(r[i].v);
	}
	free(r);
	for (size_t i = 0; i < ng; i++)
		group_basis(&g[i], out);
}

void rep_apples_free(struct rep_apples *a)
{
	free(a->a);
	a->a = NULL;
	a->n = 0;
}

double rep_group_noise(const struct rep_group *g)
{
	if (g->nused == 1 || g->n == 1) {
		for (size_t k = 0; k < g->n; k++)
			if (!g->used || g->used[k])
				return bucket_cv(g->cells[k]);
		return 0;
	}
	/* the group's figure is the median of these: the MAD around it */
	double *v = rep_calloc(g->n + 1, sizeof(*v)), med = g->med_ops;
	size_t m = 0;
	for (size_t k = 0; k < g->n; k++)
		if (!g->used || g->used[k])
			v[m++] = rep_cell_ops(g->cells[k]);
	double noise = med > 0 ? 1.4826 * stats_mad(v, m, med) / med : 0;
	free(v);
	return noise;
}

bool rep_basis_doubt(const struct rep_db *db, const struct rep_group *opt, char *why, size_t len)
{
	why[0] = '\0';
	const struct rep_cell *c = opt->cells[0];
	for (size_t i = 0; i < db->ntflags; i++)
		if (db->tflags[i].cfg == c->cfg) {
			snprintf(why, len, "its runs did not measure the volume (%s: %s)", db->tflags[i].host,
				 db->tflags[i].finding);
			return true;
		}
	double cap = rep_cell_cap(c), v = opt->med_ops;
	if (!(cap > 0) || !(v > 0) || c->rate > 0)
		return false;
	double over = fmax(STATS_CAP_FAR, 1 + 2 * rep_group_noise(opt));
	if (v <= cap * over)
		return false;
	char fig[32], lim[32];
	bool bulk = c->block >= (1u << 20);
	table_format_prose(fig, sizeof(fig) - 8, bulk ? v * (double)c->block / 1e6 : v);
	table_format_prose(lim, sizeof(lim) - 8, bulk ? cap * (double)c->block / 1e6 : cap);
	strcat(fig, bulk ? " MB/s" : " ops/s");
	strcat(lim, bulk ? " MB/s" : " ops/s");
	snprintf(why, len, "%s is %.2gx the %s its provisioned caps allow: the target was not on the volume, or the "
		 "facts are wrong", fig, v / cap, lim);
	return true;
}

static unsigned round_of(const struct rep_config *c)
{
	char v[16];
	return rep_label_value(c->runs, "round", v, sizeof(v)) ? (unsigned)strtoul(v, NULL, 10) : 0;
}

bool rep_config_superseded(const struct rep_db *db, const struct rep_config *cfg, unsigned *last)
{
	unsigned mine = round_of(cfg), most = mine;
	if (!mine)
		return false;
	for (size_t i = 0; i < db->nconfigs; i++) {
		const struct rep_config *o = db->configs[i];
		if (o != cfg && !o->partial && strcmp(o->labels, cfg->labels) == 0 && strcmp(o->facts, cfg->facts) == 0 &&
		    strcmp(o->settings, cfg->settings) == 0 && round_of(o) > most)
			most = round_of(o);
	}
	if (last)
		*last = most;
	return most > mine;
}

void rep_group_left_out(const struct rep_group *g, char *buf, size_t len)
{
	buf[0] = '\0';
	size_t shown = 0, more = 0;
	for (size_t k = 0; g->used && k < g->n; k++) {
		if (g->used[k])
			continue;
		if (shown < 6 && strlen(buf) + strlen(g->cells[k]->host) + 3 < len) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", shown ? ", " : "", g->cells[k]->host);
			shown++;
		} else
			more++;
	}
	if (more)
		snprintf(buf + strlen(buf), len - strlen(buf), " and %zu more", more);
}

void rep_group_interval(const struct rep_group *g, unsigned rounds, uint64_t seed, double *lo, double *hi)
{
	*lo = *hi = NAN;
	double *v = rep_calloc(g->n + 1, sizeof(*v));
	size_t m = 0;
	for (size_t k = 0; k < g->n; k++)
		if (!g->used || g->used[k])
			v[m++] = rep_cell_ops(g->cells[k]);
	if (m == 1) { /* one host: the spread of its own time buckets */
		const struct rep_cell *c = NULL;
		for (size_t k = 0; k < g->n && !c; k++)
			if (!g->used || g->used[k])
				c = g->cells[k];
		m = 0;
		if (c->npts >= REP_INTERVAL_BUCKETS) {
			free(v);
			v = rep_calloc(c->npts, sizeof(*v));
			for (size_t k = 0; k < c->npts; k++)
				v[m++] = c->pts[k].ops;
		}
	}
	/* the median of the sample over a side of one value: the median's own interval */
	const double one = 1;
	double r;
	if (m >= 2)
		stats_bootstrap_ratio(&one, 1, v, m, rounds, seed, 0.95, &r, lo, hi);
	free(v);
}
