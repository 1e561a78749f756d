/* worker.c - the hot loop. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/worker.h"
#include "lib/clock.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/prctl.h>
#include <string.h>
#include <time.h>

/*
 * Open loop needs ops to leave on time: sleep to just before the due time
 * (timer slack is set to 1 ns for the thread), then spin the last stretch.
 */
#define SPIN_NS 30000ULL

/* The longest sleep between looks at the stop flag. */
#define NAP_NS 20000000ULL

/* Sleep until the clock reads until, or the stop flag is set (seen within NAP_NS). */
static void nap_until(const struct worker *w, uint64_t until)
{
	for (uint64_t now = clock_now_ns(); now < until; now = clock_now_ns()) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed))
			return;
		clock_sleep_until(until - now > NAP_NS ? now + NAP_NS : until);
	}
}

static void sleep_until_due(const struct worker *w, uint64_t due)
{
	if (due > SPIN_NS)
		nap_until(w, due - SPIN_NS);
	while (clock_now_ns() < due && !atomic_load_explicit(w->stop, memory_order_relaxed))
		;
}

/*
 * Fresh data for a write, before the clock starts (see WORKER_REFILL_MAX):
 * small writes are regenerated whole; large ones move to a random 4 KiB-
 * aligned place in their pool and every 512-byte sector gets a new stamp.
 */
static void fresh_data(struct worker *w, struct io_req *r)
{
	if (r->len <= WORKER_REFILL_MAX) {
		prng_fill(&w->data_rng, r->buf, r->len);
		return;
	}
	size_t off = (size_t)prng_below(&w->data_rng, WORKER_POOL_EXTRA / 4096 + 1) * 4096;
	unsigned char *p = (unsigned char *)r->pool + off;
	for (size_t s = 0; s + sizeof(uint64_t) <= r->len; s += 512) {
		uint64_t v = prng_next(&w->data_rng);
		memcpy(p + s, &v, sizeof(v));
	}
	r->buf = p;
}

/*
 * An op that syncs, its write and its fdatasync apart: every op goes into
 * write_only, timed to the end of its write (the op's own time when no
 * fdatasync followed), and a synced op's fdatasync into sync. No clock is
 * read for this: the write's end is the reading taken when it was reaped.
 */
static void record_split(struct worker *w, const struct io_req *r, uint64_t now, uint64_t ns, unsigned k)
{
	if (r->write_done_ns == 0) {
		hist_record_in(&w->write_only, ns, k);
		return;
	}
	hist_record(&w->write_only, r->write_done_ns - r->start_ns);
	hist_record(&w->sync, now - r->write_done_ns);
}

static void record(struct worker *w, const struct io_req *r, uint64_t now, bool split,
		   unsigned *bucket, uint64_t *bucket_end)
{
	if (w->raw) {
		struct raw_rec rec = { .offset = (uint64_t)r->offset, .end_ns = now - *w->t0_ns,
				       .dur_ns = now - r->start_ns, .len = (uint32_t)r->len,
				       .err = r->result < 0 ? (int32_t)-r->result : 0,
				       .is_write = r->kind == IO_WRITE };
		raw_add(w->raw, &rec);
	}
	while (now >= *bucket_end && *bucket + 1 < w->nbuckets) {
		(*bucket)++;
		*bucket_end += w->bucket_ns;
		atomic_store_explicit(&w->bucket_now, *bucket, memory_order_release);
	}
	struct hist *b = r->kind == IO_WRITE && w->wbuckets ? &w->wbuckets[*bucket] : &w->buckets[*bucket];
	if (r->result < 0) {
		hist_record_error(b);
		if (split) {
			hist_record_error(&w->write_only);
			if (r->write_done_ns)
				hist_record_error(&w->sync);
		}
		if (w->rate_interval_ns)
			hist_record_error(&w->service);
		if (w->first_errno == 0) {
			w->first_errno = (int)-r->result;
			w->first_err_offset = (uint64_t)r->offset;
		}
		return;
	}
	uint64_t ns = now - r->start_ns;
	unsigned k = hist_bucket_of(ns);
	hist_record_in(b, ns, k);
	if (split)
		record_split(w, r, now, ns, k);
	w->bytes += r->len;
	if (w->wbuckets && r->kind == IO_READ)
		w->rbytes += r->len;
	if (w->rate_interval_ns)
		hist_record(&w->service, now - r->issue_ns);
}

