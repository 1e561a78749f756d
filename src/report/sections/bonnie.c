/* report/sections/bonnie.c - the bonnie and bonnieRuns sections: bonnie++ lines, and their mean and spread per host. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/config.h"

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

const struct rep_section_def rep_sec_bonnie = {
	.name = "bonnie",
	.title = "Bonnie++ baseline",
	.help = "bonnie++ lines as they are",
	SECTION_COLS(bonnie_cols),
	.build = build_bonnie,
};

const struct rep_section_def rep_sec_bonnieRuns = {
	.name = "bonnieRuns",
	.title = "Bonnie++ per host and config: mean and spread over runs",
	.help = "bonnie++ per host and config: runs, mean and sd of each rate,\n"
		"seeks/s per member volume (volumeCount fact or label)",
	SECTION_COLS(bonnie_runs_cols),
	.build = build_bonnie_runs,
};
