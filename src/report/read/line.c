/*
 * SPDX-License-Identifier: Apache-2.0
 * report/read/line.c - one document of a results file into what it adds: a run
 * line's operations (histograms, time-series points, CPU time), a bonnie++
 * line, a manifest, and the messages about what was wrong with it. Pure:
 * nothing shared is touched, so many threads may read lines at once.
 */
#include "report/read/line.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist_json.h"
#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/store/config.h"
#include "report/store/opname.h"

__attribute__((format(printf, 2, 3)))
static void say(struct rep_line *l, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t)n >= sizeof(msg) ? sizeof(msg) - 1 : (size_t)n;
	if (l->msgs_len + len + 1 > l->msgs_cap) {
		l->msgs_cap = (l->msgs_len + len + 1) * 2;
		l->msgs = rep_realloc(l->msgs, l->msgs_cap);
	}
	memcpy(l->msgs + l->msgs_len, msg, len + 1);
	l->msgs_len += len + 1;
}

/* A JSON number as a byte count: 0 unless positive, finite and below 2^63. */
static uint64_t to_u64(double v)
{
	return v > 0 && v < 9.2e18 ? (uint64_t)v : 0;
}

static double num_or(const struct jv *obj, const char *key, double fallback)
{
	const struct jv *v = jv_object_get(obj, key);
	return jv_is_number(v) ? jv_number_value(v) : fallback;
}

static char *target_finding(const struct jv *root);

static char *str_or_null(const struct jv *obj, const char *key)
{
	const struct jv *v = jv_object_get(obj, key);
	return jv_is_string(v) ? rep_strdup(jv_string_value(v)) : NULL;
}

/* A histogram object, checked as hist_from_json() checks one (hist_json.h). */
static int hist_of(const struct jv *obj, struct hist *out, char *err, size_t errlen)
{
	if (!jv_is_object(obj)) {
		snprintf(err, errlen, "histogram is not a JSON object");
		return -1;
	}
	struct hist_json_fields f;
	for (int k = 0; k < HIST_JSON_NFIELDS; k++) {
		const struct jv *v = jv_object_get(obj, hist_json_keys[k]);
		f.present[k] = jv_is_number(v);
		f.v[k] = jv_number_value(v);
	}
	const struct jv *b = jv_object_get(obj, "buckets"), *e;
	f.has_buckets = jv_is_array(b);
	f.nbuckets = jv_size(b);
	f.first_bad_bucket = f.nbuckets;
	size_t i;
	jv_array_foreach(b, i, e) {
		if (i >= HIST_NBUCKETS)
			break;
		if (!jv_is_number(e) && f.first_bad_bucket == f.nbuckets)
			f.first_bad_bucket = i;
		f.buckets[i] = jv_number_value(e);
	}
	return hist_from_fields(&f, out, err, errlen);
}

static void read_bonnie(struct rep_line *l, const struct jv *root, const char *fallback_host)
{
	static const char *const rate_keys[] = { "seqOutBlockKBps", "seqOutRewriteKBps",
						 "seqInBlockKBps", "randomSeeksPerSec" };
	static const char *const cpu_keys[] = { "seqOutBlockCpu", "seqOutRewriteCpu",
						"seqInBlockCpu", "randomSeeksCpu" };
	static const char *const lat_keys[] = { "seqOutBlockLatency", "seqOutRewriteLatency",
						"seqInBlockLatency", "randomSeeksLatency" };
	const struct jv *b = jv_object_get(root, "bonnie");
	if (!jv_is_object(b)) {
		say(l, "bonnie++ line has no \"bonnie\" object; skipped");
		l->skipped++;
		return;
	}
	l->kind = REP_LINE_BONNIE;
	struct rep_bonnie *r = &l->bonnie;
	struct rep_split split;
	rep_split_line(root, &split);
	r->host = rep_strdup(split.host ? split.host : fallback_host);
	r->labels = rep_strdup(split.labels);
	r->facts = rep_strdup(split.facts);
	rep_split_free(&split);
	r->file_size = str_or_null(b, "fileSize");
	r->launch = num_or(root, "launchTime", 0);
	for (int k = 0; k < REP_BONNIE_NFIELDS; k++) {
		r->rate[k] = num_or(b, rate_keys[k], NAN);
		r->cpu[k] = num_or(b, cpu_keys[k], NAN);
		r->latency[k] = str_or_null(b, lat_keys[k]);
	}
}

