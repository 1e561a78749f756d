/* server.c - `iobench durability serve`: keep what writers say, durably. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "durability/net.h"
#include "durability/roles.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/signals.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DUR_OUT_MAX (64 * 1024)        /* a connection's unsent reply bytes */
#define IN_ROUND_MAX (64 * 1024)       /* bytes read from one connection per round */
#define PEND_MAX (4 * 1024 * 1024)     /* unwritten log bytes of all runs: no more reading beyond it */
#define DUR_HELLO_MS 10000             /* a new connection's first line */
#define DUR_STALL_MS 30000             /* a reader that takes no byte of its reply */
#define DUR_WRITER_IDLE_MS (15 * 60 * 1000) /* a writer that sends nothing */
#define EMFILE_PAUSE_MS 1000
#define EMFILE_SAY_MS 10000
#define LINGER_MS 2000                 /* a closing peer's unread bytes are drained this long */
#define POLL_MS 1000                   /* the longest poll(): the limits above are checked this often */

struct srv_run {
	uint64_t run;
	int fd;                   /* -1 once closed (a failed run stays known, closed) */
	struct dur_run_info info; /* from the first HELLO */
	char *pending;            /* whole lines not yet written */
	size_t plen, pcap;
	uint64_t records;         /* lines in the log */
	uint64_t max_records;
	unsigned refs;            /* writer connections on it */
	int failed;               /* errno of a failed append: its writers get ERR, never OK */
};

enum conn_state { C_NEW, C_WRITER, C_RUNS, C_GET, C_CLOSING };

struct conn {
	int fd;
	enum conn_state state;
	bool authed;
	bool told_failed;
	bool lingering;  /* our side is shut down: reading to the peer's end, so our last line is not lost to a reset */
	bool linger_done;
	struct srv_run *run;
	uint32_t writer;
	uint64_t records;
	char in[DUR_LINE_MAX];
	size_t inlen;
	char reply[256]; /* lines that wait for the run's log to be on disk */
	size_t replylen;
	char *out;       /* bytes being sent: out[outoff .. outlen) */
	size_t outlen, outoff;
	int64_t since;   /* accepted, last byte in (writer) or out (reader) */
	int getfd;       /* GET: the log, and what is left of it */
	off_t getleft;
	uint64_t lines;  /* GET, RUNS: lines sent */
	DIR *dir;        /* RUNS */
	char peer[64];
	unsigned char key[9]; /* the peer's address (IPv6: its /64), for the per-address limit */
};

struct server {
	const struct dur_serve_config *c;
	int dirfd;
	struct srv_run **runs;
	size_t nruns;
	struct conn *conns[DUR_CONNS_MAX];
	size_t nconns;
	size_t max_conns, max_per_addr, max_writers;
	int64_t busy_said;    /* the last "busy" line: said once in a while, with how many were refused */
	uint64_t busy_count;
	size_t pending; /* bytes in every run's pending */
	int64_t now;
	int64_t accept_paused_until;
	int64_t emfile_said;
};

/* One progress line. Anything a peer sent must go through dur_text_escape first. */
__attribute__((format(printf, 2, 3))) static void say(const struct server *s, const char *fmt, ...)
{
	if (!s->c->note)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->c->note(s->c->note_arg, line);
}

