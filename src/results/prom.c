/* prom.c - watch's counts as a Prometheus text page, read back, and written atomically. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "results/prom.h"
#include "lib/fileio.h"
#include "lib/hist_json.h"
#include "lib/version.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/jsonline.h"
#include "results/output.h"

/* A previous page longer than this is not one this program wrote. */
#define PROM_PAGE_MAX (16 << 20)

uint64_t prom_bound_ns(unsigned j)
{
	unsigned k = PROM_FIRST + PROM_STEP * j;
	/* The smallest whole ns in bucket k, found with the histogram's own bucketing. */
	uint64_t edge = (uint64_t)hist_bucket_start(k) + 1;
	while (hist_bucket_of(edge - 1) >= k)
		edge--;
	while (hist_bucket_of(edge) < k)
		edge++;
	return edge - 1;
}

/* ns as seconds in plain decimal, exactly: 2143 -> "0.000002143", 3000000000 -> "3". */
static void format_seconds(char *buf, size_t len, uint64_t ns)
{
	int n = snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	if (n <= 0 || (size_t)n >= len)
		return;
	char *end = buf + n;
	while (end[-1] == '0')
		*--end = '\0';
	if (end[-1] == '.')
		end[-1] = '\0';
}

void prom_bound_label(unsigned j, char *buf, size_t len)
{
	format_seconds(buf, len, prom_bound_ns(j));
}

/* *sum += v unless that passes max: then false, *sum as it was. */
static bool add_capped(uint64_t *sum, uint64_t v, uint64_t max)
{
	uint64_t r;
	if (__builtin_add_overflow(*sum, v, &r) || r > max)
		return false;
	*sum = r;
	return true;
}

int prom_counts_add(struct prom_counts *c, const struct hist *h, uint64_t bytes)
{
	struct prom_counts n = *c;
	uint64_t below = 0;
	unsigned k = 0;
	bool ok = true;
	for (unsigned j = 0; j < PROM_NBOUNDS; j++) {
		for (unsigned end = PROM_FIRST + PROM_STEP * j; k < end; k++)
			ok &= add_capped(&below, h->buckets[k], PROM_COUNT_MAX);
		ok &= add_capped(&n.le[j], below, PROM_COUNT_MAX);
	}
	ok &= add_capped(&n.count, h->count, PROM_COUNT_MAX);
	ok &= add_capped(&n.sum_ns, h->total_ns, PROM_SUM_NS_MAX);
	ok &= add_capped(&n.errors, h->errors, PROM_COUNT_MAX);
	ok &= add_capped(&n.bytes, bytes, PROM_COUNT_MAX);
	if (!ok)
		return -EOVERFLOW;
	*c = n;
	return 0;
}

#define MAX_OF(a, b) ((a) > (b) ? (a) : (b))

void prom_counts_max(struct prom_counts *dst, const struct prom_counts *src)
{
	for (unsigned j = 0; j < PROM_NBOUNDS; j++)
		dst->le[j] = MAX_OF(dst->le[j], src->le[j]);
	dst->count = MAX_OF(dst->count, src->count);
	dst->sum_ns = MAX_OF(dst->sum_ns, src->sum_ns);
	dst->errors = MAX_OF(dst->errors, src->errors);
	dst->bytes = MAX_OF(dst->bytes, src->bytes);
}

void prom_op_set_period(struct prom_op *op, const struct hist *period)
{
	op->have_period = period->count > 0;
	op->p50_ns = hist_percentile(period, 0.50);
	op->p99_ns = hist_percentile(period, 0.99);
}

/*
 * A label value as the text format escapes it (backslash, double quote and
 * newline), and valid UTF-8: a byte that starts no valid sequence becomes
 * U+FFFD, since one invalid label value makes node_exporter drop the whole page.
 */
static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = jsonline_utf8_seq(p);
		if (n == 0)
			fputs("\xef\xbf\xbd", f);
		else if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
}

