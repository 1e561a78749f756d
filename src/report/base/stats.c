/* report/base/stats.c - medians, MAD, peaks, tiers, regimes and periods for the report. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/base/stats.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/*
 * Put the k-th smallest of v[0..n) at v[k], the smaller ones before it and
 * the larger after: three-way partitions (less, equal, greater) about a
 * median of three, O(n) expected; resampled data, full of repeats, ends as
 * soon as k falls among the equal ones. A range that shrinks too slowly for
 * too long is sorted instead, so that no input is quadratic. The bootstrap
 * takes thousands of medians a comparison: a sort there was most of a large
 * report's time.
 */
static void select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;
	unsigned budget = 64;
	while (hi - lo >= 16) {
		if (budget-- == 0) {
			qsort(v + lo, (size_t)(hi - lo + 1), sizeof(*v), cmp_double);
			return;
		}
		double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
		double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		ptrdiff_t lt = lo, i = lo, gt = hi;
		while (i <= gt) {
			double x = v[i];
			if (x < pivot) {
				v[i++] = v[lt];
				v[lt++] = x;
			} else if (x > pivot) {
				v[i] = v[gt];
				v[gt--] = x;
			} else {
				i++;
			}
		}
		/* v[lo..lt) < pivot, v[lt..gt] == pivot, v(gt..hi] > pivot */
		if (want < lt)
			hi = lt - 1;
		else if (want > gt)
			lo = gt + 1;
		else
			return;
	}
	/* A short range: insertion sort. */
	for (ptrdiff_t i = lo + 1; i <= hi; i++) {
		double x = v[i];
		ptrdiff_t m = i;
		for (; m > lo && v[m - 1] > x; m--)
			v[m] = v[m - 1];
		v[m] = x;
	}
}

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	size_t k = n / 2;
	select_kth(v, n, k);
	if (n % 2)
		return v[k];
	/* The lower middle is the largest of what select_kth left below k. */
	double below = v[0];
	for (size_t i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[k]) / 2;
}

double stats_mad(const double *v, size_t n, double med)
{
	if (n == 0)
		return 0;
	double *d = malloc(n * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	double mad = stats_median(d, n);
	free(d);
	return mad;
}

double stats_cv(const double *v, size_t n)
{
	if (n < 2)
		return 0;
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	double mean = sum / (double)n;
	if (mean == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	return sqrt(sq / (double)n) / fabs(mean);
}

double stats_robust_z(double v, double median, double mad)
{
	if (mad > 0)
		return (v - median) / (1.4826 * mad);
	return v < median ? -INFINITY : v > median ? INFINITY : 0;
}

size_t stats_flag_low(const double *v, size_t n, bool *flag, double *median, double *mad)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return 0;
	if (n)
		memcpy(s, v, n * sizeof(*s));
	double med = stats_median(s, n);
	free(s);
	double m = stats_mad(v, n, med);
	if (median)
		*median = med;
	if (mad)
		*mad = m;
	size_t flagged = 0;
	for (size_t i = 0; i < n; i++) {
		flag[i] = med > 0 && v[i] <= med * (1 - STATS_MIN_SHORTFALL) &&
			  (n < STATS_Z_MIN_HOSTS || stats_robust_z(v[i], med, m) < STATS_BAD_Z);
		flagged += flag[i];
	}
	return flagged;
}

bool stats_at_cap(double v, double cap)
{
	return cap > 0 && fabs(v / cap - 1) <= STATS_AT_CAP + 1e-9;
}

bool stats_cap_far_below_median(double median, double cap)
{
	return cap > 0 && median > cap * STATS_CAP_FAR;
}

size_t stats_thread_optimum(const double *threads, const double *ops, size_t n, double within)
{
	double best = 0;
	for (size_t i = 0; i < n; i++)
		if (ops[i] > best)
			best = ops[i];
	size_t pick = 0;
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		if (ops[i] >= (1 - within) * best && (!found || threads[i] < threads[pick])) {
			pick = i;
			found = true;
		}
	}
	return pick;
}

/* ---- comparisons ---- */

/* splitmix64: a small, good generator for resampling; its own state, so thread-safe. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Median of n values drawn with replacement from v into tmp. */
static double resampled_median(const double *v, size_t n, double *tmp, uint64_t *state)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[(size_t)(((unsigned __int128)splitmix(state) * n) >> 64)];
	return stats_median(tmp, n);
}