/* The address a peer's connections count against: IPv4 (mapped too) whole, IPv6 by its /64. */
static void peer_key(const struct sockaddr *sa, unsigned char key[9])
{
	memset(key, 0, 9);
	if (sa->sa_family == AF_INET) {
		key[0] = 4;
		memcpy(key + 1, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		const unsigned char *a = ((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr;
		static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
		if (memcmp(a, mapped, 12) == 0) {
			key[0] = 4;
			memcpy(key + 1, a + 12, 4);
		} else {
			key[0] = 6;
			memcpy(key + 1, a, 8);
		}
	}
}

static size_t conns_from(const struct server *s, const unsigned char key[9])
{
	size_t n = 0;
	for (size_t i = 0; i < s->nconns; i++)
		n += memcmp(s->conns[i]->key, key, 9) == 0;
	return n;
}

static size_t writers_now(const struct server *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nconns; i++)
		n += s->conns[i]->state == C_WRITER;
	return n;
}

/* A refusal for lack of room: on the server's side once in a while, with how many since. */
static void say_busy(struct server *s, const char *peer, const char *why)
{
	s->busy_count++;
	if (s->busy_said && s->now - s->busy_said < EMFILE_SAY_MS)
		return;
	say(s, "refused %s: %s (%llu refused for lack of room since the last such line)", peer, why,
	    (unsigned long long)s->busy_count);
	s->busy_said = s->now;
	s->busy_count = 0;
}

static int pend(struct server *s, struct srv_run *r, const char *line, size_t n)
{
	if (r->failed)
		return -r->failed;
	if (r->records >= r->max_records)
		return -EDQUOT;
	if (r->plen + n + 1 > r->pcap) {
		size_t cap = (r->plen + n + 1) * 2;
		char *p = realloc(r->pending, cap);
		if (!p)
			return -ENOMEM;
		r->pending = p;
		r->pcap = cap;
	}
	memcpy(r->pending + r->plen, line, n);
	r->plen += n;
	r->pending[r->plen++] = '\n';
	r->records++;
	s->pending += n + 1;
	return 0;
}

/* Bytes of the log up to and including its last newline (-errno on failure). */
static off_t complete_length(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -errno;
	off_t end = st.st_size;
	char buf[4096];
	while (end > 0) {
		size_t n = end < (off_t)sizeof(buf) ? (size_t)end : sizeof(buf);
		ssize_t got = pread_full(fd, buf, n, end - (off_t)n);
		if (got != (ssize_t)n)
			return got < 0 ? got : -EIO;
		char *nl = memrchr(buf, '\n', n);
		if (nl)
			return end - (off_t)n + (nl - buf) + 1;
		end -= (off_t)n;
	}
	return 0;
}

/* Cut a log back to length end (its last newline) and make that durable. */
static int trim_to(int fd, off_t end)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (end != st.st_size && (ftruncate(fd, end) != 0 || fdatasync(fd) != 0))
		return -errno;
	return 0;
}

/* Write and fdatasync one run's pending lines; a failure fails the run (and only it). */
static void flush_run(struct server *s, struct srv_run *r)
{
	if (r->plen == 0)
		return;
	s->pending -= r->plen;
	off_t before = r->fd >= 0 ? lseek(r->fd, 0, SEEK_END) : -1;
	int rc = r->fd >= 0 ? write_full(r->fd, r->pending, r->plen) : -EBADF;
	if (rc == 0 && fdatasync(r->fd) != 0)
		rc = -errno;
	r->plen = 0;
	if (r->pcap > 65536) {
		free(r->pending);
		r->pending = NULL;
		r->pcap = 0;
	}
	if (rc < 0) {
		/* Whatever part of the round reached the file is not acknowledged: take it back out. */
		if (r->fd >= 0 && before >= 0)
			(void)trim_to(r->fd, before);
		r->failed = -rc;
		char hex[17];
		dur_run_hex(r->run, hex);
		say(s, "run %s: cannot append to its log: %s; its writers are told and stopped, other runs go on", hex,
		    strerror(-rc));
	}
}

static void release_run(struct server *s, struct srv_run *r);

/* Write every run's pending lines; then close the logs no writer uses any more. */
static void flush_runs(struct server *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		flush_run(s, s->runs[i]);
	for (size_t i = s->nruns; i-- > 0;)
		if (s->runs[i]->refs == 0 && s->runs[i]->fd >= 0)
			release_run(s, s->runs[i]);
}

/* The first two lines of a log: its RUN line's created=, and the first HELLO. 0 or -errno. */
static int read_head(int fd, char *created, size_t clen, char *hello, size_t hlen, struct dur_run_info *info)
{
	char buf[2 * DUR_LINE_MAX + 1];
	ssize_t n = pread_full(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	char *nl1 = strchr(buf, '\n');
	char *nl2 = nl1 ? strchr(nl1 + 1, '\n') : NULL;
	if (!nl2 || memchr(buf, '\0', (size_t)(nl2 - buf)))
		return -EBADMSG;
	*nl1 = *nl2 = '\0';
	char hex[17], c[32];
	if (sscanf(buf, "RUN run=%16s created=%31s", hex, c) != 2 || dur_hello_parse(nl1 + 1, info) != 0)
		return -EBADMSG;
	if (created)
		snprintf(created, clen, "%s", c);
	if (hello)
		snprintf(hello, hlen, "%s", nl1 + 1);
	return 0;
}

/* Lines in a log (its records count against the run's cap when it is reopened). */
static uint64_t count_lines(int fd)
{
	char buf[65536];
	uint64_t lines = 0;
	off_t off = 0;
	ssize_t n;
	while ((n = pread_full(fd, buf, sizeof(buf), off)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		off += n;
	}
	return lines;
}

static struct srv_run *find_run(struct server *s, uint64_t run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i]->run == run)
			return s->runs[i];
	return NULL;
}

static uint64_t run_cap(const struct server *s, const struct dur_run_info *info)
{
	if (s->c->max_records)
		return s->c->max_records;
	uint64_t cap = info->blocks > UINT64_MAX / DUR_RECORDS_PER_BLOCK ? UINT64_MAX
									    : info->blocks * DUR_RECORDS_PER_BLOCK;
	return cap < DUR_RECORDS_MIN ? DUR_RECORDS_MIN : cap;
}

/* The run's log, opened for appending (created with its RUN line if new). NULL with why. */
static struct srv_run *open_run(struct server *s, const struct dur_run_info *info, char *why, size_t whylen)
{
	char name[32], hex[17];
	dur_run_hex(info->run, hex);
	snprintf(name, sizeof(name), "%s.log", hex);
	struct srv_run *r = find_run(s, info->run);
	if (r) {
		if (r->failed) {
			snprintf(why, whylen, "the run's log failed earlier (%s); start a new run", strerror(r->failed));
			return NULL;
		}
		return r;
	}
	int fd = openat(s->dirfd, name, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	bool created = false;
	if (fd < 0 && errno == ENOENT) {
		fd = openat(s->dirfd, name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		created = true;
	}
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "the server cannot open the log %s: %s%s", name, strerror(e),
			 e == EMFILE || e == ENFILE ? " (too many runs and connections at once; try again)" : "");
		return NULL;
	}
	struct dur_run_info first = *info;
	uint64_t lines = 0;
	if (!created) {
		off_t end = complete_length(fd);
		int rc = end < 0 ? (int)end : trim_to(fd, end);
		if (rc == 0)
			rc = read_head(fd, NULL, 0, NULL, 0, &first);
		if (rc != 0) {
			snprintf(why, whylen, "the server cannot use the log %s: %s", name,
				 rc == -EBADMSG ? "it does not start with RUN and HELLO lines" : strerror(-rc));
			close(fd);
			return NULL;
		}
		lines = count_lines(fd);
	}
	r = calloc(1, sizeof(*r));
	struct srv_run **runs = r ? realloc(s->runs, (s->nruns + 1) * sizeof(*runs)) : NULL;
	if (!runs) {
		snprintf(why, whylen, "server out of memory");
		close(fd);
		free(r);
		return NULL;
	}
	s->runs = runs;
	r->run = info->run;
	r->fd = fd;
	r->info = first;
	r->records = lines;
	r->max_records = run_cap(s, &first);
	s->runs[s->nruns++] = r;
	if (created) {
		char line[80];
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		int n = snprintf(line, sizeof(line), "RUN run=%s created=%lld.%06ld", hex, (long long)now.tv_sec,
				 now.tv_nsec / 1000);
		/* The file's name must survive a crash too. */
		if (pend(s, r, line, (size_t)n) != 0 || fsync(s->dirfd) != 0) {
			snprintf(why, whylen, "the server cannot create the log %s: %s", name, strerror(errno));
			r->failed = errno ? errno : EIO;
			return NULL;
		}
		char host[3 * sizeof(info->host)], target[3 * sizeof(info->target)], op[3 * sizeof(info->op)];
		dur_text_escape(host, sizeof(host), info->host);
		dur_text_escape(target, sizeof(target), info->target);
		dur_text_escape(op, sizeof(op), info->op);
		say(s, "new run %s: %s, %u writer(s), %s on %s", hex, op, info->writers, target, host);
	}
	return r;
}

/* A run no writer uses any more, its lines on disk: close its log (reopened on demand). */
static void release_run(struct server *s, struct srv_run *r)
{
	if (r->refs > 0 || r->plen > 0)
		return;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->failed)
		return; /* remembered: a writer of a failed run is refused, not appended */
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i] == r) {
			s->runs[i] = s->runs[--s->nruns];
			break;
		}
	free(r->pending);
	free(r);
}

