/*
 * SPDX-License-Identifier: Apache-2.0
 * report/sections/compare.c - config A vs config B, per op: the ratio of the medians
 * over hosts of throughput, p50 and p99, with a bootstrap 95% interval and a
 * plain verdict.
 *
 * The sides are what --compare "A vs B" selects, or, without it, every two
 * configurations that differ in one dimension (report_compare.h); when none
 * do, every two side by side with no ratio. Each side is taken at its
 * optimal thread count; a side of one host is resampled over its time
 * buckets.
 */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/sections/compare.h"
#include "report/sections/section.h"
#include "report/base/stats.h"
#include "report/store/config.h"
#include "report/store/opname.h"

#define LEVEL 0.95
/* A one-in-ten bad apple, seen with this probability */
#define APPLE_SHARE 0.1

static const struct tcol rep_compare_cols[] = {
	{ "signature", NULL, TC_STR, 0 },
	{ "op", "op", TC_STR, 0 },
	{ "metric", "metric", TC_STR, 0 },
	{ "a", "A", TC_STR, 0 },
	{ "b", "B", TC_STR, 0 },
	{ "differs", "differs", TC_STR, 0 },
	{ "threadsA", NULL, TC_NUM, 0 },   /* null when its curves differ (threadsListA) */
	{ "threadsB", NULL, TC_NUM, 0 },
	{ "threadsListA", "thr A", TC_STR, 0 },
	{ "threadsListB", "thr B", TC_STR, 0 },
	{ "hostsA", "hosts A", TC_INT, 0 },  /* the hosts compared: bad apples left out */
	{ "hostsB", "hosts B", TC_INT, 0 },
	{ "leftOutA", NULL, TC_STR, 0 },     /* the bad apples left out, by name */
	{ "leftOutB", NULL, TC_STR, 0 },
	{ "valueA", NULL, TC_NUM, 6 },
	{ "valueB", NULL, TC_NUM, 6 },
	{ NULL, "median A", TC_STR, 0 },
	{ NULL, "median B", TC_STR, 0 },
	{ "ratio", "B/A", TC_RATIO, 0 },
	{ "low", "95% low", TC_RATIO, 0 },
	{ "high", "95% high", TC_RATIO, 0 },
	{ "verdict", "verdict", TC_STR, 0 },
	{ "ratioAll", NULL, TC_NUM, 6 },     /* with every host, bad apples too, when some were left out */
	{ "lowAll", NULL, TC_NUM, 6 },
	{ "highAll", NULL, TC_NUM, 6 },
	{ "note", "note", TC_STR, 0 },
};
/* ---- which cells a side takes ---- */

static bool is_key(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_' || s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

/*
 * Whether cell c is of side sel: "KEY=GLOB" on the host, a label or a
 * configuration fact (KEY a word); else a glob on the configuration's name.
 */
static bool side_has(const char *sel, const struct rep_cell *c)
{
	const char *eq = strchr(sel, '=');
	if (eq && is_key(sel, (size_t)(eq - sel))) {
		char key[128], v[512];
		snprintf(key, sizeof(key), "%.*s", (int)(eq - sel), sel);
		if (strcmp(key, "host") == 0)
			return fnmatch(eq + 1, c->host, 0) == 0;
		return (rep_label_value(c->cfg->labels, key, v, sizeof(v)) ||
			rep_label_value(c->cfg->facts, key, v, sizeof(v)) ||
			rep_config_setting(c->cfg, c->sig, key, v, sizeof(v))) &&
		       fnmatch(eq + 1, v, 0) == 0;
	}
	return fnmatch(sel, c->cfg->name, 0) == 0;
}

/* ---- one side of one op: its groups at their optimal thread counts ---- */

struct side {
	const char *label;  /* what names the side in the table */
	const struct rep_group **g; /* at their optimum, one per curve */
	size_t n;
	char threads[64];   /* "8", or "4,8" when its curves differ */
	size_t hosts;       /* compared: its bad apples left out */
	size_t apples;      /* bad apples left out (the badApples section names them) */
	char left[256];     /* their names */
};

/* The fleet groups of signature sig whose cells match: each curve at its optimum. */
static void side_collect(const struct rep_ctx *ctx, const char *sig, uint64_t size,
			 bool (*match)(const void *, const struct rep_cell *), const void *arg, struct side *s)
{
	const struct rep_group *g = ctx->fleet;
	s->g = rep_calloc(ctx->nf + 1, sizeof(*s->g));
	s->n = 0;
	s->hosts = 0;
	s->apples = 0;
	s->threads[0] = '\0';
	s->left[0] = '\0';
	for (size_t i = 0; i < ctx->nf;) {
		size_t end;
		const struct rep_group *opt = rep_curve_optimum(g, ctx->nf, i, &end, ctx->o->within);
		if (strcmp(g[i].cells[0]->sig, sig) == 0 && g[i].cells[0]->size == size && match(arg, g[i].cells[0])) {
			s->g[s->n++] = opt;
			s->hosts += opt->nused;
			s->apples += opt->n - opt->nused;
			char left[256];
			rep_group_left_out(opt, left, sizeof(left));
			if (left[0] && strlen(s->left) + strlen(left) + 3 < sizeof(s->left))
				snprintf(s->left + strlen(s->left), sizeof(s->left) - strlen(s->left), "%s%s",
					 s->left[0] ? ", " : "", left);
			char t[24];
			snprintf(t, sizeof(t), "%g", opt->cells[0]->threads);
			bool seen = false;
			for (const char *p = s->threads; *p && !seen; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ','))
				seen = strncmp(p, t, strlen(t)) == 0 && (p[strlen(t)] == ',' || p[strlen(t)] == '\0');
			if (!seen && strlen(s->threads) + strlen(t) + 2 < sizeof(s->threads))
				snprintf(s->threads + strlen(s->threads), sizeof(s->threads) - strlen(s->threads), "%s%s",
					 s->threads[0] ? "," : "", t);
		}
		i = end;
	}
}

