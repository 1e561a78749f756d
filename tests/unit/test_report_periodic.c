/* test_report_periodic.c - stats_periodic on series with a known period, and on ones with none. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/prng.h"
#include "report/sections/periodic.h"
#include "report/base/stats.h"

enum { N = 200, SEEDS = 20 };

/* Uniform in (0, 1). */
static double unif(struct prng *p)
{
	return ((double)(prng_next(p) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller). */
static double gauss(struct prng *p)
{
	return sqrt(-2 * log(unif(p))) * cos(2 * M_PI * unif(p));
}

/* A series of shape `kind` at time t (samples), period `per`, half-height 1. */
enum shape { SINE, SQUARE, SAWTOOTH };

static double wave(enum shape kind, double t, double per)
{
	double ph = fmod(t / per, 1);
	switch (kind) {
	case SQUARE:
		return ph < 0.5 ? 1 : -1;
	case SAWTOOTH:
		return 2 * ph - 1;
	default:
		return sin(2 * M_PI * ph);
	}
}

/* level + amp x wave + sd x noise (+ slope x t), seeded. */
static void make_wave(double *x, size_t n, enum shape kind, double per, double level, double amp, double sd,
		      double slope, uint64_t seed)
{
	struct prng p;
	prng_seed(&p, seed, 1);
	for (size_t t = 0; t < n; t++)
		x[t] = level + amp * wave(kind, (double)t, per) + sd * gauss(&p) + slope * (double)t;
}

TEST(sine_of_period_15_is_found_with_its_period_and_amplitude)
{
	double x[N];
	struct stats_period o;
	/* p50 of 10 ms swinging +-4 ms (+-40%) every 15 samples, noise sd 1.5 ms */
	make_wave(x, N, SINE, 15, 10, 4, 1.5, 0, 42);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
	CHECK_NEAR(o.period, 15, 15 * 0.05);
	CHECK_NEAR(o.amplitude, 0.40, 0.40 * 0.15);
	CHECK_NEAR(o.cycles, N / 15.0, N / 15.0 * 0.05);
	CHECK(o.p < 1e-6);
	CHECK(o.acf > 0.3 && o.acf_half < 0);
	printf("  sine: period %.2f amplitude %.3f cycles %.1f p %.2g\n", o.period, o.amplitude, o.cycles, o.p);
}

TEST(the_period_comes_out_in_the_unit_of_dt)
{
	double x[N];
	struct stats_period o;
	/* one line a minute, a 7.5-minute cycle: 450 s */
	make_wave(x, N, SINE, 7.5, 10, 4, 1.5, 0, 7);
	CHECK(stats_periodic(x, N, 60, &o) == 1);
	CHECK_NEAR(o.period, 450, 450 * 0.02);
	CHECK_NEAR(o.cycles, N / 7.5, N / 7.5 * 0.02);
}

TEST(square_wave_is_found_its_amplitude_that_of_its_fundamental)
{
	double x[N];
	struct stats_period o;
	make_wave(x, N, SQUARE, 20, 10, 2, 1, 0, 3);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
	CHECK_NEAR(o.period, 20, 20 * 0.05);
	CHECK_NEAR(o.amplitude, 0.2 * 4 / M_PI, 0.2 * 4 / M_PI * 0.15);
	printf("  square: period %.2f amplitude %.3f p %.2g\n", o.period, o.amplitude, o.p);
}

TEST(sawtooth_is_found)
{
	double x[N];
	struct stats_period o;
	make_wave(x, N, SAWTOOTH, 25, 10, 3, 1, 0, 5);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
	CHECK_NEAR(o.period, 25, 25 * 0.05);
	/* the fundamental of a sawtooth of half-height h: 2h/pi */
	CHECK_NEAR(o.amplitude, 0.3 * 2 / M_PI, 0.3 * 2 / M_PI * 0.15);
	printf("  sawtooth: period %.2f amplitude %.3f p %.2g\n", o.period, o.amplitude, o.p);
}

TEST(sine_on_a_trend_is_found)
{
	double x[N];
	struct stats_period o;
	/* the level doubles over the series: the trend dwarfs the swing */
	make_wave(x, N, SINE, 15, 10, 2, 1, 10.0 / N, 11);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
	CHECK_NEAR(o.period, 15, 15 * 0.05);
	/* the level is the median, 15: a swing of 2 is +-13% */
	CHECK_NEAR(o.amplitude, 2 / 15.0, 2 / 15.0 * 0.15);
	printf("  sine on a trend: period %.2f amplitude %.3f p %.2g\n", o.period, o.amplitude, o.p);
}

TEST(white_noise_has_no_period_with_any_of_20_seeds)
{
	double x[N];
	struct stats_period o;
	unsigned found = 0;
	double pmin = 1;
	for (uint64_t s = 1; s <= SEEDS; s++) {
		make_wave(x, N, SINE, 15, 10, 0, 2, 0, s);
		found += stats_periodic(x, N, 1, &o) == 1;
		pmin = fmin(pmin, o.p);
	}
	CHECK_EQ_U(found, 0);
	printf("  white noise: smallest p %.3g\n", pmin);
}

/* A random walk from 100 with unit steps, plus measurement noise of sd `sd`. */
static void make_walk(double *x, size_t n, double sd, uint64_t seed)
{
	struct prng p;
	prng_seed(&p, seed, 2);
	double w = 100;
	for (size_t t = 0; t < n; t++) {
		w += gauss(&p);
		x[t] = w + sd * gauss(&p);
	}
}

TEST(random_walk_has_no_period_with_any_of_20_seeds)
{
	double x[N];
	struct stats_period o;
	unsigned found = 0, noisy = 0;
	for (uint64_t s = 1; s <= SEEDS; s++) {
		make_walk(x, N, 0, s);
		found += stats_periodic(x, N, 1, &o) == 1;
		/* a wandering level seen through measurement noise: red, then flat */
		make_walk(x, N, 3, s);
		noisy += stats_periodic(x, N, 1, &o) == 1;
	}
	CHECK_EQ_U(found, 0);
	CHECK_EQ_U(noisy, 0);
}

TEST(a_step_has_no_period)
{
	double x[N];
	struct stats_period o;
	unsigned found = 0;
	for (uint64_t s = 1; s <= SEEDS; s++) {
		make_wave(x, N, SINE, 15, 10, 0, 0.5, 0, s);
		/* the step anywhere from a fifth to four fifths in */
		for (size_t t = N / 5 + (size_t)s * 6; t < N; t++)
			x[t] += 5;
		found += stats_periodic(x, N, 1, &o) == 1;
	}
	CHECK_EQ_U(found, 0);
	/* without noise too */
	for (size_t t = 0; t < N; t++)
		x[t] = t < N / 2 ? 10 : 15;
	CHECK(stats_periodic(x, N, 1, &o) == 0);
}

TEST(a_flat_series_has_no_period)
{
	double x[N];
	struct stats_period o;
	for (size_t t = 0; t < N; t++)
		x[t] = 5.3; /* its mean is not exactly 5.3 in floating point */
	CHECK(stats_periodic(x, N, 1, &o) == 0);
	memset(x, 0, sizeof(x));
	CHECK(stats_periodic(x, N, 1, &o) == 0);
}

TEST(fewer_than_three_cycles_are_no_period)
{
	double x[N];
	struct stats_period o;
	static const double per[] = { N / 2.0, N / 2.5, N / 2.9 };
	for (size_t i = 0; i < sizeof(per) / sizeof(per[0]); i++) {
		make_wave(x, N, SINE, per[i], 10, 4, 0.5, 0, 9);
		CHECK(stats_periodic(x, N, 1, &o) == 0);
	}
	/* while 3.5 cycles are one */
	make_wave(x, N, SINE, N / 3.5, 10, 4, 0.5, 0, 9);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
	CHECK_NEAR(o.cycles, 3.5, 0.1);
}

TEST(a_value_not_finite_is_refused_not_skipped)
{
	double x[N];
	struct stats_period o;
	make_wave(x, N, SINE, 15, 10, 4, 0.5, 0, 1);
	x[17] = NAN;
	CHECK(stats_periodic(x, N, 1, &o) == -EINVAL);
	x[17] = INFINITY;
	CHECK(stats_periodic(x, N, 1, &o) == -EINVAL);
	x[17] = 10;
	CHECK(stats_periodic(x, N, 0, &o) == -EINVAL);
	CHECK(stats_periodic(x, N, NAN, &o) == -EINVAL);
	CHECK(stats_periodic(x, N, 1, &o) == 1);
}

TEST(fewer_than_8_values_are_no_period)
{
	double x[8];
	struct stats_period o;
	for (size_t t = 0; t < 8; t++)
		x[t] = 10 + 4 * wave(SQUARE, (double)t, 2);
	for (size_t n = 0; n < STATS_PERIOD_MIN_N; n++)
		CHECK(stats_periodic(x, n, 1, &o) == 0);
	CHECK(stats_periodic(NULL, 0, 1, &o) == -EINVAL);
}

TEST(same_series_same_answer)
{
	double x[N];
	struct stats_period a, b;
	make_wave(x, N, SAWTOOTH, 12.5, 10, 3, 2, 0.01, 77);
	CHECK(stats_periodic(x, N, 1, &a) == stats_periodic(x, N, 1, &b));
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
}

TEST(a_long_series_is_searched_in_blocks_of_at_most_the_limit)
{
	CHECK_EQ_U(rep_periodic_block(24), 1);
	CHECK_EQ_U(rep_periodic_block(REP_PERIODIC_MAX_POINTS), 1);
	CHECK_EQ_U(rep_periodic_block(REP_PERIODIC_MAX_POINTS + 1), 2);
	CHECK_EQ_U(rep_periodic_block(40000), 10);
	CHECK_EQ_U(rep_periodic_block(1000000), 245);
	CHECK(1000000 / rep_periodic_block(1000000) <= REP_PERIODIC_MAX_POINTS);
}

/*
 * Long synthetic series (sine, square, sawtooth; noise; a trend): the
 * bounded search finds what the whole series' DFT finds, the same period
 * within 1% and the same verdict; and in a series of white noise, neither
 * finds one. n is kept to ~12k so that the full DFT takes a fraction of a
 * second here.
 */
TEST(bounded_search_finds_the_periods_the_whole_dft_finds)
{
	static const struct {
		size_t n;
		enum shape kind;
		double per, amp, sd, slope;
	} cases[] = {
		{ 12000, SINE, 250, 3, 2, 0 },       { 12000, SQUARE, 1200, 2, 2, 0 }, { 9000, SAWTOOTH, 700, 3, 1.5, 0 },
		{ 12000, SINE, 3000, 2, 2, 0.0005 }, { 8200, SINE, 97, 3, 2, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double *x = malloc(cases[i].n * sizeof(*x));
		CHECK(x != NULL);
		if (!x)
			return;
		make_wave(x, cases[i].n, cases[i].kind, cases[i].per, 10, cases[i].amp, cases[i].sd, cases[i].slope,
			  100 + i);
		struct stats_period whole, bounded;
		size_t block;
		int a = stats_periodic(x, cases[i].n, 0.5, &whole);
		int b = rep_periodic_search(x, cases[i].n, 0.5, &bounded, &block);
		CHECK(block > 1);
		CHECK(a == 1 && b == 1);
		CHECK_NEAR(bounded.period, whole.period, whole.period * 0.01);
		CHECK_NEAR(bounded.period, cases[i].per * 0.5, cases[i].per * 0.5 * 0.02);
		free(x);
	}
	double *x = malloc(12000 * sizeof(*x));
	CHECK(x != NULL);
	if (!x)
		return;
	make_wave(x, 12000, SINE, 100, 10, 0, 1, 0, 7);
	struct stats_period o;
	size_t block;
	CHECK(stats_periodic(x, 12000, 1, &o) == 0);
	CHECK(rep_periodic_search(x, 12000, 1, &o, &block) == 0);
	free(x);
}

int main(void)
{
	RUN(sine_of_period_15_is_found_with_its_period_and_amplitude);
	RUN(the_period_comes_out_in_the_unit_of_dt);
	RUN(square_wave_is_found_its_amplitude_that_of_its_fundamental);
	RUN(sawtooth_is_found);
	RUN(sine_on_a_trend_is_found);
	RUN(white_noise_has_no_period_with_any_of_20_seeds);
	RUN(random_walk_has_no_period_with_any_of_20_seeds);
	RUN(a_step_has_no_period);
	RUN(a_flat_series_has_no_period);
	RUN(fewer_than_three_cycles_are_no_period);
	RUN(a_value_not_finite_is_refused_not_skipped);
	RUN(fewer_than_8_values_are_no_period);
	RUN(same_series_same_answer);
	RUN(a_long_series_is_searched_in_blocks_of_at_most_the_limit);
	RUN(bounded_search_finds_the_periods_the_whole_dft_finds);
	return check_summary("report_periodic");
}
