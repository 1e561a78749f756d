/* test_run.c - run_execute()'s checks of its configuration, before any thread starts. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "check.h"
#include "measure/run.h"

#include <errno.h>
#include <string.h>

/* A zero bucket is refused with -E2BIG and a message, not a division by zero (SIGFPE). */
TEST(a_zero_bucket_is_refused_before_it_divides)
{
	struct run_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.duration_ns = 1000000000ULL;
	cfg.bucket_ns = 0;
	struct run_result res;
	char err[256] = "";
	CHECK(run_execute(&cfg, &res, err, sizeof(err)) == -E2BIG);
	CHECK(strstr(err, "--bucket") != NULL);
	CHECK(res.ops == NULL);
}

/* The count the command layer and run_execute() both check: whole buckets, the last one partial. */
TEST(the_bucket_count_is_rounded_up_and_bounded)
{
	char err[256] = "";
	CHECK(run_check_buckets(60000000000ULL, 1000000000ULL, err, sizeof(err)) == 60);
	CHECK(run_check_buckets(2500000000ULL, 1000000000ULL, err, sizeof(err)) == 3);
	CHECK(run_check_buckets(1000000ULL, 1000000ULL, err, sizeof(err)) == 1);
	CHECK(run_check_buckets((uint64_t)RUN_MAX_BUCKETS * 1000000ULL, 1000000ULL, err, sizeof(err)) == RUN_MAX_BUCKETS);
	CHECK(strcmp(err, "") == 0);
	CHECK(run_check_buckets((uint64_t)RUN_MAX_BUCKETS * 1000000ULL + 1, 1000000ULL, err, sizeof(err)) == -E2BIG);
	CHECK(strcmp(err, "--duration / --bucket make 1000001 time buckets, over 1000000; use a longer --bucket") == 0);
	CHECK(run_check_buckets(1000000000ULL, 0, err, sizeof(err)) == -E2BIG);
}

int main(void)
{
	RUN(a_zero_bucket_is_refused_before_it_divides);
	RUN(the_bucket_count_is_rounded_up_and_bounded);
	return check_summary("test_run");
}