/* Queue bytes to send now (non-blocking, in settle). false when the connection's queue is full. */
static bool out_put(struct conn *c, const char *buf, size_t n)
{
	if (c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen - c->outoff + n > DUR_OUT_MAX)
		return false;
	if (c->outlen + n > DUR_OUT_MAX) {
		memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
		c->outlen -= c->outoff;
		c->outoff = 0;
	}
	if (!c->out && !(c->out = malloc(DUR_OUT_MAX)))
		return false;
	memcpy(c->out + c->outlen, buf, n);
	c->outlen += n;
	return true;
}

/* Queue a reply line: sent after the next flush of the logs, after the ones queued before. */
static void conn_reply(struct conn *c, const char *msg)
{
	int n = snprintf(c->reply + c->replylen, sizeof(c->reply) - c->replylen, "%s\n", msg);
	if (n > 0 && (size_t)n < sizeof(c->reply) - c->replylen)
		c->replylen += (size_t)n;
}

/* Refuse and close: "ERR why" (after any reply already queued). */
static void conn_refuse(struct conn *c, const char *why)
{
	char msg[200];
	snprintf(msg, sizeof(msg), "ERR %.190s", why);
	conn_reply(c, msg);
	c->state = C_CLOSING;
}

/* RUNS: list the directory's logs, as much as fits in the queue; "END N" at the end. */
static void runs_fill(struct server *s, struct conn *c)
{
	struct dirent *e;
	while (c->outlen - c->outoff + 2 * DUR_LINE_MAX + 64 <= DUR_OUT_MAX) {
		errno = 0;
		e = readdir(c->dir);
		if (!e) {
			if (errno) {
				conn_refuse(c, "the server cannot list its logs");
				return;
			}
			char end[32];
			int m = snprintf(end, sizeof(end), "END %llu\n", (unsigned long long)c->lines);
			out_put(c, end, (size_t)m);
			c->state = C_CLOSING;
			return;
		}
		size_t len = strlen(e->d_name);
		uint64_t run;
		char hex[17];
		if (len != 20 || strcmp(e->d_name + 16, ".log") != 0)
			continue;
		memcpy(hex, e->d_name, 16);
		hex[16] = '\0';
		if (dur_run_parse(hex, &run) != 0)
			continue;
		int fd = openat(s->dirfd, e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0 && errno != ENOENT && errno != ELOOP) {
			/* Never "no runs" when the truth is "cannot open": say so, the verifier prints it. */
			char why[160];
			snprintf(why, sizeof(why), "the server cannot open the log %s: %s; try again", e->d_name,
				 strerror(errno));
			conn_refuse(c, why);
			return;
		}
		if (fd < 0)
			continue;
		char created[32], hello[DUR_LINE_MAX];
		struct dur_run_info info;
		struct stat st;
		int rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
				 ? read_head(fd, created, sizeof(created), hello, sizeof(hello), &info)
				 : -EINVAL;
		close(fd);
		if (rc != 0 || info.run != run)
			continue;
		char line[2 * DUR_LINE_MAX];
		int m = snprintf(line, sizeof(line), "RUN created=%s %s\n", created, hello);
		if (m > 0 && (size_t)m < sizeof(line) && out_put(c, line, (size_t)m))
			c->lines++;
	}
}

