/* report_durability.c - verdict rows of `iobench durability verify` lines in the report. */
#include "report_durability.h"

#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or(const json_t *s, const char *fallback)
{
	const char *v = json_is_string(s) ? json_string_value(s) : fallback;
	char *p = strdup(v ? v : "");
	if (!p)
		abort();
	return p;
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

/* "k=v,k=v", sorted by key, as the rest of the report shows labels. */
static char *labels_of(const json_t *labels)
{
	size_t n = json_is_object(labels) ? json_object_size(labels) : 0, len = 1, i = 0;
	char **kv = calloc(n ? n : 1, sizeof(*kv));
	const char *key;
	const json_t *val;
	if (!kv)
		abort();
	json_object_foreach((json_t *)labels, key, val) {
		if (!json_is_string(val))
			continue;
		size_t l = strlen(key) + strlen(json_string_value(val)) + 2;
		if (!(kv[i] = malloc(l)))
			abort();
		snprintf(kv[i], l, "%s=%s", key, json_string_value(val));
		len += l;
		i++;
	}
	qsort(kv, i, sizeof(*kv), cmp_str);
	char *out = calloc(1, len);
	if (!out)
		abort();
	for (size_t j = 0; j < i; j++) {
		if (j)
			strcat(out, ",");
		strcat(out, kv[j]);
		free(kv[j]);
	}
	free(kv);
	return out;
}

bool rep_dur_is_line(const void *json_root)
{
	const json_t *mode = json_object_get(json_root, "mode");
	return json_is_string(mode) && strcmp(json_string_value(mode), "durability") == 0;
}

bool rep_dur_add(struct rep_db *db, const void *json_root, const char *where, const char *fallback_host)
{
	const json_t *root = json_root, *d = json_object_get(root, "durability");
	if (!json_is_object(d) || isnan(num(d, "acknowledged")) || isnan(num(d, "lost"))) {
		if (db->diag)
			fprintf(db->diag, "iobench: %s: durability line without \"durability\" counts; skipped\n", where);
		db->warnings++;
		db->skipped++;
		return false;
	}
	if (db->nverdicts == db->verdicts_cap) {
		db->verdicts_cap = db->verdicts_cap ? db->verdicts_cap * 2 : 8;
		db->verdicts = realloc(db->verdicts, db->verdicts_cap * sizeof(*db->verdicts));
		if (!db->verdicts)
			abort();
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

static void verdict_free(struct rep_verdict *v)
{
	free(v->host);
	free(v->labels);
	free(v->target);
	free(v->op);
	free(v->run);
}

void rep_dur_filter(struct rep_db *db, const char *key, const char *pattern)
{
	size_t kept = 0;
	for (size_t i = 0; i < db->nverdicts; i++) {
		struct rep_verdict *v = &db->verdicts[i];
		char buf[256];
		const char *value = strcmp(key, "host") == 0 ? v->host
				    : rep_label_value(v->labels, key, buf, sizeof(buf)) ? buf : NULL;
		if (value && fnmatch(pattern, value, 0) == 0)
			db->verdicts[kept++] = *v;
		else
			verdict_free(v);
	}
	db->nverdicts = kept;
}

void rep_dur_free(struct rep_db *db)
{
	for (size_t i = 0; i < db->nverdicts; i++)
		verdict_free(&db->verdicts[i]);
	free(db->verdicts);
	db->verdicts = NULL;
	db->nverdicts = db->verdicts_cap = 0;
}

static const struct tcol cols[] = {
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

void rep_dur_table(struct table *t, const struct rep_db *db, bool want)
{
	table_init(t, "durabilityVerify", "Durability after a power cut (iobench durability verify)", cols,
		   sizeof(cols) / sizeof(cols[0]));
	if (!want || db->nverdicts == 0)
		return;
	struct rep_verdict *v = malloc(db->nverdicts * sizeof(*v));
	if (!v)
		abort();
	memcpy(v, db->verdicts, db->nverdicts * sizeof(*v));
	qsort(v, db->nverdicts, sizeof(*v), cmp_verdict);
	for (size_t i = 0; i < db->nverdicts; i++)
		table_row(t, v[i].host, v[i].labels, v[i].target, v[i].op, v[i].writers, v[i].writers_cut,
			  v[i].acknowledged, v[i].intact, v[i].newer, v[i].torn, v[i].lost,
			  v[i].never_acknowledged, v[i].run, v[i].lost > 0 ? "LOST" : "ok");
	free(v);
}
