/* report/read.c - read result files into cells: iobench, the 2012 tool, bonnie++; durability verdicts. */
#include "report/db.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "report/alloc.h"
#include "report/durability.h"
#include "report/json.h"
#include "report/line.h"
#include "report/pipe.h"

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
	free(c->op);
	free(c->host);
	free(c->pts);
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
	if (l->runtime > 0)
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
	r->bucket = l->bucket;
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
	if (l->target_finding)
		add_target_flag(db, l, cfg);
	for (size_t i = 0; i < l->nops; i++) {
		const struct rep_line_op *o = &l->ops[i];
		struct rep_cell *c = cell_get(db, o->sig, o->threads, cfg, l->size, l->host);
		hist_merge(&c->total, &o->total);
		if (o->split) {
			hist_merge(&c->write_only, &o->write_only);
			hist_merge(&c->sync, &o->sync);
			c->split_runs++;
		}
		c->seconds += l->seconds;
		c->runs++;
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

bool rep_line_add(struct rep_db *db, const struct rep_line *l, const char *where)
{
	for (size_t off = 0; off < l->msgs_len; off += strlen(l->msgs + off) + 1)
		warn_at(db, where, "%s", l->msgs + off);
	db->skipped += l->skipped;
	switch (l->kind) {
	case REP_LINE_RUN:
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
		warn_at(db, where, "durability line without \"durability\" counts; skipped");
		db->skipped++;
		return false;
	case REP_LINE_NONE:
		break;
	}
	return false;
}

bool rep_add_json(struct rep_db *db, const void *json_root, const char *where,
		  const char *fallback_host, bool explicit_file)
{
	/* jansson's tree as text, read as the report reads files. */
	char *text = json_dumps(json_root, JSON_COMPACT | JSON_ENCODE_ANY);
	struct jv_doc doc;
	jv_doc_init(&doc);
	struct rep_line l;
	const struct jv *root = text ? jv_parse(&doc, text, strlen(text)) : NULL;
	rep_line_from(&l, root, fallback_host, NULL, explicit_file);
	bool added = rep_line_add(db, &l, where);
	rep_line_free(&l);
	jv_doc_free(&doc);
	free(text);
	return added;
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

/*
 * One stream being read: where it is, and what a multi-line document has
 * gathered. Documents go to the db's pipe (read on its threads, added in
 * order); so do the messages about lines that are no document.
 */
struct reader {
	struct rep_db *db;
	struct rep_pipe *pipe;
	bool lenient;          /* text between documents is a log, not an error */
	enum { TEXT, DUMP, MULTI } mode;
	unsigned long lineno;
	unsigned long start;   /* first line of the document being gathered */
	struct growbuf buf;
	struct jv_doc doc;     /* to tell where a pretty-printed object ends */
	char *in;              /* what was read from the stream and not yet made lines */
	size_t in_len, in_pos;
	bool sniffed;          /* the stream's first bytes were looked at for binary data */
};

static void skip_line(struct reader *r, unsigned long lineno, const char *what)
{
	rep_pipe_msg(r->pipe, lineno, what, true);
}

/* Inside the 2012 tool's dump: gather until its end marker. */
static void dump_line(struct reader *r, const char *line, size_t n, size_t skip)
{
	if (strcmp(line + skip, DUMP_END) != 0) {
		growbuf_add(&r->buf, line, n);
		return;
	}
	rep_pipe_doc(r->pipe, r->start, r->buf.p ? r->buf.p : "", r->buf.len);
	r->mode = TEXT;
	r->buf.len = 0;
}

/* Inside a pretty-printed object: gather until a closing brace makes it parse. False: give up on the file. */
static bool multi_line(struct reader *r, const char *line, size_t n)
{
	growbuf_add(&r->buf, line, n);
	if (line[0] == '}' && jv_parse(&r->doc, r->buf.p, r->buf.len)) {
		rep_pipe_doc(r->pipe, r->start, r->buf.p, r->buf.len);
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
	if (strcmp(line + skip, "{") == 0) {
		/* A pretty-printed object: collect until a closing brace parses. */
		r->mode = MULTI;
		r->start = r->lineno;
		r->buf.len = 0;
		growbuf_add(&r->buf, line, n);
		return;
	}
	rep_pipe_doc(r->pipe, r->lineno, line + skip, n - skip);
}

#define IN_CHUNK (64u << 10)

/* What next_line() found besides a line. */
enum { LINE_END = 0, LINE_BINARY = -1, LINE_TOO_LONG = -2, LINE_NO_MEMORY = -3 };

/*
 * The next line of f (newline kept) into *line, NUL-terminated; returns its
 * length, LINE_END, or: LINE_BINARY at a NUL byte or a control byte in the
 * stream's first KiB (nothing more is read),
 * LINE_TOO_LONG past REP_MAX_LINE or LINE_NO_MEMORY when it cannot be held
 * (either way the line is read to its end and dropped, *dropped its bytes).
 * Memory stays bounded whatever the stream holds (/dev/zero, no newline).
 */
static ssize_t next_line(struct reader *r, FILE *f, char **line, size_t *cap, size_t *dropped)
{
	size_t n = 0, total = 0;
	ssize_t status = 0;
	bool any = false;
	for (;;) {
		if (r->in_pos == r->in_len) {
			r->in_pos = 0;
			r->in_len = fread(r->in, 1, IN_CHUNK, f);
			if (r->in_len == 0)
				break;
			/*
			 * Results are text: a control byte in the first KiB means binary,
			 * even when random bytes happen to start with a short clean "line".
			 */
			if (!r->sniffed && has_control(r->in, r->in_len < 1024 ? r->in_len : 1024))
				return LINE_BINARY;
			r->sniffed = true;
		}
		any = true;
		const char *s = r->in + r->in_pos;
		size_t avail = r->in_len - r->in_pos;
		const char *nl = memchr(s, '\n', avail);
		size_t take = nl ? (size_t)(nl - s) + 1 : avail;
		if (memchr(s, '\0', take))
			return LINE_BINARY;
		r->in_pos += take;
		total += take;
		if (status == 0 && n + take > REP_MAX_LINE)
			status = LINE_TOO_LONG;
		if (status == 0 && n + take + 1 > *cap) {
			size_t want = (n + take + 1) * 2 < REP_MAX_LINE + 1 ? (n + take + 1) * 2 : REP_MAX_LINE + 1;
			char *p = realloc(*line, want);
			if (p) {
				*line = p;
				*cap = want;
			} else {
				status = LINE_NO_MEMORY;
			}
		}
		if (status == 0) {
			memcpy(*line + n, s, take);
			n += take;
		}
		if (nl)
			break;
	}
	if (!any)
		return LINE_END;
	*dropped = total;
	if (status != 0)
		return status;
	(*line)[n] = '\0';
	return (ssize_t)n;
}

static void read_stream(struct rep_db *db, FILE *f, const char *name, bool explicit_file)
{
	const char *base = strrchr(name, '/');
	struct reader r = { .db = db, .pipe = db->pipe, .mode = TEXT };
	r.lenient = ends_with(name, ".out") || ends_with(name, ".log") || strstr(base ? base : name, "run.out.");
	char *host = host_from_name(name), *labels = archive_labels(name);
	rep_pipe_file(r.pipe, name, host, labels, explicit_file);
	free(host);
	free(labels);
	jv_doc_init(&r.doc);
	char *line = NULL;
	size_t cap = 0, dropped = 0;
	ssize_t n;
	db->files++;
	r.in = rep_realloc(NULL, IN_CHUNK);
	while ((n = next_line(&r, f, &line, &cap, &dropped)) != LINE_END) {
		r.lineno++;
		if (n == LINE_TOO_LONG || n == LINE_NO_MEMORY) {
			char msg[128];
			snprintf(msg, sizeof(msg), "line of %zu bytes %s; skipped", dropped,
				 n == LINE_TOO_LONG ? "is over the limit of " REP_MAX_LINE_TEXT : "does not fit in memory");
			skip_line(&r, r.lineno, msg);
			continue;
		}
		if (n == LINE_BINARY || (r.lineno == 1 && has_control(line, (size_t)n))) {
			/* One message for a binary file, not one per "line" of it. */
			skip_line(&r, r.lineno, "binary data, not a results file; rest of the file skipped");
			break;
		}
		/* A byte-order mark some editors put first is not part of the JSON. */
		if (r.lineno == 1 && n >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			memmove(line, line + 3, (size_t)n - 2);
			n -= 3;
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
	if (ferror(f)) {
		char msg[256];
		snprintf(msg, sizeof(msg), "read error: %s", strerror(errno));
		rep_pipe_msg(r.pipe, r.lineno, msg, false);
	}
	jv_doc_free(&r.doc);
	free(r.buf.p);
	free(r.in);
	free(line);
}

/* A message about a path, after everything read before it (the pipe keeps the order of messages). */
__attribute__((format(printf, 2, 3)))
static void path_warning(struct rep_db *db, const char *fmt, ...)
{
	rep_pipe_sync(db->pipe);
	db->warnings++;
	if (!db->diag)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("iobench: ", db->diag);
	vfprintf(db->diag, fmt, ap);
	fputc('\n', db->diag);
	va_end(ap);
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
		rep_pipe_sync(db->pipe);
		db->files++;
		rep_add_manifest(db, root, path);
	} else {
		rewind(f);
	}
	json_decref(root);
	return manifest;
}

/* A filesystem of a kernel interface: its files are not results, and some block or change the system when read. */
static bool kernel_fs(long type)
{
	static const long types[] = { PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC,
				      CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC, EFIVARFS_MAGIC, BPF_FS_MAGIC,
				      0x62656570 /* configfs */ };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (type == types[i])
			return true;
	return false;
}

/* Can a file with st on a filesystem of type fs be read as an input? 0 or a REP_INPUT_* code. */
static int input_kind(const struct stat *st, long fs, bool allow_fifo)
{
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (kernel_fs(fs))
		return REP_INPUT_KERNEL;
	if (S_ISFIFO(st->st_mode))
		return allow_fifo ? 0 : REP_INPUT_FIFO;
	return S_ISREG(st->st_mode) ? 0 : REP_INPUT_DEVICE;
}

int rep_open_input(const char *path, bool allow_fifo, FILE **out)
{
	struct stat st;
	struct statfs sf;
	*out = NULL;
	/* Judged before it is opened (opening a device may do something), and again on what was opened. */
	if (stat(path, &st) != 0 || statfs(path, &sf) != 0)
		return -errno;
	int rc = input_kind(&st, (long)sf.f_type, allow_fifo);
	if (rc < 0)
		return rc;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || fstatfs(fd, &sf) != 0)
		rc = -errno;
	else
		rc = input_kind(&st, (long)sf.f_type, allow_fifo);
	/* A FIFO is read blocking, as a pipe from a command should be. */
	if (rc == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
		rc = -errno;
	FILE *f = rc == 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		rc = rc ? rc : -errno;
		close(fd);
		return rc;
	}
	*out = f;
	return 0;
}

const char *rep_input_error(int rc)
{
	switch (rc) {
	case REP_INPUT_DEVICE:
		return "a device or socket";
	case REP_INPUT_KERNEL:
		return "a file of a kernel interface (procfs, sysfs, ...)";
	case REP_INPUT_FIFO:
		return "a FIFO";
	default:
		return strerror(-rc);
	}
}

/*
 * Has the file or folder st been reached before (a link, or a path given
 * twice)? Records it when not; when it was, *first is the path it was
 * reached by first.
 */
static bool seen_before(struct rep_db *db, const struct stat *st, const char *path, const char **first)
{
	if (db->nseen * 2 >= db->seen_cap) {
		size_t cap = db->seen_cap ? db->seen_cap * 2 : 64;
		struct rep_seen *t = rep_realloc(NULL, cap * sizeof(*t));
		memset(t, 0, cap * sizeof(*t));
		for (size_t i = 0; i < db->seen_cap; i++) {
			if (!db->seen[i].path)
				continue;
			size_t k = (size_t)(db->seen[i].dev * 31 + db->seen[i].ino) & (cap - 1);
			while (t[k].path)
				k = (k + 1) & (cap - 1);
			t[k] = db->seen[i];
		}
		free(db->seen);
		db->seen = t;
		db->seen_cap = cap;
	}
	size_t k = (size_t)((uint64_t)st->st_dev * 31 + st->st_ino) & (db->seen_cap - 1);
	for (; db->seen[k].path; k = (k + 1) & (db->seen_cap - 1))
		if (db->seen[k].dev == (uint64_t)st->st_dev && db->seen[k].ino == (uint64_t)st->st_ino) {
			*first = db->seen[k].path;
			return true;
		}
	db->seen[k] = (struct rep_seen){ .dev = st->st_dev, .ino = st->st_ino, .path = rep_strdup(path) };
	db->nseen++;
	return false;
}

static int read_file(struct rep_db *db, const char *path, bool explicit_file)
{
	FILE *f;
	int rc = rep_open_input(path, explicit_file, &f);
	if (rc < 0) {
		path_warning(db, "%s: %s%s; skipped", path, rep_input_error(rc),
			     rc == REP_INPUT_DEVICE || rc == REP_INPUT_KERNEL || rc == REP_INPUT_FIFO ? ", not a results file"
												       : "");
		return rc;
	}
	struct stat st;
	const char *first;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && seen_before(db, &st, path, &first)) {
		path_warning(db, "%s: the same file as %s (a link, or given twice); read once", path, first);
		fclose(f);
		return 0;
	}
	const char *base = strrchr(path, '/');
	if (strcmp(base ? base + 1 : path, "manifest.json") != 0 || !read_manifest(db, f, path))
		read_stream(db, f, path, explicit_file);
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
	/* Each folder once, however many links lead to it: "latest -> r1" would count r1's runs twice, two "-> ." never end. */
	struct stat st;
	struct statfs sf;
	const char *first;
	if (stat(path, &st) != 0 || statfs(path, &sf) != 0) {
		int e = errno;
		path_warning(db, "%s: %s; skipped", path, strerror(e));
		return -e;
	}
	if (kernel_fs((long)sf.f_type)) {
		path_warning(db, "%s: a folder of a kernel interface (procfs, sysfs, ...), not results; skipped", path);
		return REP_INPUT_KERNEL;
	}
	if (seen_before(db, &st, path, &first)) {
		path_warning(db, "%s: the same folder as %s (a link); read once", path, first);
		return 0;
	}
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		int e = errno;
		path_warning(db, "%s: %s; skipped", path, strerror(e));
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

/* The threads that read documents: --jobs, else one per CPU (at most 8). */
static unsigned jobs_of(const struct rep_db *db)
{
	if (db->jobs)
		return db->jobs;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

void rep_read_stream(struct rep_db *db, FILE *f, const char *name, bool explicit_file)
{
	db->pipe = rep_pipe_new(db, jobs_of(db));
	read_stream(db, f, name, explicit_file);
	rep_pipe_free(db->pipe);
	db->pipe = NULL;
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
	if (!S_ISDIR(st.st_mode) && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))) {
		/* /dev/zero, a tty, a disk: never results, and some never end. A FIFO (<(cmd)) is read. */
		db->warnings++;
		if (db->diag)
			fprintf(db->diag, "iobench: %s: %s, not a results file; skipped\n", path,
				rep_input_error(REP_INPUT_DEVICE));
		return REP_INPUT_DEVICE;
	}
	db->pipe = rep_pipe_new(db, jobs_of(db));
	int rc = S_ISDIR(st.st_mode) ? read_folder(db, path, 0) : read_file(db, path, true);
	rep_pipe_free(db->pipe);
	db->pipe = NULL;
	return rc;
}

/* ---- filtering ---- */

bool rep_label_value(const char *labels, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	char small[128];
	char *k = kl + 2 <= sizeof(small) ? small : rep_realloc(NULL, kl + 2);
	bool found = false;
	/* k holds one byte more than key, so a longer key cannot compare equal; buf is written only when found. */
	for (const char *p = labels, *next; !found && (next = rep_kv_next(p, k, kl + 2, NULL, 0)); p = next)
		if (strcmp(k, key) == 0)
			found = rep_kv_next(p, k, kl + 2, buf, len) != NULL;
	if (k != small)
		free(k);
	return found;
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
	if (!r)
		r = strcmp(a->facts, b->facts);
	return r ? r : strverscmp(a->runs, b->runs);
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
	rep_configs_mark_runs(db, &db->runs_split);
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