/* GET: the next part of the log (whole lines, as on disk when GET came); "END N" at the end. */
static void get_fill(struct conn *c)
{
	char buf[16384];
	while (c->getleft > 0 && c->outlen - c->outoff + sizeof(buf) <= DUR_OUT_MAX) {
		ssize_t n = read(c->getfd, buf, c->getleft < (off_t)sizeof(buf) ? (size_t)c->getleft : sizeof(buf));
		if (n <= 0) {
			/* Mid-reply: the verifier must not take a cut log for a whole one. No END. */
			c->outoff = c->outlen = 0;
			conn_refuse(c, "the server cannot read the log");
			return;
		}
		for (ssize_t i = 0; i < n; i++)
			c->lines += buf[i] == '\n';
		out_put(c, buf, (size_t)n);
		c->getleft -= n;
	}
	if (c->getleft == 0) {
		char end[48];
		int m = snprintf(end, sizeof(end), "END %llu\n", (unsigned long long)c->lines);
		if (out_put(c, end, (size_t)m))
			c->state = C_CLOSING;
	}
}

static void serve_runs(struct server *s, struct conn *c)
{
	int fd = openat(s->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c->dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!c->dir) {
		char why[160];
		snprintf(why, sizeof(why), "the server cannot list its logs: %s; try again", strerror(errno));
		if (fd >= 0)
			close(fd);
		conn_refuse(c, why);
		return;
	}
	c->state = C_RUNS;
	c->since = s->now;
}

static void serve_get(struct server *s, struct conn *c, const char *hex)
{
	uint64_t run;
	if (dur_run_parse(hex, &run) != 0) {
		conn_refuse(c, "bad run id; use 16 hex digits");
		return;
	}
	char name[32];
	snprintf(name, sizeof(name), "%s.log", hex);
	int fd = openat(s->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		char why[160];
		snprintf(why, sizeof(why), "the server cannot open the log %s: %s; try again", name, strerror(errno));
		conn_refuse(c, errno == ENOENT ? "no such run" : why);
		return;
	}
	/* Whole lines only: a tail half-written by a server that died is not a record. */
	struct stat st;
	off_t left = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? complete_length(fd) : -EINVAL;
	if (left < 0) {
		close(fd);
		conn_refuse(c, "the server cannot read the log");
		return;
	}
	c->getfd = fd;
	c->getleft = left;
	c->state = C_GET;
	c->since = s->now;
}

