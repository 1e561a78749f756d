/* run.c - start the workers, wait out the duration, stop, merge. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/run.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/signals.h"
#include "lib/units.h"
#include "measure/merge.h"
#include "measure/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --rate: the longest interval between one thread's ops (over 100 days, the longest run). */
#define RUN_MAX_INTERVAL_NS (1ULL << 60)

/* How long stopped threads get to finish their current operation. */
#define STOP_GRACE_NS (30ULL * 1000000000ULL)

/* How often the waiting thread looks at the target; with --max-ops, whether the workers are done. */
#define LOOK_NS 500000000ULL
#define LOOK_MAX_OPS_NS 50000000ULL
/* How often the progress line is redrawn. */
#define PROGRESS_NS 1000000000ULL

int run_open_flags(const struct op_spec *op, int direct_mode, bool dsync, bool *direct)
{
	bool d = direct_mode == 1 || (direct_mode == -1 && op->kind != OP_WRITE_N);
	*direct = d;
	int flags = O_CLOEXEC | (d ? O_DIRECT : 0);
	switch (op->kind) {
	case OP_READ:
		return flags | O_RDONLY;
	case OP_WRITE_FLUSH:
		return flags | O_WRONLY | (dsync ? O_DSYNC : O_SYNC);
	case OP_MIXED:
		return flags | O_RDWR | (dsync ? O_DSYNC : O_SYNC);
	case OP_WRITE_N:
		break;
	}
	return flags | O_WRONLY;
}

static const char *kind_verb(const struct op_spec *op)
{
	return op->kind == OP_READ ? "reading" : op->kind == OP_MIXED ? "reading and writing" : "writing";
}

/* Why open() failed, in words a user can act on. */
static void explain_open(const struct run_config *cfg, const struct run_op *op, int e, char *err, size_t len)
{
	const char *p = cfg->target->path;
	if (e == EINVAL && op->direct)
		snprintf(err, len, "%s: O_DIRECT not supported by %s; use --no-direct", p,
			 cfg->target->fstype[0] ? cfg->target->fstype : "this filesystem");
	else if (e == EACCES || e == EPERM || e == EROFS)
		snprintf(err, len, "%s: cannot open for %s: %s; check permissions (%s needs %s access)",
			 p, kind_verb(&op->spec), strerror(e), op->spec.name,
			 op->spec.kind == OP_READ ? "read" : "write");
	else
		snprintf(err, len, "%s: cannot open for %s: %s", p, kind_verb(&op->spec), strerror(e));
}

/*
 * --hipri: the same I/O once more through the engine. Whether completions
 * can be polled shows only in a request's result (EOPNOTSUPP), not at setup.
 */
static int preflight_polled(const struct run_config *cfg, struct worker *w, struct io_req *r,
			    char *err, size_t len)
{
	struct io_req *done[1];
	const struct timespec limit = { .tv_sec = 10 };
	int rc = w->eng.ops->submit(&w->eng, r);
	int n = rc < 0 ? rc : w->eng.ops->reap(&w->eng, done, 1, 1, &limit);
	if (n == 1 && r->result >= 0)
		return 0;
	rc = n < 0 ? n : n == 0 ? -ETIMEDOUT : (int)r->result;
	snprintf(err, len, "%s: --hipri: the first polled %s failed: %s; this device or filesystem cannot poll for completions (drop --hipri)",
		 cfg->target->path, r->kind == IO_READ ? "read" : "write", strerror(-rc));
	return rc;
}

/* One preflight transfer, all of it at offset (EINTR retried, short ones continued, as the engines do), or -errno. */
static int preflight_io(int fd, void *buf, size_t len, uint64_t offset, bool write)
{
	if (write)
		return pwrite_full(fd, buf, len, (off_t)offset);
	ssize_t n = pread_full(fd, buf, len, (off_t)offset);
	return n < 0 ? (int)n : (size_t)n < len ? -EIO : 0;
}

