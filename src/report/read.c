/* report/read.c - read result files into cells: iobench, the 2012 tool, bonnie++; durability verdicts. */
#include "report_db.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "durability.h"
#include "hist_json.h"
#include "units.h"

#define DUMP_BEGIN "<begin json dump>"
#define DUMP_END "<end json dump>"
/* A pretty-printed object may span lines; give up on it after this much. */
#define MAX_MULTILINE (16u << 20)

__attribute__((format(printf, 3, 4)))
static void warn_at(struct rep_db *db, const char *where, const char *fmt, ...)
{
	db->warnings++;
	if (!db->diag)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(db->diag, "iobench: %s: ", where);
	vfprintf(db->diag, fmt, ap);
	fputc('\n', db->diag);
	va_end(ap);
}

void rep_db_init(struct rep_db *db, FILE *diag)
{
	memset(db, 0, sizeof(*db));
	db->diag = diag;
}

static void cell_free(struct rep_cell *c)
{
	free(c->sig);
	free(c->host);
	free(c->pts);
	free(c);
}

static void bonnie_free(struct rep_bonnie *b)
{
	free(b->host);
	free(b->labels);
	free(b->file_size);
	free(b->facts);
	for (int k = 0; k < REP_BONNIE_NFIELDS; k++)
		free(b->latency[k]);
}

void rep_db_free(struct rep_db *db)
{
	for (size_t i = 0; i < db->ncells; i++)
		cell_free(db->cells[i]);
	free(db->cells);
	free(db->slots);
	for (size_t i = 0; i < db->nbonnie; i++)
		bonnie_free(&db->bonnie[i]);
	free(db->bonnie);
	for (size_t i = 0; i < db->nconfigs; i++) {
		free(db->configs[i]->labels);
		free(db->configs[i]->facts);
		free(db->configs[i]->name);
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
	rep_fleet_free(db);
	for (size_t i = 0; i < db->nverdicts; i++)
		rep_dur_verdict_free(&db->verdicts[i]);
	free(db->verdicts);
	memset(db, 0, sizeof(*db));
}

enum rep_kind rep_kind_of(const char *sig)
{
	size_t n = strcspn(sig, ",");
	if (n == 4 && strncmp(sig, "read", 4) == 0)
		return REP_READ;
	if (n == 10 && strncmp(sig, "writeFlush", 10) == 0)
		return REP_WRITE_FLUSH;
	if (n == 5 && strncmp(sig, "write", 5) == 0)
		return REP_WRITE;
	if (n > 5 && strncmp(sig, "write", 5) == 0 && strspn(sig + 5, "0123456789") == n - 5)
		return REP_WRITE_N;
	return REP_OTHER;
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
	c->cfg = cfg;
	c->host = rep_strdup(host);
	c->threads = threads;
	c->size = size;
	c->rotational = -1;
	c->kind = rep_kind_of(sig);
	hist_init(&c->total);
	db->cells[db->ncells++] = c;
	db->slots[s] = db->ncells;
	return c;
}

static void cell_add_point(struct rep_cell *c, double t, double ops, double p50, double p99)
{
	if (c->npts == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->pts = rep_realloc(c->pts, c->cap * sizeof(*c->pts));
	}
	c->pts[c->npts].t = t;
	c->pts[c->npts].ops = ops;
	c->pts[c->npts].p50 = p50;
	c->pts[c->npts].p99 = p99;
	c->npts++;
}

/* Raw control characters (JSON escapes them): a first line with one is not text. */
static bool has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			return true;
	}
	return false;
}

/* ---- one JSON document ---- */

/* A JSON number as a byte count: 0 unless positive, finite and below 2^63. */
static uint64_t to_u64(double v)
{
	return v > 0 && v < 9.2e18 ? (uint64_t)v : 0;
}

static double num_or(const json_t *obj, const char *key, double fallback)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : fallback;
}

static char *str_or_null(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? rep_strdup(json_string_value(v)) : NULL;
}

