/* hist.c - geometric histogram: bucket table, merge, percentiles. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/hist.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/*
 * bounds[k] is the smallest integer ns that lands in bucket k, so a value v
 * is in bucket k when bounds[k] <= v < bounds[k + 1]. octave_first[b] is the
 * bucket of 2^b, where a search for a value with highest bit b starts.
 */
static uint64_t bounds[HIST_NBUCKETS + 1];
static unsigned octave_first[64];

double hist_bucket_start(unsigned k)
{
	/* The same expression the 2012 tool used, so firstBucketStart matches. */
	return HIST_PIN_MIN * exp(log(HIST_RATIO) * (double)k);
}

static unsigned bucket_by_log(double v)
{
	double x = floor(log(v / HIST_PIN_MIN) / log(HIST_RATIO));
	if (x < 0)
		return 0;
	if (x >= HIST_NBUCKETS)
		return HIST_NBUCKETS - 1;
	return (unsigned)x;
}

/* Built before main() so the hot path never checks whether it was. */
__attribute__((constructor)) static void tables_build(void)
{
	/* Derive integer bounds from the log formula so both agree on every integer. */
	bounds[0] = (uint64_t)HIST_PIN_MIN;
	for (unsigned k = 1; k <= HIST_NBUCKETS; k++) {
		uint64_t v = (uint64_t)ceil(hist_bucket_start(k));
		if (k == HIST_NBUCKETS) {
			bounds[k] = v; /* past the pin maximum: never reached */
			break;
		}
		while (v > bounds[k - 1] + 1 && bucket_by_log((double)(v - 1)) >= k)
			v--;
		while (bucket_by_log((double)v) < k)
			v++;
		bounds[k] = v;
	}
	for (unsigned b = 0; b < 64; b++) {
		uint64_t v = 1ULL << b;
		unsigned k = 0;
		while (k + 1 < HIST_NBUCKETS && bounds[k + 1] <= v)
			k++;
		octave_first[b] = k;
	}
}

unsigned hist_bucket_of(uint64_t ns)
{
	if (ns <= (uint64_t)HIST_PIN_MIN)
		return 0;
	if (ns >= (uint64_t)HIST_PIN_MAX)
		return HIST_NBUCKETS - 1; /* the pin maximum's bucket, the last by construction */
	unsigned k = octave_first[63 - __builtin_clzll(ns)];
	while (k + 1 < HIST_NBUCKETS && ns >= bounds[k + 1])
		k++;
	return k;
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	/* all or nothing: check every sum before changing any */
	uint64_t t;
	bool fits = (t = dst->count, hist_add_checked(&t, src->count)) && (t = dst->errors, hist_add_checked(&t, src->errors)) &&
		    (t = dst->total_ns, hist_add_checked(&t, src->total_ns));
	for (unsigned k = 0; fits && k < HIST_NBUCKETS; k++)
		fits = (t = dst->buckets[k], hist_add_checked(&t, src->buckets[k]));
	if (!fits)
		return -EOVERFLOW;
	if (src->count > 0) {
		if (dst->count == 0 || src->min_ns < dst->min_ns)
			dst->min_ns = src->min_ns;
		if (src->max_ns > dst->max_ns)
			dst->max_ns = src->max_ns;
	}
	dst->count += src->count;
	dst->errors += src->errors;
	dst->total_ns += src->total_ns;
	for (unsigned k = 0; k < HIST_NBUCKETS; k++)
		dst->buckets[k] += src->buckets[k];
	return 0;
}

double hist_percentile(const struct hist *h, double p)
{
	if (h->count == 0)
		return 0;
	double needed = (double)h->count * p;
	unsigned k = 0;
	double so_far = (double)h->buckets[0];
	/* Same walk as the 2012 tool: skip empty buckets, tolerate rounding. */
	while ((so_far == 0 || so_far + 1e-6 < needed) && k + 1 < HIST_NBUCKETS) {
		k++;
		so_far += (double)h->buckets[k];
	}
	double in_bucket = (double)h->buckets[k];
	double below = in_bucket - (so_far - needed);
	double frac = in_bucket > 0 ? below / in_bucket : 0;
	double v = HIST_PIN_MIN * pow(HIST_RATIO, (double)k + frac);
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	return v;
}

void hist_used_range(const struct hist *h, unsigned *first, unsigned *last)
{
	unsigned f = 0, l = HIST_NBUCKETS;
	while (f < HIST_NBUCKETS && h->buckets[f] == 0)
		f++;
	while (l > f && h->buckets[l - 1] == 0)
		l--;
	*first = f;
	*last = l;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->total_ns / (double)h->count : 0;
}

bool hist_equal(const struct hist *a, const struct hist *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}
