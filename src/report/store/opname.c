/*
 * SPDX-License-Identifier: Apache-2.0
 * report/store/opname.c - a signature as the user typed the op ("read,4K,4K" ->
 * "read4k") and its kind, from lib/opspec's vocabulary.
 */
#include "report/store/opname.h"
#include "lib/opspec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/verdict.h"

/*
 * The vocabulary entry (lib/opspec.h) of sig's OP word, with its number's
 * text (writeNN, rwPP) in num[0..*nl); NULL unless the word is one and its
 * number all digits.
 */
static const struct opspec_word *sig_word(const char *sig, const char **num, size_t *nl)
{
	const struct opspec_word *w = opspec_word_find(sig, strcspn(sig, ","), num, nl);
	for (size_t i = 0; w && i < *nl; i++)
		if (!isdigit((unsigned char)(*num)[i]))
			return NULL;
	return w;
}

enum rep_kind rep_kind_of(const char *sig)
{
	const char *num;
	size_t nl;
	const struct opspec_word *w = sig_word(sig, &num, &nl);
	if (!w || w->sequential)
		return REP_OTHER;
	switch (w->kind) {
	case OP_READ:
		return REP_READ;
	case OP_WRITE_FLUSH:
		return REP_WRITE_FLUSH;
	case OP_WRITE_N:
		return nl ? REP_WRITE_N : REP_WRITE;
	case OP_MIXED:
		break;
	}
	return REP_OTHER;
}

/* Size text of a signature ("4K") as the short name has it ("4k"). */
static void lower(char *dst, size_t len, const char *src, size_t n)
{
	size_t i = 0;
	for (; i < n && i + 1 < len; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

void rep_op_name(const char *sig, char *buf, size_t len)
{
	size_t wl = strcspn(sig, ","), sl = 0, al = 0;
	const char *size = sig[wl] ? sig + wl + 1 : NULL, *align = NULL;
	if (size) {
		sl = strcspn(size, ",");
		align = size[sl] ? size + sl + 1 : NULL;
		al = align ? strlen(align) : 0;
	}
	const char *num;
	size_t nl;
	const struct opspec_word *w = size && align ? sig_word(sig, &num, &nl) : NULL;
	if (!w) {
		snprintf(buf, len, "%s", sig);
		return;
	}
	char s[32], a[40] = "";
	lower(s, sizeof(s), size, sl);
	if (al != sl || strncmp(size, align, sl) != 0) {
		a[0] = '@';
		lower(a + 1, sizeof(a) - 1, align, al);
	}
	/* The short name's tail: ":PP" for rwPP, "/NN" for writeNN ("/0" for write, never synced). */
	if (w->number == OPSPEC_NUMBER_REQUIRED)
		snprintf(buf, len, "%s%s%s:%.*s", w->stem, s, a, (int)nl, num);
	else if (w->number == OPSPEC_NUMBER_OPTIONAL)
		snprintf(buf, len, "%s%s%s/%.*s", w->stem, s, a, nl ? (int)nl : 1, nl ? num : "0");
	else
		snprintf(buf, len, "%s%s%s", w->stem, s, a);
}

/* Append name (and " (sig)") to the list in buf; false, ending it with "...", when it is full. */
static bool list_add(char *buf, size_t len, const char *name, const char *sig)
{
	size_t used = strlen(buf);
	int n = snprintf(buf + used, len - used, "%s%s%s%s%s", used ? ", " : "", name, sig ? " (" : "", sig ? sig : "",
			 sig ? ")" : "");
	if (n >= 0 && used + (size_t)n + 5 < len)
		return true;
	/* cut at the last whole entry and say there are more */
	buf[used] = '\0';
	snprintf(buf + used, len - used, "%s...", used ? ", " : "");
	return false;
}

static int cmp_cell_sig(const void *a, const void *b)
{
	const struct rep_cell *x = *(const struct rep_cell *const *)a, *y = *(const struct rep_cell *const *)b;
	return rep_sig_cmp(x->sig, x->block, y->sig, y->block);
}

/* Whether a verdict's op is among the cells' or an earlier verdict's. */
static bool verdict_op_seen(const struct rep_db *db, size_t v)
{
	for (size_t i = 0; i < db->ncells; i++)
		if (strcmp(db->cells[i]->op, db->verdicts[v].op) == 0)
			return true;
	for (size_t i = 0; i < v; i++)
		if (strcmp(db->verdicts[i].op, db->verdicts[v].op) == 0)
			return true;
	return false;
}

void rep_db_op_list(const struct rep_db *db, bool with_sig, char *buf, size_t len)
{
	if (len == 0)
		return;
	buf[0] = '\0';
	const struct rep_cell **c = rep_calloc(db->ncells + 1, sizeof(*c));
	memcpy(c, db->cells, db->ncells * sizeof(*c));
	qsort(c, db->ncells, sizeof(*c), cmp_cell_sig);
	bool room = true;
	/* sorted, the cells of one signature are together */
	for (size_t i = 0; room && i < db->ncells; i++)
		if (i == 0 || strcmp(c[i]->op, c[i - 1]->op) != 0)
			room = list_add(buf, len, c[i]->op, with_sig ? c[i]->sig : NULL);
	free(c);
	for (size_t i = 0; room && i < db->nverdicts; i++)
		if (!verdict_op_seen(db, i))
			room = list_add(buf, len, db->verdicts[i].op, NULL);
	if (room && db->nbonnie)
		list_add(buf, len, "bonnie++", NULL);
}

int rep_sig_cmp(const char *a, uint64_t block_a, const char *b, uint64_t block_b)
{
	size_t la = strcspn(a, ","), lb = strcspn(b, ",");
	int r = strncmp(a, b, la < lb ? la : lb);
	if (!r)
		r = (la > lb) - (la < lb);
	if (!r)
		r = (block_a > block_b) - (block_a < block_b);
	return r ? r : strcmp(a, b);
}
