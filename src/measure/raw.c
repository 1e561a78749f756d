/* raw.c - the per-operation log's writer thread. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/raw.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How long the writer thread sleeps between looks for full chunks. */
#define NAP_NS 10000000L

struct raw_writer {
	FILE *f;
	struct raw_buf **bufs;
	size_t nbufs;
	atomic_bool stop;
	int error;
	pthread_t tid;
};

int raw_buf_init(struct raw_buf *b, const char *signature, int mixed)
{
	memset(b, 0, sizeof(*b));
	/* the 2012 log names the op by its signature's first field */
	snprintf(b->op_word, sizeof(b->op_word), "%.*s", (int)strcspn(signature, ","), signature);
	b->mixed = mixed;
	for (int i = 0; i < 2; i++) {
		b->chunk[i] = malloc(sizeof(struct raw_rec) * RAW_CHUNK_RECS);
		if (!b->chunk[i]) {
			raw_buf_free(b);
			return -ENOMEM;
		}
	}
	return 0;
}

void raw_buf_free(struct raw_buf *b)
{
	free(b->chunk[0]);
	free(b->chunk[1]);
	b->chunk[0] = b->chunk[1] = NULL;
}

static void write_recs(struct raw_writer *w, const struct raw_buf *b, const struct raw_rec *recs, uint32_t n)
{
	/* After a failed write nothing more: the file ends where the failure was, cut back in finish. */
	for (uint32_t i = 0; i < n && !w->error; i++) {
		const struct raw_rec *r = &recs[i];
		int rc = fprintf(w->f, "op: %s%s %llu %u %llu %llu", b->op_word,
				 b->mixed ? (r->is_write ? "/write" : "/read") : "",
				 (unsigned long long)r->offset, r->len,
				 (unsigned long long)(r->dur_ns / 1000), (unsigned long long)(r->end_ns / 1000));
		if (r->err)
			rc = fprintf(w->f, " ERROR[%s]", strerror(r->err));
		if (rc < 0 || fputc('\n', w->f) == EOF)
			w->error = errno ? errno : EIO;
	}
}

static void *writer_main(void *arg)
{
	struct raw_writer *w = arg;
	for (;;) {
		bool stop = atomic_load(&w->stop);
		for (size_t i = 0; i < w->nbufs; i++) {
			struct raw_buf *b = w->bufs[i];
			for (int c = 0; c < 2; c++) {
				if (!atomic_load_explicit(&b->full[c], memory_order_acquire))
					continue;
				write_recs(w, b, b->chunk[c], b->count[c]);
				atomic_store_explicit(&b->full[c], 0, memory_order_release);
			}
		}
		if (stop)
			return NULL;
		struct timespec ts = { 0, NAP_NS };
		nanosleep(&ts, NULL);
	}
}

struct raw_writer *raw_writer_start(FILE *f, struct raw_buf **bufs, size_t nbufs)
{
	struct raw_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->f = f;
	w->bufs = bufs;
	w->nbufs = nbufs;
	if (pthread_create(&w->tid, NULL, writer_main, w) != 0) {
		free(w);
		return NULL;
	}
	return w;
}

int64_t raw_writer_finish(struct raw_writer *w, const bool *abandoned)
{
	atomic_store(&w->stop, true);
	pthread_join(w->tid, NULL);
	/* The joined workers are gone: their partly filled chunks are ours now. */
	int64_t dropped = 0;
	for (size_t i = 0; i < w->nbufs; i++) {
		if (abandoned && abandoned[i])
			continue;
		struct raw_buf *b = w->bufs[i];
		write_recs(w, b, b->chunk[b->cur], b->n);
		b->n = 0;
		dropped += (int64_t)b->dropped;
	}
	if (fflush(w->f) != 0 && !w->error)
		w->error = errno;
	int err = w->error;
	if (err)
		raw_cut_to_line(w->f); /* best effort: the write error is what is reported */
	free(w);
	return err ? -err : dropped;
}

int raw_cut_to_line(FILE *f)
{
	/* What stdio still holds would land after the cut at the next flush (at fclose). */
	__fpurge(f);
	int fd = fileno(f);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return 0;
	/* The log is open write-only (append): read its tail through a descriptor of its own. */
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	int rfd = open(self, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	char buf[4096];
	off_t end = st.st_size, keep = 0;
	int rc = 0;
	while (end > 0 && keep == 0) {
		off_t from = end > (off_t)sizeof(buf) ? end - (off_t)sizeof(buf) : 0;
		ssize_t got = pread_full(rfd, buf, (size_t)(end - from), from);
		if (got != end - from) {
			rc = got < 0 ? (int)got : -EIO;
			break;
		}
		for (ssize_t i = got; i > 0 && keep == 0; i--)
			if (buf[i - 1] == '\n')
				keep = from + i;
		end = from;
	}
	close(rfd);
	if (rc == 0 && keep < st.st_size && ftruncate(fd, keep) != 0)
		rc = -errno;
	return rc;
}