int run_preflight(const struct target_info *t, const struct run_op *op, uint64_t span, int fd, void *buf,
		  char *err, size_t errlen)
{
	unsigned dio = t->dio_offset_align ? t->dio_offset_align : 512;
	const struct op_spec *s = &op->spec;
	if (op->direct && (s->size % dio != 0 || s->align % dio != 0)) {
		snprintf(err, errlen, "%s: %s with O_DIRECT needs a size and alignment that are multiples of %u "
			 "(got %llu @ %llu); use such a size and @ALIGN, or --no-direct", t->path, s->name, dio,
			 (unsigned long long)s->size, (unsigned long long)s->align);
		return -EINVAL;
	}
	bool reads = s->kind == OP_READ || s->kind == OP_MIXED, writes = s->kind != OP_READ;
	/* Offset 0 and the second aligned slot: an alignment the device refuses shows at one of them. */
	uint64_t offsets[2] = { 0, s->align };
	size_t noffsets = span >= s->align + s->size ? 2 : 1;
	for (size_t i = 0; i < noffsets; i++) {
		bool write = false;
		int rc = reads ? preflight_io(fd, buf, s->size, offsets[i], false) : 0;
		/* A mixed op writes back what it read: the check changes nothing. */
		if (rc == 0 && writes) {
			write = true;
			/* Not the same bytes twice: no deduplicating or compressing layer may see a repeat. */
			if (i > 0 && !reads)
				for (size_t b = 0; b < s->size; b++)
					((unsigned char *)buf)[b] ^= 0xff;
			rc = preflight_io(fd, buf, s->size, offsets[i], true);
		}
		if (rc == 0)
			continue;
		const char *verb = write ? "write" : "read";
		if (rc == -EINVAL && op->direct)
			snprintf(err, errlen,
				 "%s: O_DIRECT %s of %llu bytes at %llu-byte alignment failed (EINVAL); "
				 "use a size/alignment that is a multiple of %u, or --no-direct",
				 t->path, verb, (unsigned long long)s->size, (unsigned long long)s->align,
				 t->dio_offset_align ? t->dio_offset_align : 4096);
		else if (rc == -EROFS || rc == -EPERM || rc == -EACCES || rc == -EBADF)
			snprintf(err, errlen, "%s: %s cannot write here: %s; %s needs a writable target",
				 t->path, s->name, strerror(-rc), s->name);
		else
			snprintf(err, errlen, "%s: first %s at offset %llu failed: %s", t->path, verb,
				 (unsigned long long)offsets[i], strerror(-rc));
		return rc;
	}
	return 0;
}

static void worker_free(struct worker *w)
{
	if (!w)
		return;
	if (w->raw) {
		raw_buf_free(w->raw);
		free(w->raw);
	}
	if (w->reqs) {
		for (unsigned i = 0; i < w->eng.depth; i++)
			free(w->reqs[i].pool);
		free(w->reqs);
	}
	if (w->eng.ops && w->eng.priv)
		w->eng.ops->cleanup(&w->eng);
	if (w->eng.fd >= 0)
		close(w->eng.fd);
	free(w->buckets);
	free(w->wbuckets);
	free(w);
}

/* The I/O buffers: eng.depth requests, each with its own page-aligned, random-filled buffer. */
static int worker_buffers(struct worker *w, const struct run_config *cfg, const struct run_op *op,
			  char *err, size_t len)
{
	size_t mem_align = cfg->target->dio_mem_align > 4096 ? cfg->target->dio_mem_align : 4096;
	size_t buflen = (op->spec.size + mem_align - 1) / mem_align * mem_align;
	/* Large writes draw from a pool at varying offsets (see WORKER_REFILL_MAX). */
	if (op->spec.kind != OP_READ && op->spec.size > WORKER_REFILL_MAX)
		buflen += WORKER_POOL_EXTRA;
	/* Buffers start random (the preflight write uses one); writes refill them. */
	for (unsigned i = 0; i < w->eng.depth; i++) {
		if (posix_memalign(&w->reqs[i].pool, mem_align, buflen) != 0) {
			w->reqs[i].pool = NULL;
			snprintf(err, len, "out of memory for %llu-byte buffers", (unsigned long long)op->spec.size);
			return -ENOMEM;
		}
		w->reqs[i].buf = w->reqs[i].pool;
		w->reqs[i].pool_len = buflen;
		prng_fill(&w->data_rng, w->reqs[i].pool, buflen);
		w->reqs[i].len = op->spec.size;
		w->reqs[i].slot = i;
	}
	return 0;
}

