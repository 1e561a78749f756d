/* durability_verify.c - `iobench durability verify`: read back every promised block. */
#include "durability_net.h"
#include "durability_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 60000

struct run_entry {
	struct dur_run_info info;
};

/* Send one request line, return the connected reader. 0 or -errno. */
static int request(const char *server, const char *req, struct dur_reader *rd, char *err, size_t errlen)
{
	int fd = dur_net_connect(server, 10000, err, errlen);
	if (fd < 0)
		return fd;
	rd->fd = fd;
	rd->start = rd->len = 0;
	int rc = dur_net_send(fd, req, strlen(req));
	if (rc < 0) {
		snprintf(err, errlen, "durability server at %s: %s", server, strerror(-rc));
		close(fd);
	}
	return rc;
}

/* The reply's "END N" check, or the reason it failed. */
static int reply_end(const char *server, int rc, const char *line, unsigned long long seen, char *err,
		     size_t errlen)
{
	unsigned long long n;
	if (rc == 1 && strncmp(line, "ERR ", 4) == 0) {
		snprintf(err, errlen, "the durability server at %s says: %s", server, line + 4);
		return strcmp(line + 4, "no such run") == 0 ? -ENOENT : -EPROTO;
	}
	if (rc == 1 && sscanf(line, "END %llu", &n) == 1 && n == seen)
		return 0;
	snprintf(err, errlen, "the durability server at %s broke off its reply: %s", server,
		 rc == 1 ? "wrong END count" : rc == 0 ? "connection closed" : strerror(-rc));
	return rc < 0 ? rc : -EPROTO;
}

/* Every run the server has. Caller frees *out. */
static int list_runs(const char *server, struct run_entry **out, size_t *n, char *err, size_t errlen)
{
	struct dur_reader rd = { 0 };
	*out = NULL;
	*n = 0;
	int rc = request(server, "RUNS\n", &rd, err, errlen);
	if (rc < 0)
		return rc;
	char line[DUR_LINE_MAX + 64];
	size_t cap = 0;
	while ((rc = dur_read_line(&rd, line, sizeof(line), REPLY_TIMEOUT_MS)) == 1 && strncmp(line, "RUN ", 4) == 0) {
		long long sec, usec = 0;
		int off = 0;
		if (sscanf(line, "RUN created=%lld.%lld %n", &sec, &usec, &off) < 1 || off == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct run_entry *p = realloc(*out, cap * sizeof(*p));
			if (!p) {
				close(rd.fd);
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			*out = p;
		}
		if (dur_hello_parse(line + off, &(*out)[*n].info) == 0) {
			(*out)[*n].info.created = sec * 1000000 + usec;
			(*n)++;
		}
	}
	close(rd.fd);
	return reply_end(server, rc, line, *n, err, errlen);
}

/* Pick the run: the one asked for, else the newest from this host. */
static int choose_run(const struct dur_verify_config *c, struct dur_run_info *info, char *err, size_t errlen)
{
	struct run_entry *runs;
	size_t n;
	int rc = list_runs(c->server, &runs, &n, err, errlen);
	if (rc < 0)
		return rc;
	const struct dur_run_info *best = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct dur_run_info *r = &runs[i].info;
		if (c->run ? r->run == c->run : strcmp(r->host, c->host) == 0 && (!best || r->created > best->created))
			best = r;
	}
	if (best) {
		*info = *best;
		free(runs);
		return 0;
	}
	char hex[17];
	dur_run_hex(c->run, hex);
	int len = c->run ? snprintf(err, errlen, "the durability server at %s has no run %s", c->server, hex)
			 : snprintf(err, errlen, "the durability server at %s has no run from host '%s'", c->server, c->host);
	if (n == 0) {
		snprintf(err + len, errlen - (size_t)len, " (it has no runs at all; is it the right server and --dir?)");
	} else {
		len += snprintf(err + len, errlen - (size_t)len, "; it has");
		for (size_t i = 0; i < n && i < 5 && (size_t)len < errlen; i++) {
			dur_run_hex(runs[i].info.run, hex);
			len += snprintf(err + len, errlen - (size_t)len, "%s %s from %s", i ? "," : "", hex, runs[i].info.host);
		}
		if ((size_t)len < errlen)
			snprintf(err + len, errlen - (size_t)len, "%s; give --run ID", n > 5 ? ", ..." : "");
	}
	free(runs);
	return -ENOENT;
}