static bool add_bonnie(struct rep_db *db, const json_t *root, const char *where,
		       const char *fallback_host)
{
	static const char *const rate_keys[] = { "seqOutBlockKBps", "seqOutRewriteKBps",
						 "seqInBlockKBps", "randomSeeksPerSec" };
	static const char *const cpu_keys[] = { "seqOutBlockCpu", "seqOutRewriteCpu",
						"seqInBlockCpu", "randomSeeksCpu" };
	static const char *const lat_keys[] = { "seqOutBlockLatency", "seqOutRewriteLatency",
						"seqInBlockLatency", "randomSeeksLatency" };
	const json_t *b = json_object_get(root, "bonnie");
	if (!json_is_object(b)) {
		warn_at(db, where, "bonnie++ line has no \"bonnie\" object; skipped");
		db->skipped++;
		return false;
	}
	if (db->nbonnie == db->bonnie_cap) {
		db->bonnie_cap = db->bonnie_cap ? db->bonnie_cap * 2 : 16;
		db->bonnie = rep_realloc(db->bonnie, db->bonnie_cap * sizeof(*db->bonnie));
	}
	struct rep_bonnie *r = &db->bonnie[db->nbonnie++];
	memset(r, 0, sizeof(*r));
	struct rep_split split;
	rep_split_line(root, &split);
	r->host = rep_strdup(split.host ? split.host : fallback_host);
	r->labels = rep_strdup(split.labels);
	r->facts = rep_strdup(split.facts);
	rep_split_free(&split);
	r->file_size = str_or_null(b, "fileSize");
	r->launch = num_or(root, "launchTime", 0);
	for (int k = 0; k < REP_BONNIE_NFIELDS; k++) {
		r->rate[k] = num_or(b, rate_keys[k], NAN);
		r->cpu[k] = num_or(b, cpu_keys[k], NAN);
		r->latency[k] = str_or_null(b, lat_keys[k]);
	}
	return true;
}

/* Everything of a run line that its operations share. */
struct run_info {
	const char *host;
	const struct rep_config *cfg;
	uint64_t size;
	double seconds;  /* time to divide counts by */
	double nominal;  /* runtime that the buckets cover */
	double bucket;   /* bucketDuration, s (0: no buckets) */
	double launch;
	int rotational;
	bool watch;      /* an `iobench watch` period: one point with its latencies */
	bool legacy;     /* the 2012 tool's line: its count holds its errors */
};

static uint64_t block_of(const json_t *op, const char *sig)
{
	uint64_t b = to_u64(num_or(op, "blockSize", 0));
	if (b)
		return b;
	const char *p = strchr(sig, ',');
	if (!p)
		return 0;
	char text[32];
	size_t n = strcspn(p + 1, ",");
	if (n == 0 || n >= sizeof(text))
		return 0;
	memcpy(text, p + 1, n);
	text[n] = '\0';
	uint64_t bytes;
	return units_parse_size(text, &bytes) == 0 ? bytes : 0;
}

/*
 * The 2012 tool counted every sample, failed or not, in count and in the
 * buckets (errorCount is a subset of count); iobench's count is successful
 * operations. Take the failures out of count, and out of the buckets in
 * proportion to them (which ones failed cannot be told), largest remainders
 * first so the buckets sum to the new count; the total shrinks in step.
 */
static void hist_from_2012(struct hist *h)
{
	uint64_t all = h->count, failed = h->errors < all ? h->errors : all;
	h->errors = failed;
	if (failed == 0)
		return;
	uint64_t removed = 0;
	double frac[HIST_NBUCKETS];
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		double share = (double)h->buckets[k] * (double)failed / (double)all;
		uint64_t whole = (uint64_t)share;
		frac[k] = share - (double)whole;
		h->buckets[k] -= whole;
		removed += whole;
	}
	while (removed < failed) {
		unsigned best = HIST_NBUCKETS;
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			if (h->buckets[k] && (best == HIST_NBUCKETS || frac[k] > frac[best]))
				best = k;
		if (best == HIST_NBUCKETS)
			break;
		h->buckets[best]--;
		frac[best] = -1;
		removed++;
	}
	h->count = all - failed;
	h->total_ns = (uint64_t)((double)h->total_ns * (double)h->count / (double)all);
	if (h->count == 0)
		h->min_ns = h->max_ns = h->total_ns = 0;
}

