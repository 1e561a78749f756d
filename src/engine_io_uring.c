/*
 * engine_io_uring.c - io_uring through liburing, with a queue depth.
 * fdatasync is IORING_OP_FSYNC with IORING_FSYNC_DATASYNC, on the ring.
 * Built only when configure found liburing.
 */
#ifdef HAVE_LIBURING
#include "engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

struct uring_state {
	struct io_uring ring;
	unsigned inflight;
};

static int uring_init(struct engine *e)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	int rc = io_uring_queue_init(e->depth, &s->ring, 0);
	if (rc < 0) {
		free(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

/* Queue r from byte r->xfer_done on (a short completion continues where it stopped). */
static int uring_queue(struct engine *e, struct io_req *r)
{
	struct uring_state *s = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return -EAGAIN;
	char *buf = (char *)r->buf + r->xfer_done;
	unsigned len = (unsigned)(r->len - r->xfer_done);
	uint64_t off = (uint64_t)r->offset + r->xfer_done;
	switch (r->kind) {
	case IO_READ:
		io_uring_prep_read(sqe, e->fd, buf, len, off);
		break;
	case IO_WRITE:
		io_uring_prep_write(sqe, e->fd, buf, len, off);
		break;
	case IO_FDATASYNC:
		io_uring_prep_fsync(sqe, e->fd, IORING_FSYNC_DATASYNC);
		break;
	}
	io_uring_sqe_set_data(sqe, r);
	int rc;
	do
		rc = io_uring_submit(&s->ring);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	s->inflight++;
	if (s->inflight > e->max_inflight)
		e->max_inflight = s->inflight;
	return 0;
}

static int uring_submit(struct engine *e, struct io_req *r)
{
	r->xfer_done = 0;
	return uring_queue(e, r);
}

static int uring_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max,
		      const struct timespec *timeout)
{
	struct uring_state *s = e->priv;
	unsigned n = 0;
	while (n < max && s->inflight > 0) {
		struct io_uring_cqe *cqe;
		int rc;
		if (n >= min) {
			rc = io_uring_peek_cqe(&s->ring, &cqe);
			if (rc == -EAGAIN)
				break;
		} else if (timeout) {
			struct __kernel_timespec kts = { .tv_sec = timeout->tv_sec, .tv_nsec = timeout->tv_nsec };
			rc = io_uring_wait_cqe_timeout(&s->ring, &cqe, &kts);
			if (rc == -ETIME)
				break;
		} else {
			rc = io_uring_wait_cqe(&s->ring, &cqe);
		}
		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return n ? (int)n : rc;
		struct io_req *r = io_uring_cqe_get_data(cqe);
		int res = cqe->res;
		io_uring_cqe_seen(&s->ring, cqe);
		s->inflight--;
		if (engine_settle(r, res)) {
			/* Short transfer: continue with the rest; the op completes when all is done. */
			int qrc = uring_queue(e, r);
			if (qrc == 0)
				continue;
			r->result = qrc;
		}
		done[n++] = r;
	}
	return (int)n;
}

static void uring_cleanup(struct engine *e)
{
	struct uring_state *s = e->priv;
	if (!s)
		return;
	io_uring_queue_exit(&s->ring);
	free(s);
	e->priv = NULL;
}

const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
#else
/* ISO C wants something in every translation unit. */
typedef int engine_io_uring_not_built;
#endif
