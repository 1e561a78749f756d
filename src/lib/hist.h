/*
 * SPDX-License-Identifier: Apache-2.0
 * hist.h - the 2012 study's geometric latency histogram.
 *
 * Values are nanoseconds. Each value is pinned to [HIST_PIN_MIN, HIST_PIN_MAX]
 * = [1000, 1e10] and counted in bucket k = floor(log(v / 1000) / log(1.1)),
 * i.e. bucket k holds [1000 * 1.1^k, 1000 * 1.1^(k+1)). count, min, max and
 * total are of the unpinned values. Failed operations are counted in
 * errors only: they are not in count, the buckets, min, max or total.
 *
 * Histograms with the same pin range and ratio merge exactly by adding
 * counts: every histogram in iobench has them, so hist_merge() always works
 * for two struct hist. Histograms read from JSON with another pin range or
 * ratio are refused by hist_from_json().
 *
 * A struct hist is plain data (about 1.4 KiB). Nothing here locks: one
 * thread records into a histogram, and merging happens after the writers
 * have stopped.
 */
#ifndef IOBENCH_LIB_HIST_H
#define IOBENCH_LIB_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_PIN_MIN 1000.0
#define HIST_PIN_MAX 1e10
#define HIST_RATIO 1.1
/* ceil(log(1e10 / 1e3) / log(1.1)) */
#define HIST_NBUCKETS 170

struct hist {
	uint64_t count;   /* successful operations recorded */
	uint64_t errors;  /* failed operations (not in count) */
	uint64_t min_ns;  /* smallest recorded value; 0 when count == 0 */
	uint64_t max_ns;  /* largest recorded value */
	uint64_t total_ns; /* sum of recorded values, unpinned */
	uint64_t buckets[HIST_NBUCKETS];
};

/* Empty histogram. */
void hist_init(struct hist *h);

/*
 * Bucket index of a value in ns (pinned first). Uses a precomputed boundary
 * table (built before main runs): no log(), a handful of compares. Thread-safe.
 */
unsigned hist_bucket_of(uint64_t ns);

/* Lower bound in ns of bucket k (0 <= k <= HIST_NBUCKETS): 1000 * 1.1^k. */
double hist_bucket_start(unsigned k);

/* Record one successful operation of ns nanoseconds whose bucket k is known. */
static inline void hist_record_in(struct hist *h, uint64_t ns, unsigned k)
{
	if (h->count == 0 || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->total_ns += ns;
	h->buckets[k]++;
}

/* Record one successful operation that took ns nanoseconds. */
static inline void hist_record(struct hist *h, uint64_t ns)
{
	hist_record_in(h, ns, hist_bucket_of(ns));
}

/* Record one failed operation. */
static inline void hist_record_error(struct hist *h)
{
	h->errors++;
}

/*
 * The largest count, error count, total or bucket a histogram holds: what
 * JSON's integers (and the 2012 tool's longs) hold. Sums past it are
 * refused, never wrapped.
 */
#define HIST_COUNT_MAX ((uint64_t)INT64_MAX)

/* *sum += v when the result stays within HIST_COUNT_MAX: true; else false, *sum unchanged. */
static inline bool hist_add_checked(uint64_t *sum, uint64_t v)
{
	if (*sum > HIST_COUNT_MAX || v > HIST_COUNT_MAX - *sum)
		return false;
	*sum += v;
	return true;
}

/*
 * Add src into dst exactly: 0, or -EOVERFLOW when a count, the errors, the
 * total or a bucket would pass HIST_COUNT_MAX (dst is then unchanged).
 */
int hist_merge(struct hist *dst, const struct hist *src);

/*
 * The value below which a fraction p (0 < p < 1) of the values fall, as the
 * 2012 tool computed it: find the bucket holding the p-th value, interpolate
 * geometrically inside it, clamp to [min, max]. 0 for an empty histogram.
 */
double hist_percentile(const struct hist *h, double p);

/* Mean in ns, 0 when empty. */
double hist_mean(const struct hist *h);

/*
 * The buckets that hold values, [*first, *last): from the first non-empty
 * one to just past the last; first == last (both HIST_NBUCKETS) when all
 * are empty. What a histogram's JSON and the report's charts keep.
 */
void hist_used_range(const struct hist *h, unsigned *first, unsigned *last);

/* True when both hold exactly the same counts and statistics. */
bool hist_equal(const struct hist *a, const struct hist *b);

#endif
