/* report/store/db.c - the cell store: lines added to cells, filters, the final order. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/db.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/verdict.h"
#include "report/store/config.h"
#include "report/store/opname.h"
#include "report/store/manifest.h"

void rep_db_init(struct rep_db *db, rep_warn_fn *warn, void *warn_arg)
{
	memset(db, 0, sizeof(*db));
	db->warn = warn;
	db->warn_arg = warn_arg;
}

static void cell_free(struct rep_cell *c)
{
	free(c->sig);
	free(c->op);
	free(c->host);
	free(c->pts);
	free(c->heat);
	free(c->hbins);
	free(c);
}

void rep_bonnie_free(struct rep_bonnie *b)
{
	free(b->host);
	free(b->labels);
	free(b->facts);
	free(b->file_size);
	for (int k = 0; k < REP_BONNIE_NFIELDS; k++)
		free(b->latency[k]);
}

void rep_db_free(struct rep_db *db)
{
	for (size_t i = 0; i < db->seen_cap; i++)
		free(db->seen[i].path);
	free(db->seen);
	for (size_t i = 0; i < db->ncells; i++)
		cell_free(db->cells[i]);
	free(db->cells);
	free(db->slots);
	for (size_t i = 0; i < db->nbonnie; i++)
		rep_bonnie_free(&db->bonnie[i]);
	free(db->bonnie);
	for (size_t i = 0; i < db->nconfigs; i++) {
		free(db->configs[i]->labels);
		free(db->configs[i]->facts);
		free(db->configs[i]->name);
		free(db->configs[i]->runs);
		free(db->configs[i]->settings);
		free(db->configs[i]);
	}
	free(db->configs);
	free(db->config_slots);
	for (size_t i = 0; i < db->nnotes; i++) {
		free(db->notes[i].host);
		free(db->notes[i].sigs);
		free(db->notes[i].notes);
	}
	free(db->notes);
	for (size_t i = 0; i < db->ntflags; i++) {
		free(db->tflags[i].host);
		free(db->tflags[i].path);
		free(db->tflags[i].finding);
	}
	free(db->tflags);
	rep_fleet_free(db);
	for (size_t i = 0; i < db->ndevruns; i++) {
		for (size_t k = 0; k < db->devruns[i].ndevs; k++)
			free(db->devruns[i].devs[k].buckets);
		free(db->devruns[i].devs);
		free(db->devruns[i].host);
		free(db->devruns[i].ops);
	}
	free(db->devruns);
	for (size_t i = 0; i < db->nverdicts; i++)
		rep_dur_verdict_free(&db->verdicts[i]);
	free(db->verdicts);
	memset(db, 0, sizeof(*db));
}

/* ---- cell table ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t key_hash(const char *sig, double threads, const struct rep_config *cfg, uint64_t size,
			 const char *host)
{
	uint64_t h = 14695981039346656037ULL;
	h = fnv(h, sig, strlen(sig) + 1);
	h = fnv(h, &threads, sizeof(threads));
	h = fnv(h, &cfg, sizeof(cfg));
	h = fnv(h, &size, sizeof(size));
	return fnv(h, host, strlen(host) + 1);
}

static bool key_equal(const struct rep_cell *c, const char *sig, double threads,
		      const struct rep_config *cfg, uint64_t size, const char *host)
{
	return c->threads == threads && c->size == size && c->cfg == cfg && strcmp(c->sig, sig) == 0 &&
	       strcmp(c->host, host) == 0;
}

static void slots_grow(struct rep_db *db)
{
	size_t n = db->nslots ? db->nslots * 2 : 1024;
	while (n < 2 * (db->ncells + 1))
		n *= 2;
	free(db->slots);
	db->slots = rep_calloc(n, sizeof(*db->slots));
	db->nslots = n;
	for (size_t i = 0; i < db->ncells; i++) {
		const struct rep_cell *c = db->cells[i];
		size_t s = key_hash(c->sig, c->threads, c->cfg, c->size, c->host) & (n - 1);
		while (db->slots[s])
			s = (s + 1) & (n - 1);
		db->slots[s] = i + 1;
	}
}

struct rep_cell *rep_db_cell(struct rep_db *db, const char *sig, double threads, const struct rep_config *cfg,
			     uint64_t size, const char *host)
{
	if ((db->ncells + 1) * 2 > db->nslots)
		slots_grow(db);
	size_t mask = db->nslots - 1;
	size_t s = key_hash(sig, threads, cfg, size, host) & mask;
	while (db->slots[s]) {
		struct rep_cell *c = db->cells[db->slots[s] - 1];
		if (key_equal(c, sig, threads, cfg, size, host))
			return c;
		s = (s + 1) & mask;
	}
	if (db->ncells == db->cells_cap) {
		db->cells_cap = db->cells_cap ? db->cells_cap * 2 : 64;
		db->cells = rep_realloc(db->cells, db->cells_cap * sizeof(*db->cells));
	}
	struct rep_cell *c = rep_calloc(1, sizeof(*c));
	c->sig = rep_strdup(sig);
	char op[128];
	rep_op_name(sig, op, sizeof(op));
	c->op = rep_strdup(op);
	c->cfg = cfg;
	c->host = rep_strdup(host);
	c->threads = threads;
	c->size = size;
	c->rotational = -1;
	c->kind = rep_kind_of(sig);
	hist_init(&c->total);
	hist_init(&c->write_only);
	hist_init(&c->sync);
	db->cells[db->ncells++] = c;
	db->slots[s] = db->ncells;
	return c;
}

/* A label's, else a configuration fact's, value of key in buf; false when neither has it. */
static bool config_value(const struct rep_config *cfg, const char *key, char *buf, size_t len)
{
	return cfg && (rep_label_value(cfg->labels, key, buf, len) || rep_label_value(cfg->facts, key, buf, len));
}

