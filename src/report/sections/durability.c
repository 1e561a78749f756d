/* report/sections/durability.c - verdict rows of `iobench durability verify` lines in the report. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/durability.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/sections/section.h"

static char *dup_or(const json_t *s, const char *fallback)
{
	return rep_strdup(json_is_string(s) ? json_string_value(s) : fallback);
}

static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "k=v,k=v" of the string labels, sorted by key, as the rest of the report shows labels. */
static char *labels_of(const json_t *labels)
{
	size_t n = json_is_object(labels) ? json_object_size(labels) : 0, len = 1, i = 0;
	char **kv = rep_calloc(n, sizeof(*kv));
	const char *key;
	const json_t *val;
	json_object_foreach((json_t *)labels, key, val) {
		if (!json_is_string(val))
			continue;
		size_t l = strlen(key) + strlen(json_string_value(val)) + 2;
		kv[i] = rep_realloc(NULL, l);
		snprintf(kv[i], l, "%s=%s", key, json_string_value(val));
		len += l;
		i++;
	}
	qsort(kv, i, sizeof(*kv), cmp_str);
	char *out = rep_calloc(len, 1);
	for (size_t j = 0; j < i; j++) {
		if (j)
			strcat(out, ",");
		strcat(out, kv[j]);
		free(kv[j]);
	}
	free(kv);
	return out;
}

bool rep_dur_add(struct rep_db *db, const json_t *root, const char *fallback_host)
{
	const json_t *d = json_object_get(root, "durability");
	if (!json_is_object(d) || isnan(num(d, "acknowledged")) || isnan(num(d, "lost")))
		return false;
	if (db->nverdicts == db->verdicts_cap) {
		db->verdicts_cap = db->verdicts_cap ? db->verdicts_cap * 2 : 8;
		db->verdicts = rep_realloc(db->verdicts, db->verdicts_cap * sizeof(*db->verdicts));
	}
	struct rep_verdict *v = &db->verdicts[db->nverdicts++];
	v->host = dup_or(json_object_get(root, "host"), fallback_host);
	v->labels = labels_of(json_object_get(root, "labels"));
	v->target = dup_or(json_object_get(json_object_get(root, "target"), "path"), "");
	v->op = dup_or(json_object_get(d, "op"), "");
	v->run = dup_or(json_object_get(d, "run"), "");
	v->writers = num(d, "writers");
	v->writers_cut = num(d, "writersSeen") - num(d, "writersEnded");
	v->acknowledged = num(d, "acknowledged");
	v->intact = num(d, "intact");
	v->newer = num(d, "newer");
	v->torn = num(d, "torn");
	v->lost = num(d, "lost");
	v->never_acknowledged = num(d, "neverAcknowledged");
	v->launch = num(root, "launchTime");
	return true;
}

void rep_dur_verdict_free(struct rep_verdict *v)
{
	free(v->host);
	free(v->labels);
	free(v->target);
	free(v->op);
	free(v->run);
}

static const struct tcol rep_dur_cols[] = {
	{ "host", "host", TC_STR, 0 },
	{ "labels", "labels", TC_STR, 0 },
	{ "target", "target", TC_STR, 0 },
	{ "op", "op", TC_STR, 0 },
	{ "writers", "writers", TC_INT, 0 },
	{ "writersCut", "cut off", TC_INT, 0 },
	{ "acknowledged", "acknowledged", TC_INT, 0 },
	{ "intact", "intact", TC_INT, 0 },
	{ "newer", "newer", TC_INT, 0 },
	{ "torn", "torn", TC_INT, 0 },
	{ "lost", "LOST", TC_INT, 0 },
	{ "neverAcknowledged", "unacked", TC_INT, 0 },
	{ "run", "run", TC_STR, 0 },
	{ "verdict", "verdict", TC_STR, 0 },
};

static int cmp_verdict(const void *a, const void *b)
{
	const struct rep_verdict *x = a, *y = b;
	int c = strcmp(x->host, y->host);
	if (!c)
		c = strcmp(x->labels, y->labels);
	if (!c)
		c = strcmp(x->target, y->target);
	return c ? c : (x->launch > y->launch) - (x->launch < y->launch);
}

/* The section's rows: one per verdict, by host, labels, target, time. */
static void build_dur_verify(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_DUR_VERIFY];
	const struct rep_db *db = ctx->db;
	if (db->nverdicts == 0)
		return;
	struct rep_verdict *v = rep_calloc(db->nverdicts, sizeof(*v));
	memcpy(v, db->verdicts, db->nverdicts * sizeof(*v));
	qsort(v, db->nverdicts, sizeof(*v), cmp_verdict);
	for (size_t i = 0; i < db->nverdicts; i++)
		table_row(t, v[i].host, v[i].labels, v[i].target, v[i].op, v[i].writers, v[i].writers_cut,
			  v[i].acknowledged, v[i].intact, v[i].newer, v[i].torn, v[i].lost,
			  v[i].never_acknowledged, v[i].run, v[i].lost > 0 ? "LOST" : "ok");
	free(v);
}

const struct rep_section_def rep_sec_durabilityVerify = {
	.name = "durabilityVerify",
	.title = "Durability after a power cut (iobench durability verify)",
	.help = "iobench durability verify lines: acknowledged blocks\n"
		"intact or LOST after a power cut, a row per verification",
	SECTION_COLS(rep_dur_cols),
	.build = build_dur_verify,
};