static bool add_operation(struct rep_db *db, const struct run_info *run, const json_t *op,
			  size_t index, const char *where)
{
	const json_t *sigj = json_object_get(op, "signature");
	const json_t *thr = json_object_get(op, "threadCount");
	if (!json_is_string(sigj) || json_string_length(sigj) == 0 || !json_is_number(thr) ||
	    !(json_number_value(thr) > 0 && json_number_value(thr) < 1e9)) {
		warn_at(db, where, "operation %zu has no \"signature\" or positive \"threadCount\"; skipped",
			index + 1);
		return false;
	}
	const char *sig = json_string_value(sigj);
	struct hist total;
	char err[200];
	if (hist_from_json(json_object_get(op, "total"), &total, err, sizeof(err)) != 0) {
		warn_at(db, where, "operation %zu (%s): %s; skipped", index + 1, sig, err);
		return false;
	}
	if (run->legacy)
		hist_from_2012(&total);
	struct rep_cell *c = cell_get(db, sig, json_number_value(thr), run->cfg, run->size, run->host);
	hist_merge(&c->total, &total);
	c->seconds += run->seconds;
	c->runs++;
	if (!c->block)
		c->block = block_of(op, sig);
	if (run->rotational >= 0)
		c->rotational = run->rotational;
	double rate = num_or(json_object_get(op, "rate"), "target", 0);
	if (rate > 0)
		c->rate = rate;
	if (run->launch > 0 && (c->launch == 0 || run->launch < c->launch))
		c->launch = run->launch;
	const json_t *tb = json_object_get(op, "timeBuckets");
	if (run->watch) {
		/* A probe period is one point of a latency series: its total is its only bucket. */
		c->watch = true;
		cell_add_point(c, run->launch, (double)total.count / run->seconds,
			       total.count ? hist_percentile(&total, 0.5) : NAN,
			       total.count ? hist_percentile(&total, 0.99) : NAN);
	} else if (run->bucket >= 1e-3 && json_is_array(tb)) {
		/* Only whole nominal buckets: the extra one holds late finishers. */
		size_t nb = json_array_size(tb);
		double fit = floor(run->nominal / run->bucket + 1e-9);
		size_t whole = fit < (double)nb ? (size_t)fit : nb;
		for (size_t i = 0; i < nb && i < whole; i++) {
			double count = num_or(json_array_get(tb, i), "count", NAN);
			if (isnan(count))
				continue;
			if (run->legacy) /* its count holds its failures */
				count = fmax(0, count - num_or(json_array_get(tb, i), "errorCount", 0));
			cell_add_point(c, run->launch + (double)i * run->bucket, count / run->bucket, NAN, NAN);
		}
	}
	db->operations++;
	return true;
}

/* A run line's bookkeeping, kept for the notes section. */
static void add_note(struct rep_db *db, const struct run_info *run, const json_t *ops, const char *notes)
{
	if (db->nnotes == db->notes_cap) {
		db->notes_cap = db->notes_cap ? db->notes_cap * 2 : 64;
		db->notes = rep_realloc(db->notes, db->notes_cap * sizeof(*db->notes));
	}
	size_t len = 1, i;
	const json_t *op;
	json_array_foreach(ops, i, op)
		len += json_string_length(json_object_get(op, "signature")) + 1;
	char *sigs = rep_realloc(NULL, len);
	sigs[0] = '\0';
	json_array_foreach(ops, i, op) {
		const char *sig = json_string_value(json_object_get(op, "signature"));
		if (sig)
			strcat(strcat(sigs, sigs[0] ? " " : ""), sig);
	}
	db->notes[db->nnotes++] = (struct rep_note){ .host = rep_strdup(run->host), .cfg = run->cfg,
						     .launch = run->launch, .sigs = sigs,
						     .notes = rep_strdup(notes) };
}

