/*
 * SPDX-License-Identifier: Apache-2.0
 * sync.c - the study's method: pread/pwrite/fdatasync, one at a time.
 *
 * submit() performs the call; reap() hands back what submit() finished.
 * EINTR is retried and short transfers are continued, so a request reports
 * either all of len or an error, never a partial success.
 */
#include "engines/engine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

struct sync_state {
	struct io_req **done;
	unsigned ndone;
};

static int sync_init(struct engine *e)
{
	struct sync_state *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->done = calloc(e->depth ? e->depth : 1, sizeof(*s->done));
	if (!s->done) {
		free(s);
		return -ENOMEM;
	}
	e->priv = s;
	return 0;
}

/*
 * The system calls themselves: glibc's pread and pwrite are cancellation
 * points and wrap every call in two cancellation-state switches, which
 * iobench's threads (never cancelled) do not need; syscall() skips them.
 */
static ssize_t sys_pread(int fd, void *buf, size_t len, off_t off)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, len, off);
}

static ssize_t sys_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return (ssize_t)syscall(SYS_pwrite64, fd, buf, len, off);
}

static int64_t transfer(int fd, struct io_req *r)
{
	size_t done = 0;
	char *buf = r->buf;
	while (done < r->len) {
		ssize_t n = r->kind == IO_READ
				    ? sys_pread(fd, buf + done, r->len - done, r->offset + (off_t)done)
				    : sys_pwrite(fd, buf + done, r->len - done, r->offset + (off_t)done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO; /* end of file or device inside the target: not a full transfer */
		done += (size_t)n;
	}
	return (int64_t)done;
}

static int sync_submit(struct engine *e, struct io_req *r)
{
	struct sync_state *s = e->priv;
	if (s->ndone >= (e->depth ? e->depth : 1))
		return -EAGAIN;
	r->result = r->kind == IO_FDATASYNC ? engine_fdatasync(e->fd) : transfer(e->fd, r);
	s->done[s->ndone++] = r;
	if (s->ndone > e->max_inflight)
		e->max_inflight = s->ndone;
	return 0;
}

static int sync_reap(struct engine *e, struct io_req **done, unsigned min, unsigned max,
		     const struct timespec *timeout)
{
	struct sync_state *s = e->priv;
	(void)min;
	(void)timeout;
	unsigned n = s->ndone < max ? s->ndone : max;
	for (unsigned i = 0; i < n; i++)
		done[i] = s->done[i];
	for (unsigned i = n; i < s->ndone; i++)
		s->done[i - n] = s->done[i];
	s->ndone -= n;
	return (int)n;
}

static void sync_cleanup(struct engine *e)
{
	struct sync_state *s = e->priv;
	if (s) {
		free(s->done);
		free(s);
	}
	e->priv = NULL;
}

const struct engine_ops engine_sync_ops = {
	.name = "sync",
	.caps = 0,
	.init = sync_init,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = sync_cleanup,
};
