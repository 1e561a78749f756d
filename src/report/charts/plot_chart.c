/* report/charts/plot_chart.c - the chart skeleton: a chart's files, title, script head and end, series, data rows. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/charts/plot_chart.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/units.h"
#include "report/store/opname.h"
#include "report/store/warn.h"

/* The PNG, a file to share, is the SVG's layout at twice its pixels. */
#define PNG_SCALE 2

/* Characters of a legend entry that fit below a plot w px wide, as gnuplot reckons them. */
static size_t legend_chars(int w)
{
	return (size_t)((w - 70) / 7);
}

/* DIR/NAME.EXT opened for writing, or NULL (said; the plot failed). */
static FILE *open_file(struct plotter *p, const char *name, const char *ext)
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

/* Close a chart's file; one that could not be written (a full disk) is said so and marks the chart lost. */
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

/* The chart listed for rendering and the page, unless its files did not reach the disk. */
static void listed(struct plotter *p, const char *name, const char *title)
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

void chart_put_line(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, f);
}

void chart_flatten(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}

/*
 * A gnuplot single-quoted string: '' is its only escape, and unlike a
 * double-quoted one it never runs `backquoted` commands, which a label or
 * host name read from a result file could hold. A control character is a
 * space; but with lines, a newline (a title's second line) is joined in as
 * the expression '...'."\n".'...'.
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

/* The script's first lines: what it is, a clean gnuplot. */
static void gp_first(FILE *f, const char *name)
{
	fprintf(f, "# %s.gp - written by iobench report; run: gnuplot %s.gp\n", name, name);
	fputs("reset\nset encoding utf8\n", f);
}

void chart_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

void chart_describe(char *buf, size_t len, const struct rep_cell *c, bool with_threads, bool with_size)
{
	char op[64];
	rep_op_name(c->sig, op, sizeof(op));
	buf[0] = '\0';
	chart_append(buf, len, "%s", op);
	if (with_threads)
		chart_append(buf, len, ", %.0f thread%s", c->threads, c->threads == 1 ? "" : "s");
	if (c->cfg->name[0])
		chart_append(buf, len, ", %s", c->cfg->name);
	if (with_size && c->size) {
		char sz[32];
		units_format_signature_size(sz, sizeof(sz), c->size);
		chart_append(buf, len, ", size %s", sz);
	}
}

