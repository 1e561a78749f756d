/* report/render/junit.c - JUnit XML of the baseline's and --expect's verdicts. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render/junit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fileio.h"
#include "report/base/alloc.h"
#include "report/render/term.h"

/* s as XML text or attribute value: cleaned for a terminal (no control character, valid UTF-8), then escaped. */
static void xml_text(FILE *f, const char *s)
{
	size_t len = strlen(s ? s : "") + 1;
	char *clean = rep_calloc(len, 1);
	term_clean(clean, len, s);
	for (const char *p = clean; *p; p++)
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*p, f);
		}
	free(clean);
}

/* A cell of row r in column key as the text table shows it ("-" when absent). */
static void cell(const struct table *t, size_t r, const char *key, char *buf, size_t len)
{
	int c = table_col(t, key);
	if (c < 0)
		snprintf(buf, len, "-");
	else
		table_format_cell(t, r, (size_t)c, buf, len);
}

static size_t count_rows(const struct table *t, const char *key, const char *value)
{
	size_t n = 0;
	int c = table_col(t, key);
	for (size_t r = 0; c >= 0 && r < t->nrows; r++) {
		const char *s = table_str(t, r, c);
		n += s && strcmp(s, value) == 0;
	}
	return n;
}

static void suite_baseline(FILE *f, const struct table *t)
{
	int reg = table_col(t, "regression");
	size_t failures = 0;
	for (size_t r = 0; r < t->nrows; r++)
		failures += table_num(t, r, reg) > 0;
	fprintf(f, " <testsuite name=\"baseline\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		t->nrows, failures, count_rows(t, "status", "gone"));
	for (size_t r = 0; r < t->nrows; r++) {
		char op[128], threads[32], config[512], size[32], status[16], verdict[512], detail[700];
		cell(t, r, "op", op, sizeof(op));
		cell(t, r, "threads", threads, sizeof(threads));
		cell(t, r, "config", config, sizeof(config));
		cell(t, r, "size", size, sizeof(size));
		cell(t, r, "status", status, sizeof(status));
		cell(t, r, "verdict", verdict, sizeof(verdict));
		cell(t, r, "detail", detail, sizeof(detail));
		char name[800];
		snprintf(name, sizeof(name), "%s, %s thread%s, %s, %s", op, threads, strcmp(threads, "1") == 0 ? "" : "s",
			 config, size);
		fputs("  <testcase classname=\"iobench.baseline\" name=\"", f);
		xml_text(f, name);
		fputs("\">\n", f);
		if (table_num(t, r, reg) > 0) {
			char a[32], b[32], differs[700], body[1600];
			cell(t, r, "opsPerSecA", a, sizeof(a));
			cell(t, r, "opsPerSecB", b, sizeof(b));
			cell(t, r, "differs", differs, sizeof(differs));
			snprintf(body, sizeof(body), "ops/s: baseline %s, now %s; changed: %s; %s", a, b, differs, detail);
			fputs("   <failure type=\"regression\" message=\"", f);
			xml_text(f, verdict);
			fputs("\">", f);
			xml_text(f, body);
			fputs("</failure>\n", f);
		} else if (strcmp(status, "gone") == 0) {
			fputs("   <skipped message=\"", f);
			xml_text(f, verdict);
			fputs("\"/>\n", f);
		}
		fputs("   <system-out>", f);
		xml_text(f, verdict);
		fputs("</system-out>\n  </testcase>\n", f);
	}
	fputs(" </testsuite>\n", f);
}

static void suite_expect(FILE *f, const struct table *t)
{
	fprintf(f, " <testsuite name=\"expect\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", t->nrows,
		count_rows(t, "result", "FAIL"));
	for (size_t r = 0; r < t->nrows; r++) {
		char result[16], line[32], expected[512], host[256], measured[128], detail[700], name[1200];
		cell(t, r, "result", result, sizeof(result));
		cell(t, r, "line", line, sizeof(line));
		cell(t, r, "expectation", expected, sizeof(expected));
		cell(t, r, "host", host, sizeof(host));
		/* the measured figure as people read it ("7483 iops") is a text-only column */
		snprintf(measured, sizeof(measured), "-");
		for (size_t c = 0; c < t->ncols; c++)
			if (!t->cols[c].key && t->cols[c].head && strcmp(t->cols[c].head, "measured") == 0)
				table_format_cell(t, r, c, measured, sizeof(measured));
		cell(t, r, "detail", detail, sizeof(detail));
		snprintf(name, sizeof(name), "line %s: %s on %s", line, expected, host);
		fputs("  <testcase classname=\"iobench.expect\" name=\"", f);
		xml_text(f, name);
		fputs("\">\n", f);
		if (strcmp(result, "FAIL") == 0) {
			char msg[900];
			snprintf(msg, sizeof(msg), "measured %s; %s", measured, detail);
			fputs("   <failure type=\"FAIL\" message=\"", f);
			xml_text(f, msg);
			fputs("\"/>\n", f);
		}
		fputs("   <system-out>", f);
		xml_text(f, result);
		fputs(": measured ", f);
		xml_text(f, measured);
		fputs("</system-out>\n  </testcase>\n", f);
	}
	fputs(" </testsuite>\n", f);
}

int rep_junit_write(const char *path, const struct table *baseline, const struct table *expect)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iobench report\">\n", f);
	if (baseline)
		suite_baseline(f, baseline);
	if (expect)
		suite_expect(f, expect);
	fputs("</testsuites>\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	int rc = replace_atomically(path, buf, len, 0644);
	free(buf);
	return rc;
}
