/* report/sections/cost.c - the cost section: operations and MB per dollar per op and config. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/base/price.h"
#include "report/store/config.h"

static const struct tcol cost_cols[] = {
	OP_COLS,
	{ "size", "size", TC_SIZE, 0 },
	CONFIG_COLS,
	{ "instance", "instance", TC_STR, 0 },
	{ "volume", "volume", TC_STR, 0 },
	{ "volumes", "volumes", TC_INT, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "hosts", NULL, TC_INT, 0 },         /* the hosts the figure rests on: bad apples left out */
	{ "hostsOf", NULL, TC_INT, 0 },
	{ NULL, "hosts", TC_STR, 0 },         /* "3 of 4" */
	{ "leftOut", NULL, TC_STR, 0 },       /* their names */
	{ "opsPerSec", "ops/s", TC_NUM, 1 },  /* the median host's (the basis) */
	{ "mbPerSec", "MB/s", TC_NUM, 1 },
	{ "dollarsPerHour", "$/h", TC_NUM, 4 },
	{ "ioDollarsPerHour", NULL, TC_NUM, 6 },
	{ "opsPerDollar", NULL, TC_NUM, 0 },
	{ NULL, "ops per $", TC_STR, 0 },
	{ "mbPerDollar", NULL, TC_NUM, 0 },
	{ NULL, "MB per $", TC_STR, 0 },
	{ "rank", "rank", TC_INT, 0 },
	{ "meanOpsPerSec", NULL, TC_NUM, 1 }, /* the fleet mean, bad apples included: detail */
	{ "doubt", "not ranked", TC_STR, 0 }, /* why the figure is not ranked: over its caps, target not the volume */
};

/* A price fact of a configuration: its labels first, then its provision facts. */
static bool cost_lookup(void *arg, const char *const *keys, char *buf, size_t len)
{
	const struct rep_config *conf = arg;
	for (const char *const *k = keys; *k; k++)
		if (rep_label_value(conf->labels, *k, buf, len))
			return true;
	for (const char *const *k = keys; *k; k++)
		if (rep_label_value(conf->facts, *k, buf, len))
			return true;
	return false;
}

/* An op moves bulk data (MB per $ is its figure) from this many bytes up: read4m, write1m. */
#define COST_BULK_BYTES (1u << 20)

struct cost_row {
	const struct rep_group *g; /* the curve at its optimum */
	size_t sig_order;          /* first appearance of its signature, for the order of rows */
	char config[128], inst[128], vol[128];
	double ops, mbs, dph, io_dph, opd, mbd, count;
	unsigned rank;
	char doubt[320];
};

static int cmp_cost_row(const void *a, const void *b)
{
	const struct cost_row *x = a, *y = b;
	const struct rep_cell *cx = x->g->cells[0], *cy = y->g->cells[0];
	if (x->sig_order != y->sig_order)
		return x->sig_order < y->sig_order ? -1 : 1;
	if (cx->size != cy->size)
		return cx->size < cy->size ? -1 : 1;
	if (x->rank != y->rank) /* unranked (0) last */
		return x->rank && (!y->rank || x->rank < y->rank) ? -1 : 1;
	return strcmp(cx->cfg->name, cy->cfg->name);
}

