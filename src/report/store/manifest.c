/* report/store/manifest.c - a fleet's manifest.json: the hosts that were planned, and what became of each. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/manifest.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/base/json.h"
#include "report/store/config.h"
#include "report/store/warn.h"

/* The configuration facts of a provision object as jansson holds it (rep_config_facts reads report_json's). */
static char *facts_of(const json_t *prov)
{
	char *text = json_is_object(prov) ? json_dumps(prov, JSON_COMPACT) : NULL;
	struct jv_doc d;
	jv_doc_init(&d);
	char *facts = rep_config_facts(text ? jv_parse(&d, text, strlen(text)) : NULL);
	jv_doc_free(&d);
	free(text);
	return facts;
}

static char *str_or_null(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? rep_strdup(json_string_value(v)) : NULL;
}

static double num_or_nan(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void fleet_host_free(struct rep_fleet_host *h)
{
	free(h->run);
	free(h->state);
	free(h->name);
	free(h->status);
	free(h->kind);
	free(h->detail);
	free(h->remote);
	free(h->results);
	free(h->facts);
}

/*
 * The hosts of one run already in db->fleet, by name: an open-addressing
 * table of indexes into db->fleet (0 empty, else index + 1), so that a
 * manifest of N hosts is matched in O(N), not O(N^2) (40k hosts: 5.6 s).
 */
struct fleet_index {
	size_t *slot;
	size_t mask;
};

static size_t name_hash(const char *s)
{
	size_t h = 14695981039346656037ULL; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The table's place for name: the one holding it, else the empty one where it goes. */
static size_t *fleet_index_find(const struct fleet_index *ix, const struct rep_db *db, const char *name)
{
	for (size_t k = name_hash(name) & ix->mask;; k = (k + 1) & ix->mask) {
		size_t *s = &ix->slot[k];
		if (*s == 0 || strcmp(db->fleet[*s - 1].name, name) == 0)
			return s;
	}
}

/* An index of run's hosts in db, with room for `more` hosts to come. */
static void fleet_index_init(struct fleet_index *ix, const struct rep_db *db, const char *run, size_t more)
{
	size_t cap = 16;
	while (cap < 2 * (db->nfleet + more))
		cap *= 2;
	ix->slot = rep_calloc(cap, sizeof(*ix->slot));
	ix->mask = cap - 1;
	for (size_t i = 0; i < db->nfleet; i++)
		if (strcmp(db->fleet[i].run, run) == 0)
			*fleet_index_find(ix, db, db->fleet[i].name) = i + 1;
}

/* The slot for host name of the run ix indexes: the one already there (emptied), or a new one. */
static struct rep_fleet_host *fleet_slot(struct rep_db *db, struct fleet_index *ix, const char *name)
{
	size_t *s = fleet_index_find(ix, db, name);
	if (*s) {
		struct rep_fleet_host *h = &db->fleet[*s - 1];
		fleet_host_free(h);
		return h;
	}
	if (db->nfleet == db->fleet_cap) {
		db->fleet_cap = db->fleet_cap ? db->fleet_cap * 2 : 16;
		db->fleet = rep_realloc(db->fleet, db->fleet_cap * sizeof(*db->fleet));
	}
	*s = db->nfleet + 1;
	return &db->fleet[db->nfleet++];
}

bool rep_add_manifest(struct rep_db *db, const void *json_root, const char *where)
{
	const json_t *root = json_root;
	const json_t *hosts = json_object_get(root, "hosts");
	if (!json_is_array(hosts)) {
		db->skipped++;
		rep_warn(db, "%s: fleet manifest without a \"hosts\" array; skipped", where);
		return false;
	}
	const json_t *runj = json_object_get(root, "runId");
	const char *run = json_is_string(runj) ? json_string_value(runj) : "";
	struct fleet_index ix;
	fleet_index_init(&ix, db, run, json_array_size(hosts));
	size_t i;
	const json_t *h;
	json_array_foreach(hosts, i, h) {
		const json_t *name = json_object_get(h, "name");
		if (!json_is_string(name) || json_string_length(name) == 0)
			continue;
		struct rep_fleet_host *f = fleet_slot(db, &ix, json_string_value(name));
		const json_t *failure = json_object_get(h, "failure");
		memset(f, 0, sizeof(*f));
		f->run = rep_strdup(run);
		f->state = str_or_null(root, "state");
		f->name = rep_strdup(json_string_value(name));
		f->status = str_or_null(h, "status");
		f->kind = str_or_null(failure, "kind");
		f->detail = str_or_null(failure, "detail");
		f->exit_code = num_or_nan(failure, "exit");
		f->remote = str_or_null(h, "remotePath");
		f->results = str_or_null(h, "results");
		f->facts = facts_of(json_object_get(h, "provision"));
		f->planned = num_or_nan(h, "planned");
		f->finished = num_or_nan(h, "finished");
		f->fetched = num_or_nan(h, "fetched");
	}
	free(ix.slot);
	db->manifests++;
	return true;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void rep_fleet_match(struct rep_db *db)
{
	if (db->nfleet == 0)
		return;
	const char **names = rep_calloc(db->ncells + 1, sizeof(*names));
	for (size_t i = 0; i < db->ncells; i++)
		names[i] = db->cells[i]->host;
	qsort(names, db->ncells, sizeof(*names), cmp_name);
	for (size_t i = 0; i < db->nfleet; i++) {
		const char *key = db->fleet[i].name;
		db->fleet[i].has_lines = bsearch(&key, names, db->ncells, sizeof(*names), cmp_name) != NULL;
	}
	free(names);
}

void rep_fleet_free(struct rep_db *db)
{
	for (size_t i = 0; i < db->nfleet; i++)
		fleet_host_free(&db->fleet[i]);
	free(db->fleet);
	db->fleet = NULL;
	db->nfleet = db->fleet_cap = 0;
}
