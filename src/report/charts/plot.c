/* report/charts/plot.c - the charts of `iobench report --plot`, each declared on the chart skeleton, and their rendering. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot.h"
#include "report/sections/basis.h"
#include "report/charts/plot_chart.h"
#include "report/charts/plot_heat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/units.h"
#include "report/charts/plot_steady.h"
#include "report/base/price.h"
#include "report/sections/groups.h"
#include "report/sections/tiers.h"
#include "report/base/stats.h"
#include "report/store/config.h"
#include "report/store/opname.h"
#include "report/store/warn.h"
#include "report/charts/html.h"

#define MAX_LINES 12      /* lines in one chart before it stops being readable */
#define MAX_TIME_LINES 20 /* the "twisty maze" tolerates more */
#define MAX_PANELS 6      /* small multiples in one chart */
/*
 * A histogram of fewer operations draws noise, not modes: one op in a bucket
 * is 5% of 20. The modes table's share threshold does not see counts.
 */
#define MIN_HIST_OPS 20

/* The earliest launch of a group's cells. */
static double group_launch(const struct rep_group *g)
{
	double first = 0;
	for (size_t k = 0; k < g->n; k++)
		if (g->cells[k]->launch > 0 && (first == 0 || g->cells[k]->launch < first))
			first = g->cells[k]->launch;
	return first;
}

/* Legend of a line whose chart title already names signature and threads. */
static void legend_of(char *buf, size_t len, const struct rep_cell *c)
{
	buf[0] = '\0';
	if (c->cfg->name[0])
		chart_append(buf, len, "%s ", c->cfg->name);
	if (c->size) {
		char sz[32];
		units_format_signature_size(sz, sizeof(sz), c->size);
		chart_append(buf, len, "size %s", sz);
	}
	if (!buf[0])
		chart_append(buf, len, "all");
}

static bool same_group(const struct rep_cell *a, const struct rep_cell *b)
{
	return a->threads == b->threads && a->size == b->size && a->cfg == b->cfg && strcmp(a->sig, b->sig) == 0;
}

static int cmp_count_desc(const void *a, const void *b, void *arg)
{
	const struct rep_group *g = arg;
	uint64_t x = g[*(const size_t *)a].total.count, y = g[*(const size_t *)b].total.count;
	return (x < y) - (x > y);
}

/* True when an earlier group j < i has the same signature and threads. */
static bool sig_threads_seen(const struct rep_group *g, size_t i)
{
	const struct rep_cell *c = g[i].cells[0];
	for (size_t j = 0; j < i; j++)
		if (g[j].cells[0]->threads == c->threads && strcmp(g[j].cells[0]->sig, c->sig) == 0)
			return true;
	return false;
}

/*
 * Whether fleet group i is worth its per-host charts: the study drew time,
 * hosts-per-level and per-instance charts at each op's optimal thread count
 * (its round two), so of a thread curve only the optimum is drawn.
 */
static bool at_optimum(const struct rep_group *g, size_t ng, size_t i, double within)
{
	size_t from = i;
	while (from > 0 && g[from - 1].cells[0]->size == g[i].cells[0]->size &&
	       g[from - 1].cells[0]->cfg == g[i].cells[0]->cfg && strcmp(g[from - 1].cells[0]->sig, g[i].cells[0]->sig) == 0)
		from--;
	size_t end;
	return rep_curve_optimum(g, ng, from, &end, within) == &g[i];
}

struct legend_line {
	size_t idx;       /* into the source groups or cells */
	char what[200];   /* its legend */
};

/* The longest legend text of lines[0..n). */
static size_t longest_of(const struct legend_line *lines, size_t n)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		m = strlen(lines[k].what) > m ? strlen(lines[k].what) : m;
	return m;
}

/*
 * Legend lines in the order of their groups (idx), which rep_groups sorted:
 * ops, configs and hosts by name, sizes and threads as numbers.
 */
static int cmp_legend(const void *a, const void *b)
{
	size_t x = ((const struct legend_line *)a)->idx, y = ((const struct legend_line *)b)->idx;
	return (x > y) - (x < y);
}

/* One histogram as percent of operations per bucket, x at the bucket's geometric middle in us. */
static void dat_hist(struct chart *ch, const struct hist *h, const char *title)
{
	chart_block(ch, title, "latency_us percent_of_ops");
	unsigned first, last;
	hist_used_range(h, &first, &last);
	for (unsigned k = first > 0 ? first - 1 : 0; k < last + 1 && k < HIST_NBUCKETS; k++)
		chart_row(ch, (const double[]){ hist_bucket_start(k) * sqrt(HIST_RATIO) / 1e3,
						h->count ? 100.0 * (double)h->buckets[k] / (double)h->count : 0 }, 2);
	chart_block_end(ch);
}

/*
 * The lines of fleet group i's latency chart into lines[0..MAX_LINES): the
 * busiest of its configs (or, of one config on many hosts, its hosts: then
 * *src is hosts and *by_host true), in name order; their count, *total of
 * how many there were. Lines of under MIN_HIST_OPS operations are left out.
 */
static size_t latency_lines(const struct rep_group *fleet, size_t nf, const struct rep_group *hosts, size_t nh,
			    size_t i, size_t *pick, struct legend_line *lines, const struct rep_group **src,
			    bool *by_host, size_t *total)
{
	const struct rep_cell *c = fleet[i].cells[0];
	size_t n = 0;
	for (size_t j = i; j < nf; j++)
		if (fleet[j].cells[0]->threads == c->threads && strcmp(fleet[j].cells[0]->sig, c->sig) == 0)
			pick[n++] = j;
	*src = fleet;
	*by_host = n == 1 && fleet[i].n > 1;
	if (*by_host) { /* one config on many hosts: a line per host */
		*src = hosts;
		n = 0;
		for (size_t j = 0; j < nh; j++)
			if (same_group(hosts[j].cells[0], c))
				pick[n++] = j;
	}
	/* a line of fewer than MIN_HIST_OPS operations would draw noise as modes */
	size_t kept = 0;
	for (size_t k = 0; k < n; k++)
		if ((*src)[pick[k]].total.count >= MIN_HIST_OPS)
			pick[kept++] = pick[k];
	n = kept;
	*total = n;
	qsort_r(pick, n, sizeof(*pick), cmp_count_desc, (void *)*src);
	if (n > MAX_LINES)
		n = MAX_LINES;
	/* the busiest lines, shown in name order */
	for (size_t k = 0; k < n; k++) {
		lines[k].idx = pick[k];
		if (*by_host)
			snprintf(lines[k].what, sizeof(lines[k].what), "%s", (*src)[pick[k]].cells[0]->host);
		else
			legend_of(lines[k].what, sizeof(lines[k].what), (*src)[pick[k]].cells[0]);
	}
	qsort(lines, n, sizeof(*lines), cmp_legend);
	return n;
}

/* Latency histograms: one chart per signature x threads, a line per config (or host). */
static void plot_latency(struct plotter *p, const struct rep_group *fleet, size_t nf,
			 const struct rep_group *hosts, size_t nh)
{
	size_t chart = 0;
	size_t *pick = calloc(nf + nh + 1, sizeof(*pick));
	struct legend_line *lines = calloc(MAX_LINES, sizeof(*lines));
	for (size_t i = 0; pick && lines && i < nf; i++) {
		const struct rep_cell *c = fleet[i].cells[0];
		if (sig_threads_seen(fleet, i) || c->watch)
			continue;
		const struct rep_group *src;
		bool by_host;
		size_t total, n = latency_lines(fleet, nf, hosts, nh, i, pick, lines, &src, &by_host, &total);
		if (n == 0)
			continue;
		char name[64], head[400], op[64];
		snprintf(name, sizeof(name), "latency-%zu", ++chart);
		rep_op_name(c->sig, op, sizeof(op));
		snprintf(head, sizeof(head), "Latency histogram: %s, %.0f thread%s%s%s%s", op, c->threads, c->threads == 1 ? "" : "s",
			 by_host && c->cfg->name[0] ? ", " : "", by_host ? c->cfg->name : "",
			 total > n ? " (busiest lines)" : "");
		struct chart ch = { .title_max = 640 };
		if (!chart_open(&ch, p, name, head, group_launch(&fleet[i]), "latency (log scale)", "share of operations (%)"))
			break;
		chart_key(&ch, n, longest_of(lines, n));
		chart_lat_tics(&ch, "x");
		fputs("set yrange [0:*]\n", ch.gp);
		for (size_t k = 0; k < n; k++) {
			dat_hist(&ch, &src[lines[k].idx].total, lines[k].what);
			chart_series(&ch, k, "1:2", "lines lw 2", lines[k].what);
		}
		chart_close(&ch);
	}
	free(pick);
	free(lines);
}

/* A statistic of a cell's per-bucket throughput (stats_median sorts a copy). */
static double cell_stat(const struct rep_cell *c, bool median)
{
	double *v = calloc(c->npts ? c->npts : 1, sizeof(*v));
	if (!v)
		return 0;
	for (size_t k = 0; k < c->npts; k++)
		v[k] = c->pts[k].ops;
	double r = median ? stats_median(v, c->npts) : stats_cv(v, c->npts);
	free(v);
	return r;
}

struct host_cv {
	const struct rep_cell *c;
	double cv;
};

static int cmp_cv_desc(const void *a, const void *b)
{
	double x = ((const struct host_cv *)a)->cv, y = ((const struct host_cv *)b)->cv;
	return (x < y) - (x > y);
}