/* `target="...",op="..."`, malloc'd; NULL on ENOMEM. */
static char *labels_of(const char *target, const char *op)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("target=\"", f);
	put_escaped(f, target);
	fputs("\",op=\"", f);
	put_escaped(f, op);
	fputc('"', f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void put_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void put_histogram(FILE *f, const char *labels, const struct prom_counts *c)
{
	char v[32];
	for (unsigned j = 0; j < PROM_NBOUNDS; j++) {
		prom_bound_label(j, v, sizeof(v));
		fprintf(f, "iobench_op_latency_seconds_bucket{%s,le=\"%s\"} %" PRIu64 "\n", labels, v, c->le[j]);
	}
	fprintf(f, "iobench_op_latency_seconds_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", labels, c->count);
	format_seconds(v, sizeof(v), c->sum_ns);
	fprintf(f, "iobench_op_latency_seconds_sum{%s} %s\n", labels, v);
	fprintf(f, "iobench_op_latency_seconds_count{%s} %" PRIu64 "\n", labels, c->count);
}

/* The page's families in order; the per-op ones print each op's series under one HELP/TYPE. */
enum family { F_LATENCY, F_OPERATIONS, F_ERRORS, F_BYTES, F_P50, F_P99, F_NFAMILIES };

static const struct {
	const char *name, *type, *help;
} families[F_NFAMILIES] = {
	[F_LATENCY] = { "iobench_op_latency_seconds", "histogram",
			"Latency of iobench watch's successful probes, one operation each, since the counts began." },
	[F_OPERATIONS] = { "iobench_op_operations_total", "counter", "Probes done, failed ones included." },
	[F_ERRORS] = { "iobench_op_errors_total", "counter", "Probes that failed (not in the latency histogram)." },
	[F_BYTES] = { "iobench_op_bytes_total", "counter", "Bytes read or written by successful probes." },
	[F_P50] = { "iobench_op_period_p50_seconds", "gauge", "Median latency of the last complete watch period." },
	[F_P99] = { "iobench_op_period_p99_seconds", "gauge",
		    "99th percentile latency of the last complete watch period." },
};

static void put_series(FILE *f, enum family fam, const char *labels, const struct prom_op *op)
{
	const struct prom_counts *c = &op->counts;
	switch (fam) {
	case F_LATENCY:
		put_histogram(f, labels, c);
		break;
	case F_OPERATIONS:
		fprintf(f, "%s{%s} %" PRIu64 "\n", families[fam].name, labels, c->count + c->errors);
		break;
	case F_ERRORS:
		fprintf(f, "%s{%s} %" PRIu64 "\n", families[fam].name, labels, c->errors);
		break;
	case F_BYTES:
		fprintf(f, "%s{%s} %" PRIu64 "\n", families[fam].name, labels, c->bytes);
		break;
	case F_P50:
	case F_P99:
		if (op->have_period)
			fprintf(f, "%s{%s} %.9g\n", families[fam].name, labels,
				(fam == F_P50 ? op->p50_ns : op->p99_ns) / 1e9);
		break;
	case F_NFAMILIES:
		break;
	}
}

static bool any_period(const struct prom_page *page)
{
	for (size_t i = 0; i < page->nops; i++)
		if (page->ops[i].have_period)
			return true;
	return false;
}

char *prom_format(const struct prom_page *page)
{
	char **labels = calloc(page->nops ? page->nops : 1, sizeof(*labels));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = labels ? open_memstream(&buf, &len) : NULL;
	bool ok = f != NULL;
	for (size_t i = 0; ok && i < page->nops; i++)
		ok = (labels[i] = labels_of(page->target, page->ops[i].name)) != NULL;
	if (ok)
		fputs(PROM_MARKER, f);
	for (int fam = 0; ok && fam < F_NFAMILIES; fam++) {
		/* A gauge family with no series at all is left out, HELP and TYPE too. */
		if ((fam == F_P50 || fam == F_P99) && !any_period(page))
			continue;
		put_family(f, families[fam].name, families[fam].type, families[fam].help);
		for (size_t i = 0; i < page->nops; i++)
			put_series(f, (enum family)fam, labels[i], &page->ops[i]);
	}
	if (ok) {
		put_family(f, "iobench_watch_up", "gauge", "1 while iobench watch runs, 0 once it has stopped.");
		fprintf(f, "iobench_watch_up %d\n", page->up ? 1 : 0);
		put_family(f, "iobench_build_info", "gauge", "The iobench that wrote this file; always 1.");
		/* labels in name order, as a scrape shows them */
		fputs("iobench_build_info{", f);
		if (page->commit && *page->commit) {
			fputs("commit=\"", f);
			put_escaped(f, page->commit);
			fputs("\",", f);
		}
		fputs("version=\"", f);
		put_escaped(f, page->version);
		fputs("\"} 1\n", f);
	}
	for (size_t i = 0; labels && i < page->nops; i++)
		free(labels[i]);
	free(labels);
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A whole number ending the line. */
static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || (*end != '\n' && *end != '\0'))
		return false;
	*out = v;
	return true;
}