/* The worker's own descriptor on the target, and its engine on it. */
static int worker_open(struct worker *w, const struct run_config *cfg, const struct run_op *op,
		       char *err, size_t len)
{
	int flags = op->open_flags;
	int fd = open(cfg->target->path, flags | (op->spec.kind == OP_READ ? O_NOATIME : 0));
	if (fd < 0 && errno == EPERM && op->spec.kind == OP_READ)
		fd = open(cfg->target->path, flags);
	if (fd < 0) {
		int e = errno;
		explain_open(cfg, op, e, err, len);
		return -e;
	}
	w->eng.fd = fd;
	w->eng.opts = cfg->engine_opts;
	w->eng.reqs = w->reqs;
	int rc = cfg->engine->init(&w->eng);
	if (rc == -ENOMEM && cfg->engine_opts.register_buffers)
		snprintf(err, len, "engine %s: cannot register %u buffers of %zu bytes: %s (locked memory: ulimit -l); raise the limit or drop --register-buffers",
			 cfg->engine->name, w->eng.depth, w->reqs[0].pool_len, strerror(-rc));
	else if (rc == -EINVAL && (cfg->engine_opts.sqpoll || cfg->engine_opts.hipri))
		snprintf(err, len, "engine %s: the kernel refused %s: %s; drop the option",
			 cfg->engine->name, cfg->engine_opts.sqpoll ? "--sqpoll" : "--hipri", strerror(-rc));
	else if (rc == -EPERM || rc == -ENOSYS)
		snprintf(err, len, "engine %s: %s (disabled by the kernel, a sandbox or sysctl kernel.io_uring_disabled); use --engine sync or libaio",
			 cfg->engine->name, strerror(-rc));
	else if (rc == -EAGAIN && cfg->engine->init_eagain)
		snprintf(err, len, "engine %s: cannot set up %u slots (%s); use a smaller --iodepth or fewer threads",
			 cfg->engine->name, w->eng.depth, cfg->engine->init_eagain);
	else if (rc < 0)
		snprintf(err, len, "engine %s: %s", cfg->engine->name, strerror(-rc));
	return rc;
}

/* Thread op_index of op (global_index among all): its settings, histograms, buffers, descriptor. */
static struct worker *worker_new(const struct run_config *cfg, const struct run_op *op,
				 unsigned nbuckets, size_t global_index, unsigned op_index,
				 char *err, size_t len, int *rc)
{
	struct worker *w = aligned_alloc(64, sizeof(*w));
	if (!w) {
		*rc = -ENOMEM;
		snprintf(err, len, "out of memory");
		return NULL;
	}
	memset(w, 0, sizeof(*w));
	w->eng.fd = -1;
	w->op_copy = op->spec;
	w->op = &w->op_copy;
	w->eng.ops = cfg->engine;
	w->eng.depth = cfg->iodepth ? cfg->iodepth : 1;
	w->nslots = (cfg->span - op->spec.size) / op->spec.align + 1;
	w->max_ops = cfg->max_ops;
	w->bucket_ns = cfg->bucket_ns;
	w->nbuckets = nbuckets;
	hist_init(&w->service);
	if (cfg->rate > 0) {
		/*
		 * In floating point, capped: a slow rate over many threads is an
		 * interval past the run's end (no second op), never an overflow.
		 */
		double interval = 1e9 * run_op_threads(op) / cfg->rate;
		w->rate_interval_ns = interval < 1 ? 1 : interval > RUN_MAX_INTERVAL_NS ? RUN_MAX_INTERVAL_NS : (uint64_t)interval;
		/* Stagger the threads so the op as a whole is evenly spaced. */
		w->rate_phase_ns = (uint64_t)((unsigned __int128)w->rate_interval_ns * op_index / run_op_threads(op));
	}
	prng_seed(&w->rng, cfg->seed, global_index);
	prng_seed(&w->data_rng, cfg->seed ^ RUN_SEED_SALT_DATA, global_index);
	w->buckets = calloc(nbuckets, sizeof(*w->buckets));
	if (op->spec.kind == OP_MIXED)
		w->wbuckets = calloc(nbuckets, sizeof(*w->wbuckets));
	w->reqs = calloc(w->eng.depth, sizeof(*w->reqs));
	if (!w->buckets || !w->reqs || (op->spec.kind == OP_MIXED && !w->wbuckets)) {
		*rc = -ENOMEM;
		snprintf(err, len, "out of memory for %u time buckets; use a longer --bucket", nbuckets);
		goto fail;
	}
	for (unsigned i = 0; i < nbuckets; i++) {
		hist_init(&w->buckets[i]);
		if (w->wbuckets)
			hist_init(&w->wbuckets[i]);
	}
	if (cfg->raw) {
		w->raw = calloc(1, sizeof(*w->raw));
		if (!w->raw || raw_buf_init(w->raw, op->spec.signature, op->spec.kind == OP_MIXED) < 0) {
			*rc = -ENOMEM;
			snprintf(err, len, "out of memory for the --raw log buffers");
			goto fail;
		}
	}
	/* Sequential ops: each thread starts at its own evenly spaced slot and wraps. */
	w->seq_slot = (uint64_t)((unsigned __int128)w->nslots * op_index / run_op_threads(op));
	if (op->thread_count < run_op_threads(op))
		w->delay_factor = (double)run_op_threads(op) / op->thread_count - 1;
	*rc = worker_buffers(w, cfg, op, err, len);
	if (*rc == 0)
		*rc = worker_open(w, cfg, op, err, len);
	if (*rc == 0)
		return w;
fail:
	worker_free(w);
	return NULL;
}

