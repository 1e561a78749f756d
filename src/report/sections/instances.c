/* report/sections/instances.c - the instances and badApples sections: a group across hosts, and the hosts far below its median. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "report/base/alloc.h"
#include "report/base/stats.h"

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
	{ "verdict", "verdict", TC_STR, 0 },
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
		rep_group_slow(&g[i], flag, &med, &mad);
		double far_cap = 0, group_cap = NAN;
		for (size_t k = 0; k < n; k++) {
			const struct rep_cell *h = g[i].cells[k];
			const struct rep_apple *a = rep_apple_of(ctx->apples, h->cfg, h->host);
			double cap = rep_cell_cap(h), far;
			bool held = rep_held_at_cap(h, v[k], med, &far);
			ncap += held;
			if (far > 0)
				far_cap = far;
			if (cap > 0 && !(h->rate > 0))
				group_cap = cap;
			bool apple = a && a->bad;
			nbad += apple;
			/* a row for each slow cell; a low cell at its cap says so */
			bool low = med > 0 && v[k] <= med * (1 - STATS_MIN_SHORTFALL);
			if (!flag[k] && !(held && low))
				continue;
			char rule[640], words[96];
			if (held && !flag[k]) {
				cap_words(h, cap, words, sizeof(words));
				snprintf(rule, sizeof(rule), "at its cap (%s): not a bad apple", words);
			} else {
				bad_rule(rule, sizeof(rule), v[k], med, mad, n, far);
				size_t o = strlen(rule);
				if (apple)
					snprintf(rule + o, sizeof(rule) - o, "; bad apple: slow in %u of %u cells", a->slow,
						 a->cells);
				else
					snprintf(rule + o, sizeof(rule) - o, "; a noisy cell: slow in %u of %u cells, a bad "
						 "apple in half or more", a ? a->slow : 1, a ? a->cells : 1);
			}
			table_row(bad, h->sig, h->op, h->threads, rep_cfg_name(h), h->cfg->labels, (double)h->size, h->host, v[k], med,
				  med > 0 ? v[k] / med : NAN, cap > 0 ? cap : NAN, hist_percentile(&h->total, 0.5),
				  hist_percentile(&h->total, 0.95), hist_percentile(&h->total, 0.99), (double)h->total.errors,
				  apple ? 1.0 : 0.0, held ? "at cap" : apple ? "bad apple" : flag[k] ? "noisy cell" : "-",
				  rule);
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

const struct rep_section_def rep_sec_instances = {
	.name = "instances",
	.title = "Across instances (per-host ops/s; hosts: N of M a fleet planned)",
	.help = "groups that span hosts: N of M hosts, min/median/max per-host ops/s,\n"
		"best/worst",
	SECTION_COLS(instances_cols),
	.build = build_instances,
};

const struct rep_section_def rep_sec_badApples = {
	.name = "badApples",
	.title = "Bad apples and noisy cells (slow: >= 20% below the median, beyond the noise; --help)",
	.help = "slow cells and bad apples: a cell is slow for a host at least 20%\n"
		"below the cell's median (from 5 hosts also a robust z, 1.4826 x MAD,\n"
		"below -3), by more than twice its time buckets' CV, not at its cap;\n"
		"a bad apple is slow in half or more of its cells of a config (more\n"
		"than one); one slow cell of many is a noisy cell; cells of fewer\n"
		"than 3 hosts judge nobody",
	SECTION_COLS(bad_cols),
	.build = build_instances,
	.plot = true,
};
