/* report/sections/groups.c - cells into groups, their caps, sweeps and optima: what every section builds on. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/steady.h"
#include "report/base/alloc.h"
#include "report/sections/section.h"
#include "report/store/config.h"
#include "report/store/opname.h"

double rep_cell_ops(const struct rep_cell *c)
{
	return c->seconds > 0 ? (double)c->total.count / c->seconds : 0;
}

size_t rep_cell_burst(const struct rep_cell *c, double *ops)
{
	const struct rep_steady *s = &c->steady;
	*ops = NAN;
	if (!s->runs || !(s->steady_ops > 0) || !(s->bucket > 0))
		return 0;
	double from = s->launch, to = s->launch + s->rounds * s->bucket, sum = 0;
	size_t n = 0;
	for (size_t k = 0; k < c->npts; k++) {
		const struct rep_point *p = &c->pts[k];
		if (p->t < from - 1e-6 || p->t >= to - 1e-6)
			continue;
		if (!(p->ops > s->steady_ops * (1 + STEADY_MAX_RANGE_PCT / 100)))
			break;
		sum += p->ops;
		n++;
	}
	if (n)
		*ops = sum / (double)n;
	return n;
}

static bool same_but_host(const struct rep_cell *a, const struct rep_cell *b)
{
	return a->threads == b->threads && a->size == b->size && a->cfg == b->cfg && strcmp(a->sig, b->sig) == 0;
}

size_t rep_groups(const struct rep_db *db, bool by_host, struct rep_group **out)
{
	struct rep_group *g = rep_calloc(db->ncells, sizeof(*g));
	size_t ng = 0;
	for (size_t i = 0; i < db->ncells;) {
		size_t j = i + 1;
		if (!by_host)
			while (j < db->ncells && same_but_host(db->cells[i], db->cells[j]))
				j++;
		struct rep_group *x = &g[ng++];
		x->cells = &db->cells[i];
		x->n = j - i;
		hist_init(&x->total);
		double sum = 0;
		for (size_t k = 0; k < x->n; k++) {
			hist_merge(&x->total, &x->cells[k]->total);
			sum += rep_cell_ops(x->cells[k]);
			x->runs += x->cells[k]->runs;
		}
		x->ops = sum / (double)x->n;
		double *v = rep_calloc(x->n + 1, sizeof(*v)), *p50 = rep_calloc(x->n + 1, sizeof(*p50)),
		       *p99 = rep_calloc(x->n + 1, sizeof(*p99));
		for (size_t k = 0; k < x->n; k++) {
			v[k] = rep_cell_ops(x->cells[k]);
			p50[k] = hist_percentile(&x->cells[k]->total, 0.5);
			p99[k] = hist_percentile(&x->cells[k]->total, 0.99);
		}
		x->nused = x->n;
		x->med_ops = stats_median(v, x->n);
		x->med_p50 = stats_median(p50, x->n);
		x->med_p99 = stats_median(p99, x->n);
		free(v);
		free(p50);
		free(p99);
		i = j;
	}
	*out = g;
	return ng;
}

void rep_groups_free(struct rep_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++)
		free(g[i].used);
	free(g);
}

static int cmp_idx_size(const void *a, const void *b, void *arg)
{
	const struct rep_group *g = arg;
	uint64_t x = g[*(const size_t *)a].cells[0]->size, y = g[*(const size_t *)b].cells[0]->size;
	return (x > y) - (x < y);
}

size_t rep_sweep_of(const struct rep_group *g, size_t n, size_t i, size_t *idx)
{
	const struct rep_cell *c = g[i].cells[0];
	size_t k = 0;
	for (size_t j = 0; j < n; j++) {
		const struct rep_cell *d = g[j].cells[0];
		if (d->threads == c->threads && d->cfg == c->cfg && strcmp(d->sig, c->sig) == 0)
			idx[k++] = j;
	}
	qsort_r(idx, k, sizeof(*idx), cmp_idx_size, (void *)g);
	return k;
}


double rep_cell_bucket_cv(const struct rep_cell *c)
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

const char *rep_cfg_name(const struct rep_cell *c)
{
	return c->cfg->name[0] ? c->cfg->name : NULL;
}

/* A configuration fact as a number; NAN when absent or not a number. */
static double fact_num(const struct rep_config *cfg, const char *key)
{
	char v[64], *end;
	if (!rep_label_value(cfg->facts, key, v, sizeof(v)))
		return NAN;
	double d = strtod(v, &end);
	return end != v && *end == '\0' ? d : NAN;
}

