/* durability_server.c - `iobench durability serve`: keep what writers say, durably. */
#include "durability_net.h"
#include "durability_run.h"
#include "signals.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 1024

struct srv_run {
	uint64_t run;
	int fd;
	struct dur_run_info info; /* from the first HELLO */
	char *pending;            /* whole lines not yet written */
	size_t plen, pcap;
};

enum conn_state { C_NEW, C_WRITER, C_CLOSING };

struct conn {
	int fd;
	enum conn_state state;
	struct srv_run *run;
	uint32_t writer;
	uint64_t records;
	char in[DUR_LINE_MAX];
	size_t inlen;
	char reply[256]; /* lines sent, in order, once the log is on disk */
	size_t replylen;
};

struct server {
	const struct dur_serve_config *c;
	int dirfd;
	struct srv_run **runs;
	size_t nruns;
	struct conn *conns[MAX_CONNS];
	size_t nconns;
};

__attribute__((format(printf, 2, 3))) static void say(const struct server *s, const char *fmt, ...)
{
	if (!s->c->log)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("iobench: durability serve: ", s->c->log);
	vfprintf(s->c->log, fmt, ap);
	fputc('\n', s->c->log);
	fflush(s->c->log);
	va_end(ap);
}

static int pend(struct srv_run *r, const char *line, size_t n)
{
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
	return 0;
}

/* Write and fdatasync every run's pending lines. 0 or -errno (the log is then unusable). */
static int flush_runs(struct server *s)
{
	int rc = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct srv_run *r = s->runs[i];
		if (r->plen == 0)
			continue;
		size_t off = 0;
		while (off < r->plen) {
			ssize_t n = write(r->fd, r->pending + off, r->plen - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				rc = n < 0 ? -errno : -EIO;
				break;
			}
			off += (size_t)n;
		}
		if (rc == 0 && fdatasync(r->fd) != 0)
			rc = -errno;
		r->plen = 0;
		if (rc < 0)
			return rc;
	}
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
		if (pread(fd, buf, n, end - (off_t)n) != (ssize_t)n)
			return -EIO;
		char *nl = memrchr(buf, '\n', n);
		if (nl)
			return end - (off_t)n + (nl - buf) + 1;
		end -= (off_t)n;
	}
	return 0;
}

/* Cut a log back to its last newline: a line half-written when the server died is not a record. */
static int trim_partial_line(int fd)
{
	struct stat st;
	off_t end = complete_length(fd);
	if (end < 0 || fstat(fd, &st) != 0)
		return end < 0 ? (int)end : -errno;
	if (end != st.st_size && (ftruncate(fd, end) != 0 || fdatasync(fd) != 0))
		return -errno;
	return 0;
}

static struct srv_run *find_run(struct server *s, uint64_t run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i]->run == run)
			return s->runs[i];
	return NULL;
}