/* rep_add_json(), with the labels a 2012 archive's layout gives its lines (NULL none). */
static bool add_json(struct rep_db *db, const void *json_root, const char *where, const char *fallback_host,
		     const char *layout_labels, bool explicit_file)
{
	const json_t *root = json_root;
	if (!json_is_object(root)) {
		warn_at(db, where, "not a JSON object; skipped");
		db->skipped++;
		return false;
	}
	const json_t *tool = json_object_get(root, "tool");
	if ((json_is_string(tool) && strcmp(json_string_value(tool), "bonnie++") == 0) ||
	    json_object_get(root, "bonnie"))
		return add_bonnie(db, root, where, fallback_host);
	if (json_is_string(tool) && strcmp(json_string_value(tool), "iobench-fleet") == 0)
		return rep_add_manifest(db, root, where);
	if (rep_dur_is_line(root)) {
		if (rep_dur_add(db, root, fallback_host))
			return true;
		warn_at(db, where, "durability line without \"durability\" counts; skipped");
		db->skipped++;
		return false;
	}
	const json_t *ops = json_object_get(root, "operations");
	if (!json_is_array(ops)) {
		/* state.json and friends live beside results: only named files must be results. */
		if (explicit_file) {
			warn_at(db, where, "not a result line (no \"operations\" array); skipped");
			db->skipped++;
		}
		return false;
	}
	struct run_info run = { 0 };
	struct rep_split split;
	rep_split_line(root, &split);
	run.host = split.host ? split.host : fallback_host;
	run.legacy = tool == NULL;
	if (run.legacy && layout_labels && !split.labels[0]) {
		free(split.labels);
		split.labels = rep_strdup(layout_labels);
	}
	run.nominal = num_or(root, "runtime", 0);
	run.seconds = num_or(root, "elapsed", 0);
	if (!(run.seconds > 0))
		run.seconds = run.nominal;
	if (!(run.seconds > 0)) {
		warn_at(db, where, "result line has no positive \"runtime\" or \"elapsed\"; skipped");
		db->skipped++;
		rep_split_free(&split);
		return false;
	}
	if (run.nominal > run.seconds || !(run.nominal > 0))
		run.nominal = run.seconds; /* interrupted: buckets past the end are partial */
	run.bucket = num_or(root, "bucketDuration", 0);
	const json_t *mode = json_object_get(root, "mode");
	run.watch = json_is_string(mode) && strcmp(json_string_value(mode), "watch") == 0;
	run.launch = num_or(root, "launchTime", 0);
	const json_t *target = json_object_get(root, "target");
	const json_t *rot = json_object_get(target, "rotational");
	run.rotational = json_is_boolean(rot) ? json_is_true(rot) : -1;
	run.cfg = rep_config_get(db, split.labels, split.facts);
	uint64_t size = split.size_label;
	if (!size)
		size = to_u64(num_or(target, "span", 0));
	if (!size)
		size = to_u64(num_or(root, "fileSize", 0));
	run.size = size;
	size_t added = 0, n = json_array_size(ops);
	for (size_t i = 0; i < n; i++)
		added += add_operation(db, &run, json_array_get(ops, i), i, where);
	if (added && split.notes[0])
		add_note(db, &run, ops, split.notes);
	rep_split_free(&split);
	if (added < n)
		db->skipped++;
	if (added)
		db->runs++;
	return added > 0;
}

bool rep_add_json(struct rep_db *db, const void *json_root, const char *where,
		  const char *fallback_host, bool explicit_file)
{
	return add_json(db, json_root, where, fallback_host, NULL, explicit_file);
}

/* ---- files ---- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The 2012 study's archives: trialK/output/json.N (and run.out.N, the same lines in the tool's log), N an instance. */
static const char *const study_trials[] = { "small/ephemeral", "small/ebs1", "small/ebs4", "medium/ephemeral",
					    "large/ephemeral", "large/ebs", "large/ebs4", "xlarge/ephemeral" };

