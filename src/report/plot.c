/* report/plot.c - gnuplot scripts, data and rendering for `iobench report --plot`. */
#include "report_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_stats.h"
#include "units.h"

#define MAX_LINES 12      /* lines in one chart before it stops being readable */
#define MAX_TIME_LINES 20 /* the "twisty maze" tolerates more */

struct plotter {
	const char *dir;
	char **names; /* charts written, rendered at the end */
	size_t n, cap;
	int failed;
};

static FILE *plot_open(struct plotter *p, const char *name, const char *ext)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.%s", p->dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "iobench: %s: %s\n", path, strerror(errno));
		p->failed = 1;
	}
	return f;
}

static void plot_done(struct plotter *p, const char *name)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		char **q = realloc(p->names, p->cap * sizeof(*q));
		if (!q) {
			p->failed = 1;
			return;
		}
		p->names = q;
	}
	p->names[p->n] = strdup(name);
	if (p->names[p->n])
		p->n++;
}

/* A gnuplot double-quoted string. */
static void gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Common head: PNG first, the caller plots, gp_tail() re-plots as SVG. */
static void gp_head(FILE *f, const char *name, const char *title, const char *xlabel,
		    const char *ylabel)
{
	fprintf(f, "# %s.gp - written by iobench report; run: gnuplot %s.gp\n", name, name);
	fprintf(f, "reset\nset encoding utf8\n");
	fprintf(f, "set terminal pngcairo noenhanced size 1100,650 font 'sans,10'\n");
	fprintf(f, "set output '%s.png'\n", name);
	fputs("set title ", f);
	gp_str(f, title);
	fputs("\nset xlabel ", f);
	gp_str(f, xlabel);
	fputs("\nset ylabel ", f);
	gp_str(f, ylabel);
	fputs("\nset grid\nset key outside right top vertical\n", f);
}

static void gp_tail(FILE *f, const char *name)
{
	fprintf(f, "set terminal svg noenhanced size 1100,650 dynamic font 'sans,10'\n");
	fprintf(f, "set output '%s.svg'\nreplot\nunset output\n", name);
}

/* Append to buf (NUL-terminated, len bytes) without overflowing. */
__attribute__((format(printf, 3, 4)))
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* "read,4K,4K, 8 threads m5.large / gp3 x4 size 1G" for titles and legends. */
static void describe(char *buf, size_t len, const struct rep_cell *c, bool with_threads,
		     bool with_size)
{
	buf[0] = '\0';
	append(buf, len, "%s", c->sig);
	if (with_threads)
		append(buf, len, ", %.0f threads", c->threads);
	if (c->cfg->name[0])
		append(buf, len, " %s", c->cfg->name);
	if (with_size && c->size) {
		char sz[32];
		units_format_signature_size(sz, sizeof(sz), c->size);
		append(buf, len, " size %s", sz);
	}
}

/* Legend of a line whose chart title already names signature and threads. */
static void legend_of(char *buf, size_t len, const struct rep_cell *c)
{
	buf[0] = '\0';
	if (c->cfg->name[0])
		append(buf, len, "%s ", c->cfg->name);
	if (c->size) {
		char sz[32];
		units_format_signature_size(sz, sizeof(sz), c->size);
		append(buf, len, "size %s", sz);
	}
	if (!buf[0])
		append(buf, len, "all");
}

