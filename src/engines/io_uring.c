/*
 * SPDX-License-Identifier: Apache-2.0
 * io_uring.c - io_uring through liburing, with a queue depth.
 * fdatasync is IORING_OP_FSYNC with IORING_FSYNC_DATASYNC, on the ring.
 * Built only when configure found liburing.
 *
 * By default each request goes to the kernel as its slot frees, one
 * io_uring_enter each, as fio does by default. The options (engine.h):
 *   batch N           requests wait in the submission queue until N are
 *                     there, or until the worker waits for completions;
 *                     then one io_uring_enter submits them (and, when the
 *                     worker waits, also waits: one call for both). A
 *                     cached read completes inside that call, so N reads
 *                     cost one system call instead of N.
 *   register_files    the fd is registered once: no file lookup per request.
 *   register_buffers  the buffers are registered (pinned) once: READ_FIXED
 *                     and WRITE_FIXED skip mapping them on every request.
 *   sqpoll            a kernel thread takes requests off the ring; while it
 *                     is awake submitting needs no system call. Its CPU
 *                     time is the process's (the run's cpu figures).
 *   hipri             IORING_SETUP_IOPOLL: completions are polled for, on
 *                     devices with poll queues, O_DIRECT only.
 * (Registering the ring's own fd, or a single-issuer ring, would have to
 * happen on the worker's thread, not where init() runs; measured with
 * bench/uring-floor.c they changed nothing here, so neither is done.)
 */
/* What io_uring can do, built in or not. */
#define URING_CAPS \
	(ENGINE_CAP_QUEUE | ENGINE_CAP_BATCH | ENGINE_CAP_REGISTER_FILES | ENGINE_CAP_REGISTER_BUFFERS | \
	 ENGINE_CAP_SQPOLL | ENGINE_CAP_POLL)

#ifdef HAVE_LIBURING
#include "engines/engine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/uio.h>

/* How long the SQPOLL thread spins after the last request before it sleeps. */
#define SQPOLL_IDLE_MS 50
/*
 * How many times a waiting worker looks at the completion ring before it
 * sleeps: a count, not a time (each look is a few loads; how long 20,000 of
 * them take depends on the CPU, from a few to some tens of microseconds).
 */
#define SQPOLL_SPIN 20000u

struct uring_state {
	struct io_uring ring;
	unsigned inflight;  /* queued and not yet reaped */
	unsigned pending;   /* queued since the last call that submitted */
	unsigned batch;     /* submit once this many are pending */
	int fd;             /* what a request names: e->fd, or 0, the registered file's index */
	unsigned sqe_flags; /* IOSQE_FIXED_FILE with a registered file */
	bool fixed_bufs;    /* READ_FIXED/WRITE_FIXED: buffer index = the request's slot */
	bool sqpoll;        /* a kernel thread submits: wait by spinning on the ring first */
};