/* What the progress line compares with: each op's operations at the previous look, and when. */
struct progress_prev {
	uint64_t *ops; /* cfg->nops */
	uint64_t at_ns;
};

/*
 * The p99 of an op's threads (ws[k..k+n)) in the last time bucket all of
 * them have moved past (worker.h, bucket_now); -1 before there is one.
 */
static double bucket_p99(struct worker **ws, size_t k, unsigned n)
{
	unsigned past = UINT_MAX;
	for (unsigned j = 0; j < n; j++) {
		unsigned now = atomic_load_explicit(&ws[k + j]->bucket_now, memory_order_acquire);
		if (now < past)
			past = now;
	}
	if (n == 0 || past == 0)
		return -1;
	struct hist h;
	hist_init(&h);
	for (unsigned j = 0; j < n; j++) {
		hist_merge(&h, &ws[k + j]->buckets[past - 1]);
		if (ws[k + j]->wbuckets)
			hist_merge(&h, &ws[k + j]->wbuckets[past - 1]);
	}
	return h.count ? hist_percentile(&h, 0.99) : -1;
}

/*
 * Progress (cfg->status): per op, its IOPS since the last look and the p99
 * of the last time bucket its threads have finished.
 */
static void show_progress(const struct run_config *cfg, struct worker **ws, size_t nw, uint64_t t0, uint64_t now,
			  struct progress_prev *prev)
{
	char text[1024];
	size_t len = 0, k = 0;
	double since = (double)(now - prev->at_ns) / 1e9;
	(void)t0;
	text[0] = '\0';
	for (size_t i = 0; i < cfg->nops; i++) {
		uint64_t ops = 0;
		size_t first = k;
		for (unsigned j = 0; j < run_op_threads(&cfg->ops[i]) && k < nw; j++, k++)
			ops += atomic_load_explicit(&ws[k]->progress, memory_order_relaxed);
		char p99[32] = "-";
		double p = k - first == run_op_threads(&cfg->ops[i]) ? bucket_p99(ws, first, run_op_threads(&cfg->ops[i])) : -1;
		if (p >= 0)
			units_format_ns(p99, sizeof(p99), p);
		if (len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s %.0f IOPS, p99 %s", i ? "; " : "",
						cfg->ops[i].spec.name,
						since > 0 ? (double)(ops - prev->ops[i]) / since : 0, p99);
		prev->ops[i] = ops;
	}
	prev->at_ns = now;
	cfg->status(cfg->status_arg, text);
}

static int wait_loop(const struct run_config *cfg, struct worker **ws, size_t nw, uint64_t t0, uint64_t end,
		     unsigned *stops, struct device_log *devices, uint64_t every, uint64_t next_progress,
		     struct progress_prev *prev);

/*
 * Wait until the deadline, a stop signal or the target's disappearance;
 * returns the signal, -1 when the target is gone, or 0.
 */
static int wait_run(const struct run_config *cfg, struct worker **ws, size_t nw, uint64_t t0, uint64_t end,
		    unsigned *stops, struct device_log *devices)
{
	uint64_t every = cfg->status_ns ? cfg->status_ns : PROGRESS_NS;
	uint64_t next_progress = t0 + every;
	struct progress_prev prev = { .ops = cfg->status ? calloc(cfg->nops, sizeof(uint64_t)) : NULL, .at_ns = t0 };
	int sig = wait_loop(cfg, ws, nw, t0, end, stops, devices, every, next_progress, prev.ops ? &prev : NULL);
	free(prev.ops);
	return sig;
}

