/* precondition.c - sequential 128 KiB writes over the whole target (PTS), or every block read once. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/precondition.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/prng.h"
#include "lib/signals.h"
#include "lib/units.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The random data: a pool written from varying offsets, so no block repeats another. */
#define POOL_BYTES (4u * 1024u * 1024u)
#define ALIGN 4096u
/* Blocks between looks at the stop signals and the clock. */
#define LOOK_EVERY 32u
#define PROGRESS_NS 1000000000ULL

struct pass_state {
	const struct precondition_opts *o;
	int fd, tail_fd;        /* O_DIRECT; the page cache's for a tail under ALIGN (-1 until needed) */
	const char *path;
	unsigned char *pool;
	struct prng rng;
	uint64_t size, done, total;
	uint64_t t0, next_progress;
	unsigned pass;
};

static void progress(struct pass_state *s, bool force)
{
	if (!s->o->status)
		return;
	uint64_t now = clock_now_ns();
	if (!force && now < s->next_progress)
		return;
	s->next_progress = now + PROGRESS_NS;
	char done[32], total[32], text[160];
	units_format_size(done, sizeof(done), s->done);
	units_format_size(total, sizeof(total), s->total);
	double el = (double)(now - s->t0) / 1e9;
	if (s->o->read)
		snprintf(text, sizeof(text), "initialize: %s of %s read, %.0f MB/s", done, total,
			 el > 0 ? (double)s->done / el / 1e6 : 0);
	else
		snprintf(text, sizeof(text), "precondition pass %u of %u: %s of %s written, %.0f MB/s", s->pass + 1,
			 s->o->passes, done, total, el > 0 ? (double)s->done / el / 1e6 : 0);
	s->o->status(s->o->status_arg, text);
}

/* One block at off: len bytes, through the tail's descriptor when len is not aligned. */
static int one_block(struct pass_state *s, uint64_t off, size_t len, char *err, size_t errlen)
{
	int fd = s->fd;
	if (len % ALIGN != 0) {
		if (s->tail_fd < 0)
			s->tail_fd = open(s->path, (s->o->read ? O_RDONLY : O_WRONLY) | O_CLOEXEC);
		if (s->tail_fd < 0) {
			snprintf(err, errlen, "%s: cannot open for its last %zu bytes: %s", s->path, len, strerror(errno));
			return -errno;
		}
		fd = s->tail_fd;
	}
	int rc;
	if (s->o->read) {
		ssize_t n = pread_full(fd, s->pool, len, (off_t)off);
		rc = n < 0 ? (int)n : (size_t)n < len ? -EIO : 0;
	} else {
		size_t at = (size_t)prng_below(&s->rng, (POOL_BYTES - PRECONDITION_BLOCK) / ALIGN) * ALIGN;
		rc = pwrite_full(fd, s->pool + at, len, (off_t)off);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s: %s of %zu bytes at offset %llu failed: %s", s->path,
			 s->o->read ? "read" : "write", len, (unsigned long long)off, strerror(-rc));
	return rc;
}

/* One pass from offset 0 to the end. */
static int one_pass(struct pass_state *s, char *err, size_t errlen)
{
	size_t block = s->o->read ? PRECONDITION_READ_BLOCK : PRECONDITION_BLOCK;
	unsigned n = 0;
	for (uint64_t off = 0; off < s->size; off += block) {
		uint64_t left = s->size - off;
		size_t len = left < block ? (size_t)left : block;
		/* The aligned part with O_DIRECT, the rest through the page cache. */
		if (len > ALIGN && len % ALIGN != 0)
			len -= len % ALIGN;
		int rc = one_block(s, off, len, err, errlen);
		if (rc < 0)
			return rc;
		s->done += len;
		if (len != block)
			off -= block - len;
		if (++n % LOOK_EVERY == 0) {
			if (s->o->stop_signals && signals_wait(s->o->stop_signals, 0) > 0) {
				snprintf(err, errlen, "%s: interrupted after %llu bytes", s->path,
					 (unsigned long long)s->done);
				return -EINTR;
			}
			progress(s, false);
		}
	}
	if (!s->o->read && (fdatasync(s->fd) != 0 || (s->tail_fd >= 0 && fdatasync(s->tail_fd) != 0))) {
		snprintf(err, errlen, "%s: fdatasync after pass %u failed: %s", s->path, s->pass + 1, strerror(errno));
		return -errno;
	}
	return 0;
}

int precondition_run(const char *path, uint64_t size, const struct precondition_opts *o,
		     struct precondition_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	unsigned passes = o->read ? 1 : o->passes;
	struct pass_state s = { .o = o, .path = path, .size = size, .tail_fd = -1,
				.total = size * passes, .t0 = clock_now_ns() };
	s.next_progress = s.t0 + PROGRESS_NS;
	if (passes == 0 || size == 0) {
		snprintf(err, errlen, "%s: nothing to %s (%s)", path, o->read ? "read" : "write",
			 size == 0 ? "it is empty" : "no passes");
		return -EINVAL;
	}
	/* Never O_TRUNC or O_CREAT: a file keeps its size, a device is only ever written in place. */
	s.fd = open(path, (o->read ? O_RDONLY : O_WRONLY) | O_DIRECT | O_CLOEXEC);
	if (s.fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: cannot open for %s with O_DIRECT: %s%s", path, o->read ? "reading" : "writing",
			 strerror(e), e == EINVAL ? " (this filesystem refuses O_DIRECT)" : "");
		return -e;
	}
	if (posix_memalign((void **)&s.pool, ALIGN, POOL_BYTES) != 0) {
		close(s.fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	prng_seed(&s.rng, o->seed, 0x9ec0);
	if (!o->read)
		prng_fill(&s.rng, s.pool, POOL_BYTES);
	int rc = 0;
	for (s.pass = 0; s.pass < passes && rc == 0; s.pass++) {
		rc = one_pass(&s, err, errlen);
		if (rc == 0)
			r->passes++;
	}
	if (rc == 0) {
		s.pass = passes - 1;
		progress(&s, true);
	}
	if (o->status)
		o->status(o->status_arg, NULL);
	r->bytes = s.done;
	r->seconds = (double)(clock_now_ns() - s.t0) / 1e9;
	free(s.pool);
	close(s.fd);
	if (s.tail_fd >= 0)
		close(s.tail_fd);
	return rc;
}