static uint64_t block_of(const struct jv *op, const char *sig)
{
	uint64_t b = to_u64(num_or(op, "blockSize", 0));
	if (b)
		return b;
	const char *p = strchr(sig, ',');
	if (!p)
		return 0;
	char text[32];
	size_t n = strcspn(p + 1, ",");
	if (n == 0 || n >= sizeof(text))
		return 0;
	memcpy(text, p + 1, n);
	text[n] = '\0';
	uint64_t bytes;
	return units_parse_size(text, &bytes) == 0 ? bytes : 0;
}

/*
 * The CPU time an operation cost, as the line records it: user + system
 * seconds of its threads, else (watch periods) ns per operation; over its
 * operations, failed ones included.
 */
static void cpu_of(const struct jv *op, const struct hist *total, double *cpu_ns, double *cpu_ops)
{
	double ops = (double)(total->count + total->errors);
	const struct jv *user = jv_object_get(op, "cpuUserSeconds"), *sys = jv_object_get(op, "cpuSystemSeconds");
	const struct jv *per = jv_object_get(op, "cpuNsPerOp");
	double ns = NAN;
	if (jv_is_number(user) && jv_is_number(sys))
		ns = (jv_number_value(user) + jv_number_value(sys)) * 1e9;
	else if (jv_is_number(per))
		ns = jv_number_value(per) * ops;
	if (isfinite(ns) && ns >= 0 && ops > 0) {
		*cpu_ns = ns;
		*cpu_ops = ops;
	}
}

/*
 * The 2012 tool counted every sample, failed or not, in count and in the
 * buckets (errorCount is a subset of count); iobench's count is successful
 * operations. Take the failures out of count, and out of the buckets in
 * proportion to them (which ones failed cannot be told), largest remainders
 * first so the buckets sum to the new count; the total shrinks in step.
 */
static void hist_from_2012(struct hist *h)
{
	uint64_t all = h->count, failed = h->errors < all ? h->errors : all;
	h->errors = failed;
	if (failed == 0)
		return;
	uint64_t removed = 0;
	double frac[HIST_NBUCKETS];
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		double share = (double)h->buckets[k] * (double)failed / (double)all;
		uint64_t whole = (uint64_t)share;
		frac[k] = share - (double)whole;
		h->buckets[k] -= whole;
		removed += whole;
	}
	while (removed < failed) {
		unsigned best = HIST_NBUCKETS;
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			if (h->buckets[k] && (best == HIST_NBUCKETS || frac[k] > frac[best]))
				best = k;
		if (best == HIST_NBUCKETS)
			break;
		h->buckets[best]--;
		frac[best] = -1;
		removed++;
	}
	h->count = all - failed;
	h->total_ns = (uint64_t)((double)h->total_ns * (double)h->count / (double)all);
	if (h->count == 0)
		h->min_ns = h->max_ns = h->total_ns = 0;
}

/*
 * Bucket h of a run starting at t, seconds long, binned into op's heat (room
 * for it made by the caller: heat for a point, hbins for REP_HEAT_BINS more).
 */
