/*
 * SPDX-License-Identifier: Apache-2.0
 * worker.h - one benchmark thread: pick an offset, time one operation,
 * record it, repeat until the deadline, the stop flag or the op limit.
 *
 * The run layer fills a struct worker, starts worker_main() on a thread and
 * reads the results after joining it. Inside the loop nothing allocates,
 * locks or prints; the only shared state is the stop flag (read) and the
 * worker's own progress counter (written, relaxed).
 */
#ifndef IOBENCH_MEASURE_WORKER_H
#define IOBENCH_MEASURE_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engines/engine.h"
#include "lib/hist.h"
#include "lib/opspec.h"
#include "lib/prng.h"
#include "measure/raw.h"

/*
 * Writes up to this size get wholly fresh random bytes each time. Larger
 * ones draw from a per-request random pool at a random aligned offset and
 * get a fresh 8-byte stamp in every 512-byte sector: no two sectors ever
 * written are alike, a record within a write is random, and the cost is a
 * few microseconds instead of regenerating megabytes.
 */
#define WORKER_REFILL_MAX (64u << 10)
#define WORKER_POOL_EXTRA (1u << 20)

/* Most requests one thread keeps in flight (--iodepth). */
#define WORKER_MAX_DEPTH 1024

/*
 * Where the workers wait to start together. Unlike a barrier it does not
 * need to know how many threads will come: the run layer opens it once
 * every thread it could start is waiting, or at once (with the stop flag
 * set) when starting one failed, so the started ones can leave.
 */
struct worker_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened_cond;
	bool opened;
};

/* Returns 0 or -errno (from the mutex/condvar init). */
int worker_gate_init(struct worker_gate *g);
/* Let every waiting (and later) worker through. Thread-safe. */
void worker_gate_open(struct worker_gate *g);
/* Block until the gate is open. Thread-safe. */
void worker_gate_wait(struct worker_gate *g);
/* After every worker has passed or been joined. */
void worker_gate_destroy(struct worker_gate *g);

struct worker {
	/* Set by the run layer before start; read-only in the loop. */
	const struct op_spec *op; /* &op_copy */
	/*
	 * The worker's own copy: a thread abandoned stuck in I/O outlives its
	 * run, and the op specs it came from are reused by the next run of a sweep.
	 */
	struct op_spec op_copy;
	struct engine eng;        /* eng.fd is this thread's own descriptor */
	uint64_t nslots;          /* aligned offsets to choose from: 0 .. nslots-1 */
	struct io_req *reqs;      /* eng.depth requests, each with its own buffer */
	double delay_factor;      /* fractional threads: sleep this x latency after each op */
	uint64_t rate_interval_ns; /* open loop (--rate): one op due every interval; 0 = closed loop */
	uint64_t rate_phase_ns;    /* this thread's first op is due at t0 + phase */
	uint64_t max_ops;         /* 0 = no limit */
	uint64_t bucket_ns;
	unsigned nbuckets;        /* entries in buckets[]; the last takes late completions */
	const atomic_bool *stop;
	struct worker_gate *start; /* the workers wait here until the run layer opens it */
	const uint64_t *t0_ns;    /* set by the run layer before it opens the gate */
	const uint64_t *end_ns;
	uint64_t seq_slot;        /* sequential ops: next slot */
	struct raw_buf *raw;      /* --raw: this thread's log buffer, or NULL */
	struct prng rng;          /* offsets and fdatasync draws */
	struct prng data_rng;     /* bytes written */

	/* Written by the loop; read by the run layer after join. The total is the merge of the buckets. */
	struct hist *buckets;
	struct hist *wbuckets;    /* mixed ops: the writes' buckets (reads go to buckets) */
	uint64_t bytes;
	uint64_t rbytes;          /* mixed ops: bytes read */
	uint64_t fdatasyncs;
	/*
	 * Ops that fdatasync (writeNN): every op to the end of its write (the
	 * same ops as the buckets), and the fdatasyncs alone. Totals only.
	 */
	struct hist write_only, sync;
	struct hist service;      /* --rate: actual start to completion */
	uint64_t late_starts;     /* --rate: ops submitted a whole interval or more after they were due */
	int first_errno;
	uint64_t first_err_offset;
	_Atomic uint64_t progress; /* completed operations, for the progress line */
	/*
	 * The time bucket the loop records into, stored (release) as it moves
	 * on: buckets[k] (and wbuckets[k]) with k below it are never written
	 * again, so the progress line may read them (acquire) mid-run.
	 */
	_Atomic unsigned bucket_now;
	uint64_t finished_ns;     /* the loop's last clock reading: when its last op completed */
	uint64_t cpu_user_ns, cpu_sys_ns; /* this thread's CPU time from the start to its end (RUSAGE_THREAD) */
} __attribute__((aligned(64)));

/* Thread entry point: arg is a struct worker *. Returns NULL. */
void *worker_main(void *arg);

#endif
