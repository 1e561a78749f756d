/* test_hist.c - bucket boundaries, pinning, percentiles, merge, JSON round trip. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/hist.h"
#include "lib/hist_json.h"

static unsigned bucket_by_log(double v)
{
	if (v < HIST_PIN_MIN)
		v = HIST_PIN_MIN;
	if (v > HIST_PIN_MAX)
		v = HIST_PIN_MAX;
	return (unsigned)floor(log(v / HIST_PIN_MIN) / log(HIST_RATIO));
}

TEST(bucket_count_matches_the_2012_tool)
{
	/* ceil(log(1e10/1e3)/log(1.1) + 1e-9) */
	CHECK_EQ_U(HIST_NBUCKETS, (unsigned)ceil(log(1e7) / log(1.1) + 1e-9));
}

TEST(first_bucket_start_of_the_published_example)
{
	/* The README's example histogram: firstBucketStart 6727.4999493256 is bucket 20. */
	CHECK_NEAR(hist_bucket_start(20), 6727.4999493256, 1e-6);
	CHECK_EQ_U(hist_bucket_of(6966), 20);
}

TEST(every_integer_boundary_agrees_with_the_log_formula)
{
	struct hist h;
	hist_init(&h);
	for (unsigned k = 1; k < HIST_NBUCKETS; k++) {
		uint64_t b = (uint64_t)ceil(hist_bucket_start(k));
		for (uint64_t v = b - 2; v <= b + 2; v++)
			CHECK_EQ_U(hist_bucket_of(v), bucket_by_log((double)v));
	}
	/* and a sweep over many magnitudes */
	for (double v = 1; v < 2e10; v *= 1.0137)
		CHECK_EQ_U(hist_bucket_of((uint64_t)v), bucket_by_log((double)(uint64_t)v));
}

TEST(values_are_pinned_but_min_max_total_are_not)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 5);            /* below 1 us */
	hist_record(&h, 50000000000ULL); /* 50 s, above 10 s */
	CHECK_EQ_U(h.buckets[0], 1);
	CHECK_EQ_U(h.buckets[HIST_NBUCKETS - 1], 1);
	CHECK_EQ_U(h.min_ns, 5);
	CHECK_EQ_U(h.max_ns, 50000000000ULL);
	CHECK_EQ_U(h.total_ns, 50000000005ULL);
	CHECK_EQ_U(h.count, 2);
}

TEST(errors_are_counted_apart_from_latencies)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 2000);
	hist_record_error(&h);
	CHECK_EQ_U(h.count, 1);
	CHECK_EQ_U(h.errors, 1);
	CHECK_EQ_U(h.total_ns, 2000);
}

TEST(percentile_interpolates_inside_a_bucket_and_clamps)
{
	struct hist h;
	hist_init(&h);
	CHECK_NEAR(hist_percentile(&h, 0.5), 0, 0);
	/* 100 values all in bucket 30: percentiles walk geometrically across it, clamped. */
	for (int i = 0; i < 100; i++)
		hist_record(&h, (uint64_t)hist_bucket_start(30) + 1 + (uint64_t)i);
	unsigned k = hist_bucket_of(h.min_ns);
	CHECK_EQ_U(k, 30);
	double p50 = hist_percentile(&h, 0.5);
	/* unclamped would be start * 1.1^0.5, above max: so clamped to max */
	CHECK_NEAR(p50, (double)h.max_ns, 0);

	/* Two buckets far apart: median interpolation lands in the lower one. */
	hist_init(&h);
	for (int i = 0; i < 50; i++)
		hist_record(&h, 10000);
	for (int i = 0; i < 50; i++)
		hist_record(&h, 10000000);
	double expect_p25 = HIST_PIN_MIN * pow(1.1, hist_bucket_of(10000) + 0.5);
	CHECK_NEAR(hist_percentile(&h, 0.25), expect_p25 < 10000 ? 10000 : expect_p25, 1e-6);
	CHECK(hist_percentile(&h, 0.25) >= 10000);
	CHECK(hist_percentile(&h, 0.99) <= 10000000);
	CHECK(hist_percentile(&h, 0.75) > 5000000);
	/* p10 is within the low bucket, p90 within the high one */
	CHECK(hist_percentile(&h, 0.10) < 11000);
	CHECK(hist_percentile(&h, 0.90) > 9000000);
}

TEST(percentile_of_a_single_value_is_that_value)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 123456);
	CHECK_NEAR(hist_percentile(&h, 0.5), 123456, 0);
	CHECK_NEAR(hist_percentile(&h, 0.9999), 123456, 0);
}