static void heat_add(struct rep_line_op *op, const struct hist *h, double t, double seconds)
{
	unsigned first, last;
	hist_used_range(h, &first, &last);
	struct rep_heat *x = &op->heat[op->nheat++];
	*x = (struct rep_heat){ .t = t, .seconds = (float)seconds, .off = (uint32_t)op->nhbins };
	if (first >= last)
		return;
	unsigned b0 = first / REP_HEAT_MERGE, b1 = (last - 1) / REP_HEAT_MERGE + 1;
	uint32_t *bins = op->hbins + op->nhbins;
	memset(bins, 0, (b1 - b0) * sizeof(*bins));
	for (unsigned k = first; k < last; k++) {
		uint32_t *b = &bins[k / REP_HEAT_MERGE - b0];
		*b = h->buckets[k] > UINT32_MAX - *b ? UINT32_MAX : *b + (uint32_t)h->buckets[k];
	}
	x->first = (uint16_t)b0;
	x->n = (uint16_t)(b1 - b0);
	op->nhbins += x->n;
}

/* Room for n buckets' heat in op. */
static void heat_room(struct rep_line_op *op, size_t n)
{
	op->heat = rep_calloc(n + 1, sizeof(*op->heat));
	op->hbins = rep_calloc(n * REP_HEAT_BINS + 1, sizeof(*op->hbins));
}

/* Room for n points in op. */
static struct rep_point *points(struct rep_line_op *op, size_t n)
{
	op->pts = rep_calloc(n, sizeof(*op->pts));
	return op->pts;
}

/*
 * The settings that change an op's result besides its configuration, as
 * "k=v,k=v" sorted, each only where it differs from the default (so lines
 * that do not say, the 2012 tool's, read as the defaults): engine (sync),
 * iodepth (1), direct (the op kind's: reads and flushed writes O_DIRECT,
 * writeN buffered), sync (O_SYNC for flushed writes, none else: O_SYNC or
 * O_DSYNC from openFlags) and rate (--rate, ops/s).
 */
static void settings_of(const struct rep_line *l, const struct jv *op, const char *sig, struct rep_line_op *o)
{
	enum rep_kind kind = rep_kind_of(sig);
	bool def_direct = kind != REP_WRITE_N && kind != REP_WRITE;
	const char *def_sync = kind == REP_WRITE_FLUSH ? "O_SYNC" : "none";
	char *b = o->settings;
	size_t len = sizeof(o->settings);
	int n = 0;
	const struct jv *d = jv_object_get(op, "direct");
	if (d && (jv_is_true(d) != def_direct))
		n += snprintf(b + n, len - (size_t)n, "%sdirect=%s", n ? "," : "", jv_is_true(d) ? "true" : "false");
	if (l->engine[0] && strcmp(l->engine, "sync") != 0)
		n += snprintf(b + n, len - (size_t)n, "%sengine=%s", n ? "," : "", l->engine);
	if (l->iodepth > 1)
		n += snprintf(b + n, len - (size_t)n, "%siodepth=%.0f", n ? "," : "", l->iodepth);
	if (o->rate > 0)
		n += snprintf(b + n, len - (size_t)n, "%srate=%g", n ? "," : "", o->rate);
	const struct jv *flags = jv_object_get(op, "openFlags"), *f;
	if (jv_is_array(flags)) {
		const char *sync = "none";
		size_t i;
		jv_array_foreach(flags, i, f) {
			const char *s = jv_string_value(f);
			if (s && strcmp(s, "O_SYNC") == 0)
				sync = "O_SYNC";
			else if (s && strcmp(s, "O_DSYNC") == 0 && strcmp(sync, "O_SYNC") != 0)
				sync = "O_DSYNC";
		}
		if (strcmp(sync, def_sync) != 0)
			snprintf(b + n, len - (size_t)n, "%ssync=%s", n ? "," : "", sync);
	}
}

/*
 * A run in rounds: its steadyState, and its window's time buckets merged
 * into o's total over the window's seconds (the run's figure from now on).
 * A window that does not read (its buckets missing or bad) leaves the
 * whole run's total, said.
 */