static int cmp_host(const void *a, const void *b)
{
	return strverscmp(((const struct host_cv *)a)->c->host, ((const struct host_cv *)b)->c->host);
}

/* A host's throughput as steps: a bucket's level from its start to the next; the last one repeated at its end. */
static void time_block(struct chart *ch, const struct rep_cell *c)
{
	double med = cell_stat(c, true);
	chart_block(ch, c->host, "seconds ops_per_sec normalised_throughput");
	for (size_t t = 0; t <= c->npts; t++) {
		size_t u = t < c->npts ? t : c->npts - 1;
		double at = t < c->npts ? c->pts[t].t : 2 * c->pts[u].t - c->pts[u - 1].t;
		chart_row(ch, (const double[]){ at - c->pts[0].t, c->pts[u].ops, med > 0 ? c->pts[u].ops / med : 0 }, 3);
	}
	chart_block_end(ch);
}

/*
 * Throughput over time per host (the study's "twisty maze"): time-N in
 * absolute ops/s as the study drew it, timenorm-N each host over its own
 * median. With many hosts, the most variable ones are drawn.
 */
static void plot_time(struct plotter *p, const struct rep_group *fleet, size_t nf, double within)
{
	size_t chart = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct rep_group *g = &fleet[i];
		if (g->cells[0]->watch || !at_optimum(fleet, nf, i, within))
			continue;
		struct host_cv *hv = calloc(g->n, sizeof(*hv));
		if (!hv)
			return;
		size_t n = 0;
		for (size_t k = 0; k < g->n; k++)
			if (g->cells[k]->npts >= 2) {
				hv[n].c = g->cells[k];
				hv[n].cv = cell_stat(g->cells[k], false);
				n++;
			}
		if (n == 0) {
			free(hv);
			continue;
		}
		char more[80] = "";
		if (n > MAX_TIME_LINES) {
			qsort(hv, n, sizeof(*hv), cmp_cv_desc);
			snprintf(more, sizeof(more), " (the %d most variable of %zu hosts)", MAX_TIME_LINES, n);
			n = MAX_TIME_LINES;
		}
		qsort(hv, n, sizeof(*hv), cmp_host);
		size_t longest = 0;
		for (size_t k = 0; k < n; k++)
			longest = strlen(hv[k].c->host) > longest ? strlen(hv[k].c->host) : longest;
		++chart;
		for (int norm = 0; norm < 2; norm++) {
			char name[64], head[600], what[400];
			snprintf(name, sizeof(name), "%s-%zu", norm ? "timenorm" : "time", chart);
			chart_describe(what, sizeof(what), g->cells[0], true, true);
			snprintf(head, sizeof(head), "Throughput over time per host%s: %s%s",
				 norm ? ", over its own median" : "", what, more);
			struct chart ch = { .title_max = 700 };
			if (!chart_open(&ch, p, name, head, group_launch(g), "time since the host's first bucket (s)",
					norm ? "throughput / host median" : "operations per second")) {
				free(hv);
				return;
			}
			chart_key(&ch, n, longest);
			fputs("set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", ch.gp);
			for (size_t k = 0; k < n; k++) {
				time_block(&ch, hv[k].c);
				chart_series(&ch, k, norm ? "1:3" : "1:2", "steps lw 1.5", hv[k].c->host);
			}
			chart_close(&ch);
		}
		rep_plot_heat(p, g, chart);
		free(hv);
	}
}

/*
 * Bins of equal ratio on a log axis, as the 2012 study drew them: a host at
 * a tenth of the others sits a decade left, not crushed against zero. Ten
 * bins a decade (each 26% wide), edges at 10^(k/10): bin k of [0, *nbins)
 * from 10^((*kmin + k)/10). The hosts in each bin (calloc'd), NULL without
 * memory; *med the hosts' median ops/s.
 */
static size_t *apple_bins(const struct rep_group *g, long *kmin, size_t *nbins, double *med)
{
	double *v = calloc(g->n, sizeof(*v));
	if (!v)
		return NULL;
	double lo = INFINITY, hi = 0;
	for (size_t k = 0; k < g->n; k++) {
		v[k] = rep_cell_ops(g->cells[k]);
		lo = fmin(lo, v[k]);
		hi = fmax(hi, v[k]);
	}
	*kmin = (long)floor(log10(lo > 0 ? lo : 1) * 10);
	long kmax = (long)floor(log10(hi > 0 ? hi : 1) * 10);
	*nbins = (size_t)(kmax - *kmin + 1);
	size_t *cnt = calloc(*nbins, sizeof(*cnt));
	for (size_t k = 0; cnt && k < g->n; k++) {
		long bin = (long)floor(log10(v[k] > 0 ? v[k] : 1) * 10) - *kmin;
		cnt[bin < 0 ? 0 : (size_t)bin < *nbins ? (size_t)bin : *nbins - 1]++;
	}
	*med = stats_median(v, g->n);
	free(v);
	return cnt;
}

/*
 * The bad-apple histogram: how many hosts ran at each throughput level, one
 * chart per group of at least 3 hosts; the median marked.
 */
static void plot_apples(struct plotter *p, const struct rep_group *fleet, size_t nf, double within,
			const struct table *bad)
{
	/* the median as the bad-apple table beside the charts shows it */
	int mcol = table_col(bad, "medianOpsPerSec");
	enum tcol_type mtype = mcol >= 0 ? bad->cols[mcol].type : TC_NUM;
	int mprec = mcol >= 0 ? bad->cols[mcol].prec : 1;
	size_t chart = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct rep_group *g = &fleet[i];
		if (g->n < 3 || g->cells[0]->watch || !at_optimum(fleet, nf, i, within))
			continue;
		long kmin;
		size_t nbins, most = 0;
		double med;
		size_t *cnt = apple_bins(g, &kmin, &nbins, &med);
		if (!cnt)
			return;
		for (size_t k = 0; k < nbins; k++)
			most = cnt[k] > most ? cnt[k] : most;
		char name[64], head[600], what[400], median[80], medtext[32];
		snprintf(name, sizeof(name), "apples-%zu", ++chart);
		chart_describe(what, sizeof(what), g->cells[0], true, true);
		snprintf(head, sizeof(head), "Hosts per throughput level (bad apples sit left): %s, %zu hosts", what, g->n);
		struct chart ch = { .title_max = 700 };
		if (!chart_open(&ch, p, name, head, group_launch(g), "operations per second (whole run, per host; log scale)",
				"hosts")) {
			free(cnt);
			return;
		}
		double xlo = pow(10, (double)kmin / 10) / 1.5, xhi = pow(10, (double)(kmin + (long)nbins) / 10) * 1.5;
		/* a count every 1, 2, 5, 10... hosts: at most 10 labels up the axis */
		size_t ystep = 1;
		for (size_t decade = 1; (most + 1) / ystep > 10; decade *= 10)
			for (int k = 0; k < 3 && (most + 1) / ystep > 10; k++)
				ystep = decade * (k == 0 ? 2 : k == 1 ? 5 : 10);
		fprintf(ch.gp, "set key inside top left opaque box\nset style fill solid 0.6 border -1\n"
			       "set yrange [0:%zu]\nset ytics %zu\nset logscale x 10\nset xrange [%.6g:%.6g]\n",
			most + 1, ystep, xlo, xhi);
		chart_log_tics(&ch, "x", xlo, xhi, CHART_W - 80);
		fprintf(ch.gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead front dt 2 lw 2 lc rgb '#cc0000'\n",
			med, med);
		chart_block(&ch, NULL, "ops_per_sec_from ops_per_sec_to hosts");
		for (size_t k = 0; k < nbins; k++)
			if (cnt[k])
				chart_row(&ch, (const double[]){ pow(10, (double)(kmin + (long)k) / 10),
								 pow(10, (double)(kmin + (long)k + 1) / 10), (double)cnt[k] }, 3);
		/* a box from bin edge to bin edge: boxxyerror's x, y, xlow, xhigh, ylow, yhigh */
		chart_series(&ch, CHART_ALL, "(sqrt($1*$2)):($3/2):1:2:(0):3", "boxxyerror", "hosts");
		table_format_num(medtext, sizeof(medtext), mtype, mprec, med);
		snprintf(median, sizeof(median), "median %s ops/s", medtext);
		chart_legend(&ch, "lines dt 2 lw 2 lc rgb '#cc0000'", median);
		chart_close(&ch);
		free(cnt);
	}
}

/*
 * The time axis of a watch chart over hosts hv[0..n): a date on every tick
 * says one thing many times, so within a day the ticks are hours and the
 * date is in the axis label; over days they are days.
 */