/* Quantile q of sorted s[0..n): linear between order statistics. */
static double quantile_sorted(const double *s, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t i = (size_t)at;
	return i + 1 < n ? s[i] + (at - (double)i) * (s[i + 1] - s[i]) : s[n - 1];
}

void stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, unsigned rounds,
			   uint64_t seed, double level, double *ratio, double *lo, double *hi)
{
	*ratio = *lo = *hi = NAN;
	if (na == 0 || nb == 0 || rounds == 0)
		return;
	double *tmp = malloc((na > nb ? na : nb) * sizeof(*tmp));
	double *r = malloc(rounds * sizeof(*r));
	if (!tmp || !r) {
		free(tmp);
		free(r);
		return;
	}
	memcpy(tmp, a, na * sizeof(*tmp));
	double ma = stats_median(tmp, na);
	memcpy(tmp, b, nb * sizeof(*tmp));
	double mb = stats_median(tmp, nb);
	if (ma > 0 && mb >= 0) {
		*ratio = mb / ma;
		uint64_t state = seed;
		size_t kept = 0;
		for (unsigned k = 0; k < rounds; k++) {
			double ra = resampled_median(a, na, tmp, &state);
			double rb = resampled_median(b, nb, tmp, &state);
			if (ra > 0)
				r[kept++] = rb / ra;
		}
		if (kept) {
			qsort(r, kept, sizeof(*r), cmp_double);
			*lo = quantile_sorted(r, kept, (1 - level) / 2);
			*hi = quantile_sorted(r, kept, (1 + level) / 2);
		}
	}
	free(tmp);
	free(r);
}

unsigned stats_hosts_needed(double share, double confidence)
{
	if (!(share > 0 && share < 1 && confidence > 0 && confidence < 1))
		return 0;
	return (unsigned)ceil(log(1 - confidence) / log(1 - share) - 1e-9);
}

/* ---- latency modes ---- */

/* counts smoothed with a 5-bucket triangle kernel (weights renormalised at the edges). */
static void smooth(const uint64_t *counts, size_t n, double *s)
{
	static const double kernel[5] = { 1, 2, 3, 2, 1 };
	for (size_t k = 0; k < n; k++) {
		double acc = 0, w = 0;
		for (int j = -2; j <= 2; j++) {
			long i = (long)k + j;
			if (i < 0 || i >= (long)n)
				continue;
			acc += kernel[j + 2] * (double)counts[i];
			w += kernel[j + 2];
		}
		s[k] = acc / w;
	}
}

/* Local maxima of s; on a plateau the first bucket of it counts. Returns how many. */
static size_t local_maxima(const double *s, size_t n, size_t *peaks)
{
	size_t np = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] <= 0)
			continue;
		bool left = k == 0 || s[k] > s[k - 1];
		size_t r = k;
		while (r + 1 < n && s[r + 1] == s[k])
			r++;
		bool right = r + 1 == n || s[r + 1] < s[k];
		if (left && right)
			peaks[np++] = k;
		k = r;
	}
	return np;
}

/* Merge neighbouring peaks whose valley is above half the lower one, until nothing changes. */
static size_t merge_shallow(const double *s, size_t *peaks, size_t np)
{
	bool merged = true;
	while (merged && np > 1) {
		merged = false;
		for (size_t i = 0; i + 1 < np; i++) {
			double valley = s[peaks[i]];
			for (size_t k = peaks[i]; k <= peaks[i + 1]; k++)
				if (s[k] < valley)
					valley = s[k];
			double lower = fmin(s[peaks[i]], s[peaks[i + 1]]);
			if (valley > 0.5 * lower) {
				if (s[peaks[i + 1]] > s[peaks[i]])
					peaks[i] = peaks[i + 1];
				memmove(&peaks[i + 1], &peaks[i + 2], (np - i - 2) * sizeof(*peaks));
				np--;
				merged = true;
				break;
			}
		}
	}
	return np;
}

