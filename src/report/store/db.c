/* report/store/db.c - the cell store: lines added to cells, filters, the final order. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/db.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/sections/durability.h"
#include "report/read/line.h"

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

static struct rep_cell *cell_get(struct rep_db *db, const char *sig, double threads,
				 const struct rep_config *cfg, uint64_t size, const char *host)
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

static void cell_add_point(struct rep_cell *c, const struct rep_point *p)
{
	if (c->npts == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->pts = rep_realloc(c->pts, c->cap * sizeof(*c->pts));
	}
	c->pts[c->npts++] = *p;
}

/* A time bucket's heat-map bins (bins[0..h->n), at h->off of the op's pool), appended to the cell's. */
static void cell_add_heat(struct rep_cell *c, const struct rep_heat *h, const uint32_t *bins)
{
	if (c->nheat == c->heat_cap) {
		c->heat_cap = c->heat_cap ? c->heat_cap * 2 : 16;
		c->heat = rep_realloc(c->heat, c->heat_cap * sizeof(*c->heat));
	}
	while (c->nhbins + h->n > c->hbins_cap) {
		c->hbins_cap = c->hbins_cap ? c->hbins_cap * 2 : 256;
		c->hbins = rep_realloc(c->hbins, c->hbins_cap * sizeof(*c->hbins));
	}
	memcpy(c->hbins + c->nhbins, bins + h->off, h->n * sizeof(*bins));
	c->heat[c->nheat] = *h;
	c->heat[c->nheat++].off = (uint32_t)c->nhbins;
	c->nhbins += h->n;
}

/* ---- one document, added ---- */

/* A run line's bookkeeping, kept for the notes section. */
static void add_note(struct rep_db *db, const struct rep_line *l, const struct rep_config *cfg)
{
	if (db->nnotes == db->notes_cap) {
		db->notes_cap = db->notes_cap ? db->notes_cap * 2 : 64;
		db->notes = rep_realloc(db->notes, db->notes_cap * sizeof(*db->notes));
	}
	db->notes[db->nnotes++] = (struct rep_note){ .host = rep_strdup(l->host), .cfg = cfg, .launch = l->launch,
						     .sigs = rep_strdup(l->sigs), .notes = rep_strdup(l->split.notes) };
}

/* A line whose target was not what was provisioned: one row per host, config and finding. */
static void add_target_flag(struct rep_db *db, const struct rep_line *l, const struct rep_config *cfg)
{
	for (size_t i = 0; i < db->ntflags; i++) {
		struct rep_target_flag *f = &db->tflags[i];
		if (f->cfg == cfg && strcmp(f->host, l->host) == 0 && strcmp(f->finding, l->target_finding) == 0) {
			f->runs++;
			return;
		}
	}
	if (db->ntflags == db->tflags_cap) {
		db->tflags_cap = db->tflags_cap ? db->tflags_cap * 2 : 16;
		db->tflags = rep_realloc(db->tflags, db->tflags_cap * sizeof(*db->tflags));
	}
	db->tflags[db->ntflags++] = (struct rep_target_flag){ .host = rep_strdup(l->host), .cfg = cfg,
		.path = l->target_path ? rep_strdup(l->target_path) : NULL,
		.finding = rep_strdup(l->target_finding), .runs = 1 };
}

/* The round a runId note names: "round2" (campaign --rounds 2) is 2; 0 none. */
static unsigned round_of(const char *notes)
{
	char id[128];
	if (!rep_label_value(notes, "runId", id, sizeof(id)))
		return 0;
	size_t n = strlen(id), d = n;
	while (d > 0 && id[d - 1] >= '0' && id[d - 1] <= '9')
		d--;
	if (d == n || d < 5 || strncmp(id + d - 5, "round", 5) != 0 || n - d > 6)
		return 0;
	return (unsigned)strtoul(id + d, NULL, 10);
}

/*
 * What kind of runs l's are, as rep_config_get_runs() keeps them apart:
 * partial (unless --include-partial), its round and nominal runtime (unless
 * --merge-rounds). Counts the partial ones kept apart.
 */