static void watch_time_axis(struct chart *ch, const struct host_cv *hv, size_t n)
{
	double t0 = INFINITY, t1 = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t t = 0; t < hv[k].c->npts; t++) {
			t0 = fmin(t0, hv[k].c->pts[t].t);
			t1 = fmax(t1, hv[k].c->pts[t].t);
		}
	char day0[32] = "", day1[32] = "";
	chart_date(day0, sizeof(day0), t0);
	chart_date(day1, sizeof(day1), t1);
	if (strcmp(day0, day1) == 0 && t1 - t0 < 600) /* minutes: seconds on the ticks, a whole one apart */
		fprintf(ch->gp, "set xlabel 'time (UTC) on %s'\nset format x '%%H:%%M:%%S'\nset xtics %.0f\n", day0,
			fmax(1, ceil((t1 - t0) / 6)));
	else if (strcmp(day0, day1) == 0)
		fprintf(ch->gp, "set xlabel 'time (UTC) on %s'\nset format x '%%H:%%M'\n", day0);
	else if (t1 - t0 <= 3 * 86400) {
		/* hours on the ticks, each midnight a line named by its date, once */
		fprintf(ch->gp, "set xlabel 'time (UTC), %s to %s'\nset format x '%%H:%%M'\nset xtics 21600\n", day0, day1);
		for (double d = floor(t0 / 86400 + 1) * 86400; d <= t1; d += 86400) {
			char day[32];
			chart_date(day, sizeof(day), d);
			fprintf(ch->gp, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dt 3 lc rgb '#888888'\n"
					"set label '%s' at %.0f, graph 0.97 left offset 0.5, 0\n", d, d, day, d);
		}
	} else
		fprintf(ch->gp, "set xlabel 'date (UTC), %s to %s'\nset format x '%%m-%%d'\n", day0, day1);
	fputs("set xdata time\nset timefmt '%s'\nset xtics rotate by 0\n", ch->gp);
}

/* `iobench watch` data: p50 and p99 per period per host, over days. */
static void plot_watch(struct plotter *p, const struct rep_group *fleet, size_t nf)
{
	size_t chart = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct rep_group *g = &fleet[i];
		if (!g->cells[0]->watch)
			continue;
		struct host_cv *hv = calloc(g->n, sizeof(*hv));
		if (!hv)
			return;
		size_t n = 0;
		for (size_t k = 0; k < g->n; k++)
			if (g->cells[k]->npts >= 1)
				hv[n++].c = g->cells[k];
		char more[80] = "";
		if (n > MAX_LINES / 2) {
			snprintf(more, sizeof(more), " (%d of %zu hosts)", MAX_LINES / 2, n);
			n = MAX_LINES / 2;
		}
		qsort(hv, n, sizeof(*hv), cmp_host);
		if (n == 0) {
			free(hv);
			continue;
		}
		size_t longest = 0;
		for (size_t k = 0; k < n; k++)
			longest = strlen(hv[k].c->host) + 4 > longest ? strlen(hv[k].c->host) + 4 : longest;
		char name[64], head[600], what[400];
		snprintf(name, sizeof(name), "watch-%zu", ++chart);
		chart_describe(what, sizeof(what), g->cells[0], false, true);
		snprintf(head, sizeof(head), "Latency over time (iobench watch): %s, p50 solid, p99 dashed%s", what, more);
		struct chart ch = { .title_max = 700 };
		if (!chart_open(&ch, p, name, head, group_launch(g), "time (UTC)", "latency (log scale)")) {
			free(hv);
			return;
		}
		chart_key(&ch, 2 * n, longest);
		watch_time_axis(&ch, hv, n);
		chart_lat_tics(&ch, "y");
		for (size_t k = 0; k < n; k++) {
			const struct rep_cell *c = hv[k].c;
			chart_block(&ch, c->host, "unix_seconds p50_us p99_us");
			for (size_t t = 0; t < c->npts; t++) {
				fprintf(ch.dat, "%.0f ", c->pts[t].t);
				chart_row(&ch, (const double[]){ c->pts[t].p50 / 1e3, c->pts[t].p99 / 1e3 }, 2);
			}
			chart_block_end(&ch);
		}
		for (size_t k = 0; k < n; k++) {
			char l50[200], l99[200], style[64];
			snprintf(l50, sizeof(l50), "%s p50", hv[k].c->host);
			snprintf(l99, sizeof(l99), "%s p99", hv[k].c->host);
			snprintf(style, sizeof(style), "linespoints lw 2 pt 7 ps 0.5 lc %zu", k + 1);
			chart_series(&ch, k, "1:2", style, l50);
			snprintf(style, sizeof(style), "linespoints lw 2 dt 2 pt 7 ps 0.5 lc %zu", k + 1);
			chart_series(&ch, k, "1:3", style, l99);
		}
		chart_close(&ch);
		rep_plot_heat(p, g, chart);
		free(hv);
	}
}

/* End (exclusive) of the thread curve starting at g[i]: same signature, configuration and size. */
static size_t curve_end(const struct rep_group *g, size_t ng, size_t i)
{
	size_t j = i + 1;
	while (j < ng && g[j].cells[0]->size == g[i].cells[0]->size && g[j].cells[0]->cfg == g[i].cells[0]->cfg &&
	       strcmp(g[j].cells[0]->sig, g[i].cells[0]->sig) == 0)
		j++;
	return j;
}

/* The ops of the curves lines[0..n), each once in order; their count (at most MAX_PANELS). */
static size_t panel_ops(const struct rep_group *g, const struct legend_line *lines, size_t n,
			const char *ops[MAX_PANELS])
{
	size_t np = 0;
	for (size_t k = 0; k < n; k++) {
		const char *sig = g[lines[k].idx].cells[0]->sig;
		bool seen = false;
		for (size_t q = 0; q < np && !seen; q++)
			seen = strcmp(ops[q], sig) == 0;
		if (!seen && np < MAX_PANELS)
			ops[np++] = sig;
	}
	return np;
}

/* Whether op's curves among lines[0..n) span several sizes (then each legend names its size). */
static bool op_sizes_differ(const struct rep_group *g, const struct legend_line *lines, size_t n, const char *sig)
{
	uint64_t size = 0;
	bool any = false;
	for (size_t k = 0; k < n; k++) {
		const struct rep_cell *c = g[lines[k].idx].cells[0];
		if (strcmp(c->sig, sig) != 0)
			continue;
		if (any && c->size != size)
			return true;
		size = c->size;
		any = true;
	}
	return false;
}

/*
 * The thread curves (2 thread counts or more) of g[0..ng) as legend lines,
 * in order (calloc'd; NULL when none or no memory): each a config, its size,
 * its optimum. *n of them; *first the earliest launch of their groups.
 */
static struct legend_line *thread_curves(const struct rep_group *g, size_t ng, double within, size_t *n,
					 double *first)
{
	size_t ncurves = 0;
	for (size_t i = 0; i < ng;) {
		size_t j = curve_end(g, ng, i);
		ncurves += j - i >= 2 && !g[i].cells[0]->watch;
		i = j;
	}
	struct legend_line *lines = ncurves ? calloc(ncurves, sizeof(*lines)) : NULL;
	*n = 0;
	*first = 0;
	for (size_t i = 0; lines && i < ng;) {
		size_t j = curve_end(g, ng, i);
		if (j - i >= 2 && !g[i].cells[0]->watch) {
			size_t end;
			const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, within);
			const struct rep_cell *c = g[i].cells[0];
			char sz[32] = "";
			if (c->size)
				units_format_signature_size(sz, sizeof(sz), c->size);
			lines[*n].idx = i;
			/* the legend: the config, its size when the op's curves differ in it, its optimum */
			snprintf(lines[*n].what, sizeof(lines[*n].what), "%s%s%s (best %.0f)",
				 c->cfg->name[0] ? c->cfg->name : "all", sz[0] ? " " : "", sz, opt->cells[0]->threads);
			(*n)++;
			for (size_t k = i; k < j; k++) {
				double l = group_launch(&g[k]);
				*first = l > 0 && (*first == 0 || l < *first) ? l : *first;
			}
		}
		i = j;
	}
	if (lines)
		qsort(lines, *n, sizeof(*lines), cmp_legend);
	return lines;
}

/* A block per curve, in legend order: the threads table's figures by thread count, the optimum marked. */
static void threads_data(struct chart *ch, const struct rep_group *g, size_t ng, const struct legend_line *lines,
			 size_t n, double within)
{
	for (size_t k = 0; k < n; k++) {
		size_t i = lines[k].idx, end;
		const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, within);
		char op[64];
		rep_op_name(g[i].cells[0]->sig, op, sizeof(op));
		fprintf(ch->dat, "# %s ", op);
		chart_put_line(ch->dat, lines[k].what);
		fputc('\n', ch->dat);
		chart_block(ch, NULL, "threads ops_per_sec p50_us p95_us p99_us optimal");
		for (size_t x = i; x < end; x++) {
			fprintf(ch->dat, "%g", g[x].cells[0]->threads);
			/* the median host's ops/s (the one basis), the hosts' latencies */
			double v[4] = { g[x].med_ops, hist_percentile(&g[x].total, 0.5) / 1e3,
					hist_percentile(&g[x].total, 0.95) / 1e3, hist_percentile(&g[x].total, 0.99) / 1e3 };
			for (int q = 0; q < 4; q++) {
				fputc(' ', ch->dat);
				chart_num(ch, v[q]);
			}
			fprintf(ch->dat, " %d\n", &g[x] == opt);
		}
		chart_block_end(ch);
	}
}

/*
 * A panel of op: ops/s, or (lat) p50 solid, p95 dashed and p99 dotted, a
 * line per curve of op in its colour, its legend naming its size only when
 * the op's curves differ in it.
 */
