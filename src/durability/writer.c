/* writer.c - `iobench durability write`: stamped blocks, acknowledged only once flushed. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "durability/net.h"
#include "durability/roles.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* Writes of a write<SIZE>/<N> op waiting for their fdatasync; a full batch forces one. */
#define BATCH_MAX 4096
/* Longest "A BLOCK SEQ\n". */
#define REC_MAX 48
/* How long the server may take to answer HELLO or BYE (it syncs its log first). */
#define REPLY_TIMEOUT_MS 30000
/* How long a broken connection is read for the server's last ERR line. */
#define LAST_WORD_MS 1000
/* The longest the main thread sleeps between looks at the writers and the clock. */
#define LOOK_NS 200000000ULL

struct writer {
	const struct dur_write_config *c;
	pthread_t tid;
	bool started;
	uint32_t id;
	int fd, sock;
	struct dur_reader rd;
	void *buf;
	char *acks;        /* BATCH_MAX records, sent in one go after a flush */
	uint64_t *batch;   /* BATCH_MAX (block, seq) pairs */
	size_t nbatch;
	struct prng rng;
	uint64_t seq;
	uint64_t writes, acked, flushes, confirmed;
	uint64_t sent; /* records sent: what the server's BYE count must match */
	int io_errno, net_errno;
	uint64_t io_err_block;
	char net_err[DUR_LINE_MAX + 16];
};

static int stop_flag;

static bool stopping(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED) != 0;
}

static void stop_all(void)
{
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

/* "K BLOCK SEQ\n" into p; returns its length. */
static size_t format_record(char *p, char kind, uint64_t block, uint64_t seq)
{
	char *s = p;
	*p++ = kind;
	*p++ = ' ';
	p += dur_put_u64(p, block);
	*p++ = ' ';
	p += dur_put_u64(p, seq);
	*p++ = '\n';
	return (size_t)(p - s);
}

/* Why the connection failed: the server's ERR line when it left one (escaped), else fallback. */
static void server_said(struct writer *w, const char *fallback)
{
	char line[DUR_LINE_MAX], why[DUR_LINE_MAX];
	if (dur_read_line(&w->rd, line, sizeof(line), LAST_WORD_MS) == 1 && strncmp(line, "ERR ", 4) == 0) {
		dur_text_escape(why, sizeof(why), line + 4);
		snprintf(w->net_err, sizeof(w->net_err), "it says: %s", why);
	} else {
		snprintf(w->net_err, sizeof(w->net_err), "%s", fallback);
	}
}

static bool send_records(struct writer *w, const char *buf, size_t len, size_t records)
{
	int rc = dur_net_send(w->sock, buf, len);
	w->sent += records;
	if (rc < 0) {
		w->net_errno = -rc;
		server_said(w, strerror(-rc));
		stop_all();
		return false;
	}
	return true;
}

static bool write_block(struct writer *w, uint64_t block)
{
	size_t bs = w->c->op->size;
	int rc = pwrite_full(w->fd, w->buf, bs, (off_t)(block * bs));
	if (rc < 0) {
		w->io_errno = -rc;
		w->io_err_block = block;
		stop_all();
		return false;
	}
	w->writes++;
	return true;
}

/* fdatasync, then acknowledge every write of the batch. */
static bool flush_batch(struct writer *w)
{
	if (w->nbatch == 0)
		return true;
	w->flushes++;
	if (fdatasync(w->fd) != 0) {
		/* Never acknowledged: after a failed fdatasync the kernel may drop the dirty pages. */
		w->io_errno = errno;
		w->io_err_block = w->batch[0];
		w->nbatch = 0;
		stop_all();
		return false;
	}
	size_t len = 0;
	for (size_t i = 0; i < w->nbatch; i++)
		len += format_record(w->acks + len, 'A', w->batch[2 * i], w->batch[2 * i + 1]);
	bool ok = send_records(w, w->acks, len, w->nbatch);
	if (ok)
		w->acked += w->nbatch;
	w->nbatch = 0;
	return ok;
}

/* The loop: pick one of this writer's blocks, announce, stamp, write, flush, acknowledge. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	const struct dur_write_config *c = w->c;
	const struct op_spec *op = c->op;
	uint64_t nblocks = c->span / op->size;
	uint64_t mine = (nblocks - w->id + c->threads - 1) / c->threads;
	bool flushed = op->kind == OP_WRITE_FLUSH;
	char rec[REC_MAX];
	struct dur_stamp st = { .run = c->run, .writer = w->id };
	while (!stopping()) {
		uint64_t block = w->id + c->threads * prng_below(&w->rng, mine);
		st.block = block;
		st.seq = ++w->seq;
		if (!send_records(w, rec, format_record(rec, 'I', block, st.seq), 1))
			break;
		dur_stamp_block(w->buf, op->size, &st, &w->rng);
		if (!write_block(w, block))
			break;
		if (flushed) {
			if (!send_records(w, rec, format_record(rec, 'A', block, st.seq), 1))
				break;
			w->acked++;
			continue;
		}
		w->batch[2 * w->nbatch] = block;
		w->batch[2 * w->nbatch + 1] = st.seq;
		w->nbatch++;
		if ((op->sync_every && prng_below(&w->rng, op->sync_every) == 0) || w->nbatch == BATCH_MAX) {
			if (!flush_batch(w))
				break;
		}
	}
	/* A clean stop: what was written gets its flush and acknowledgement too. */
	if (!flushed && w->io_errno == 0 && w->net_errno == 0)
		flush_batch(w);
	if (w->net_errno == 0 && send_records(w, "BYE\n", 4, 0)) {
		char line[DUR_LINE_MAX];
		unsigned long long n;
		int rc = dur_read_line(&w->rd, line, sizeof(line), REPLY_TIMEOUT_MS);
		if (rc == 1 && sscanf(line, "OK %llu", &n) == 1 && n == w->sent) {
			w->confirmed = n;
		} else if (rc == 1 && strncmp(line, "OK ", 3) == 0) {
			w->net_errno = EPROTO;
			char n_said[DUR_LINE_MAX];
			dur_text_escape(n_said, sizeof(n_said), line + 3);
			snprintf(w->net_err, sizeof(w->net_err), "it logged %s of the %llu records writer %u sent",
				 n_said, (unsigned long long)w->sent, w->id);
		} else {
			char why[DUR_LINE_MAX];
			dur_text_escape(why, sizeof(why), rc == 1 ? line : rc == 0 ? "connection closed" : strerror(-rc));
			w->net_errno = rc < 0 ? -rc : EPROTO;
			snprintf(w->net_err, sizeof(w->net_err), "no confirmation of BYE (%s)", why);
		}
	}
	return NULL;
}