static void runs_key(struct rep_db *db, const struct rep_line *l, char *buf, size_t len)
{
	int o = 0;
	buf[0] = '\0';
	int kind = l->target_lost ? REP_PARTIAL_TARGET_LOST
		 : l->interrupted ? REP_PARTIAL_INTERRUPTED
		 /* a run that ended well short of its runtime without saying why (-n N ends on its count) */
		 : l->runtime > 0 && !l->count_limited && l->seconds < 0.9 * l->runtime ? REP_PARTIAL_SHORT : -1;
	if (kind >= 0 && !db->include_partial) {
		o += snprintf(buf + o, len - (size_t)o, "partial=%s", rep_partial_name((enum rep_partial_kind)kind));
		if (l->nops)
			db->kept_apart[kind]++;
	}
	if (db->merge_rounds || l->watch)
		return;
	unsigned round = round_of(l->split.notes);
	if (round)
		o += snprintf(buf + o, len - (size_t)o, "%sround=%u", o ? "," : "", round);
	/* runs in rounds last until they settle: one kind of run, whatever their length */
	if (l->steady)
		snprintf(buf + o, len - (size_t)o, "%sruntime=steady", o ? "," : "");
	else if (l->runtime > 0)
		snprintf(buf + o, len - (size_t)o, "%sruntime=%g", o ? "," : "", l->runtime);
}

/* The line's devices, with what names its run: copied (the line is freed after). */
static void add_devrun(struct rep_db *db, const struct rep_line *l, const struct rep_config *cfg)
{
	if (db->ndevruns == db->devruns_cap) {
		db->devruns_cap = db->devruns_cap ? db->devruns_cap * 2 : 16;
		db->devruns = rep_realloc(db->devruns, db->devruns_cap * sizeof(*db->devruns));
	}
	struct rep_devrun *r = &db->devruns[db->ndevruns++];
	memset(r, 0, sizeof(*r));
	r->host = rep_strdup(l->host);
	r->cfg = cfg;
	size_t len = 1;
	for (size_t i = 0; i < l->nops; i++)
		len += strlen(l->ops[i].sig) + 40;
	r->ops = rep_calloc(len, 1);
	for (size_t i = 0; i < l->nops; i++) {
		char op[64];
		rep_op_name(l->ops[i].sig, op, sizeof(op));
		snprintf(r->ops + strlen(r->ops), len - strlen(r->ops), "%s%s", i ? " " : "", op);
	}
	r->threads = l->ops[0].threads;
	r->size = l->size;
	r->launch = l->launch;
	r->bucket = l->bucket * (double)(l->dev_fold ? l->dev_fold : 1); /* its device buckets' */
	r->devs = rep_calloc(l->ndevs, sizeof(*r->devs));
	r->ndevs = l->ndevs;
	for (size_t i = 0; i < l->ndevs; i++) {
		r->devs[i] = l->devs[i];
		r->devs[i].buckets = NULL;
		if (l->devs[i].nbuckets) {
			r->devs[i].buckets = rep_calloc(l->devs[i].nbuckets, sizeof(*r->devs[i].buckets));
			memcpy(r->devs[i].buckets, l->devs[i].buckets, l->devs[i].nbuckets * sizeof(*r->devs[i].buckets));
		}
	}
}

static void add_run(struct rep_db *db, const struct rep_line *l)
{
	char runs[128];
	runs_key(db, l, runs, sizeof(runs));
	const struct rep_config *cfg = rep_config_get_runs(db, l->split.labels, l->split.facts, runs);
	/* the configs this line's ops ran as, each flagged once when the target was not the disk meant */
	const struct rep_config *flagged[8];
	size_t nflagged = 0;
	for (size_t i = 0; i < l->nops; i++) {
		const struct rep_line_op *o = &l->ops[i];
		/* settings that change the result (engine, depth, O_DIRECT, O_SYNC, rate) make a config of their own */
		const struct rep_config *ocfg = cfg;
		if (o->settings[0])
			ocfg = rep_config_get_settings(db, l->split.labels, l->split.facts, runs, o->settings);
		if (l->target_finding) {
			bool seen = false;
			for (size_t k = 0; k < nflagged && !seen; k++)
				seen = flagged[k] == ocfg;
			if (!seen) {
				add_target_flag(db, l, ocfg);
				if (nflagged < sizeof(flagged) / sizeof(flagged[0]))
					flagged[nflagged++] = ocfg;
			}
		}
		struct rep_cell *c = cell_get(db, o->sig, o->threads, ocfg, l->size, l->host);
		hist_merge(&c->total, &o->total);
		if (o->split) {
			hist_merge(&c->write_only, &o->write_only);
			hist_merge(&c->sync, &o->sync);
			c->split_runs++;
		}
		c->seconds += o->seconds > 0 ? o->seconds : l->seconds;
		c->runs++;
		if (o->steady.runs) {
			unsigned nruns = c->steady.runs + 1, attained = c->steady.attained + o->steady.attained;
			c->steady = o->steady;
			c->steady.runs = nruns;
			c->steady.attained = attained;
		}
		c->cpu_ns += o->cpu_ns;
		c->cpu_ops += o->cpu_ops;
		if (!c->block)
			c->block = o->block;
		if (l->rotational >= 0)
			c->rotational = l->rotational;
		if (l->model[0])
			snprintf(c->model, sizeof(c->model), "%s", l->model);
		if (o->rate > 0)
			c->rate = o->rate;
		if (l->launch > 0 && (c->launch == 0 || l->launch < c->launch))
			c->launch = l->launch;
		c->watch |= l->watch;
		for (size_t k = 0; k < o->npts; k++)
			cell_add_point(c, &o->pts[k]);
		for (size_t k = 0; k < o->nheat; k++)
			cell_add_heat(c, &o->heat[k], o->hbins);
		db->operations++;
	}
	if (l->nops && l->sigs)
		add_note(db, l, cfg);
	if (l->nops && l->ndevs)
		add_devrun(db, l, cfg);
	if (l->nops)
		db->runs++;
}