TEST(merge_is_exact)
{
	struct hist a, b, all;
	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < 10000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t v = 500 + x % 100000000;
		hist_record(i % 3 ? &a : &b, v);
		hist_record(&all, v);
	}
	hist_record_error(&b);
	hist_record_error(&all);
	struct hist m = a;
	hist_merge(&m, &b);
	CHECK(hist_equal(&m, &all));
	/* merging an empty histogram changes nothing, in either direction */
	struct hist empty, m2;
	hist_init(&empty);
	m2 = m;
	hist_merge(&m2, &empty);
	CHECK(hist_equal(&m2, &m));
	hist_merge(&empty, &m);
	CHECK(hist_equal(&empty, &m));
}

TEST(json_round_trip_keeps_every_count)
{
	struct hist h, back;
	hist_init(&h);
	for (uint64_t v = 900; v < 20000000000ULL; v = v * 3 / 2 + 7)
		hist_record(&h, v);
	hist_record_error(&h);
	json_t *j = hist_to_json(&h);
	CHECK(j != NULL);
	char *text = json_dumps(j, HIST_JSON_DUMP_FLAGS);
	json_error_t jerr;
	json_t *parsed = json_loads(text, 0, &jerr);
	char err[256] = "";
	CHECK(hist_from_json(parsed, &back, err, sizeof(err)) == 0);
	CHECK(hist_equal(&h, &back));
	CHECK(strstr(text, "\"bucketRatio\":1.1,") != NULL);
	CHECK(strstr(text, "\"pinMaximum\":10000000000") != NULL);
	free(text);
	json_decref(j);
	json_decref(parsed);
}

TEST(json_buckets_span_first_to_last_nonempty)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 6966);
	hist_record(&h, 581407940);
	json_t *j = hist_to_json(&h);
	json_t *b = json_object_get(j, "buckets");
	unsigned first = hist_bucket_of(6966), last = hist_bucket_of(581407940);
	CHECK_EQ_U(json_array_size(b), last - first + 1);
	CHECK_NEAR(json_real_value(json_object_get(j, "firstBucketStart")), hist_bucket_start(first), 1e-9);
	CHECK_EQ_U(json_integer_value(json_array_get(b, 0)), 1);
	CHECK_EQ_U(json_integer_value(json_array_get(b, 1)), 0);
	json_decref(j);
}

TEST(json_from_the_2012_tool_with_reals_is_read)
{
	const char *text =
		"{\"pinMinimum\":1000.0,\"pinMaximum\":1.0E10,\"bucketRatio\":1.1,"
		"\"firstBucketStart\":6727.4999493256,\"totalValue\":1.4E4,\"count\":2.0,"
		"\"errorCount\":0.0,\"minValue\":6966.0,\"maxValue\":7034.0,\"buckets\":[2]}";
	json_t *j = json_loads(text, 0, NULL);
	struct hist h;
	char err[256] = "";
	CHECK(hist_from_json(j, &h, err, sizeof(err)) == 0);
	CHECK_EQ_U(h.count, 2);
	CHECK_EQ_U(h.buckets[20], 2);
	CHECK_EQ_U(h.total_ns, 14000);
	json_decref(j);
}

TEST(json_with_another_ratio_or_bad_counts_is_refused)
{
	struct hist h;
	char err[256] = "";
	json_t *j = json_loads("{\"pinMinimum\":1000,\"pinMaximum\":1e10,\"bucketRatio\":1.2,"
			       "\"firstBucketStart\":1000,\"totalValue\":1,\"count\":1,\"errorCount\":0,"
			       "\"minValue\":1,\"maxValue\":1,\"buckets\":[1]}", 0, NULL);
	CHECK(hist_from_json(j, &h, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "ratio") != NULL);
	json_decref(j);
	j = json_loads("{\"pinMinimum\":1000,\"pinMaximum\":1e10,\"bucketRatio\":1.1,"
		       "\"firstBucketStart\":1000,\"totalValue\":1,\"count\":5,\"errorCount\":0,"
		       "\"minValue\":1,\"maxValue\":1,\"buckets\":[1,1]}", 0, NULL);
	CHECK(hist_from_json(j, &h, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "sum") != NULL);
	json_decref(j);
}

