/*
 * SPDX-License-Identifier: Apache-2.0
 * run.h - one complete benchmark run: open, start threads, wait, stop, merge.
 *
 * The caller blocks the stop signals (signals.h) in the calling thread before
 * run_execute(), so every worker inherits the mask; run_execute() waits for
 * them and treats one as "stop now, keep the results".
 */
#ifndef IOBENCH_MEASURE_RUN_H
#define IOBENCH_MEASURE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "engines/engine.h"
#include "host/devices.h"
#include "host/target.h"
#include "lib/opspec.h"
#include "results/output.h"
#include "results/result.h"

/* Most time buckets one run keeps (--duration / --bucket): a bound, so counts never wrap. */
#define RUN_MAX_BUCKETS 1000000
/* Most bytes of histograms a run allocates (threads x time buckets). */
#define RUN_MAX_HIST_BYTES 2e9
/* The I/O buffers (threads x iodepth x op size) may take at most 1/this of the RAM. */
#define RUN_RAM_SHARE_DIVISOR 2
/* The data written comes from seed ^ this (stream: the thread), apart from the offsets' stream. */
#define RUN_SEED_SALT_DATA 0xda7aULL

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
	/*
	 * Progress: status(status_arg, text) every status_ns (0: once a second),
	 * status(status_arg, NULL) at the end; NULL: none. text is, per op, its
	 * IOPS since the last call and the p99 of the last time bucket its
	 * threads finished ("read4k 14580 IOPS, p99 1.20ms; ...", "p99 -"
	 * before the first).
	 */
	void (*status)(void *arg, const char *text);
	void *status_arg;
	uint64_t status_ns;
	const sigset_t *stop_signals;
	FILE *raw;            /* --raw: per-operation log, or NULL */
	const struct device_tree *devices; /* the devices under the target (recorded), or NULL */
	bool device_stats;    /* read their /proc/diskstats at each bucket boundary (not --no-device-stats) */
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
 * The time buckets duration_ns / bucket_ns make (the last one partial):
 * their count, or -E2BIG with a one-line reason (no "iobench: " prefix) in
 * err when bucket_ns is 0 or they are more than RUN_MAX_BUCKETS. What
 * run_execute() checks first; the command layer checks it before probing.
 */
int run_check_buckets(uint64_t duration_ns, uint64_t bucket_ns, char *err, size_t errlen);

/*
 * Run. Returns 0 with *res filled (free it with run_result_free), or -errno
 * when the run could not start, with a one-line reason (no "iobench: "
 * prefix) in err: a target that cannot be opened with these flags, O_DIRECT
 * refused, out of memory or threads.
 */
int run_execute(const struct run_config *cfg, struct run_result *res, char *err, size_t errlen);

/* What a run's line records (output.h), from its configuration. */
struct output_run run_output_of(const struct run_config *cfg, const struct run_meta *meta);

#endif
