/* test_run.c - run_execute()'s checks of its configuration, before any thread starts. */
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

int main(void)
{
	RUN(a_zero_bucket_is_refused_before_it_divides);
	return check_summary("test_run");
}