static void conn_writer_line(struct server *s, struct conn *c, const char *line)
{
	struct dur_record r;
	char rec[96];
	if (dur_record_parse(line, false, &r) == 0) {
		char *p = rec;
		if (r.block >= c->run->info.blocks) {
			conn_refuse(c, "block number beyond the run's blocks");
			return;
		}
		*p++ = r.kind;
		*p++ = ' ';
		p += dur_put_u64(p, c->writer);
		*p++ = ' ';
		p += dur_put_u64(p, r.block);
		*p++ = ' ';
		p += dur_put_u64(p, r.seq);
		int rc = pend(s, c->run, rec, (size_t)(p - rec));
		if (rc == -EDQUOT) {
			snprintf(rec, sizeof(rec), "the run reached the server's limit of %llu records; start a new run",
				 (unsigned long long)c->run->max_records);
			conn_refuse(c, rec);
		} else if (rc != 0) {
			conn_refuse(c, "the server cannot log the run");
		} else {
			c->records++;
		}
	} else if (strcmp(line, "BYE") == 0) {
		int m = snprintf(rec, sizeof(rec), "BYE %u %llu", c->writer, (unsigned long long)c->records);
		c->run->records--; /* BYE is not a record: never refused by the cap */
		if (pend(s, c->run, rec, (size_t)m) != 0) {
			/* Never acknowledge what the log does not hold. */
			conn_refuse(c, "the server cannot log the run's end");
			return;
		}
		snprintf(rec, sizeof(rec), "OK %llu", (unsigned long long)c->records);
		conn_reply(c, rec);
		c->state = C_CLOSING;
	} else {
		conn_refuse(c, "expected A BLOCK SEQ, I BLOCK SEQ or BYE");
	}
}

static void conn_gone(struct server *s, struct conn *c, const char *how);

/*
 * Room for one more writer: below max_writers, or the writer silent longest
 * (DUR_EVICT_IDLE_MS at least) is dropped for it. Else c is refused. The
 * slots above max_writers stay for verifiers and new connections.
 */
static bool writer_slot(struct server *s, struct conn *c)
{
	if (writers_now(s) < s->max_writers)
		return true;
	struct conn *idlest = NULL;
	for (size_t i = 0; i < s->nconns; i++) {
		struct conn *w = s->conns[i];
		if (w->state == C_WRITER && (!idlest || w->since < idlest->since))
			idlest = w;
	}
	if (idlest && s->now - idlest->since >= DUR_EVICT_IDLE_MS) {
		char how[160];
		snprintf(how, sizeof(how), "at %s evicted (silent %lld s, every writer slot taken)", idlest->peer,
			 (long long)((s->now - idlest->since) / 1000));
		conn_gone(s, idlest, how);
		conn_refuse(idlest, "evicted: silent while the server was full; start a new run");
		return true;
	}
	say_busy(s, c->peer, "every writer slot is taken by writers not silent long enough to evict");
	conn_refuse(c, "server busy: every writer slot is taken; try again later");
	return false;
}

/* The peer's token, compared in time independent of where it differs. */
static bool token_ok(const char *want, const char *got)
{
	size_t wl = strlen(want), gl = strlen(got);
	unsigned char d = wl != gl;
	for (size_t i = 0; i < wl; i++)
		d |= (unsigned char)(want[i] ^ got[i < gl ? i : 0]);
	return d == 0;
}

static void conn_line(struct server *s, struct conn *c, char *line, size_t n)
{
	if (c->state == C_WRITER) {
		conn_writer_line(s, c, line);
		return;
	}
	if (strncmp(line, "AUTH ", 5) == 0 && !c->authed) {
		if (!s->c->token) {
			say(s, "refused %s: it gave a token, this server has none", c->peer);
			conn_refuse(c, "this server has no token, so it would not protect the run; "
				       "give the server --token-file, or drop the client's");
			return;
		}
		if (!token_ok(s->c->token, line + 5)) {
			say(s, "refused %s: wrong token", c->peer);
			conn_refuse(c, "wrong token; give the server's --token-file");
		}
		c->authed = true;
		return;
	}
	if (s->c->token && !c->authed) {
		say(s, "refused %s: no token", c->peer);
		conn_refuse(c, "this server wants a token; give --token-file");
		return;
	}
	/* The first line says who is calling. */
	struct dur_run_info info;
	if (strncmp(line, "HELLO ", 6) == 0) {
		if (dur_hello_parse(line, &info) != 0) {
			conn_refuse(c, "bad HELLO line (iobench-durability protocol 1 expected; no control bytes)");
			return;
		}
		if (!writer_slot(s, c))
			return;
		char why[256];
		struct srv_run *r = open_run(s, &info, why, sizeof(why));
		if (!r) {
			conn_refuse(c, why);
			return;
		}
		c->run = r;
		r->refs++;
		if (r->info.block_size != info.block_size || r->info.blocks != info.blocks ||
		    r->info.writers != info.writers) {
			conn_refuse(c, "HELLO disagrees with the run's earlier writers");
			return;
		}
		r->records--; /* a HELLO is not a record: never refused by the cap */
		if (pend(s, r, line, n) != 0) {
			r->records++;
			conn_refuse(c, "the server cannot log the run");
			return;
		}
		c->state = C_WRITER;
		c->since = s->now;
		c->writer = info.writer;
		conn_reply(c, "OK");
	} else if (strcmp(line, "RUNS") == 0) {
		serve_runs(s, c);
	} else if (strncmp(line, "GET ", 4) == 0) {
		serve_get(s, c, line + 4);
	} else {
		conn_refuse(c, "expected HELLO, RUNS or GET");
	}
}

