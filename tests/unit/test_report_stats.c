/* test_report_stats.c - the report's analyses on synthetic data with known answers. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/hist.h"
#include "report/sections/analyze.h"
#include "report/base/stats.h"

/* The report's default --tier-threshold, as a factor. */
#define TIER_MIN (REP_TIER_PCT / 100.0)

/* Record n values spread log-normally around center_ns (deterministic). */
static void add_mode(struct hist *h, double center_ns, double spread, unsigned n, unsigned seed)
{
	unsigned s = seed;
	for (unsigned i = 0; i < n; i++) {
		double g = 0;
		for (int j = 0; j < 6; j++) { /* sum of uniforms ~ gaussian */
			s = s * 1103515245u + 12345u;
			g += (double)((s >> 8) & 0xffff) / 65536.0;
		}
		g = (g - 3) / sqrt(0.5);
		hist_record(h, (uint64_t)(center_ns * exp(g * spread)));
	}
}

TEST(median_of_odd_and_even_counts)
{
	double a[] = { 5, 1, 3 };
	double b[] = { 4, 1, 3, 2 };
	CHECK_NEAR(stats_median(a, 3), 3, 0);
	CHECK_NEAR(stats_median(b, 4), 2.5, 0);
	CHECK_NEAR(stats_median(NULL, 0), 0, 0);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median without sorting equals the sorted one's middle, on every shape of input. */
TEST(median_by_selection_matches_a_sort)
{
	enum { MAXN = 3001 };
	double *v = malloc(MAXN * sizeof(*v)), *ref = malloc(MAXN * sizeof(*ref));
	unsigned s = 7;
	for (size_t n = 1; n <= MAXN; n += n < 100 ? 1 : 97) {
		for (int shape = 0; shape < 6; shape++) {
			for (size_t i = 0; i < n; i++) {
				s = s * 1103515245u + 12345u;
				double r = (double)((s >> 8) & 0xffff);
				v[i] = shape == 0 ? r                            /* random */
				     : shape == 1 ? (double)(r < 32768 ? 1 : 2)  /* two values */
				     : shape == 2 ? 42                           /* all equal */
				     : shape == 3 ? (double)i                    /* sorted */
				     : shape == 4 ? (double)(n - i)              /* reversed */
				     : (double)(i % 2 ? i : n - i);              /* organ pipe */
			}
			memcpy(ref, v, n * sizeof(*v));
			qsort(ref, n, sizeof(*ref), cmp_dbl);
			double want = n % 2 ? ref[n / 2] : (ref[n / 2 - 1] + ref[n / 2]) / 2;
			CHECK_NEAR(stats_median(v, n), want, 0);
			/* reordered, nothing lost */
			qsort(v, n, sizeof(*v), cmp_dbl);
			CHECK(memcmp(v, ref, n * sizeof(*v)) == 0);
		}
	}
	free(v);
	free(ref);
}

TEST(mad_of_a_known_sample)
{
	double v[] = { 1, 1, 2, 2, 4, 6, 9 }; /* median 2, |dev| 1,1,0,0,2,4,7 -> 1 */
	CHECK_NEAR(stats_mad(v, 7, 2), 1, 0);
}

TEST(cv_of_constant_and_spread_series)
{
	double c[] = { 10, 10, 10, 10 };
	double s[] = { 5, 15, 5, 15 };
	CHECK_NEAR(stats_cv(c, 4), 0, 1e-12);
	CHECK_NEAR(stats_cv(s, 4), 0.5, 1e-12);
}

TEST(mad_flags_the_slow_host_and_only_it)
{
	/* 19 hosts near 1000 ops/s, one at 700: below median - 3*1.4826*MAD. */
	double v[20];
	bool flag[20];
	for (int i = 0; i < 19; i++)
		v[i] = 990 + (i % 5) * 5; /* 990..1010 */
	v[19] = 700;
	double med, mad;
	CHECK_EQ_U(stats_flag_low(v, 20, flag, &med, &mad), 1);
	CHECK(flag[19]);
	for (int i = 0; i < 19; i++)
		CHECK(!flag[i]);
	CHECK_NEAR(med, 1000, 0);
	CHECK_NEAR(mad, 5, 0);
}

TEST(mad_zero_makes_the_shortfall_decide)
{
	/* four hosts agree exactly: MAD 0, any host below has robust z -inf; 20% decides */
	double v[] = { 100, 100, 100, 100, 49 };
	bool flag[5];
	CHECK_EQ_U(stats_flag_low(v, 5, flag, NULL, NULL), 1);
	CHECK(flag[4]);
	double w[] = { 100, 100, 100, 100, 79 };
	CHECK_EQ_U(stats_flag_low(w, 5, flag, NULL, NULL), 1);
	double x[] = { 100, 100, 100, 100, 81 }; /* 19% short: no minimum effect */
	CHECK_EQ_U(stats_flag_low(x, 5, flag, NULL, NULL), 0);
	CHECK(isinf(stats_robust_z(81, 100, 0)) && stats_robust_z(81, 100, 0) < 0);
}

TEST(three_hosts_a_host_at_85_percent_is_no_bad_apple)
{
	/* the MAD of two near-equal hosts is ~0: the robust z alone flagged this one */
	double v[] = { 1000, 1001, 850 };
	bool flag[3];
	CHECK_EQ_U(stats_flag_low(v, 3, flag, NULL, NULL), 0);
	double w[] = { 1000, 1000, 790 }; /* 21% short: the shortfall alone flags it */
	CHECK_EQ_U(stats_flag_low(w, 3, flag, NULL, NULL), 1);
	CHECK(flag[2]);
}

TEST(four_hosts_the_shortfall_alone_judges)
{
	/* a wide fleet: robust z of the slow host is about -1, yet it is 40% short */
	double v[] = { 1000, 1400, 600, 1200 };
	bool flag[4];
	double med, mad;
	CHECK_EQ_U(stats_flag_low(v, 4, flag, &med, &mad), 1);
	CHECK(flag[2]);
	CHECK(stats_robust_z(600, med, mad) > -3);
	double w[] = { 1000, 1000, 1000, 850 };
	CHECK_EQ_U(stats_flag_low(w, 4, flag, NULL, NULL), 0);
}

TEST(five_hosts_or_more_need_both_the_z_and_the_shortfall)
{
	/* the same 40% short host in a wide fleet of six: z about -1.6, no bad apple */
	double v[] = { 1000, 1400, 600, 1200, 800, 1300 };
	bool flag[6];
	CHECK_EQ_U(stats_flag_low(v, 6, flag, NULL, NULL), 0);
	/* a tight fleet: 25% short is z far below -3: a bad apple */
	double w[] = { 1000, 1010, 990, 1005, 995, 750 };
	CHECK_EQ_U(stats_flag_low(w, 6, flag, NULL, NULL), 1);
	CHECK(flag[5]);
	/* and 15% short in the same tight fleet: z below -3, but no minimum effect */
	double x[] = { 1000, 1010, 990, 1005, 995, 850 };
	CHECK_EQ_U(stats_flag_low(x, 6, flag, NULL, NULL), 0);
}

TEST(a_host_within_five_percent_of_its_cap_is_at_it)
{
	CHECK(stats_at_cap(2999.3, 3000));
	CHECK(stats_at_cap(2850, 3000));
	CHECK(stats_at_cap(3140, 3000)); /* a hair over: the cap still holds it */
	CHECK(!stats_at_cap(2840, 3000));
	CHECK(!stats_at_cap(48, 31));    /* 125 MiB/s over 4 MiB: 48 ops/s is not at it */
	CHECK(!stats_at_cap(100, 0));
}

TEST(a_fleet_median_far_above_the_cap_says_the_cap_does_not_hold)
{
	CHECK(stats_cap_far_below_median(290, 31));
	CHECK(!stats_cap_far_below_median(3000, 3000));
	CHECK(!stats_cap_far_below_median(3600, 3000)); /* 1.2x: bursts and rounding */
	CHECK(stats_cap_far_below_median(3900, 3000));
	CHECK(!stats_cap_far_below_median(290, 0));
}

TEST(fast_hosts_are_never_bad_apples)
{
	double v[] = { 100, 101, 99, 100, 400 };
	bool flag[5];
	CHECK_EQ_U(stats_flag_low(v, 5, flag, NULL, NULL), 0);
}

TEST(thread_optimum_is_smallest_count_within_5_percent)
{
	double t[] = { 16, 1, 2, 4, 8, 32 };
	double ops[] = { 1000, 200, 390, 700, 960, 990 };
	/* best 1000; 5% below is 950: 8 threads (960) is the smallest that reaches it */
	CHECK_EQ_U(stats_thread_optimum(t, ops, 6, 0.05), 4);
	double ops2[] = { 1000, 200, 390, 700, 940, 990 };
	CHECK_EQ_U(stats_thread_optimum(t, ops2, 6, 0.05), 0); /* 16 */
}

TEST(thread_optimum_honours_another_margin)
{
	double t[] = { 1, 2, 4, 8 };
	double ops[] = { 100, 180, 195, 200 };
	CHECK_EQ_U(stats_thread_optimum(t, ops, 4, 0.05), 2);  /* 195 >= 190 */
	CHECK_EQ_U(stats_thread_optimum(t, ops, 4, 0.10), 1);  /* 180 >= 180 */
	CHECK_EQ_U(stats_thread_optimum(t, ops, 4, 0), 3);
}

TEST(a_host_a_hair_under_the_median_is_never_a_bad_apple)
{
	/* Pinned at a cap: MAD 0.01, so 49.9 is below median - 3 robust sd (49.956), yet 0.2% off. */
	double v[] = { 50.0, 50.01, 49.99, 50.0, 50.01, 49.99, 50.0, 49.9 };
	bool flag[8];
	CHECK_EQ_U(stats_flag_low(v, 8, flag, NULL, NULL), 0);
	double w[] = { 50.0, 50.01, 49.99, 50.0, 50.01, 49.99, 50.0, 45 }; /* 10% under: z -300, but no 20% */
	CHECK_EQ_U(stats_flag_low(w, 8, flag, NULL, NULL), 0);
	w[7] = 35; /* 30% under: flagged */
	CHECK_EQ_U(stats_flag_low(w, 8, flag, NULL, NULL), 1);
	CHECK(flag[7]);
}

TEST(bootstrap_interval_of_a_ratio_of_medians)
{
	double a[] = { 100, 104, 96, 101, 99, 103, 97, 100 };
	double b[] = { 180, 185, 176, 181, 179, 183, 177, 180 };
	double r, lo, hi, r2, lo2, hi2;
	stats_bootstrap_ratio(a, 8, b, 8, 2000, 42, 0.95, &r, &lo, &hi);
	CHECK_NEAR(r, 1.8, 1e-12);
	CHECK(lo < r && r < hi);
	CHECK(lo > 1.7 && hi < 1.9);
	/* seeded: the same input gives the same interval */
	stats_bootstrap_ratio(a, 8, b, 8, 2000, 42, 0.95, &r2, &lo2, &hi2);
	CHECK(lo2 == lo && hi2 == hi && r2 == r);
	/* two samples of one population: the interval holds 1 */
	stats_bootstrap_ratio(a, 8, a, 8, 2000, 7, 0.95, &r, &lo, &hi);
	CHECK(lo < 1 && hi > 1);
	/* one side empty or its median 0: no figure */
	stats_bootstrap_ratio(a, 0, b, 8, 2000, 1, 0.95, &r, &lo, &hi);
	CHECK(isnan(r) && isnan(lo) && isnan(hi));
	double z[] = { 0, 0, 0 };
	stats_bootstrap_ratio(z, 3, b, 8, 2000, 1, 0.95, &r, &lo, &hi);
	CHECK(isnan(r));
}

TEST(hosts_needed_to_see_a_one_in_ten_bad_apple)
{
	CHECK_EQ_U(stats_hosts_needed(0.1, 0.95), 29);  /* log(0.05) / log(0.9) = 28.4 */
	CHECK_EQ_U(stats_hosts_needed(0.1, 0.5), 7);    /* 1 - 0.9^7 = 0.52 */
	CHECK_EQ_U(stats_hosts_needed(0.5, 0.75), 2);   /* exactly 0.75 */
	CHECK_EQ_U(stats_hosts_needed(0, 0.95), 0);
}

TEST(two_latency_modes_with_their_shares)
{
	/* The study's picture: 6% cache hits at 15 us, 94% device reads at 13 ms. */
	struct hist h;
	hist_init(&h);
	add_mode(&h, 15000, 0.15, 600, 1);
	add_mode(&h, 13e6, 0.25, 9400, 2);
	struct stats_mode m[8];
	size_t n = stats_modes(h.buckets, HIST_NBUCKETS, 0.01, m, 8);
	CHECK_EQ_U(n, 2);
	double p0 = hist_bucket_start(m[0].peak) * sqrt(1.1);
	double p1 = hist_bucket_start(m[1].peak) * sqrt(1.1);
	CHECK(p0 > 12000 && p0 < 19000);
	CHECK(p1 > 10e6 && p1 < 16e6);
	CHECK_NEAR(m[0].share, 0.06, 1e-9);
	CHECK_NEAR(m[1].share, 0.94, 1e-9);
}

TEST(one_broad_mode_is_not_split_by_noise)
{
	struct hist h;
	hist_init(&h);
	add_mode(&h, 200000, 0.4, 50000, 7);
	struct stats_mode m[8];
	CHECK_EQ_U(stats_modes(h.buckets, HIST_NBUCKETS, 0.01, m, 8), 1);
	CHECK_NEAR(m[0].share, 1, 1e-12);
}

TEST(three_modes_and_a_tiny_one_dropped)
{
	struct hist h;
	hist_init(&h);
	add_mode(&h, 5000, 0.1, 3000, 3);      /* 30% */
	add_mode(&h, 300000, 0.1, 5000, 4);    /* 50% */
	add_mode(&h, 50e6, 0.1, 1950, 5);      /* 19.5% */
	add_mode(&h, 5e9, 0.05, 50, 6);        /* 0.5%: below min_share */
	struct stats_mode m[8];
	size_t n = stats_modes(h.buckets, HIST_NBUCKETS, 0.01, m, 8);
	CHECK_EQ_U(n, 3);
	CHECK_NEAR(m[0].share, 0.30, 1e-9);
	CHECK_NEAR(m[1].share, 0.50, 1e-9);
	CHECK(m[2].share >= 0.195 - 1e-9 && m[2].share <= 0.20 + 1e-9);
	CHECK(m[0].peak < m[1].peak && m[1].peak < m[2].peak);
}

TEST(empty_histogram_has_no_modes)
{
	uint64_t c[HIST_NBUCKETS] = { 0 };
	struct stats_mode m[4];
	CHECK_EQ_U(stats_modes(c, HIST_NBUCKETS, 0.01, m, 4), 0);
}

TEST(cache_tiers_of_the_companion_study)
{
	/* Sizes 256M..3G in 256M steps; p50 level over 256M-1.25G, 1.5G-2.25G, 2.5G+. */
	double p50[12];
	for (int i = 0; i < 12; i++) {
		double mb = 256.0 * (i + 1);
		double base = mb <= 1280 ? 100e3 : mb <= 2304 ? 600e3 : 8e6;
		p50[i] = base * (1 + 0.04 * ((i % 3) - 1)); /* +-4% wobble */
	}
	struct stats_tier t[8];
	size_t n = stats_tiers(p50, 12, 0, 0.25, t, 8, NULL);
	CHECK_EQ_U(n, 3);
	CHECK_EQ_U(t[0].first, 0);
	CHECK_EQ_U(t[0].last, 4);  /* 1.25G */
	CHECK_EQ_U(t[1].first, 5); /* 1.5G */
	CHECK_EQ_U(t[1].last, 8);  /* 2.25G */
	CHECK_EQ_U(t[2].first, 9); /* 2.5G */
	CHECK_EQ_U(t[2].last, 11);
	CHECK_NEAR(t[1].level, 600e3, 600e3 * 0.05);
}

TEST(a_flat_sweep_is_one_tier)
{
	double v[] = { 100, 104, 97, 101, 99, 103 };
	struct stats_tier t[4];
	CHECK_EQ_U(stats_tiers(v, 6, 0, 0.25, t, 4, NULL), 1);
	CHECK_EQ_U(t[0].last, 5);
	/* the sweep: 64M at p50 116 us, 128M-256M at 109 us */
	double w[] = { 116e3, 109e3, 109e3 };
	CHECK_EQ_U(stats_tiers(w, 3, 0, TIER_MIN, t, 4, NULL), 1);
	/* even with a stated minimum of 5%: it is within the noise of 4% buckets */
	CHECK_EQ_U(stats_tiers(w, 3, 0.04, 0.05, t, 4, NULL), 1);
}

TEST(a_page_cache_cliff_is_two_tiers_not_five)
{
	/* cached at ~2 us, one size half cached, then the disk at ~100 us with 30% wobble */
	double v[] = { 2.0e3, 2.1e3, 1.9e3, 2.0e3, 3.5e3, 40e3, 100e3, 130e3, 80e3, 125e3, 95e3 };
	struct stats_tier t[8];
	double step;
	size_t n = stats_tiers(v, 11, 0.05, TIER_MIN, t, 8, &step);
	CHECK_EQ_U(n, 2);
	CHECK_EQ_U(t[0].first, 0);
	CHECK_EQ_U(t[1].last, 10);
	CHECK(t[0].last == 4 || t[0].last == 3); /* the half-cached size goes with a side */
	CHECK_NEAR(t[0].level, 2.0e3, 0.2e3);
	CHECK(t[1].level > 80e3);
	CHECK_NEAR(step, TIER_MIN, 1e-9); /* 2 x 5% noise is below the 50% minimum */
	/* a 25% minimum (the old fixed tolerance) does not split the disk side either */
	CHECK_EQ_U(stats_tiers(v, 11, 0.05, 0.25, t, 8, NULL), 2);
}

TEST(a_step_inside_the_noise_is_no_tier)
{
	/* a real 1.8x step, but buckets that swing by 50% (CV 0.5): 2x noise is 2.25x */
	double v[] = { 100, 100, 100, 180, 180, 180 };
	struct stats_tier t[4];
	double step;
	CHECK_EQ_U(stats_tiers(v, 6, 0.5, TIER_MIN, t, 4, &step), 1);
	CHECK_NEAR(step, 1.25, 1e-9);
	/* with quiet buckets it is a boundary */
	CHECK_EQ_U(stats_tiers(v, 6, 0.02, TIER_MIN, t, 4, NULL), 2);
	CHECK_EQ_U(t[0].last, 2);
	/* and the sizes' own spread counts: a wild tier hides a 1.8x step */
	double w[] = { 70, 130, 100, 80, 120, 180, 250, 140, 180, 200 };
	CHECK_EQ_U(stats_tiers(w, 10, 0, TIER_MIN, t, 4, NULL), 1);
}

TEST(a_cliff_at_the_last_size_is_a_tier_of_one)
{
	double v[] = { 10e3, 10e3, 11e3, 900e3 };
	struct stats_tier t[4];
	CHECK_EQ_U(stats_tiers(v, 4, 0, TIER_MIN, t, 4, NULL), 2);
	CHECK_EQ_U(t[1].first, 3);
}

TEST(burst_credits_running_out_is_one_step_down)
{
	/* 30 buckets at ~3000 ops/s, then 30 at ~100 (credits gone) with noise. */
	double x[60];
	for (int i = 0; i < 60; i++)
		x[i] = (i < 30 ? 3000 : 100) * (1 + 0.05 * ((i * 7 % 5) - 2) / 2.0);
	struct stats_step s[4];
	size_t n = stats_regimes(x, 60, 3, 0.2, s, 4);
	CHECK_EQ_U(n, 1);
	CHECK_EQ_U(s[0].at, 30);
	CHECK_NEAR(s[0].before, 3000, 60);
	CHECK_NEAR(s[0].after, 100, 5);
}

TEST(noise_and_a_single_spike_are_not_regimes)
{
	double x[40];
	for (int i = 0; i < 40; i++)
		x[i] = 1000 * (1 + 0.08 * ((i * 13 % 7) - 3) / 3.0);
	x[17] = 5000; /* one bucket spike: not lasting */
	struct stats_step s[4];
	CHECK_EQ_U(stats_regimes(x, 40, 3, 0.2, s, 4), 0);
}

/* Random walk with +-10% steps (deterministic), optionally divided by 5 from index cliff on. */
static void walk(double *x, int n, unsigned seed, int cliff)
{
	double v = 1000;
	unsigned s = seed;
	for (int i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v *= 0.9 + 0.2 * (double)((s >> 8) & 0xffff) / 65536.0;
		x[i] = cliff >= 0 && i >= cliff ? v / 5 : v;
	}
}

TEST(slow_drift_is_not_a_regime_but_a_cliff_in_it_is)
{
	double x[60];
	struct stats_step s[8];
	size_t flagged = 0;
	for (unsigned seed = 1; seed <= 30; seed++) {
		walk(x, 60, seed, -1);
		flagged += stats_regimes(x, 60, 3, 0.2, s, 8) > 0;
	}
	CHECK(flagged <= 3); /* at most one walk in ten shows an abrupt 20% jump */
	size_t found = 0;
	for (unsigned seed = 1; seed <= 30; seed++) {
		walk(x, 60, seed, 31);
		size_t n = stats_regimes(x, 60, 3, 0.2, s, 8);
		for (size_t k = 0; k < n; k++)
			found += s[k].at == 31 && s[k].after < s[k].before;
	}
	CHECK_EQ_U(found, 30);
}

TEST(step_up_then_down_is_two_regimes)
{
	double x[45];
	for (int i = 0; i < 45; i++)
		x[i] = i < 15 ? 500 : i < 30 ? 1500 : 500;
	struct stats_step s[4];
	size_t n = stats_regimes(x, 45, 3, 0.2, s, 4);
	CHECK_EQ_U(n, 2);
	CHECK_EQ_U(s[0].at, 15);
	CHECK_EQ_U(s[1].at, 30);
	CHECK_NEAR(s[0].after, 1500, 1e-9);
	CHECK_NEAR(s[1].after, 500, 1e-9);
}

int main(void)
{
	RUN(median_of_odd_and_even_counts);
	RUN(median_by_selection_matches_a_sort);
	RUN(mad_of_a_known_sample);
	RUN(cv_of_constant_and_spread_series);
	RUN(mad_flags_the_slow_host_and_only_it);
	RUN(mad_zero_makes_the_shortfall_decide);
	RUN(three_hosts_a_host_at_85_percent_is_no_bad_apple);
	RUN(four_hosts_the_shortfall_alone_judges);
	RUN(five_hosts_or_more_need_both_the_z_and_the_shortfall);
	RUN(a_host_within_five_percent_of_its_cap_is_at_it);
	RUN(a_fleet_median_far_above_the_cap_says_the_cap_does_not_hold);
	RUN(fast_hosts_are_never_bad_apples);
	RUN(thread_optimum_is_smallest_count_within_5_percent);
	RUN(thread_optimum_honours_another_margin);
	RUN(a_host_a_hair_under_the_median_is_never_a_bad_apple);
	RUN(bootstrap_interval_of_a_ratio_of_medians);
	RUN(hosts_needed_to_see_a_one_in_ten_bad_apple);
	RUN(two_latency_modes_with_their_shares);
	RUN(one_broad_mode_is_not_split_by_noise);
	RUN(three_modes_and_a_tiny_one_dropped);
	RUN(empty_histogram_has_no_modes);
	RUN(cache_tiers_of_the_companion_study);
	RUN(a_flat_sweep_is_one_tier);
	RUN(a_page_cache_cliff_is_two_tiers_not_five);
	RUN(a_step_inside_the_noise_is_no_tier);
	RUN(a_cliff_at_the_last_size_is_a_tier_of_one);
	RUN(burst_credits_running_out_is_one_step_down);
	RUN(noise_and_a_single_spike_are_not_regimes);
	RUN(step_up_then_down_is_two_regimes);
	RUN(slow_drift_is_not_a_regime_but_a_cliff_in_it_is);
	return check_summary("report_stats");
}