/* wait_run()'s loop; prev NULL: no progress. */
static int wait_loop(const struct run_config *cfg, struct worker **ws, size_t nw, uint64_t t0, uint64_t end,
		     unsigned *stops, struct device_log *devices, uint64_t every, uint64_t next_progress,
		     struct progress_prev *prev)
{
	/* The devices are read at each bucket boundary before the end (the end's after the join). */
	size_t bucket = 1;
	uint64_t next_bucket = devices->slots ? t0 + cfg->bucket_ns : UINT64_MAX;
	/* SIGCONT is blocked in every thread of the run (stops_watch()): this wait tells a stop from it. */
	struct signals_stops stopped = { 0 };
	for (;;) {
		uint64_t now = clock_now_ns();
		if (now >= end)
			return 0;
		uint64_t left = end - now;
		uint64_t step = left > LOOK_NS ? LOOK_NS : left;
		/* With an op limit the workers may finish early. */
		if (cfg->max_ops && step > LOOK_MAX_OPS_NS)
			step = LOOK_MAX_OPS_NS;
		if (next_bucket < end && (next_bucket <= now || next_bucket - now < step))
			step = next_bucket > now ? next_bucket - now : 0;
		if (prev && next_progress < end && (next_progress <= now || next_progress - now < step))
			step = next_progress > now ? next_progress - now : 0;
		int sig = signals_wait_stops(cfg->stop_signals, step, &stopped);
		*stops = stopped.count;
		now = clock_now_ns();
		if (next_bucket < end && now >= next_bucket) {
			devices_log_take(devices, bucket, now);
			/* Boundaries slept through (the process was stopped) stay untaken. */
			while (next_bucket <= now) {
				bucket++;
				next_bucket += cfg->bucket_ns;
			}
		}
		if (sig > 0)
			return sig;
		if (!target_still_there(cfg->target))
			return -1;
		now = clock_now_ns();
		if (prev && now >= next_progress) {
			show_progress(cfg, ws, nw, t0, now, prev);
			while (next_progress <= now)
				next_progress += every;
		}
		if (cfg->max_ops) {
			bool all_done = true;
			for (size_t i = 0; i < nw && all_done; i++)
				all_done = atomic_load_explicit(&ws[i]->progress, memory_order_relaxed) >= cfg->max_ops;
			if (all_done)
				return 0;
		}
	}
}

/*
 * What the workers read by pointer: on the heap, not in run_execute()'s
 * frame, because a thread abandoned stuck in I/O outlives the run; it must
 * then find the stop flag set when its call returns, not whatever the next
 * run of a sweep put at that stack address. Freed only when every thread
 * was joined; leaked (with the abandoned workers) otherwise.
 */
struct run_shared {
	atomic_bool stop;
	struct worker_gate gate;   /* the workers wait here; opened when the clock starts */
	bool gate_ready;
	uint64_t t0, end;          /* the clock at the start, and the deadline */
	struct worker **abandoned; /* the workers of abandoned threads (nabandoned), kept with it */
	size_t nabandoned;
	struct run_shared *next;   /* in graveyard */
};

/*
 * The shared state of runs that abandoned threads, kept reachable for the
 * life of the process (so that a leak checker sees it kept, not lost).
 * Only run_execute()'s thread touches it, one run at a time.
 */
static struct run_shared *graveyard;

/*
 * A stopped process (SIGSTOP, ^Z) goes on as if nothing happened, and the
 * operations in flight meanwhile take the whole stop as their latency. The
 * continuation's SIGCONT, blocked from before the threads start so that it
 * waits for the run's own thread instead of going to a worker (which would
 * drop it), lets wait_run() tell a stop (signals_wait_stops()); a SIGCONT
 * alone (`timeout` sends one after its SIGTERM) is no stop. on: block it
 * (old mask to *old) and drop any from before; off: drop any left, restore
 * *old.
 */