/*
 * The engine itself failed (reap < 0): every request still in flight, a
 * slot not in free_list, is lost. Each is counted as a failed op where its
 * completion would have been (its kind's buckets, write_only and sync,
 * service), as record() counts any error. Off the hot path.
 */
static void record_lost(struct worker *w, struct io_req *const *free_list, unsigned nfree, int err, uint64_t now,
			bool split, unsigned *bucket, uint64_t *bucket_end)
{
	for (unsigned i = 0; i < w->eng.depth; i++) {
		struct io_req *r = &w->reqs[i];
		bool idle = false;
		for (unsigned j = 0; j < nfree && !idle; j++)
			idle = free_list[j] == r;
		if (idle)
			continue;
		if (r->kind == IO_FDATASYNC)
			r->kind = IO_WRITE; /* its write done (write_done_ns), its fdatasync lost */
		r->result = err;
		record(w, r, now, split, bucket, bucket_end);
	}
}

int worker_gate_init(struct worker_gate *g)
{
	g->opened = false;
	int e = pthread_mutex_init(&g->lock, NULL);
	if (e != 0)
		return -e;
	e = pthread_cond_init(&g->opened_cond, NULL);
	if (e != 0) {
		pthread_mutex_destroy(&g->lock);
		return -e;
	}
	return 0;
}

void worker_gate_open(struct worker_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->opened = true;
	pthread_cond_broadcast(&g->opened_cond);
	pthread_mutex_unlock(&g->lock);
}

