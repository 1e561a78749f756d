/* report/render/table.c - render report tables as text, CSV or JSON. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render/table.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/render/term.h"

void table_init(struct table *t, const char *name, const char *title,
		const struct tcol *cols, size_t ncols)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->title = title;
	t->cols = cols;
	t->ncols = ncols;
}

void table_row(struct table *t, ...)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 32;
		t->vals = rep_realloc(t->vals, t->cap * t->ncols * sizeof(*t->vals));
	}
	struct tval *row = &t->vals[t->nrows * t->ncols];
	va_list ap;
	va_start(ap, t);
	for (size_t c = 0; c < t->ncols; c++) {
		row[c].s = NULL;
		row[c].v = NAN;
		if (t->cols[c].type == TC_STR) {
			const char *s = va_arg(ap, const char *);
			if (s)
				row[c].s = rep_strdup(s);
		} else {
			row[c].v = va_arg(ap, double);
		}
	}
	va_end(ap);
	t->nrows++;
}

void table_format_count(char *buf, size_t len, double v)
{
	static const char suffix[] = " kMGTP";
	int k = 0;
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	while (fabs(v) >= 999.95 && k < 5) {
		v /= 1000;
		k++;
	}
	if (k == 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f%c", v, suffix[k]);
}

const char *table_str(const struct table *t, size_t row, int col)
{
	return col >= 0 ? t->vals[row * t->ncols + (size_t)col].s : NULL;
}

double table_num(const struct table *t, size_t row, int col)
{
	return col >= 0 ? t->vals[row * t->ncols + (size_t)col].v : NAN;
}

void table_format_prose(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v < 10)
		snprintf(buf, len, "%.2g", v);
	else if (v < 1e6) {
		long n = lround(v);
		if (n >= 1000)
			snprintf(buf, len, "%ld,%03ld", n / 1000, n % 1000);
		else
			snprintf(buf, len, "%ld", n);
	} else if (v < 1e9)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else
		snprintf(buf, len, "%.3gG", v / 1e9);
}

int table_col(const struct table *t, const char *key)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].key && strcmp(t->cols[c].key, key) == 0)
			return (int)c;
	return -1;
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->vals[i].s);
	free(t->vals);
	free(t->note);
	t->vals = NULL;
	t->note = NULL;
	t->nrows = t->cap = 0;
}

void table_note(struct table *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(t->note);
	t->note = rep_strdup(buf);
}

void table_format_num(char *buf, size_t len, enum tcol_type type, int prec, double v)
{
	if (isnan(v)) {
		snprintf(buf, len, "%s", type == TC_BOOL ? "" : "-");
		return;
	}
	switch (type) {
	case TC_INT:
		snprintf(buf, len, "%.0f", v);
		break;
	case TC_NUM:
		snprintf(buf, len, "%.*f", prec, v);
		break;
	case TC_NS:
		units_format_ns(buf, len, v);
		break;
	case TC_PCT:
		snprintf(buf, len, "%.*f%%", prec ? prec : 1, v * 100);
		break;
	case TC_SIZE:
		if (v <= 0)
			snprintf(buf, len, "-");
		else
			units_format_signature_size(buf, len, (uint64_t)v);
		break;
	case TC_BOOL:
		snprintf(buf, len, "%s", v != 0 ? "*" : "");
		break;
	case TC_RATIO:
		if (v >= 100)
			snprintf(buf, len, "%.0f", v);
		else if (v >= 0.1 || v == 0)
			snprintf(buf, len, "%.2f", v);
		else
			snprintf(buf, len, "%.2g", v);
		break;
	case TC_STR:
		snprintf(buf, len, "-");
		break;
	}
}

static void format_text(const struct tcol *col, const struct tval *v, char *buf, size_t len)
{
	if (col->type == TC_STR) {
		/*
		 * Strings come from result files, any host's: a control character
		 * (a newline, an escape sequence for the terminal) is shown as '?'.
		 */
		term_clean(buf, len, v->s && v->s[0] ? v->s : "-");
		return;
	}
	table_format_num(buf, len, col->type, col->prec, v->v);
}

void table_format_cell(const struct table *t, size_t row, size_t col, char *buf, size_t len)
{
	format_text(&t->cols[col], &t->vals[row * t->ncols + col], buf, len);
}

/* Columns text takes on a terminal: UTF-8 continuation bytes take none ("→" is one). */
static size_t text_width(const char *text)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		w += (*p & 0xc0) != 0x80;
	return w;
}

/* One text cell: two blanks before all but the first, padded but for a left-aligned last one. */
static void text_cell(FILE *out, const char *text, bool first, bool last, bool left, size_t width)
{
	size_t w = text_width(text), pad = width > w ? width - w : 0;
	/* an empty last cell leaves no blanks at the end of the line */
	if (last && !first && *text == '\0')
		return;
	fputs(first ? "" : "  ", out);
	/* no trailing blanks after the last column */
	if (!left)
		fprintf(out, "%*s", (int)pad, "");
	term_puts(out, text);
	if (left && !last)
		fprintf(out, "%*s", (int)pad, "");
}

