/* report/charts/plot.c - gnuplot scripts, data and rendering for `iobench report --plot`. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot.h"
#include "report/sections/basis.h"
#include "report/charts/plot_heat.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"
#include "report/charts/plot_steady.h"
#include "report/base/price.h"
#include "report/sections/section.h"
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
/*
 * Sizes. The page (html.c) shows a chart's SVG at its canvas width or wider,
 * never narrower (a narrower screen scrolls the figure in its own box), so
 * that text CHART_FONT px tall on the canvas is at least that on the page:
 * two charts a row in the wide layout (1400 px), one in the narrow (700 px),
 * whose column CHART_W and CHART_WIDE fit. Every text of a chart is
 * CHART_FONT px, none smaller.
 */
#define CHART_W 600    /* a chart's canvas, px */
#define CHART_H 400
#define CHART_WIDE 640 /* the widest canvas: small multiples */
#define CHART_FONT 10
/* About the width of a character of the chart's font (DejaVu Sans, 10 px), for what must fit. */
#define CHAR_PX 6.4
/* The PNG, a file to share, is the SVG's layout at twice its pixels. */
#define PNG_SCALE 2

/*
 * The height of the chart being written (gp_head to gp_tail): CHART_H, and
 * more for a legend of many rows below the plot (gp_key).
 */
static int chart_h = CHART_H;

/* Characters of a legend entry that fit below a plot w px wide, as gnuplot reckons them. */
static size_t legend_chars(int w)
{
	return (size_t)((w - 70) / 7);
}

struct plotter {
	const char *dir;
	rep_warn_fn *warn; /* the db's: says what could not be written */
	void *warn_arg;
	char **names;  /* charts written, rendered at the end */
	char **titles; /* their titles, for index.html */
	size_t n, cap;
	int failed;
	char run[160]; /* "run r1" / "runs r1, r2": what every title names; "" unknown */
	bool lost;     /* the chart being written did not reach the disk (set by close_pair) */
	double launch; /* the earliest run's launch: the date of charts across groups (cost, compare) */
};

static FILE *plot_open(struct plotter *p, const char *name, const char *ext)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.%s", p->dir, name, ext);
	if (strcmp(ext, "dat") == 0)
		p->lost = false; /* a new chart */
	/* O_NOFOLLOW: a link in the folder is refused, never written through. */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rep_say(p->warn, p->warn_arg, "%s: %s", path,
			  errno == ELOOP ? "a symbolic link; not written through" : strerror(errno));
		if (fd >= 0)
			close(fd);
		p->failed = 1;
	}
	return f;
}

static void plot_done(struct plotter *p, const char *name, const char *title)
{
	/* A chart whose files did not reach the disk is not rendered (and not blamed on gnuplot). */
	if (p->lost) {
		p->lost = false;
		return;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		char **q = realloc(p->names, cap * sizeof(*q)), **t = q ? realloc(p->titles, cap * sizeof(*t)) : NULL;
		if (q)
			p->names = q;
		if (t)
			p->titles = t;
		if (!q || !t) {
			p->failed = 1;
			return;
		}
		p->cap = cap;
	}
	p->names[p->n] = strdup(name);
	p->titles[p->n] = strdup(title);
	if (p->names[p->n] && p->titles[p->n])
		p->n++;
	else
		free(p->names[p->n]);
}

/* s on one line: a control character (a newline in a label) becomes a space. */
static void put_line(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

/* s with each control character (a newline in a label) made a space, in place. */
static void flatten(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

/*
 * A gnuplot single-quoted string: '' is its only escape, and unlike a
 * double-quoted one it never runs `backquoted` commands, which a label or
 * host name read from a result file could hold. A control character is a
 * space; but with lines, a newline (a title's second line, chart_title's)
 * is joined in as the expression '...'."\n".'...'.
 */
static void gp_text(FILE *f, const char *s, bool lines)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\n' && lines) {
			fputs("'.\"\\n\".'", f);
			continue;
		}
		if (*s == '\'')
			fputc('\'', f);
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
	}
	fputc('\'', f);
}

static void gp_str(FILE *f, const char *s)
{
	gp_text(f, s, false);
}

/*
 * The terminal of a chart of w x h px on the page: its SVG, or its PNG (the
 * same layout, PNG_SCALE times the pixels).
 */
static void gp_term(FILE *f, const char *name, bool png, int w, int h)
{
	if (png)
		fprintf(f, "set terminal pngcairo noenhanced size %d,%d font 'sans,%d' fontscale %d linewidth %d "
			   "pointscale %d\n", w * PNG_SCALE, h * PNG_SCALE, CHART_FONT, PNG_SCALE, PNG_SCALE, PNG_SCALE);
	else
		fprintf(f, "set terminal svg noenhanced size %d,%d dynamic font 'sans,%d'\n", w, h, CHART_FONT);
	fprintf(f, "set output '%s.%s'\n", name, png ? "png" : "svg");
}

/* Common head: PNG first, the caller plots, gp_tail() re-plots as SVG; CHART_W x CHART_H. */
static void gp_head(FILE *f, const char *name, const char *title, const char *xlabel,
		    const char *ylabel)
{
	fprintf(f, "# %s.gp - written by iobench report; run: gnuplot %s.gp\n", name, name);
	fprintf(f, "reset\nset encoding utf8\n");
	chart_h = CHART_H;
	gp_term(f, name, true, CHART_W, chart_h);
	fputs("set title ", f);
	gp_text(f, title, true);
	fputs("\nset xlabel ", f);
	gp_str(f, xlabel);
	fputs("\nset ylabel ", f);
	gp_str(f, ylabel);
	fputs("\nset grid\n", f);
}

/* The chart being written (gp_head's) taller by px, for what its margins must hold; its PNG too. */
static void gp_grow(FILE *f, int px)
{
	chart_h += px;
	fprintf(f, "set terminal pngcairo size %d,%d\n", CHART_W * PNG_SCALE, chart_h * PNG_SCALE);
}

/*
 * The legend: inside the plot (top left) when its lines are few and short,
 * else below it, so that it never takes the plot's width; below, as many
 * columns as gnuplot fits (it reckons 7 px a character and 50 px for an
 * entry's sample line and gaps), and the canvas taller by its rows (15 px
 * each) so that the plot keeps its height.
 */
static void gp_key(FILE *f, size_t nlines, size_t longest)
{
	if (nlines <= 6 && longest <= 32) {
		fputs("set key inside top left vertical opaque box width 1\n", f);
		return;
	}
	if (longest > legend_chars(CHART_W)) /* gp_line shortens it so */
		longest = legend_chars(CHART_W);
	size_t cols = (size_t)((CHART_W - 20) / (7.0 * (double)longest + 50));
	cols = cols < 1 ? 1 : cols > 5 ? 5 : cols;
	size_t rows = (nlines + cols - 1) / cols;
	/* height 1: a line's room between the axis label and the legend, whose texts would touch */
	fprintf(f, "set key below horizontal maxcols %zu height 1\n", cols);
	if (rows > 2)
		gp_grow(f, (int)(rows - 2) * 15);
}

static void gp_tail(FILE *f, const char *name)
{
	gp_term(f, name, false, CHART_W, chart_h);
	fputs("replot\nunset output\n", f);
}

/*
 * A chart of several panels (multiplot), which replot cannot redraw: body
 * (its commands, from "set multiplot" to "unset multiplot") is written once
 * for the PNG and once for the SVG, the SVG w x h px on the page (at most
 * CHART_WIDE wide).
 */