/* Whether an op matches --only KEY=GLOB: "op" either as typed or its signature, "signature" the signature alone. */
static bool op_matches(const char *key, const char *pattern, const char *sig, const char *op)
{
	if (sig && fnmatch(pattern, sig, 0) == 0)
		return true;
	return strcmp(key, "op") == 0 && op && fnmatch(pattern, op, 0) == 0;
}

static bool is_op_key(const char *key)
{
	return strcmp(key, "signature") == 0 || strcmp(key, "op") == 0;
}

static bool field_matches(const char *key, const char *pattern, const char *host, const char *sig, const char *op,
			  double threads, const struct rep_config *cfg, const char *labels)
{
	char buf[256];
	const char *value = buf;
	if (strcmp(key, "host") == 0)
		value = host;
	else if (is_op_key(key))
		return op_matches(key, pattern, sig, op);
	else if (strcmp(key, "threads") == 0)
		snprintf(buf, sizeof(buf), "%.15g", threads);
	else if (labels ? !rep_label_value(labels, key, buf, sizeof(buf)) : !config_value(cfg, key, buf, sizeof(buf)))
		return false;
	return value && fnmatch(pattern, value, 0) == 0;
}

/* A note matches when its host or configuration does, or one of its signatures (or ops); thread counts all do. */
static bool note_matches(const char *key, const char *pattern, const struct rep_note *n)
{
	if (strcmp(key, "threads") == 0)
		return true;
	if (!is_op_key(key))
		return field_matches(key, pattern, n->host, NULL, NULL, NAN, n->cfg, NULL);
	char sig[256], op[256];
	for (const char *p = n->sigs; *p; p += *p == ' ') {
		size_t len = strcspn(p, " ");
		snprintf(sig, sizeof(sig), "%.*s", (int)(len < sizeof(sig) ? len : sizeof(sig) - 1), p);
		rep_op_name(sig, op, sizeof(op));
		if (op_matches(key, pattern, sig, op))
			return true;
		p += len;
	}
	return false;
}