/*
 * Columns a narrow terminal loses first, least important first (by key, or
 * by heading for a text-only column); then the rightmost left, but never
 * the first two shown (what a row is about). A comparison's verdict says
 * its ratio and interval: those columns go before it, and before A and B.
 */
static const char *const drop_order[] = {
	"cpuPerOp", "p999Ns", "maxNs", "meanNs", "p90Ns", "oneInTenChance", "madOpsPerSec", "bestWorstRatio",
	"errors", "count", "runs", "stepNeeded", "noise", "p95Ns", "mbPerSec", "minOpsPerSec", "maxOpsPerSec",
	"threadsA", "threadsB", "hostsA", "hostsB", "median A", "median B", "ratio", "low", "high",
	"capOpsPerSec", "readSignature", "floorNs", "note", "a", "b", "differs",
};

/* Tables whose own columns go first: what a row of theirs is read for stays longest. */
static const struct {
	const char *table;
	const char *const first[8];
} drop_first[] = {
	{ "devices", { "finding", "size", "threads", "volume", "siblingsAwaitMs", "config", NULL } },
};

/* The column drop_order[i] names: its key, else a text-only column's heading; -1 none. */
static int drop_col(const struct table *t, const char *name)
{
	int c = table_col(t, name);
	for (size_t k = 0; c < 0 && k < t->ncols; k++)
		if (!t->cols[k].key && t->cols[k].head && strcmp(t->cols[k].head, name) == 0)
			c = (int)k;
	return c;
}

/* text wrapped at blanks within max columns (0: as it is), a line each. */
static void print_wrapped(FILE *out, const char *text, size_t max)
{
	while (max > 0 && text_width(text) > max) {
		size_t cut = 0, w = 0;
		for (size_t i = 0; text[i] && w <= max; i++) {
			if (text[i] == ' ')
				cut = i;
			w += ((unsigned char)text[i] & 0xc0) != 0x80;
		}
		if (cut == 0)
			break;
		term_printf(out, "%.*s\n", (int)cut, text);
		text += cut + 1;
	}
	term_printf(out, "%s\n", text);
}

/* The shown width of the columns kept, two blanks between. */
static size_t row_width(const struct table *t, const size_t *width, const bool *keep)
{
	size_t w = 0, n = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (keep[c]) {
			w += width[c];
			n++;
		}
	return w + (n ? 2 * (n - 1) : 0);
}

/* Leave out columns until the row fits in max (0: no limit); their heads into dropped. */
static void fit_columns(const struct table *t, const size_t *width, bool *keep, size_t max, char *dropped, size_t len)
{
	dropped[0] = '\0';
	if (max == 0)
		return;
	size_t shown[2] = { SIZE_MAX, SIZE_MAX };
	for (size_t c = 0, k = 0; c < t->ncols && k < 2; c++)
		if (keep[c])
			shown[k++] = c;
	for (size_t i = 0; i < sizeof(drop_first) / sizeof(drop_first[0]); i++)
		for (size_t k = 0; strcmp(t->name, drop_first[i].table) == 0 && drop_first[i].first[k]; k++) {
			int c = drop_col(t, drop_first[i].first[k]);
			if (row_width(t, width, keep) <= max)
				break;
			if (c >= 0 && keep[c] && (size_t)c != shown[0] && (size_t)c != shown[1]) {
				keep[c] = false;
				snprintf(dropped + strlen(dropped), len - strlen(dropped), "%s%s", dropped[0] ? ", " : "",
					 t->cols[c].head);
			}
		}
	for (size_t pass = 0; row_width(t, width, keep) > max; pass++) {
		size_t drop = SIZE_MAX;
		if (pass < sizeof(drop_order) / sizeof(drop_order[0])) {
			int c = drop_col(t, drop_order[pass]);
			if (c < 0 || !keep[c] || (size_t)c == shown[0] || (size_t)c == shown[1])
				continue;
			drop = (size_t)c;
		} else {
			for (size_t c = t->ncols; c-- > 0;)
				if (keep[c] && c != shown[0] && c != shown[1]) {
					drop = c;
					break;
				}
			if (drop == SIZE_MAX)
				break;
		}
		keep[drop] = false;
		snprintf(dropped + strlen(dropped), len - strlen(dropped), "%s%s", dropped[0] ? ", " : "",
			 t->cols[drop].head);
	}
}

void table_print_text(const struct table *t, FILE *out)
{
	table_print_text_fit(t, out, 0);
}