/*
 * What a configuration's volumes may do, each: IOPS (and the I/O size EBS
 * counts as one), MiB/s, each at burst (*_hi) and after it (*_lo); 0 when
 * unknown. Given facts win; else the type's baseline (gp3 3000 IOPS and 125
 * MiB/s; gp2 3 IOPS per GiB, 100 to 16000, bursting to 3000 under 1 TiB;
 * st1 and sc1 MiB/s per TiB with their burst; io1/io2 only as provisioned).
 */
/* The most MiB/s one gp3, io1 or io2 volume gives. */
#define VOL_MIBS_CEILING 1000

struct vol_limits {
	double iops_hi, iops_lo, io_unit, mibs_hi, mibs_lo;
	bool baseline; /* a limit came from the type, not from a given fact */
};

static struct vol_limits vol_limits_of(const struct rep_config *cfg)
{
	struct vol_limits l = { 0, 0, 262144, 0, 0, false };
	char type[32] = "";
	rep_label_value(cfg->facts, "volumeType", type, sizeof(type));
	double iops = fact_num(cfg, "volumeIops"), mibs = fact_num(cfg, "volumeThroughput");
	double gib = fact_num(cfg, "volumeSize"), tib = gib / 1024;
	if (strcmp(type, "gp3") == 0) {
		l.baseline = !(iops > 0) || !(mibs > 0);
		/* the type's baseline; at most its ceilings (16000 IOPS, 1000 MiB/s a volume) */
		iops = fmin(iops > 0 ? iops : 3000, 16000);
		mibs = fmin(mibs > 0 ? mibs : 125, VOL_MIBS_CEILING);
	} else if (strcmp(type, "gp2") == 0 && gib > 0 && !(iops > 0)) {
		l.baseline = true;
		l.iops_lo = fmin(fmax(3 * gib, 100), 16000);
		l.iops_hi = fmax(l.iops_lo, 3000);
		l.mibs_hi = l.mibs_lo = gib > 170 ? 250 : 128;
		return l;
	} else if ((strcmp(type, "st1") == 0 || strcmp(type, "sc1") == 0) && gib > 0 && !(mibs > 0)) {
		bool st1 = type[0] == 's' && type[1] == 't';
		l.baseline = true;
		l.io_unit = 1048576;
		l.iops_hi = l.iops_lo = st1 ? 500 : 250;
		l.mibs_hi = fmin(tib * (st1 ? 250 : 80), st1 ? 500 : 250);
		l.mibs_lo = fmin(tib * (st1 ? 40 : 12), st1 ? 500 : 192);
		return l;
	}
	l.iops_hi = l.iops_lo = iops > 0 ? iops : 0;
	/* io1/io2 given no MiB/s: 256 KiB per provisioned IOPS, at most 1000 MiB/s a volume (EBS's ceiling) */
	if (!(mibs > 0) && iops > 0 && (strcmp(type, "io1") == 0 || strcmp(type, "io2") == 0))
		mibs = fmin(iops / 4, VOL_MIBS_CEILING);
	l.mibs_hi = l.mibs_lo = mibs > 0 ? mibs : 0;
	return l;
}

/*
 * What the instance lets through to all its EBS volumes together
 * (describe-instance-types' EbsOptimizedInfo, as ec2-provision records
 * it): at burst its maximum, after it its baseline; 0 unknown. MB/s are
 * 10^6 bytes, as AWS gives them.
 */
static void instance_limits(const struct rep_config *cfg, bool burst, double *iops, double *mbs)
{
	*iops = fact_num(cfg, burst ? "ebsMaxIops" : "ebsBaselineIops");
	*mbs = fact_num(cfg, burst ? "ebsMaxMBps" : "ebsBaselineMBps");
	if (!(*iops > 0))
		*iops = fact_num(cfg, burst ? "ebsBaselineIops" : "ebsMaxIops");
	if (!(*mbs > 0))
		*mbs = fact_num(cfg, burst ? "ebsBaselineMBps" : "ebsMaxMBps");
	*iops = *iops > 0 ? *iops : 0;
	*mbs = *mbs > 0 ? *mbs : 0;
}