static void writer_free(struct writer *w)
{
	if (w->sock >= 0)
		close(w->sock);
	if (w->fd >= 0)
		close(w->fd);
	free(w->buf);
	free(w->acks);
	free(w->batch);
}

/* Open, connect, say HELLO and get the server's OK. 0 or -errno with err. */
static int writer_setup(struct writer *w, char *err, size_t errlen)
{
	const struct dur_write_config *c = w->c;
	w->fd = open(c->target->path, c->open_flags);
	if (w->fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open for writing: %s%s", c->target->path, strerror(e),
			 e == EINVAL && (c->open_flags & O_DIRECT) ? "; O_DIRECT refused, use --no-direct" : "");
		return -e;
	}
	if (posix_memalign(&w->buf, 4096, (c->op->size + 4095) / 4096 * 4096) != 0 ||
	    !(w->acks = malloc((size_t)BATCH_MAX * REC_MAX)) ||
	    !(w->batch = malloc((size_t)BATCH_MAX * 2 * sizeof(uint64_t)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	w->sock = dur_net_connect(c->server, DUR_CONNECT_TIMEOUT_MS, err, errlen);
	if (w->sock < 0)
		return w->sock;
	/* A server that stops reading for a minute is lost: stop rather than hang. */
	struct timeval tv = { .tv_sec = 60 };
	setsockopt(w->sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	w->rd.fd = w->sock;
	struct dur_run_info info = {
		.run = c->run, .writer = w->id, .writers = c->threads, .block_size = (uint32_t)c->op->size,
		.blocks = c->span / c->op->size, .start = (int64_t)time(NULL),
	};
	snprintf(info.op, sizeof(info.op), "%s", c->op->name);
	snprintf(info.host, sizeof(info.host), "%s", c->host);
	snprintf(info.target, sizeof(info.target), "%s", c->target->path);
	char line[DUR_LINE_MAX];
	int n = dur_hello_format(line, sizeof(line) - 1, &info);
	if (n < 0) {
		snprintf(err, errlen, "%s: path too long for the protocol", c->target->path);
		return -ENAMETOOLONG;
	}
	line[n++] = '\n';
	int rc = 0;
	if (c->token) {
		char auth[DUR_LINE_MAX];
		int m = snprintf(auth, sizeof(auth), "AUTH %s\n", c->token);
		rc = m > 0 && (size_t)m < sizeof(auth) ? dur_net_send(w->sock, auth, (size_t)m) : -E2BIG;
	}
	if (rc == 0)
		rc = dur_net_send(w->sock, line, (size_t)n);
	if (rc == 0)
		rc = dur_read_line(&w->rd, line, sizeof(line), REPLY_TIMEOUT_MS);
	if (rc == 1 && strcmp(line, "OK") == 0)
		return 0;
	char why[DUR_LINE_MAX];
	if (rc == 1)
		dur_text_escape(why, sizeof(why), strncmp(line, "ERR ", 4) == 0 ? line + 4 : line);
	if (rc == 1)
		snprintf(err, errlen, "the durability server at %s refused the run: %s", c->server, why);
	else
		snprintf(err, errlen, "the durability server at %s did not answer HELLO: %s%s", c->server,
			 rc == 0 ? "connection closed" : strerror(-rc),
			 rc == 0 || rc == -ECONNRESET ? " (is this box's address in its --allow? its stderr says "
							"whom it refused)" : "");
	return rc == 1 ? -EPROTO : rc == 0 ? -ECONNRESET : rc;
}

int dur_write(const struct dur_write_config *c, struct dur_write_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
	struct writer *ws = calloc(c->threads, sizeof(*ws));
	if (!ws) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int rc = 0;
	for (unsigned i = 0; i < c->threads; i++) {
		ws[i] = (struct writer){ .c = c, .id = i, .fd = -1, .sock = -1 };
		prng_seed(&ws[i].rng, c->seed ^ c->run, i + 1);
	}
	for (unsigned i = 0; i < c->threads && rc == 0; i++)
		rc = writer_setup(&ws[i], err, errlen);
	if (rc == 0 && c->accepted)
		c->accepted(c->accepted_arg);
	uint64_t t0 = clock_now_ns();
	for (unsigned i = 0; i < c->threads && rc == 0; i++) {
		int e = pthread_create(&ws[i].tid, NULL, writer_main, &ws[i]);
		if (e != 0) {
			rc = -e;
			snprintf(err, errlen, "cannot start writer threads: %s", strerror(e));
			stop_all();
			break;
		}
		ws[i].started = true;
	}
	/* Wait for the end: time, a stop signal, or a writer that stopped everyone. */
	while (rc == 0 && !stopping()) {
		uint64_t now = clock_now_ns() - t0;
		uint64_t left = LOOK_NS;
		if (c->duration_ns) {
			if (now >= c->duration_ns)
				break;
			if (c->duration_ns - now < left)
				left = c->duration_ns - now;
		}
		int sig = signals_wait(c->stop_signals, left);
		if (sig > 0) {
			res->interrupted = true;
			res->signal = sig;
			break;
		}
	}
	stop_all();
	for (unsigned i = 0; i < c->threads; i++) {
		struct writer *w = &ws[i];
		if (w->started)
			pthread_join(w->tid, NULL);
		res->writes += w->writes;
		res->acked += w->acked;
		res->flushes += w->flushes;
		res->confirmed += w->confirmed;
		if (w->io_errno && !res->io_errno) {
			res->io_errno = w->io_errno;
			res->io_err_block = w->io_err_block;
		}
		if (w->net_errno && !res->net_errno) {
			res->net_errno = w->net_errno;
			if (rc == 0)
				snprintf(err, errlen, "lost the durability server at %s: %s", c->server, w->net_err);
		}
		writer_free(w);
	}
	res->elapsed_s = (double)(clock_now_ns() - t0) / 1e9;
	free(ws);
	return rc;
}