/* Seconds as prom_format writes them ("12.000345678", at most 9 decimals) to ns, exactly. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0;
	unsigned digits = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (whole > (UINT64_MAX / 1000000000u - 9) / 10)
			return false;
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if (digits == 9)
				return false;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
	}
	if (*s != '\n' && *s != '\0')
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = whole * 1000000000u + frac;
	return true;
}

/* If line starts with prefix, the rest of it; else NULL. */
static const char *after(const char *line, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(line, prefix, n) == 0 ? line + n : NULL;
}

/* Which bucket a `le="..."} N` tail names: 0..PROM_NBOUNDS-1, PROM_NBOUNDS for +Inf, -1 unknown. */
static int bound_of(const char *tail, const char **value)
{
	const char *q = strstr(tail, "\"} ");
	if (!q || memchr(tail, '\n', (size_t)(q - tail)))
		return -1;
	*value = q + 3;
	size_t n = (size_t)(q - tail);
	if (n == 4 && strncmp(tail, "+Inf", 4) == 0)
		return PROM_NBOUNDS;
	char want[32];
	for (unsigned j = 0; j < PROM_NBOUNDS; j++) {
		prom_bound_label(j, want, sizeof(want));
		if (strlen(want) == n && strncmp(tail, want, n) == 0)
			return (int)j;
	}
	return -1;
}

/* The series prom_parse() needs, each once. */
enum { P_SUM = PROM_NBOUNDS + 1, P_COUNT, P_ERRORS, P_BYTES, P_NSERIES };

int prom_parse(const char *text, const char *target, const char *op, struct prom_counts *out)
{
	memset(out, 0, sizeof(*out));
	/* Only a page this version of watch wrote: its first line says so. */
	if (strncmp(text, PROM_MARKER, strlen(PROM_MARKER)) != 0)
		return -EINVAL;
	char *labels = labels_of(target, op);
	if (!labels)
		return -ENOMEM;
	char *pre[5] = { NULL };
	const char *fmt[5] = {
		"iobench_op_latency_seconds_bucket{%s,le=\"", "iobench_op_latency_seconds_sum{%s} ",
		"iobench_op_latency_seconds_count{%s} ", "iobench_op_errors_total{%s} ", "iobench_op_bytes_total{%s} ",
	};
	int rc = 0;
	for (int i = 0; i < 5 && rc == 0; i++)
		if (asprintf(&pre[i], fmt[i], labels) < 0) {
			pre[i] = NULL;
			rc = -ENOMEM;
		}
	bool seen[P_NSERIES] = { false };
	uint64_t inf = 0;
	unsigned nseen = 0;
	bool bad = false;
	for (const char *line = text, *next; rc == 0 && line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : NULL;
		const char *rest, *value = NULL;
		int which = -1;
		uint64_t v = 0;
		if ((rest = after(line, pre[0])) != NULL)
			which = bound_of(rest, &value);
		else if ((value = after(line, pre[1])) != NULL)
			which = P_SUM;
		else if ((value = after(line, pre[2])) != NULL)
			which = P_COUNT;
		else if ((value = after(line, pre[3])) != NULL)
			which = P_ERRORS;
		else if ((value = after(line, pre[4])) != NULL)
			which = P_BYTES;
		else
			continue;
		/* Beyond what a watch can count (PROM_COUNT_MAX): planted, and adding to it would wrap. */
		if (which < 0 || seen[which] ||
		    !(which == P_SUM ? parse_seconds(value, &v) && v <= PROM_SUM_NS_MAX
				     : parse_u64(value, &v) && v <= PROM_COUNT_MAX)) {
			bad = true;
			continue;
		}
		seen[which] = true;
		nseen++;
		if (which < PROM_NBOUNDS)
			out->le[which] = v;
		else if (which == PROM_NBOUNDS)
			inf = v;
		else if (which == P_SUM)
			out->sum_ns = v;
		else if (which == P_COUNT)
			out->count = v;
		else if (which == P_ERRORS)
			out->errors = v;
		else
			out->bytes = v;
	}
	for (int i = 0; i < 5; i++)
		free(pre[i]);
	free(labels);
	if (rc < 0)
		return rc;
	if (nseen == 0 && !bad)
		return -ENOENT;
	bool ok = !bad && nseen == P_NSERIES && inf == out->count;
	for (unsigned j = 0; ok && j < PROM_NBOUNDS; j++)
		ok = out->le[j] <= (j + 1 < PROM_NBOUNDS ? out->le[j + 1] : out->count);
	if (!ok) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}