void table_print_text_fit(const struct table *t, FILE *out, size_t max)
{
	/* an empty table is left out, unless its note says why it is empty */
	if (t->nrows == 0 && t->note)
		term_printf(out, "%s\n%s\n\n", t->title, t->note);
	if (t->nrows == 0)
		return;
	size_t *width = calloc(t->ncols, sizeof(*width));
	bool *keep = calloc(t->ncols, sizeof(*keep));
	if (!width || !keep) {
		free(width);
		free(keep);
		return;
	}
	char buf[512], dropped[512];
	for (size_t c = 0; c < t->ncols; c++) {
		keep[c] = t->cols[c].head != NULL;
		width[c] = t->cols[c].head ? text_width(t->cols[c].head) : 0;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			format_text(&t->cols[c], &t->vals[r * t->ncols + c], buf, sizeof(buf));
			if (keep[c] && text_width(buf) > width[c])
				width[c] = text_width(buf);
		}
	fit_columns(t, width, keep, max, dropped, sizeof(dropped));
	size_t first = t->ncols, last = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (keep[c]) {
			first = first < c ? first : c;
			last = c;
		}
	term_printf(out, "%s\n", t->title);
	for (size_t c = 0; c < t->ncols; c++)
		if (keep[c])
			text_cell(out, t->cols[c].head, c == first, c == last, t->cols[c].type == TC_STR, width[c]);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			if (!keep[c])
				continue;
			format_text(&t->cols[c], &t->vals[r * t->ncols + c], buf, sizeof(buf));
			text_cell(out, buf, c == first, c == last, t->cols[c].type == TC_STR, width[c]);
		}
		fputc('\n', out);
	}
	if (t->note)
		print_wrapped(out, t->note, max);
	if (dropped[0]) {
		char said[700];
		snprintf(said, sizeof(said), "(left out to fit %zu columns: %s; --csv or --json has them)", max, dropped);
		print_wrapped(out, said, max);
	}
	fputc('\n', out);
	free(width);
	free(keep);
}

/* Text with &, <, >, " escaped for HTML. */
void table_html_text(const char *s, FILE *out)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

void table_print_html(const struct table *t, FILE *out)
{
	if (t->nrows == 0)
		return;
	char buf[512];
	/* the table scrolls sideways in its own box when wider than the page: no column is ever cut */
	fputs("<div class=\"tbl\"><table>\n<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++)
		if (t->cols[c].head) {
			fprintf(out, "<th%s>", t->cols[c].type == TC_STR ? " class=\"s\"" : "");
			table_html_text(t->cols[c].head, out);
			fputs("</th>", out);
		}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			if (!t->cols[c].head)
				continue;
			format_text(&t->cols[c], &t->vals[r * t->ncols + c], buf, sizeof(buf));
			fprintf(out, "<td%s>", t->cols[c].type == TC_STR ? " class=\"s\"" : "");
			table_html_text(buf, out);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
	if (t->note) {
		fputs("<p class=\"note\">", out);
		table_html_text(t->note, out);
		fputs("</p>\n", out);
	}
}

/* A CSV field; CSV lands on terminals too: control characters as '?', as in text. */
static void csv_string(const char *s, FILE *out)
{
	if (!s)
		return;
	if (strpbrk(s, ",\"") == NULL) {
		term_puts(out, s);
		return;
	}
	fputc('"', out);
	for (const char *q; (q = strchr(s, '"')); s = q + 1) {
		term_write(out, s, (size_t)(q - s));
		fputs("\"\"", out);
	}
	term_puts(out, s);
	fputc('"', out);
}

void table_print_csv(const struct table *t, FILE *out)
{
	bool first = true;
	for (size_t c = 0; c < t->ncols; c++) {
		if (!t->cols[c].key)
			continue;
		if (!first)
			fputc(',', out);
		csv_string(t->cols[c].key, out);
		first = false;
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		first = true;
		for (size_t c = 0; c < t->ncols; c++) {
			const struct tval *v = &t->vals[r * t->ncols + c];
			if (!t->cols[c].key)
				continue;
			if (!first)
				fputc(',', out);
			first = false;
			if (t->cols[c].type == TC_STR)
				csv_string(v->s, out);
			else if (t->cols[c].type == TC_BOOL)
				fputs(isnan(v->v) ? "" : v->v != 0 ? "true" : "false", out);
			else if (!isnan(v->v))
				fprintf(out, "%.15g", v->v);
		}
		fputc('\n', out);
	}
}

json_t *table_to_json(const struct table *t)
{
	json_t *arr = json_array();
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *obj = json_object();
		for (size_t c = 0; c < t->ncols; c++) {
			const struct tval *v = &t->vals[r * t->ncols + c];
			const struct tcol *col = &t->cols[c];
			json_t *j;
			if (!col->key)
				continue;
			if (col->type == TC_STR)
				j = v->s ? json_string(v->s) : json_null();
			else if (isnan(v->v) || isinf(v->v))
				j = json_null();
			else if (col->type == TC_BOOL)
				j = json_boolean(v->v != 0);
			else if ((col->type == TC_INT || col->type == TC_SIZE) && fabs(v->v) < 9e15)
				j = json_integer((json_int_t)llround(v->v));
			else
				j = json_real(v->v);
			json_object_set_new(obj, col->key, j);
		}
		json_array_append_new(arr, obj);
	}
	return arr;
}