/* The run's log, opened for appending (created with its RUN line if new). */
static struct srv_run *open_run(struct server *s, const struct dur_run_info *info, char *why, size_t whylen)
{
	struct srv_run *r = find_run(s, info->run);
	if (r)
		return r;
	char name[32], hex[17];
	dur_run_hex(info->run, hex);
	snprintf(name, sizeof(name), "%s.log", hex);
	int fd = openat(s->dirfd, name, O_RDWR | O_APPEND | O_CLOEXEC);
	bool created = false;
	if (fd < 0 && errno == ENOENT) {
		fd = openat(s->dirfd, name, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		created = true;
	}
	int open_errno = errno;
	r = calloc(1, sizeof(*r));
	struct srv_run **runs = r ? realloc(s->runs, (s->nruns + 1) * sizeof(*runs)) : NULL;
	if (fd < 0 || !runs || (!created && trim_partial_line(fd) != 0)) {
		snprintf(why, whylen, "cannot open the log %s: %s", name,
			 fd < 0 ? strerror(open_errno) : "out of memory or I/O error");
		if (fd >= 0)
			close(fd);
		free(r);
		if (runs)
			s->runs = runs;
		return NULL;
	}
	s->runs = runs;
	r->run = info->run;
	r->fd = fd;
	r->info = *info;
	if (created) {
		char line[80];
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		int n = snprintf(line, sizeof(line), "RUN run=%s created=%lld.%06ld", hex, (long long)now.tv_sec,
				 now.tv_nsec / 1000);
		/* The file's name must survive a crash too. */
		if (pend(r, line, (size_t)n) != 0 || fsync(s->dirfd) != 0) {
			snprintf(why, whylen, "cannot create the log %s: %s", name, strerror(errno));
			close(fd);
			free(r->pending);
			free(r);
			return NULL;
		}
		say(s, "new run %s: %s, %u writer(s), %s on %s", hex, info->op, info->writers, info->target, info->host);
	}
	s->runs[s->nruns++] = r;
	return r;
}

static void conn_reply_now(struct conn *c, const char *msg)
{
	char line[DUR_LINE_MAX];
	int n = snprintf(line, sizeof(line), "%s\n", msg);
	(void)dur_net_send(c->fd, line, (size_t)n);
}

/* Queue a reply line: settle() sends it after the next flush, after the ones queued before. */
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

/* RUNS: one line per log in the directory: "RUN created=SECONDS.MICROS HELLO...". */
static void serve_runs(struct server *s, struct conn *c)
{
	DIR *d = fdopendir(dup(s->dirfd));
	unsigned n = 0;
	if (d)
		rewinddir(d); /* the duplicate shares the position the last listing left at the end */
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len != 20 || strcmp(e->d_name + 16, ".log") != 0)
			continue;
		int fd = openat(s->dirfd, e->d_name, O_RDONLY | O_CLOEXEC);
		FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
		if (!f) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		char first[DUR_LINE_MAX], hello[DUR_LINE_MAX];
		char hex[17], created[32];
		if (fgets(first, sizeof(first), f) && sscanf(first, "RUN run=%16s created=%31s", hex, created) == 2 &&
		    fgets(hello, sizeof(hello), f) && strncmp(hello, "HELLO ", 6) == 0 && strchr(hello, '\n')) {
			char line[2 * DUR_LINE_MAX];
			int m = snprintf(line, sizeof(line), "RUN created=%s %s", created, hello);
			if (dur_net_send(c->fd, line, (size_t)m) == 0)
				n++;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	char end[32];
	snprintf(end, sizeof(end), "END %u", n);
	conn_reply_now(c, end);
	c->state = C_CLOSING;
}

/* GET RUNID: the log as it is on disk (whole lines), then "END N". */
static void serve_get(struct server *s, struct conn *c, const char *hex)
{
	uint64_t run;
	if (dur_run_parse(hex, &run) != 0) {
		conn_refuse(c, "bad run id; use 16 hex digits");
		return;
	}
	char name[32];
	snprintf(name, sizeof(name), "%s.log", hex);
	int fd = openat(s->dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		conn_refuse(c, "no such run");
		return;
	}
	/* Whole lines only: a tail half-written by a server that died is not a record. */
	off_t left = complete_length(fd);
	char buf[65536];
	uint64_t lines = 0;
	int rc = left < 0 ? (int)left : 0;
	while (rc == 0 && left > 0) {
		ssize_t n = read(fd, buf, left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf));
		if (n <= 0) {
			rc = -EIO;
			break;
		}
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		rc = dur_net_send(c->fd, buf, (size_t)n);
		left -= n;
	}
	close(fd);
	if (rc == 0) {
		char end[48];
		snprintf(end, sizeof(end), "END %llu", (unsigned long long)lines);
		conn_reply_now(c, end);
	}
	c->state = C_CLOSING;
}

static bool conn_read(struct server *s, struct conn *c);
static int drain_writers(struct server *s);

