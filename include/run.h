/*
 * run.h - one complete benchmark run: open, start threads, wait, stop, merge.
 *
 * The caller blocks the stop signals (signals.h) in the calling thread before
 * run_execute(), so every worker inherits the mask; run_execute() waits for
 * them and treats one as "stop now, keep the results".
 */
#ifndef IOBENCH_RUN_H
#define IOBENCH_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "devices.h"
#include "engine.h"
#include "hist.h"
#include "opspec.h"
#include "target.h"

/* One operation of a run, as it will be executed. */
struct run_op {
	struct op_spec spec;
	unsigned nthreads;   /* threads started */
	double thread_count; /* threads as the user asked (fractional in the long form) */
	bool direct;         /* O_DIRECT */
	int open_flags;      /* full flags passed to open() */
};

/* Most time buckets one run keeps (--duration / --bucket): a bound, so counts never wrap. */
#define RUN_MAX_BUCKETS 1000000

struct run_config {
	const struct target_info *target;
	const struct run_op *ops;
	size_t nops;
	uint64_t duration_ns;
	uint64_t bucket_ns;
	uint64_t max_ops;     /* per thread; 0 = none */
	uint64_t span;        /* offsets fall in [0, span); span <= target size */
	uint64_t seed;
	const struct engine_ops *engine;
	struct engine_opts engine_opts; /* io_uring's options; all zero for the others */
	unsigned iodepth;
	double rate;          /* open loop: each op's total IOPS, split across its threads; 0 = closed loop */
	bool progress;        /* a progress line on stderr */
	const sigset_t *stop_signals;
	FILE *raw;            /* --raw: per-operation log, or NULL */
	const struct device_tree *devices; /* the devices under the target (recorded), or NULL */
	bool device_stats;    /* read their /proc/diskstats at each bucket boundary (not --no-device-stats) */
};

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

/*
 * Open flags for an op: reads O_RDONLY, writes O_WRONLY; O_DIRECT for reads
 * and flushed writes unless direct_mode says otherwise (-1 default, 0 never,
 * 1 always); flushed writes add O_SYNC, or O_DSYNC when dsync.
 */
int run_open_flags(const struct op_spec *op, int direct_mode, bool dsync, bool *direct);

/*
 * Before the clock starts, what would make every operation of op fail:
 * with O_DIRECT, a size or alignment that is not a multiple of the target's
 * DIO alignment (512 when unknown); then real I/O on fd through buf (op size,
 * suitably aligned) at offset 0 and at the second aligned offset: a read
 * for reads, a write for writes, and for mixed ops a read and a write of
 * the same bytes back (so a read-only device is caught before the run).
 * Returns 0, or -errno with a one-line reason in err.
 */
int run_preflight(const struct target_info *t, const struct run_op *op, uint64_t span, int fd, void *buf,
		  char *err, size_t errlen);

/*
 * Run. Returns 0 with *res filled (free it with run_result_free), or -errno
 * when the run could not start, with a one-line reason (no "iobench: "
 * prefix) in err: a target that cannot be opened with these flags, O_DIRECT
 * refused, out of memory or threads.
 */
int run_execute(const struct run_config *cfg, struct run_result *res, char *err, size_t errlen);

void run_result_free(struct run_result *res);

#endif
