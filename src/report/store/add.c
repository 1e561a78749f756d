/* report/store/add.c - what one document adds, added to the store: cells, notes, devices, bonnie++, fleets, verdicts. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/store/verdict.h"
#include "report/store/config.h"
#include "report/store/opname.h"
#include "report/store/warn.h"
#include "report/store/manifest.h"
#include "report/store/db.h"

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
		struct rep_cell *c = rep_db_cell(db, o->sig, o->threads, ocfg, l->size, l->host);
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

void rep_line_free(struct rep_line *l)
{
	free(l->msgs);
	rep_split_free(&l->split);
	free(l->host);
	for (size_t i = 0; i < l->nops; i++) {
		free(l->ops[i].sig);
		free(l->ops[i].pts);
		free(l->ops[i].heat);
		free(l->ops[i].hbins);
	}
	free(l->ops);
	free(l->sigs);
	free(l->target_path);
	free(l->target_finding);
	for (size_t i = 0; i < l->ndevs; i++)
		free(l->devs[i].buckets);
	free(l->devs);
	rep_bonnie_free(&l->bonnie);
	json_decref(l->manifest);
	free(l->dur_host);
	memset(l, 0, sizeof(*l));
}