/* Basins: split at the lowest smoothed point between peaks; keep those with min_share. */
static size_t basins(const uint64_t *counts, size_t n, double total, const double *s, const size_t *peaks,
		     size_t np, double min_share, struct stats_mode *out, size_t max)
{
	size_t written = 0;
	size_t from = 0;
	for (size_t i = 0; i < np; i++) {
		size_t to = n - 1;
		if (i + 1 < np) {
			to = peaks[i];
			for (size_t k = peaks[i]; k < peaks[i + 1]; k++)
				if (s[k] < s[to])
					to = k;
		}
		double mass = 0;
		size_t top = from;
		for (size_t k = from; k <= to; k++) {
			mass += (double)counts[k];
			if (counts[k] > counts[top])
				top = k;
		}
		if (mass / total >= min_share && written < max) {
			/* Report the occupied range of the basin, not its empty margins. */
			size_t lo = from, hi = to;
			while (lo < hi && counts[lo] == 0)
				lo++;
			while (hi > lo && counts[hi] == 0)
				hi--;
			out[written].peak = (unsigned)top;
			out[written].from = (unsigned)lo;
			out[written].to = (unsigned)hi;
			out[written].share = mass / total;
			written++;
		}
		from = to + 1;
	}
	return written;
}

size_t stats_modes(const uint64_t *counts, size_t n, double min_share,
		   struct stats_mode *out, size_t max)
{
	double total = 0;
	for (size_t k = 0; k < n; k++)
		total += (double)counts[k];
	if (n == 0 || total == 0 || max == 0)
		return 0;
	double *s = calloc(n, sizeof(*s));
	size_t *peaks = malloc(n * sizeof(*peaks));
	if (!s || !peaks) {
		free(s);
		free(peaks);
		return 0;
	}
	smooth(counts, n, s);
	size_t np = merge_shallow(s, peaks, local_maxima(s, n, peaks));
	size_t written = basins(counts, n, total, s, peaks, np, min_share, out, max);
	free(s);
	free(peaks);
	return written;
}

/* ---- cache tiers ---- */

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}


static double median_of(const double *v, size_t first, size_t last)
{
	size_t n = last - first + 1;
	double *c = malloc(n * sizeof(*c));
	if (!c)
		return v[first];
	memcpy(c, v + first, n * sizeof(*c));
	double m = stats_median(c, n);
	free(c);
	return m;
}

/* 1.4826 x the MAD of y[lo, hi) around its median m: a robust sd. */
static double spread_of(const double *y, size_t lo, size_t hi, double m)
{
	return 1.4826 * stats_mad(y + lo, hi - lo, m);
}

struct tier_cut {
	const double *y; /* log of the values */
	size_t n;
	double noise, minlog; /* both in log units */
	size_t *cuts, ncuts;
};

/* Sum of |y - m| over y[lo, hi). */
static double l1_of(const double *y, size_t lo, size_t hi, double m)
{
	double d = 0;
	for (size_t i = lo; i < hi; i++)
		d += fabs(y[i] - m);
	return d;
}

/*
 * Cut y[lo, hi) where two levels fit best (least absolute deviation from
 * each side's median: every size on the side it resembles), and keep the
 * cut when the levels differ by more than the noise; recurse.
 */
static void tiers_split(struct tier_cut *t, size_t lo, size_t hi)
{
	size_t best = 0;
	double bestcost = INFINITY, ml = 0, mr = 0;
	for (size_t c = lo + 1; c < hi; c++) {
		/* one size between two levels is the transition: only an end may stand alone */
		if ((c - lo < 2 && lo != 0) || (hi - c < 2 && hi != t->n))
			continue;
		double a = median_of(t->y, lo, c - 1), b = median_of(t->y, c, hi - 1);
		double cost = l1_of(t->y, lo, c, a) + l1_of(t->y, c, hi, b);
		if (cost < bestcost) {
			bestcost = cost;
			best = c;
			ml = a;
			mr = b;
		}
	}
	if (!best)
		return;
	double spread = fmax(t->noise, fmax(spread_of(t->y, lo, best, ml), spread_of(t->y, best, hi, mr)));
	if (!(fabs(mr - ml) > fmax(t->minlog, 2 * spread)))
		return;
	t->cuts[t->ncuts++] = best;
	tiers_split(t, lo, best);
	tiers_split(t, best, hi);
}