static void gp_twice_px(FILE *f, const char *name, const char *body, int w, int h)
{
	fprintf(f, "# %s.gp - written by iobench report; run: gnuplot %s.gp\n", name, name);
	fputs("reset\nset encoding utf8\n", f);
	gp_term(f, name, true, w, h);
	fputs(body, f);
	gp_term(f, name, false, w, h);
	fputs(body, f);
	fputs("unset output\n", f);
}

/*
 * The same for a size given as the PNG's of old (w x h, the SVG three
 * quarters of it): the canvas that fits the page, as wide as CHART_WIDE,
 * its height in proportion.
 */
static __attribute__((unused)) void gp_twice(FILE *f, const char *name, const char *body, int w, int h)
{
	double sw = w * 0.75, sh = h * 0.75, k = sw > CHART_WIDE ? CHART_WIDE / sw : 1;
	gp_twice_px(f, name, body, (int)(sw * k), (int)(sh * k));
}

/*
 * Tics of a latency axis in microseconds, log scale, labelled as people
 * read them (100us, 1ms, 1s) instead of 1e+06. axis: "x" or "y".
 */
static void gp_lat_tics(FILE *f, const char *axis)
{
	static const char *const unit[] = { "1us", "10us", "100us", "1ms", "10ms", "100ms", "1s", "10s" };
	fprintf(f, "set logscale %s 10\nset %stics (", axis, axis);
	for (int k = 0; k < 8; k++)
		fprintf(f, "%s'%s' %g", k ? ", " : "", unit[k], pow(10, k));
	fputs(")\n", f);
}

/* An axis value as people read it: 200, 5000, 20k, 1.5M. */
static void tic_label(char *buf, size_t len, double v)
{
	static const char suffix[] = " kMGT";
	int k = 0;
	while (v >= 10000 && k < 4) {
		v /= 1000;
		k++;
	}
	if (k)
		snprintf(buf, len, "%g%c", v, suffix[k]);
	else
		snprintf(buf, len, "%g", v);
}

/*
 * Tics of a log 10 axis over [lo, hi] as wide as px: 1, 2 and 5 of each
 * decade while a decade has the room (150 px), 1 and 3 at half that, else
 * the decades alone, so that labels never meet.
 */
static void gp_log_tics(FILE *f, const char *axis, double lo, double hi, double px)
{
	static const double steps[3][4] = { { 1, 2, 5, 0 }, { 1, 3, 0, 0 }, { 1, 0, 0, 0 } };
	double decade_px = px / fmax(log10(hi / lo), 0.1);
	int s = decade_px >= 150 ? 0 : decade_px >= 75 ? 1 : 2;
	fprintf(f, "set %stics (", axis);
	bool first = true;
	for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
		for (int k = 0; k < 4 && steps[s][k] > 0; k++) {
			double v = d * steps[s][k];
			if (v < lo || v > hi)
				continue;
			char label[32];
			tic_label(label, sizeof(label), v);
			fprintf(f, "%s'%s' %.10g", first ? "" : ", ", label, v);
			first = false;
		}
	fputs(")\n", f);
}

/* A number for a .dat file people may open: 4 significant digits, no exponent (69297, 0.5123, 128). */
static void dat_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v)) {
		fputs("NaN", f);
		return;
	}
	int mag = v == 0 ? 0 : (int)floor(log10(fabs(v)));
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*f", mag >= 3 ? 0 : 3 - mag, v);
	/* 128 rather than 128.0: the zeros say nothing */
	if (strchr(buf, '.')) {
		size_t n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[n - 1] = '\0';
	}
	fputs(buf, f);
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

/* "read4k, 8 threads, m5.large / gp3 x4, size 1G" for titles and legends. */
static void describe(char *buf, size_t len, const struct rep_cell *c, bool with_threads,
		     bool with_size)
{
	char op[64];
	rep_op_name(c->sig, op, sizeof(op));
	buf[0] = '\0';
	append(buf, len, "%s", op);
	if (with_threads)
		append(buf, len, ", %.0f thread%s", c->threads, c->threads == 1 ? "" : "s");
	if (c->cfg->name[0])
		append(buf, len, ", %s", c->cfg->name);
	if (with_size && c->size) {
		char sz[32];
		units_format_signature_size(sz, sizeof(sz), c->size);
		append(buf, len, ", size %s", sz);
	}
}

/* "2026-11-21" of a Unix launchTime; "" for the 2012 tool's (seconds of uptime) or none. */
static void launch_date(char *buf, size_t len, double launch)
{
	buf[0] = '\0';
	if (launch < 1e9)
		return;
	time_t t = (time_t)launch;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%d", &tm);
}

/* The earliest launch of a group's cells. */
static double group_launch(const struct rep_group *g)
{
	double first = 0;
	for (size_t k = 0; k < g->n; k++)
		if (g->cells[k]->launch > 0 && (first == 0 || g->cells[k]->launch < first))
			first = g->cells[k]->launch;
	return first;
}

/*
 * s (len bytes) broken into lines of at most width characters: at the last
 * space that fits (made '\n'), after a comma there when one is near, else
 * after the last '/', '-' or '_' that fits, else at width; a line break
 * already in s starts a new line. What no longer fits len is cut.
 */
static void wrap_text(char *s, size_t len, size_t width)
{
	char out[1024];
	size_t o = 0, line = 0; /* out's length; where its current line starts */
	if (width < 8)
		width = 8;
	for (const char *c = s; *c && o + 2 < sizeof(out) && o + 2 < len; c++) {
		out[o++] = *c;
		if (*c == '\n') {
			line = o;
			continue;
		}
		if (o - line <= width)
			continue;
		/* the line is one too long: break it where the reader expects */
		size_t space = 0, comma = 0, mark = 0;
		for (size_t i = line + 1; i < o; i++) {
			if (out[i] == ' ') {
				space = i;
				if (out[i - 1] == ',' || out[i - 1] == ':')
					comma = i;
			} else if (strchr("/-_", out[i - 1]) && out[i - 1] != out[i]) {
				mark = i;
			}
		}
		if (comma && comma - line >= width * 2 / 3)
			space = comma;
		if (space) {
			out[space] = '\n';
			line = space + 1;
		} else {
			size_t at = mark ? mark : o - 1;
			memmove(out + at + 1, out + at, o - at);
			out[at] = '\n';
			o++;
			line = at + 1;
		}
	}
	out[o] = '\0';
	snprintf(s, len, "%s", out);
}

/*
 * A legend entry of at most width characters: a longer one keeps its head
 * and its tail (where names differ) around "...". gnuplot sets a legend's
 * entries on one line each (a second line would run into the next entry)
 * and leaves out the legend of a panel it is too wide for.
 */
static void fit_label(char *buf, size_t len, const char *s, size_t width)
{
	size_t n = strlen(s);
	if (n <= width || width < 12) {
		snprintf(buf, len, "%s", s);
		return;
	}
	size_t head = (width - 3) / 2, tail = width - 3 - head;
	snprintf(buf, len, "%.*s...%s", (int)head, s, s + n - tail);
}

/* Characters of a title line that fit a canvas w px wide. */
static size_t title_chars(int w)
{
	return (size_t)((w - 20) / CHAR_PX);
}

/*
 * "WHAT (more)\nrun r1, 2026-11-21": every chart says what, which run and
 * when; WHAT broken into lines that fit the chart's width.
 */
