/* report/read/read.c - result files and folders (iobench, the 2012 tool, bonnie++) into the store, through the pipe. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/read/read.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "report/base/alloc.h"
#include "report/base/json.h"
#include "report/read/line.h"
#include "report/read/pipe.h"
#include "report/store/warn.h"
#include "report/store/manifest.h"

#define DUMP_BEGIN "<begin json dump>"
#define DUMP_END "<end json dump>"
/* A pretty-printed object may span lines; give up on it after this much. */
#define MAX_MULTILINE (16u << 20)

/* ---- files ---- */

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
	va_list ap;
	va_start(ap, fmt);
	rep_vwarn(db, fmt, ap);
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

/*
 * A walk of one PATH given: a link to "/" in a results tree must not read
 * the whole filesystem. Folders deeper than REP_WALK_DEPTH are not
 * entered, and the walk stops after REP_WALK_NAMES names (files and
 * folders) looked at; each bound is said once, with what it left out.
 */
struct walk {
	const char *top;
	unsigned long names;
	bool deep_said, stopped;
};

static int read_folder(struct rep_db *db, struct walk *w, const char *path, int depth)
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
		if (name[0] == '.' || w->stopped) {
			free(ents[i]);
			continue;
		}
		if (++w->names > REP_WALK_NAMES) {
			w->stopped = true;
			path_warning(db, "%s: walked %d names (files and folders), the bound of one PATH; the rest "
				     "from %s on is not read (a link to / or a tree that large? give its folders)",
				     w->top, REP_WALK_NAMES, path);
			free(ents[i]);
			continue;
		}
		size_t len = strlen(path) + strlen(name) + 2;
		char *child = rep_realloc(NULL, len);
		snprintf(child, len, "%s%s%s", path, ends_with(path, "/") ? "" : "/", name);
		if (stat(child, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < REP_WALK_DEPTH) {
				read_folder(db, w, child, depth + 1);
			} else if (S_ISDIR(st.st_mode) && !w->deep_said) {
				w->deep_said = true;
				path_warning(db, "%s: a folder deeper than %d under %s, the bound of a walk; not entered "
					     "(nor any other that deep)", child, REP_WALK_DEPTH, w->top);
			}
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
		rep_warn(db, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode) && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))) {
		/* /dev/zero, a tty, a disk: never results, and some never end. A FIFO (<(cmd)) is read. */
		rep_warn(db, "%s: %s, not a results file; skipped", path, rep_input_error(REP_INPUT_DEVICE));
		return REP_INPUT_DEVICE;
	}
	db->pipe = rep_pipe_new(db, jobs_of(db));
	struct walk w = { .top = path };
	int rc = S_ISDIR(st.st_mode) ? read_folder(db, &w, path, 0) : read_file(db, path, true);
	rep_pipe_free(db->pipe);
	db->pipe = NULL;
	return rc;
}

/* ---- filtering ---- */