enum metric { M_OPS, M_P50, M_P99 };

/* A one-host side's interval comes from its time buckets, when it has this many. */
#define MIN_BUCKETS 5

/*
 * The side's sample of a metric: per host, its bad apples left out (all:
 * every host); for one host, its ops/s per time bucket.
 */
static size_t side_sample(const struct side *s, enum metric m, bool all, double **out)
{
	double *v;
	size_t n = 0;
	if (s->hosts == 1 && m == M_OPS && s->apples == 0) {
		const struct rep_cell *c = s->g[0]->cells[0];
		v = rep_calloc(c->npts + 1, sizeof(*v));
		for (size_t k = 0; k < c->npts; k++)
			v[n++] = c->pts[k].ops;
		if (n < 2) { /* no buckets to resample: the host's own figure */
			n = 0;
			v[n++] = rep_cell_ops(c);
		}
		*out = v;
		return n;
	}
	v = rep_calloc(s->hosts + s->apples + 1, sizeof(*v));
	for (size_t i = 0; i < s->n; i++)
		for (size_t k = 0; k < s->g[i]->n; k++) {
			const struct rep_cell *c = s->g[i]->cells[k];
			if (all || !s->g[i]->used || s->g[i]->used[k])
				v[n++] = m == M_OPS ? rep_cell_ops(c) : hist_percentile(&c->total, m == M_P50 ? 0.5 : 0.99);
		}
	*out = v;
	return n;
}

static double median_of(const double *v, size_t n)
{
	double *t = rep_calloc(n + 1, sizeof(*t));
	memcpy(t, v, n * sizeof(*t));
	double m = stats_median(t, n);
	free(t);
	return m;
}

static void format_value(enum metric m, double v, char *buf, size_t len)
{
	if (m == M_OPS)
		snprintf(buf, len, "%.1f ops/s", v);
	else
		units_format_ns(buf, len, v);
}

/* A ratio for people: the tables' own (TC_RATIO), so that a verdict and its columns agree. */
void rep_format_ratio(char *buf, size_t len, double r)
{
	table_format_num(buf, len, TC_RATIO, 0, r);
}

/* Whether a one-host side has time buckets enough to resample (else no interval). */
static bool side_buckets(const struct side *s)
{
	return s->hosts != 1 || s->apples != 0 || s->g[0]->cells[0]->npts >= MIN_BUCKETS;
}