static void threads_panel(struct chart *ch, const struct rep_group *g, const struct legend_line *lines, size_t n,
			  const char *sig, bool lat)
{
	char op[64], ptitle[160];
	rep_op_name(sig, op, sizeof(op));
	bool sizes = op_sizes_differ(g, lines, n, sig);
	snprintf(ptitle, sizeof(ptitle), lat ? "%s: latency" : "%s: ops/s", op);
	chart_set_text(ch, "title", ptitle);
	if (lat) {
		fputs("set ylabel 'latency (log scale)'\nset yrange [*:*]\n", ch->gp);
		chart_lat_tics(ch, "y");
	} else {
		fputs("set ylabel 'operations per second'\nunset logscale y\nset ytics autofreq\n"
		      "set format y '%g'\nset yrange [0:*]\n", ch->gp);
	}
	for (size_t k = 0, colour = 0; k < n; k++) {
		const struct rep_cell *c = g[lines[k].idx].cells[0];
		if (strcmp(c->sig, sig) != 0)
			continue;
		colour++;
		char what[200];
		snprintf(what, sizeof(what), "%s", lines[k].what);
		if (!sizes) { /* one size: the legend need not name it */
			char *sp = strstr(what, " (best");
			const char *cfg = c->cfg->name[0] ? c->cfg->name : "all";
			if (sp)
				snprintf(what, sizeof(what), "%s%s", cfg, strstr(lines[k].what, " (best"));
		}
		for (int pc = lat ? 0 : 3; pc < (lat ? 3 : 4); pc++) {
			char using[16], style[96];
			snprintf(using, sizeof(using), "1:%d", pc == 3 ? 2 : pc + 3);
			snprintf(style, sizeof(style), "linespoints lw 2 pt 7 ps 0.7 lc %zu dt %d%s", colour,
				 pc == 3 ? 1 : pc + 1, pc == 3 || pc == 0 ? "" : " notitle");
			chart_series(ch, k, using, style, pc == 3 || pc == 0 ? what : NULL);
		}
	}
	chart_plot(ch);
}

/*
 * Thread curves as small multiples: a panel per op, a line per config (and
 * size), ops/s above and p50, p95 and p99 below, so that the thread count
 * that buys throughput and the one that only buys queueing show together.
 */
static void plot_threads(struct plotter *p, const struct rep_group *g, size_t ng, const struct rep_opts *o)
{
	size_t n;
	double first;
	struct legend_line *lines = thread_curves(g, ng, o->within, &n, &first);
	if (!lines)
		return;
	const char *ops[MAX_PANELS];
	size_t np = panel_ops(g, lines, n, ops);
	/* two panels a row at most: each keeps half the widest canvas, its text full size */
	size_t cols = np < 2 ? np : 2, rows = (np + cols - 1) / cols;
	char head[200], layout[48];
	snprintf(head, sizeof(head), "Throughput and latency by thread count (best = fewest threads within %.0f%% of the "
		 "top); ops/s the median host's, bad apples left out; latency p50 solid, p95 dashed, p99 dotted",
		 o->within * 100);
	snprintf(layout, sizeof(layout), "%zu,%zu", 2 * rows, cols);
	struct chart ch = { .title_max = 400 };
	if (!chart_open_multi(&ch, p, "threads", head, first, layout)) {
		free(lines);
		return;
	}
	ch.w = cols == 1 ? CHART_W : CHART_WIDE;
	ch.h = (int)(300 * 2 * rows + 70);
	ch.legend_w = CHART_WIDE / (int)cols;
	fputs("set grid\nset logscale x 2\nset format x '%g'\nunset xlabel\nset key below\n", ch.gp);
	threads_data(&ch, g, ng, lines, n, o->within);
	/* gnuplot fills a layout row by row: the ops/s panels, then the latency panels under them */
	for (int lat = 0; lat < 2; lat++)
		for (size_t q = 0; q < rows * cols; q++) {
			if (q < np)
				threads_panel(&ch, g, lines, n, ops[q], lat);
			else
				fputs("set multiplot next\n", ch.gp);
		}
	chart_close(&ch);
	free(lines);
}

/* The five percentiles the study drew per instance. */
#define INST_NPCT 5
static const double inst_pct[INST_NPCT] = { 0.1, 0.5, 0.9, 0.99, 0.999 };
static const char *const inst_pct_name[INST_NPCT] = { "p10", "p50", "p90", "p99", "p99.9" };

struct inst_row {
	const char *host;
	double p[INST_NPCT];
};

static int cmp_inst(const void *a, const void *b)
{
	double x = ((const struct inst_row *)a)->p[1], y = ((const struct inst_row *)b)->p[1];
	return (x > y) - (x < y);
}

/* g's hosts with their percentiles, best p50 first (calloc'd, NULL without memory); *longest: the longest name. */
static struct inst_row *inst_rows(const struct rep_group *g, size_t *longest)
{
	struct inst_row *rows = calloc(g->n, sizeof(*rows));
	*longest = 0;
	for (size_t h = 0; rows && h < g->n; h++) {
		rows[h].host = g->cells[h]->host;
		*longest = strlen(rows[h].host) > *longest ? strlen(rows[h].host) : *longest;
		for (int q = 0; q < INST_NPCT; q++)
			rows[h].p[q] = hist_percentile(&g->cells[h]->total, inst_pct[q]) / 1e3;
	}
	if (rows)
		qsort(rows, g->n, sizeof(*rows), cmp_inst);
	return rows;
}

/* Per-instance percentiles, the hosts named on the axis, best p50 first ("variation across instances"). */
static void plot_instances(struct plotter *p, const struct rep_group *g, size_t ng, double within)
{
	size_t chart = 0;
	for (size_t i = 0; i < ng; i++) {
		if (g[i].n < 2 || g[i].cells[0]->watch || !at_optimum(g, ng, i, within))
			continue;
		size_t longest;
		struct inst_row *rows = inst_rows(&g[i], &longest);
		if (!rows)
			return;
		/*
		 * Names upright while they fit side by side, else slanted 45
		 * degrees, which takes 18 px a name; more names than fit so are
		 * named every so many (all are drawn).
		 */
		double plot_px = CHART_W - 90;
		bool upright = (double)g[i].n * ((double)longest * CHAR_PX + 8) <= plot_px;
		size_t every = upright ? 1 : (size_t)ceil((double)g[i].n * 18 / plot_px);
		char name[64], head[600], what[400], named[48] = "";
		snprintf(name, sizeof(name), "instances-%zu", ++chart);
		chart_describe(what, sizeof(what), g[i].cells[0], true, true);
		if (every > 1)
			snprintf(named, sizeof(named), " (one in %zu named)", every);
		snprintf(head, sizeof(head), "Variation across %zu instances, best p50 first%s: %s", g[i].n, named, what);
		struct chart ch = { .title_max = 700 };
		if (!chart_open(&ch, p, name, head, group_launch(&g[i]), "", "latency (log scale)")) {
			free(rows);
			break;
		}
		chart_key(&ch, INST_NPCT, 6);
		chart_lat_tics(&ch, "y");
		fputs("set offsets 0.5, 0.5, 0, 0\n", ch.gp);
		if (!upright) {
			/* slanted names take their length times sin 45 below the plot: the chart grows so much */
			double bmargin = fmin(ceil((double)longest * CHAR_PX * 0.71 / 15) + 2, 16); /* lines of 15 px */
			fprintf(ch.gp, "set xtics rotate by -45 left\nset bmargin %.0f\nset rmargin %.0f\n", bmargin,
				fmin(longest * 0.6 + 2, 20));
			chart_grow(&ch, (int)(bmargin * 15) - 45);
		}
		chart_block(&ch, NULL, "host p10_us p50_us p90_us p99_us p99.9_us");
		for (size_t h = 0; h < g[i].n; h++) {
			chart_label(&ch, rows[h].host, false);
			chart_row(&ch, rows[h].p, INST_NPCT);
		}
		for (int q = 0; q < INST_NPCT; q++) {
			char using[96];
			snprintf(using, sizeof(using), "0:%d", q + 2);
			if (q == 0 && every == 1)
				snprintf(using, sizeof(using), "0:%d:xtic(1)", q + 2);
			else if (q == 0)
				snprintf(using, sizeof(using), "0:%d:xtic(int($0) %% %zu == 0 ? stringcolumn(1) : '')", q + 2, every);
			chart_series(&ch, 0, using, "linespoints lw 2 pt 7 ps 0.6", inst_pct_name[q]);
		}
		free(rows);
		chart_close(&ch);
	}
}