/*
 * Read what the peer sent (at most IN_ROUND_MAX bytes a round, nothing while
 * the logs' unwritten lines are at their bound) and handle each whole line.
 * false when the connection is gone.
 */
static bool conn_read(struct server *s, struct conn *c)
{
	size_t got = 0;
	while (got < IN_ROUND_MAX && s->pending < PEND_MAX) {
		ssize_t n = recv(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0)
			return false; /* gone: a partial line in c->in is dropped, never logged */
		got += (size_t)n;
		c->inlen += (size_t)n;
		if (c->state == C_WRITER)
			c->since = s->now; /* a new connection's time runs from its accept, however it trickles */
		size_t start = 0;
		char *nl;
		while ((c->state == C_NEW || c->state == C_WRITER) &&
		       (nl = memchr(c->in + start, '\n', c->inlen - start)) != NULL) {
			*nl = '\0';
			size_t len = (size_t)(nl - (c->in + start));
			if (len > 0 && c->in[start + len - 1] == '\r')
				c->in[start + --len] = '\0';
			if (memchr(c->in + start, '\0', len))
				conn_refuse(c, "a NUL byte in a line");
			else
				conn_line(s, c, c->in + start, len);
			start = (size_t)(nl - c->in) + 1;
		}
		if (c->state != C_NEW && c->state != C_WRITER)
			return true; /* a verifier's request is one line; the rest is ignored */
		memmove(c->in, c->in + start, c->inlen - start);
		c->inlen -= start;
		if (c->inlen == sizeof(c->in)) {
			conn_refuse(c, "line too long");
			return true;
		}
	}
	return true;
}

/* A connection that ended: a writer's end is logged ("GONE"); settle() closes it. */
static void conn_gone(struct server *s, struct conn *c, const char *how)
{
	if (c->state == C_WRITER) {
		char rec[64];
		int m = snprintf(rec, sizeof(rec), "GONE %u %llu", c->writer, (unsigned long long)c->records);
		c->run->records--;
		if (pend(s, c->run, rec, (size_t)m) != 0)
			c->run->records++;
		char hex[17];
		dur_run_hex(c->run->run, hex);
		say(s, "run %s: writer %u %s after %llu records", hex, c->writer, how, (unsigned long long)c->records);
	}
	c->state = C_CLOSING;
	c->replylen = 0;
	c->outoff = c->outlen = 0;
}

static void conn_close(struct server *s, size_t i)
{
	struct conn *c = s->conns[i];
	if (c->run) {
		c->run->refs--;
		release_run(s, c->run);
	}
	if (c->dir)
		closedir(c->dir);
	if (c->getfd >= 0)
		close(c->getfd);
	close(c->fd);
	free(c->out);
	free(c);
	s->conns[i] = s->conns[--s->nconns];
}

static bool peer_allowed(const struct server *s, const struct sockaddr *sa)
{
	if (s->c->nallow == 0)
		return true;
	for (size_t i = 0; i < s->c->nallow; i++)
		if (dur_cidr_match(&s->c->allow[i], sa))
			return true;
	return false;
}

/*
 * Make room for a new connection: one that is closing (its reply sent, its
 * peer's last bytes drained) goes first, else the oldest one that has not
 * said who it is, else a reader stalled for DUR_EVICT_IDLE_MS.
 */
static bool evict_idle(struct server *s)
{
	size_t oldest = s->nconns;
	for (size_t i = 0; i < s->nconns; i++)
		if (s->conns[i]->lingering) {
			conn_close(s, i);
			return true;
		}
	for (size_t i = 0; i < s->nconns; i++)
		if (s->conns[i]->state == C_NEW && (oldest == s->nconns || s->conns[i]->since < s->conns[oldest]->since))
			oldest = i;
	/* Then a reader that took no byte of its reply for DUR_EVICT_IDLE_MS: the reserve is not theirs to hold. */
	for (size_t i = 0; oldest == s->nconns && i < s->nconns; i++) {
		struct conn *c = s->conns[i];
		if ((c->state == C_RUNS || c->state == C_GET) && s->now - c->since >= DUR_EVICT_IDLE_MS) {
			say(s, "dropped %s: took no reply byte for %lld s while every slot was taken", c->peer,
			    (long long)((s->now - c->since) / 1000));
			oldest = i;
		}
	}
	if (oldest == s->nconns)
		return false;
	conn_close(s, oldest);
	return true;
}

/*
 * Close a refused connection after its ERR line: what the peer already sent
 * is read first (a little, without waiting), so that the close is a FIN the
 * ERR arrives before, not a reset that may discard it.
 */
static void refuse_close(int fd)
{
	char sink[4096];
	for (int i = 0; i < 4 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; i++)
		;
	shutdown(fd, SHUT_WR);
	close(fd);
}