/* One row: metric m of side b against side a. */
static void compare_metric(struct table *t, const struct rep_ctx *ctx, const char *sig, const char *size_tag,
			   const char *differs, const struct side *a, const struct side *b, enum metric m, uint64_t seed,
			   const char *side_only)
{
	static const char *const names[] = { "ops/s", "p50", "p99" };
	double *va, *vb, ratio, lo, hi;
	size_t na = side_sample(a, m, false, &va), nb = side_sample(b, m, false, &vb);
	bool one = a->hosts == 1 || b->hosts == 1;
	stats_bootstrap_ratio(va, na, vb, nb, ctx->o->rounds, seed, LEVEL, &ratio, &lo, &hi);
	/* latencies of one host have no spread to resample, nor a handful of buckets: a ratio, no interval */
	if (one && (m != M_OPS || !side_buckets(a) || !side_buckets(b) || !(hi > lo)))
		lo = hi = NAN;
	/* the same with every host, when bad apples were left out: the section shows what leaving them out did */
	double all_r = NAN, all_lo = NAN, all_hi = NAN;
	if (a->apples + b->apples > 0 && !side_only) {
		double *xa, *xb;
		size_t nxa = side_sample(a, m, true, &xa), nxb = side_sample(b, m, true, &xb);
		stats_bootstrap_ratio(xa, nxa, xb, nxb, ctx->o->rounds, seed, LEVEL, &all_r, &all_lo, &all_hi);
		free(xa);
		free(xb);
	}
	double ma = median_of(va, na), mb = median_of(vb, nb);
	char verdict[600], note[600] = "", sa[32], sb[32], op[64], r[24], l[24], h[24];
	rep_op_name(sig, op, sizeof(op));
	if (size_tag)
		snprintf(op + strlen(op), sizeof(op) - strlen(op), " @%s", size_tag);
	format_value(m, ma, sa, sizeof(sa));
	format_value(m, mb, sb, sizeof(sb));
	rep_format_ratio(r, sizeof(r), ratio);
	rep_format_ratio(l, sizeof(l), lo);
	rep_format_ratio(h, sizeof(h), hi);
	const char *what = m == M_OPS ? "" : names[m];
	if (side_only) {
		ratio = lo = hi = NAN;
		snprintf(verdict, sizeof(verdict), "%s", side_only);
	} else if (isnan(ratio))
		snprintf(verdict, sizeof(verdict), "no figure (a median is 0)");
	else if (isnan(lo))
		snprintf(verdict, sizeof(verdict), "B%s%s is %sx A%s (no interval: %s)", m == M_OPS ? "" : "'s ",
			 what, r, m == M_OPS ? "" : "'s",
			 m == M_OPS ? "one host, too few time buckets to resample" : "one host");
	else if (lo <= 1 && hi >= 1)
		snprintf(verdict, sizeof(verdict), "no difference at this sample size (%s-%s)", l, h);
	else
		snprintf(verdict, sizeof(verdict), "B%s%s is %sx A%s (%s-%s)", m == M_OPS ? "" : "'s ", what, r,
			 m == M_OPS ? "" : "'s", l, h);
	if (one)
		snprintf(note, sizeof(note), "rests on one host (%s)%s",
			 a->hosts == 1 && b->hosts == 1 ? "A and B" : a->hosts == 1 ? "A" : "B",
			 m == M_OPS && !isnan(lo) && a->apples + b->apples == 0 ? "; interval over its time buckets" : "");
	if (a->apples || b->apples) {
		char al[24], ah[24];
		rep_format_ratio(al, sizeof(al), all_lo);
		rep_format_ratio(ah, sizeof(ah), all_hi);
		snprintf(note + strlen(note), sizeof(note) - strlen(note),
			 "%sbad apples left out: %zu of %zu of A%s%s%s, %zu of %zu of B%s%s%s; with them: %s-%s",
			 note[0] ? "; " : "", a->apples, a->hosts + a->apples, a->left[0] ? " (" : "", a->left,
			 a->left[0] ? ")" : "", b->apples, b->hosts + b->apples, b->left[0] ? " (" : "", b->left,
			 b->left[0] ? ")" : "", al, ah);
	}
	if (m != M_OPS && strchr(a->threads, ',') == NULL && strchr(b->threads, ',') == NULL &&
	    strcmp(a->threads, b->threads) != 0)
		snprintf(note + strlen(note), sizeof(note) - strlen(note),
			 "%slatencies at each side's optimal thread count (A %s, B %s)", note[0] ? "; " : "", a->threads,
			 b->threads);
	double ta = strchr(a->threads, ',') ? NAN : strtod(a->threads, NULL);
	double tb = strchr(b->threads, ',') ? NAN : strtod(b->threads, NULL);
	table_row(t, sig, op, names[m], a->label, b->label, differs, ta, tb, a->threads, b->threads, (double)a->hosts,
		  (double)b->hosts, a->left[0] ? a->left : NULL, b->left[0] ? b->left : NULL, ma, mb, sa, sb, ratio,
		  lo, hi, verdict, all_r, all_lo, all_hi, note[0] ? note : NULL);
	free(va);
	free(vb);
}

/* An op and a size it ran at; sizes: the op ran at more than one. */
struct op_size {
	const char *sig;
	uint64_t size;
	bool sizes;
};

/*
 * The ops and sizes of ctx's fleet groups, each once, in the order they
 * first come (caller frees *out): found once per section, as a study of
 * many configs pairs them many times over.
 */
static size_t op_sizes(const struct rep_ctx *ctx, struct op_size **out)
{
	struct op_size *list = rep_calloc(ctx->nf + 1, sizeof(*list));
	size_t n = 0;
	for (size_t i = 0; i < ctx->nf; i++) {
		const struct rep_cell *c = ctx->fleet[i].cells[0];
		bool seen = false;
		/* fleet groups sort by signature: a signature's sizes are together at the end of the list */
		for (size_t k = n; k-- > 0 && strcmp(list[k].sig, c->sig) == 0;) {
			if (list[k].size == c->size)
				seen = true;
			else
				list[k].sizes = true;
		}
		if (seen)
			continue;
		bool other = n > 0 && strcmp(list[n - 1].sig, c->sig) == 0;
		list[n++] = (struct op_size){ c->sig, c->size, other };
	}
	*out = list;
	return n;
}

/* The section's ops and sizes (op_sizes), made when the section is built. */
struct compare_run {
	struct op_size *os;
	size_t nos;
};