static void read_steady(struct rep_line *l, const struct jv *op, struct rep_line_op *o, double bucket)
{
	const struct jv *st = jv_object_get(op, "steadyState"), *tb = jv_object_get(op, "timeBuckets");
	if (!st || l->watch || l->legacy)
		return;
	double first = num_or(st, "windowFirst", 0), last = num_or(st, "windowLast", 0);
	size_t nb = jv_is_array(tb) ? jv_size(tb) : 0;
	if (!(first >= 1 && last >= first && last <= (double)nb && last - first < 1e6 && bucket >= 1e-3)) {
		say(l, "operation %s: its steadyState names no window of its time buckets; its whole run is its figure",
		    o->sig);
		return;
	}
	struct hist w;
	hist_init(&w);
	char err[200];
	for (size_t i = (size_t)first - 1; i < (size_t)last; i++) {
		struct hist b;
		if (hist_of(jv_array_get(tb, i), &b, err, sizeof(err)) != 0 || hist_merge(&w, &b) != 0) {
			say(l, "operation %s: round %zu: %s; its whole run is its figure", o->sig, i + 1, err);
			return;
		}
	}
	const struct jv *fit = jv_object_get(st, "fit"), *r0 = jv_array_get(jv_object_get(op, "rounds"), 0);
	struct rep_steady *s = &o->steady;
	s->runs = 1;
	s->attained = jv_is_true(jv_object_get(st, "attained"));
	s->round = s->attained ? (unsigned)num_or(st, "round", 0) : 0;
	s->rounds = (unsigned)fmin(num_or(st, "rounds", (double)nb), 1e6);
	s->first = (unsigned)first;
	s->last = (unsigned)last;
	s->bucket = bucket;
	s->steady_ops = (double)w.count / ((last - first + 1) * bucket);
	const struct jv *b0 = jv_array_get(tb, 0);
	s->first_ops = r0 ? num_or(r0, "iops", NAN) : num_or(b0, "count", NAN) / bucket;
	s->slope = num_or(fit, "slope", NAN);
	s->intercept = num_or(fit, "intercept", NAN);
	s->range_pct = num_or(st, "rangePct", NAN);
	s->slope_pct = num_or(st, "slopePct", NAN);
	s->launch = l->launch;
	l->steady = true;
	o->total = w;
	o->seconds = (last - first + 1) * bucket;
}