void rep_db_filter(struct rep_db *db, const char *key, const char *pattern)
{
	size_t kept = 0;
	for (size_t i = 0; i < db->ncells; i++) {
		struct rep_cell *c = db->cells[i];
		if (field_matches(key, pattern, c->host, c->sig, c->op, c->threads, c->cfg, NULL)) {
			db->cells[kept++] = c;
			continue;
		}
		cell_free(c);
	}
	db->ncells = kept;
	kept = 0;
	for (size_t i = 0; i < db->nbonnie; i++) {
		struct rep_bonnie *b = &db->bonnie[i];
		if (field_matches(key, pattern, b->host, "bonnie++", "bonnie++", NAN, NULL, b->labels)) {
			db->bonnie[kept++] = *b;
			continue;
		}
		rep_bonnie_free(b);
	}
	db->nbonnie = kept;
	kept = 0;
	for (size_t i = 0; i < db->nnotes; i++) {
		struct rep_note *n = &db->notes[i];
		if (note_matches(key, pattern, n)) {
			db->notes[kept++] = *n;
			continue;
		}
		free(n->host);
		free(n->sigs);
		free(n->notes);
	}
	db->nnotes = kept;
	kept = 0;
	for (size_t i = 0; i < db->ntflags; i++) {
		struct rep_target_flag *f = &db->tflags[i];
		bool per_host = is_op_key(key) || strcmp(key, "threads") == 0;
		if (per_host || field_matches(key, pattern, f->host, NULL, NULL, NAN, f->cfg, NULL)) {
			db->tflags[kept++] = *f;
			continue;
		}
		free(f->host);
		free(f->path);
		free(f->finding);
	}
	db->ntflags = kept;
	kept = 0;
	for (size_t i = 0; i < db->nverdicts; i++) {
		struct rep_verdict *v = &db->verdicts[i];
		if (field_matches(key, pattern, v->host, v->op, v->op, v->writers, NULL, v->labels ? v->labels : "")) {
			db->verdicts[kept++] = *v;
			continue;
		}
		rep_dur_verdict_free(v);
	}
	db->nverdicts = kept;
	/* The hash slots point at old positions: rebuild them. */
	free(db->slots);
	db->slots = NULL;
	db->nslots = 0;
	slots_grow(db);
}

/* ---- ordering ---- */

int rep_config_cmp(const struct rep_config *a, const struct rep_config *b)
{
	if (a == b)
		return 0;
	int r = strverscmp(a->name, b->name);
	if (!r)
		r = strcmp(a->labels, b->labels);
	if (!r)
		r = strcmp(a->facts, b->facts);
	if (!r)
		r = strverscmp(a->runs, b->runs);
	return r ? r : strcmp(a->settings, b->settings);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rep_cell *x = *(struct rep_cell *const *)a, *y = *(struct rep_cell *const *)b;
	int r = rep_sig_cmp(x->sig, x->block, y->sig, y->block);
	if (!r)
		r = rep_config_cmp(x->cfg, y->cfg);
	if (!r)
		r = (x->size > y->size) - (x->size < y->size);
	if (!r)
		r = (x->threads > y->threads) - (x->threads < y->threads);
	if (!r)
		r = strverscmp(x->host, y->host);
	return r;
}

static int cmp_fleet_host(const void *a, const void *b)
{
	const struct rep_fleet_host *x = a, *y = b;
	int r = strverscmp(x->name, y->name);
	return r ? r : strverscmp(x->run, y->run);
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct rep_point *)a)->t, y = ((const struct rep_point *)b)->t;
	return (x > y) - (x < y);
}

static int cmp_heat(const void *a, const void *b)
{
	double x = ((const struct rep_heat *)a)->t, y = ((const struct rep_heat *)b)->t;
	return (x > y) - (x < y);
}

void rep_db_finish(struct rep_db *db)
{
	rep_configs_distinguish(db);
	rep_configs_mark_runs(db, &db->runs_split);
	if (db->nfleet)
		qsort(db->fleet, db->nfleet, sizeof(*db->fleet), cmp_fleet_host);
	if (db->ncells)
		qsort(db->cells, db->ncells, sizeof(*db->cells), cmp_cell);
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->npts)
			qsort(db->cells[i]->pts, db->cells[i]->npts, sizeof(struct rep_point), cmp_point);
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->nheat)
			qsort(db->cells[i]->heat, db->cells[i]->nheat, sizeof(struct rep_heat), cmp_heat);
	/* The hash slots point at old positions: rebuild them. */
	free(db->slots);
	db->slots = NULL;
	db->nslots = 0;
	slots_grow(db);
}
