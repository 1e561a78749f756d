/*
 * report/html.c - DIR/index.html for `iobench report --plot DIR`: the method,
 * every table and every chart on one self-contained page (the SVGs inline),
 * readable on a phone and printable.
 */
#include "report_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report_analyze.h"

static const char page_css[] =
	"body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 1em;color:#222;"
	"line-height:1.4}\n"
	"h1{font-size:1.6em;margin:.6em 0 .2em}h2{font-size:1.2em;margin:1.4em 0 .4em;"
	"border-bottom:1px solid #ccc}\n"
	".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}\n"
	".long{max-height:32em;overflow-y:auto}\n"
	"table{border-collapse:collapse;font-size:.85em;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:.15em .6em;text-align:right;white-space:nowrap;border-bottom:1px solid #eee}\n"
	"th{background:#f4f4f4;position:sticky;top:0}th.s,td.s{text-align:left}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	".note{font-size:.85em;color:#555;white-space:pre-wrap}\n"
	"figure{margin:1em 0;page-break-inside:avoid;break-inside:avoid}\n"
	"figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:.85em;color:#555}\n"
	".failed{color:#a00}nav a{margin-right:.8em;white-space:nowrap}\n"
	"@media (max-width:600px){body{padding:0 .4em}table{font-size:.75em}h1{font-size:1.3em}}\n"
	"@media print{body{max-width:none;padding:0}nav{display:none}.scroll,.long{overflow:visible;max-height:none}"
	"table{font-size:7pt}th{position:static}section,figure{break-inside:avoid}"
	"h2{break-after:avoid}a{color:inherit;text-decoration:none}}\n";

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

int rep_html(const struct rep_db *db, const struct table tables[SEC_COUNT], const char *dir,
	     const char *const *names, const char *const *titles, size_t ncharts)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* O_NOFOLLOW: never written through a link planted at the temporary name. */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	char date[32];
	time_t now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		     "<title>iobench report, %s</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		     "<h1>iobench report</h1>\n<p>Written %s by <code>iobench report --plot</code>.</p>\n",
		date, page_css, date);
	fputs("<nav><a href=\"#method\">method</a>", out);
	for (int s = 0; s < SEC_COUNT; s++)
		if (tables[s].nrows)
			fprintf(out, "\n<a href=\"#%s\">%s</a>", tables[s].name, tables[s].name);
	if (ncharts)
		fputs("\n<a href=\"#charts\">charts</a>", out);
	fputs("</nav>\n", out);
	method(out, db, tables);
	for (int s = 0; s < SEC_COUNT; s++)
		table_print_html(&tables[s], out);
	if (ncharts)
		fputs("<section id=\"charts\">\n<h2>Charts</h2>\n", out);
	for (size_t i = 0; i < ncharts; i++) {
		fprintf(out, "<figure id=\"chart-%s\">\n", names[i]);
		if (!inline_svg(out, dir, names[i], titles[i]))
			fprintf(out, "<img src=\"%s.png\" alt=\"\">\n", names[i]);
		fputs("<figcaption>", out);
		table_html_text(titles[i], out);
		fprintf(out, " (<a href=\"%s.png\">%s.png</a>, <a href=\"%s.gp\">%s.gp</a>)</figcaption>\n</figure>\n",
			names[i], names[i], names[i], names[i]);
	}
	if (ncharts)
		fputs("</section>\n", out);
	fputs("</body>\n</html>\n", out);
	int rc = ferror(out) ? -EIO : 0;
	if (fclose(out) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		remove(tmp);
	return rc;
}