/* N of a 2012 archive's json.N or run.out.N (a base name), else NULL. */
static const char *archive_instance(const char *base)
{
	const char *n = strncmp(base, "json.", 5) == 0 ? base + 5 : strncmp(base, "run.out.", 8) == 0 ? base + 8 : NULL;
	return n && *n && strspn(n, "0123456789") == strlen(n) ? n : NULL;
}

/*
 * Labels of a 2012 archive's file: in trialK/output/, trials 1 to 8 are the
 * study's configurations ("config=large/ebs4,study=2012"), other folders
 * name theirs ("config=FOLDER"). NULL for any other file. malloc'd.
 */
static char *archive_labels(const char *name)
{
	const char *base = strrchr(name, '/');
	if (!base || !archive_instance(base + 1))
		return NULL;
	/* name = .../TRIAL/output/json.N: find the two folders above the file */
	const char *out = base;
	while (out > name && out[-1] != '/')
		out--;
	if ((size_t)(base - out) != 6 || strncmp(out, "output", 6) != 0 || out == name)
		return NULL;
	const char *trial_end = out - 1, *trial = trial_end;
	while (trial > name && trial[-1] != '/')
		trial--;
	if (trial == trial_end)
		return NULL;
	size_t tlen = (size_t)(trial_end - trial);
	char buf[512];
	unsigned k = 0;
	int used = 0;
	if (sscanf(trial, "trial%u%n", &k, &used) == 1 && (size_t)used == tlen && k >= 1 &&
	    k <= sizeof(study_trials) / sizeof(study_trials[0]))
		snprintf(buf, sizeof(buf), "config=%s,study=2012", study_trials[k - 1]);
	else
		snprintf(buf, sizeof(buf), "config=%.*s", (int)(tlen < 400 ? tlen : 400), trial);
	return rep_strdup(buf);
}

/*
 * Host for lines without one: the folder holding the file
 * (results/<run>/<host>/x.jsonl); "#N" for a 2012 archive's json.N.
 */
static char *host_from_name(const char *name)
{
	if (strcmp(name, "-") == 0)
		return rep_strdup("stdin");
	const char *base = strrchr(name, '/');
	const char *inst = archive_instance(base ? base + 1 : name);
	if (inst) {
		char buf[64];
		snprintf(buf, sizeof(buf), "#%.40s", inst);
		return rep_strdup(buf);
	}
	char *copy = rep_strdup(name);
	char *slash = strrchr(copy, '/');
	char *out;
	if (slash && slash != copy) {
		*slash = '\0';
		char *prev = strrchr(copy, '/');
		out = rep_strdup(prev ? prev + 1 : copy);
	} else {
		char *b = slash ? slash + 1 : copy;
		char *dot = strchr(b, '.');
		if (dot && dot != b)
			*dot = '\0';
		out = rep_strdup(b);
	}
	free(copy);
	return out;
}

static void parse_doc(struct rep_db *db, const char *text, size_t len, const char *name,
		      unsigned long lineno, const char *host, const char *labels, bool explicit_file)
{
	json_error_t jerr;
	char where[4200];
	snprintf(where, sizeof(where), "%s:%lu", name, lineno);
	json_t *root = json_loadb(text, len, 0, &jerr);
	if (!root) {
		warn_at(db, where, "not valid JSON (%s at column %d); skipped", jerr.text, jerr.column);
		db->skipped++;
		return;
	}
	add_json(db, root, where, host, labels, explicit_file);
	json_decref(root);
}

struct growbuf {
	char *p;
	size_t len, cap;
};

static void growbuf_add(struct growbuf *b, const char *s, size_t n)
{
	if (b->len + n + 2 > b->cap) {
		b->cap = (b->len + n + 2) * 2;
		b->p = rep_realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len++] = '\n';
	b->p[b->len] = '\0';
}

/* One stream being read: where it is, and what a multi-line document has gathered. */
struct reader {
	struct rep_db *db;
	const char *name;
	char *host;            /* the fallback host: the file's folder */
	char *labels;          /* labels a 2012 archive's layout gives its lines, or NULL */
	bool explicit_file;
	bool lenient;          /* text between documents is a log, not an error */
	enum { TEXT, DUMP, MULTI } mode;
	unsigned long lineno;
	unsigned long start;   /* first line of the document being gathered */
	struct growbuf buf;
	char where[4200];
};

