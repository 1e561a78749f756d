/*
 * SPDX-License-Identifier: Apache-2.0
 * plot_chart.h - the chart skeleton of `iobench report --plot`: every chart
 * (plot.c's, plot_heat.c's, plot_steady.c's) is opened, declared and closed
 * through it, so that a chart function says what its chart shows and writes
 * its data, and nothing else.
 *
 * A chart is NAME.dat (its data: gnuplot blocks, each ended by two blank
 * lines) and NAME.gp (its script) in the plot folder. Its life:
 *   chart_open / chart_open_multi  both files, the title, the script's head
 *   the chart's own `set` lines on c->gp (chart_key, chart_lat_tics... help)
 *   chart_series                   the lines of its plot command, after them
 *   chart_block, chart_row         its data on c->dat, at any time
 *   chart_close                    the rest of the script, both files closed,
 *                                  the chart listed for rendering and the page
 * A chart whose files could not be opened is said (through the plotter's
 * warn) and not drawn; one whose files did not reach the disk (a full disk)
 * is said at chart_close and not listed.
 *
 * Sizes. The page (html.c) shows a chart's SVG at its canvas width or wider,
 * never narrower (a narrower screen scrolls the figure in its own box), so
 * that text CHART_FONT px tall on the canvas is at least that on the page:
 * two charts a row in the wide layout (1400 px), one in the narrow (700 px),
 * whose column CHART_W and CHART_WIDE fit. Every text of a chart is
 * CHART_FONT px, none smaller.
 */
#ifndef IOBENCH_REPORT_PLOT_CHART_H
#define IOBENCH_REPORT_PLOT_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/store/db.h"

#define CHART_W 600    /* a chart's canvas, px */
#define CHART_H 400
#define CHART_WIDE 640 /* the widest canvas: small multiples */
#define CHART_FONT 10
/* About the width of a character of the chart's font (DejaVu Sans, 10 px), for what must fit. */
#define CHAR_PX 6.4

/* The charts of one --plot: the folder, the charts written, what every title names. */
struct plotter {
	const char *dir;
	rep_warn_fn *warn; /* the db's: says what could not be written */
	void *warn_arg;
	char **names;  /* charts written, rendered at the end */
	char **titles; /* their titles, for index.html */
	size_t n, cap;
	int failed;
	char run[160]; /* "run r1" / "runs r1, r2": what every title names; "" unknown */
	bool lost;     /* the chart being written did not reach the disk */
	double launch; /* the earliest run's launch: the date of charts across groups (cost, compare) */
};

/* chart_series' block for a plot of the whole data file. */
#define CHART_ALL ((size_t)-1)

/* The chart being written. Fields above the line are the chart's to read and set. */
struct chart {
	struct plotter *p;
	FILE *dat;        /* NAME.dat */
	FILE *gp;         /* where its commands go: NAME.gp, or a multiplot's body */
	char name[64];
	char title[1024]; /* "WHAT\nrun r1, 2026-11-21": the chart's and the page's */
	int w, h;         /* the canvas, px: CHART_W x CHART_H unless the chart sets them before chart_close */
	int legend_w;     /* the width (px) a legend entry is cut to fit (chart_series): CHART_W, a panel's less */
	/*
	 * Where the title is cut (bytes, 0: sizeof(title)), set before
	 * chart_open: each chart keeps the length it always had.
	 */
	size_t title_max;
	/* ---- the skeleton's own */
	FILE *script;     /* NAME.gp */
	char *body;       /* a multiplot's commands, written twice at chart_close (PNG, SVG) */
	size_t blen;
	bool plotting;    /* a plot command is open: the next series continues it */
};

/*
 * Open chart NAME: NAME.dat and NAME.gp (never through a link), its title of
 * head (broken into lines that fit; the run and the date of launch, a Unix
 * time, under it), the script's head (the PNG terminal and output, title,
 * axis labels, grid). false when a file could not be opened (said; nothing
 * is left open, the chart is not drawn).
 */
bool chart_open(struct chart *c, struct plotter *p, const char *name, const char *head, double launch,
		const char *xlabel, const char *ylabel);