/*
 * Every op both sides ran: three rows each; side_only (NULL none): the
 * medians side by side, no ratio, this verdict. Returns the larger side's
 * host count seen.
 */
static size_t compare_sides(struct table *t, const struct rep_ctx *ctx, const struct compare_run *run,
			    bool (*match)(const void *, const struct rep_cell *),
			    const void *sel_a, const void *sel_b, const char *label_a, const char *label_b,
			    const char *differs, const char *side_only)
{
	size_t most = 0;
	/* one comparison per op and swept size: a ratio across sizes would measure the cache, not the config */
	for (size_t k = 0; k < run->nos; k++) {
		const char *sig = run->os[k].sig;
		uint64_t size = run->os[k].size;
		bool sizes = run->os[k].sizes;
		struct side a = { .label = label_a }, b = { .label = label_b };
		side_collect(ctx, sig, size, match, sel_a, &a);
		side_collect(ctx, sig, size, match, sel_b, &b);
		if (a.n && b.n) {
			char tag[32];
			if (sizes)
				units_format_signature_size(tag, sizeof(tag), size);
			/* the seed depends on what is compared, not on what else was read */
			uint64_t seed = ctx->o->seed;
			for (const char *p = sig; *p; p++)
				seed = (seed ^ (unsigned char)*p) * 1099511628211ULL;
			seed ^= size;
			for (enum metric m = M_OPS; m <= M_P99; m++)
				compare_metric(t, ctx, sig, sizes ? tag : NULL, differs, &a, &b, m, seed + m, side_only);
			most = most > a.hosts ? most : a.hosts;
			most = most > b.hosts ? most : b.hosts;
		}
		free(a.g);
		free(b.g);
	}
	return most;
}

static bool match_selector(const void *sel, const struct rep_cell *c)
{
	return side_has(sel, c);
}

static bool match_config(const void *cfg, const struct rep_cell *c)
{
	return c->cfg == cfg;
}

/* ---- configurations that differ in one dimension ---- */

/* A configuration as keys: labels (a value with slashes as one key per part) and facts. */
struct kv {
	char key[140];
	char value[260];
};

#define MAX_KEYS 64

static size_t config_keys(const struct rep_config *cfg, struct kv *out, size_t max)
{
	size_t n = 0;
	const char *lists[3] = { cfg->labels, cfg->facts, cfg->settings };
	for (int l = 0; l < 3; l++) {
		for (const char *p = lists[l] ? lists[l] : ""; *p && n < max; p += *p == ',') {
			size_t len = strcspn(p, ","), kl = strcspn(p, "=");
			if (kl > len)
				kl = len;
			const char *v = p + kl + (kl < len), *vend = p + len;
			for (int part = 1; n < max; part++) {
				size_t pl = l == 0 ? strcspn(v, "/,") : (size_t)(vend - v);
				if (v + pl > vend)
					pl = (size_t)(vend - v);
				bool more = l == 0 && v + pl < vend && v[pl] == '/';
				if (part == 1 && !more)
					snprintf(out[n].key, sizeof(out[n].key), "%.*s", (int)(kl < 128 ? kl : 128), p);
				else
					snprintf(out[n].key, sizeof(out[n].key), "%.*s[%d]", (int)(kl < 120 ? kl : 120), p,
						 part);
				snprintf(out[n].value, sizeof(out[n].value), "%.*s", (int)(pl < 250 ? pl : 250), v);
				n++;
				if (!more)
					break;
				v += pl + 1;
			}
			p += len;
		}
	}
	return n;
}

static struct kv *find_kv(struct kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return &kv[i];
	return NULL;
}

static const char *value_of(const struct kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].value;
	return NULL;
}

static void kv_put(struct kv *kv, size_t *n, const char *key, const char *value)
{
	if (*n >= MAX_KEYS)
		return;
	snprintf(kv[*n].key, sizeof(kv[*n].key), "%s", key);
	snprintf(kv[*n].value, sizeof(kv[*n].value), "%s", value);
	(*n)++;
}

/* What a fact left unsaid means: the type's baseline, one volume, no RAID. */
static void fill_defaults(struct kv *kv, size_t *n)
{
	const char *type = value_of(kv, *n, "volumeType"), *store = value_of(kv, *n, "instanceStore");
	struct kv *raid = find_kv(kv, *n, "raidLevel");
	/* settings: the defaults every line without them ran with */
	if (!value_of(kv, *n, "engine"))
		kv_put(kv, n, "engine", "sync");
	if (!value_of(kv, *n, "iodepth"))
		kv_put(kv, n, "iodepth", "1");
	if (!value_of(kv, *n, "rate"))
		kv_put(kv, n, "rate", "none");
	if (raid && strcmp(raid->value, "none") == 0)
		*raid = kv[--*n];
	if (!type && !(store && strcmp(store, "true") == 0))
		return;
	if (!value_of(kv, *n, "volumeCount"))
		kv_put(kv, n, "volumeCount", "1");
	if (type && strcmp(type, "gp3") == 0) {
		if (!value_of(kv, *n, "volumeIops"))
			kv_put(kv, n, "volumeIops", "3000");
		if (!value_of(kv, *n, "volumeThroughput"))
			kv_put(kv, n, "volumeThroughput", "125");
	}
}

