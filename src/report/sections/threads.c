/* report/sections/threads.c - the threads section: throughput by thread count, and each curve's optimum. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>

#include "lib/hist.h"
#include "report/base/alloc.h"
#include "report/base/stats.h"

static const struct tcol threads_cols[] = {
	OP_COLS,
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "hosts", "hosts", TC_INT, 0 },          /* the hosts its figure rests on (bad apples left out) */
	{ "hostsOf", NULL, TC_INT, 0 },           /* of all its hosts */
	{ "opsPerSec", "ops/s", TC_NUM, 1 },      /* the median host's (the basis) */
	{ "mbPerSec", "MB/s", TC_NUM, 2 },
	{ "meanOpsPerSec", "fleet mean", TC_NUM, 1 }, /* all hosts, bad apples included: detail */
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
				ops[k] = g[i + k].med_ops;
				best = fmax(best, ops[k]);
			}
			size_t opt = stats_thread_optimum(thr, ops, n, o->within);
			for (size_t k = 0; k < n; k++) {
				const struct rep_group *x = &g[i + k];
				const struct rep_cell *c = x->cells[0];
				table_row(t, c->sig, c->op, rep_cfg_name(c), c->cfg->labels, (double)c->size, c->threads, (double)x->nused,
					  (double)x->n, x->med_ops, rep_mb_per_sec(x->med_ops, c->block), x->ops, hist_percentile(&x->total, 0.5),
					  hist_percentile(&x->total, 0.95), hist_percentile(&x->total, 0.99),
					  best > 0 ? x->med_ops / best : NAN,
					  k == opt ? 1.0 : 0.0);
			}
			free(thr);
			free(ops);
		}
		i = j;
	}
}

const struct rep_section_def rep_sec_threads = {
	.name = "threads",
	.title = "Thread curves (median host, bad apples out; optimal = fewest threads within 5% of the best)",
	.help = "throughput by thread count (the median host, bad apples left out;\n"
		"the fleet mean beside it); optimal = fewest within 5% (--within)\n"
		"of the best",
	SECTION_COLS(threads_cols),
	.build = build_threads,
};
