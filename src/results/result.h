/*
 * SPDX-License-Identifier: Apache-2.0
 * result.h - what a run measured: the types every writer of results (the JSON
 * line, the text summary, the Prometheus page) reads and the measuring code
 * fills, apart from how it is measured (measure/run.h).
 */
#ifndef IOBENCH_RESULTS_RESULT_H
#define IOBENCH_RESULTS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "host/devices.h"
#include "lib/hist.h"
#include "lib/opspec.h"
#include "lib/steady.h"

/*
 * --steady: how an op run in rounds (its time buckets, one per round) was
 * judged. The fits are of the window that attained steady state, or of
 * the last window when none did (all zero when fewer rounds than a window
 * were run).
 */
struct op_steady {
	bool attained;
	unsigned round;         /* the round (1-based) whose window attained it; 0 = not attained */
	unsigned rounds;        /* rounds run */
	unsigned window;        /* rounds per window */
	bool on_lat;            /* --steady-on lat: p99 judged too */
	struct steady_fit iops; /* the window's IOPS */
	struct steady_fit p99;  /* the window's p99 latency, ns (on_lat) */
};

/* One operation of a run, as it will be executed. */
struct run_op {
	struct op_spec spec;
	double thread_count; /* threads as asked (fractional in the long form); run_op_threads() started */
	bool direct;         /* O_DIRECT */
	int open_flags;      /* full flags passed to open() */
};

/*
 * The threads a run starts for op: its thread count rounded up (2.5 in the
 * long form is 3 threads, one of them paced to count as half).
 */
static inline unsigned run_op_threads(const struct run_op *op)
{
	unsigned n = (unsigned)op->thread_count;
	return n < op->thread_count ? n + 1 : n;
}

struct op_result {
	struct hist total;
	struct hist *buckets; /* nbuckets time buckets */
	unsigned nbuckets;    /* the last one is kept only if operations landed in it */
	uint64_t bytes;
	uint64_t fdatasyncs;
	uint64_t sync_fallbacks; /* fdatasyncs the engine could not issue itself */
	/*
	 * Ops that fdatasync (writeNN; empty otherwise): the same operations as
	 * total, each timed to the end of its write (what fio reports as the
	 * latency), and the fdatasync calls alone, from the write's end to theirs.
	 */
	struct hist write_only, sync;
	unsigned max_inflight;   /* most requests one thread had in flight */
	struct hist service;     /* --rate: actual start to completion */
	uint64_t late_starts;    /* --rate: ops that started an interval or more late */
	/* Mixed ops (rw16k:70): reads [0] and writes [1] apart; NULL/empty otherwise. */
	struct hist kind_total[2];
	struct hist *kind_buckets[2];
	uint64_t kind_bytes[2];
	int first_errno;      /* 0 if no operation failed */
	uint64_t first_err_offset;
	uint64_t cpu_user_ns, cpu_sys_ns; /* CPU time of the op's own threads (RUSAGE_THREAD, summed) */
	uint64_t cpu_ns;      /* watch probes: their CPU time, user and system not known apart; 0 in runs */
	struct op_steady *steady; /* --steady: the rounds' verdict (malloc'd); NULL otherwise */
};

struct run_result {
	struct op_result *ops; /* one per config op */
	size_t nops;
	time_t launch_time;    /* Unix epoch seconds at start */
	double elapsed_s;      /* measured run time */
	bool interrupted;      /* a stop signal arrived */
	bool target_lost;      /* the target was unlinked, replaced or detached mid-run */
	int signal;            /* which one, if interrupted */
	unsigned stuck_threads; /* threads that did not stop in time (results omitted) */
	unsigned stops;         /* times the process was stopped (SIGSTOP, SIGTSTP) and continued mid-run */
	int64_t raw_dropped;    /* --raw: records lost because the writer fell behind; <0: -errno */
	/*
	 * CPU time of the whole process from the start to the last thread's
	 * end (RUSAGE_SELF): the workers and every helper thread, such as the
	 * kernel's SQPOLL and io-wq threads for io_uring and the --raw writer.
	 */
	uint64_t cpu_user_ns, cpu_sys_ns;
	/*
	 * With cfg->device_stats: /proc/diskstats of cfg->devices at the start
	 * (slot 0), at the start of each time bucket k (slot k), and after the
	 * last thread's end (the slot after the last one taken).
	 */
	struct device_log devices;
};

/* Frees what a run filled in res (its ops' buckets, the device readings). */
void run_result_free(struct run_result *res);

#endif