static void accept_all(struct server *s, int lfd)
{
	for (;;) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
				/*
				 * Poll would report the same waiting peer at once, forever: pause
				 * (saying so, once in a while), and let the oldest peer that has
				 * not said who it is make room.
				 */
				if (s->now - s->emfile_said >= EMFILE_SAY_MS || s->emfile_said == 0) {
					say(s, "cannot accept a connection: %s; pausing for %d ms at a time (raise ulimit -n, or fewer peers)",
					    strerror(errno), EMFILE_PAUSE_MS);
					s->emfile_said = s->now;
				}
				s->accept_paused_until = s->now + EMFILE_PAUSE_MS;
				evict_idle(s);
			}
			return;
		}
		char peer[64];
		dur_net_format_addr((struct sockaddr *)&ss, peer, sizeof(peer));
		if (!peer_allowed(s, (struct sockaddr *)&ss)) {
			say(s, "refused %s: not in --allow (a VM behind user-mode NAT connects as 127.0.0.1)", peer);
			close(fd); /* not a byte read */
			continue;
		}
		unsigned char key[9];
		peer_key((struct sockaddr *)&ss, key);
		if (conns_from(s, key) >= s->max_per_addr) {
			static const char msg[] = "ERR too many connections from your address (--max-per-address); try again later\n";
			say_busy(s, peer, "its address has --max-per-address connections already");
			(void)send(fd, msg, sizeof(msg) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
			refuse_close(fd);
			continue;
		}
		if (s->nconns == s->max_conns && !evict_idle(s)) {
			static const char msg[] = "ERR server busy (--max-connections); try again later\n";
			say_busy(s, peer, "every connection slot is taken (--max-connections)");
			(void)send(fd, msg, sizeof(msg) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
			refuse_close(fd);
			continue;
		}
		struct conn *c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->getfd = -1;
		c->since = s->now;
		snprintf(c->peer, sizeof(c->peer), "%s", peer);
		memcpy(c->key, key, sizeof(key));
		s->conns[s->nconns++] = c;
	}
}

/* Send what can go without blocking. false when the peer is gone. */
static bool conn_send(struct server *s, struct conn *c)
{
	while (c->outoff < c->outlen) {
		ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0)
			return false;
		c->outoff += (size_t)n;
		c->since = s->now;
	}
	c->outoff = c->outlen = 0;
	return true;
}

/*
 * After the logs were written: replies that waited for them go out (an ERR
 * instead of OK for a run whose log failed), readers get the next part of
 * their reply, timed-out and finished connections are closed.
 */
static void settle(struct server *s)
{
	for (size_t i = 0; i < s->nconns;) {
		struct conn *c = s->conns[i];
		if (c->run && c->run->failed && !c->told_failed) {
			char why[160];
			snprintf(why, sizeof(why), "the server cannot append to the run's log: %s; the run is stopped",
				 strerror(c->run->failed));
			c->replylen = 0; /* an OK (or OK N) the log does not hold must never leave */
			conn_refuse(c, why);
			c->told_failed = true;
		}
		if (c->replylen) {
			if (!out_put(c, c->reply, c->replylen))
				c->state = C_CLOSING, c->outoff = c->outlen = 0;
			c->replylen = 0;
		}
		bool alive = true;
		/* A reader's reply: fill and send until its socket is full (or a round's share went). */
		for (int part = 0; alive && part < 16; part++) {
			if (c->state == C_RUNS)
				runs_fill(s, c);
			if (c->state == C_GET)
				get_fill(c);
			if (c->replylen && out_put(c, c->reply, c->replylen))
				c->replylen = 0;
			alive = conn_send(s, c);
			if (c->outlen > c->outoff || (c->state != C_RUNS && c->state != C_GET))
				break;
		}
		int64_t idle = s->now - c->since;
		bool sending = c->outlen > c->outoff || c->state == C_RUNS || c->state == C_GET;
		if (alive && sending && idle > DUR_STALL_MS) {
			say(s, "dropped %s: took no reply byte for %d s", c->peer, DUR_STALL_MS / 1000);
			alive = false;
		} else if (alive && c->state == C_NEW && idle > DUR_HELLO_MS) {
			alive = false; /* said nothing in time: not worth a line each */
		} else if (alive && c->state == C_WRITER && idle > DUR_WRITER_IDLE_MS) {
			conn_gone(s, c, "silent for too long, dropped");
			alive = false;
		}
		if (!alive && c->state == C_WRITER)
			conn_gone(s, c, "gone without BYE");
		if (alive && c->state == C_CLOSING && c->outlen == c->outoff && !c->lingering) {
			/*
			 * Closing with unread input resets the connection, and a reset
			 * can discard the ERR just sent: end our side, read the rest.
			 */
			shutdown(c->fd, SHUT_WR);
			c->lingering = true;
			c->since = s->now;
		}
		if (!alive || (c->lingering && (c->linger_done || s->now - c->since > LINGER_MS))) {
			conn_close(s, i);
			continue;
		}
		i++;
	}
}