static void conn_line(struct server *s, struct conn *c, char *line, size_t n)
{
	if (c->state == C_WRITER) {
		struct dur_record r;
		if (dur_record_parse(line, false, &r) == 0) {
			char rec[96], *p = rec;
			*p++ = r.kind;
			*p++ = ' ';
			p += dur_put_u64(p, c->writer);
			*p++ = ' ';
			p += dur_put_u64(p, r.block);
			*p++ = ' ';
			p += dur_put_u64(p, r.seq);
			if (r.block >= c->run->info.blocks) {
				conn_refuse(c, "block number beyond the run's blocks");
				return;
			}
			if (pend(c->run, rec, (size_t)(p - rec)) != 0) {
				conn_refuse(c, "server out of memory");
				return;
			}
			c->records++;
		} else if (strcmp(line, "BYE") == 0) {
			char rec[64];
			int m = snprintf(rec, sizeof(rec), "BYE %u %llu", c->writer, (unsigned long long)c->records);
			pend(c->run, rec, (size_t)m);
			snprintf(rec, sizeof(rec), "OK %llu", (unsigned long long)c->records);
			conn_reply(c, rec);
			c->state = C_CLOSING;
		} else {
			conn_refuse(c, "expected A BLOCK SEQ, I BLOCK SEQ or BYE");
		}
		return;
	}
	/* The first line says who is calling. */
	struct dur_run_info info;
	if (strncmp(line, "HELLO ", 6) == 0) {
		if (dur_hello_parse(line, &info) != 0) {
			conn_refuse(c, "bad HELLO line (iobench-durability protocol 1 expected)");
			return;
		}
		char why[256];
		struct srv_run *r = open_run(s, &info, why, sizeof(why));
		if (!r) {
			conn_refuse(c, why);
			return;
		}
		if (r->info.block_size != info.block_size || r->info.blocks != info.blocks ||
		    r->info.writers != info.writers) {
			conn_refuse(c, "HELLO disagrees with the run's earlier writers");
			return;
		}
		if (pend(r, line, n) != 0) {
			conn_refuse(c, "server out of memory");
			return;
		}
		c->state = C_WRITER;
		c->run = r;
		c->writer = info.writer;
		conn_reply(c, "OK");
	} else if (strcmp(line, "RUNS") == 0 || strncmp(line, "GET ", 4) == 0) {
		/* A log can be large: send it blocking, but give up on a verifier stuck for 30 s. */
		struct timeval tv = { .tv_sec = 30 };
		fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) & ~O_NONBLOCK);
		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (drain_writers(s) != 0)
			conn_refuse(c, "server cannot write its log");
		else if (line[0] == 'R')
			serve_runs(s, c);
		else
			serve_get(s, c, line + 4);
	} else {
		conn_refuse(c, "expected HELLO, RUNS or GET");
	}
}

/* Read what the peer sent and handle each whole line. false when the connection is done. */
static bool conn_read(struct server *s, struct conn *c)
{
	for (;;) {
		ssize_t n = recv(c->fd, c->in + c->inlen, sizeof(c->in) - c->inlen, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0)
			return false; /* gone: a partial line in c->in is dropped, never logged */
		c->inlen += (size_t)n;
		size_t start = 0;
		char *nl;
		while (c->state != C_CLOSING && (nl = memchr(c->in + start, '\n', c->inlen - start)) != NULL) {
			*nl = '\0';
			size_t len = (size_t)(nl - (c->in + start));
			if (len > 0 && c->in[start + len - 1] == '\r')
				c->in[start + --len] = '\0';
			conn_line(s, c, c->in + start, len);
			start = (size_t)(nl - c->in) + 1;
		}
		if (c->state == C_CLOSING)
			return true;
		memmove(c->in, c->in + start, c->inlen - start);
		c->inlen -= start;
		if (c->inlen == sizeof(c->in)) {
			conn_refuse(c, "line too long");
			return true;
		}
	}
}