static void chart_title(char *buf, size_t len, const struct plotter *p, const char *what, double launch)
{
	char date[32];
	launch_date(date, sizeof(date), launch);
	snprintf(buf, len, "%s", what);
	flatten(buf); /* labels and run ids come from result files: the only line breaks are ours */
	wrap_text(buf, len, title_chars(CHART_W));
	if (p->run[0] || date[0]) {
		char second[200];
		snprintf(second, sizeof(second), "%s%s%s", p->run, p->run[0] && date[0] ? ", " : "", date[0] ? date : "");
		flatten(second);
		append(buf, len, "\n%s", second);
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
	/* gnuplot has 8 colours: the 9th line on is dashed, else two lines would look one */
	char dash[16] = "";
	if (k >= 8 && !strstr(style, "dt "))
		snprintf(dash, sizeof(dash), " dt %zu", k / 8 + 1);
	fprintf(f, " index %zu using %s with %s%s title ", k, using, style, dash);
	char fit[200];
	fit_label(fit, sizeof(fit), title, legend_chars(CHART_W));
	gp_str(f, fit);
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
	fputs("# ", f);
	put_line(f, title);
	fputs("\n# latency_us percent_of_ops\n", f);
	unsigned first, last;
	hist_used_range(h, &first, &last);
	for (unsigned k = first > 0 ? first - 1 : 0; k < last + 1 && k < HIST_NBUCKETS; k++) {
		dat_num(f, hist_bucket_start(k) * sqrt(HIST_RATIO) / 1e3);
		fputc(' ', f);
		dat_num(f, h->count ? 100.0 * (double)h->buckets[k] / (double)h->count : 0);
		fputc('\n', f);
	}
	fputs("\n\n", f);
}

/* Close a chart's files; one that could not be written (a full disk) is said so and marks the chart lost. */
static void close_one(struct plotter *p, FILE *f, const char *ext)
{
	if (!f)
		return;
	bool bad = ferror(f) != 0;
	int e = bad ? EIO : 0;
	if (fclose(f) != 0) {
		bad = true;
		e = errno;
	}
	if (bad && !p->lost)
		rep_say(p->warn, p->warn_arg, "%s: cannot write a chart's .%s file: %s", p->dir, ext, strerror(e));
	if (bad) {
		p->lost = true;
		p->failed = 1;
	}
}

static void close_pair(struct plotter *p, FILE *dat, FILE *gp)
{
	close_one(p, dat, "dat");
	close_one(p, gp, "gp");
}

/* A chart's end: the SVG's lines in its script, both files closed, the chart listed (unless its files were lost). */
static void chart_end(struct plotter *p, FILE *dat, FILE *gp, const char *name, const char *title)
{
	gp_tail(gp, name);
	close_pair(p, dat, gp);
	plot_done(p, name, title);
}

/* The latency heat map beside a time or watch chart (report/charts/plot_heat.c), drawn with these helpers. */
static void plot_heat(struct plotter *p, const struct rep_group *g, size_t chart)
{
	const struct plot_kit kit = { p, plot_open, close_pair, chart_end, gp_head, chart_title, describe, dat_num };
	rep_plot_heat(&kit, g, chart);
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

/* Legend texts of lines k[0..n) in order; the longest one's length. */
static size_t longest_of(char (*what)[200], size_t n)
{
	size_t m = 0;
	for (size_t k = 0; k < n; k++)
		m = strlen(what[k]) > m ? strlen(what[k]) : m;
	return m;
}

struct legend_line {
	size_t idx;       /* into the source groups or cells */
	char what[200];   /* its legend */
};

/*
 * Legend lines in the order of their groups (idx), which rep_groups sorted:
 * ops, configs and hosts by name, sizes and threads as numbers.
 */
static int cmp_legend(const void *a, const void *b)
{
	size_t x = ((const struct legend_line *)a)->idx, y = ((const struct legend_line *)b)->idx;
	return (x > y) - (x < y);
}

/* Latency histograms: one chart per signature x threads, a line per config (or host). */
static void plot_latency(struct plotter *p, const struct rep_group *fleet, size_t nf,
			 const struct rep_group *hosts, size_t nh)
{
	size_t chart = 0;
	size_t *pick = calloc(nf + nh + 1, sizeof(*pick));
	struct legend_line *lines = calloc(MAX_LINES, sizeof(*lines));
	char (*what)[200] = calloc(MAX_LINES, sizeof(*what));
	for (size_t i = 0; pick && lines && what && i < nf; i++) {
		const struct rep_cell *c = fleet[i].cells[0];
		if (sig_threads_seen(fleet, i) || c->watch)
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
		/* a line of fewer than MIN_HIST_OPS operations would draw noise as modes */
		size_t kept = 0;
		for (size_t k = 0; k < n; k++)
			if (src[pick[k]].total.count >= MIN_HIST_OPS)
				pick[kept++] = pick[k];
		n = kept;
		if (n == 0)
			continue;
		size_t total = n;
		qsort_r(pick, n, sizeof(*pick), cmp_count_desc, (void *)src);
		if (n > MAX_LINES)
			n = MAX_LINES;
		/* the busiest lines, shown in name order */
		for (size_t k = 0; k < n; k++) {
			lines[k].idx = pick[k];
			if (by_host)
				snprintf(lines[k].what, sizeof(lines[k].what), "%s", src[pick[k]].cells[0]->host);
			else
				legend_of(lines[k].what, sizeof(lines[k].what), src[pick[k]].cells[0]);
		}
		qsort(lines, n, sizeof(*lines), cmp_legend);
		for (size_t k = 0; k < n; k++)
			snprintf(what[k], sizeof(what[k]), "%s", lines[k].what);
		char name[64], title[640], head[400], op[64];
		snprintf(name, sizeof(name), "latency-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			break;
		}
		rep_op_name(c->sig, op, sizeof(op));
		snprintf(head, sizeof(head), "Latency histogram: %s, %.0f thread%s%s%s%s", op, c->threads, c->threads == 1 ? "" : "s",
			 by_host && c->cfg->name[0] ? ", " : "", by_host ? c->cfg->name : "",
			 total > n ? " (busiest lines)" : "");
		chart_title(title, sizeof(title), p, head, group_launch(&fleet[i]));
		gp_head(gp, name, title, "latency (log scale)", "share of operations (%)");
		gp_key(gp, n, longest_of(what, n));
		gp_lat_tics(gp, "x");
		fputs("set yrange [0:*]\n", gp);
		for (size_t k = 0; k < n; k++) {
			dat_hist(dat, &src[lines[k].idx].total, what[k]);
			gp_line(gp, name, k == 0, k, "1:2", "lines lw 2", what[k], k + 1 == n);
		}
		chart_end(p, dat, gp, name, title);
	}
	free(pick);
	free(lines);
	free(what);
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
			char name[64], title[700], head[600], what[400];
			snprintf(name, sizeof(name), "%s-%zu", norm ? "timenorm" : "time", chart);
			FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
			if (!dat || !gp) {
				close_pair(p, dat, gp);
				free(hv);
				return;
			}
			describe(what, sizeof(what), g->cells[0], true, true);
			snprintf(head, sizeof(head), "Throughput over time per host%s: %s%s",
				 norm ? ", over its own median" : "", what, more);
			chart_title(title, sizeof(title), p, head, group_launch(g));
			gp_head(gp, name, title, "time since the host's first bucket (s)",
				norm ? "throughput / host median" : "operations per second");
			gp_key(gp, n, longest);
			fputs("set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", gp);
			for (size_t k = 0; k < n; k++) {
				const struct rep_cell *c = hv[k].c;
				double med = cell_stat(c, true);
				fputs("# ", dat);
				put_line(dat, c->host);
				fputs("\n# seconds ops_per_sec normalised_throughput\n", dat);
				/* steps: a bucket's level from its start to the next; the last one repeated at its end */
				for (size_t t = 0; t <= c->npts; t++) {
					size_t u = t < c->npts ? t : c->npts - 1;
					double at = t < c->npts ? c->pts[t].t : 2 * c->pts[u].t - c->pts[u - 1].t;
					dat_num(dat, at - c->pts[0].t);
					fputc(' ', dat);
					dat_num(dat, c->pts[u].ops);
					fputc(' ', dat);
					dat_num(dat, med > 0 ? c->pts[u].ops / med : 0);
					fputc('\n', dat);
				}
				fputs("\n\n", dat);
				gp_line(gp, name, k == 0, k, norm ? "1:3" : "1:2", "steps lw 1.5", c->host, k + 1 == n);
			}
			chart_end(p, dat, gp, name, title);
		}
		plot_heat(p, g, chart);
		free(hv);
	}
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
		double *v = calloc(g->n, sizeof(*v));
		if (!v)
			return;
		double lo = INFINITY, hi = 0;
		for (size_t k = 0; k < g->n; k++) {
			v[k] = rep_cell_ops(g->cells[k]);
			lo = fmin(lo, v[k]);
			hi = fmax(hi, v[k]);
		}
		/*
		 * Bins of equal ratio on a log axis, as the 2012 study drew them: a
		 * host at a tenth of the others sits a decade left, not crushed
		 * against zero. Ten bins a decade (each 26% wide), edges at 10^(k/10).
		 */
		long kmin = (long)floor(log10(lo > 0 ? lo : 1) * 10), kmax = (long)floor(log10(hi > 0 ? hi : 1) * 10);
		size_t nbins = (size_t)(kmax - kmin + 1);
		size_t *cnt = calloc(nbins, sizeof(*cnt));
		if (!cnt) {
			free(v);
			return;
		}
		for (size_t k = 0; k < g->n; k++) {
			long bin = (long)floor(log10(v[k] > 0 ? v[k] : 1) * 10) - kmin;
			cnt[bin < 0 ? 0 : (size_t)bin < nbins ? (size_t)bin : nbins - 1]++;
		}
		size_t most = 0;
		for (size_t k = 0; k < nbins; k++)
			most = cnt[k] > most ? cnt[k] : most;
		double med = stats_median(v, g->n);
		char name[64], title[700], head[600], what[400];
		snprintf(name, sizeof(name), "apples-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			free(v);
			free(cnt);
			return;
		}
		describe(what, sizeof(what), g->cells[0], true, true);
		snprintf(head, sizeof(head), "Hosts per throughput level (bad apples sit left): %s, %zu hosts", what, g->n);
		chart_title(title, sizeof(title), p, head, group_launch(g));
		gp_head(gp, name, title, "operations per second (whole run, per host; log scale)", "hosts");
		double xlo = pow(10, (double)kmin / 10) / 1.5, xhi = pow(10, (double)(kmax + 1) / 10) * 1.5;
		/* a count every 1, 2, 5, 10... hosts: at most 10 labels up the axis */
		size_t ystep = 1;
		for (size_t decade = 1; (most + 1) / ystep > 10; decade *= 10)
			for (int k = 0; k < 3 && (most + 1) / ystep > 10; k++)
				ystep = decade * (k == 0 ? 2 : k == 1 ? 5 : 10);
		fprintf(gp, "set key inside top left opaque box\nset style fill solid 0.6 border -1\n"
			    "set yrange [0:%zu]\nset ytics %zu\nset logscale x 10\nset xrange [%.6g:%.6g]\n",
			most + 1, ystep, xlo, xhi);
		gp_log_tics(gp, "x", xlo, xhi, CHART_W - 80);
		fprintf(gp, "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead front dt 2 lw 2 lc rgb '#cc0000'\n", med, med);
		fputs("# ops_per_sec_from ops_per_sec_to hosts\n", dat);
		for (size_t k = 0; k < nbins; k++)
			if (cnt[k]) {
				dat_num(dat, pow(10, (double)(kmin + (long)k) / 10));
				fputc(' ', dat);
				dat_num(dat, pow(10, (double)(kmin + (long)k + 1) / 10));
				fprintf(dat, " %zu\n", cnt[k]);
			}
		/* a box from bin edge to bin edge: boxxyerror's x, y, xlow, xhigh, ylow, yhigh */
		char medtext[32];
		table_format_num(medtext, sizeof(medtext), mtype, mprec, med);
		fprintf(gp, "plot '%s.dat' using (sqrt($1*$2)):($3/2):1:2:(0):3 with boxxyerror title 'hosts', \\\n"
			    "     NaN with lines dt 2 lw 2 lc rgb '#cc0000' title 'median %s ops/s'\n", name, medtext);
		chart_end(p, dat, gp, name, title);
		free(v);
		free(cnt);
	}
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
		char name[64], title[700], head[600], what[400];
		snprintf(name, sizeof(name), "watch-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			free(hv);
			return;
		}
		describe(what, sizeof(what), g->cells[0], false, true);
		snprintf(head, sizeof(head), "Latency over time (iobench watch): %s, p50 solid, p99 dashed%s", what, more);
		chart_title(title, sizeof(title), p, head, group_launch(g));
		gp_head(gp, name, title, "time (UTC)", "latency (log scale)");
		gp_key(gp, 2 * n, longest);
		/*
		 * A date on every tick says one thing many times: within a day the
		 * ticks are hours and the date is in the axis label; over days they
		 * are days.
		 */
		double t0 = INFINITY, t1 = 0;
		for (size_t k = 0; k < n; k++)
			for (size_t t = 0; t < hv[k].c->npts; t++) {
				t0 = fmin(t0, hv[k].c->pts[t].t);
				t1 = fmax(t1, hv[k].c->pts[t].t);
			}
		char day0[32] = "", day1[32] = "";
		launch_date(day0, sizeof(day0), t0);
		launch_date(day1, sizeof(day1), t1);
		if (strcmp(day0, day1) == 0 && t1 - t0 < 600) /* minutes: seconds on the ticks, a whole one apart */
			fprintf(gp, "set xlabel 'time (UTC) on %s'\nset format x '%%H:%%M:%%S'\nset xtics %.0f\n", day0,
				fmax(1, ceil((t1 - t0) / 6)));
		else if (strcmp(day0, day1) == 0)
			fprintf(gp, "set xlabel 'time (UTC) on %s'\nset format x '%%H:%%M'\n", day0);
		else if (t1 - t0 <= 3 * 86400) {
			/* hours on the ticks, each midnight a line named by its date, once */
			fprintf(gp, "set xlabel 'time (UTC), %s to %s'\nset format x '%%H:%%M'\nset xtics 21600\n", day0, day1);
			for (double d = floor(t0 / 86400 + 1) * 86400; d <= t1; d += 86400) {
				char day[32];
				launch_date(day, sizeof(day), d);
				fprintf(gp, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dt 3 lc rgb '#888888'\n"
					    "set label '%s' at %.0f, graph 0.97 left offset 0.5, 0\n", d, d, day, d);
			}
		} else
			fprintf(gp, "set xlabel 'date (UTC), %s to %s'\nset format x '%%m-%%d'\n", day0, day1);
		fputs("set xdata time\nset timefmt '%s'\nset xtics rotate by 0\n", gp);
		gp_lat_tics(gp, "y");
		for (size_t k = 0; k < n; k++) {
			const struct rep_cell *c = hv[k].c;
			fputs("# ", dat);
			put_line(dat, c->host);
			fputs("\n# unix_seconds p50_us p99_us\n", dat);
			for (size_t t = 0; t < c->npts; t++) {
				fprintf(dat, "%.0f ", c->pts[t].t);
				dat_num(dat, c->pts[t].p50 / 1e3);
				fputc(' ', dat);
				dat_num(dat, c->pts[t].p99 / 1e3);
				fputc('\n', dat);
			}
			fputs("\n\n", dat);
		}
		for (size_t k = 0; k < n; k++) {
			char l50[200], l99[200], style[64];
			snprintf(l50, sizeof(l50), "%s p50", hv[k].c->host);
			snprintf(l99, sizeof(l99), "%s p99", hv[k].c->host);
			snprintf(style, sizeof(style), "linespoints lw 2 pt 7 ps 0.5 lc %zu", k + 1);
			gp_line(gp, name, k == 0, k, "1:2", style, l50, false);
			snprintf(style, sizeof(style), "linespoints lw 2 dt 2 pt 7 ps 0.5 lc %zu", k + 1);
			gp_line(gp, name, false, k, "1:3", style, l99, k + 1 == n);
		}
		chart_end(p, dat, gp, name, title);
		plot_heat(p, g, chart);
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
 * Thread curves as small multiples: a panel per op, a line per config (and
 * size), ops/s above and p50, p95 and p99 below, so that the thread count
 * that buys throughput and the one that only buys queueing show together.
 */
