/*
 * SPDX-License-Identifier: Apache-2.0
 * engine.h - one interface for every way of submitting I/O.
 *
 * The worker loop queues requests with submit() and collects them with
 * reap(); it never knows which engine runs underneath. Callers ask what an
 * engine can do (engine_can) and never compare its name. A new engine is
 * one new file with a struct engine_ops, its extern declaration below and
 * a row in engines[] (engine.c), which engine_find() and engine_names()
 * read.
 *
 * An engine instance belongs to one thread: nothing here is thread-safe,
 * and nothing is meant to be.
 */
#ifndef IOBENCH_ENGINES_ENGINE_H
#define IOBENCH_ENGINES_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

enum io_kind { IO_READ, IO_WRITE, IO_FDATASYNC };

struct io_req {
	enum io_kind kind;
	off_t offset;
	size_t len;
	void *buf;
	int64_t result;     /* set on completion: bytes transferred, or -errno */
	uint64_t start_ns;  /* worker's bookkeeping: when the operation began (or was due, at --rate) */
	uint64_t issue_ns;  /* worker's bookkeeping: when it was actually submitted */
	unsigned slot;      /* worker's bookkeeping: which in-flight slot */
	int sync_pending;   /* worker's bookkeeping: an fdatasync follows this write */
	uint64_t write_done_ns; /* worker's bookkeeping: when the write of a synced op completed; 0 before */
	size_t xfer_done;   /* engine's bookkeeping: bytes done by earlier partial completions */
	void *pool;         /* worker's bookkeeping: the allocation buf points into */
	size_t pool_len;    /* worker's bookkeeping: bytes at pool (buf + len never passes pool + pool_len) */
};

/*
 * How the io_uring engine talks to the kernel (--batch, --register-files,
 * --register-buffers, --sqpoll, --hipri); the other engines take none. All
 * zero is the default: each request goes to the kernel as its slot frees,
 * as fio does by default.
 */
struct engine_opts {
	unsigned batch;         /* requests queued before one call submits them all; 0 or 1: each at once */
	bool register_files;    /* the fd registered with the ring (IOSQE_FIXED_FILE) */
	bool register_buffers;  /* the requests' buffers registered (READ_FIXED, WRITE_FIXED) */
	bool sqpoll;            /* a kernel thread takes requests off the ring (IORING_SETUP_SQPOLL) */
	bool hipri;             /* completions polled, not interrupt-driven (IORING_SETUP_IOPOLL; O_DIRECT only) */
};

/* What an engine can do: callers ask (engine_can), never compare names. */
enum engine_cap {
	ENGINE_CAP_QUEUE = 1u << 0,            /* more than one request in flight per thread (--iodepth) */
	ENGINE_CAP_BATCH = 1u << 1,            /* requests held and submitted together (opts.batch) */
	ENGINE_CAP_REGISTER_FILES = 1u << 2,   /* the fd registered once (opts.register_files) */
	ENGINE_CAP_REGISTER_BUFFERS = 1u << 3, /* the buffers registered once (opts.register_buffers) */
	ENGINE_CAP_SQPOLL = 1u << 4,           /* a kernel thread submits (opts.sqpoll) */
	ENGINE_CAP_POLL = 1u << 5,             /* completions polled for (opts.hipri) */
};

/* The capabilities struct engine_opts asks for: an engine with none of them takes no options. */
#define ENGINE_CAPS_OPTIONS \
	(ENGINE_CAP_BATCH | ENGINE_CAP_REGISTER_FILES | ENGINE_CAP_REGISTER_BUFFERS | ENGINE_CAP_SQPOLL | ENGINE_CAP_POLL)

struct engine;

struct engine_ops {
	const char *name;
	unsigned caps;       /* enum engine_cap, or'ed */
	/*
	 * Why this build lacks the engine and what to do ("built without
	 * liburing; ..."): its row then has no hooks and engine_find() does
	 * not return it. NULL for an engine built in.
	 */
	const char *missing;
	/* What -EAGAIN from init() means for this engine ("fs.aio-max-nr reached"); NULL: nothing in particular. */
	const char *init_eagain;
	/*
	 * Prepare for up to depth requests in flight on fd, with e->opts;
	 * e->reqs (depth of them) hold the buffers it may register. 0 or
	 * -errno (-ENOMEM for buffers beyond the locked-memory limit too).
	 */
	int (*init)(struct engine *e);
	/*
	 * Queue one request (the engine may start it at once, or hold it for
	 * a batch: reap() then sends it before it waits). 0 or -errno
	 * (-EAGAIN: queue full). A synchronous engine completes it here.
	 */
	int (*submit)(struct engine *e, struct io_req *req);
	/*
	 * Wait for at least min completions (min <= requests in flight), store
	 * up to max in done[]. With a timeout (relative), return what completed
	 * when it expires (possibly 0). Returns the count or -errno. A read or
	 * write reports all of len transferred, or result < 0 (a short transfer
	 * the engine cannot continue is -EIO, never a success).
	 */
	int (*reap)(struct engine *e, struct io_req **done, unsigned min, unsigned max,
		    const struct timespec *timeout);
	/* Release what init() took. The fd is the caller's. */
	void (*cleanup)(struct engine *e);
};

struct engine {
	const struct engine_ops *ops;
	int fd;
	unsigned depth;
	struct engine_opts opts;
	const struct io_req *reqs; /* the depth requests submit() will be given, for init() */
	void *priv;         /* the engine's own state */
	unsigned long sync_fallbacks; /* fdatasyncs done synchronously because the engine could not */
	unsigned max_inflight;        /* most requests the engine held at once */
};

/*
 * For the asynchronous engines: settle a completion of res bytes (or
 * -errno). Returns true when r was a short transfer that the engine should
 * queue again from r->xfer_done (already advanced); otherwise sets
 * r->result (the full length, 0 for fdatasync, or -errno; a read or write
 * that moved nothing is -EIO) and returns false.
 */
bool engine_settle(struct io_req *r, long res);

/* fdatasync(fd), retried on EINTR: 0 or -errno. For engines that sync synchronously. */
int engine_fdatasync(int fd);

/* The ops table for name ("sync"), or NULL when unknown or not built in. */
const struct engine_ops *engine_find(const char *name);

/*
 * The engine used when none is named: the first row, synchronous (no
 * ENGINE_CAP_QUEUE: one request at a time, as watch's probes need) and
 * needing nothing of the kernel.
 */
const struct engine_ops *engine_default(void);

/* Whether e can do all of caps (enum engine_cap, or'ed). */
bool engine_can(const struct engine_ops *e, unsigned caps);

/* The first engine, built in or not, that can do all of caps, for a hint ("add -e io_uring"); NULL if none. */
const struct engine_ops *engine_with(unsigned caps);

/* Comma-separated names of the engines built in ("sync, libaio, io_uring"), for errors. */
const char *engine_names(void);

/* Why a known engine is missing from this build (NULL if it is built in or unknown). */
const char *engine_missing_reason(const char *name);

extern const struct engine_ops engine_sync_ops;
extern const struct engine_ops engine_libaio_ops;
extern const struct engine_ops engine_io_uring_ops; /* its missing is set when built without liburing */

#endif