/* Every request's whole allocation (pool, pool_len) as one registered buffer, index = slot. */
static int register_buffers(struct engine *e, struct uring_state *s)
{
	struct iovec *iov = calloc(e->depth, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	for (unsigned i = 0; i < e->depth; i++) {
		iov[e->reqs[i].slot].iov_base = e->reqs[i].pool;
		iov[e->reqs[i].slot].iov_len = e->reqs[i].pool_len;
	}
	int rc = io_uring_register_buffers(&s->ring, iov, e->depth);
	free(iov);
	return rc;
}

static int uring_init(struct engine *e)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	struct io_uring_params p = { 0 };
	if (e->opts.sqpoll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = SQPOLL_IDLE_MS;
	}
	if (e->opts.hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	int rc = io_uring_queue_init_params(e->depth, &s->ring, &p);
	if (rc < 0) {
		free(s);
		return rc;
	}
	s->batch = e->opts.batch > 1 ? e->opts.batch : 1;
	s->fd = e->fd;
	s->sqpoll = e->opts.sqpoll;
	if (e->opts.register_files) {
		rc = io_uring_register_files(&s->ring, &e->fd, 1);
		s->fd = 0;
		s->sqe_flags = IOSQE_FIXED_FILE;
	}
	if (rc >= 0 && e->opts.register_buffers) {
		rc = register_buffers(e, s);
		s->fixed_bufs = true;
	}
	if (rc < 0) {
		io_uring_queue_exit(&s->ring);
		free(s);
		return rc;
	}
	e->priv = s;
	return 0;
}

/* Hand what is queued to the kernel (without waiting). 0 or -errno. */
static int uring_flush(struct uring_state *s)
{
	int rc;
	do
		rc = io_uring_submit(&s->ring);
	while (rc == -EINTR);
	if (rc < 0)
		return rc;
	s->pending = 0;
	return 0;
}

/* A free submission queue entry. Only with SQPOLL can it be full: the kernel thread may post
 * completions before it marks their entries consumed. */
static int sqe_get(struct uring_state *s, struct io_uring_sqe **sqe)
{
	while (!(*sqe = io_uring_get_sqe(&s->ring))) {
		int rc = io_uring_sqring_wait(&s->ring);
		if (rc < 0 && rc != -EINTR)
			return rc;
	}
	return 0;
}

/* Queue r from byte r->xfer_done on (a short completion continues where it stopped). */
static int uring_queue(struct engine *e, struct io_req *r)
{
	struct uring_state *s = e->priv;
	struct io_uring_sqe *sqe;
	int rc = sqe_get(s, &sqe);
	if (rc < 0)
		return rc;
	char *buf = (char *)r->buf + r->xfer_done;
	unsigned len = (unsigned)(r->len - r->xfer_done);
	uint64_t off = (uint64_t)r->offset + r->xfer_done;
	switch (r->kind) {
	case IO_READ:
		if (s->fixed_bufs)
			io_uring_prep_read_fixed(sqe, s->fd, buf, len, off, (int)r->slot);
		else
			io_uring_prep_read(sqe, s->fd, buf, len, off);
		break;
	case IO_WRITE:
		if (s->fixed_bufs)
			io_uring_prep_write_fixed(sqe, s->fd, buf, len, off, (int)r->slot);
		else
			io_uring_prep_write(sqe, s->fd, buf, len, off);
		break;
	case IO_FDATASYNC:
		io_uring_prep_fsync(sqe, s->fd, IORING_FSYNC_DATASYNC);
		break;
	}
	sqe->flags |= (unsigned char)s->sqe_flags;
	io_uring_sqe_set_data(sqe, r);
	s->inflight++;
	s->pending++;
	if (s->inflight > e->max_inflight)
		e->max_inflight = s->inflight;
	/*
	 * Batching: submit a full batch, except when the queue is full: the
	 * worker then reaps next, and reap submits and waits in one call.
	 * The request is queued either way: if the kernel refuses the call,
	 * the next one carries it, and reap() reports a lasting failure.
	 */
	if (s->batch == 1 || (s->pending >= s->batch && s->inflight < e->depth))
		(void)uring_flush(s);
	return 0;
}

static int uring_submit(struct engine *e, struct io_req *r)
{
	r->xfer_done = 0;
	return uring_queue(e, r);
}

/* Submit what is pending and wait for one completion (or the timeout: -ETIME), in one call. */
static int uring_wait(struct uring_state *s, struct io_uring_cqe **cqe, const struct timespec *timeout)
{
	struct __kernel_timespec kts, *tp = NULL;
	if (timeout) {
		kts.tv_sec = timeout->tv_sec;
		kts.tv_nsec = timeout->tv_nsec;
		tp = &kts;
	}
	if (s->sqpoll) {
		/*
		 * The kernel thread completes requests while this one runs:
		 * sleeping in io_uring_enter for each would cost a wakeup (an
		 * interrupt between CPUs, dear in a VM) per completion, 5-20x
		 * slower here. Spin on the completion ring first, as fio's
		 * t/io_uring does, and sleep only when nothing comes for a while.
		 */
		int rc = io_uring_submit(&s->ring);
		s->pending = 0;
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			return rc;
		for (unsigned spin = 0; spin < SQPOLL_SPIN; spin++) {
			if (io_uring_peek_cqe(&s->ring, cqe) == 0)
				return 0;
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		}
	}
	int rc = io_uring_submit_and_wait_timeout(&s->ring, cqe, 1, tp, NULL);
	/* Whatever was pending is in the kernel's queue now (a failed enter leaves it there for the next). */
	s->pending = 0;
	return rc < 0 ? rc : 0;
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
		} else {
			rc = uring_wait(s, &cqe, timeout);
			if (rc == -ETIME)
				break;
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
	/* Requests queued again while reaping (short transfers) go now; a failed call leaves them for the next. */
	if (s->pending > 0)
		(void)uring_flush(s);
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
	.caps = URING_CAPS,
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
#else
#include "engines/engine.h"

/* Named, so that an io_uring option says which engine it needs, and -e io_uring why it is missing. */
const struct engine_ops engine_io_uring_ops = {
	.name = "io_uring",
	.caps = URING_CAPS,
	.missing = "this iobench was built without liburing; install liburing-dev and rerun ./configure && make",
};
#endif