/* One watch line's ops into the matching prom ops. */
static int add_line(json_t *line, struct prom_op *ops, size_t nops, struct hist *last)
{
	int rc = 0;
	json_t *arr = json_object_get(line, "operations");
	size_t i;
	json_t *o;
	json_array_foreach(arr, i, o) {
		const char *name = json_string_value(json_object_get(o, "name"));
		for (size_t k = 0; name && k < nops; k++) {
			struct hist h;
			char err[160];
			if (strcmp(name, ops[k].name) != 0 ||
			    hist_from_json(json_object_get(o, "total"), &h, err, sizeof(err)) < 0)
				continue;
			json_int_t bytes = json_integer_value(json_object_get(o, "bytes"));
			if (prom_counts_add(&ops[k].counts, &h, bytes > 0 ? (uint64_t)bytes : 0) < 0)
				rc = -EOVERFLOW;
			last[k] = h;
		}
	}
	return rc;
}

int prom_counts_from_json(const char *path, const char *target, struct prom_op *ops, size_t nops)
{
	/* Only a regular file holds earlier lines: /dev/null has none, /dev/zero would never end. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -errno;
	}
	struct hist *last = calloc(nops ? nops : 1, sizeof(*last));
	if (!last) {
		fclose(f);
		return -ENOMEM;
	}
	char *buf = NULL;
	size_t cap = 0;
	int used = 0, over = 0;
	while (getline(&buf, &cap, f) >= 0) {
		json_t *line = json_loads(buf, 0, NULL);
		const char *mode = json_string_value(json_object_get(line, "mode"));
		const char *path_of = json_string_value(json_object_get(json_object_get(line, "target"), "path"));
		if (mode && path_of && strcmp(mode, "watch") == 0 && strcmp(path_of, target) == 0) {
			if (add_line(line, ops, nops, last) < 0)
				over = -EOVERFLOW;
			used++;
		}
		json_decref(line);
	}
	int rc = ferror(f) ? -EIO : over ? over : used;
	free(buf);
	fclose(f);
	for (size_t k = 0; rc > 0 && k < nops; k++)
		if (last[k].count > 0)
			prom_op_set_period(&ops[k], &last[k]);
	free(last);
	return rc;
}

int prom_check_page(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -errno;
	return S_ISREG(st.st_mode) ? 0 : S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}

int prom_write_file(const char *path, const char *text)
{
	/* Only a regular file is replaced: never a device, FIFO or link someone put there. */
	int rc = prom_check_page(path);
	if (rc < 0)
		return rc;
	char tmp[4096 + 16];
	int fd = replace_open(path, REPLACE_HIDDEN, 0644, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	rc = write_full(fd, text, strlen(text));
	/* 0644 whatever the umask: node_exporter runs as another user. */
	if (rc == 0 && fchmod(fd, 0644) < 0)
		rc = -errno;
	if (rc == 0)
		rc = prom_check_page(path);
	if (rc < 0) {
		replace_abort(fd, tmp);
		return rc;
	}
	return replace_commit(fd, tmp, path, 0);
}

int prom_lock_page(const char *path, int *fd_out, long *other_pid)
{
	char dir[4096], lock[4096 + 16];
	const char *name;
	*fd_out = -1;
	*other_pid = 0;
	int rc = path_split(path, dir, sizeof(dir), &name);
	if (rc < 0)
		return rc;
	int n = snprintf(lock, sizeof(lock), "%s/.%s.lock", dir, name);
	if (n < 0 || (size_t)n >= sizeof(lock))
		return -ENAMETOOLONG;
	/* Opened, never truncated or written: a planted link is refused (O_NOFOLLOW), a planted file only read. */
	int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* A POSIX lock, so that F_GETLK can name the process holding it. */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_SETLK, &fl) != 0) {
		int e = errno;
		struct flock who = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		if ((e == EAGAIN || e == EACCES) && fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK)
			*other_pid = who.l_pid;
		close(fd);
		return e == EAGAIN || e == EACCES ? -EBUSY : -e;
	}
	*fd_out = fd;
	return 0;
}