/* Operation index (0-based) of a run line: into l->ops, or a message why not. */
static void read_operation(struct rep_line *l, const struct jv *op, size_t index, double nominal, double bucket)
{
	const struct jv *sigj = jv_object_get(op, "signature");
	const struct jv *thr = jv_object_get(op, "threadCount");
	if (!jv_is_string(sigj) || jv_size(sigj) == 0 || !jv_is_number(thr) ||
	    !(jv_number_value(thr) > 0 && jv_number_value(thr) < 1e9)) {
		say(l, "operation %zu has no \"signature\" or positive \"threadCount\"; skipped", index + 1);
		l->some_failed = true;
		return;
	}
	const char *sig = jv_string_value(sigj);
	if (l->nops == l->ops_cap) {
		l->ops_cap = l->ops_cap ? l->ops_cap * 2 : 2;
		l->ops = rep_realloc(l->ops, l->ops_cap * sizeof(*l->ops));
	}
	struct rep_line_op *o = &l->ops[l->nops];
	memset(o, 0, sizeof(*o));
	char err[200];
	if (hist_of(jv_object_get(op, "total"), &o->total, err, sizeof(err)) != 0) {
		say(l, "operation %zu (%s): %s; skipped", index + 1, sig, err);
		l->some_failed = true;
		return;
	}
	l->nops++;
	/* A syncing op (writeNN) keeps its writes and its fdatasyncs apart too; read as total is. */
	const struct jv *wo = jv_object_get(op, "writeOnly"), *sy = jv_object_get(op, "sync");
	o->split = !l->legacy && wo && sy && hist_of(wo, &o->write_only, err, sizeof(err)) == 0 &&
		   hist_of(sy, &o->sync, err, sizeof(err)) == 0;
	if (l->legacy)
		hist_from_2012(&o->total);
	o->sig = rep_strdup(sig);
	o->threads = jv_number_value(thr);
	o->block = block_of(op, sig);
	cpu_of(op, &o->total, &o->cpu_ns, &o->cpu_ops);
	double rate = num_or(jv_object_get(op, "rate"), "target", 0);
	o->rate = rate > 0 ? rate : 0;
	settings_of(l, op, sig, o);
	const struct jv *tb = jv_object_get(op, "timeBuckets");
	if (l->watch) {
		/* A probe period is one point of a latency series: its total is its only bucket. */
		const struct hist *t = &o->total;
		*points(o, 1) = (struct rep_point){ l->launch, (double)t->count / l->seconds,
						    t->count ? hist_percentile(t, 0.5) : NAN,
						    t->count ? hist_percentile(t, 0.99) : NAN };
		o->npts = 1;
		if (l->heat) {
			heat_room(o, 1);
			heat_add(o, t, l->launch, l->seconds);
		}
	} else if (bucket >= 1e-3 && jv_is_array(tb)) {
		/* Only whole nominal buckets: the extra one holds late finishers. */
		size_t nb = jv_size(tb), i;
		double fit = floor(nominal / bucket + 1e-9);
		size_t whole = fit < (double)nb ? (size_t)fit : nb;
		struct rep_point *p = whole ? points(o, whole) : NULL;
		const struct jv *b;
		if (l->heat && whole)
			heat_room(o, whole);
		jv_array_foreach(tb, i, b) {
			if (i >= whole)
				break;
			double count = num_or(b, "count", NAN);
			if (l->legacy && !isnan(count)) /* its count holds its failures */
				count = fmax(0, count - num_or(b, "errorCount", 0));
			if (!isnan(count))
				p[o->npts++] = (struct rep_point){ l->launch + (double)i * bucket, count / bucket, NAN, NAN };
			/* the heat map's: the bucket's histogram, read only for --plot */
			struct hist h;
			if (l->heat && !isnan(count) && hist_of(b, &h, err, sizeof(err)) == 0) {
				if (l->legacy)
					hist_from_2012(&h);
				heat_add(o, &h, l->launch + (double)i * bucket, bucket);
			}
		}
	}
	read_steady(l, op, o, bucket);
}

/* Every operation's signature, space-separated, for the notes section. */
static char *signatures(const struct jv *ops)
{
	size_t len = 1, i;
	const struct jv *op;
	jv_array_foreach(ops, i, op)
		len += jv_size(jv_object_get(op, "signature")) + 1;
	char *sigs = rep_realloc(NULL, len);
	sigs[0] = '\0';
	jv_array_foreach(ops, i, op) {
		const char *sig = jv_string_value(jv_object_get(op, "signature"));
		if (sig)
			strcat(strcat(sigs, sigs[0] ? " " : ""), sig);
	}
	return sigs;
}

/* Bounds on what one line's devices may hold (a hostile line is read in bounded memory). */
#define MAX_LINE_DEVICES 64
#define MAX_DEVICE_BUCKETS 100000

/* A device's figures over some seconds ("total" or a bucket); all NAN when obj is none. */
static struct rep_dev_stat dev_stat(const struct jv *obj)
{
	struct rep_dev_stat st = {
		.seconds = num_or(obj, "seconds", NAN),
		.reads = num_or(obj, "reads", NAN),
		.writes = num_or(obj, "writes", NAN),
		.r_await = num_or(obj, "readAwaitMs", NAN),
		.w_await = num_or(obj, "writeAwaitMs", NAN),
		.util = num_or(obj, "utilPct", NAN) / 100,
	};
	return st;
}

static void copy_str(char *dst, size_t len, const struct jv *obj, const char *key)
{
	const char *s = jv_string_value(jv_object_get(obj, key));
	snprintf(dst, len, "%s", s ? s : "");
}

/* The line's "devices": each block device under the target and what it did. */
/* What fold adds up of a device's buckets; finish() makes it one rep_dev_stat. */
struct fold {
	double seconds, reads, writes, r_ticks, w_ticks, busy;
	bool any[6]; /* which of the six had a number */
};