/* The dimensions of a configuration; the first key of each anchors its description. */
static const struct dim {
	const char *name;
	const char *keys[8];
} dims_table[] = {
	{ "instance", { "instanceType", "ebsOptimized", "ebsBaselineIops", "ebsMaxIops", "ebsBaselineMBps",
			"ebsMaxMBps" } },
	{ "volume", { "volumeType", "volumeSize", "volumeIops", "volumeThroughput", "instanceStore" } },
	{ "layout", { "volumeCount", "raidLevel", "raidChunk", "filesystem" } },
	{ "placement", { "az", "zone", "availabilityZone", "placementGroup" } },
	{ "settings", { "engine", "iodepth", "direct", "sync", "rate" } },
};
#define NDIMS (sizeof(dims_table) / sizeof(dims_table[0]))

/* The dimension of key: an index into dims_table, or -1 (a dimension of its own). */
static int dim_of(const char *key)
{
	for (size_t d = 0; d < NDIMS; d++)
		for (size_t k = 0; k < 8 && dims_table[d].keys[k]; k++)
			if (strcmp(dims_table[d].keys[k], key) == 0)
				return (int)d;
	return -1;
}

/* One fact as a reader says it: "200 GiB", "8000 IOPS", "4 volumes", "raid0". */
static void say_fact(const char *key, const char *v, char *buf, size_t len)
{
	if (strcmp(key, "volumeSize") == 0)
		snprintf(buf, len, "%s GiB", v);
	else if (strcmp(key, "volumeIops") == 0)
		snprintf(buf, len, "%s IOPS", v);
	else if (strcmp(key, "volumeThroughput") == 0)
		snprintf(buf, len, "%s MiB/s", v);
	else if (strcmp(key, "volumeCount") == 0)
		snprintf(buf, len, "%s volume%s", v, strcmp(v, "1") == 0 ? "" : "s");
	else if (strcmp(key, "raidLevel") == 0)
		snprintf(buf, len, "%s%s", strncmp(v, "raid", 4) == 0 ? "" : "raid", v);
	else if (strcmp(key, "raidChunk") == 0) {
		char *end;
		double b = strtod(v, &end);
		char sz[32];
		if (*end == '\0' && b > 0 && units_format_signature_size(sz, sizeof(sz), (uint64_t)b) >= 0)
			snprintf(buf, len, "chunk %s", sz);
		else
			snprintf(buf, len, "chunk %s", v);
	} else if (strcmp(key, "instanceStore") == 0)
		snprintf(buf, len, "%s", strcmp(v, "true") == 0 ? "instance store" : "EBS");
	else if (strcmp(key, "iodepth") == 0)
		snprintf(buf, len, "qd%s", v);
	else if (strcmp(key, "rate") == 0)
		snprintf(buf, len, "%s%s", strcmp(v, "none") == 0 ? "no " : "rate ", strcmp(v, "none") == 0 ? "rate" : v);
	else if (strcmp(key, "direct") == 0)
		snprintf(buf, len, "%s", strcmp(v, "true") == 0 ? "O_DIRECT" : "buffered");
	else if (strcmp(key, "ebsOptimized") == 0)
		snprintf(buf, len, "%s", strcmp(v, "true") == 0 ? "EBS-optimized" : "not EBS-optimized");
	else
		snprintf(buf, len, "%s", v);
}

static void append(char *buf, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", used ? sep : "", text);
}

/*
 * One side of a dimension, as said: its anchor (the type) when it has one,
 * then the facts that differ where both sides have them, or, when none does,
 * the facts only one side has.
 */