/* "FILE:LINE" for messages. */
static const char *where_at(struct reader *r, unsigned long lineno)
{
	snprintf(r->where, sizeof(r->where), "%s:%lu", r->name, lineno);
	return r->where;
}

static void skip_line(struct reader *r, unsigned long lineno, const char *what)
{
	warn_at(r->db, where_at(r, lineno), "%s", what);
	r->db->skipped++;
}

static void add_root(struct reader *r, json_t *root, unsigned long lineno)
{
	add_json(r->db, root, where_at(r, lineno), r->host, r->labels, r->explicit_file);
	json_decref(root);
}

/* Inside the 2012 tool's dump: gather until its end marker. */
static void dump_line(struct reader *r, const char *line, size_t n, size_t skip)
{
	if (strcmp(line + skip, DUMP_END) != 0) {
		growbuf_add(&r->buf, line, n);
		return;
	}
	parse_doc(r->db, r->buf.p ? r->buf.p : "", r->buf.len, r->name, r->start, r->host, r->labels,
		  r->explicit_file);
	r->mode = TEXT;
	r->buf.len = 0;
}

/* Inside a pretty-printed object: gather until a closing brace makes it parse. False: give up on the file. */
static bool multi_line(struct reader *r, const char *line, size_t n)
{
	growbuf_add(&r->buf, line, n);
	json_error_t jerr;
	json_t *root = line[0] == '}' ? json_loadb(r->buf.p, r->buf.len, 0, &jerr) : NULL;
	if (root) {
		add_root(r, root, r->start);
		r->mode = TEXT;
		r->buf.len = 0;
	} else if (r->buf.len > MAX_MULTILINE) {
		skip_line(r, r->start, "JSON object never ends; skipped the rest of the file");
		return false;
	}
	return true;
}

/* A line between documents: a JSON line, the start of a dump or of a pretty-printed object, or text. */
static void text_line(struct reader *r, const char *line, size_t n, size_t skip)
{
	if (line[skip] == '\0')
		return;
	r->db->lines++;
	if (strcmp(line + skip, DUMP_BEGIN) == 0) {
		r->mode = DUMP;
		r->start = r->lineno + 1;
		r->lenient = true;
		return;
	}
	if (line[skip] != '{' && line[skip] != '[') {
		if (!r->lenient)
			skip_line(r, r->lineno, "not a JSON line; skipped");
		return;
	}
	json_error_t jerr;
	json_t *root = json_loadb(line + skip, n - skip, 0, &jerr);
	if (root) {
		add_root(r, root, r->lineno);
	} else if (json_error_code(&jerr) == json_error_premature_end_of_input && strcmp(line + skip, "{") == 0) {
		/* A pretty-printed object: collect until a closing brace parses. */
		r->mode = MULTI;
		r->start = r->lineno;
		r->buf.len = 0;
		growbuf_add(&r->buf, line, n);
	} else {
		warn_at(r->db, where_at(r, r->lineno), "not valid JSON (%s at column %d); skipped", jerr.text,
			jerr.column);
		r->db->skipped++;
	}
}