static void fold_add(struct fold *f, const struct rep_dev_stat *st)
{
	const double v[6] = { st->seconds, st->reads, st->writes, st->reads * st->r_await, st->writes * st->w_await,
			      st->util * st->seconds };
	double *sum[6] = { &f->seconds, &f->reads, &f->writes, &f->r_ticks, &f->w_ticks, &f->busy };
	for (int i = 0; i < 6; i++)
		if (isfinite(v[i])) {
			*sum[i] += v[i];
			f->any[i] = true;
		}
}

static struct rep_dev_stat fold_finish(const struct fold *f)
{
	return (struct rep_dev_stat){
		.seconds = f->any[0] ? f->seconds : NAN,
		.reads = f->any[1] ? f->reads : NAN,
		.writes = f->any[2] ? f->writes : NAN,
		.r_await = f->any[3] && f->reads > 0 ? f->r_ticks / f->reads : NAN,
		.w_await = f->any[4] && f->writes > 0 ? f->w_ticks / f->writes : NAN,
		.util = f->any[5] && f->seconds > 0 ? f->busy / f->seconds : NAN,
	};
}

static void read_devices(struct rep_line *l, const struct jv *root)
{
	const struct jv *devs = jv_object_get(root, "devices"), *d;
	size_t n = jv_size(devs), i, longest = 0;
	l->dev_fold = 1;
	if (!jv_is_array(devs) || n == 0)
		return;
	if (n > MAX_LINE_DEVICES)
		n = MAX_LINE_DEVICES;
	/* one fold for all the line's devices: their buckets stay aligned */
	jv_array_foreach(devs, i, d) {
		size_t nb = jv_size(jv_object_get(d, "buckets"));
		longest = nb > longest ? nb : longest;
	}
	if (longest > MAX_DEVICE_BUCKETS)
		longest = MAX_DEVICE_BUCKETS;
	l->dev_fold = longest > REP_DEVICE_POINTS ? (longest + REP_DEVICE_POINTS - 1) / REP_DEVICE_POINTS : 1;
	l->devs = rep_calloc(n, sizeof(*l->devs));
	jv_array_foreach(devs, i, d) {
		if (l->ndevs == n)
			break;
		if (!jv_is_object(d) || !jv_is_string(jv_object_get(d, "name")))
			continue;
		struct rep_dev *x = &l->devs[l->ndevs++];
		copy_str(x->name, sizeof(x->name), d, "name");
		copy_str(x->type, sizeof(x->type), d, "type");
		copy_str(x->role, sizeof(x->role), d, "role");
		copy_str(x->above, sizeof(x->above), d, "above");
		copy_str(x->serial, sizeof(x->serial), d, "serial");
		x->total = dev_stat(jv_object_get(d, "total"));
		const struct jv *b = jv_object_get(d, "buckets"), *e;
		size_t nb = jv_size(b), k;
		if (!jv_is_array(b) || nb == 0)
			continue;
		if (nb > MAX_DEVICE_BUCKETS)
			nb = MAX_DEVICE_BUCKETS;
		x->buckets = rep_calloc((nb + l->dev_fold - 1) / l->dev_fold, sizeof(*x->buckets));
		struct fold f = { 0 };
		jv_array_foreach(b, k, e) {
			if (k == nb)
				break;
			struct rep_dev_stat st = dev_stat(e);
			if (l->dev_fold == 1) {
				x->buckets[x->nbuckets++] = st;
				continue;
			}
			fold_add(&f, &st);
			if ((k + 1) % l->dev_fold == 0 || k + 1 == nb) {
				x->buckets[x->nbuckets++] = fold_finish(&f);
				f = (struct fold){ 0 };
			}
		}
	}
}

