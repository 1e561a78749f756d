/* verify.c - `iobench durability verify`: read back every promised block. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "durability/net.h"
#include "durability/roles.h"
#include "lib/clock.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define REPLY_TIMEOUT_MS 60000
/* A RUNS listing longer than this is not a server's directory: stop reading it. */
#define RUNS_MAX 1000000
/* Runs named in the "no such run" message. */
#define RUNS_SHOWN 5

/* Send one request line (after "AUTH TOKEN" when there is one), return the connected reader. 0 or -errno. */
static int request(const char *server, const char *token, const char *req, struct dur_reader *rd, char *err,
		   size_t errlen)
{
	int fd = dur_net_connect(server, DUR_CONNECT_TIMEOUT_MS, err, errlen);
	if (fd < 0)
		return fd;
	rd->fd = fd;
	rd->start = rd->len = 0;
	/* A server that stops reading must not hang verify. */
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_MS / 1000 };
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	int rc = 0;
	if (token) {
		char auth[DUR_LINE_MAX];
		int n = snprintf(auth, sizeof(auth), "AUTH %s\n", token);
		rc = n > 0 && (size_t)n < sizeof(auth) ? dur_net_send(fd, auth, (size_t)n) : -E2BIG;
	}
	if (rc == 0)
		rc = dur_net_send(fd, req, strlen(req));
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
		/* The server's words go to a terminal: escaped, so they cannot forge lines or reach it as ESC. */
		char why[DUR_LINE_MAX];
		dur_text_escape(why, sizeof(why), line + 4);
		snprintf(err, errlen, "the durability server at %s says: %s", server, why);
		return strcmp(line + 4, "no such run") == 0 ? -ENOENT : -EPROTO;
	}
	if (rc == 1 && sscanf(line, "END %llu", &n) == 1 && n == seen)
		return 0;
	snprintf(err, errlen, "the durability server at %s broke off its reply: %s", server,
		 rc == 1 ? "wrong END count" : rc == 0 ? "connection closed" : strerror(-rc));
	return rc < 0 ? rc : -EPROTO;
}

/*
 * Pick the run from the server's listing as it streams by (nothing but the
 * choice and the first few runs is kept: a listing may be endless): the one
 * asked for, else the newest from this host.
 */
static int choose_run(const struct dur_verify_config *c, struct dur_run_info *info, char *err, size_t errlen)
{
	struct dur_reader rd = { 0 };
	int rc = request(c->server, c->token, "RUNS\n", &rd, err, errlen);
	if (rc < 0)
		return rc;
	char line[DUR_LINE_MAX + 64];
	struct dur_run_info r, shown[RUNS_SHOWN];
	bool found = false;
	size_t n = 0, nshown = 0;
	while ((rc = dur_read_line(&rd, line, sizeof(line), REPLY_TIMEOUT_MS)) == 1 && strncmp(line, "RUN ", 4) == 0) {
		if (n == RUNS_MAX) {
			close(rd.fd);
			snprintf(err, errlen, "the durability server at %s lists more than %d runs; is it a durability server?",
				 c->server, RUNS_MAX);
			return -EPROTO;
		}
		long long sec, usec = 0;
		int off = 0;
		if (sscanf(line, "RUN created=%lld.%lld %n", &sec, &usec, &off) < 1 || off == 0 ||
		    dur_hello_parse(line + off, &r) != 0) {
			n++; /* END counts every line the server sent */
			continue;
		}
		r.created = sec * 1000000 + usec;
		if (nshown < RUNS_SHOWN)
			shown[nshown++] = r;
		n++;
		if (c->run ? r.run == c->run : strcmp(r.host, c->host) == 0 && (!found || r.created > info->created)) {
			*info = r;
			found = true;
		}
	}
	close(rd.fd);
	rc = reply_end(c->server, rc, line, n, err, errlen);
	if (rc < 0)
		return rc;
	if (found)
		return 0;
	char hex[17], host[3 * sizeof(r.host)];
	dur_run_hex(c->run, hex);
	int len = c->run ? snprintf(err, errlen, "the durability server at %s has no run %s", c->server, hex)
			 : snprintf(err, errlen, "the durability server at %s has no run from host '%s'", c->server, c->host);
	if (nshown == 0) {
		snprintf(err + len, errlen - (size_t)len, " (it has no runs at all; is it the right server and --dir?)");
	} else {
		len += snprintf(err + len, errlen - (size_t)len, "; it has");
		for (size_t i = 0; i < nshown && (size_t)len < errlen; i++) {
			dur_run_hex(shown[i].run, hex);
			dur_text_escape(host, sizeof(host), shown[i].host);
			len += snprintf(err + len, errlen - (size_t)len, "%s %s from %s", i ? "," : "", hex, host);
		}
		if ((size_t)len < errlen)
			snprintf(err + len, errlen - (size_t)len, "%s; give --run ID", n > nshown ? ", ..." : "");
	}
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
	int rc = request(c->server, c->token, req, &rd, err, errlen);
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
	uint64_t t0 = clock_now_ns();
	int rc = choose_run(c, &res->info, err, errlen);
	if (rc < 0)
		return rc;
	const struct dur_target *t = c->target;
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
		ssize_t got = pread_full(fd, buf, bs, (off_t)(b->block * bs));
		int e = got < 0 ? (int)-got : got != (ssize_t)bs ? EIO : 0;
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
	res->elapsed_s = (double)(clock_now_ns() - t0) / 1e9;
	return rc;
}
