/*
 * SPDX-License-Identifier: Apache-2.0
 * libaio.c - Linux native AIO (io_submit/io_getevents) with a queue
 * depth. Meant for O_DIRECT; on buffered files the kernel may complete
 * submissions synchronously, which is what the numbers then show.
 *
 * fdatasync goes through IOCB_CMD_FDSYNC where the filesystem supports it;
 * otherwise (EINVAL) it is done synchronously and counted in
 * e->sync_fallbacks.
 */
#include "engines/engine.h"

#include <errno.h>
#include <libaio.h>
#include <stdlib.h>

struct aio_state {
	io_context_t ctx;
	struct iocb *iocbs;         /* one per request slot */
	struct io_event *events;
	struct io_req **ready;      /* completed without the kernel (sync fallback) */
	unsigned nready;
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
	int rc = -ENOMEM;
	if (s->iocbs && s->events && s->ready)
		rc = io_setup((int)e->depth, &s->ctx);
	if (rc < 0) {
		free(s->iocbs);
		free(s->events);
		free(s->ready);
		free(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

static void sync_fdatasync(struct engine *e, struct aio_state *s, struct io_req *r)
{
	r->result = engine_fdatasync(e->fd);
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
	struct iocb *list[1] = { cb };
	int rc;
	do
		rc = io_submit(s->ctx, 1, list);
	while (rc == -EINTR);
	if (rc == -EINVAL && r->kind == IO_FDATASYNC) {
		s->fdsync_unsupported = 1;
		sync_fdatasync(e, s, r);
		return 0;
	}
	if (rc < 0)
		return rc;
	if (rc == 0)
		return -EAGAIN;
	s->inflight++;
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
	free(s);
	e->priv = NULL;
}

const struct engine_ops engine_libaio_ops = {
	.name = "libaio",
	.caps = ENGINE_CAP_QUEUE,
	.init_eagain = "fs.aio-max-nr reached",
	.init = aio_init,
	.submit = aio_submit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