static void say_side(const struct dim *d, const struct kv *mine, size_t nm, const struct kv *other, size_t no, char *buf,
		     size_t len)
{
	buf[0] = '\0';
	char f[300];
	bool both_differ = false;
	for (size_t k = 1; k < 8 && d->keys[k]; k++) {
		const char *a = value_of(mine, nm, d->keys[k]), *b = value_of(other, no, d->keys[k]);
		both_differ |= a && b && strcmp(a, b) != 0;
	}
	for (size_t k = 0; k < 8 && d->keys[k]; k++) {
		const char *a = value_of(mine, nm, d->keys[k]), *b = value_of(other, no, d->keys[k]);
		if (!a)
			continue;
		if (k == 0 || (b && strcmp(a, b) != 0) || (!b && !both_differ)) {
			say_fact(d->keys[k], a, f, sizeof(f));
			append(buf, len, " ", f);
		}
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* A configuration's keys, read once (with the defaults a fact left unsaid takes). */
struct cfg_keys {
	struct kv *kv;
	int *dim;   /* each key's dimension (dim_of), found once */
	size_t n;
};

static void keys_of(const struct rep_config *c, struct cfg_keys *k)
{
	struct kv tmp[MAX_KEYS];
	size_t n = config_keys(c, tmp, MAX_KEYS);
	fill_defaults(tmp, &n);
	k->kv = rep_calloc(n + 1, sizeof(*k->kv));
	k->dim = rep_calloc(n + 1, sizeof(*k->dim));
	memcpy(k->kv, tmp, n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		k->dim[i] = dim_of(k->kv[i].key);
	k->n = n;
}

static void keys_free(struct cfg_keys *k)
{
	free(k->kv);
	free(k->dim);
}

/*
 * rep_config_diff on keys read before; with limit > 0 it only counts (buf
 * left empty, dims and *swap set) and stops once x and y surely differ in
 * more than limit dimensions.
 */
static size_t diff_keys(const struct rep_config *x, const struct cfg_keys *cx, const struct rep_config *y,
			const struct cfg_keys *cy, char *buf, size_t len, char *dims, size_t dlen, bool *swap,
			size_t limit)
{
	const struct kv *kx = cx->kv, *ky = cy->kv;
	size_t nx = cx->n, ny = cy->n;
	buf[0] = '\0';
	dims[0] = '\0';
	*swap = false;
	bool swap_set = false, dim_seen[NDIMS] = { false }, label_differs = false, settings_differ = false;
	size_t ndiff = 0;
	/* every key of x, then those only y has: its dimension, once */
	for (size_t i = 0; i < nx + ny; i++) {
		const char *key = i < nx ? kx[i].key : ky[i - nx].key;
		if (i >= nx && value_of(kx, nx, key))
			continue;
		int d = i < nx ? cx->dim[i] : cy->dim[i - nx];
		if (d >= 0 && dim_seen[d])
			continue;
		const char *const *keys = d >= 0 ? dims_table[d].keys : (const char *const[]){ key, NULL };
		const char *first_a = NULL, *first_b = NULL;
		bool differs = false;
		for (size_t k = 0; k < 8 && keys[k]; k++) {
			const char *a = value_of(kx, nx, keys[k]), *b = value_of(ky, ny, keys[k]);
			if ((a || b) && !(a && b && strcmp(a, b) == 0)) {
				if (!differs) {
					first_a = a;
					first_b = b;
				}
				differs = true;
			}
		}
		if (d >= 0)
			dim_seen[d] = true;
		if (!differs)
			continue;
		ndiff++;
		/* a label beside the settings may make two one: past that, more than limit for sure */
		if (limit && ndiff > limit + 1)
			return ndiff;
		char fv[8];
		if (d >= 0 && strcmp(dims_table[d].name, "settings") == 0)
			settings_differ = true;
		else if (d < 0 && !rep_label_value(x->facts, key, fv, sizeof(fv)) && !rep_label_value(y->facts, key, fv, sizeof(fv)))
			label_differs = true;
		if (!swap_set) {
			*swap = !first_a || (first_b && strverscmp(first_b, first_a) < 0);
			swap_set = true;
		}
		append(dims, dlen, ", ", d >= 0 ? dims_table[d].name : key);
		if (limit)
			continue; /* counting: the words are written for the pairs kept */
		char sa[300], sb[300], one[700];
		if (d >= 0) {
			say_side(&dims_table[d], kx, nx, ky, ny, sa, sizeof(sa));
			say_side(&dims_table[d], ky, ny, kx, nx, sb, sizeof(sb));
		} else {
			snprintf(sa, sizeof(sa), "%s", first_a ? first_a : "-");
			snprintf(sb, sizeof(sb), "%s", first_b ? first_b : "-");
		}
		snprintf(one, sizeof(one), "%s %s → %s", d >= 0 ? dims_table[d].name : key, *swap ? sb : sa,
			 *swap ? sa : sb);
		append(buf, len, "; ", one);
	}
	/*
	 * A label that differs beside the settings names them (--label
	 * config=uring-qd4 on the io_uring runs): one dimension, not two
	 */
	if (label_differs && settings_differ && ndiff > 1)
		ndiff--;
	return ndiff;
}

size_t rep_config_diff(const struct rep_config *x, const struct rep_config *y, char *buf, size_t len,
		       char *dims, size_t dlen, bool *swap)
{
	struct cfg_keys cx, cy;
	keys_of(x, &cx);
	keys_of(y, &cy);
	size_t n = diff_keys(x, &cx, y, &cy, buf, len, dims, dlen, swap, 0);
	keys_free(&cx);
	keys_free(&cy);
	return n;
}

/* Every configuration that ran something, in the order of the groups. */
static size_t configs_of(const struct rep_ctx *ctx, const struct rep_config ***out)
{
	const struct rep_config **cfgs = rep_calloc(ctx->nf + 1, sizeof(*cfgs));
	size_t nc = 0;
	for (size_t i = 0; i < ctx->nf; i++) {
		bool seen = false;
		for (size_t j = 0; j < nc && !seen; j++)
			seen = cfgs[j] == ctx->fleet[i].cells[0]->cfg;
		if (!seen)
			cfgs[nc++] = ctx->fleet[i].cells[0]->cfg;
	}
	*out = cfgs;
	return nc;
}

/*
 * Two configurations whose runs are alike: neither partial, same round and
 * duration. Unlike runs are kept apart (read.c): a ratio across them would
 * measure the rounds or the interruption, not the configuration.
 */
static bool like_runs(const struct rep_config *a, const struct rep_config *b)
{
	return !a->partial && !b->partial && strcmp(a->runs, b->runs) == 0;
}

static const char *side_name(const struct rep_config *c)
{
	return c->name[0] ? c->name : "-";
}

/* A row that says why there is nothing to compare (op, metric, figures "-"). */
static void why_row(struct table *t, const char *a, const char *b, const char *differs, const char *why)
{
	table_row(t, "-", "-", "-", a, b, differs, NAN, NAN, "-", "-", NAN, NAN, NULL, NULL, NAN, NAN, "-", "-", NAN,
		  NAN, NAN, why, NAN, NAN, NAN, NULL);
}

/* Up to this many pairs that differ in one dimension are all compared; past it, each with its next. */
#define MAX_ALL_PAIRS 64
/* At most this many pairs side by side (when none differ in one dimension). */
#define MAX_SIDE_BY_SIDE 12

struct pair {
	size_t i, j;
	char dims[64]; /* the dimension they differ in */
};

/*
 * Without --compare: every two configurations that differ in one
 * dimension, read once each and paired in one pass; past MAX_ALL_PAIRS
 * such pairs, each config only with the next one that differs from it in
 * that dimension (a sweep of 400 labels is 399 pairs, not 79,800), said in
 * *said. When none differ in one dimension, at most MAX_SIDE_BY_SIDE
 * pairs side by side (medians, no ratio) with what differs and the
 * --compare that would compare them. Returns the largest side's host count.
 */
static size_t compare_auto(struct table *t, const struct rep_ctx *ctx, const struct compare_run *run, char *said,
			   size_t slen)
{
	const struct rep_config **cfgs;
	size_t nc = configs_of(ctx, &cfgs), most = 0, npairs = 0, cap = 0;
	char differs[1024], dims[256], why[1400];
	bool swap;
	said[0] = '\0';
	struct cfg_keys *keys = rep_calloc(nc + 1, sizeof(*keys));
	for (size_t i = 0; i < nc; i++)
		keys_of(cfgs[i], &keys[i]);
	struct pair *pairs = NULL;
	for (size_t i = 0; i < nc; i++)
		for (size_t j = i + 1; j < nc; j++) {
			if (!like_runs(cfgs[i], cfgs[j]) ||
			    diff_keys(cfgs[i], &keys[i], cfgs[j], &keys[j], differs, sizeof(differs), dims, sizeof(dims),
				      &swap, 1) != 1)
				continue;
			if (npairs == cap) {
				cap = cap ? 2 * cap : 16;
				pairs = rep_realloc(pairs, cap * sizeof(*pairs));
			}
			pairs[npairs].i = i;
			pairs[npairs].j = j;
			snprintf(pairs[npairs].dims, sizeof(pairs[npairs].dims), "%s", dims);
			npairs++;
		}
	size_t compared = 0;
	bool chain = npairs > MAX_ALL_PAIRS;
	for (size_t p = 0; p < npairs; p++) {
		/* a chain: the first pair of config i in its dimension (j ascending), no other */
		if (chain) {
			bool first = true;
			for (size_t q = p; q-- > 0 && pairs[q].i == pairs[p].i;)
				first &= strcmp(pairs[q].dims, pairs[p].dims) != 0;
			if (!first)
				continue;
		}
		size_t i = pairs[p].i, j = pairs[p].j;
		diff_keys(cfgs[i], &keys[i], cfgs[j], &keys[j], differs, sizeof(differs), dims, sizeof(dims), &swap, 0);
		const struct rep_config *x = swap ? cfgs[j] : cfgs[i], *y = swap ? cfgs[i] : cfgs[j];
		size_t before = t->nrows;
		size_t m = compare_sides(t, ctx, run, match_config, x, y, side_name(x), side_name(y), differs, NULL);
		most = most > m ? most : m;
		if (t->nrows == before)
			why_row(t, side_name(x), side_name(y), differs, "nothing to compare: no op ran on both sides");
		compared++;
	}
	if (chain)
		snprintf(said, slen, " %zu configs differ two by two in one dimension in %zu pairs: each is compared "
			 "with the next that differs from it in that dimension (%zu pairs); --compare 'A vs B' compares "
			 "any other two.", nc, npairs, compared);
	if (npairs == 0 && nc < 2) {
		snprintf(why, sizeof(why), "nothing to compare: %s; name two sides with --compare 'A vs B' "
			 "(a glob on config names, or KEY=GLOB on a label, fact or host)",
			 nc == 0 ? "no iobench runs" : "one configuration");
		why_row(t, nc ? side_name(cfgs[0]) : "-", "-", "-", why);
	} else if (npairs == 0) {
		/* side by side: what each ran, and what differs, but no ratio that would blame one dimension */
		size_t shown = 0, more = 0;
		for (size_t i = 0; i < nc; i++)
			for (size_t j = i + 1; j < nc; j++) {
				if (!like_runs(cfgs[i], cfgs[j]))
					continue;
				if (shown == MAX_SIDE_BY_SIDE) {
					more++;
					continue;
				}
				shown++;
				size_t nd = diff_keys(cfgs[i], &keys[i], cfgs[j], &keys[j], differs, sizeof(differs), dims,
						      sizeof(dims), &swap, 0);
				const struct rep_config *x = swap ? cfgs[j] : cfgs[i], *y = swap ? cfgs[i] : cfgs[j];
				snprintf(why, sizeof(why),
					 "side by side, not compared: they differ in %zu dimensions (%s); to compare "
					 "them anyway: --compare '%s vs %s'",
					 nd, dims, side_name(x), side_name(y));
				size_t before = t->nrows;
				size_t m = compare_sides(t, ctx, run, match_config, x, y, side_name(x), side_name(y), differs,
							 why);
				most = most > m ? most : m;
				if (t->nrows == before) {
					snprintf(why, sizeof(why), "nothing to compare: no op ran on both sides, and they "
						 "differ in %zu dimensions (%s)", nd, dims);
					why_row(t, side_name(x), side_name(y), differs, why);
				}
			}
		if (more)
			snprintf(said, slen, " %zu more pairs of configs side by side are not shown; --compare 'A vs "
				 "B' names two.", more);
		if (shown == 0)
			why_row(t, side_name(cfgs[0]), "-", "-",
				"nothing to compare: the configurations differ only in the kind of their runs (rounds, "
				"durations, partial runs), which are kept apart; --merge-rounds or --include-partial "
				"merges them");
	}
	for (size_t i = 0; i < nc; i++)
		keys_free(&keys[i]);
	free(keys);
	free(pairs);
	free(cfgs);
	return most;
}

static void rep_build_compare(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_COMPARE];
	const struct rep_opts *o = ctx->o;
	size_t most = 0;
	struct compare_run run;
	run.nos = op_sizes(ctx, &run.os);
	for (size_t i = 0; i < o->ncompare; i++) {
		const char *spec = o->compare[i], *vs = strstr(spec, " vs ");
		if (!vs)
			continue; /* the CLI refuses such specs */
		char *a = rep_strdup(spec);
		a[vs - spec] = '\0';
		const char *b = vs + 4;
		size_t before = t->nrows;
		size_t m = compare_sides(t, ctx, &run, match_selector, a, b, a, b, "chosen", NULL);
		most = most > m ? most : m;
		if (t->nrows == before) {
			/* said, not left out: a side that matches nothing is a typo the reader must see */
			bool has_a = false, has_b = false;
			for (size_t k = 0; k < ctx->db->ncells; k++) {
				has_a = has_a || side_has(a, ctx->db->cells[k]);
				has_b = has_b || side_has(b, ctx->db->cells[k]);
			}
			char why[600];
			if (!has_a || !has_b)
				snprintf(why, sizeof(why), "nothing to compare: '%s' matches no run (a glob on config names, "
					 "e.g. '*ebs4', or KEY=GLOB)", !has_a ? a : b);
			else
				snprintf(why, sizeof(why), "nothing to compare: no op ran on both sides");
			table_row(t, "-", "-", "-", a, b, "chosen", NAN, NAN, "-", "-", NAN, NAN, NULL, NULL, NAN, NAN, "-",
				  "-", NAN, NAN, NAN, why, NAN, NAN, NAN, NULL);
		}
		free(a);
	}
	char said[400] = "";
	if (o->ncompare == 0)
		most = compare_auto(t, ctx, &run, said, sizeof(said));
	if (most)
		table_note(t,
			   "Medians over hosts, B/A with a bootstrap %.0f%% interval (%u resamples, seeded); each side "
			   "at its optimal thread count, its bad apples (badApples) left out. To include a one-in-ten bad apple with 95%% probability takes "
			   "%u hosts (log 0.05 / log 0.9); the largest side here has %zu.%s",
			   LEVEL * 100, o->rounds, stats_hosts_needed(APPLE_SHARE, 0.95), most, said);
	free(run.os);
}

const struct rep_section_def rep_sec_compare = {
	.name = "compare",
	.title = "Comparisons, config A vs B per op (ratio of medians over hosts, bootstrap 95% interval)",
	.help = "config A vs B per op: B/A of the median per-host ops/s, p50 and p99\n"
		"with a bootstrap 95% interval and a verdict; --compare 'A vs B', else\n"
		"every two configs that differ in one dimension (instance, volume, layout,\n"
		"placement, or a label or label part), what differs said; else side by side",
	SECTION_COLS(rep_compare_cols),
	.build = rep_build_compare,
	.plot = true,
};