size_t stats_tiers(const double *v, size_t n, double noise, double min_rel, struct stats_tier *out, size_t max,
		   double *step)
{
	double minlog = log1p(fmax(min_rel, 0)), noiselog = noise > 0 ? log1p(noise) : 0;
	if (step)
		*step = expm1(fmax(minlog, 2 * noiselog));
	if (n == 0 || max == 0)
		return 0;
	double *y = malloc(n * sizeof(*y));
	size_t *cuts = malloc((n + 1) * sizeof(*cuts));
	if (!y || !cuts) {
		free(y);
		free(cuts);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		y[i] = v[i] > 0 ? log(v[i]) : 0;
	struct tier_cut t = { y, n, noiselog, minlog, cuts, 0 };
	tiers_split(&t, 0, n);
	qsort(cuts, t.ncuts, sizeof(*cuts), cmp_size);
	cuts[t.ncuts] = n;
	size_t nt = 0, first = 0;
	for (size_t k = 0; k <= t.ncuts && nt < max; k++) {
		out[nt].first = first;
		out[nt].last = cuts[k] - 1;
		out[nt].level = median_of(v, first, cuts[k] - 1);
		nt++;
		first = cuts[k];
	}
	free(y);
	free(cuts);
	return nt;
}

/* ---- regimes ---- */

struct seg_stats {
	double mean, ss; /* mean and sum of squared deviations */
};

/* Prefix sums of x and x^2 make every segment's statistics O(1). */
struct prefix {
	const double *sum, *sq;
};

static struct seg_stats seg_of(const struct prefix *p, size_t lo, size_t hi)
{
	struct seg_stats r;
	double n = (double)(hi - lo);
	r.mean = (p->sum[hi] - p->sum[lo]) / n;
	r.ss = (p->sq[hi] - p->sq[lo]) - n * r.mean * r.mean;
	if (r.ss < 0)
		r.ss = 0;
	return r;
}

static double seg_median(const double *x, size_t lo, size_t hi)
{
	return median_of(x, lo, hi - 1);
}

/*
 * Collect accepted split indexes of x[lo, hi) into cuts (unsorted). The cut
 * goes where the mean shift is most significant; it is kept only when the
 * medians of both sides differ (so one spike is not a regime) by min_rel and
 * by 3 noise deviations.
 */
static void regimes_split(const double *x, const struct prefix *p, size_t lo, size_t hi,
			  size_t minlen, double min_rel, double noise,
			  size_t *cuts, size_t *ncuts, size_t max)
{
	if (hi - lo < 2 * minlen || *ncuts >= max)
		return;
	size_t best = 0;
	double best_score = -1;
	for (size_t s = lo + minlen; s + minlen <= hi; s++) {
		struct seg_stats a = seg_of(p, lo, s), b = seg_of(p, s, hi);
		double n1 = (double)(s - lo), n2 = (double)(hi - s);
		double score = fabs(a.mean - b.mean) * sqrt(n1 * n2 / (n1 + n2));
		if (score > best_score) {
			best_score = score;
			best = s;
		}
	}
	double ma = seg_median(x, lo, best), mb = seg_median(x, best, hi);
	double step = fabs(ma - mb);
	if (step < min_rel * fmax(fabs(ma), fabs(mb)) || step < 3 * noise)
		return;
	/* A step is abrupt: the minlen values either side of the cut differ too (drift does not). */
	double la = seg_median(x, best - minlen, best), lb = seg_median(x, best, best + minlen);
	if (fabs(la - lb) < min_rel * fmax(fabs(la), fabs(lb)))
		return;
	cuts[(*ncuts)++] = best;
	regimes_split(x, p, lo, best, minlen, min_rel, noise, cuts, ncuts, max);
	regimes_split(x, p, best, hi, minlen, min_rel, noise, cuts, ncuts, max);
}

/* Noise level that steps barely move: from the median successive difference. */
static double noise_of(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	double *d = malloc((n - 1) * sizeof(*d));
	if (!d)
		return 0;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(x[i + 1] - x[i]);
	double m = stats_median(d, n - 1);
	free(d);
	return 1.4826 * m / sqrt(2);
}

size_t stats_regimes(const double *x, size_t n, size_t minlen, double min_rel,
		     struct stats_step *out, size_t max)
{
	if (minlen < 1)
		minlen = 1;
	if (n < 2 * minlen || max == 0)
		return 0;
	size_t *cuts = malloc(n * sizeof(*cuts));
	double *sum = malloc((n + 1) * sizeof(*sum)), *sq = malloc((n + 1) * sizeof(*sq));
	if (!cuts || !sum || !sq) {
		free(cuts);
		free(sum);
		free(sq);
		return 0;
	}
	sum[0] = sq[0] = 0;
	for (size_t i = 0; i < n; i++) {
		sum[i + 1] = sum[i] + x[i];
		sq[i + 1] = sq[i] + x[i] * x[i];
	}
	struct prefix p = { sum, sq };
	size_t nc = 0;
	regimes_split(x, &p, 0, n, minlen, min_rel, noise_of(x, n), cuts, &nc, max);
	qsort(cuts, nc, sizeof(*cuts), cmp_size);
	for (size_t i = 0; i < nc; i++) {
		size_t lo = i ? cuts[i - 1] : 0, hi = i + 1 < nc ? cuts[i + 1] : n;
		out[i].at = cuts[i];
		out[i].before = seg_median(x, lo, cuts[i]);
		out[i].after = seg_median(x, cuts[i], hi);
	}
	free(cuts);
	free(sum);
	free(sq);
	return nc;
}

/* ---- periodicity ---- */

/* y = x minus its least-squares line (a drift is no oscillation). */
static void detrend(const double *x, size_t n, double *y)
{
	double tm = (double)(n - 1) / 2, xm = 0, sxy = 0, stt = 0;
	for (size_t t = 0; t < n; t++)
		xm += x[t];
	xm /= (double)n;
	for (size_t t = 0; t < n; t++) {
		sxy += ((double)t - tm) * (x[t] - xm);
		stt += ((double)t - tm) * ((double)t - tm);
	}
	double slope = stt > 0 ? sxy / stt : 0;
	for (size_t t = 0; t < n; t++)
		y[t] = x[t] - xm - slope * ((double)t - tm);
}

/*
 * The Fourier sums of y at f cycles per series (f need not be whole):
 * *c = sum y_t cos(2 pi f t / n), *s = sum y_t sin(...). The angle is
 * advanced by a rotation, not a sin/cos per value.
 */
static void fourier(const double *y, size_t n, double f, double *c, double *s)
{
	double w = 2 * M_PI * f / (double)n, cw = cos(w), sw = sin(w);
	double re = 0, im = 0, cr = 1, ci = 0;
	for (size_t t = 0; t < n; t++) {
		re += y[t] * cr;
		im += y[t] * ci;
		double nr = cr * cw - ci * sw;
		ci = ci * cw + cr * sw;
		cr = nr;
	}
	*c = re;
	*s = im;
}

/* The periodogram ordinate of y at f cycles per series: |sum y_t e^(-2 pi i f t / n)|^2 / n. */
static double ordinate(const double *y, size_t n, double f)
{
	double c, s;
	fourier(y, n, f, &c, &s);
	return (c * c + s * s) / (double)n;
}

/* Autocorrelation of y (mean 0) at a lag that need not be whole: linear between whole lags. */
static double acf_at(const double *y, size_t n, double sumsq, double lag)
{
	size_t lo = (size_t)lag;
	double r[2];
	for (int j = 0; j < 2; j++) {
		size_t l = lo + (size_t)j;
		double acc = 0;
		for (size_t t = 0; t + l < n; t++)
			acc += y[t] * y[t + l];
		r[j] = acc / sumsq;
	}
	return r[0] + (lag - (double)lo) * (r[1] - r[0]);
}

/*
 * The frequency (cycles per series) between k - 0.5 and k + 0.5 where the
 * periodogram peaks: a grid of 0.05, then a parabola through the best
 * point and its neighbours.
 */
static double refine_peak(const double *y, size_t n, size_t k)
{
	enum { STEPS = 20 };
	double v[STEPS + 1], step = 1.0 / STEPS, lo = (double)k - 0.5;
	size_t best = 0;
	for (size_t i = 0; i <= STEPS; i++) {
		v[i] = ordinate(y, n, lo + (double)i * step);
		if (v[i] > v[best])
			best = i;
	}
	double f = lo + (double)best * step;
	if (best > 0 && best < STEPS) {
		double den = v[best - 1] - 2 * v[best] + v[best + 1];
		if (den < 0)
			f += step * 0.5 * (v[best - 1] - v[best + 1]) / den;
	}
	return f;
}

/* Amplitude of the least-squares sinusoid a cos + b sin at f cycles per series. */
static double sine_fit(const double *y, size_t n, double f)
{
	double w = 2 * M_PI * f / (double)n, cc = 0, ss = 0, cs = 0, yc = 0, ys = 0;
	for (size_t t = 0; t < n; t++) {
		double c = cos(w * (double)t), s = sin(w * (double)t);
		cc += c * c;
		ss += s * s;
		cs += c * s;
		yc += y[t] * c;
		ys += y[t] * s;
	}
	double det = cc * ss - cs * cs;
	if (!(det > 0))
		return 0;
	double a = (yc * ss - ys * cs) / det, b = (ys * cc - yc * cs) / det;
	return sqrt(a * a + b * b);
}

/* Neighbours each side of a peak that its local test compares it with (past the adjacent one). */
#define PERIOD_NEIGHBOURS 8

/*
 * The periodogram of y over k = kmin..m divided by the spectrum of an
 * AR(1) process with y's lag-1 autocorrelation (its scale cancels in g).
 * Returns the k of the largest ratio and its two p-values: *p, Fisher's
 * (the largest of m ratios against their sum), and *plocal, the ratio
 * against its neighbours (2 to PERIOD_NEIGHBOURS + 1 away: the adjacent
 * ones share the peak's leakage), F(2, 2L) distributed under a locally
 * flat background, times the m ordinates searched. A background that is
 * not AR(1) (a random walk under measurement noise bends where one
 * overtakes the other) raises a broad hump, which the global test alone
 * takes for a peak; the local test does not.
 */
static size_t red_noise_peak(const double *y, size_t n, double sumsq, size_t kmin, size_t m, double *p,
			     double *plocal)
{
	double lag1 = 0;
	for (size_t t = 0; t + 1 < n; t++)
		lag1 += y[t] * y[t + 1];
	double rho = fmax(-0.99, fmin(0.99, lag1 / sumsq));
	double *r = malloc((m + 1) * sizeof(*r));
	*p = *plocal = 1;
	if (!r)
		return 0;
	double sum = 0;
	size_t best = kmin;
	for (size_t k = 1; k <= m; k++) {
		double back = (1 - rho * rho) /
			      (1 - 2 * rho * cos(2 * M_PI * (double)k / (double)n) + rho * rho);
		r[k] = ordinate(y, n, (double)k) / back;
		if (k < kmin)
			continue;
		sum += r[k];
		if (r[k] > r[best])
			best = k;
	}
	double g = sum > 0 ? r[best] / sum : 0, mm = (double)(m - kmin + 1);
	*p = g > 0 ? fmin(1, mm * pow(1 - g, mm - 1)) : 1;
	double near = 0, l = 0;
	for (size_t d = 2; d <= PERIOD_NEIGHBOURS + 1; d++) {
		if (best > d) {
			near += r[best - d];
			l++;
		}
		if (best + d <= m) {
			near += r[best + d];
			l++;
		}
	}
	if (near > 0)
		*plocal = fmin(1, mm * pow(1 + r[best] / near, -l));
	free(r);
	return best;
}

int stats_periodic(const double *x, size_t n, double dt, struct stats_period *out)
{
	if (!x || !out || !(dt > 0) || !isfinite(dt))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->amplitude = NAN;
	out->p = 1;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	size_t kmin = STATS_PERIOD_MIN_CYCLES, m = n ? (n - 1) / 2 : 0;
	if (n < STATS_PERIOD_MIN_N || m < kmin + 1)
		return 0;
	double *y = malloc(n * sizeof(*y));
	if (!y)
		return -ENOMEM;
	memcpy(y, x, n * sizeof(*y));
	out->level = stats_median(y, n);
	detrend(x, n, y);
	double sumsq = 0, scale = 0;
	for (size_t t = 0; t < n; t++) {
		sumsq += y[t] * y[t];
		scale = fmax(scale, fabs(x[t]));
	}
	/* A flat series leaves only rounding after the detrend: no period in that. */
	if (!(sqrt(sumsq / (double)n) > 1e-9 * scale)) {
		free(y);
		return 0;
	}
	double plocal;
	size_t k = red_noise_peak(y, n, sumsq, kmin, m, &out->p, &plocal);
	if (!k) {
		free(y);
		return -ENOMEM;
	}
	out->p = fmax(out->p, plocal);
	double f = refine_peak(y, n, k);
	out->period = (double)n / f * dt;
	out->cycles = f;
	out->swing = sine_fit(y, n, f);
	out->amplitude = out->level > 0 ? out->swing / out->level : NAN;
	out->acf = acf_at(y, n, sumsq, (double)n / f);
	out->acf_half = acf_at(y, n, sumsq, (double)n / f / 2);
	free(y);
	return out->p < STATS_PERIOD_ALPHA && f >= STATS_PERIOD_MIN_CYCLES && out->acf > 0 &&
	       out->acf > out->acf_half;
}
