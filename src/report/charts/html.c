/*
 * SPDX-License-Identifier: Apache-2.0
 * report/charts/html.c - DIR/index.html for `iobench report --plot DIR`: the
 * findings and their key charts first, then a block per section with its
 * table beside its charts, the per-host tables and per-group charts folded
 * in <details>; self-contained (the SVGs inline), readable on a phone and
 * printable.
 */
#include "report/charts/html.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/sections/analyze.h"
#include "report/store/config.h"

static const char page_css[] =
	"body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1240px;padding:0 1em 2em;color:#222;"
	"line-height:1.4}\n"
	"h1{font-size:1.5em;margin:.5em 0 .1em}h2{font-size:1.2em;margin:1.2em 0 .4em;"
	"border-bottom:1px solid #ccc}\n"
	".sub{margin:.1em 0;color:#555;font-size:.9em}\n"
	"nav{font-size:.9em;margin:.3em 0}nav a{margin-right:.8em;white-space:nowrap}\n"
	".findings{margin:.3em 0 .8em;padding-left:1.3em}.findings li{margin:.2em 0}\n"
	".topic{font-weight:600;margin-right:.4em}.see{font-size:.85em;margin-left:.4em}\n"
	/* a table scrolls sideways in its own box: the page never cuts a column, nor grows a scroll bar */
	".tbl{overflow-x:auto;max-width:100%;-webkit-overflow-scrolling:touch}\n"
	"table{border-collapse:collapse;font-size:.85em;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:.12em .55em;text-align:right;white-space:nowrap;border-bottom:1px solid #eee}\n"
	"th{background:#f4f4f4}th.s,td.s{text-align:left}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	".note{font-size:.85em;color:#555;white-space:pre-wrap;max-width:60em}\n"
	/* a section: its table beside its charts on a wide screen, under them on a narrow one */
	".block{display:grid;gap:1em;align-items:start;grid-template-columns:minmax(0,1fr)}\n"
	/*
	 * A chart is drawn for its canvas's width (plot.c): shown that wide or
	 * wider (to a quarter more), never narrower, so its text is never
	 * smaller than drawn; a narrower screen scrolls it in its figure. The
	 * charts' column is as wide as a canvas (600 px), two a row from 1240 px.
	 */
	"@media (min-width:1280px){.block.side{grid-template-columns:fit-content(calc(100% - 640px)) minmax(620px,1fr)}}\n"
	".figs{display:grid;gap:.8em;grid-template-columns:repeat(auto-fill,minmax(min(100%,600px),1fr))}\n"
	".block>*{min-width:0}.figs.one{grid-template-columns:minmax(0,1fr)}\n"
	"figure{margin:0;break-inside:avoid;overflow-x:auto}figure.wide{grid-column:1/-1}\n"
	"figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.8em;color:#555}\n"
	"details{margin:.4em 0}details>summary{cursor:pointer;font-weight:600;font-size:.95em}\n"
	".failed{color:#a00}\n"
	"@media (max-width:600px){body{padding:0 .4em}table{font-size:.75em}h1{font-size:1.3em}}\n"
	"@media print{body{max-width:none;padding:0}nav{display:none}.tbl{overflow:visible}"
	".block.side{grid-template-columns:minmax(0,1fr)}"
	"details::details-content{content-visibility:visible;display:contents}"
	"table{font-size:7pt}section,figure{break-inside:avoid}"
	"h2{break-after:avoid}a{color:inherit;text-decoration:none}}\n";

/* Printing opens every <details>: a folded table or chart is printed, not its summary alone. */
static const char page_js[] =
	"addEventListener('beforeprint',()=>document.querySelectorAll('details').forEach(d=>d.open=true));\n";

/* Copy NAME.svg from dir into out from its <svg> on, titled; false when it cannot be read. */
static bool inline_svg(FILE *out, const char *dir, const char *name, const char *title)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
		len += got;
		if (len + 1 == cap) {
			char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		return false;
	buf[len] = '\0';
	char *svg = strstr(buf, "<svg");
	if (!svg) {
		free(buf);
		return false;
	}
	/* shown at its canvas width to a quarter more: its text as large as drawn (see page_css) */
	double w = 0;
	const char *vb = strstr(svg, "viewBox=\"");
	if (vb && vb < strchr(svg, '>'))
		sscanf(vb, "viewBox=\"%*f %*f %lf", &w);
	if (w > 0) {
		fprintf(out, "<svg style=\"min-width:%.0fpx;max-width:%.0fpx\"", w, w * 1.25);
		svg += 4;
	}
	/* gnuplot titles every SVG "Gnuplot": a reader hovering it learns nothing. */
	char *t = strstr(svg, "<title>Gnuplot</title>");
	if (t) {
		fwrite(svg, 1, (size_t)(t - svg), out);
		fputs("<title>", out);
		table_html_text(title, out);
		fputs("</title>", out);
		fputs(t + strlen("<title>Gnuplot</title>"), out);
	} else {
		fputs(svg, out);
	}
	free(buf);
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Hosts named by the cells, each once. */
static size_t count_hosts(const struct rep_db *db)
{
	const char **h = calloc(db->ncells + 1, sizeof(*h));
	if (!h)
		return 0;
	for (size_t i = 0; i < db->ncells; i++)
		h[i] = db->cells[i]->host;
	qsort(h, db->ncells, sizeof(*h), cmp_str);
	size_t n = 0;
	for (size_t i = 0; i < db->ncells; i++)
		n += i == 0 || strcmp(h[i - 1], h[i]) != 0;
	free(h);
	return n;
}

/* The method: what was read, how it was grouped and merged, what failed. */
static void method(FILE *out, const struct rep_db *db, const struct table tables[SEC_COUNT])
{
	fputs("<section id=\"method\">\n<h2>Method</h2>\n<p>", out);
	size_t nhosts = count_hosts(db);
	fprintf(out, "Read %lu file%s: %lu run%s of %lu operation%s from %zu host%s in %zu config%s", db->files,
		db->files == 1 ? "" : "s", db->runs, db->runs == 1 ? "" : "s", db->operations,
		db->operations == 1 ? "" : "s", nhosts, nhosts == 1 ? "" : "s", db->nconfigs, db->nconfigs == 1 ? "" : "s");
	if (db->nbonnie)
		fprintf(out, ", %zu bonnie++ lines", db->nbonnie);
	if (db->nverdicts)
		fprintf(out, ", %zu durability verdicts", db->nverdicts);
	if (db->skipped)
		fprintf(out, "; %lu malformed lines skipped", db->skipped);
	fputs(".</p>\n<p>Runs group by operation (signature) &times; thread count &times; config &times; "
	      "size; the config is the user's labels and the provisioned configuration facts "
	      "(instance type, volume type and count, RAID level, ...), the host a field of its own. "
	      "Notes and older bookkeeping labels (run, runId, planStep, ...) never split a group. "
	      "The latency histograms of a group's runs merge exactly (bucket counts add), so "
	      "percentiles are those of all its operations; ops/s is operations over run time, and "
	      "across hosts the mean per host. Counts are successful operations; the 2012 tool's "
	      "lines, which counted failed samples too, are converted on read.</p>\n", out);
	unsigned long apart = 0;
	for (int k = 0; k < REP_PARTIAL_KINDS; k++)
		apart += db->kept_apart[k];
	if (apart) {
		fputs("<p>Kept apart, as groups of their own marked after the config and left out of the "
		      "fleet's figures:", out);
		for (int k = 0, first = 1; k < REP_PARTIAL_KINDS; k++)
			if (db->kept_apart[k]) {
				fprintf(out, "%s %lu %s run%s", first ? "" : ",", db->kept_apart[k], rep_partial_name(k),
					db->kept_apart[k] == 1 ? "" : "s");
				first = 0;
			}
		fputs(" (<code>--include-partial</code> merges them).</p>\n", out);
	}
	if (db->runs_split)
		fputs("<p>Rounds and runs of different durations are separate groups, named so in the config "
		      "(<code>--merge-rounds</code> merges them).</p>\n", out);
	const struct table *fl = &tables[SEC_FLEET];
	if (db->manifests || fl->nrows) {
		/* the fleet section's own columns: always there */
		int host = table_col(fl, "host"), kind = table_col(fl, "kind"), detail = table_col(fl, "detail");
		fprintf(out, "<p>%lu fleet manifest%s read; ", db->manifests, db->manifests == 1 ? "" : "s");
		if (fl->nrows == 0) {
			fputs("every planned host sent its results.</p>\n", out);
		} else {
			fprintf(out, "<span class=\"failed\">%zu host%s failed or sent no results:</span></p>\n<ul>\n",
				fl->nrows, fl->nrows == 1 ? "" : "s");
			char buf[512];
			for (size_t r = 0; r < fl->nrows; r++) {
				/* "i-0abc (unreachable): ssh: connect to host ... timed out" */
				fputs("<li class=\"failed\">", out);
				table_format_cell(fl, r, (size_t)host, buf, sizeof(buf));
				table_html_text(buf, out);
				table_format_cell(fl, r, (size_t)kind, buf, sizeof(buf));
				fputs(" (", out);
				table_html_text(buf, out);
				table_format_cell(fl, r, (size_t)detail, buf, sizeof(buf));
				fputs("): ", out);
				table_html_text(buf, out);
				fputs("</li>\n", out);
			}
			fputs("</ul>\n", out);
		}
	}
	fputs("</section>\n", out);
}

/* Where each chart goes: its section, and what a fold of several says they are. */
static const struct {
	const char *name; /* the chart's name, or with a trailing '-' its prefix before the number */
	enum rep_section sec;
	const char *what; /* "Charts: 12, WHAT" over a fold */
} chart_home[] = {
	{ "cost", SEC_COST, NULL },
	{ "compare", SEC_COMPARE, NULL },
	{ "threads", SEC_THREADS, NULL },
	{ "apples-", SEC_BAD_APPLES, "hosts per throughput level, one per op, config and size at its optimum" },
	{ "instances-", SEC_INSTANCES, "percentiles per instance, one per op, config and size at its optimum" },
	{ "time-", SEC_TIME, "throughput over time per host, absolute and over each host's median, and latency heat maps" },
	{ "timenorm-", SEC_TIME, NULL },
	{ "heat-", SEC_TIME, NULL },
	{ "watchheat-", SEC_WATCH, NULL },
	{ "latency-", SEC_MODES, "latency histograms, one per op and thread count" },
	{ "sizes-", SEC_TIERS, "file-size sweeps" },
	{ "watch-", SEC_WATCH, "latency over time per host" },
	{ "members-", SEC_DEVICES, "array members' await over time, one per host and array" },
	{ "steady-", SEC_STEADY, "runs in rounds: each round's ops/s, the window, its average +-10% and the fitted line" },
};
#define NHOMES (sizeof(chart_home) / sizeof(chart_home[0]))

/* Index into chart_home of a chart's home, or -1 (it goes under "Other charts"). */
static int home_of(const char *name)
{
	for (size_t h = 0; h < NHOMES; h++) {
		size_t n = strlen(chart_home[h].name);
		if (chart_home[h].name[n - 1] == '-' ? strncmp(name, chart_home[h].name, n) == 0
						      : strcmp(name, chart_home[h].name) == 0)
			return (int)h;
	}
	return -1;
}

/* The charts drawn: names and titles, each with its home. */
struct charts {
	const char *dir;
	const char *const *names, *const *titles;
	size_t n;
};

/* One chart as a figure: its SVG inline (its PNG when the SVG is missing), its title and files. */
static void figure(FILE *out, const struct charts *ch, size_t i, const char *idprefix)
{
	bool wide = strcmp(ch->names[i], "threads") == 0;
	fprintf(out, "<figure id=\"%s%s\"%s>\n", idprefix, ch->names[i], wide ? " class=\"wide\"" : "");
	if (!inline_svg(out, ch->dir, ch->names[i], ch->titles[i]))
		fprintf(out, "<img src=\"%s.png\" alt=\"\">\n", ch->names[i]);
	fputs("<figcaption>", out);
	table_html_text(ch->titles[i], out);
	fprintf(out, " (<a href=\"%s.png\">png</a>, <a href=\"%s.gp\">gp</a>)</figcaption>\n</figure>\n",
		ch->names[i], ch->names[i]);
}

/* The width in pixels the table takes unscrolled, about: its widest cells' characters per column. */
static size_t table_px(const struct table *t)
{
	size_t px = 0;
	char buf[512];
	for (size_t c = 0; c < t->ncols; c++) {
		if (!t->cols[c].head)
			continue;
		size_t w = strlen(t->cols[c].head);
		for (size_t r = 0; r < t->nrows; r++) {
			table_format_cell(t, r, c, buf, sizeof(buf));
			w = strlen(buf) > w ? strlen(buf) : w;
		}
		px += w * 15 / 2 + 16;
	}
	return px;
}

/*
 * A table of one line per host (and per time bucket, per mode...) is the
 * evidence, not the answer: folded. So is any long table.
 */
static bool fold_table(const struct table *t)
{
	static const char *const per_host[] = { "groups", "time", "regimes", "series", "modes", "notes", "watch" };
	if (t->nrows > 40)
		return true;
	int host = table_col(t, "host");
	if (host < 0 || t->nrows <= 8)
		return false;
	bool many = false;
	for (size_t r = 1; r < t->nrows && !many; r++) {
		const char *a = t->vals[host].s, *b = t->vals[r * t->ncols + (size_t)host].s;
		many = a && b && strcmp(a, b) != 0;
	}
	for (size_t k = 0; many && k < sizeof(per_host) / sizeof(per_host[0]); k++)
		if (strcmp(t->name, per_host[k]) == 0)
			return true;
	return false;
}

/* "Groups" of "Groups (signature x threads ...)": the title's head, for a fold's summary. */
static void short_title(const struct table *t, FILE *out)
{
	char head[160];
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(t->title, "(,:"), t->title);
	for (size_t n = strlen(head); n > 0 && head[n - 1] == ' '; n--)
		head[n - 1] = '\0';
	table_html_text(head, out);
}

/* A section's block: its table (folded when per host) beside or over its charts (folded when many). */
static void section_block(FILE *out, int sec, const struct table *t, const struct charts *ch, const int *home)
{
	size_t nfig = 0;
	const char *what = NULL;
	for (size_t i = 0; i < ch->n; i++)
		if (home[i] >= 0 && chart_home[home[i]].sec == (enum rep_section)sec) {
			nfig++;
			what = what ? what : chart_home[home[i]].what;
		}
	if (t->nrows == 0 && nfig == 0)
		return;
	bool fold = fold_table(t), fold_charts = nfig > 2;
	/* side by side when the table is narrow enough to leave the charts half the page */
	bool side = t->nrows && nfig && !fold && !fold_charts && table_px(t) <= 600 && strcmp(t->name, "threads") != 0;
	fprintf(out, "<section id=\"%s\">\n<h2>", t->name);
	table_html_text(t->title, out);
	fprintf(out, "</h2>\n<div class=\"block%s\">\n", side ? " side" : "");
	if (t->nrows) {
		fputs("<div>\n", out);
		if (fold) {
			fputs("<details><summary>", out);
			short_title(t, out);
			fprintf(out, ": %zu rows</summary>\n", t->nrows);
		}
		table_print_html(t, out);
		if (fold)
			fputs("</details>\n", out);
		fputs("</div>\n", out);
	}
	if (nfig) {
		if (fold_charts) {
			fprintf(out, "<details><summary>Charts: %zu", nfig);
			if (what) {
				fputs(", ", out);
				table_html_text(what, out);
			}
			fputs("</summary>\n", out);
		}
		fprintf(out, "<div class=\"figs%s\">\n", side ? " one" : "");
		for (size_t i = 0; i < ch->n; i++)
			if (home[i] >= 0 && chart_home[home[i]].sec == (enum rep_section)sec)
				figure(out, ch, i, "chart-");
		fputs("</div>\n", out);
		if (fold_charts)
			fputs("</details>\n", out);
	}
	fputs("</div>\n</section>\n", out);
}

/* The summary's thread optima as the study's round-two table: a row per config, a column per op. */
static void optima_matrix(FILE *out, const struct table *sum)
{
	int kind = table_col(sum, "kind"), op = table_col(sum, "op"), cfg = table_col(sum, "config");
	int thr = table_col(sum, "threads");
	const char *ops[32], *cfgs[64];
	size_t no = 0, nc = 0;
	for (size_t r = 0; r < sum->nrows; r++) {
		const struct tval *row = &sum->vals[r * sum->ncols];
		if (!row[kind].s || strcmp(row[kind].s, "optimum") != 0 || !row[op].s)
			continue;
		const char *c = row[cfg].s ? row[cfg].s : "-";
		size_t i = 0;
		while (i < no && strcmp(ops[i], row[op].s) != 0)
			i++;
		if (i == no && no < 32)
			ops[no++] = row[op].s;
		for (i = 0; i < nc && strcmp(cfgs[i], c) != 0;)
			i++;
		if (i == nc && nc < 64)
			cfgs[nc++] = c;
	}
	fputs("<p>Optimal thread count (fewest within 5% of the best), per config and op "
	      "<a class=\"see\" href=\"#threads\">threads</a></p>\n<div class=\"tbl\"><table>\n<thead><tr><th class=\"s\">config</th>",
	      out);
	for (size_t j = 0; j < no; j++) {
		fputs("<th>", out);
		table_html_text(ops[j], out);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < nc; i++) {
		fputs("<tr><td class=\"s\">", out);
		table_html_text(cfgs[i], out);
		fputs("</td>", out);
		for (size_t j = 0; j < no; j++) {
			double v = NAN;
			for (size_t r = 0; r < sum->nrows; r++) {
				const struct tval *row = &sum->vals[r * sum->ncols];
				if (row[kind].s && strcmp(row[kind].s, "optimum") == 0 && row[op].s &&
				    strcmp(row[op].s, ops[j]) == 0 && strcmp(row[cfg].s ? row[cfg].s : "-", cfgs[i]) == 0)
					v = row[thr].v;
			}
			if (isnan(v))
				fputs("<td>-</td>", out);
			else
				fprintf(out, "<td>%.0f</td>", v);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

/*
 * The findings: the summary's rows, each its sentence and a link to the
 * section holding its evidence; under them the key charts (cost, compare).
 */
static void findings(FILE *out, const struct table *sum, const struct table tables[SEC_COUNT], const struct charts *ch)
{
	int topic = table_col(sum, "topic"), finding = table_col(sum, "finding"), section = table_col(sum, "section");
	int kind = table_col(sum, "kind");
	bool optima = false;
	fputs("<section id=\"findings\">\n<h2>Findings</h2>\n", out);
	if (sum->nrows == 0 || finding < 0) {
		fputs("<p>The summary draws no findings from these results; the sections below hold the figures.</p>\n", out);
	} else {
		fputs("<ul class=\"findings\">\n", out);
		for (size_t r = 0; r < sum->nrows; r++) {
			const struct tval *row = &sum->vals[r * sum->ncols];
			const char *top = topic >= 0 ? row[topic].s : NULL, *sec = section >= 0 ? row[section].s : NULL;
			/* the thread optima are a matrix, under the list */
			if (kind >= 0 && row[kind].s && strcmp(row[kind].s, "optimum") == 0) {
				optima = true;
				continue;
			}
			fputs("<li>", out);
			if (top && top[0]) {
				fputs("<span class=\"topic\">", out);
				table_html_text(top, out);
				fputs("</span>", out);
			}
			table_html_text(row[finding].s, out);
			/* the link only to a section the page holds */
			for (int s = 0; sec && sec[0] && s < SEC_COUNT; s++)
				if (strcmp(tables[s].name, sec) == 0) {
					fputs(" <a class=\"see\" href=\"#", out);
					table_html_text(sec, out);
					fputs("\">", out);
					table_html_text(sec, out);
					fputs("</a>", out);
					break;
				}
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	if (optima)
		optima_matrix(out, sum);
	size_t key = 0;
	for (size_t i = 0; i < ch->n; i++)
		key += strcmp(ch->names[i], "cost") == 0 || strcmp(ch->names[i], "compare") == 0;
	if (key) {
		fputs("<div class=\"figs\">\n", out);
		for (size_t i = 0; i < ch->n; i++)
			if (strcmp(ch->names[i], "cost") == 0 || strcmp(ch->names[i], "compare") == 0)
				figure(out, ch, i, "key-");
		fputs("</div>\n", out);
	}
	fputs("</section>\n", out);
}

int rep_html(const struct rep_db *db, const struct table tables[SEC_COUNT], const char *dir,
	     const char *const *names, const char *const *titles, size_t ncharts)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/index.html", dir);
	int *home = calloc(ncharts + 1, sizeof(*home));
	if (!home)
		return -ENOMEM;
	/* The page is made in memory, then replaces index.html whole (replace_atomically). */
	char *page = NULL;
	size_t page_len = 0;
	FILE *out = open_memstream(&page, &page_len);
	if (!out) {
		free(home);
		return -ENOMEM;
	}
	struct charts ch = { .dir = dir, .names = names, .titles = titles, .n = ncharts };
	size_t other = 0;
	for (size_t i = 0; i < ncharts; i++) {
		home[i] = home_of(names[i]);
		other += home[i] < 0;
	}
	char date[32];
	time_t now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	size_t nhosts = count_hosts(db);
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		     "<title>iobench report, %s</title>\n<style>\n%s</style>\n<script>\n%s</script>\n</head>\n<body>\n"
		     "<h1>iobench report</h1>\n<p class=\"sub\">%lu run%s from %zu host%s in %zu config%s; "
		     "written %s by <code>iobench report --plot</code>.</p>\n",
		date, page_css, page_js, db->runs, db->runs == 1 ? "" : "s", nhosts, nhosts == 1 ? "" : "s",
		db->nconfigs, db->nconfigs == 1 ? "" : "s", date);
	fputs("<nav><a href=\"#findings\">findings</a>", out);
	for (int s = 0; s < SEC_COUNT; s++) {
		bool charts = false;
		for (size_t i = 0; i < ncharts && !charts; i++)
			charts = home[i] >= 0 && chart_home[home[i]].sec == (enum rep_section)s;
		if (s != SEC_SUMMARY && (tables[s].nrows || charts))
			fprintf(out, "\n<a href=\"#%s\">%s</a>", tables[s].name, tables[s].name);
	}
	fputs("\n<a href=\"#method\">method</a></nav>\n", out);
	findings(out, &tables[SEC_SUMMARY], tables, &ch);
	for (int s = 0; s < SEC_COUNT; s++)
		if (s != SEC_SUMMARY)
			section_block(out, s, &tables[s], &ch, home);
	if (other) {
		fputs("<section id=\"charts\">\n<h2>Other charts</h2>\n<div class=\"figs\">\n", out);
		for (size_t i = 0; i < ncharts; i++)
			if (home[i] < 0)
				figure(out, &ch, i, "chart-");
		fputs("</div>\n</section>\n", out);
	}
	method(out, db, tables);
	fputs("</body>\n</html>\n", out);
	free(home);
	int rc = ferror(out) ? -ENOMEM : 0;
	if (fclose(out) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc == 0)
		rc = replace_atomically(path, page, page_len, 0644);
	free(page);
	return rc;
}
