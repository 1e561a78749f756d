/*
 * SPDX-License-Identifier: Apache-2.0
 * hist_json.h - histograms to and from the 2012 study's JSON form.
 *
 *   { "count": 19516, "errorCount": 0, "minValue": 6966, "maxValue": 581407940,
 *     "totalValue": 959992052130, "bucketRatio": 1.1,
 *     "firstBucketStart": 6727.4999493256,
 *     "buckets": [ counts from the first non-empty bucket to the last ],
 *     "pinMinimum": 1000, "pinMaximum": 10000000000 }
 *
 * Uses jansson. Not thread-safe only in the way jansson objects are not:
 * do not share one json_t between threads.
 */
#ifndef IOBENCH_LIB_HIST_JSON_H
#define IOBENCH_LIB_HIST_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "lib/hist.h"

/* New JSON object for h (caller owns the reference), or NULL on ENOMEM. */
json_t *hist_to_json(const struct hist *h);

/*
 * Read a histogram object (iobench's or the 2012 tool's; numbers may be
 * reals). Returns 0, or -EINVAL with a one-line reason in err: missing or
 * mistyped fields, a pin range or ratio other than iobench's (such
 * histograms cannot merge exactly), bucket counts that do not sum to count.
 */
int hist_from_json(const json_t *obj, struct hist *out, char *err, size_t errlen);

/* The members of a histogram object, in the order hist_from_fields() checks them. */
enum { HIST_JSON_COUNT, HIST_JSON_ERRORS, HIST_JSON_MIN, HIST_JSON_MAX, HIST_JSON_TOTAL, HIST_JSON_RATIO,
       HIST_JSON_FIRST, HIST_JSON_PIN_MIN, HIST_JSON_PIN_MAX, HIST_JSON_NFIELDS };
extern const char *const hist_json_keys[HIST_JSON_NFIELDS]; /* "count", "errorCount", ... */

/*
 * A histogram object as some JSON parser read it, before it is checked:
 * for parsers other than jansson (the report has its own).
 */
struct hist_json_fields {
	double v[HIST_JSON_NFIELDS];      /* the numbers, where present */
	bool present[HIST_JSON_NFIELDS];  /* the member is there and a number */
	bool has_buckets;                 /* "buckets" is an array */
	size_t nbuckets;                  /* its length */
	size_t first_bad_bucket;          /* index of its first element that is not a number; nbuckets if none */
	double buckets[HIST_NBUCKETS];    /* its first elements (a longer array is refused anyway) */
};

/* hist_from_json() from fields: the same checks, in the same order, with the same messages. */
int hist_from_fields(const struct hist_json_fields *f, struct hist *out, char *err, size_t errlen);

/* jansson dump flags for result lines: compact, 15 significant digits for reals. */
#define HIST_JSON_DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

#endif