/* File-size sweep: p50 and ops/s by size, tier boundaries as dashed lines. */
static void plot_sizes(struct plotter *p, const struct rep_group *g, size_t ng, const struct rep_opts *o)
{
	size_t *idx = calloc(ng + 1, sizeof(*idx));
	double *p50 = calloc(ng + 1, sizeof(*p50));
	struct stats_tier *tiers = calloc(ng + 1, sizeof(*tiers));
	size_t chart = 0;
	for (size_t i = 0; idx && p50 && tiers && i < ng; i++) {
		size_t n = rep_sweep_of(g, ng, i, idx);
		if (n < 3 || idx[0] != i)
			continue;
		double noise, step;
		size_t nt = rep_sweep_tiers(g, idx, n, o, p50, tiers, &noise, &step);
		char name[64], head[600], what[400];
		snprintf(name, sizeof(name), "sizes-%zu", ++chart);
		chart_describe(what, sizeof(what), g[i].cells[0], true, false);
		snprintf(head, sizeof(head), "File-size sweep, %zu tier%s: %s", nt, nt == 1 ? "" : "s", what);
		struct chart ch = { .title_max = 600 };
		if (!chart_open(&ch, p, name, head, group_launch(&g[i]), "size spanned (MiB, log scale)",
				"p50 latency (log scale)"))
			break;
		chart_key(&ch, 2, 40); /* below: the tier labels sit at the top */
		chart_lat_tics(&ch, "y");
		fputs("set logscale x 2\nset format x '%g'\n"
		      "set y2label 'operations per second (from zero)'\nset y2tics\nset format y2 '%.1s%c'\nset ytics nomirror\n"
		      "set y2range [0:*]\n", ch.gp);
		for (size_t t = 0; t + 1 < nt; t++) {
			/* boundary between the last size of a tier and the first of the next */
			double a = (double)g[idx[tiers[t].last]].cells[0]->size / 1048576.0;
			double b = (double)g[idx[tiers[t + 1].first]].cells[0]->size / 1048576.0;
			fprintf(ch.gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 2 lc rgb '#888888'\n",
				sqrt(a * b), sqrt(a * b));
		}
		for (size_t t = 0; t < nt; t++)
			fprintf(ch.gp, "set label 'tier %zu' at %.6g, graph 0.95 center\n", t + 1,
				sqrt((double)g[idx[tiers[t].first]].cells[0]->size *
				     (double)g[idx[tiers[t].last]].cells[0]->size) / 1048576.0);
		chart_block(&ch, NULL, "size_mib p50_us ops_per_sec tier");
		for (size_t k = 0, t = 0; k < n; k++) {
			while (t + 1 < nt && k > tiers[t].last)
				t++;
			chart_row(&ch, (const double[]){ (double)g[idx[k]].cells[0]->size / 1048576.0, p50[k] / 1e3,
							 g[idx[k]].ops, (double)(t + 1) }, 4);
		}
		chart_series(&ch, 0, "1:2", "linespoints lw 2 pt 7", "p50 latency (us)");
		chart_series(&ch, 0, "1:3 axes x1y2", "linespoints lw 2 pt 5", "ops/s");
		chart_close(&ch);
	}
	free(idx);
	free(p50);
	free(tiers);
}

/* A table cell's string, "" when missing or the column absent. */
static const char *cell_str(const struct table *t, size_t r, int col)
{
	const char *s = table_str(t, r, col);
	return s ? s : "";
}


/* A tick step of 1, 2 or 5 times a power of 10 that cuts [0, range] into at most n steps. */
static double nice_step(double range, int n)
{
	double unit = pow(10, floor(log10(range / n)));
	for (int k = 0; k < 3; k++) {
		double step = unit * (k == 0 ? 1 : k == 1 ? 2 : 5);
		if (range / step <= n)
			return step;
	}
	return unit * 10;
}

/* The column whose heading is head (a text-only column has no key), or -1. */
static int col_by_head(const struct table *t, const char *head)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].head && strcmp(t->cols[c].head, head) == 0)
			return (int)c;
	return -1;
}

/* The fleet group of a cost row: its op, config, size and thread count. */
static const struct rep_group *cost_group(const struct table *t, size_t r, const struct rep_group *g, size_t ng)
{
	const char *sig = table_str(t, r, table_col(t, "signature")), *cfg = table_str(t, r, table_col(t, "config"));
	double size = table_num(t, r, table_col(t, "size")), threads = table_num(t, r, table_col(t, "threads"));
	for (size_t i = 0; sig && i < ng; i++) {
		const struct rep_cell *c = g[i].cells[0];
		if (strcmp(c->sig, sig) == 0 && strcmp(c->cfg->name, cfg ? cfg : "") == 0 && c->threads == threads &&
		    (isnan(size) ? c->size == 0 : (double)c->size == size))
			return &g[i];
	}
	return NULL;
}

/*
 * A row's per-dollar figure at x ops/s instead of its own: the price holds
 * but for the per-I/O charges, which follow the rate.
 */
static double cost_at(const struct table *t, size_t r, double v, double x)
{
	double ops = table_num(t, r, table_col(t, "opsPerSec")), dph = table_num(t, r, table_col(t, "dollarsPerHour"));
	double io = table_num(t, r, table_col(t, "ioDollarsPerHour"));
	if (!(ops > 0) || !(dph > 0))
		return NAN;
	io = isnan(io) ? 0 : io;
	return v * (x / ops) * dph / (dph - io + io * x / ops);
}

/* The cost table's columns the chart reads, by key: the cost section may gain or reorder columns. */
struct cost_cols {
	int sig, op, threads, size, config, inst, opd, mbd, doubt;
	int opd_text, mbd_text; /* the figures as the table shows them */
};

/* Whether cost row r is a bar of the panel of op at size psize (NaN: any). */
static bool cost_in_panel(const struct table *t, const struct cost_cols *k, size_t r, const char *op, double psize)
{
	char rop[64];
	rep_row_op(t, r, rop, sizeof(rop));
	return strcmp(rop, op) == 0 && (table_num(t, r, k->size) == psize || isnan(psize));
}

/*
 * The panels: the cost table's ops, each once (at most MAX_PANELS), each at
 * the size with the most rows (configs) of that op, the largest of a tie.
 */
static size_t cost_panels(const struct table *t, const struct cost_cols *k, char ops[MAX_PANELS][64],
			  double psize[MAX_PANELS])
{
	size_t np = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		char op[64];
		rep_row_op(t, r, op, sizeof(op));
		bool seen = false;
		for (size_t q = 0; q < np && !seen; q++)
			seen = strcmp(ops[q], op) == 0;
		if (seen || np == MAX_PANELS)
			continue;
		size_t best = 0;
		psize[np] = NAN;
		for (size_t a = r; a < t->nrows; a++) {
			char opa[64];
			rep_row_op(t, a, opa, sizeof(opa));
			if (strcmp(opa, op) != 0)
				continue;
			size_t same = 0;
			for (size_t b = r; b < t->nrows; b++) {
				char opb[64];
				rep_row_op(t, b, opb, sizeof(opb));
				same += strcmp(opb, op) == 0 && table_num(t, b, k->size) == table_num(t, a, k->size);
			}
			if (same > best || (same == best && table_num(t, a, k->size) > psize[np])) {
				best = same;
				psize[np] = table_num(t, a, k->size);
			}
		}
		snprintf(ops[np++], sizeof(ops[0]), "%s", op);
	}
	return np;
}

/*
 * The bars of a panel as a data block, a row per config: its figure (per $,
 * and as the cost table shows it, ", not ranked" when doubted), its threads,
 * the 95% interval of its median host's figure at its price. The highest
 * figure or interval end.
 */
static double cost_bars(struct chart *ch, const struct table *t, const struct cost_cols *k, const struct rep_opts *o,
			const struct rep_group *fleet, size_t nf, const char *op, double psize, bool bulk,
			const char *ptitle)
{
	double hi_all = 0;
	chart_block(ch, ptitle, "config per_dollar per_dollar_for_people threads low_95 high_95 not_ranked");
	for (size_t r = 0; r < t->nrows; r++) {
		if (!cost_in_panel(t, k, r, op, psize))
			continue;
		double v = table_num(t, r, bulk ? k->mbd : k->opd);
		/* the figure as the cost table beside shows it: its own cell */
		char people[48];
		int text = bulk ? k->mbd_text : k->opd_text;
		if (text >= 0)
			table_format_cell(t, r, (size_t)text, people, sizeof(people));
		else
			table_format_count(people, sizeof(people), v);
		/* a figure the report doubts is drawn, marked: it is no answer (the cost table says why) */
		bool doubted = table_str(t, r, k->doubt) != NULL;
		if (doubted)
			snprintf(people + strlen(people), sizeof(people) - strlen(people), ", not ranked");
		double lo = NAN, hi = NAN;
		const struct rep_group *g = cost_group(t, r, fleet, nf);
		if (g && !isnan(v)) {
			double olo, ohi;
			rep_group_interval(g, o->rounds, o->seed, &olo, &ohi);
			lo = cost_at(t, r, v, olo);
			hi = cost_at(t, r, v, ohi);
		}
		hi_all = fmax(hi_all, fmax(isnan(v) ? 0 : v, isnan(hi) ? 0 : hi));
		chart_label(ch, cell_str(t, r, k->config)[0] ? cell_str(t, r, k->config) : cell_str(t, r, k->inst), false);
		fprintf(ch->dat, "%.0f \"%s\" %.0f ", isnan(v) ? 0 : v, people, table_num(t, r, k->threads));
		/* no interval: the bar alone, its whiskers at its end */
		fprintf(ch->dat, "%.0f %.0f %d\n", isnan(lo) ? (isnan(v) ? 0 : v) : lo,
			isnan(hi) ? (isnan(v) ? 0 : v) : hi, doubted);
	}
	chart_block_end(ch);
	return hi_all;
}

/* What every panel of the cost chart shares: bars, no key, the configs' names down the left. */
static void cost_frame(struct chart *ch, const struct table *t, const struct cost_cols *k)
{
	/* the names take the left of every panel: as wide as the longest, within reason */
	size_t longest = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *name = cell_str(t, r, k->config)[0] ? cell_str(t, r, k->config) : cell_str(t, r, k->inst);
		longest = strlen(name) > longest ? strlen(name) : longest;
	}
	double left = fmin(((double)longest * CHAR_PX + 24) / CHART_W, 0.45);
	fputs("set grid xtics\nset style fill solid 0.7 border -1\nset key off\nset ytics scale 0\n"
	      "set format x '%.0s%c'\nunset ylabel\nset xtics nomirror\nset ytics nomirror\n", ch->gp);
	fprintf(ch->gp, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n", left, 1 - 24.0 / CHART_W);
}