/* The ops/s of block-sized operations that count volumes of these IOPS and MiB/s allow; 0 unknown. */
static double limit_ops(double iops, double mibs, double unit, double count, uint64_t block)
{
	double cap = INFINITY;
	/* EBS counts an I/O of up to unit (256 KiB; 1 MiB on st1/sc1) as one operation, a larger one as several */
	if (iops > 0)
		cap = iops * count / (block > unit ? ceil((double)block / unit) : 1);
	if (mibs > 0 && block)
		cap = fmin(cap, mibs * count * 1048576 / (double)block);
	return isinf(cap) ? 0 : cap;
}

static double cell_cap(const struct rep_cell *c, bool burst)
{
	if (c->rate > 0)
		return c->rate;
	double count = fact_num(c->cfg, "volumeCount");
	if (!(count >= 1))
		count = 1;
	struct vol_limits l = vol_limits_of(c->cfg);
	double cap = burst ? limit_ops(l.iops_hi, l.mibs_hi, l.io_unit, count, c->block)
			   : limit_ops(l.iops_lo, l.mibs_lo, l.io_unit, count, c->block);
	/* the instance's EBS limit, when its facts say it: the smaller of the two holds */
	double iiops, imbs;
	instance_limits(c->cfg, burst, &iiops, &imbs);
	double inst = limit_ops(iiops, imbs / 1.048576, l.io_unit, 1, c->block);
	if (inst > 0 && (!(cap > 0) || inst < cap))
		cap = inst;
	return cap;
}

double rep_cell_cap(const struct rep_cell *c)
{
	return cell_cap(c, true);
}

double rep_cell_cap_after_burst(const struct rep_cell *c)
{
	return cell_cap(c, false);
}

bool rep_cell_cap_is_baseline(const struct rep_cell *c)
{
	return !(c->rate > 0) && vol_limits_of(c->cfg).baseline;
}



static bool same_curve(const struct rep_cell *a, const struct rep_cell *b)
{
	return a->size == b->size && a->cfg == b->cfg && strcmp(a->sig, b->sig) == 0;
}

size_t rep_curve_end(const struct rep_group *g, size_t n, size_t from)
{
	size_t j = from + 1;
	while (j < n && same_curve(g[from].cells[0], g[j].cells[0]))
		j++;
	return j;
}

const struct rep_group *rep_curve_optimum(const struct rep_group *g, size_t n, size_t from, size_t *end,
					  double within)
{
	size_t j = rep_curve_end(g, n, from);
	*end = j;
	double *thr = rep_calloc(j - from, sizeof(*thr)), *ops = rep_calloc(j - from, sizeof(*ops));
	for (size_t k = from; k < j; k++) {
		thr[k - from] = g[k].cells[0]->threads;
		ops[k - from] = g[k].med_ops;
	}
	size_t opt = stats_thread_optimum(thr, ops, j - from, within);
	free(thr);
	free(ops);
	return &g[from + opt];
}

void rep_row_op(const struct table *t, size_t r, char *buf, size_t len)
{
	const char *op = table_str(t, r, table_col(t, "op")), *sig = table_str(t, r, table_col(t, "signature"));
	if (op && op[0])
		snprintf(buf, len, "%s", op);
	else if (sig)
		rep_op_name(sig, buf, len);
	else
		snprintf(buf, len, "-");
}

const char *rep_host_of(const struct rep_group *g, char *buf, size_t len)
{
	if (g->n == 1)
		return g->cells[0]->host;
	snprintf(buf, len, "(%zu hosts)", g->n);
	return buf;
}

double rep_mb_per_sec(double ops, uint64_t block)
{
	return block ? ops * (double)block / 1e6 : NAN;
}

/* ---- sections ---- */

void rep_utc_of(double when, char *buf, size_t len)
{
	buf[0] = '\0';
	if (when > 1e9 && when < 1e11) {
		time_t tt = (time_t)when;
		struct tm tm;
		if (gmtime_r(&tt, &tm))
			strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
}
