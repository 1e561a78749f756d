/*
 * engine_libaio.c - Linux native AIO (io_submit/io_getevents) with a queue
 * depth. Meant for O_DIRECT; on buffered files the kernel may complete
 * submissions synchronously, which is what the numbers then show.
 *
 * submit() only prepares an iocb; reap() hands every prepared one to the
 * kernel in one io_submit before it waits, so refilling n slots costs one
 * system call.
 *
 * fdatasync goes through IOCB_CMD_FDSYNC where the filesystem supports it;
 * otherwise (EINVAL) it is done synchronously and counted in
 * e->sync_fallbacks.
 */
#include "engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <unistd.h>

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;         /* one per request slot */
	struct io_event *events;
	struct io_req **ready;      /* completed without the kernel (sync fallback, refused) */
	unsigned nready;
	struct iocb **pending;      /* prepared, not yet given to the kernel */
	unsigned npending;
	unsigned inflight;
	int fdsync_unsupported;
};

static int aio_init(struct engine *e)
{
	struct aio_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->iocbs = calloc(e->depth, sizeof(*s->iocbs));
	s->events = calloc(e->depth, sizeof(*s->events));
	s->ready = calloc(e->depth, sizeof(*s->ready));
	s->pending = calloc(e->depth, sizeof(*s->pending));
	int rc = -ENOMEM;
	if (s->iocbs && s->events && s->ready && s->pending)
		rc = io_setup((int)e->depth, &s->ctx);
	if (rc < 0) {
		free(s->iocbs);
		free(s->events);
		free(s->ready);
		free(s->pending);
		free(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

static void sync_fdatasync(struct engine *e, struct aio_state *s, struct io_req *r)
{
	int rc;
	do
		rc = fdatasync(e->fd);
	while (rc != 0 && errno == EINTR);
	r->result = rc == 0 ? 0 : -errno;
	e->sync_fallbacks++;
	s->ready[s->nready++] = r;
}

/* Queue r from byte r->xfer_done on (a short completion continues where it stopped). */
static int aio_queue(struct engine *e, struct io_req *r)
{
	struct aio_state *s = e->priv;
	struct iocb *cb = &s->iocbs[r->slot];
	char *buf = (char *)r->buf + r->xfer_done;
	size_t len = r->len - r->xfer_done;
	long long off = r->offset + (off_t)r->xfer_done;
	if (r->kind == IO_FDATASYNC && s->fdsync_unsupported) {
		sync_fdatasync(e, s, r);
		return 0;
	}
	switch (r->kind) {
	case IO_READ:
		io_prep_pread(cb, e->fd, buf, len, off);
		break;
	case IO_WRITE:
		io_prep_pwrite(cb, e->fd, buf, len, off);
		break;
	case IO_FDATASYNC:
		io_prep_fdsync(cb, e->fd);
		break;
	}
	cb->data = r;
	s->pending[s->npending++] = cb;
	return 0;
}

/* Give the kernel every prepared iocb. 0, or -errno when the context is unusable. */
static int aio_commit(struct engine *e)
{
	struct aio_state *s = e->priv;
	unsigned first = 0;
	while (first < s->npending) {
		int rc = io_submit(s->ctx, (long)(s->npending - first), s->pending + first);
		if (rc == -EINTR)
			continue;
		if (rc == -EAGAIN && s->inflight > 0) {
			/* No room in the kernel now: keep the rest for after the next completions. */
			for (unsigned i = first; i < s->npending; i++)
				s->pending[i - first] = s->pending[i];
			s->npending -= first;
			goto out;
		}
		if (rc > 0) {
			first += (unsigned)rc;
			s->inflight += (unsigned)rc;
			continue;
		}
		if (rc == 0)
			return -EIO; /* the kernel took nothing and said nothing: give up */
		/* The first iocb was refused: settle it here and go on with the rest. */
		struct io_req *r = s->pending[first]->data;
		first++;
		if (rc == -EINVAL && r->kind == IO_FDATASYNC) {
			s->fdsync_unsupported = 1;
			sync_fdatasync(e, s, r);
		} else {
			r->result = rc;
			s->ready[s->nready++] = r;
		}
	}
	s->npending = 0;
out:
	if (s->inflight > e->max_inflight)
		e->max_inflight = s->inflight;
	return 0;
}

static int aio_submit(struct engine *e, struct io_req *r)
{
	r->xfer_done = 0;
	return aio_queue(e, r);
}

static int aio_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max,
		    const struct timespec *timeout)
{
	struct aio_state *s = e->priv;
	unsigned n = 0;
	while (s->nready > 0 && n < max)
		done[n++] = s->ready[--s->nready];
	if (s->npending > 0) {
		int rc = aio_commit(e);
		if (rc < 0)
			return rc;
	}
	while (s->nready > 0 && n < max)
		done[n++] = s->ready[--s->nready];
	if (n >= min && (n == max || s->inflight == 0))
		return (int)n;
	if (s->inflight == 0)
		return (int)n;
	long want = (long)(min > n ? min - n : 0);
	struct timespec ts, *tp = NULL;
	if (timeout) {
		ts = *timeout;
		tp = &ts;
	}
	int rc;
	do
		rc = io_getevents(s->ctx, want, (long)(max - n), s->events, tp);
	while (rc == -EINTR);
	if (rc < 0)
		return n ? (int)n : rc;
	s->inflight -= (unsigned)rc;
	for (int i = 0; i < rc; i++) {
		struct io_req *r = s->events[i].data;
		long res = (long)s->events[i].res;
		if (engine_settle(r, res)) {
			/* Short transfer: continue with the rest; the op completes when all is done. */
			int qrc = aio_queue(e, r);
			if (qrc == 0)
				continue;
			r->result = qrc;
		}
		done[n++] = r;
	}
	/* Continuations of short transfers go out now, not at the next commit. */
	if (s->npending > 0) {
		int crc = aio_commit(e);
		if (crc < 0)
			return n ? (int)n : crc;
		while (s->nready > 0 && n < max)
			done[n++] = s->ready[--s->nready];
	}
	return (int)n;
}

static void aio_cleanup(struct engine *e)
{
	struct aio_state *s = e->priv;
	if (!s)
		return;
	io_destroy(s->ctx);
	free(s->iocbs);
	free(s->events);
	free(s->ready);
	free(s->pending);
	free(s);
	e->priv = NULL;
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.init = aio_init,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
