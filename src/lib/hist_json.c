/* hist_json.c - histogram <-> JSON in the 2012 study's layout. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/hist_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

json_t *hist_to_json(const struct hist *h)
{
	unsigned first, last;
	hist_used_range(h, &first, &last);
	json_t *buckets = json_array();
	if (!buckets)
		return NULL;
	for (unsigned k = first; k < last; k++)
		json_array_append_new(buckets, json_integer((json_int_t)h->buckets[k]));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:o, s:I, s:I}",
			 "count", (json_int_t)h->count,
			 "errorCount", (json_int_t)h->errors,
			 "minValue", (json_int_t)h->min_ns,
			 "maxValue", (json_int_t)h->max_ns,
			 "totalValue", (json_int_t)h->total_ns,
			 "bucketRatio", HIST_RATIO,
			 "firstBucketStart", hist_bucket_start(first),
			 "buckets", buckets,
			 "pinMinimum", (json_int_t)HIST_PIN_MIN,
			 "pinMaximum", (json_int_t)HIST_PIN_MAX);
}

const char *const hist_json_keys[HIST_JSON_NFIELDS] = {
	"count", "errorCount", "minValue", "maxValue", "totalValue", "bucketRatio", "firstBucketStart",
	"pinMinimum", "pinMaximum",
};

static int number_field(const struct hist_json_fields *f, int k, char *err, size_t errlen)
{
	if (!f->present[k]) {
		snprintf(err, errlen, "histogram has no numeric \"%s\"", hist_json_keys[k]);
		return -EINVAL;
	}
	double v = f->v[k];
	/* 9.2e18 ns is 292 years: anything larger is not a latency or a count. */
	if (!isfinite(v) || v < 0 || v > 9.2e18) {
		snprintf(err, errlen, "histogram \"%s\" is negative, too large or not finite", hist_json_keys[k]);
		return -EINVAL;
	}
	return 0;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

int hist_from_fields(const struct hist_json_fields *f, struct hist *out, char *err, size_t errlen)
{
	for (int k = 0; k < HIST_JSON_NFIELDS; k++)
		if (number_field(f, k, err, errlen))
			return -EINVAL;
	double count = f->v[HIST_JSON_COUNT], minv = f->v[HIST_JSON_MIN], maxv = f->v[HIST_JSON_MAX];
	double ratio = f->v[HIST_JSON_RATIO], first = f->v[HIST_JSON_FIRST];
	double pmin = f->v[HIST_JSON_PIN_MIN], pmax = f->v[HIST_JSON_PIN_MAX];
	if (count > 0 && minv > maxv) {
		snprintf(err, errlen, "histogram minValue %.0f is above maxValue %.0f", minv, maxv);
		return -EINVAL;
	}
	if (!near(ratio, HIST_RATIO) || !near(pmin, HIST_PIN_MIN) || !near(pmax, HIST_PIN_MAX)) {
		snprintf(err, errlen,
			 "histogram has ratio %g and pin range [%g, %g]; only 1.1 and [1000, 1e10] merge exactly",
			 ratio, pmin, pmax);
		return -EINVAL;
	}
	if (!f->has_buckets) {
		snprintf(err, errlen, "histogram has no \"buckets\" array");
		return -EINVAL;
	}
	double kf = log(first / HIST_PIN_MIN) / log(HIST_RATIO);
	long k0 = lround(kf);
	size_t nb = f->nbuckets;
	if (fabs(kf - (double)k0) > 1e-6 || k0 < 0 || (size_t)k0 + nb > HIST_NBUCKETS) {
		snprintf(err, errlen, "histogram firstBucketStart %g is not a bucket boundary in range", first);
		return -EINVAL;
	}
	hist_init(out);
	uint64_t sum = 0;
	for (size_t i = 0; i < nb; i++) {
		double c = f->buckets[i];
		if (i >= f->first_bad_bucket || !(c >= 0 && c <= 9.2e18)) {
			snprintf(err, errlen, "histogram bucket %zu is not a count", i);
			return -EINVAL;
		}
		out->buckets[k0 + (long)i] = (uint64_t)llround(c);
		/* nine buckets of 9e18 must not wrap into a count that matches */
		if (!hist_add_checked(&sum, out->buckets[k0 + (long)i])) {
			snprintf(err, errlen, "histogram buckets sum past %llu, the most a count holds",
				 (unsigned long long)HIST_COUNT_MAX);
			return -EINVAL;
		}
	}
	if (sum != (uint64_t)llround(count)) {
		snprintf(err, errlen, "histogram buckets sum to %llu but count is %.0f",
			 (unsigned long long)sum, count);
		return -EINVAL;
	}
	out->count = sum;
	out->errors = (uint64_t)llround(f->v[HIST_JSON_ERRORS]);
	out->min_ns = (uint64_t)llround(minv);
	out->max_ns = (uint64_t)llround(maxv);
	out->total_ns = (uint64_t)llround(f->v[HIST_JSON_TOTAL]);
	return 0;
}

int hist_from_json(const json_t *obj, struct hist *out, char *err, size_t errlen)
{
	if (!json_is_object(obj)) {
		snprintf(err, errlen, "histogram is not a JSON object");
		return -EINVAL;
	}
	struct hist_json_fields f;
	for (int k = 0; k < HIST_JSON_NFIELDS; k++) {
		const json_t *v = json_object_get(obj, hist_json_keys[k]);
		f.present[k] = json_is_number(v);
		f.v[k] = json_number_value(v);
	}
	const json_t *buckets = json_object_get(obj, "buckets");
	f.has_buckets = json_is_array(buckets);
	f.nbuckets = json_array_size(buckets);
	f.first_bad_bucket = f.nbuckets;
	for (size_t i = 0; i < f.nbuckets && i < HIST_NBUCKETS; i++) {
		const json_t *c = json_array_get(buckets, i);
		if (!json_is_number(c) && f.first_bad_bucket == f.nbuckets)
			f.first_bad_bucket = i;
		f.buckets[i] = json_number_value(c);
	}
	return hist_from_fields(&f, out, err, errlen);
}