static void stops_watch(bool on, sigset_t *old)
{
	sigset_t cont;
	sigemptyset(&cont);
	sigaddset(&cont, SIGCONT);
	if (on)
		pthread_sigmask(SIG_BLOCK, &cont, old);
	struct timespec zero = { 0, 0 };
	while (sigtimedwait(&cont, NULL, &zero) == SIGCONT)
		;
	if (!on)
		pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* One run in progress: its workers and threads, between run_execute()'s steps. */
struct run_state {
	const struct run_config *cfg;
	size_t nw;                 /* worker threads, all ops */
	unsigned nbuckets;         /* time buckets per worker, the extra last one included */
	struct worker **ws;        /* nw; an entry is NULL once its thread is abandoned */
	pthread_t *tids;
	size_t started;            /* threads created */
	struct raw_buf **rawbufs;  /* --raw: each worker's buffer, for the writer thread */
	struct raw_writer *rw;
	struct run_shared *sh;     /* what the worker threads read; see struct run_shared */
	uint64_t user0, sys0;      /* the process's CPU time at the start */
};

/* Refuse, before allocating, runs whose histograms or buffers would not fit. */
static int check_sizes(struct run_state *st, char *err, size_t errlen)
{
	const struct run_config *cfg = st->cfg;
	if ((double)st->nw * st->nbuckets * sizeof(struct hist) > RUN_MAX_HIST_BYTES) {
		snprintf(err, errlen, "%zu threads x %u time buckets need over 2 GB; use a longer --bucket",
			 st->nw, st->nbuckets);
		return -E2BIG;
	}
	/* Refuse giant buffer sets clearly instead of failing (or swapping) halfway. */
	double buffers = 0;
	for (size_t i = 0; i < cfg->nops; i++)
		buffers += (double)run_op_threads(&cfg->ops[i]) * (cfg->iodepth ? cfg->iodepth : 1) * (double)cfg->ops[i].spec.size;
	uint64_t ram = target_ram_bytes();
	if (ram && buffers > (double)ram / RUN_RAM_SHARE_DIVISOR) {
		snprintf(err, errlen, "the I/O buffers would need %.1f GiB (threads x iodepth x op size), over half the RAM; "
			 "use fewer threads, a smaller --iodepth or smaller ops", buffers / 1073741824.0);
		return -E2BIG;
	}
	return 0;
}

/* Every worker with its buffers and its own descriptor on the target, tried once; the --raw writer. */
static int prepare_workers(struct run_state *st, char *err, size_t errlen)
{
	const struct run_config *cfg = st->cfg;
	int rc = 0;
	size_t k = 0;
	for (size_t i = 0; i < cfg->nops && rc == 0; i++) {
		for (unsigned j = 0; j < run_op_threads(&cfg->ops[i]); j++, k++) {
			st->ws[k] = worker_new(cfg, &cfg->ops[i], st->nbuckets, k, j, err, errlen, &rc);
			if (!st->ws[k])
				break;
		}
		if (rc == 0)
			rc = run_preflight(cfg->target, &cfg->ops[i], cfg->span, st->ws[k - 1]->eng.fd,
					   st->ws[k - 1]->reqs[0].buf, err, errlen);
		if (rc == 0 && cfg->engine_opts.hipri) {
			struct worker *w = st->ws[k - 1];
			struct io_req *r = &w->reqs[0];
			enum op_kind kind = cfg->ops[i].spec.kind;
			r->kind = kind == OP_READ || kind == OP_MIXED ? IO_READ : IO_WRITE;
			r->offset = 0;
			rc = preflight_polled(cfg, w, r, err, errlen);
		}
	}
	if (rc != 0 || !cfg->raw)
		return rc;
	st->rawbufs = calloc(st->nw, sizeof(*st->rawbufs));
	if (!st->rawbufs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < st->nw; i++)
		st->rawbufs[i] = st->ws[i]->raw;
	st->rw = raw_writer_start(cfg->raw, st->rawbufs, st->nw);
	if (!st->rw) {
		snprintf(err, errlen, "cannot start the --raw writer thread");
		return -EAGAIN;
	}
	return 0;
}

/*
 * Create the threads; they wait at the gate. On failure the stop flag is
 * set, so that the started ones leave as soon as launch_and_wait() opens it.
 */
static int start_threads(struct run_state *st, char *err, size_t errlen)
{
	struct run_shared *sh = st->sh;
	int e = worker_gate_init(&sh->gate);
	if (e != 0) {
		snprintf(err, errlen, "cannot set up the threads' start: %s", strerror(-e));
		return e;
	}
	sh->gate_ready = true;
	for (size_t i = 0; i < st->nw; i++) {
		st->ws[i]->stop = &sh->stop;
		st->ws[i]->start = &sh->gate;
		st->ws[i]->t0_ns = &sh->t0;
		st->ws[i]->end_ns = &sh->end;
	}
	for (st->started = 0; st->started < st->nw; st->started++) {
		e = pthread_create(&st->tids[st->started], NULL, worker_main, st->ws[st->started]);
		if (e != 0) {
			snprintf(err, errlen, "cannot start thread %zu of %zu: %s; use fewer threads", st->started + 1,
				 st->nw, strerror(e));
			atomic_store(&sh->stop, true);
			return -e;
		}
	}
	return 0;
}

/* Start the clock and the threads together, then wait out the run (rc != 0: end it at once). */
static void launch_and_wait(struct run_state *st, struct run_result *res, int rc)
{
	struct run_shared *sh = st->sh;
	/* Read just before the clock starts: a few microseconds early, never late. */
	devices_log_take(&res->devices, 0, clock_now_ns());
	sh->t0 = clock_now_ns();
	sh->end = rc == 0 ? sh->t0 + st->cfg->duration_ns : sh->t0;
	res->launch_time = time(NULL);
	clock_cpu_ns(RUSAGE_SELF, &st->user0, &st->sys0);
	worker_gate_open(&sh->gate);
	if (rc == 0) {
		int sig = wait_run(st->cfg, st->ws, st->nw, sh->t0, sh->end, &res->stops, &res->devices);
		if (sig > 0) {
			res->interrupted = true;
			res->signal = sig;
		} else if (sig < 0) {
			res->target_lost = true;
		}
	}
	atomic_store(&sh->stop, true);
}

/* Join the threads (abandoning any stuck in I/O) and measure how long the run lasted. */
static void join_threads(struct run_state *st, struct run_result *res)
{
	for (size_t i = 0; i < st->started; i++) {
		struct timespec dl;
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += STOP_GRACE_NS / 1000000000ULL;
		if (pthread_timedjoin_np(st->tids[i], NULL, &dl) != 0) {
			/* Stuck in I/O: leave it; its numbers are not safe to read. */
			res->stuck_threads++;
			pthread_detach(st->tids[i]);
			if (!st->sh->abandoned)
				st->sh->abandoned = calloc(st->nw, sizeof(*st->sh->abandoned));
			if (st->sh->abandoned)
				st->sh->abandoned[st->sh->nabandoned++] = st->ws[i];
			st->ws[i] = NULL;
		}
	}
	/*
	 * The run lasted until its last operation completed, which the
	 * workers saw; this thread notices an early end (an op limit) only
	 * at its next look.
	 */
	uint64_t last = 0;
	if (res->stuck_threads == 0)
		for (size_t i = 0; i < st->started; i++)
			if (st->ws[i]->finished_ns > last)
				last = st->ws[i]->finished_ns;
	devices_log_end(&res->devices, clock_now_ns());
	if (last <= st->sh->t0)
		last = clock_now_ns();
	res->elapsed_s = (double)(last - st->sh->t0) / 1e9;
	/* Every thread, live or joined: the workers and the helpers. */
	clock_cpu_ns(RUSAGE_SELF, &res->cpu_user_ns, &res->cpu_sys_ns);
	res->cpu_user_ns -= st->user0;
	res->cpu_sys_ns -= st->sys0;
	if (st->cfg->status)
		st->cfg->status(st->cfg->status_arg, NULL);
}

/*
 * The --raw writer's last drain. A thread abandoned stuck in I/O may still
 * write to its buffer, and was never joined: its buffer is not touched (a
 * write here raced its next record), its partial chunk given up.
 */
static void finish_raw(struct run_state *st, struct run_result *res)
{
	if (!st->rw)
		return;
	bool *abandoned = res->stuck_threads ? calloc(st->nw, sizeof(*abandoned)) : NULL;
	for (size_t i = 0; abandoned && i < st->nw; i++)
		abandoned[i] = st->ws[i] == NULL;
	/* (no memory for the mask: every buffer drained, as before the mask) */
	res->raw_dropped = raw_writer_finish(st->rw, abandoned);
	free(abandoned);
}

/* Each op's result from its threads. */
static int merge_all(const struct run_state *st, struct run_result *res, char *err, size_t errlen)
{
	size_t k = 0;
	for (size_t i = 0; i < st->cfg->nops; i++) {
		const struct run_op *op = &st->cfg->ops[i];
		if (merge_op(&res->ops[i], &op->spec, st->ws + k, run_op_threads(op), st->nbuckets) < 0) {
			snprintf(err, errlen, "out of memory for the results");
			return -ENOMEM;
		}
		k += run_op_threads(op);
	}
	return 0;
}

static void free_state(struct run_state *st, unsigned stuck_threads)
{
	/* An abandoned thread still holds pointers into sh (its stop flag set): it stays. */
	if (st->sh && stuck_threads == 0) {
		if (st->sh->gate_ready)
			worker_gate_destroy(&st->sh->gate);
		free(st->sh);
	} else if (st->sh) {
		st->sh->next = graveyard;
		graveyard = st->sh;
	}
	for (size_t i = 0; st->ws && i < st->nw; i++)
		worker_free(st->ws[i]);
	free(st->ws);
	free(st->tids);
	free(st->rawbufs);
}

int run_check_buckets(uint64_t duration_ns, uint64_t bucket_ns, char *err, size_t errlen)
{
	/* Tested before dividing by it: a zero --bucket is refused, not a SIGFPE. */
	uint64_t n = bucket_ns ? duration_ns / bucket_ns + (duration_ns % bucket_ns != 0) : 0;
	if (bucket_ns == 0 || n > RUN_MAX_BUCKETS) {
		snprintf(err, errlen, "--duration / --bucket make %llu time buckets, over %d; use a longer --bucket",
			 (unsigned long long)n, RUN_MAX_BUCKETS);
		return -E2BIG;
	}
	return (int)n;
}

int run_execute(const struct run_config *cfg, struct run_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	struct run_state st = { .cfg = cfg };
	for (size_t i = 0; i < cfg->nops; i++)
		st.nw += run_op_threads(&cfg->ops[i]);
	int nbuckets = run_check_buckets(cfg->duration_ns, cfg->bucket_ns, err, errlen);
	if (nbuckets < 0)
		return nbuckets;
	st.nbuckets = (unsigned)nbuckets + 1;
	int rc = check_sizes(&st, err, errlen);
	if (rc != 0)
		return rc;
	/* No room for the readings: the run goes on without them ("devicesNote" says so). */
	if (cfg->devices && cfg->device_stats)
		devices_log_init(&res->devices, cfg->devices, (size_t)nbuckets + 1);
	st.ws = calloc(st.nw, sizeof(*st.ws));
	st.tids = calloc(st.nw, sizeof(*st.tids));
	st.sh = calloc(1, sizeof(*st.sh));
	res->ops = calloc(cfg->nops, sizeof(*res->ops));
	if (!st.ws || !st.tids || !st.sh || !res->ops) {
		free_state(&st, 0);
		free(res->ops);
		res->ops = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	res->nops = cfg->nops;
	sigset_t mask;
	stops_watch(true, &mask); /* before any thread of the run starts, the --raw writer's too */
	rc = prepare_workers(&st, err, errlen);
	if (rc == 0)
		rc = start_threads(&st, err, errlen);
	if (rc == 0 || st.started > 0) {
		launch_and_wait(&st, res, rc);
		join_threads(&st, res);
	}
	stops_watch(false, &mask);
	finish_raw(&st, res);
	if (rc == 0)
		rc = merge_all(&st, res, err, errlen);
	free_state(&st, res->stuck_threads);
	if (rc != 0)
		run_result_free(res);
	return rc;
}

struct output_run run_output_of(const struct run_config *cfg, const struct run_meta *meta)
{
	return (struct output_run){
		.target = cfg->target, .span = cfg->span, .ops = cfg->ops, .nops = cfg->nops,
		.engine = cfg->engine, .engine_opts = cfg->engine_opts, .iodepth = cfg->iodepth ? cfg->iodepth : 1,
		.runtime_ns = cfg->duration_ns, .bucket_ns = cfg->bucket_ns, .max_ops = cfg->max_ops,
		.seed = cfg->seed, .rate = cfg->rate, .raw = cfg->raw != NULL, .devices = cfg->devices,
		.device_stats = cfg->device_stats, .meta = meta,
	};
}
