/* test_steady.c - the SNIA PTS criteria on synthetic series: flat, a step, ramps and noise either side of the limits. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>

#include "check.h"
#include "lib/steady.h"

TEST(flat_is_steady)
{
	double y[5] = { 300, 300, 300, 300, 300 };
	struct steady_fit f;
	CHECK(steady_judge(y, 5, &f) == 0);
	CHECK(f.steady);
	CHECK_NEAR(f.avg, 300, 1e-9);
	CHECK_NEAR(f.range_pct, 0, 1e-9);
	CHECK_NEAR(f.slope_pct, 0, 1e-9);
}

/* A burst that ends: the windows over the fall fail; the first all after it attains. */
TEST(step_attains_after_the_fall)
{
	double y[10] = { 3000, 3000, 3000, 300, 300, 300, 300, 300, 300, 300 };
	struct steady_fit f;
	CHECK(steady_judge(y + 1, 5, &f) == 0);
	CHECK(!f.steady);
	CHECK(f.range_pct > 100);
	CHECK_EQ_U(steady_first(y, 10, 5, &f), 8);
	CHECK(f.steady);
	CHECK_NEAR(f.avg, 300, 1e-9);
	/* Before the fall's window has passed: not attained, the last window's fit. */
	CHECK_EQ_U(steady_first(y, 7, 5, &f), 0);
	CHECK(!f.steady);
}

/* y = 100 + k i: range and slope excursion are both 4k / (100 + 2k) of the average. */
static void ramp(double pct, double *y)
{
	double k = pct / (4 - 0.02 * pct);
	for (int i = 0; i < 5; i++)
		y[i] = 100 + k * i;
}

TEST(ramp_just_under_ten_percent)
{
	double y[5];
	struct steady_fit f;
	ramp(9.9, y);
	CHECK(steady_judge(y, 5, &f) == 0);
	CHECK_NEAR(f.slope_pct, 9.9, 1e-6);
	CHECK(f.steady);
}

TEST(ramp_just_over_ten_percent)
{
	double y[5];
	struct steady_fit f;
	ramp(10.1, y);
	CHECK(steady_judge(y, 5, &f) == 0);
	CHECK_NEAR(f.slope_pct, 10.1, 1e-6);
	CHECK(f.range_pct < 20);
	CHECK(!f.steady);
	/* Falling the same way fails the same way. */
	double down[5];
	for (int i = 0; i < 5; i++)
		down[i] = y[4 - i];
	CHECK(steady_judge(down, 5, &f) == 0);
	CHECK_NEAR(f.slope_pct, 10.1, 1e-6);
	CHECK(f.slope < 0);
	CHECK(!f.steady);
}

/* {a, b, a, b, a}: no slope at all; the range is d / (100 + 0.4 d) of the average. */
static void noise(double pct, double *y)
{
	double d = pct / (1 - 0.004 * pct);
	for (int i = 0; i < 5; i++)
		y[i] = i % 2 ? 100 + d : 100;
}

TEST(noise_just_under_twenty_percent)
{
	double y[5];
	struct steady_fit f;
	noise(19.9, y);
	CHECK(steady_judge(y, 5, &f) == 0);
	CHECK_NEAR(f.range_pct, 19.9, 1e-6);
	CHECK_NEAR(f.slope_pct, 0, 1e-6);
	CHECK(f.steady);
}

TEST(noise_just_over_twenty_percent)
{
	double y[5];
	struct steady_fit f;
	noise(20.1, y);
	CHECK(steady_judge(y, 5, &f) == 0);
	CHECK_NEAR(f.range_pct, 20.1, 1e-6);
	CHECK_NEAR(f.slope_pct, 0, 1e-6);
	CHECK(!f.steady);
}

/* The fitted line: through a straight series exactly. */
TEST(fit_of_a_line)
{
	double y[4] = { 10, 12, 14, 16 };
	struct steady_fit f;
	CHECK(steady_judge(y, 4, &f) == 0);
	CHECK_NEAR(f.slope, 2, 1e-9);
	CHECK_NEAR(f.intercept, 10, 1e-9);
	CHECK_NEAR(f.avg, 13, 1e-9);
}

TEST(nothing_measured_is_never_steady)
{
	double y[5] = { 0 };
	struct steady_fit f;
	CHECK(steady_judge(y, 5, &f) == -EINVAL);
	CHECK(!f.steady);
	CHECK(steady_judge(y, 1, &f) == -EINVAL);
	CHECK_EQ_U(steady_first(y, 5, 5, &f), 0);
	double flipping[8] = { 800, 3000, 800, 3000, 800, 3000, 800, 3000 };
	CHECK_EQ_U(steady_first(flipping, 8, 5, &f), 0);
	CHECK(f.range_pct > 100);
}

/* A watch series: steady at 92 ms from period 5, then at 256 ms from period 16. */
TEST(left_a_steady_state)
{
	double y[30];
	for (int i = 0; i < 30; i++)
		y[i] = i < 15 ? 92 + (i % 3) * 3 : 256 + (i % 2) * 4;
	size_t at;
	double avg;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 16);
	CHECK_EQ_U(at, 5);
	CHECK(avg > 90 && avg < 100);
	/* one spike within the band leaves nothing; a flat series never leaves */
	y[20] = 0;
	for (int i = 0; i < 30; i++)
		y[i] = 100 + (i == 10 ? 15 : 0);
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 0);
	CHECK_EQ_U(at, 5);
	/* a lone spike far off the band, the rounds after it back at the level: not left */
	for (int i = 0; i < 30; i++)
		y[i] = 100 + (i % 3);
	y[12] = 140;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 0);
	/* two spikes in a window of five: still most of it at the level */
	y[14] = 150;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 0);
	/* a spike, then the level falls for good three rounds later: left where it fell */
	for (int i = 18; i < 30; i++)
		y[i] = 300;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 19);
	/* a move in the last round, nothing after it to say otherwise: left there */
	for (int i = 0; i < 30; i++)
		y[i] = 100 + (i % 3);
	y[29] = 200;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 30);
	/* never steady: never left */
	for (int i = 0; i < 30; i++)
		y[i] = i % 2 ? 800 : 3000;
	CHECK_EQ_U(steady_left(y, 30, 5, &at, &avg), 0);
	CHECK_EQ_U(at, 0);
}

int main(void)
{
	RUN(flat_is_steady);
	RUN(step_attains_after_the_fall);
	RUN(ramp_just_under_ten_percent);
	RUN(ramp_just_over_ten_percent);
	RUN(noise_just_under_twenty_percent);
	RUN(noise_just_over_twenty_percent);
	RUN(fit_of_a_line);
	RUN(nothing_measured_is_never_steady);
	RUN(left_a_steady_state);
	return check_summary("steady");
}