void rep_read_stream(struct rep_db *db, FILE *f, const char *name, bool explicit_file)
{
	struct reader r = { .db = db, .name = name, .host = host_from_name(name), .labels = archive_labels(name),
			    .explicit_file = explicit_file, .mode = TEXT };
	const char *base = strrchr(name, '/');
	r.lenient = ends_with(name, ".out") || ends_with(name, ".log") || strstr(base ? base : name, "run.out.");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	db->files++;
	while ((n = getline(&line, &cap, f)) > 0) {
		r.lineno++;
		if (memchr(line, '\0', (size_t)n) || (r.lineno == 1 && has_control(line, (size_t)n))) {
			/* One message for a binary file, not one per "line" of it. */
			skip_line(&r, r.lineno, "binary data, not a results file; rest of the file skipped");
			break;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		size_t skip = strspn(line, " \t");
		if (r.mode == DUMP) {
			dump_line(&r, line, (size_t)n, skip);
		} else if (r.mode == MULTI) {
			if (!multi_line(&r, line, (size_t)n))
				break;
		} else {
			text_line(&r, line, (size_t)n, skip);
		}
	}
	if (r.mode != TEXT)
		skip_line(&r, r.start, r.mode == DUMP ? "\"" DUMP_BEGIN "\" without \"" DUMP_END "\"; skipped"
						    : "JSON object never ends; skipped");
	if (ferror(f))
		warn_at(db, where_at(&r, r.lineno), "read error: %s", strerror(errno));
	free(r.buf.p);
	free(line);
	free(r.host);
	free(r.labels);
}

/*
 * A fleet's manifest.json is one JSON document, however it is laid out:
 * true when f held one (added to db), else f is rewound for the line reader.
 */
static bool read_manifest(struct rep_db *db, FILE *f, const char *path)
{
	json_error_t jerr;
	json_t *root = json_loadf(f, 0, &jerr);
	const json_t *tool = json_object_get(root, "tool");
	bool manifest = json_is_string(tool) && strcmp(json_string_value(tool), "iobench-fleet") == 0;
	if (manifest) {
		db->files++;
		rep_add_manifest(db, root, path);
	} else {
		rewind(f);
	}
	json_decref(root);
	return manifest;
}

static int read_file(struct rep_db *db, const char *path, bool explicit_file)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		int e = errno;
		db->warnings++;
		if (db->diag)
			fprintf(db->diag, "iobench: %s: %s; skipped\n", path, strerror(e));
		return -e;
	}
	const char *base = strrchr(path, '/');
	if (strcmp(base ? base + 1 : path, "manifest.json") != 0 || !read_manifest(db, f, path))
		rep_read_stream(db, f, path, explicit_file);
	fclose(f);
	return 0;
}

/*
 * Result files in a folder: *.jsonl, *.json, *.out, and a 2012 archive's
 * json.N, or its run.out.N when no json.N (the same lines) lies beside it.
 */
static bool wanted_in_folder(const char *folder, const char *name)
{
	if (ends_with(name, ".jsonl") || ends_with(name, ".json") || ends_with(name, ".out"))
		return true;
	const char *inst = archive_instance(name);
	if (!inst)
		return false;
	if (name[0] == 'j')
		return true;
	char sibling[4200];
	struct stat st;
	snprintf(sibling, sizeof(sibling), "%s/json.%s", folder, inst);
	return stat(sibling, &st) != 0;
}

static int read_folder(struct rep_db *db, const char *path, int depth)
{
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		int e = errno;
		db->warnings++;
		if (db->diag)
			fprintf(db->diag, "iobench: %s: %s; skipped\n", path, strerror(e));
		return -e;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (name[0] == '.') {
			free(ents[i]);
			continue;
		}
		size_t len = strlen(path) + strlen(name) + 2;
		char *child = rep_realloc(NULL, len);
		snprintf(child, len, "%s%s%s", path, ends_with(path, "/") ? "" : "/", name);
		struct stat st;
		if (stat(child, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 32)
				read_folder(db, child, depth + 1);
			else if (S_ISREG(st.st_mode) && wanted_in_folder(path, name))
				read_file(db, child, false);
		}
		free(child);
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int rep_read_path(struct rep_db *db, const char *path)
{
	if (strcmp(path, "-") == 0) {
		rep_read_stream(db, stdin, "-", true);
		return 0;
	}
	struct stat st;
	if (stat(path, &st) != 0) {
		int e = errno;
		db->warnings++;
		if (db->diag)
			fprintf(db->diag, "iobench: %s: %s\n", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode))
		return read_folder(db, path, 0);
	return read_file(db, path, true);
}

/* ---- filtering ---- */

bool rep_label_value(const char *labels, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	for (const char *p = labels; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
			size_t vl = strcspn(p + kl + 1, ",");
			if (vl >= len)
				vl = len - 1;
			memcpy(buf, p + kl + 1, vl);
			buf[vl] = '\0';
			return true;
		}
	}
	return false;
}