/*
 * The same for a chart of several panels (multiplot, which replot cannot
 * redraw): its commands are kept and written twice at chart_close, for the
 * PNG and for the SVG, after "set multiplot [layout LAYOUT] title TITLE".
 * false when a file could not be opened, or no memory.
 */
bool chart_open_multi(struct chart *c, struct plotter *p, const char *name, const char *head, double launch,
		      const char *layout);

/*
 * The script's end (the plot command ended; the SVG's lines: replot, or a
 * multiplot's commands again at c->w x c->h), both files closed, the chart
 * listed for rendering and for the page unless its files were lost.
 */
void chart_close(struct chart *c);

/*
 * One line of the plot command: block `block` of NAME.dat (CHART_ALL: the
 * file) drawn `using` with `style`, in the legend as title (cut to
 * c->legend_w; NULL: no title clause, which a style may hold as
 * "notitle"). The first series opens the command, the others continue it,
 * chart_plot or chart_close ends it. The 9th block on is dashed (gnuplot has
 * 8 colours) unless the style says its dash.
 */
void chart_series(struct chart *c, size_t block, const char *using, const char *style, const char *title);
/* A legend entry of nothing drawn (a line marked by `set arrow`): NaN with style. */
void chart_legend(struct chart *c, const char *style, const char *title);
/* End the plot command (a multiplot's panel). */
void chart_plot(struct chart *c);

/*
 * The legend: inside the plot (top left) when its nlines are few and short
 * (longest characters), else below it, in columns, the canvas taller by its
 * rows so that the plot keeps its height.
 */
void chart_key(struct chart *c, size_t nlines, size_t longest);
/* The canvas taller by px, for what its margins must hold. */
void chart_grow(struct chart *c, int px);
/* Tics of a latency axis ("x" or "y") in microseconds, log scale, labelled 100us, 1ms, 1s. */
void chart_lat_tics(struct chart *c, const char *axis);
/* Tics of a log 10 axis over [lo, hi] as wide as px: 1, 2 and 5 a decade while they fit, labelled 20k. */
void chart_log_tics(struct chart *c, const char *axis, double lo, double hi, double px);
/* "set WHAT 'TEXT'": a label, a panel's title. */
void chart_set_text(struct chart *c, const char *what, const char *text);
/* A panel between top and bottom px from the canvas' top (of c->h). */
void chart_panel_at(struct chart *c, double top, double bottom);
/* Lines of the title. */
size_t chart_title_lines(const struct chart *c);

/* A data block's head: "# WHAT" and "# COLUMNS" lines, each when not NULL (WHAT on one line). */
void chart_block(struct chart *c, const char *what, const char *columns);
/* A data block's end: two blank lines. */
void chart_block_end(struct chart *c);
/* A number for a .dat file people may open: 4 significant digits, no exponent (69297, 0.5123, 128), NaN. */
void chart_num(struct chart *c, double v);
/* A data row: v[0..n) as chart_num writes them, a space apart. */
void chart_row(struct chart *c, const double *v, size_t n);
/* A quoted text first in a data row, and a space: '"' as '\'', a newline as \n with lines, else a space. */
void chart_label(struct chart *c, const char *s, bool lines);

/* The title's pieces, for what charts say otherwise. */
/* "read4k, 8 threads, m5.large / gp3 x4, size 1G" for titles and legends. */
void chart_describe(char *buf, size_t len, const struct rep_cell *c, bool with_threads, bool with_size);
/* "2026-11-21" of a Unix launchTime; "" for the 2012 tool's (seconds of uptime) or none. */
void chart_date(char *buf, size_t len, double launch);
/* s with each control character (a newline in a label) made a space, in place. */
void chart_flatten(char *s);
/* s on one line to f: a control character is a space. */
void chart_put_line(FILE *f, const char *s);
/* Append to buf (NUL-terminated, len bytes) without overflowing. */
__attribute__((format(printf, 3, 4))) void chart_append(char *buf, size_t len, const char *fmt, ...);

#endif
