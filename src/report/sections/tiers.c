/* report/sections/tiers.c - the tiers section: cache tiers over a file-size sweep. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/tiers.h"
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "report/base/alloc.h"
#include "report/base/stats.h"

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

/* How much one size's figures move by themselves: its hosts' bucket CV, or their p50s' spread. */
static double size_noise(const struct rep_group *x)
{
	double *v = rep_calloc(x->n, sizeof(*v));
	size_t m = 0;
	for (size_t k = 0; k < x->n; k++) {
		double cv = rep_cell_bucket_cv(x->cells[k]);
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

const struct rep_section_def rep_sec_tiers = {
	.name = "tiers",
	.title = "Cache tiers over the size sweep (level p50 ranges)",
	.help = "file-size sweep (labels fileSize/span or target.span): level ranges;\n"
		"a boundary needs a p50 step above --tier-threshold (50%) and twice\n"
		"the noise (time buckets' CV, hosts' spread, the tiers' own spread)",
	SECTION_COLS(tiers_cols),
	.build = build_tiers,
};
