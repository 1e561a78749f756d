/* report/store/verdict.c - `iobench durability verify` lines, kept as verdicts in the store. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"

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