/*
 * Operations (or MB, for bulk ops) per dollar: a panel per op, one bar per
 * config at its optimal thread count, named by its config, with the 95%
 * interval of its figure (the median host's, as the summary's: basis.h) at
 * its price. Of a size sweep, the size most configs ran (the largest of a
 * tie): the bars compare configs. A figure the report doubts is drawn grey,
 * "not ranked". Bars lie down, the configs named on the left, however long.
 */
static void plot_cost(struct plotter *p, const struct table *t, const struct rep_opts *o,
		      const struct rep_group *fleet, size_t nf)
{
	const struct cost_cols k = {
		table_col(t, "signature"), table_col(t, "op"), table_col(t, "threads"), table_col(t, "size"),
		table_col(t, "config"), table_col(t, "instance"), table_col(t, "opsPerDollar"),
		table_col(t, "mbPerDollar"), table_col(t, "doubt"), col_by_head(t, "ops per $"), col_by_head(t, "MB per $"),
	};
	if (t->nrows == 0 || (k.sig < 0 && k.op < 0) || k.config < 0 || k.opd < 0)
		return;
	char ops[MAX_PANELS][64], head[300];
	double psize[MAX_PANELS];
	size_t np = cost_panels(t, &k, ops, psize);
	snprintf(head, sizeof(head), "Per dollar, each config at its optimal thread count: the median host's figure "
		 "with its 95%% interval (prices of %s)", o->prices->date ? o->prices->date : "unknown date");
	struct chart ch = { .title_max = 500 };
	if (!chart_open_multi(&ch, p, "cost", head, p->launch, NULL))
		return;
	cost_frame(&ch, t, &k);
	/* each panel's place on the canvas, top down, in px: a title line, 24 px a bar, an axis */
	double top = 14.0 * (double)chart_title_lines(&ch) + 20, bar_px = 24, axis_px = 44, ptitle_px = 26;
	double height = top;
	size_t nbars[MAX_PANELS];
	bool bulk[MAX_PANELS];
	for (size_t q = 0; q < np; q++) {
		nbars[q] = 0;
		bulk[q] = false;
		for (size_t r = 0; r < t->nrows; r++)
			if (cost_in_panel(t, &k, r, ops[q], psize[q])) {
				bulk[q] |= !isnan(table_num(t, r, k.mbd));
				nbars[q]++;
			}
		height += ptitle_px + bar_px * (double)(nbars[q] + 1) + axis_px;
	}
	ch.h = (int)ceil(height);
	double y = top;
	for (size_t q = 0; q < np; q++) {
		char sz[32] = "", ptitle[200];
		if (psize[q] > 0)
			units_format_signature_size(sz, sizeof(sz), (uint64_t)psize[q]);
		snprintf(ptitle, sizeof(ptitle), "%s%s%s: %s per $", ops[q], sz[0] ? " @" : "", sz,
			 bulk[q] ? "MB" : "operations");
		double hi_all = cost_bars(&ch, t, &k, o, fleet, nf, ops[q], psize[q], bulk[q], ptitle);
		double ph = ptitle_px + bar_px * (double)(nbars[q] + 1) + axis_px;
		chart_panel_at(&ch, y + ptitle_px, y + ph - axis_px);
		y += ph;
		chart_set_text(&ch, "title", ptitle);
		/* room right of the longest bar for its figure ("113.3M, not ranked") */
		double xmax = hi_all > 0 ? hi_all * 1.45 : 1;
		fprintf(ch.gp, "set xrange [0:%.6g]\nset xtics %.6g\nset yrange [%zu.6:-0.6]\n", xmax,
			nice_step(xmax, 5), nbars[q] - 1);
		chart_series(&ch, q, "($2/2):0:(0):2:($0-0.3):($0+0.3):($7 > 0 ? 0xbbbbbb : 0x5b7fc7):ytic(1)",
			     "boxxyerror lc rgb variable", NULL);
		chart_series(&ch, q, "2:0:5:6", "xerrorbars pt -1 lw 1.5 lc rgb '#222222'", NULL);
		chart_series(&ch, q, "6:0:3", "labels left offset 0.8,0", NULL);
		chart_plot(&ch);
	}
	chart_close(&ch);
}

/* Colours of a comparison's point: B better, B worse, no difference (an interval over 1.0, or none). */
#define CMP_BETTER 0x1a9641
#define CMP_WORSE 0xd7191c
#define CMP_SAME 0x888888

/* Whether a compare row's metric is a throughput (higher is better), not a latency (lower is). */
static bool higher_is_better(const char *metric)
{
	return strcmp(metric, "ops/s") == 0 || strcmp(metric, "MB/s") == 0;
}

/*
 * Ticks of a ratio axis (log 2) over [lo, hi], which holds 1: powers of 2,
 * every so many so that at most 7 are named, read as people say them
 * ("1/64x", "1/2x", "1x", "4x"); the range set to the outer ticks.
 */
static void gp_ratio_tics(FILE *f, double lo, double hi)
{
	int k0 = (int)floor(log2(lo)), k1 = (int)ceil(log2(hi));
	k0 = k0 > 0 ? 0 : k0;
	k1 = k1 < 0 ? 0 : k1;
	if (k1 - k0 < 2) { /* a narrow range: a tick each side of 1 */
		k0 = k0 > -1 ? -1 : k0;
		k1 = k1 < 1 ? 1 : k1;
	}
	int step = (k1 - k0 + 5) / 6;
	fprintf(f, "set logscale x 2\nset xrange [%.10g:%.10g]\nset xtics (", pow(2, k0), pow(2, k1));
	/* every step-th power from 1x, so that 1x is named */
	bool first = true;
	for (int k = k0; k <= k1; k++) {
		if (k % step != 0)
			continue;
		if (k >= 0)
			fprintf(f, "%s'%.0fx' %.10g", first ? "" : ", ", pow(2, k), pow(2, k));
		else
			fprintf(f, "%s'1/%.0fx' %.10g", first ? "" : ", ", pow(2, -k), pow(2, k));
		first = false;
	}
	fputs(")\nset mxtics default\n", f);
}

/* The compare table's columns the chart reads. */
struct compare_cols {
	int metric, a, b, ratio, low, high;
};

/*
 * The compare rows as data: block 0 the throughputs, block 1 the latencies,
 * a row each (its label, its colour, the table's figure, B/A and its
 * interval). Labels fit the left of the canvas: a longer one takes two lines
 * at " vs " (*lines 2) or is cut; *longest the longest line of a label.
 */
static void compare_data(struct chart *ch, const struct table *t, const struct compare_cols *k, bool one_pair,
			 size_t *lines, size_t *longest)
{
	size_t label_chars = (size_t)((0.45 * CHART_W - 24) / CHAR_PX);
	*lines = 1;
	*longest = 0;
	chart_block(ch, NULL, "label colour ratio_as_in_the_table ratio_b_over_a low_95 high_95 differs");
	for (int panel = 0; panel < 2; panel++) {
		chart_block(ch, panel ? "latency: lower is better" : "throughput: higher is better", NULL);
		for (size_t r = 0; r < t->nrows; r++) {
			double v = table_num(t, r, k->ratio), l = table_num(t, r, k->low), h = table_num(t, r, k->high);
			if (isnan(v) || v <= 0 || higher_is_better(cell_str(t, r, k->metric)) == (panel == 1))
				continue;
			char op[64], label[300], shown[32];
			rep_row_op(t, r, op, sizeof(op));
			snprintf(label, sizeof(label), "%s%s%s%s%s %s", one_pair ? "" : cell_str(t, r, k->b),
				 one_pair ? "" : " vs ", one_pair ? "" : cell_str(t, r, k->a), one_pair ? "" : ": ", op,
				 cell_str(t, r, k->metric));
			chart_flatten(label);
			if (strlen(label) > label_chars) {
				char *vs = strstr(label, " vs ");
				if (vs && (size_t)(vs - label) <= label_chars) {
					vs[0] = '\n';
					*lines = 2;
				} else {
					label[label_chars - 3] = '\0';
					strcat(label, "...");
				}
			}
			for (char *line = label; *line;) {
				size_t len = strcspn(line, "\n");
				*longest = len > *longest ? len : *longest;
				line += len + (line[len] == '\n');
			}
			bool differs = !isnan(l) && !isnan(h) && (l > 1 || h < 1);
			bool better = differs && (panel == 0 ? l > 1 : h < 1);
			table_format_cell(t, r, (size_t)k->ratio, shown, sizeof(shown));
			chart_label(ch, label, true);
			fprintf(ch->dat, "%d \"%s\" %.3f %.3f %.3f %d\n", differs ? better ? CMP_BETTER : CMP_WORSE : CMP_SAME,
				shown, v, isnan(l) ? v : l, isnan(h) ? v : h, differs);
		}
		chart_block_end(ch);
	}
}

/* What both panels share: the labels (longest characters) down the left, the ratio axis over [lo, hi] and more. */
static void compare_frame(struct chart *ch, size_t longest, double lo, double hi)
{
	fputs("set grid xtics\nset key off\nset ytics scale 0 nomirror\nset xtics nomirror\nunset ylabel\n", ch->gp);
	fprintf(ch->gp, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n",
		fmin(((double)longest * CHAR_PX + 20) / CHART_W, 0.5), 1 - 20.0 / CHART_W);
	gp_ratio_tics(ch->gp, lo / 1.1, hi * 1.1);
}