static void plot_threads(struct plotter *p, const struct rep_group *g, size_t ng, const struct rep_opts *o)
{
	size_t ncurves = 0;
	for (size_t i = 0; i < ng;) {
		size_t j = curve_end(g, ng, i);
		ncurves += j - i >= 2 && !g[i].cells[0]->watch;
		i = j;
	}
	if (ncurves == 0)
		return;
	struct legend_line *lines = calloc(ncurves, sizeof(*lines));
	if (!lines)
		return;
	double first = 0;
	size_t n = 0;
	for (size_t i = 0; i < ng;) {
		size_t j = curve_end(g, ng, i);
		if (j - i >= 2 && !g[i].cells[0]->watch) {
			size_t end;
			const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, o->within);
			const struct rep_cell *c = g[i].cells[0];
			char sz[32] = "";
			if (c->size)
				units_format_signature_size(sz, sizeof(sz), c->size);
			lines[n].idx = i;
			/* the legend: the config, its size when the op's curves differ in it, its optimum */
			snprintf(lines[n].what, sizeof(lines[n].what), "%s%s%s (best %.0f)",
				 c->cfg->name[0] ? c->cfg->name : "all", sz[0] ? " " : "", sz, opt->cells[0]->threads);
			n++;
			for (size_t k = i; k < j; k++) {
				double l = group_launch(&g[k]);
				first = l > 0 && (first == 0 || l < first) ? l : first;
			}
		}
		i = j;
	}
	qsort(lines, n, sizeof(*lines), cmp_legend);
	const char *ops[MAX_PANELS];
	size_t np = panel_ops(g, lines, n, ops);
	FILE *dat = plot_open(p, "threads", "dat"), *gp = plot_open(p, "threads", "gp");
	char *body = NULL;
	size_t blen = 0;
	FILE *b = dat && gp ? open_memstream(&body, &blen) : NULL;
	if (!b) {
		close_pair(p, dat, gp);
		free(lines);
		return;
	}
	char head[200], title[400];
	snprintf(head, sizeof(head), "Throughput and latency by thread count (best = fewest threads within %.0f%% of the "
		 "top); ops/s the median host's, bad apples left out; latency p50 solid, p95 dashed, p99 dotted",
		 o->within * 100);
	chart_title(title, sizeof(title), p, head, first);
	/* two panels a row at most: each keeps half the widest canvas, its text full size */
	size_t cols = np < 2 ? np : 2, rows = (np + cols - 1) / cols;
	fprintf(b, "set multiplot layout %zu,%zu title ", 2 * rows, cols);
	gp_text(b, title, true);
	fputs("\nset grid\nset logscale x 2\nset format x '%g'\nunset xlabel\nset key below\n", b);
	/* the data: a block per curve, in legend order */
	for (size_t k = 0; k < n; k++) {
		size_t i = lines[k].idx, end;
		const struct rep_group *opt = rep_curve_optimum(g, ng, i, &end, o->within);
		char op[64];
		rep_op_name(g[i].cells[0]->sig, op, sizeof(op));
		fprintf(dat, "# %s ", op);
		put_line(dat, lines[k].what);
		fputs("\n# threads ops_per_sec p50_us p95_us p99_us optimal\n", dat);
		for (size_t x = i; x < end; x++) {
			fprintf(dat, "%g", g[x].cells[0]->threads);
			/* the threads table's figures: the median host's ops/s (the one basis), the hosts' latencies */
			double v[4] = { g[x].med_ops, hist_percentile(&g[x].total, 0.5) / 1e3,
					hist_percentile(&g[x].total, 0.95) / 1e3, hist_percentile(&g[x].total, 0.99) / 1e3 };
			for (int q = 0; q < 4; q++) {
				fputc(' ', dat);
				dat_num(dat, v[q]);
			}
			fprintf(dat, " %d\n", &g[x] == opt);
		}
		fputs("\n\n", dat);
	}
	/* gnuplot fills a layout row by row: the ops/s panels, then the latency panels under them */
	for (int lat = 0; lat < 2; lat++)
		for (size_t q = 0; q < rows * cols; q++) {
			if (q >= np) {
				fputs("set multiplot next\n", b);
				continue;
			}
			char op[64], ptitle[160];
			rep_op_name(ops[q], op, sizeof(op));
			bool sizes = op_sizes_differ(g, lines, n, ops[q]);
			snprintf(ptitle, sizeof(ptitle), lat ? "%s: latency" : "%s: ops/s", op);
			fputs("set title ", b);
			gp_str(b, ptitle);
			if (lat) {
				fputs("\nset ylabel 'latency (log scale)'\nset yrange [*:*]\n", b);
				gp_lat_tics(b, "y");
			} else {
				fputs("\nset ylabel 'operations per second'\nunset logscale y\nset ytics autofreq\n"
				      "set format y '%g'\nset yrange [0:*]\n", b);
			}
			bool firstline = true;
			for (size_t k = 0, colour = 0; k < n; k++) {
				const struct rep_cell *c = g[lines[k].idx].cells[0];
				if (strcmp(c->sig, ops[q]) != 0)
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
					fputs(firstline ? "plot 'threads.dat'" : ", \\\n     ''", b);
					firstline = false;
					fprintf(b, " index %zu using 1:%d with linespoints lw 2 pt 7 ps 0.7 lc %zu dt %d", k,
						pc == 3 ? 2 : pc + 3, colour, pc == 3 ? 1 : pc + 1);
					if (pc == 3 || pc == 0) {
						fputs(" title ", b);
						char fit[200];
						fit_label(fit, sizeof(fit), what, legend_chars(CHART_WIDE / (int)cols));
						gp_str(b, fit);
					} else {
						fputs(" notitle", b);
					}
				}
			}
			fputc('\n', b);
		}
	fputs("unset multiplot\n", b);
	fclose(b);
	gp_twice_px(gp, "threads", body, cols == 1 ? CHART_W : CHART_WIDE, (int)(300 * 2 * rows + 70));
	free(body);
	close_pair(p, dat, gp);
	plot_done(p, "threads", title);
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

