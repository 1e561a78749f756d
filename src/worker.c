/* worker.c - the hot loop. */
#include "worker.h"

#include <errno.h>
#include <string.h>
#include <time.h>

uint64_t worker_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Give every 512-byte sector of a write buffer fresh random leading bytes,
 * so no two written sectors are alike and deduplication cannot cheat.
 */
static inline void stamp(struct prng *rng, unsigned char *buf, size_t len)
{
	if (len < sizeof(uint64_t)) {
		uint64_t v = prng_next(rng);
		memcpy(buf, &v, len);
		return;
	}
	for (size_t off = 0; off + sizeof(uint64_t) <= len; off += 512) {
		uint64_t v = prng_next(rng);
		memcpy(buf + off, &v, sizeof(v));
	}
}

static void record(struct worker *w, const struct io_req *r, uint64_t now,
		   unsigned *bucket, uint64_t *bucket_end)
{
	while (now >= *bucket_end && *bucket + 1 < w->nbuckets) {
		(*bucket)++;
		*bucket_end += w->bucket_ns;
	}
	struct hist *b = &w->buckets[*bucket];
	if (r->result < 0) {
		hist_record_error(&w->total);
		hist_record_error(b);
		if (w->first_errno == 0) {
			w->first_errno = (int)-r->result;
			w->first_err_offset = (uint64_t)r->offset;
		}
	} else {
		uint64_t ns = now - r->start_ns;
		unsigned k = hist_bucket_of(ns);
		hist_record_in(&w->total, ns, k);
		hist_record_in(b, ns, k);
		w->bytes += r->len;
	}
}

static void pause_for(double ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1e9), .tv_nsec = (long)((uint64_t)ns % 1000000000ULL) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct op_spec *op = w->op;
	const enum io_kind kind = op->kind == OP_READ ? IO_READ : IO_WRITE;
	const bool fsync_n = op->kind == OP_WRITE_N && op->sync_every > 0;
	const unsigned depth = w->eng.depth;
	struct io_req *free_list[WORKER_MAX_DEPTH];
	struct io_req *done[WORKER_MAX_DEPTH];
	unsigned nfree = depth, inflight = 0;
	for (unsigned i = 0; i < depth; i++)
		free_list[i] = &w->reqs[depth - 1 - i];

	pthread_barrier_wait(w->start);
	const uint64_t end = *w->end_ns;
	uint64_t bucket_end = *w->t0_ns + w->bucket_ns;
	unsigned bucket = 0;
	uint64_t issued = 0, completed = 0;
	bool stopping = false;

	for (;;) {
		while (!stopping && nfree > 0) {
			uint64_t t = worker_now_ns();
			if (t >= end || (w->max_ops && issued >= w->max_ops) ||
			    atomic_load_explicit(w->stop, memory_order_relaxed)) {
				stopping = true;
				break;
			}
			struct io_req *r = free_list[--nfree];
			r->kind = kind;
			r->offset = (off_t)(prng_below(&w->rng, w->nslots) * op->align);
			r->sync_pending = fsync_n && prng_below(&w->rng, op->sync_every) == 0;
			if (kind == IO_WRITE)
				stamp(&w->rng, r->buf, r->len);
			r->start_ns = worker_now_ns();
			int rc = w->eng.ops->submit(&w->eng, r);
			issued++;
			if (rc < 0) {
				r->result = rc;
				record(w, r, r->start_ns, &bucket, &bucket_end);
				free_list[nfree++] = r;
				continue;
			}
			inflight++;
		}
		if (inflight == 0)
			break;
		int n = w->eng.ops->reap(&w->eng, done, 1, inflight);
		uint64_t t = worker_now_ns();
		if (n < 0) {
			/* The engine itself failed: what is in flight is lost; count it and stop. */
			for (unsigned i = 0; i < inflight; i++)
				hist_record_error(&w->total);
			if (w->first_errno == 0)
				w->first_errno = -n;
			break;
		}
		for (int i = 0; i < n; i++) {
			struct io_req *r = done[i];
			if (r->kind == IO_WRITE && r->result >= 0 && r->sync_pending) {
				/* The study's write4k/64: the fdatasync is part of the operation's time. */
				r->kind = IO_FDATASYNC;
				r->sync_pending = 0;
				w->fdatasyncs++;
				int rc = w->eng.ops->submit(&w->eng, r);
				if (rc == 0)
					continue;
				r->result = rc;
			}
			if (r->kind == IO_FDATASYNC) {
				r->kind = IO_WRITE;
				if (r->result == 0)
					r->result = (int64_t)r->len;
			}
			inflight--;
			record(w, r, t, &bucket, &bucket_end);
			free_list[nfree++] = r;
			atomic_store_explicit(&w->progress, ++completed, memory_order_relaxed);
			if (w->delay_factor > 0)
				pause_for((double)(t - r->start_ns) * w->delay_factor);
		}
	}
	return NULL;
}