static void add_bonnie(struct rep_db *db, const struct rep_bonnie *b)
{
	if (db->nbonnie == db->bonnie_cap) {
		db->bonnie_cap = db->bonnie_cap ? db->bonnie_cap * 2 : 16;
		db->bonnie = rep_realloc(db->bonnie, db->bonnie_cap * sizeof(*db->bonnie));
	}
	struct rep_bonnie *r = &db->bonnie[db->nbonnie++];
	*r = *b;
	r->host = rep_strdup(b->host);
	r->labels = rep_strdup(b->labels);
	r->facts = rep_strdup(b->facts);
	r->file_size = b->file_size ? rep_strdup(b->file_size) : NULL;
	for (int k = 0; k < REP_BONNIE_NFIELDS; k++)
		r->latency[k] = b->latency[k] ? rep_strdup(b->latency[k]) : NULL;
}

/*
 * Whether l's histograms fit in db's running sum of all (added there when
 * they do): the cells and every merge of them are parts of that sum, so
 * checking it here keeps each later addition of counts from wrapping.
 */
static bool counts_fit(struct rep_db *db, const struct rep_line *l)
{
	struct hist sum = db->sum;
	for (size_t i = 0; i < l->nops; i++) {
		const struct rep_line_op *o = &l->ops[i];
		if (hist_merge(&sum, &o->total) != 0 ||
		    (o->split && (hist_merge(&sum, &o->write_only) != 0 || hist_merge(&sum, &o->sync) != 0)))
			return false;
	}
	db->sum = sum;
	return true;
}

bool rep_line_add(struct rep_db *db, const struct rep_line *l, const char *file, unsigned long lineno)
{
	/* "FILE:LINE", formatted only for a line that has something to say (most have not) */
	char where[4200] = "";
	bool fits = l->kind != REP_LINE_RUN || counts_fit(db, l);
	if (l->msgs_len || l->kind != REP_LINE_RUN || !fits) {
		if (lineno)
			snprintf(where, sizeof(where), "%s:%lu", file, lineno);
		else
			snprintf(where, sizeof(where), "%s", file);
	}
	for (size_t off = 0; off < l->msgs_len; off += strlen(l->msgs + off) + 1)
		rep_warn(db, "%s: %s", where, l->msgs + off);
	db->skipped += l->skipped;
	switch (l->kind) {
	case REP_LINE_RUN:
		if (!fits) {
			rep_warn(db, "%s: its operations would take the report's counts past %llu, the most they hold; "
				 "skipped (report fewer runs at once)", where, (unsigned long long)HIST_COUNT_MAX);
			db->skipped++;
			return false;
		}
		add_run(db, l);
		return l->nops > 0;
	case REP_LINE_BONNIE:
		add_bonnie(db, &l->bonnie);
		return true;
	case REP_LINE_MANIFEST:
		return rep_add_manifest(db, l->manifest, where);
	case REP_LINE_DURABILITY:
		if (rep_dur_add(db, l->manifest, l->dur_host))
			return true;
		rep_warn(db, "%s: durability line without \"durability\" counts; skipped", where);
		db->skipped++;
		return false;
	case REP_LINE_NONE:
		break;
	}
	return false;
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