void chart_date(char *buf, size_t len, double launch)
{
	buf[0] = '\0';
	if (launch < 1e9)
		return;
	time_t t = (time_t)launch;
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%d", &tm);
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
static void make_title(char *buf, size_t len, const struct plotter *p, const char *what, double launch)
{
	char date[32];
	chart_date(date, sizeof(date), launch);
	snprintf(buf, len, "%s", what);
	chart_flatten(buf); /* labels and run ids come from result files: the only line breaks are ours */
	wrap_text(buf, len, title_chars(CHART_W));
	if (p->run[0] || date[0]) {
		char second[200];
		snprintf(second, sizeof(second), "%s%s%s", p->run, p->run[0] && date[0] ? ", " : "", date[0] ? date : "");
		chart_flatten(second);
		chart_append(buf, len, "\n%s", second);
	}
}

/* Both files of chart name opened, its title made; false (nothing left open) when a file could not be. */
static bool open_pair(struct chart *c, struct plotter *p, const char *name, const char *head, double launch)
{
	c->p = p;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->w = CHART_W;
	c->h = CHART_H;
	c->legend_w = CHART_W;
	c->plotting = false;
	c->body = NULL;
	c->blen = 0;
	c->dat = open_file(p, name, "dat");
	c->script = open_file(p, name, "gp");
	c->gp = c->script;
	if (!c->dat || !c->script) {
		close_pair(p, c->dat, c->script);
		return false;
	}
	size_t max = c->title_max && c->title_max < sizeof(c->title) ? c->title_max : sizeof(c->title);
	make_title(c->title, max, p, head, launch);
	return true;
}

bool chart_open(struct chart *c, struct plotter *p, const char *name, const char *head, double launch,
		const char *xlabel, const char *ylabel)
{
	if (!open_pair(c, p, name, head, launch))
		return false;
	/* PNG first: the chart plots, chart_close re-plots as SVG */
	gp_first(c->gp, name);
	gp_term(c->gp, name, true, c->w, c->h);
	fputs("set title ", c->gp);
	gp_text(c->gp, c->title, true);
	fputs("\nset xlabel ", c->gp);
	gp_str(c->gp, xlabel);
	fputs("\nset ylabel ", c->gp);
	gp_str(c->gp, ylabel);
	fputs("\nset grid\n", c->gp);
	return true;
}

bool chart_open_multi(struct chart *c, struct plotter *p, const char *name, const char *head, double launch,
		      const char *layout)
{
	if (!open_pair(c, p, name, head, launch))
		return false;
	c->gp = open_memstream(&c->body, &c->blen);
	if (!c->gp) {
		close_pair(p, c->dat, c->script);
		return false;
	}
	fputs("set multiplot ", c->gp);
	if (layout)
		fprintf(c->gp, "layout %s ", layout);
	fputs("title ", c->gp);
	gp_text(c->gp, c->title, true);
	fputc('\n', c->gp);
	return true;
}

void chart_close(struct chart *c)
{
	chart_plot(c);
	if (c->gp != c->script) {
		fputs("unset multiplot\n", c->gp);
		fclose(c->gp);
		gp_first(c->script, c->name);
		gp_term(c->script, c->name, true, c->w, c->h);
		fputs(c->body, c->script);
		gp_term(c->script, c->name, false, c->w, c->h);
		fputs(c->body, c->script);
		fputs("unset output\n", c->script);
		free(c->body);
		c->body = NULL;
	} else {
		gp_term(c->script, c->name, false, c->w, c->h);
		fputs("replot\nunset output\n", c->script);
	}
	close_pair(c->p, c->dat, c->script);
	listed(c->p, c->name, c->title);
}

/* The next line of the plot command: "plot" for the first, the continuation for the others. */
static void series_start(struct chart *c, const char *source)
{
	if (c->plotting)
		fputs(", \\\n     ", c->gp);
	else
		fputs("plot ", c->gp);
	if (source)
		fputs(source, c->gp);
	else
		fprintf(c->gp, c->plotting ? "''" : "'%s.dat'", c->name);
	c->plotting = true;
}

static void series_title(struct chart *c, const char *title)
{
	if (!title)
		return;
	char fit[200];
	fit_label(fit, sizeof(fit), title, legend_chars(c->legend_w));
	fputs(" title ", c->gp);
	gp_str(c->gp, fit);
}

void chart_series(struct chart *c, size_t block, const char *using, const char *style, const char *title)
{
	series_start(c, NULL);
	/* gnuplot has 8 colours: the 9th line on is dashed, else two lines would look one */
	char dash[16] = "";
	if (block != CHART_ALL && block >= 8 && !strstr(style, "dt "))
		snprintf(dash, sizeof(dash), " dt %zu", block / 8 + 1);
	if (block != CHART_ALL)
		fprintf(c->gp, " index %zu", block);
	fprintf(c->gp, " using %s with %s%s", using, style, dash);
	series_title(c, title);
}

void chart_legend(struct chart *c, const char *style, const char *title)
{
	series_start(c, "NaN");
	fprintf(c->gp, " with %s", style);
	series_title(c, title);
}

void chart_plot(struct chart *c)
{
	if (c->plotting)
		fputc('\n', c->gp);
	c->plotting = false;
}

void chart_grow(struct chart *c, int px)
{
	c->h += px;
	fprintf(c->gp, "set terminal pngcairo size %d,%d\n", c->w * PNG_SCALE, c->h * PNG_SCALE);
}

/*
 * Below the plot, as many columns as gnuplot fits (it reckons 7 px a
 * character and 50 px for an entry's sample line and gaps), the canvas 15 px
 * taller a row past two.
 */
void chart_key(struct chart *c, size_t nlines, size_t longest)
{
	if (nlines <= 6 && longest <= 32) {
		fputs("set key inside top left vertical opaque box width 1\n", c->gp);
		return;
	}
	if (longest > legend_chars(CHART_W)) /* chart_series shortens it so */
		longest = legend_chars(CHART_W);
	size_t cols = (size_t)((CHART_W - 20) / (7.0 * (double)longest + 50));
	cols = cols < 1 ? 1 : cols > 5 ? 5 : cols;
	size_t rows = (nlines + cols - 1) / cols;
	/* height 1: a line's room between the axis label and the legend, whose texts would touch */
	fprintf(c->gp, "set key below horizontal maxcols %zu height 1\n", cols);
	if (rows > 2)
		chart_grow(c, (int)(rows - 2) * 15);
}

void chart_lat_tics(struct chart *c, const char *axis)
{
	static const char *const unit[] = { "1us", "10us", "100us", "1ms", "10ms", "100ms", "1s", "10s" };
	fprintf(c->gp, "set logscale %s 10\nset %stics (", axis, axis);
	for (int k = 0; k < 8; k++)
		fprintf(c->gp, "%s'%s' %g", k ? ", " : "", unit[k], pow(10, k));
	fputs(")\n", c->gp);
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

/* 1, 2 and 5 of each decade while a decade has the room (150 px), 1 and 3 at half that, else the decades. */
void chart_log_tics(struct chart *c, const char *axis, double lo, double hi, double px)
{
	static const double steps[3][4] = { { 1, 2, 5, 0 }, { 1, 3, 0, 0 }, { 1, 0, 0, 0 } };
	double decade_px = px / fmax(log10(hi / lo), 0.1);
	int s = decade_px >= 150 ? 0 : decade_px >= 75 ? 1 : 2;
	fprintf(c->gp, "set %stics (", axis);
	bool first = true;
	for (double d = pow(10, floor(log10(lo))); d <= hi; d *= 10)
		for (int k = 0; k < 4 && steps[s][k] > 0; k++) {
			double v = d * steps[s][k];
			if (v < lo || v > hi)
				continue;
			char label[32];
			tic_label(label, sizeof(label), v);
			fprintf(c->gp, "%s'%s' %.10g", first ? "" : ", ", label, v);
			first = false;
		}
	fputs(")\n", c->gp);
}

void chart_set_text(struct chart *c, const char *what, const char *text)
{
	fprintf(c->gp, "set %s ", what);
	gp_str(c->gp, text);
	fputc('\n', c->gp);
}

void chart_panel_at(struct chart *c, double top, double bottom)
{
	fprintf(c->gp, "set tmargin at screen %.4f\nset bmargin at screen %.4f\n", 1 - top / c->h, 1 - bottom / c->h);
}

size_t chart_title_lines(const struct chart *c)
{
	size_t n = 1;
	for (const char *s = c->title; *s; s++)
		n += *s == '\n';
	return n;
}

void chart_block(struct chart *c, const char *what, const char *columns)
{
	if (what) {
		fputs("# ", c->dat);
		chart_put_line(c->dat, what);
		fputc('\n', c->dat);
	}
	if (columns)
		fprintf(c->dat, "# %s\n", columns);
}

void chart_block_end(struct chart *c)
{
	fputs("\n\n", c->dat);
}

void chart_num(struct chart *c, double v)
{
	if (isnan(v) || isinf(v)) {
		fputs("NaN", c->dat);
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
	fputs(buf, c->dat);
}

void chart_row(struct chart *c, const double *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (k)
			fputc(' ', c->dat);
		chart_num(c, v[k]);
	}
	fputc('\n', c->dat);
}

void chart_label(struct chart *c, const char *s, bool lines)
{
	fputc('"', c->dat);
	for (; *s; s++)
		if (*s == '\n' && lines)
			fputs("\\n", c->dat);
		else
			fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, c->dat);
	fputs("\" ", c->dat);
}