/* As many descriptors as the hard limit allows: each connection and open log takes one. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int dur_serve(const struct dur_serve_config *c, char *err, size_t errlen)
{
	struct server s = { .c = c, .dirfd = -1 };
	s.max_conns = c->max_conns && c->max_conns <= DUR_CONNS_MAX ? c->max_conns : DUR_CONNS_DEFAULT;
	s.max_per_addr = c->max_per_addr ? c->max_per_addr : DUR_PER_ADDR_DEFAULT;
	s.max_writers = s.max_conns - DUR_READER_RESERVE(s.max_conns);
	if (mkdir(c->dir, 0755) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: cannot create the log directory: %s", c->dir, strerror(errno));
		return -errno;
	}
	s.dirfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s.dirfd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", c->dir, e == ENOTDIR ? "not a directory; give --dir a directory" : strerror(e));
		return -e;
	}
	raise_fd_limit();
	char bound[80];
	int lfd = dur_net_listen(c->listen, bound, sizeof(bound), err, errlen);
	if (lfd < 0) {
		close(s.dirfd);
		return lfd;
	}
	int sfd = signals_fd(c->stop_signals);
	if (sfd < 0) {
		snprintf(err, errlen, "signalfd: %s", strerror(-sfd));
		close(lfd);
		close(s.dirfd);
		return sfd;
	}
	say(&s, "listening on %s, logs in %s%s", bound, c->dir,
	    c->token || c->nallow ? "" : "; no --token or --allow: any peer that reaches the port may write and read runs");
	int rc = 0;
	uint64_t rounds = 0;
	struct pollfd *pf = calloc(DUR_CONNS_MAX + 2, sizeof(*pf));
	if (!pf)
		rc = -ENOMEM;
	while (rc == 0) {
		s.now = clock_mono_ms();
		bool listening = s.now >= s.accept_paused_until;
		pf[0] = (struct pollfd){ .fd = listening ? lfd : -1, .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		size_t n = s.nconns;
		for (size_t i = 0; i < n; i++) {
			struct conn *cn = s.conns[i];
			/* A reader whose reply is not all queued yet waits for room in its socket too. */
			bool more = cn->outlen > cn->outoff || cn->state == C_RUNS || cn->state == C_GET;
			short ev = more ? POLLOUT : cn->lingering ? POLLIN : 0;
			/* Writers wait while the logs' unwritten lines are at their bound; readers send one line. */
			if ((cn->state == C_NEW || cn->state == C_WRITER) && s.pending < PEND_MAX)
				ev |= POLLIN;
			pf[i + 2] = (struct pollfd){ .fd = cn->fd, .events = ev };
		}
		if (poll(pf, n + 2, POLL_MS) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			snprintf(err, errlen, "poll: %s", strerror(errno));
			break;
		}
		s.now = clock_mono_ms();
		if (pf[1].revents) {
			int sig = signals_take(sfd);
			if (sig > 0) {
				say(&s, "stopped by %s", strsignal(sig));
				rc = -EINTR;
			}
		}
		/* Each round starts reading at another connection: a flood cannot always come first. */
		size_t first = n ? (size_t)(rounds++ % n) : 0;
		for (size_t k = 0; k < n; k++) {
			size_t i = (first + k) % n;
			struct conn *cn = s.conns[i];
			short re = pf[i + 2].revents;
			if (re && cn->lingering) {
				char sink[16384];
				ssize_t got = recv(cn->fd, sink, sizeof(sink), MSG_DONTWAIT);
				cn->linger_done = got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR);
			}
			if (!re || cn->state == C_CLOSING)
				continue;
			bool alive = true;
			if (re & (POLLIN | POLLHUP | POLLERR))
				alive = (cn->state == C_NEW || cn->state == C_WRITER) ? conn_read(&s, cn)
										       : !(re & (POLLHUP | POLLERR));
			if (!alive)
				conn_gone(&s, cn, "gone without BYE");
		}
		if (listening && pf[0].revents)
			accept_all(&s, lfd);
		flush_runs(&s);
		settle(&s);
	}
	for (size_t i = 0; i < s.nconns; i++)
		conn_gone(&s, s.conns[i], "still connected when the server stopped");
	flush_runs(&s);
	while (s.nconns > 0)
		conn_close(&s, s.nconns - 1);
	for (size_t i = 0; i < s.nruns; i++) {
		if (s.runs[i]->fd >= 0)
			close(s.runs[i]->fd);
		free(s.runs[i]->pending);
		free(s.runs[i]);
	}
	free(s.runs);
	free(pf);
	close(sfd);
	close(lfd);
	close(s.dirfd);
	return rc;
}
