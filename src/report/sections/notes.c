/* report/sections/notes.c - the notes section: each run's bookkeeping. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/opname.h"

static const struct tcol notes_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "launchTime", NULL, TC_NUM, 0 },
	{ "startUtc", "start (UTC)", TC_STR, 0 },
	{ "signatures", NULL, TC_STR, 0 },
	{ "ops", "ops", TC_STR, 0 },
	{ "notes", "notes", TC_STR, 0 },
};

static int cmp_note(const void *a, const void *b)
{
	const struct rep_note *x = *(const struct rep_note *const *)a, *y = *(const struct rep_note *const *)b;
	int r = strverscmp(x->host, y->host);
	return r ? r : (x->launch > y->launch) - (x->launch < y->launch);
}

/* "read,4K,4K write64,4K,4K" as typed: "read4k write4k/64" (malloc'd). */
static char *ops_of(const char *sigs)
{
	size_t cap = 2 * strlen(sigs) + 1, used = 0;
	char *out = rep_calloc(cap, 1), sig[256], op[256];
	for (const char *p = sigs; *p; p += *p == ' ') {
		size_t len = strcspn(p, " ");
		snprintf(sig, sizeof(sig), "%.*s", (int)(len < sizeof(sig) ? len : sizeof(sig) - 1), p);
		rep_op_name(sig, op, sizeof(op));
		size_t need = strlen(op) + (used > 0);
		if (used + need + 1 > cap) {
			cap = 2 * (used + need + 1);
			out = rep_realloc(out, cap);
		}
		used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? " " : "", op);
		p += len;
	}
	return out;
}

/* Each run line's bookkeeping, by host and start. */
static void build_notes(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_NOTES];
	const struct rep_db *db = ctx->db;
	const struct rep_note **n = rep_calloc(db->nnotes + 1, sizeof(*n));
	for (size_t i = 0; i < db->nnotes; i++)
		n[i] = &db->notes[i];
	qsort(n, db->nnotes, sizeof(*n), cmp_note);
	for (size_t i = 0; i < db->nnotes; i++) {
		char utc[32];
		rep_utc_of(n[i]->launch, utc, sizeof(utc));
		char *ops = ops_of(n[i]->sigs);
		table_row(t, n[i]->host, n[i]->cfg->name[0] ? n[i]->cfg->name : NULL, n[i]->cfg->labels, n[i]->launch,
			  utc[0] ? utc : NULL, n[i]->sigs, ops, n[i]->notes);
		free(ops);
	}
	free(n);
}

const struct rep_section_def rep_sec_notes = {
	.name = "notes",
	.title = "Bookkeeping (notes of each run, and older files' run/planStep/... labels)",
	.help = "each run's notes (--note; legacy bookkeeping labels); ask by name,\n"
		"or in --json",
	SECTION_COLS(notes_cols),
	.build = build_notes,
	.shown = REP_SHOWN_JSON,
};