/* The configuration's price facts (the prices file's config, labels, provision facts); false if none. */
static bool cost_facts(const struct rep_cell *c, const struct price_config *cfg, struct cost_row *r,
		       struct price_facts *f)
{
	if (!price_facts_find(cfg, cost_lookup, (void *)c->cfg, f, r->inst, sizeof(r->inst), r->vol, sizeof(r->vol)))
		return false;
	if (isnan(f->size_gib) && c->size) /* no volume size said: the file's, a lower bound */
		f->size_gib = ceil((double)c->size / (1u << 30));
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
	struct cost_row *rows = rep_calloc(ng + 1, sizeof(*rows));
	size_t nr = 0, unpriced = 0;
	for (size_t i = 0, end; i < ng; i = end) {
		const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, o->within);
		const struct rep_cell *c = opt->cells[0];
		struct cost_row *r = &rows[nr];
		memset(r, 0, sizeof(*r));
		rep_label_value(c->cfg->labels, "config", r->config, sizeof(r->config));
		const struct price_config *cfg = r->config[0] ? price_config_find(o->prices, r->config) : NULL;
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
		r->ops = opt->med_ops;
		r->count = isnan(f.count) ? 1 : f.count;
		rep_basis_doubt(ctx->db, opt, r->doubt, sizeof(r->doubt));
		unsigned last;
		if (rep_config_superseded(ctx->db, c->cfg, &last))
			snprintf(r->doubt, sizeof(r->doubt), "an earlier round of a campaign (the thread search); round %u "
				 "is its result", last);
		r->mbs = c->block ? r->ops * (double)c->block / 1e6 : NAN;
		r->dph = price_with_io(&ph, r->ops);
		r->io_dph = r->dph - ph.fixed;
		r->opd = r->dph > 0 ? r->ops * 3600 / r->dph : NAN;
		r->mbd = r->dph > 0 && c->block >= COST_BULK_BYTES ? r->mbs * 3600 / r->dph : NAN;
		nr++;
	}
	/*
	 * rank 1: the most operations per dollar among the configs that ran the
	 * op at that size; a figure in doubt is not ranked (rank 0, shown "-")
	 */
	for (size_t i = 0; i < nr; i++) {
		rows[i].rank = rows[i].doubt[0] ? 0 : 1;
		for (size_t k = 0; k < nr && rows[i].rank; k++)
			if (k != i && !rows[k].doubt[0] && rows[k].sig_order == rows[i].sig_order &&
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
		char left[256], of[48];
		rep_group_left_out(r->g, left, sizeof(left));
		if (r->g->nused == r->g->n)
			snprintf(of, sizeof(of), "%zu", r->g->n);
		else
			snprintf(of, sizeof(of), "%zu of %zu", r->g->nused, r->g->n);
		table_row(t, c->sig, c->op, (double)c->size, r->config[0] ? r->config : rep_cfg_name(c), c->cfg->labels,
			  r->inst[0] ? r->inst : NULL, r->vol[0] ? r->vol : NULL, r->count, c->threads,
			  (double)r->g->nused, (double)r->g->n, of, left[0] ? left : NULL, r->ops, r->mbs, r->dph,
			  r->io_dph, r->opd, opd, r->mbd, mbd, r->rank ? (double)r->rank : NAN, r->g->ops,
			  r->doubt[0] ? r->doubt : NULL);
	}
	if (nr)
		table_note(t,
			   "Each op at its optimal thread count (fewest within %.0f%% of the best), the median host's "
			   "ops/s with bad apples left out (the figure of every answer); rank 1 = most per $ for that op, "
			   "a figure in doubt unranked. $/h: instance + GB-months + provisioned IOPS and MiB/s above the free baseline "
			   "+ per-I/O charges at the measured rate; MB per $ for ops of 1M and more. Prices of %s.",
			   o->within * 100, o->prices->date ? o->prices->date : "an undated list");
	else
		table_note(t, "No configuration has a price: %s", unpriced
			   ? "its instance or volume type is not in the price list; add it"
			   : "the runs carry no instanceType/volumeType facts (--provision-fact) or config label the list names");
	free(rows);
}

const struct rep_section_def rep_sec_cost = {
	.name = "cost",
	.title = "Operations per dollar",
	.help = "per op and config at its optimal thread count, the median host with\n"
		"bad apples left out: $/h (instance, GB-months, provisioned IOPS and\n"
		"MiB/s above the free baseline, per-I/O charges), ops and MB per dollar,\n"
		"rank per op; a figure above its caps unranked, said (needs --prices)",
	SECTION_COLS(cost_cols),
	.build = build_cost,
	.plot = true,
};
