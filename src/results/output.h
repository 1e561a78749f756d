/*
 * SPDX-License-Identifier: Apache-2.0
 * output.h - a run's results as one JSON line (the study's format plus
 * iobench's own keys) and as a human summary.
 */
#ifndef IOBENCH_RESULTS_OUTPUT_H
#define IOBENCH_RESULTS_OUTPUT_H

#include <jansson.h>
#include <stdio.h>

#include "engines/engine.h"
#include "host/target.h"
#include "results/result.h"

/* What the JSON records about how the run came to be. */
struct run_meta {
	const char *command_line;
	const char *const *labels; /* "key=value" strings */
	size_t nlabels;
	const char *host;          /* "host": the name given (--host, IMDS); NULL: gethostname() */
	const json_t *provision;   /* "provision" object; NULL: none */
	const char *const *notes;  /* "notes": "key=value" strings */
	size_t nnotes;
	bool seed_given;
	const char *mode;          /* "watch" for probe lines, NULL for runs */
	double interval_s;         /* watch: seconds between probe rounds */
};

/*
 * How a result line's numbers were taken: everything it records besides the
 * measurements (struct run_result). A run fills it from its run_config
 * (run_output_of in measure/run.h); `iobench watch` fills it for each period.
 */
struct output_run {
	const struct target_info *target;
	uint64_t span;             /* offsets fell in [0, span) */
	const struct run_op *ops;  /* as many as the result has, in its order */
	size_t nops;
	const struct engine_ops *engine; /* "engine": its name; "engineOptions" when it takes options */
	struct engine_opts engine_opts; /* io_uring's options: "engineOptions" on io_uring lines */
	unsigned iodepth;
	uint64_t runtime_ns;       /* "runtime": the run's duration, or a watch period */
	uint64_t bucket_ns;        /* "bucketDuration" */
	uint64_t max_ops;          /* per-thread op limit; 0 = none */
	uint64_t seed;
	double rate;               /* --rate: IOPS asked per op; 0 = closed loop */
	bool raw;                  /* a --raw log was kept: "rawDropped" is recorded */
	const struct device_tree *devices; /* "devices"; NULL: the key is left out */
	bool device_stats;         /* with their statistics (the result's readings) */
	const struct run_meta *meta;
};

/* Percentiles reported everywhere, as fractions and as JSON keys. */
#define OUTPUT_NPCT 6
extern const double output_pct[OUTPUT_NPCT];
extern const char *const output_pct_key[OUTPUT_NPCT];

/*
 * The run (or watch period) as one line of JSON (no trailing newline),
 * malloc'd; NULL on ENOMEM, never a line with a block left out (any bytes in
 * paths and labels are made valid UTF-8, U+FFFD for a stray byte).
 * res->ops[i] is the result of run->ops[i].
 */
char *output_json_line(const struct output_run *run, const struct run_result *res);

/* Human summary: a header line, one row per operation and its notes (the warnings are the command's to say). */
void output_summary(FILE *f, const struct output_run *run, const struct run_result *res);

/*
 * Before a run: may path (--json, --raw) receive results? 0 when it does not
 * exist yet, is "-", or is a regular file or character device (/dev/null)
 * other than the target; -EISDIR; -EINVAL for a FIFO, socket or block
 * device; -EEXIST when it is the target itself (same inode).
 */
int output_check_path(const char *path, const struct target_info *t);

/*
 * Before the first measurement: can results be appended to path? Opens it
 * for appending without writing; a missing file is not created, its
 * directory is asked. 0 ("-" too), -EINVAL when it is not a regular file or
 * character device, or -errno (-ENOENT: no such directory, -EACCES, -EROFS).
 */
int output_check_writable(const char *path);

/*
 * Open path for appending (created 0644), never blocking: a FIFO, socket or
 * block device is refused with -EINVAL. Returns the descriptor or -errno.
 */
int output_open_append(const char *path);

/*
 * Append line plus a newline to path with one write() and an fsync, so
 * concurrent appenders never interleave and a crash loses at most the line
 * being written; "-" means stdout. Whole or not at all: when the write
 * fails (ENOSPC, EDQUOT, EFBIG) the bytes of the line that landed are cut
 * off again, but only while they still end the file: an advisory lock
 * (flock) that every appender here takes keeps other iobench appenders out
 * meanwhile, and a line another writer added after them is never cut.
 * 0 or -errno (-EINVAL: not a regular file or character device).
 */
int output_append_line(const char *path, const char *line);

/* Operations per second and MB/s (10^6 bytes) of one op's result. */
double output_iops(const struct op_result *o, double elapsed_s);
double output_mbps(const struct op_result *o, double elapsed_s);

#endif