/* One line of a plot command: the first names the data file, the others reuse it. */
static void gp_line(FILE *f, const char *name, bool first, size_t k, const char *using,
		    const char *style, const char *title, bool last)
{
	if (first)
		fprintf(f, "plot '%s.dat'", name);
	else
		fputs("     ''", f);
	fprintf(f, " index %zu using %s with %s title ", k, using, style);
	gp_str(f, title);
	fputs(last ? "\n" : ", \\\n", f);
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

/* One histogram as percent of operations per bucket, x at the bucket's geometric middle in us. */
static void dat_hist(FILE *f, const struct hist *h, const char *title)
{
	fprintf(f, "# %s\n# latency_us percent_of_ops\n", title);
	unsigned first = 0, last = HIST_NBUCKETS;
	while (first < HIST_NBUCKETS && h->buckets[first] == 0)
		first++;
	while (last > first && h->buckets[last - 1] == 0)
		last--;
	for (unsigned k = first > 0 ? first - 1 : 0; k < last + 1 && k < HIST_NBUCKETS; k++)
		fprintf(f, "%.6g %.6g\n", hist_bucket_start(k) * sqrt(HIST_RATIO) / 1e3,
			h->count ? 100.0 * (double)h->buckets[k] / (double)h->count : 0);
	fputs("\n\n", f);
}

static void close_pair(FILE *dat, FILE *gp)
{
	if (dat)
		fclose(dat);
	if (gp)
		fclose(gp);
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

/* Latency histograms: one chart per signature x threads, a line per config (or host). */
static void plot_latency(struct plotter *p, const struct rep_group *fleet, size_t nf,
			 const struct rep_group *hosts, size_t nh)
{
	size_t chart = 0;
	size_t *pick = calloc(nf + nh + 1, sizeof(*pick));
	if (!pick)
		return;
	for (size_t i = 0; i < nf; i++) {
		const struct rep_cell *c = fleet[i].cells[0];
		if (sig_threads_seen(fleet, i))
			continue;
		size_t n = 0;
		for (size_t j = i; j < nf; j++)
			if (fleet[j].cells[0]->threads == c->threads && strcmp(fleet[j].cells[0]->sig, c->sig) == 0)
				pick[n++] = j;
		const struct rep_group *src = fleet;
		bool by_host = n == 1 && fleet[i].n > 1;
		if (by_host) { /* one config on many hosts: a line per host */
			src = hosts;
			n = 0;
			for (size_t j = 0; j < nh; j++)
				if (same_group(hosts[j].cells[0], c))
					pick[n++] = j;
		}
		size_t total = n;
		qsort_r(pick, n, sizeof(*pick), cmp_count_desc, (void *)src);
		if (n > MAX_LINES)
			n = MAX_LINES;
		char name[64], title[512], what[400];
		snprintf(name, sizeof(name), "latency-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(dat, gp);
			break;
		}
		snprintf(title, sizeof(title), "Latency histogram: %s, %.0f threads%s", c->sig, c->threads,
			 total > n ? " (busiest lines)" : "");
		gp_head(gp, name, title, "latency (us, log scale)", "share of operations (%)");
		fputs("set logscale x 10\nset format x '%g'\nset yrange [0:*]\n", gp);
		for (size_t k = 0; k < n; k++) {
			const struct rep_group *x = &src[pick[k]];
			if (by_host)
				snprintf(what, sizeof(what), "%s", x->cells[0]->host);
			else
				legend_of(what, sizeof(what), x->cells[0]);
			dat_hist(dat, &x->total, what);
			gp_line(gp, name, k == 0, k, "1:2", "lines lw 2", what, k + 1 == n);
		}
		gp_tail(gp, name);
		close_pair(dat, gp);
		plot_done(p, name);
	}
	free(pick);
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

/*
 * Throughput over time per host, each normalised to its own median (the
 * "twisty maze"). With many hosts, the most variable ones are drawn.
 */
static void plot_time(struct plotter *p, const struct rep_group *fleet, size_t nf)
{
	size_t chart = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct rep_group *g = &fleet[i];
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
		char name[64], title[600], what[400], more[80] = "";
		snprintf(name, sizeof(name), "time-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(dat, gp);
			free(hv);
			break;
		}
		if (n > MAX_TIME_LINES) {
			qsort(hv, n, sizeof(*hv), cmp_cv_desc);
			snprintf(more, sizeof(more), " (the %d most variable of %zu hosts)", MAX_TIME_LINES, n);
			n = MAX_TIME_LINES;
		}
		describe(what, sizeof(what), g->cells[0], true, true);
		snprintf(title, sizeof(title), "Throughput over time, per host / its median: %s%s", what, more);
		gp_head(gp, name, title, "time since the host's first bucket (s)", "throughput / host median");
		fputs("set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", gp);
		for (size_t k = 0; k < n; k++) {
			const struct rep_cell *c = hv[k].c;
			double med = cell_stat(c, true);
			fprintf(dat, "# %s\n# seconds normalised_throughput ops_per_sec\n", c->host);
			for (size_t t = 0; t < c->npts; t++)
				fprintf(dat, "%.6g %.6g %.6g\n", c->pts[t].t - c->pts[0].t,
					med > 0 ? c->pts[t].ops / med : 0, c->pts[t].ops);
			fputs("\n\n", dat);
			gp_line(gp, name, k == 0, k, "1:2", "steps lw 1.5", c->host, k + 1 == n);
		}
		gp_tail(gp, name);
		close_pair(dat, gp);
		free(hv);
		plot_done(p, name);
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

/* Thread curves: ops/s by thread count, a line per signature x configuration x size. */
static void plot_threads(struct plotter *p, const struct rep_group *g, size_t ng, const struct rep_opts *o)
{
	FILE *dat = NULL, *gp = NULL;
	size_t k = 0, ncurves = 0;
	for (size_t i = 0; i < ng;) {
		size_t j = curve_end(g, ng, i);
		ncurves += j - i >= 2;
		i = j;
	}
	if (ncurves == 0)
		return;
	dat = plot_open(p, "threads", "dat");
	gp = plot_open(p, "threads", "gp");
	if (!dat || !gp) {
		close_pair(dat, gp);
		return;
	}
	gp_head(gp, "threads", "Throughput by thread count (mean per host; optimal = fewest within 5% of best)",
		"threads", "operations per second (log scale)");
	fputs("set logscale x 2\nset logscale y 10\nset format x '%g'\n", gp);
	for (size_t i = 0; i < ng;) {
		size_t j = curve_end(g, ng, i);
		size_t n = j - i;
		if (n >= 2) {
			double *thr = calloc(n, sizeof(*thr)), *ops = calloc(n, sizeof(*ops));
			if (!thr || !ops) {
				free(thr);
				free(ops);
				break;
			}
			for (size_t x = 0; x < n; x++) {
				thr[x] = g[i + x].cells[0]->threads;
				ops[x] = g[i + x].ops;
			}
			size_t opt = stats_thread_optimum(thr, ops, n, o->within);
			char what[400], title[480];
			describe(what, sizeof(what), g[i].cells[0], false, true);
			snprintf(title, sizeof(title), "%s (optimal %.0f)", what, thr[opt]);
			fprintf(dat, "# %s\n# threads ops_per_sec optimal\n", title);
			for (size_t x = 0; x < n; x++)
				fprintf(dat, "%.6g %.6g %d\n", thr[x], ops[x], x == opt);
			fputs("\n\n", dat);
			gp_line(gp, "threads", k == 0, k, "1:2", "linespoints lw 2 pt 7", title, k + 1 == ncurves);
			k++;
			free(thr);
			free(ops);
		}
		i = j;
	}
	gp_tail(gp, "threads");
	close_pair(dat, gp);
	plot_done(p, "threads");
}

struct inst_row {
	double p[4];
};

static int cmp_inst(const void *a, const void *b)
{
	double x = ((const struct inst_row *)a)->p[0], y = ((const struct inst_row *)b)->p[0];
	return (x > y) - (x < y);
}

/* Per-instance percentiles sorted best to worst ("variation across instances"). */
static void plot_instances(struct plotter *p, const struct rep_group *g, size_t ng)
{
	static const double pct[4] = { 0.5, 0.9, 0.99, 0.999 };
	static const char *const names[4] = { "p50", "p90", "p99", "p99.9" };
	size_t chart = 0;
	for (size_t i = 0; i < ng; i++) {
		if (g[i].n < 2)
			continue;
		struct inst_row *rows = calloc(g[i].n, sizeof(*rows));
		if (!rows)
			return;
		for (size_t h = 0; h < g[i].n; h++)
			for (int q = 0; q < 4; q++)
				rows[h].p[q] = hist_percentile(&g[i].cells[h]->total, pct[q]) / 1e3;
		qsort(rows, g[i].n, sizeof(*rows), cmp_inst);
		char name[64], title[600], what[400];
		snprintf(name, sizeof(name), "instances-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(dat, gp);
			free(rows);
			break;
		}
		describe(what, sizeof(what), g[i].cells[0], true, true);
		snprintf(title, sizeof(title), "Variation across %zu instances, best to worst p50: %s",
			 g[i].n, what);
		gp_head(gp, name, title, "instance rank (best p50 first)", "latency (us, log scale)");
		fputs("set logscale y 10\nset format y '%g'\n", gp);
		fputs("# rank p50_us p90_us p99_us p99.9_us\n", dat);
		for (size_t h = 0; h < g[i].n; h++)
			fprintf(dat, "%zu %.6g %.6g %.6g %.6g\n", h + 1, rows[h].p[0], rows[h].p[1],
				rows[h].p[2], rows[h].p[3]);
		for (int q = 0; q < 4; q++) {
			char using[16];
			snprintf(using, sizeof(using), "1:%d", q + 2);
			gp_line(gp, name, q == 0, 0, using, "linespoints lw 2 pt 7 ps 0.6", names[q], q == 3);
		}
		gp_tail(gp, name);
		close_pair(dat, gp);
		free(rows);
		plot_done(p, name);
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
		for (size_t k = 0; k < n; k++)
			p50[k] = hist_percentile(&g[idx[k]].total, 0.5);
		size_t nt = stats_tiers(p50, n, o->tier_tol, tiers, ng);
		char name[64], title[600], what[400];
		snprintf(name, sizeof(name), "sizes-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(dat, gp);
			break;
		}
		describe(what, sizeof(what), g[i].cells[0], true, false);
		snprintf(title, sizeof(title), "File-size sweep, %zu tiers: %s", nt, what);
		gp_head(gp, name, title, "size spanned (MiB, log scale)", "p50 latency (us, log scale)");
		fputs("set logscale x 2\nset logscale y 10\nset format x '%g'\nset format y '%g'\n"
		      "set y2label 'operations per second'\nset y2tics\nset ytics nomirror\n", gp);
		for (size_t t = 0; t + 1 < nt; t++) {
			/* boundary between the last size of a tier and the first of the next */
			double a = (double)g[idx[tiers[t].last]].cells[0]->size / 1048576.0;
			double b = (double)g[idx[tiers[t + 1].first]].cells[0]->size / 1048576.0;
			fprintf(gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead dt 2 lw 2 lc rgb '#888888'\n",
				sqrt(a * b), sqrt(a * b));
		}
		for (size_t t = 0; t < nt; t++)
			fprintf(gp, "set label 'tier %zu' at %.6g, graph 0.95 center\n", t + 1,
				sqrt((double)g[idx[tiers[t].first]].cells[0]->size *
				     (double)g[idx[tiers[t].last]].cells[0]->size) / 1048576.0);
		fputs("# size_mib p50_us ops_per_sec tier\n", dat);
		for (size_t k = 0, t = 0; k < n; k++) {
			while (t + 1 < nt && k > tiers[t].last)
				t++;
			fprintf(dat, "%.6g %.6g %.6g %zu\n", (double)g[idx[k]].cells[0]->size / 1048576.0,
				p50[k] / 1e3, g[idx[k]].ops, t + 1);
		}
		fprintf(gp, "plot '%s.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'p50 latency (us)', \\\n"
			    "     '' index 0 using 1:3 axes x1y2 with linespoints lw 2 pt 5 title 'ops/s'\n", name);
		gp_tail(gp, name);
		close_pair(dat, gp);
		plot_done(p, name);
	}
	free(idx);
	free(p50);
	free(tiers);
}

/* Operations per dollar per config and operation, from the cost table. */
static void plot_cost(struct plotter *p, const struct table *t, const struct rep_opts *o)
{
	/* Columns by key: the cost section may gain or reorder columns. */
	int sig = table_col(t, "signature"), threads = table_col(t, "threads"), size = table_col(t, "size");
	int config = table_col(t, "config"), inst = table_col(t, "instance"), opd = table_col(t, "opsPerDollar");
	if (t->nrows == 0 || sig < 0 || threads < 0 || size < 0 || config < 0 || inst < 0 || opd < 0)
		return;
	FILE *dat = plot_open(p, "cost", "dat"), *gp = plot_open(p, "cost", "gp");
	if (!dat || !gp) {
		close_pair(dat, gp);
		return;
	}
	const json_t *date = json_object_get(o->prices, "date");
	char title[200];
	snprintf(title, sizeof(title), "Operations per dollar by configuration (prices of %s)",
		 json_is_string(date) ? json_string_value(date) : "unknown date");
	gp_head(gp, "cost", title, "configuration / operation", "operations per dollar (log scale)");
	fputs("set style data histograms\nset style fill solid 0.7 border -1\nset boxwidth 0.8\n"
	      "set logscale y 10\nset xtics rotate by -40\nset key off\nset yrange [1:*]\n"
	      "set bmargin 12\nset rmargin 12\n", gp);
	fputs("# label ops_per_dollar\n", dat);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct tval *row = &t->vals[r * t->ncols];
		char sz[32] = "";
		if (row[size].v > 0)
			units_format_signature_size(sz, sizeof(sz), (uint64_t)row[size].v);
		fprintf(dat, "\"%s %s x%.0f%s%s\" %.6g\n",
			row[config].s && row[config].s[0] ? row[config].s : row[inst].s, row[sig].s, row[threads].v,
			sz[0] ? " " : "", sz, isnan(row[opd].v) ? 0 : row[opd].v);
	}
	fprintf(gp, "plot 'cost.dat' using 2:xtic(1) title 'ops per $'\n");
	gp_tail(gp, "cost");
	close_pair(dat, gp);
	plot_done(p, "cost");
}

/* Run gnuplot on NAME.gp inside the plot folder; 0 when NAME.png came out non-empty. */
static int render(const char *dir, const char *name)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
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
	return stat(png, &sb) == 0 && sb.st_size > 0 ? 0 : -EIO;
}

int rep_plot(const struct rep_db *db, const struct rep_opts *o,
	     const struct table tables[SEC_COUNT], const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "iobench: %s: cannot create the plot folder: %s\n", dir, strerror(errno));
		return -1;
	}
	struct plotter p = { .dir = dir };
	struct rep_group *fleet, *hosts;
	size_t nf = rep_groups(db, false, &fleet);
	size_t nh = rep_groups(db, true, &hosts);
	plot_latency(&p, fleet, nf, hosts, nh);
	plot_time(&p, fleet, nf);
	plot_threads(&p, fleet, nf, o);
	plot_instances(&p, fleet, nf);
	plot_sizes(&p, fleet, nf, o);
	plot_cost(&p, &tables[SEC_COST], o);
	free(fleet);
	free(hosts);
	int rc = p.failed ? -1 : 0;
	for (size_t i = 0; i < p.n; i++) {
		int r = rc == 0 || rc == -1 ? render(dir, p.names[i]) : 0;
		if (r == -ENOENT) {
			fprintf(stderr, "iobench: gnuplot not found; scripts are in %s; install gnuplot-nox "
					"(Debian) to render PNG and SVG\n", dir);
			rc = -ENOENT;
		} else if (r != 0 && rc != -ENOENT) {
			fprintf(stderr, "iobench: %s/%s.gp: gnuplot failed to render it; see %s/gnuplot.log\n",
				dir, p.names[i], dir);
			rc = -1;
		}
		free(p.names[i]);
	}
	free(p.names);
	return rc ? -1 : 0;
}
