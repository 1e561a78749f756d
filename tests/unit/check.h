/*
 * SPDX-License-Identifier: Apache-2.0
 * check.h - the smallest test harness that says what failed.
 *
 * CHECK(cond) records a failure with file:line and goes on; TEST(name)
 * declares a test function; RUN(name) runs it; check_summary() prints
 * "N passed, N failed" and returns the exit code.
 */
#ifndef IOBENCH_CHECK_H
#define IOBENCH_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures_in_test;
static int check_passed, check_failed;

#define TEST(name) static void name(void)

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                               \
			check_failures_in_test++;                               \
		}                                                               \
	} while (0)

#define CHECK_EQ_U(a, b)                                                              \
	do {                                                                          \
		unsigned long long check_a = (unsigned long long)(a);                 \
		unsigned long long check_b = (unsigned long long)(b);                 \
		if (check_a != check_b) {                                             \
			fprintf(stderr, "  %s:%d: %s == %s failed: %llu != %llu\n",   \
				__FILE__, __LINE__, #a, #b, check_a, check_b);        \
			check_failures_in_test++;                                     \
		}                                                                     \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                         \
	do {                                                                          \
		double check_a = (a), check_b = (b);                                  \
		if (!(fabs(check_a - check_b) <= (tol))) {                            \
			fprintf(stderr, "  %s:%d: %s ~= %s failed: %.9g vs %.9g\n",   \
				__FILE__, __LINE__, #a, #b, check_a, check_b);        \
			check_failures_in_test++;                                     \
		}                                                                     \
	} while (0)

#define RUN(name)                                                  \
	do {                                                       \
		check_failures_in_test = 0;                        \
		name();                                            \
		if (check_failures_in_test) {                      \
			check_failed++;                            \
			printf("not ok - %s\n", #name);            \
		} else {                                           \
			check_passed++;                            \
			printf("ok - %s\n", #name);                \
		}                                                  \
	} while (0)

static inline int check_summary(const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