/* Per-instance percentiles, the hosts named on the axis, best p50 first ("variation across instances"). */
static void plot_instances(struct plotter *p, const struct rep_group *g, size_t ng, double within)
{
	size_t chart = 0;
	for (size_t i = 0; i < ng; i++) {
		if (g[i].n < 2 || g[i].cells[0]->watch || !at_optimum(g, ng, i, within))
			continue;
		struct inst_row *rows = calloc(g[i].n, sizeof(*rows));
		if (!rows)
			return;
		size_t longest = 0;
		for (size_t h = 0; h < g[i].n; h++) {
			rows[h].host = g[i].cells[h]->host;
			longest = strlen(rows[h].host) > longest ? strlen(rows[h].host) : longest;
			for (int q = 0; q < INST_NPCT; q++)
				rows[h].p[q] = hist_percentile(&g[i].cells[h]->total, inst_pct[q]) / 1e3;
		}
		qsort(rows, g[i].n, sizeof(*rows), cmp_inst);
		char name[64], title[700], head[600], what[400];
		snprintf(name, sizeof(name), "instances-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			free(rows);
			break;
		}
		/*
		 * Names upright while they fit side by side, else slanted 45
		 * degrees, which takes 18 px a name; more names than fit so are
		 * named every so many (all are drawn).
		 */
		double plot_px = CHART_W - 90;
		bool upright = (double)g[i].n * ((double)longest * CHAR_PX + 8) <= plot_px;
		size_t every = upright ? 1 : (size_t)ceil((double)g[i].n * 18 / plot_px);
		describe(what, sizeof(what), g[i].cells[0], true, true);
		char named[48] = "";
		if (every > 1)
			snprintf(named, sizeof(named), " (one in %zu named)", every);
		snprintf(head, sizeof(head), "Variation across %zu instances, best p50 first%s: %s", g[i].n, named, what);
		chart_title(title, sizeof(title), p, head, group_launch(&g[i]));
		gp_head(gp, name, title, "", "latency (log scale)");
		gp_key(gp, INST_NPCT, 6);
		gp_lat_tics(gp, "y");
		fputs("set offsets 0.5, 0.5, 0, 0\n", gp);
		if (!upright) {
			/* slanted names take their length times sin 45 below the plot: the chart grows so much */
			double bmargin = fmin(ceil((double)longest * CHAR_PX * 0.71 / 15) + 2, 16); /* lines of 15 px */
			fprintf(gp, "set xtics rotate by -45 left\nset bmargin %.0f\nset rmargin %.0f\n", bmargin,
				fmin(longest * 0.6 + 2, 20));
			gp_grow(gp, (int)(bmargin * 15) - 45);
		}
		fputs("# host p10_us p50_us p90_us p99_us p99.9_us\n", dat);
		for (size_t h = 0; h < g[i].n; h++) {
			fputc('"', dat);
			for (const char *s = rows[h].host; *s; s++)
				fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, dat);
			fputc('"', dat);
			for (int q = 0; q < INST_NPCT; q++) {
				fputc(' ', dat);
				dat_num(dat, rows[h].p[q]);
			}
			fputc('\n', dat);
		}
		for (int q = 0; q < INST_NPCT; q++) {
			char using[96];
			snprintf(using, sizeof(using), "0:%d", q + 2);
			if (q == 0 && every == 1)
				snprintf(using, sizeof(using), "0:%d:xtic(1)", q + 2);
			else if (q == 0)
				snprintf(using, sizeof(using), "0:%d:xtic(int($0) %% %zu == 0 ? stringcolumn(1) : '')", q + 2, every);
			gp_line(gp, name, q == 0, 0, using, "linespoints lw 2 pt 7 ps 0.6", inst_pct_name[q],
				q == INST_NPCT - 1);
		}
		free(rows);
		chart_end(p, dat, gp, name, title);
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
		char name[64], title[600], what[400];
		snprintf(name, sizeof(name), "sizes-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			break;
		}
		char head[600];
		describe(what, sizeof(what), g[i].cells[0], true, false);
		snprintf(head, sizeof(head), "File-size sweep, %zu tier%s: %s", nt, nt == 1 ? "" : "s", what);
		chart_title(title, sizeof(title), p, head, group_launch(&g[i]));
		gp_head(gp, name, title, "size spanned (MiB, log scale)", "p50 latency (log scale)");
		gp_key(gp, 2, 40); /* below: the tier labels sit at the top */
		gp_lat_tics(gp, "y");
		fputs("set logscale x 2\nset format x '%g'\n"
		      "set y2label 'operations per second (from zero)'\nset y2tics\nset format y2 '%.1s%c'\nset ytics nomirror\n"
		      "set y2range [0:*]\n", gp);
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
			double v[3] = { (double)g[idx[k]].cells[0]->size / 1048576.0, p50[k] / 1e3, g[idx[k]].ops };
			for (int q = 0; q < 3; q++) {
				dat_num(dat, v[q]);
				fputc(' ', dat);
			}
			fprintf(dat, "%zu\n", t + 1);
		}
		fprintf(gp, "plot '%s.dat' index 0 using 1:2 with linespoints lw 2 pt 7 title 'p50 latency (us)', \\\n"
			    "     '' index 0 using 1:3 axes x1y2 with linespoints lw 2 pt 5 title 'ops/s'\n", name);
		chart_end(p, dat, gp, name, title);
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
	/* Columns by key: the cost section may gain or reorder columns. */
	int sig = table_col(t, "signature"), opc = table_col(t, "op"), threads = table_col(t, "threads");
	int size = table_col(t, "size"), config = table_col(t, "config"), inst = table_col(t, "instance");
	int opd = table_col(t, "opsPerDollar"), mbd = table_col(t, "mbPerDollar"), doubt = table_col(t, "doubt");
	int opd_text = col_by_head(t, "ops per $"), mbd_text = col_by_head(t, "MB per $");
	if (t->nrows == 0 || (sig < 0 && opc < 0) || config < 0 || opd < 0)
		return;
	char ops[MAX_PANELS][64];
	double psize[MAX_PANELS];
	size_t np = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		char op[64];
		rep_row_op(t, r, op, sizeof(op));
		bool seen = false;
		for (size_t q = 0; q < np && !seen; q++)
			seen = strcmp(ops[q], op) == 0;
		if (seen || np == MAX_PANELS)
			continue;
		/* the size with the most rows (configs) of this op */
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
				same += strcmp(opb, op) == 0 && table_num(t, b, size) == table_num(t, a, size);
			}
			if (same > best || (same == best && table_num(t, a, size) > psize[np])) {
				best = same;
				psize[np] = table_num(t, a, size);
			}
		}
		snprintf(ops[np++], sizeof(ops[0]), "%s", op);
	}
	FILE *dat = plot_open(p, "cost", "dat"), *gp = plot_open(p, "cost", "gp");
	char *body = NULL;
	size_t blen = 0;
	FILE *b = dat && gp ? open_memstream(&body, &blen) : NULL;
	if (!b) {
		close_pair(p, dat, gp);
		return;
	}
	char head[300], title[500];
	snprintf(head, sizeof(head), "Per dollar, each config at its optimal thread count: the median host's figure "
		 "with its 95%% interval (prices of %s)", o->prices->date ? o->prices->date : "unknown date");
	chart_title(title, sizeof(title), p, head, p->launch);
	/* the configs' names take the left of every panel: as wide as the longest, within reason */
	size_t longest = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *name = cell_str(t, r, config)[0] ? cell_str(t, r, config) : cell_str(t, r, inst);
		longest = strlen(name) > longest ? strlen(name) : longest;
	}
	double left = fmin(((double)longest * CHAR_PX + 24) / CHART_W, 0.45);
	size_t title_lines = 1;
	for (const char *c = title; *c; c++)
		title_lines += *c == '\n';
	fprintf(b, "set multiplot title ");
	gp_text(b, title, true);
	fputs("\nset grid xtics\nset style fill solid 0.7 border -1\nset key off\nset ytics scale 0\n"
	      "set format x '%.0s%c'\nunset ylabel\nset xtics nomirror\nset ytics nomirror\n", b);
	fprintf(b, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n", left, 1 - 24.0 / CHART_W);
	/* each panel's place on the canvas, top down, in px: a title line, 24 px a bar, an axis */
	double top = 14.0 * (double)title_lines + 20, bar_px = 24, axis_px = 44, ptitle_px = 26;
	double height = top;
	for (size_t q = 0; q < np; q++) {
		size_t nbars = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			char op[64];
			rep_row_op(t, r, op, sizeof(op));
			nbars += strcmp(op, ops[q]) == 0 && (table_num(t, r, size) == psize[q] || isnan(psize[q]));
		}
		height += ptitle_px + bar_px * (double)(nbars + 1) + axis_px;
	}
	int canvas_h = (int)ceil(height);
	double y = top;
	for (size_t q = 0; q < np; q++) {
		bool bulk = false;
		size_t nbars = 0;
		double hi_all = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			char op[64];
			rep_row_op(t, r, op, sizeof(op));
			if (strcmp(op, ops[q]) == 0 && (table_num(t, r, size) == psize[q] || isnan(psize[q]))) {
				bulk |= !isnan(table_num(t, r, mbd));
				nbars++;
			}
		}
		char sz[32] = "", ptitle[200];
		if (psize[q] > 0)
			units_format_signature_size(sz, sizeof(sz), (uint64_t)psize[q]);
		snprintf(ptitle, sizeof(ptitle), "%s%s%s: %s per $", ops[q], sz[0] ? " @" : "", sz,
			 bulk ? "MB" : "operations");
		fputs("# ", dat);
		put_line(dat, ptitle);
		fputs("\n# config per_dollar per_dollar_for_people threads low_95 high_95 not_ranked\n", dat);
		size_t k = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			char op[64];
			rep_row_op(t, r, op, sizeof(op));
			if (strcmp(op, ops[q]) != 0 || !(table_num(t, r, size) == psize[q] || isnan(psize[q])))
				continue;
			double v = table_num(t, r, bulk ? mbd : opd);
			/* the figure as the cost table beside shows it: its own cell */
			char people[48];
			int text = bulk ? mbd_text : opd_text;
			if (text >= 0)
				table_format_cell(t, r, (size_t)text, people, sizeof(people));
			else
				table_format_count(people, sizeof(people), v);
			/* a figure the report doubts is drawn, marked: it is no answer (the cost table says why) */
			bool doubted = table_str(t, r, doubt) != NULL;
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
			const char *name = cell_str(t, r, config)[0] ? cell_str(t, r, config) : cell_str(t, r, inst);
			fputc('"', dat);
			for (const char *c = name; *c; c++)
				fputc(*c == '"' ? '\'' : (unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c, dat);
			fprintf(dat, "\" %.0f \"%s\" %.0f ", isnan(v) ? 0 : v, people, table_num(t, r, threads));
			/* no interval: the bar alone, its whiskers at its end */
			fprintf(dat, "%.0f %.0f %d\n", isnan(lo) ? (isnan(v) ? 0 : v) : lo,
				isnan(hi) ? (isnan(v) ? 0 : v) : hi, doubted);
			k++;
		}
		fputs("\n\n", dat);
		double ph = ptitle_px + bar_px * (double)(nbars + 1) + axis_px;
		fprintf(b, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1 - (y + ptitle_px) / canvas_h,
			1 - (y + ph - axis_px) / canvas_h);
		y += ph;
		fputs("set title ", b);
		gp_str(b, ptitle);
		/* room right of the longest bar for its figure ("113.3M, not ranked") */
		double xmax = hi_all > 0 ? hi_all * 1.45 : 1;
		fprintf(b, "\nset xrange [0:%.6g]\nset xtics %.6g\nset yrange [%zu.6:-0.6]\n", xmax,
			nice_step(xmax, 5), nbars - 1);
		fprintf(b, "plot 'cost.dat' index %zu using ($2/2):0:(0):2:($0-0.3):($0+0.3):($7 > 0 ? 0xbbbbbb : 0x5b7fc7):"
			   "ytic(1) with boxxyerror lc rgb variable, \\\n"
			   "     '' index %zu using 2:0:5:6 with xerrorbars pt -1 lw 1.5 lc rgb '#222222', \\\n"
			   "     '' index %zu using 6:0:3 with labels left offset 0.8,0\n", q, q, q);
	}
	fputs("unset multiplot\n", b);
	fclose(b);
	gp_twice_px(gp, "cost", body, CHART_W, canvas_h);
	free(body);
	close_pair(p, dat, gp);
	plot_done(p, "cost", title);
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
	int sig = table_col(t, "signature"), opc = table_col(t, "op"), metric = table_col(t, "metric");
	int a = table_col(t, "a"), b = table_col(t, "b"), ratio = table_col(t, "ratio");
	int low = table_col(t, "low"), high = table_col(t, "high");
	if (t->nrows == 0 || (sig < 0 && opc < 0) || ratio < 0 || low < 0 || high < 0)
		return;
	/* one pair of sides names itself in the title; several, in each label */
	bool one_pair = true;
	size_t n[2] = { 0, 0 }, first = SIZE_MAX;
	double lo = 1, hi = 1;
	for (size_t r = 0; r < t->nrows; r++) {
		double v[3] = { table_num(t, r, ratio), table_num(t, r, low), table_num(t, r, high) };
		if (isnan(v[0]) || v[0] <= 0)
			continue;
		first = first == SIZE_MAX ? r : first;
		one_pair &= strcmp(cell_str(t, r, a), cell_str(t, first, a)) == 0 &&
			    strcmp(cell_str(t, r, b), cell_str(t, first, b)) == 0;
		n[!higher_is_better(cell_str(t, r, metric))]++;
		for (int k = 0; k < 3; k++)
			if (!isnan(v[k]) && v[k] > 0) {
				lo = fmin(lo, v[k]);
				hi = fmax(hi, v[k]);
			}
	}
	if (n[0] + n[1] == 0)
		return;
	FILE *dat = plot_open(p, "compare", "dat"), *gp = plot_open(p, "compare", "gp");
	char *body = NULL;
	size_t blen = 0;
	FILE *bd = dat && gp ? open_memstream(&body, &blen) : NULL;
	if (!bd) {
		close_pair(p, dat, gp);
		return;
	}
	/* a label as wide as the left 45% of the canvas allows: longer ones take two lines, at " vs " */
	size_t label_chars = (size_t)((0.45 * CHART_W - 24) / CHAR_PX), lines = 1, longest = 0;
	fputs("# label colour ratio_as_in_the_table ratio_b_over_a low_95 high_95 differs\n", dat);
	for (int panel = 0; panel < 2; panel++) {
		fprintf(dat, "# %s\n", panel ? "latency: lower is better" : "throughput: higher is better");
		for (size_t r = 0; r < t->nrows; r++) {
			double v = table_num(t, r, ratio), l = table_num(t, r, low), h = table_num(t, r, high);
			if (isnan(v) || v <= 0 || higher_is_better(cell_str(t, r, metric)) == (panel == 1))
				continue;
			char op[64], label[300], shown[32];
			rep_row_op(t, r, op, sizeof(op));
			snprintf(label, sizeof(label), "%s%s%s%s%s %s", one_pair ? "" : cell_str(t, r, b), one_pair ? "" : " vs ",
				 one_pair ? "" : cell_str(t, r, a), one_pair ? "" : ": ", op, cell_str(t, r, metric));
			flatten(label);
			if (strlen(label) > label_chars) {
				char *vs = strstr(label, " vs ");
				if (vs && (size_t)(vs - label) <= label_chars) {
					vs[0] = '\n';
					lines = 2;
				} else {
					label[label_chars - 3] = '\0';
					strcat(label, "...");
				}
			}
			for (char *line = label; *line;) {
				size_t len = strcspn(line, "\n");
				longest = len > longest ? len : longest;
				line += len + (line[len] == '\n');
			}
			bool differs = !isnan(l) && !isnan(h) && (l > 1 || h < 1);
			bool better = differs && (panel == 0 ? l > 1 : h < 1);
			table_format_cell(t, r, (size_t)ratio, shown, sizeof(shown));
			fputc('"', dat);
			for (const char *c = label; *c; c++)
				if (*c == '\n')
					fputs("\\n", dat);
				else
					fputc(*c == '"' ? '\'' : *c, dat);
			fprintf(dat, "\" %d \"%s\" %.3f %.3f %.3f %d\n", differs ? better ? CMP_BETTER : CMP_WORSE : CMP_SAME,
				shown, v, isnan(l) ? v : l, isnan(h) ? v : h, differs);
		}
		fputs("\n\n", dat);
	}
	char head[600], title[800];
	if (one_pair)
		snprintf(head, sizeof(head), "B/A per op with its 95%% interval, B = %s, A = %s", cell_str(t, first, b),
			 cell_str(t, first, a));
	else
		snprintf(head, sizeof(head), "B/A per op with its 95%% interval");
	chart_title(title, sizeof(title), p, head, p->launch);
	size_t title_lines = 1;
	for (const char *c = title; *c; c++)
		title_lines += *c == '\n';
	/* the canvas top down, in px: the title, the legend's line, each panel (its title, rows, axis) */
	double row_px = lines == 2 ? 32 : 24, ptitle_px = 26, axis_px = 40;
	double top = 14.0 * (double)title_lines + 12, legend_px = 26;
	int canvas_h = (int)ceil(top + legend_px + (n[0] ? ptitle_px + row_px * (double)(n[0] + 1) + axis_px : 0) +
				 (n[1] ? ptitle_px + row_px * (double)(n[1] + 1) + axis_px : 0) + 16);
	fputs("set multiplot title ", bd);
	gp_text(bd, title, true);
	fputs("\nset grid xtics\nset key off\nset ytics scale 0 nomirror\nset xtics nomirror\nunset ylabel\n", bd);
	fprintf(bd, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n",
		fmin(((double)longest * CHAR_PX + 20) / CHART_W, 0.5), 1 - 20.0 / CHART_W);
	gp_ratio_tics(bd, lo / 1.1, hi * 1.1);
	/* the legend: three marks and what they say, one line, under the title */
	static const struct { int rgb; const char *what; } legend[] = {
		{ CMP_BETTER, "B better" }, { CMP_WORSE, "B worse" }, { CMP_SAME, "no difference (interval holds 1x) or no interval" },
	};
	double lx = 20, ly = top + legend_px / 2;
	for (size_t k = 0; k < sizeof(legend) / sizeof(legend[0]); k++) {
		fprintf(bd, "set label %zu '%s' at screen %.4f, %.4f left point pt 7 ps 1.2 lc rgb '#%06x' offset 1.2,0\n",
			k + 1, legend[k].what, lx / CHART_W, 1 - ly / canvas_h, legend[k].rgb);
		lx += (double)strlen(legend[k].what) * CHAR_PX + 44;
	}
	double y = top + legend_px;
	for (int panel = 0; panel < 2; panel++) {
		if (!n[panel])
			continue;
		double ph = ptitle_px + row_px * (double)(n[panel] + 1) + axis_px;
		fprintf(bd, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1 - (y + ptitle_px) / canvas_h,
			1 - (y + ph - axis_px) / canvas_h);
		y += ph;
		fprintf(bd, "set title '%s'\n", panel ? "latency (p50, p99): lower is better, B faster left of 1x"
						     : "throughput: higher is better, B faster right of 1x");
		fprintf(bd, "set yrange [%zu.5:-0.5]\n", n[panel] - 1);
		fputs("set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb '#555555'\n", bd);
		fprintf(bd, "plot 'compare.dat' index %d using 4:0:5:6:2:ytic(1) with xerrorbars pt 7 ps 1.3 lw 2 "
			    "lc rgb variable, \\\n     '' index %d using 4:0:3 with labels offset 0,0.85\n", panel, panel);
		if (panel == 0)
			fputs("unset label\n", bd);
	}
	fputs("unset multiplot\n", bd);
	fclose(bd);
	gp_twice_px(gp, "compare", body, CHART_W, canvas_h);
	free(body);
	close_pair(p, dat, gp);
	plot_done(p, "compare", title);
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
		append(buf, len, "%s%s", k ? ", " : n > 1 ? "runs " : "run ", ids[k]);
	if (more)
		append(buf, len, ", ...");
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
		/* one chart per array: at its first row, when the array is to be drawn */
		bool first = true;
		for (size_t q = 0; q < r && first; q++)
			first = !(strcmp(cell_str(t, q, arr), cell_str(t, r, arr)) == 0 &&
				  strcmp(cell_str(t, q, table_col(t, "host")), cell_str(t, r, table_col(t, "host"))) == 0 &&
				  strcmp(cell_str(t, q, table_col(t, "op")), cell_str(t, r, table_col(t, "op"))) == 0 &&
				  table_num(t, q, table_col(t, "threads")) == table_num(t, r, table_col(t, "threads")) &&
				  table_num(t, q, table_col(t, "size")) == table_num(t, r, table_col(t, "size")));
		if (!first)
			continue;
		size_t end = r + 1;
		bool has_slow = table_num(t, r, slow) > 0;
		while (end < t->nrows && strcmp(cell_str(t, end, arr), cell_str(t, r, arr)) == 0 &&
		       strcmp(cell_str(t, end, table_col(t, "host")), cell_str(t, r, table_col(t, "host"))) == 0) {
			has_slow |= table_num(t, end, slow) > 0;
			end++;
		}
		if (any_slow ? !has_slow : chart > 0)
			continue;
		char name[64], title[700], head[600];
		snprintf(name, sizeof(name), "members-%zu", ++chart);
		FILE *dat = plot_open(p, name, "dat"), *gp = plot_open(p, name, "gp");
		if (!dat || !gp) {
			close_pair(p, dat, gp);
			return;
		}
		snprintf(head, sizeof(head), "Await per member of %s on %s: %s, %.0f threads", cell_str(t, r, arr),
			 cell_str(t, r, table_col(t, "host")), cell_str(t, r, table_col(t, "op")),
			 table_num(t, r, table_col(t, "threads")));
		chart_title(title, sizeof(title), p, head, 0);
		gp_head(gp, name, title, "time since the first run's start (s)", "await per completed I/O (ms)");
		size_t longest = 0;
		for (size_t k = r; k < end; k++)
			longest = strlen(cell_str(t, k, mem)) > longest ? strlen(cell_str(t, k, mem)) : longest;
		gp_key(gp, end - r, longest);
		fputs("set yrange [0:*]\nset offsets 0, 0, graph 0.1, 0\n", gp);
		for (size_t k = r; k < end; k++) {
			const char *member = cell_str(t, k, mem);
			fputs("# ", dat);
			put_line(dat, member);
			fputs("\n# seconds await_ms\n", dat);
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
						dat_num(dat, run->launch - t0 + ((double)b + 0.5) * (run->bucket > 0 ? run->bucket : 1));
						fputc(' ', dat);
						dat_num(dat, aw);
						fputc('\n', dat);
					}
				}
			}
			fputs("\n\n", dat);
			gp_line(gp, name, k == r, k - r, "1:2", "linespoints lw 1.5 pt 7 ps 0.6", member, k + 1 == end);
		}
		chart_end(p, dat, gp, name, title);
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
	/* the PTS chart of each run in rounds (report/charts/plot_steady.c), drawn with these helpers */
	const struct plot_kit steady_kit = { &p, plot_open, close_pair, chart_end, gp_head, chart_title, describe, dat_num };
	rep_plot_steady(&steady_kit, db);
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