TEST(sums_past_the_count_limit_are_refused_never_wrapped)
{
	uint64_t sum = 4000000000000000000ULL;
	CHECK(hist_add_checked(&sum, 4000000000000000000ULL));
	CHECK_EQ_U(sum, 8000000000000000000ULL);
	CHECK(!hist_add_checked(&sum, 4000000000000000000ULL));
	CHECK_EQ_U(sum, 8000000000000000000ULL);
	CHECK(!hist_add_checked(&sum, UINT64_MAX));
	sum = HIST_COUNT_MAX - 1;
	CHECK(hist_add_checked(&sum, 1));
	CHECK(!hist_add_checked(&sum, 1));
	/* five runs of 4e18: the first two merge, the third is refused and changes nothing */
	struct hist run, m;
	hist_init(&run);
	hist_init(&m);
	run.count = run.buckets[30] = 4000000000000000000ULL;
	run.min_ns = run.max_ns = 20000;
	run.total_ns = 1000;
	CHECK(hist_merge(&m, &run) == 0);
	CHECK(hist_merge(&m, &run) == 0);
	struct hist before = m;
	CHECK(hist_merge(&m, &run) == -EOVERFLOW);
	CHECK(hist_equal(&m, &before));
	/* a bucket alone, the errors alone, the total alone */
	struct hist one;
	hist_init(&one);
	one.buckets[30] = 2000000000000000000ULL;
	CHECK(hist_merge(&m, &one) == -EOVERFLOW);
	hist_init(&one);
	one.errors = HIST_COUNT_MAX;
	CHECK(hist_merge(&m, &one) == 0);
	CHECK(hist_merge(&m, &one) == -EOVERFLOW);
	hist_init(&one);
	one.total_ns = HIST_COUNT_MAX;
	CHECK(hist_merge(&m, &one) == -EOVERFLOW);
	CHECK_EQ_U(m.count, 8000000000000000000ULL);
}

TEST(json_buckets_that_wrap_to_their_count_are_refused)
{
	/* 9e18 + 9e18 + 446744073709551680 is 2^64 + 64: a wrapping sum would match count 64 */
	struct hist h;
	char err[256] = "";
	json_t *j = json_loads("{\"pinMinimum\":1000,\"pinMaximum\":1e10,\"bucketRatio\":1.1,"
			       "\"firstBucketStart\":1000,\"totalValue\":64000,\"count\":64,\"errorCount\":0,"
			       "\"minValue\":1000,\"maxValue\":1000,"
			       "\"buckets\":[9000000000000000000,9000000000000000000,446744073709551680]}", 0, NULL);
	CHECK(j != NULL);
	CHECK(hist_from_json(j, &h, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "sum past") != NULL);
	json_decref(j);
}

TEST(json_with_absurd_values_is_refused)
{
	/* found by fuzz_histjson: minValue 69E66 overflowed into nonsense */
	const char *bad[] = {
		"{\"count\":2,\"errorCount\":0,\"minValue\":69E66,\"maxValue\":7234,\"totalValue\":4000,"
		"\"bucketRatio\":1.1,\"firstBucketStart\":6727.499945,\"buckets\":[2],\"pinMinimum\":1000,"
		"\"pinMaximum\":10000000000}",
		"{\"count\":2,\"errorCount\":0,\"minValue\":9000,\"maxValue\":7234,\"totalValue\":4000,"
		"\"bucketRatio\":1.1,\"firstBucketStart\":6727.499945,\"buckets\":[2],\"pinMinimum\":1000,"
		"\"pinMaximum\":10000000000}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i], 0, NULL);
		struct hist h;
		char err[256] = "";
		CHECK(j != NULL);
		CHECK(hist_from_json(j, &h, err, sizeof(err)) == -EINVAL);
		json_decref(j);
	}
}

TEST(the_used_range_runs_from_the_first_to_past_the_last_filled_bucket)
{
	struct hist h;
	hist_init(&h);
	unsigned first, last;
	hist_used_range(&h, &first, &last);
	CHECK(first == HIST_NBUCKETS && last == HIST_NBUCKETS);
	hist_record(&h, 5000);
	hist_record(&h, 2000000);
	hist_used_range(&h, &first, &last);
	CHECK_EQ_U(first, hist_bucket_of(5000));
	CHECK_EQ_U(last, hist_bucket_of(2000000) + 1);
}

int main(void)
{
	RUN(bucket_count_matches_the_2012_tool);
	RUN(first_bucket_start_of_the_published_example);
	RUN(every_integer_boundary_agrees_with_the_log_formula);
	RUN(values_are_pinned_but_min_max_total_are_not);
	RUN(errors_are_counted_apart_from_latencies);
	RUN(percentile_interpolates_inside_a_bucket_and_clamps);
	RUN(percentile_of_a_single_value_is_that_value);
	RUN(merge_is_exact);
	RUN(json_round_trip_keeps_every_count);
	RUN(json_buckets_span_first_to_last_nonempty);
	RUN(json_from_the_2012_tool_with_reals_is_read);
	RUN(json_with_another_ratio_or_bad_counts_is_refused);
	RUN(json_with_absurd_values_is_refused);
	RUN(sums_past_the_count_limit_are_refused_never_wrapped);
	RUN(json_buckets_that_wrap_to_their_count_are_refused);
	RUN(the_used_range_runs_from_the_first_to_past_the_last_filled_bucket);
	return check_summary("test_hist");
}