void worker_gate_wait(struct worker_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (!g->opened)
		pthread_cond_wait(&g->opened_cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void worker_gate_destroy(struct worker_gate *g)
{
	pthread_cond_destroy(&g->opened_cond);
	pthread_mutex_destroy(&g->lock);
}

/* Fractional threads: idle for ns, but not past the run's end or a stop. */
static void pause_for(const struct worker *w, double ns, uint64_t end)
{
	uint64_t now = clock_now_ns();
	if (now >= end)
		return;
	nap_until(w, ns < (double)(end - now) ? now + (uint64_t)ns : end);
}

/*
 * One long function on purpose: this is the hot loop, and kept whole it
 * reads top to bottom as everything one operation costs (stop checks,
 * open-loop pacing, offset and data, submit, reap, the fdatasync of a /N
 * write, record), with its loop state (free slots, requests in flight,
 * current bucket, the last clock reading) in locals rather than passed
 * around by pointer. record() and fresh_data() hold what could leave it.
 * Its cost is measured by bench/ (vs-fio, floor.c), not guessed.
 */
void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct op_spec *op = w->op;
	const enum io_kind kind = op->kind == OP_READ ? IO_READ : IO_WRITE;
	const bool fsync_n = op->kind == OP_WRITE_N && op->sync_every > 0;
	const bool mixed = op->kind == OP_MIXED;
	const unsigned depth = w->eng.depth;
	const uint64_t interval = w->rate_interval_ns;
	struct io_req *free_list[WORKER_MAX_DEPTH];
	struct io_req *done[WORKER_MAX_DEPTH];
	unsigned nfree = depth, inflight = 0;
	for (unsigned i = 0; i < depth; i++)
		free_list[i] = &w->reqs[depth - 1 - i];

	if (interval)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	worker_gate_wait(w->start);
	uint64_t user0, sys0;
	clock_cpu_ns(RUSAGE_THREAD, &user0, &sys0);
	const uint64_t end = *w->end_ns;
	uint64_t bucket_end = *w->t0_ns + w->bucket_ns;
	uint64_t due = *w->t0_ns + w->rate_phase_ns; /* --rate: when the next op is due */
	unsigned bucket = 0;
	uint64_t issued = 0, completed = 0;
	bool stopping = false;
	/* The last clock reading: stop checks use it, so an op costs two clock reads. */
	uint64_t t = *w->t0_ns;

	for (;;) {
		struct timespec wait_ts, *wait = NULL;
		while (!stopping && nfree > 0) {
			if (t >= end || (w->max_ops && issued >= w->max_ops) ||
			    atomic_load_explicit(w->stop, memory_order_relaxed)) {
				stopping = true;
				break;
			}
			if (interval && t < due) {
				if (inflight == 0) {
					/* Nothing to collect: sleep until due (or the end), then look again. */
					sleep_until_due(w, due < end ? due : end);
					t = clock_now_ns();
					continue;
				}
				uint64_t left = due - t;
				wait_ts.tv_sec = (time_t)(left / 1000000000ULL);
				wait_ts.tv_nsec = (long)(left % 1000000000ULL);
				wait = &wait_ts;
				break;
			}
			struct io_req *r = free_list[--nfree];
			r->kind = mixed ? (prng_below(&w->rng, 100) < op->read_pct ? IO_READ : IO_WRITE) : kind;
			if (op->sequential) {
				r->offset = (off_t)(w->seq_slot * op->align);
				if (++w->seq_slot == w->nslots)
					w->seq_slot = 0;
			} else {
				r->offset = (off_t)(prng_below(&w->rng, w->nslots) * op->align);
			}
			r->sync_pending = fsync_n && prng_below(&w->rng, op->sync_every) == 0;
			r->write_done_ns = 0;
			/* No deduplicating or compressing layer may see data twice. */
			if (r->kind == IO_WRITE)
				fresh_data(w, r);
			r->issue_ns = clock_now_ns();
			if (interval) {
				/* Open loop: latency counts from when the op was due. */
				r->start_ns = due;
				if (r->issue_ns - due >= interval)
					w->late_starts++;
				due += interval;
			} else {
				r->start_ns = r->issue_ns;
			}
			t = r->issue_ns;
			int rc = w->eng.ops->submit(&w->eng, r);
			issued++;
			if (rc < 0) {
				r->result = rc;
				record(w, r, t, fsync_n, &bucket, &bucket_end);
				free_list[nfree++] = r;
				continue;
			}
			inflight++;
		}
		if (inflight == 0) {
			if (stopping)
				break;
			continue;
		}
		int n = w->eng.ops->reap(&w->eng, done, 1, inflight, wait);
		t = clock_now_ns();
		if (n < 0) {
			/* The engine itself failed: what is in flight is lost; count it and stop. */
			record_lost(w, free_list, nfree, n, t, fsync_n, &bucket, &bucket_end);
			break;
		}
		for (int i = 0; i < n; i++) {
			struct io_req *r = done[i];
			if (r->kind == IO_WRITE && r->result >= 0 && r->sync_pending) {
				/* The study's write4k/64: the fdatasync is part of the operation's time. */
				r->kind = IO_FDATASYNC;
				r->sync_pending = 0;
				r->write_done_ns = t;
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
			record(w, r, t, fsync_n, &bucket, &bucket_end);
			free_list[nfree++] = r;
			atomic_store_explicit(&w->progress, ++completed, memory_order_relaxed);
			if (w->delay_factor > 0)
				pause_for(w, (double)(t - r->start_ns) * w->delay_factor, end);
		}
	}
	w->finished_ns = t;
	clock_cpu_ns(RUSAGE_THREAD, &w->cpu_user_ns, &w->cpu_sys_ns);
	w->cpu_user_ns -= user0;
	w->cpu_sys_ns -= sys0;
	return NULL;
}