static void read_run(struct rep_line *l, const struct jv *root, const struct jv *ops, const char *fallback_host,
		     const char *layout_labels)
{
	rep_split_line(root, &l->split);
	l->legacy = jv_object_get(root, "tool") == NULL;
	if (l->legacy && layout_labels && !l->split.labels[0]) {
		free(l->split.labels);
		l->split.labels = rep_strdup(layout_labels);
	}
	double nominal = num_or(root, "runtime", 0);
	l->runtime = nominal > 0 ? nominal : 0;
	l->interrupted = jv_is_true(jv_object_get(root, "interrupted"));
	l->target_lost = jv_is_true(jv_object_get(root, "targetLost"));
	l->count_limited = num_or(root, "maxOps", 0) > 0;
	l->seconds = num_or(root, "elapsed", 0);
	if (!(l->seconds > 0))
		l->seconds = nominal;
	if (!(l->seconds > 0)) {
		say(l, "result line has no positive \"runtime\" or \"elapsed\"; skipped");
		l->skipped++;
		return;
	}
	/* a denormal or a century divides a count into inf or 0 ops/s: no run lasts that */
	if (!(l->seconds >= REP_MIN_SECONDS && l->seconds <= REP_MAX_SECONDS)) {
		say(l, "result line's duration (\"elapsed\" or \"runtime\") %g s is not one a run has "
		       "(%g s to %g s); skipped", l->seconds, REP_MIN_SECONDS, REP_MAX_SECONDS);
		l->skipped++;
		return;
	}
	l->kind = REP_LINE_RUN;
	l->host = rep_strdup(l->split.host ? l->split.host : fallback_host);
	if (nominal > l->seconds || !(nominal > 0))
		nominal = l->seconds; /* interrupted: buckets past the end are partial */
	double bucket = num_or(root, "bucketDuration", 0);
	l->bucket = bucket;
	const struct jv *engine = jv_object_get(root, "engine");
	if (jv_is_string(engine))
		snprintf(l->engine, sizeof(l->engine), "%s", jv_string_value(engine));
	l->iodepth = num_or(root, "iodepth", 0);
	read_devices(l, root);
	const struct jv *mode = jv_object_get(root, "mode");
	l->watch = jv_is_string(mode) && strcmp(jv_string_value(mode), "watch") == 0;
	l->launch = num_or(root, "launchTime", 0);
	const struct jv *target = jv_object_get(root, "target");
	const struct jv *rot = jv_object_get(target, "rotational");
	l->rotational = jv_is_boolean(rot) ? jv_is_true(rot) : -1;
	const struct jv *model = jv_object_get(target, "model");
	if (jv_is_string(model))
		snprintf(l->model, sizeof(l->model), "%s", jv_string_value(model));
	l->target_finding = target_finding(root);
	if (l->target_finding)
		l->target_path = str_or_null(target, "path");
	l->size = l->split.size_label;
	if (!l->size)
		l->size = to_u64(num_or(target, "span", 0));
	if (!l->size)
		l->size = to_u64(num_or(root, "fileSize", 0));
	size_t i;
	const struct jv *op;
	jv_array_foreach(ops, i, op)
		read_operation(l, op, i, nominal, bucket);
	if (l->nops && l->split.notes[0])
		l->sigs = signatures(ops);
	if (l->some_failed)
		l->skipped++;
}