/* The legend: three marks and what they say, one line, y px from the canvas' top. */
static void compare_legend(struct chart *ch, double y)
{
	static const struct { int rgb; const char *what; } legend[] = {
		{ CMP_BETTER, "B better" }, { CMP_WORSE, "B worse" }, { CMP_SAME, "no difference (interval holds 1x) or no interval" },
	};
	double x = 20;
	for (size_t k = 0; k < sizeof(legend) / sizeof(legend[0]); k++) {
		fprintf(ch->gp, "set label %zu '%s' at screen %.4f, %.4f left point pt 7 ps 1.2 lc rgb '#%06x' offset 1.2,0\n",
			k + 1, legend[k].what, x / CHART_W, 1 - y / ch->h, legend[k].rgb);
		x += (double)strlen(legend[k].what) * CHAR_PX + 44;
	}
}

/*
 * The compare section as a chart: B/A per op and metric with its 95%
 * interval, 1.0 (no difference) marked, a panel for throughput (higher is
 * better) over one for latency (lower is better); a point green where B is
 * better, red where worse, grey where the interval holds 1.0 (or there is
 * none), as the legend says. Log scale: 2x and 1/2x sit as far from 1x. The
 * figure by each point is the table's cell.
 */
static void plot_compare(struct plotter *p, const struct table *t)
{
	int sig = table_col(t, "signature"), opc = table_col(t, "op");
	const struct compare_cols k = { table_col(t, "metric"), table_col(t, "a"), table_col(t, "b"),
					table_col(t, "ratio"), table_col(t, "low"), table_col(t, "high") };
	if (t->nrows == 0 || (sig < 0 && opc < 0) || k.ratio < 0 || k.low < 0 || k.high < 0)
		return;
	/* one pair of sides names itself in the title; several, in each label */
	bool one_pair = true;
	size_t n[2] = { 0, 0 }, first = SIZE_MAX;
	double lo = 1, hi = 1;
	for (size_t r = 0; r < t->nrows; r++) {
		double v[3] = { table_num(t, r, k.ratio), table_num(t, r, k.low), table_num(t, r, k.high) };
		if (isnan(v[0]) || v[0] <= 0)
			continue;
		first = first == SIZE_MAX ? r : first;
		one_pair &= strcmp(cell_str(t, r, k.a), cell_str(t, first, k.a)) == 0 &&
			    strcmp(cell_str(t, r, k.b), cell_str(t, first, k.b)) == 0;
		n[!higher_is_better(cell_str(t, r, k.metric))]++;
		for (int q = 0; q < 3; q++)
			if (!isnan(v[q]) && v[q] > 0) {
				lo = fmin(lo, v[q]);
				hi = fmax(hi, v[q]);
			}
	}
	if (n[0] + n[1] == 0)
		return;
	char head[600];
	if (one_pair)
		snprintf(head, sizeof(head), "B/A per op with its 95%% interval, B = %s, A = %s", cell_str(t, first, k.b),
			 cell_str(t, first, k.a));
	else
		snprintf(head, sizeof(head), "B/A per op with its 95%% interval");
	struct chart ch = { .title_max = 800 };
	if (!chart_open_multi(&ch, p, "compare", head, p->launch, NULL))
		return;
	size_t lines, longest;
	compare_data(&ch, t, &k, one_pair, &lines, &longest);
	/* the canvas top down, in px: the title, the legend's line, each panel (its title, rows, axis) */
	double row_px = lines == 2 ? 32 : 24, ptitle_px = 26, axis_px = 40;
	double top = 14.0 * (double)chart_title_lines(&ch) + 12, legend_px = 26;
	ch.h = (int)ceil(top + legend_px + (n[0] ? ptitle_px + row_px * (double)(n[0] + 1) + axis_px : 0) +
			 (n[1] ? ptitle_px + row_px * (double)(n[1] + 1) + axis_px : 0) + 16);
	compare_frame(&ch, longest, lo, hi);
	compare_legend(&ch, top + legend_px / 2);
	double y = top + legend_px;
	for (int panel = 0; panel < 2; panel++) {
		if (!n[panel])
			continue;
		double ph = ptitle_px + row_px * (double)(n[panel] + 1) + axis_px;
		chart_panel_at(&ch, y + ptitle_px, y + ph - axis_px);
		y += ph;
		chart_set_text(&ch, "title", panel ? "latency (p50, p99): lower is better, B faster left of 1x"
						   : "throughput: higher is better, B faster right of 1x");
		fprintf(ch.gp, "set yrange [%zu.5:-0.5]\n", n[panel] - 1);
		fputs("set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb '#555555'\n", ch.gp);
		chart_series(&ch, (size_t)panel, "4:0:5:6:2:ytic(1)", "xerrorbars pt 7 ps 1.3 lw 2 lc rgb variable", NULL);
		chart_series(&ch, (size_t)panel, "4:0:3", "labels offset 0,0.85", NULL);
		chart_plot(&ch);
		if (panel == 0)
			fputs("unset label\n", ch.gp);
	}
	chart_close(&ch);
}

/*
 * gnuplot's SVG escapes '<' and '&' in text but not the '>' of "]]>", which
 * XML forbids in text: a label holding it made the standalone SVG
 * malformed. Rewrite NAME.svg with each "]]>" outside a CDATA section as
 * "]]&gt;". 0, or -errno when it cannot be read or written.
 */
static int svg_fix(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	char *buf = NULL, *out = NULL;
	size_t len = 0, olen = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[65536];
	for (size_t n; m && (n = fread(chunk, 1, sizeof(chunk), f)) > 0;)
		fwrite(chunk, 1, n, m);
	int rc = ferror(f) || !m ? -EIO : 0;
	fclose(f);
	if (m && fclose(m) != 0)
		rc = -ENOMEM;
	FILE *o = rc == 0 ? open_memstream(&out, &olen) : NULL;
	bool changed = false;
	for (size_t i = 0; o && i < len;) {
		if (strncmp(buf + i, "<![CDATA[", 9) == 0) {
			const char *end = strstr(buf + i + 9, "]]>");
			size_t n = end ? (size_t)(end - (buf + i)) + 3 : len - i;
			fwrite(buf + i, 1, n, o);
			i += n;
		} else if (strncmp(buf + i, "]]>", 3) == 0) {
			fputs("]]&gt;", o);
			changed = true;
			i += 3;
		} else {
			fputc(buf[i++], o);
		}
	}
	if (o && fclose(o) != 0)
		rc = -ENOMEM;
	if (rc == 0 && changed) {
		f = fopen(path, "w");
		if (!f || fwrite(out, 1, olen, f) != olen)
			rc = -errno;
		if (f && fclose(f) != 0 && rc == 0)
			rc = -errno;
	}
	free(buf);
	free(out);
	return rc;
}

/* Run gnuplot on NAME.gp inside the plot folder; 0 when NAME.png came out non-empty. */
static int render(const char *dir, const char *name)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* gnuplot dies with the report: a killed report must not leave it writing into DIR. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(126);
		char script[256];
		snprintf(script, sizeof(script), "%s.gp", name);
		if (chdir(dir) != 0)
			_exit(126);
		/* gnuplot's warnings (e.g. a flat autoscaled range) go to a log, not the terminal. */
		int log = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (log >= 0) {
			dup2(log, 2);
			close(log);
		}
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st))
		return -EIO;
	if (WEXITSTATUS(st) == 127)
		return -ENOENT;
	if (WEXITSTATUS(st) != 0)
		return -EIO;
	char png[4096];
	struct stat sb;
	snprintf(png, sizeof(png), "%s/%s.png", dir, name);
	if (stat(png, &sb) != 0 || sb.st_size == 0)
		return -EIO;
	return svg_fix(dir, name);
}

/* "run r1" or "runs r1, r2, ...": the fleets' manifests, else the runs' runId notes. */
static void run_context(char *buf, size_t len, const struct rep_db *db)
{
	char ids[4][48];
	size_t n = 0, more = 0;
	for (size_t i = 0; i < db->nfleet + db->nnotes; i++) {
		char id[48];
		if (i < db->nfleet) {
			if (!db->fleet[i].run || !db->fleet[i].run[0])
				continue;
			snprintf(id, sizeof(id), "%s", db->fleet[i].run);
		} else if (!rep_label_value(db->notes[i - db->nfleet].notes, "runId", id, sizeof(id)) &&
			   !rep_label_value(db->notes[i - db->nfleet].notes, "run", id, sizeof(id))) {
			continue;
		}
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(ids[k], id) == 0;
		if (seen)
			continue;
		if (n < 4)
			snprintf(ids[n++], sizeof(ids[0]), "%s", id);
		else
			more = 1;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < n; k++)
		chart_append(buf, len, "%s%s", k ? ", " : n > 1 ? "runs " : "run ", ids[k]);
	if (more)
		chart_append(buf, len, ", ...");
}

int rep_plot_check(void)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	char file[4096];
	for (const char *dir = path;; dir++) {
		size_t len = strcspn(dir, ":");
		/* an empty PATH entry is the current folder, as execlp takes it */
		snprintf(file, sizeof(file), "%.*s%sgnuplot", (int)len, len ? dir : ".", "/");
		if (access(file, X_OK) == 0)
			return 0;
		dir += len;
		if (!*dir)
			break;
	}
	return -ENOENT;
}