/* A label's, else a configuration fact's, value of key in buf; false when neither has it. */
static bool config_value(const struct rep_config *cfg, const char *key, char *buf, size_t len)
{
	return cfg && (rep_label_value(cfg->labels, key, buf, len) || rep_label_value(cfg->facts, key, buf, len));
}

static bool field_matches(const char *key, const char *pattern, const char *host, const char *sig,
			  double threads, const struct rep_config *cfg, const char *labels)
{
	char buf[256];
	const char *value = buf;
	if (strcmp(key, "host") == 0)
		value = host;
	else if (strcmp(key, "signature") == 0 || strcmp(key, "op") == 0)
		value = sig;
	else if (strcmp(key, "threads") == 0)
		snprintf(buf, sizeof(buf), "%.15g", threads);
	else if (labels ? !rep_label_value(labels, key, buf, sizeof(buf)) : !config_value(cfg, key, buf, sizeof(buf)))
		return false;
	return value && fnmatch(pattern, value, 0) == 0;
}

/* A note matches when its host or configuration does, or one of its signatures; thread counts all do. */
static bool note_matches(const char *key, const char *pattern, const struct rep_note *n)
{
	if (strcmp(key, "threads") == 0)
		return true;
	if (strcmp(key, "signature") != 0 && strcmp(key, "op") != 0)
		return field_matches(key, pattern, n->host, NULL, NAN, n->cfg, NULL);
	char sig[256];
	for (const char *p = n->sigs; *p; p += *p == ' ') {
		size_t len = strcspn(p, " ");
		snprintf(sig, sizeof(sig), "%.*s", (int)(len < sizeof(sig) ? len : sizeof(sig) - 1), p);
		if (fnmatch(pattern, sig, 0) == 0)
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
		if (field_matches(key, pattern, c->host, c->sig, c->threads, c->cfg, NULL)) {
			db->cells[kept++] = c;
			continue;
		}
		cell_free(c);
	}
	db->ncells = kept;
	kept = 0;
	for (size_t i = 0; i < db->nbonnie; i++) {
		struct rep_bonnie *b = &db->bonnie[i];
		if (field_matches(key, pattern, b->host, "bonnie++", NAN, NULL, b->labels)) {
			db->bonnie[kept++] = *b;
			continue;
		}
		bonnie_free(b);
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
	for (size_t i = 0; i < db->nverdicts; i++) {
		struct rep_verdict *v = &db->verdicts[i];
		if (field_matches(key, pattern, v->host, v->op, v->writers, NULL, v->labels ? v->labels : "")) {
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

/* Configurations by name in natural order (x2 before x16), then by what they are. */
static int cmp_config(const struct rep_config *a, const struct rep_config *b)
{
	if (a == b)
		return 0;
	int r = strverscmp(a->name, b->name);
	if (!r)
		r = strcmp(a->labels, b->labels);
	return r ? r : strcmp(a->facts, b->facts);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rep_cell *x = *(struct rep_cell *const *)a, *y = *(struct rep_cell *const *)b;
	int r = rep_sig_cmp(x->sig, x->block, y->sig, y->block);
	if (!r)
		r = cmp_config(x->cfg, y->cfg);
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

void rep_db_finish(struct rep_db *db)
{
	rep_configs_distinguish(db);
	if (db->nfleet)
		qsort(db->fleet, db->nfleet, sizeof(*db->fleet), cmp_fleet_host);
	if (db->ncells)
		qsort(db->cells, db->ncells, sizeof(*db->cells), cmp_cell);
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->npts)
			qsort(db->cells[i]->pts, db->cells[i]->npts, sizeof(struct rep_point), cmp_point);
	/* The hash slots point at old positions: rebuild them. */
	free(db->slots);
	db->slots = NULL;
	db->nslots = 0;
	slots_grow(db);
}