/* The run's log into the map. */
static int fetch_log(const struct dur_verify_config *c, struct dur_verify_result *res, struct dur_map *map,
		     char *err, size_t errlen)
{
	char req[32], hex[17];
	dur_run_hex(res->info.run, hex);
	snprintf(req, sizeof(req), "GET %s\n", hex);
	struct dur_reader rd = { 0 };
	int rc = request(c->server, req, &rd, err, errlen);
	if (rc < 0)
		return rc;
	char line[DUR_LINE_MAX + 64];
	unsigned long long lines = 0;
	while ((rc = dur_read_line(&rd, line, sizeof(line), REPLY_TIMEOUT_MS)) == 1 &&
	       strncmp(line, "END ", 4) != 0 && strncmp(line, "ERR ", 4) != 0) {
		lines++;
		struct dur_record r;
		struct dur_run_info h;
		if (dur_record_parse(line, true, &r) == 0) {
			if (r.block >= res->info.blocks || r.writer >= res->info.writers)
				continue; /* the server checks this; a log edited by hand might not */
			res->records++;
			if (dur_map_note(map, &r) != 0) {
				close(rd.fd);
				snprintf(err, errlen, "out of memory for the run's blocks");
				return -ENOMEM;
			}
		} else if (strncmp(line, "HELLO ", 6) == 0 && dur_hello_parse(line, &h) == 0) {
			res->writers_seen++;
		} else if (strncmp(line, "BYE ", 4) == 0) {
			res->writers_bye++;
		}
	}
	close(rd.fd);
	return reply_end(c->server, rc, line, lines, err, errlen);
}

static void add_example(struct dur_verify_result *res, const struct dur_block *b, const struct dur_found *f, int e)
{
	if (res->nexamples == DUR_EXAMPLES)
		return;
	res->examples[res->nexamples++] = (struct dur_example){ .block = b->block, .acked = b->acked, .found = *f,
								 .read_errno = e };
}

int dur_verify(const struct dur_verify_config *c, struct dur_verify_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = choose_run(c, &res->info, err, errlen);
	if (rc < 0)
		return rc;
	const struct target_info *t = c->target;
	uint64_t bs = res->info.block_size;
	if (res->info.blocks > t->size / bs) {
		snprintf(err, errlen, "%s is %llu bytes, smaller than the %llu blocks of %llu bytes the run wrote; wrong target?",
			 t->path, (unsigned long long)t->size, (unsigned long long)res->info.blocks,
			 (unsigned long long)bs);
		return -EINVAL;
	}
	if (c->direct && t->dio_offset_align && bs % t->dio_offset_align != 0) {
		snprintf(err, errlen, "%s: the run's %llu-byte blocks are not aligned for O_DIRECT (%u); use --no-direct",
			 t->path, (unsigned long long)bs, t->dio_offset_align);
		return -EINVAL;
	}
	struct dur_map map = { 0 };
	rc = fetch_log(c, res, &map, err, errlen);
	size_t n = 0, entries = map.n;
	struct dur_block *blocks = rc == 0 ? dur_map_sorted(&map, &n) : NULL;
	dur_map_free(&map);
	if (rc == 0 && !blocks && entries) {
		snprintf(err, errlen, "out of memory for the run's blocks");
		rc = -ENOMEM;
	}
	void *buf = NULL;
	int fd = -1;
	if (rc == 0 && posix_memalign(&buf, 4096, bs) != 0) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0) {
		/* Read only: the verifier must not change what it judges. */
		fd = open(t->path, O_RDONLY | O_CLOEXEC | (c->direct ? O_DIRECT : 0));
		if (fd < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot open for reading: %s%s", t->path, strerror(errno),
				 errno == EINVAL && c->direct ? "; O_DIRECT refused, use --no-direct" : "");
		}
	}
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct dur_block *b = &blocks[i];
		struct dur_found f;
		ssize_t got = pread(fd, buf, bs, (off_t)(b->block * bs));
		int e = got < 0 ? errno : got != (ssize_t)bs ? EIO : 0;
		if (e == EINVAL && c->direct && i == 0) {
			rc = -e;
			snprintf(err, errlen, "%s: O_DIRECT read refused; use --no-direct", t->path);
			break;
		}
		if (e) {
			memset(&f, 0, sizeof(f));
			f.cls = DUR_LOST_MISSING;
			f.sectors = (unsigned)(bs / DUR_SECTOR);
		} else {
			dur_classify(buf, bs, res->info.run, b->block, b->acked, &f);
		}
		if (b->acked == 0) {
			res->unacked_blocks++;
			res->unacked_landed += !e && f.valid > 0;
			continue;
		}
		res->acked_blocks++;
		res->cls[f.cls]++;
		res->unreadable += e != 0;
		if (dur_class_lost(f.cls)) {
			res->lost++;
			add_example(res, b, &f, e);
		}
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	free(blocks);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->elapsed_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return rc;
}