static void line_from(struct rep_line *l, const struct jv *root, const char *fallback_host,
		   const char *layout_labels, bool explicit_file, bool heat)
{
	memset(l, 0, sizeof(*l));
	l->heat = heat;
	if (!jv_is_object(root)) {
		say(l, "not a JSON object; skipped");
		l->skipped++;
		return;
	}
	const struct jv *tool = jv_object_get(root, "tool");
	if ((jv_is_string(tool) && strcmp(jv_string_value(tool), "bonnie++") == 0) || jv_object_get(root, "bonnie")) {
		read_bonnie(l, root, fallback_host);
		return;
	}
	if (jv_is_string(tool) && strcmp(jv_string_value(tool), "iobench-fleet") == 0) {
		l->kind = REP_LINE_MANIFEST;
		l->manifest = jv_to_json(root);
		return;
	}
	const struct jv *mode = jv_object_get(root, "mode");
	if (jv_is_string(mode) && strcmp(jv_string_value(mode), "durability") == 0) {
		l->kind = REP_LINE_DURABILITY;
		l->manifest = jv_to_json(root);
		l->dur_host = fallback_host ? rep_strdup(fallback_host) : NULL;
		return;
	}
	const struct jv *ops = jv_object_get(root, "operations");
	if (!jv_is_array(ops)) {
		/* state.json and friends live beside results: only named files must be results. */
		if (explicit_file) {
			say(l, "not a result line (no \"operations\" array); skipped");
			l->skipped++;
		}
		return;
	}
	read_run(l, root, ops, fallback_host, layout_labels);
}

void rep_line_read(struct rep_line *l, struct jv_doc *doc, const char *text, size_t len,
		   const char *fallback_host, const char *layout_labels, bool explicit_file, bool heat)
{
	const struct jv *root = jv_parse(doc, text, len);
	if (root) {
		line_from(l, root, fallback_host, layout_labels, explicit_file, heat);
		return;
	}
	memset(l, 0, sizeof(*l));
	json_error_t jerr;
	jv_error(text, len, &jerr);
	say(l, "not valid JSON (%s at column %d); skipped", jerr.text, jerr.column);
	l->skipped++;
}

/*
 * What is wrong with where the line ran: on RAM, or not on the volume its
 * provision facts name (the root disk, or a device of another size). NULL
 * when nothing is, or the line does not say enough to tell.
 */
static char *target_finding(const struct jv *root)
{
	const struct jv *t = jv_object_get(root, "target"), *p = jv_object_get(root, "provision");
	const struct jv *dev = jv_object_get(t, "device"), *fs = jv_object_get(t, "filesystem");
	const struct jv *mnt = jv_object_get(t, "mountPoint"), *vtype = jv_object_get(p, "volumeType");
	const struct jv *level = jv_object_get(p, "raidLevel");
	char out[320], volume[96] = "", where[160];
	bool is_volume = jv_is_string(vtype) && !jv_is_true(jv_object_get(p, "instanceStore"));
	if (is_volume)
		snprintf(volume, sizeof(volume), ", not the %s volume", jv_string_value(vtype));
	if (jv_is_string(dev))
		snprintf(where, sizeof(where), "/dev/%s", jv_string_value(dev));
	else if (jv_is_string(mnt))
		snprintf(where, sizeof(where), "%s", jv_string_value(mnt));
	else
		snprintf(where, sizeof(where), "%s", "its target");
	if (jv_is_true(jv_object_get(t, "memory"))) {
		snprintf(out, sizeof(out), "measured memory (%s on %s), not a disk%s", where,
			 jv_is_string(fs) ? jv_string_value(fs) : "RAM", is_volume ? volume : "");
		return rep_strdup(out);
	}
	if (!is_volume || !jv_is_string(dev))
		return NULL;
	if (jv_is_true(jv_object_get(t, "rootDevice"))) {
		snprintf(out, sizeof(out), "measured %s (root)%s", where, volume);
		return rep_strdup(out);
	}
	/* One volume, as it is (a RAID's device is the sum of its members): its size, or a partition of it. */
	double gib = num_or(p, "volumeSize", 0), bytes = num_or(t, "deviceSize", 0);
	bool one = num_or(p, "volumeCount", 1) == 1 &&
		   (!jv_is_string(level) || strcmp(jv_string_value(level), "none") == 0);
	double want = gib * 1073741824.0;
	if (one && gib > 0 && bytes > 0 && (bytes > want * 1.001 || bytes < want * 0.98)) {
		snprintf(out, sizeof(out), "measured %s (%.1f GiB), not the %.0f GiB %s volume", where,
			 bytes / 1073741824.0, gib, jv_string_value(vtype));
		return rep_strdup(out);
	}
	return NULL;
}