/* A connection that ended: a writer's end is logged ("GONE"); settle() closes it. */
static void conn_gone(struct server *s, struct conn *c)
{
	if (c->state == C_WRITER) {
		char rec[64];
		int m = snprintf(rec, sizeof(rec), "GONE %u %llu", c->writer, (unsigned long long)c->records);
		pend(c->run, rec, (size_t)m);
		char hex[17];
		dur_run_hex(c->run->run, hex);
		say(s, "run %s: writer %u gone without BYE after %llu records", hex, c->writer,
		    (unsigned long long)c->records);
	}
	c->state = C_CLOSING;
	c->replylen = 0;
}

/* Before a verifier reads a log: take in everything writers already sent, on disk. */
static int drain_writers(struct server *s)
{
	for (size_t j = 0; j < s->nconns; j++) {
		struct conn *w = s->conns[j];
		if (w->state == C_WRITER && !conn_read(s, w))
			conn_gone(s, w);
	}
	return flush_runs(s);
}

static void accept_all(struct server *s, int lfd)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return;
		struct conn *c = s->nconns < MAX_CONNS ? calloc(1, sizeof(*c)) : NULL;
		if (!c) {
			(void)dur_net_send(fd, "ERR server busy\n", 16);
			close(fd);
			continue;
		}
		c->fd = fd;
		s->conns[s->nconns++] = c;
	}
}

/* Send the replies that waited for the log to be on disk; close finished connections. */
static void settle(struct server *s)
{
	for (size_t i = 0; i < s->nconns;) {
		struct conn *c = s->conns[i];
		if (c->replylen) {
			/* A reply is a few bytes on an idle socket: a blocking send is fine. */
			int fl = fcntl(c->fd, F_GETFL);
			fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
			(void)dur_net_send(c->fd, c->reply, c->replylen);
			fcntl(c->fd, F_SETFL, fl);
			c->replylen = 0;
		}
		if (c->state == C_CLOSING) {
			close(c->fd);
			free(c);
			s->conns[i] = s->conns[--s->nconns];
			continue;
		}
		i++;
	}
}

int dur_serve(const struct dur_serve_config *c, char *err, size_t errlen)
{
	struct server s = { .c = c, .dirfd = -1 };
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
	say(&s, "listening on %s, logs in %s", bound, c->dir);
	int rc = 0;
	struct pollfd *pf = calloc(MAX_CONNS + 2, sizeof(*pf));
	if (!pf)
		rc = -ENOMEM;
	while (rc == 0) {
		pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		size_t n = s.nconns;
		for (size_t i = 0; i < n; i++)
			pf[i + 2] = (struct pollfd){ .fd = s.conns[i]->fd, .events = POLLIN };
		if (poll(pf, n + 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			snprintf(err, errlen, "poll: %s", strerror(errno));
			break;
		}
		if (pf[1].revents) {
			int sig = signals_take(sfd);
			if (sig > 0) {
				say(&s, "stopped by %s", strsignal(sig));
				rc = -EINTR;
			}
		}
		for (size_t i = 0; i < n; i++) {
			struct conn *cn = s.conns[i];
			if (pf[i + 2].revents && cn->state != C_CLOSING && !conn_read(&s, cn))
				conn_gone(&s, cn);
		}
		if (pf[0].revents)
			accept_all(&s, lfd);
		int frc = flush_runs(&s);
		if (frc < 0 && rc == 0) {
			rc = frc;
			snprintf(err, errlen, "%s: cannot write a log: %s", c->dir, strerror(-frc));
		}
		if (frc == 0)
			settle(&s);
	}
	for (size_t i = 0; i < s.nconns; i++)
		conn_gone(&s, s.conns[i]);
	settle(&s);
	if (flush_runs(&s) < 0 && rc == -EINTR) {
		rc = -EIO;
		snprintf(err, errlen, "%s: cannot write a log on the way out", c->dir);
	}
	for (size_t i = 0; i < s.nruns; i++) {
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