#define MAX_MEMBER_CHARTS 8

/* A devices row's run: the one whose host, ops, threads and size it names. */
static bool devrun_of_row(const struct rep_devrun *r, const struct table *t, size_t row)
{
	return strcmp(r->host, cell_str(t, row, table_col(t, "host"))) == 0 &&
	       strcmp(r->ops, cell_str(t, row, table_col(t, "op"))) == 0 &&
	       r->threads == table_num(t, row, table_col(t, "threads")) &&
	       (double)r->size == table_num(t, row, table_col(t, "size")) &&
	       strcmp(r->cfg->name, cell_str(t, row, table_col(t, "config"))) == 0;
}

/*
 * Member's await per bucket as a data block, over the runs of devices row k:
 * time from the first of them, the bucket's reads' and writes' await
 * weighted by their counts; buckets without I/O left out.
 */
static void member_block(struct chart *ch, const struct rep_db *db, const struct table *t, size_t k,
			 const char *member)
{
	chart_block(ch, member, "seconds await_ms");
	double t0 = 0;
	bool have_t0 = false;
	for (size_t i = 0; i < db->ndevruns; i++) {
		const struct rep_devrun *run = &db->devruns[i];
		if (!devrun_of_row(run, t, k))
			continue;
		if (!have_t0 || run->launch < t0)
			t0 = run->launch;
		have_t0 = true;
	}
	for (size_t i = 0; i < db->ndevruns; i++) {
		const struct rep_devrun *run = &db->devruns[i];
		if (!devrun_of_row(run, t, k))
			continue;
		for (size_t d = 0; d < run->ndevs; d++) {
			const struct rep_dev *dev = &run->devs[d];
			if (strcmp(dev->name, member) != 0)
				continue;
			for (size_t b = 0; b < dev->nbuckets; b++) {
				const struct rep_dev_stat *st = &dev->buckets[b];
				double rd = isfinite(st->reads) ? st->reads : 0, wr = isfinite(st->writes) ? st->writes : 0;
				if (!(rd + wr > 0))
					continue;
				double aw = (rd * (isfinite(st->r_await) ? st->r_await : 0) +
					     wr * (isfinite(st->w_await) ? st->w_await : 0)) / (rd + wr);
				chart_row(ch, (const double[]){ run->launch - t0 + ((double)b + 0.5) * (run->bucket > 0 ? run->bucket : 1),
								aw }, 2);
			}
		}
	}
	chart_block_end(ch);
}

/*
 * Whether devices row r starts an array's chart (the array's first row of
 * its host, op, threads and size); *end: past the array's rows of its host,
 * *slow whether one of them is a slow member.
 */
static bool member_array(const struct table *t, size_t r, size_t *end, bool *slow)
{
	int arr = table_col(t, "array"), host = table_col(t, "host"), scol = table_col(t, "slow");
	for (size_t q = 0; q < r; q++)
		if (strcmp(cell_str(t, q, arr), cell_str(t, r, arr)) == 0 &&
		    strcmp(cell_str(t, q, host), cell_str(t, r, host)) == 0 &&
		    strcmp(cell_str(t, q, table_col(t, "op")), cell_str(t, r, table_col(t, "op"))) == 0 &&
		    table_num(t, q, table_col(t, "threads")) == table_num(t, r, table_col(t, "threads")) &&
		    table_num(t, q, table_col(t, "size")) == table_num(t, r, table_col(t, "size")))
			return false;
	*end = r + 1;
	*slow = table_num(t, r, scol) > 0;
	while (*end < t->nrows && strcmp(cell_str(t, *end, arr), cell_str(t, r, arr)) == 0 &&
	       strcmp(cell_str(t, *end, host), cell_str(t, r, host)) == 0) {
		*slow |= table_num(t, *end, scol) > 0;
		(*end)++;
	}
	return true;
}

/*
 * Each array's members' await over time, a line per member: the arrays with
 * a slow member (else the first), at most MAX_MEMBER_CHARTS.
 */
static void plot_members(struct plotter *p, const struct rep_db *db, const struct table *t)
{
	int slow = table_col(t, "slow"), arr = table_col(t, "array"), mem = table_col(t, "member");
	bool any_slow = false;
	for (size_t r = 0; r < t->nrows; r++)
		any_slow |= table_num(t, r, slow) > 0;
	size_t chart = 0;
	for (size_t r = 0; r < t->nrows && chart < MAX_MEMBER_CHARTS; r++) {
		size_t end;
		bool has_slow;
		if (!member_array(t, r, &end, &has_slow) || (any_slow ? !has_slow : chart > 0))
			continue;
		char name[64], head[600];
		snprintf(name, sizeof(name), "members-%zu", ++chart);
		snprintf(head, sizeof(head), "Await per member of %s on %s: %s, %.0f threads", cell_str(t, r, arr),
			 cell_str(t, r, table_col(t, "host")), cell_str(t, r, table_col(t, "op")),
			 table_num(t, r, table_col(t, "threads")));
		struct chart ch = { .title_max = 700 };
		if (!chart_open(&ch, p, name, head, 0, "time since the first run's start (s)", "await per completed I/O (ms)"))
			return;
		size_t longest = 0;
		for (size_t k = r; k < end; k++)
			longest = strlen(cell_str(t, k, mem)) > longest ? strlen(cell_str(t, k, mem)) : longest;
		chart_key(&ch, end - r, longest);
		fputs("set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", ch.gp);
		for (size_t k = r; k < end; k++) {
			member_block(&ch, db, t, k, cell_str(t, k, mem));
			chart_series(&ch, k - r, "1:2", "linespoints lw 1.5 pt 7 ps 0.6", cell_str(t, k, mem));
		}
		chart_close(&ch);
	}
}

int rep_plot(const struct rep_db *db, const struct rep_opts *o,
	     const struct table tables[SEC_COUNT], const char *dir, size_t *charts)
{
	*charts = SIZE_MAX;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		rep_say(db->warn, db->warn_arg, "%s: cannot create the plot folder: %s", dir, strerror(errno));
		return -1;
	}
	/*
	 * gnuplot writes the PNG and SVG by name, following links: in a folder
	 * someone else may write, they could point those at any file of ours.
	 */
	struct stat sd;
	if (lstat(dir, &sd) != 0 || !S_ISDIR(sd.st_mode) || sd.st_uid != geteuid() || (sd.st_mode & S_IWOTH)) {
		rep_say(db->warn, db->warn_arg, "--plot %s: %s; give a folder of this user's that others cannot write "
			  "(a new name is created)", dir, lstat(dir, &sd) != 0 ? strerror(errno) :
			!S_ISDIR(sd.st_mode) ? "not a folder (a link or a file)" :
			sd.st_uid != geteuid() ? "owned by another user" : "writable by other users");
		return -1;
	}
	struct plotter p = { .dir = dir, .warn = db->warn, .warn_arg = db->warn_arg };
	run_context(p.run, sizeof(p.run), db);
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->launch > 0 && (p.launch == 0 || db->cells[i]->launch < p.launch))
			p.launch = db->cells[i]->launch;
	struct rep_group *fleet, *hosts;
	size_t nf = rep_groups(db, false, &fleet);
	size_t nh = rep_groups(db, true, &hosts);
	struct rep_apples apples; /* the report's basis: the same optima as its tables */
	rep_apples_judge(&apples, fleet, nf);
	plot_latency(&p, fleet, nf, hosts, nh);
	plot_time(&p, fleet, nf, o->within);
	plot_apples(&p, fleet, nf, o->within, &tables[SEC_BAD_APPLES]);
	plot_threads(&p, fleet, nf, o);
	plot_instances(&p, fleet, nf, o->within);
	plot_sizes(&p, fleet, nf, o);
	plot_watch(&p, fleet, nf);
	plot_cost(&p, &tables[SEC_COST], o, fleet, nf);
	plot_compare(&p, &tables[SEC_COMPARE]);
	plot_members(&p, db, &tables[SEC_DEVICES]);
	rep_plot_steady(&p, db); /* the PTS chart of each run in rounds (report/charts/plot_steady.c) */
	rep_groups_free(fleet, nf);
	rep_groups_free(hosts, nh);
	rep_apples_free(&apples);
	int rc = p.failed ? -1 : 0;
	for (size_t i = 0; i < p.n; i++) {
		int r = rc == 0 || rc == -1 ? render(dir, p.names[i]) : 0;
		if (r == -ENOENT) {
			rep_say(p.warn, p.warn_arg, "gnuplot not found; scripts are in %s; install gnuplot-nox "
				  "(Debian) to render PNG and SVG", dir);
			rc = -ENOENT;
		} else if (r != 0 && rc != -ENOENT) {
			rep_say(p.warn, p.warn_arg, "%s/%s.gp: gnuplot failed to render it; see %s/gnuplot.log",
				  dir, p.names[i], dir);
			rc = -1;
		}
	}
	int h = rep_html(db, tables, dir, (const char *const *)p.names, (const char *const *)p.titles, p.n);
	if (h != 0) {
		rep_say(p.warn, p.warn_arg, "%s/index.html: %s", dir, strerror(-h));
		rc = -1;
	} else {
		*charts = p.n;
	}
	for (size_t i = 0; i < p.n; i++) {
		free(p.names[i]);
		free(p.titles[i]);
	}
	free(p.names);
	free(p.titles);
	return rc ? -1 : 0;
}
