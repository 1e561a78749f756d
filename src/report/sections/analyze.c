/* report/sections/analyze.c - the report's sections, built from grouped cells. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "report/sections/section.h"
#include "report/sections/summary.h"

void rep_opts_default(struct rep_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->floor_ns = REP_FLOOR_US * 1e3;
	o->tier_min = REP_TIER_PCT / 100.0;
	o->regime_rel = 0.2;
	o->regime_min = 3;
	o->mode_min_share = 0.01;
	o->within = REP_WITHIN_PCT / 100.0;
	o->tolerance = REP_TOLERANCE_PCT / 100.0;
	o->rounds = 2000;
	o->seed = 12;
}

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
			  rep_host_of(&g[i], hb, sizeof(hb)), (double)g[i].n, (double)g[i].runs, (double)h->count, g[i].ops,
			  rep_mb_per_sec(g[i].ops, c->block), hist_mean(h), hist_percentile(h, 0.5),
			  hist_percentile(h, 0.9), hist_percentile(h, 0.95), hist_percentile(h, 0.99),
			  hist_percentile(h, 0.999), h->count ? (double)h->max_ns : NAN, (double)h->errors,
			  cpu_per_op(&g[i]), split_p99(&g[i], false), split_p99(&g[i], true));
	}
}

const struct rep_section_def rep_sec_groups = {
	.name = "groups",
	.title = "Groups (op x threads x config x size x host)",
	.help = "per op x threads x config x size x host: ops/s, MB/s, mean,\n"
		"p50 p90 p95 p99 p99.9 max latency, errors, CPU per operation",
	SECTION_COLS(groups_cols),
	.build = build_groups,
	.shown = REP_SHOWN_DETAIL,
};

/* The sections, in the order they print: REP_SECTIONS's rows (analyze.h). */
#define REP_SECTION_ROW(e, def) [e] = &def,
static const struct rep_section_def *const sections[SEC_COUNT] = { REP_SECTIONS(REP_SECTION_ROW) };
#undef REP_SECTION_ROW

const char *rep_section_name(enum rep_section s)
{
	return sections[s]->name;
}

const char *rep_section_help(enum rep_section s)
{
	return sections[s]->help;
}

enum rep_shown rep_section_shown(enum rep_section s)
{
	return sections[s]->shown;
}

bool rep_section_plotted(enum rep_section s)
{
	return sections[s]->plot;
}

int rep_section_find(const char *name, size_t len)
{
	for (int s = 0; s < SEC_COUNT; s++)
		if (strlen(sections[s]->name) == len && strncmp(name, sections[s]->name, len) == 0)
			return s;
	return -1;
}

void rep_build_tables(const struct rep_db *db, const struct rep_opts *o, const bool want[SEC_COUNT],
		      struct table tables[SEC_COUNT])
{
	for (int s = 0; s < SEC_COUNT; s++)
		table_init(&tables[s], sections[s]->name, sections[s]->title, sections[s]->cols, sections[s]->ncols);
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
	/* one basis: every section's figure leaves out the same bad apples */
	struct rep_apples apples;
	rep_apples_judge(&apples, fleet, nf);
	struct rep_ctx ctx = { .db = db, .o = o, .fleet = fleet, .nf = nf, .view = view, .nv = nv, .apples = &apples };
	for (int s = 0; s < SEC_COUNT; s++) {
		bool built = s == SEC_SUMMARY;
		for (int e = 0; e < s; e++)
			built |= build[e] && sections[e]->build == sections[s]->build;
		if (build[s] && !built)
			sections[s]->build(tables, &ctx);
	}
	if (build[SEC_SUMMARY])
		sections[SEC_SUMMARY]->build(tables, &ctx);
	if (view != fleet)
		rep_groups_free(view, nv);
	rep_groups_free(fleet, nf);
	rep_apples_free(&apples);
}