/* The previous page, whole and NUL-terminated; NULL when there is none or it cannot be read. */
static char *read_whole(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return NULL;
	/*
	 * A page is a small regular file of this user's: anything else, anything
	 * huge, or a file another user left in a shared textfile directory, is
	 * not ours to continue.
	 */
	FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= PROM_PAGE_MAX && st.st_uid == geteuid()
			  ? fdopen(fd, "r")
			  : NULL;
	if (!f) {
		close(fd);
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;
	size_t total = 0;
	while (m && total <= PROM_PAGE_MAX && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		fwrite(chunk, 1, n, m);
		total += n;
	}
	bool ok = m && !ferror(f) && total <= PROM_PAGE_MAX;
	fclose(f);
	if (m && fclose(m) != 0)
		ok = false;
	if (!ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

int prom_export_start(struct prom_export *x, const char *path, const char *target, const struct run_op *ops,
		      size_t nops, const char *json_path)
{
	*x = (struct prom_export){ .path = path, .target = target, .nops = nops };
	x->ops = calloc(nops ? nops : 1, sizeof(*x->ops));
	if (!x->ops)
		return -ENOMEM;
	for (size_t i = 0; i < nops; i++)
		x->ops[i].name = ops[i].spec.name;
	if (json_path && strcmp(json_path, "-") != 0) {
		int rc = prom_counts_from_json(json_path, target, x->ops, nops);
		if (rc < 0)
			return rc;
	}
	char *previous = read_whole(path);
	for (size_t i = 0; previous && i < nops; i++) {
		struct prom_counts shown;
		if (prom_parse(previous, target, x->ops[i].name, &shown) == 0)
			prom_counts_max(&x->ops[i].counts, &shown);
	}
	free(previous);
	return 0;
}

int prom_export_write(const struct prom_export *x, const struct op_result *now, bool up)
{
	struct prom_op *page_ops = calloc(x->nops ? x->nops : 1, sizeof(*page_ops));
	if (!page_ops)
		return -ENOMEM;
	for (size_t i = 0; i < x->nops; i++) {
		page_ops[i] = x->ops[i];
		if (prom_counts_add(&page_ops[i].counts, &now[i].total, now[i].bytes) < 0) {
			free(page_ops);
			return -EOVERFLOW;
		}
	}
	struct prom_page page = { .target = x->target, .ops = page_ops, .nops = x->nops, .up = up,
				  .version = iobench_version, .commit = iobench_commit };
	char *text = prom_format(&page);
	int rc = text ? prom_write_file(x->path, text) : -ENOMEM;
	free(text);
	free(page_ops);
	return rc;
}

int prom_export_period(struct prom_export *x, const struct op_result *now)
{
	int rc = 0;
	for (size_t i = 0; i < x->nops; i++) {
		if (prom_counts_add(&x->ops[i].counts, &now[i].total, now[i].bytes) < 0)
			rc = -EOVERFLOW;
		if (now[i].total.count > 0)
			prom_op_set_period(&x->ops[i], &now[i].total);
	}
	return rc;
}

void prom_export_free(struct prom_export *x)
{
	free(x->ops);
	x->ops = NULL;
}
