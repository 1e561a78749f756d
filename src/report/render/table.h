/*
 * SPDX-License-Identifier: Apache-2.0
 * table.h - one table, three renderings: aligned text, CSV, JSON.
 *
 * A column has a machine key (CSV header, JSON member) and a human heading
 * (text). Values are numbers or strings; the column's type decides how a
 * number reads in text (latency "81.2us", share "6.0%", size "4M") while
 * CSV and JSON keep the raw number (ns, fraction, bytes). NAN is missing:
 * "-" in text, empty in CSV, null in JSON.
 */
#ifndef IOBENCH_REPORT_TABLE_H
#define IOBENCH_REPORT_TABLE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

enum tcol_type {
	TC_STR,   /* const char * */
	TC_INT,   /* double holding an integer */
	TC_NUM,   /* double, prec decimals in text */
	TC_NS,    /* nanoseconds */
	TC_PCT,   /* fraction 0..1, shown as percent */
	TC_SIZE,  /* bytes, shown like "4K", "1280M" */
	TC_BOOL,  /* double 0/1; "*" in text, true/false in JSON */
	TC_RATIO, /* a ratio: two decimals, two digits under 0.1 (never "0.00"), none from 100 */
};

/*
 * A column with no head is data only (CSV and JSON); one with no key is
 * text only (a reading aid, such as "3 of 4" beside two numbers).
 */
struct tcol {
	const char *key;
	const char *head;
	enum tcol_type type;
	int prec;
};

struct tval {
	char *s;
	double v;
};

struct table {
	const char *name;  /* section key: "groups", "instances", ... */
	const char *title; /* human title over the text table */
	const struct tcol *cols;
	size_t ncols;
	struct tval *vals; /* nrows * ncols */
	size_t nrows, cap;
	char *note;        /* said under the text table (and the HTML one); NULL none */
};

void table_init(struct table *t, const char *name, const char *title,
		const struct tcol *cols, size_t ncols);

/* Append a row: one argument per column, const char * for TC_STR, double otherwise. */
void table_row(struct table *t, ...);

void table_free(struct table *t);

/* Set the note said under the table (printf-style; replaces an earlier one). */
__attribute__((format(printf, 2, 3)))
void table_note(struct table *t, const char *fmt, ...);

/* A cell as the text table shows it ("81.2us", "6.0%", "-"), into buf. */
void table_format_cell(const struct table *t, size_t row, size_t col, char *buf, size_t len);

/*
 * The one formatter of the report's numbers: v as a column of type type
 * and prec decimals shows it ("-" for NAN; "" for a missing TC_BOOL). The
 * tables' cells and the charts' labels both go through it, so a chart
 * rounds as the table beside it. Not for TC_STR.
 */
void table_format_num(char *buf, size_t len, enum tcol_type type, int prec, double v);

/* A count for people: 139.5M, 38.3k, 950; "-" for NAN. */
void table_format_count(char *buf, size_t len, double v);

/*
 * v for a sentence rather than a column: 812, 8,120, 81,200, 1.31M, 104M
 * (two digits under 10, "-" for NAN).
 */
void table_format_prose(char *buf, size_t len, double v);

/* Index of the column whose key is key, or -1. */
int table_col(const struct table *t, const char *key);

/*
 * A cell read by column index (table_col's, so -1 for a column the table
 * lacks): its string, NULL when the column is absent or the cell has none;
 * its number, NAN when the column is absent. Readers go by key, so a table
 * may gain or reorder columns.
 */
const char *table_str(const struct table *t, size_t row, int col);
double table_num(const struct table *t, size_t row, int col);

/* Title, blank-free aligned columns, a blank line after. Nothing for an empty table. */
void table_print_text(const struct table *t, FILE *out);

/*
 * The same within max columns (0: no limit): the least important columns
 * are left out until a row fits, and a line under the table names them.
 */
void table_print_text_fit(const struct table *t, FILE *out, size_t max);

/*
 * A <div class="tbl"> (the table's own box, which the page lets scroll
 * sideways) holding a <table> of the text cells, then the note as
 * <p class="note">. Nothing for an empty table; the section and its heading
 * are the page's.
 */
void table_print_html(const struct table *t, FILE *out);

/* s with &, <, >, " escaped for HTML (nothing for NULL). */
void table_html_text(const char *s, FILE *out);

/* Header line of keys, then RFC 4180 rows. */
void table_print_csv(const struct table *t, FILE *out);

/* Array of objects keyed by column key (new reference). */
json_t *table_to_json(const struct table *t);

#endif
