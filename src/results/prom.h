/*
 * SPDX-License-Identifier: Apache-2.0
 * prom.h - `iobench watch --prom FILE`: the probe's counts in Prometheus's
 * text exposition format (version 0.0.4), for node_exporter's textfile
 * collector (a `*.prom` file in its --collector.textfile.directory).
 *
 * The page, per target and op (labels target="<TARGET as given>",
 * op="<op name>", escaped as the format says):
 *
 *   iobench_op_latency_seconds        histogram of successful probes: _bucket{le}, _sum, _count
 *   iobench_op_operations_total       counter: probes done, failed ones included
 *   iobench_op_errors_total           counter: probes that failed (not in the histogram)
 *   iobench_op_bytes_total            counter: bytes moved by successful probes
 *   iobench_op_period_p50_seconds     gauge: median of the last complete period
 *   iobench_op_period_p99_seconds     gauge: 99th percentile of the last complete period
 *
 * then iobench_watch_up (1 while watch runs, 0 once it stopped) and
 * iobench_build_info{version="...",commit="..."} 1 (commit when known).
 *
 * Bucket bounds: every PROM_STEP-th boundary of the study's histogram
 * (hist.h), k = 8, 16, ..., 168, i.e. 1000 * 1.1^k ns, about 2.14x apart,
 * from 2.143 us to 8.994 s, then +Inf. Each `le` is the largest whole
 * nanosecond below boundary k, written in seconds ("0.000002143"): the
 * cumulative count at it is exactly the histogram's buckets 0..k-1, so
 * nothing is re-measured. Boundary 0 (1 us) is not used because bucket 0
 * also holds the values pinned up from below 1 us.
 *
 * The counters only go up, across restarts too: the caller starts them from
 * the larger, series by series, of what the JSON lines already hold
 * (prom_counts_from_json) and what the previous file exposed (prom_parse),
 * then adds every probe.
 *
 * The pure part (bounds, counts, format, parse) keeps no state; the files
 * part reads the JSON lines and the previous page and writes the page; a
 * struct prom_export ties them together for one watch. Nothing here prints;
 * all of it is thread-safe on distinct arguments.
 */
#ifndef IOBENCH_RESULTS_PROM_H
#define IOBENCH_RESULTS_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/hist.h"
#include "results/result.h"

#define PROM_STEP 8
#define PROM_FIRST 8 /* the first boundary used, k = PROM_FIRST */
/* finite bounds: k = 8, 16, ..., 168 (the last boundary below the pin maximum's bucket) */
#define PROM_NBOUNDS 21

/* One target/op's counters, as the page exposes them. */
struct prom_counts {
	uint64_t le[PROM_NBOUNDS]; /* successful probes of at most prom_bound_ns(j) ns */
	uint64_t count;            /* successful probes: the +Inf bucket and _count */
	uint64_t sum_ns;           /* their latencies; _sum in seconds */
	uint64_t errors;           /* failed probes */
	uint64_t bytes;            /* moved by successful probes */
};

/* One op of the page: its counters and its last complete period. */
struct prom_op {
	const char *name;          /* the op label: "read4k", "write4k/64" */
	struct prom_counts counts;
	bool have_period;          /* a period ended with successful probes */
	double p50_ns, p99_ns;     /* that period's percentiles (hist_percentile) */
};

/* One watch's page. */
struct prom_page {
	const char *target;        /* the target label: the path as given */
	const struct prom_op *ops;
	size_t nops;
	bool up;                   /* iobench_watch_up */
	const char *version;       /* iobench_build_info's version label */
	const char *commit;        /* and its commit label; NULL or "" for none */
};

/* Bound j (0 <= j < PROM_NBOUNDS) in ns: the largest whole ns in buckets below k = 8 + 8j. */
uint64_t prom_bound_ns(unsigned j);

/* Bound j as its `le` label value, in seconds: "0.000002143". buf holds >= 32 bytes. */
void prom_bound_label(unsigned j, char *buf, size_t len);

/*
 * The page's first line: a page without it is not one this watch continues
 * from (prom_parse refuses it), nor is a page another user owns.
 */
#define PROM_MARKER "# iobench watch page 1: its counters continue only from a page with this first line, of this user\n"

/*
 * The most a counter may hold: 2^53, where Prometheus's float64 stops
 * counting by one (285 years of a probe a microsecond). A larger value was
 * not written by a watch; adding past it is an overflow. _sum (ns) may
 * reach 2^63.
 */
#define PROM_COUNT_MAX (1ULL << 53)
#define PROM_SUM_NS_MAX (1ULL << 63)

/*
 * Add a histogram (its successes and errors) and bytes moved to c. 0, or
 * -EOVERFLOW when a counter would pass its maximum: then c is unchanged.
 */
int prom_counts_add(struct prom_counts *c, const struct hist *h, uint64_t bytes);

/*
 * dst = the larger of dst and src, field by field. Both consistent (le
 * non-decreasing, count >= every le) gives a consistent result.
 */
void prom_counts_max(struct prom_counts *dst, const struct prom_counts *src);

/* A period's percentiles for op from its histogram (have_period false when it has no successes). */
void prom_op_set_period(struct prom_op *op, const struct hist *period);

/* The page as text, every line ending in '\n'; malloc'd, NULL on ENOMEM. */
char *prom_format(const struct prom_page *page);

/*
 * Read back what an earlier prom_format() wrote for target and op from text
 * (a whole file, NUL-terminated) into out. Returns 0, -ENOENT when text has
 * no such series, or -EINVAL when text does not start with PROM_MARKER, or
 * the series are there but are not a consistent set of this version's
 * bounds (e.g. written with other bounds) or a value passes its maximum
 * (PROM_COUNT_MAX): then out is cleared and should not be used.
 */
int prom_parse(const char *text, const char *target, const char *op, struct prom_counts *out);

/*
 * Add up the watch lines of the JSON lines file path whose target.path is
 * target, op by op (an operation whose name is ops[i].name adds to
 * ops[i].counts); the last such line's histogram sets ops[i]'s period.
 * Lines that are not JSON, or not watch lines, are skipped. Returns the
 * number of lines used (0 when path does not exist), or -errno when it
 * cannot be read.
 */
int prom_counts_from_json(const char *path, const char *target, struct prom_op *ops, size_t nops);

/*
 * Replace path with text atomically (replace_open() and replace_commit(),
 * fileio.h): write a fresh DIR/.NAME.XXXXXX in the same directory (created
 * with O_EXCL, so a link planted in a directory others can write is never
 * followed; then 0644: node_exporter runs as another user), fsync it,
 * rename it over path, fsync the directory. On
 * failure path is left as it was, the temporary file is removed, and -errno
 * returned (-ENOSPC on a full disk; -EINVAL or -EISDIR when path exists and
 * is not a regular file: a device, FIFO or symbolic link is never replaced).
 * One writer per path: see prom_lock_page().
 */
int prom_write_file(const char *path, const char *text);

/* May path be a page? 0 when it is missing or a regular file; -EISDIR; -EINVAL for anything else (lstat: a link too). */
int prom_check_page(const char *path);

/*
 * Claim path's page for this process: a write lock on DIR/.NAME.lock
 * (created 0644 when missing, never followed if a link, never written).
 * 0 and *fd set (keep it open while writing; close it to let go), -EBUSY
 * when another process holds it (*other_pid its pid when known, else 0),
 * -EINVAL when the lock name is not a regular file, or -errno.
 */
int prom_lock_page(const char *path, int *fd, long *other_pid);

/*
 * One watch's page over its life: the counters up to the last finished
 * period, which only go up, and the last period's gauges.
 */
struct prom_export {
	const char *path;     /* the .prom file */
	const char *target;   /* the target label */
	struct prom_op *ops;  /* one per watched op, in the watch's order */
	size_t nops;
};

/*
 * Start x for ops[0..nops): every counter from the larger, series by
 * series, of what json_path's watch lines for target add up to (json_path
 * NULL or "-": nothing) and what path already shows (nothing when it is
 * missing, not this version's page, or owned by another user). Writes
 * nothing. Returns 0, -ENOMEM, -EOVERFLOW (json_path's lines add up past a
 * counter's maximum), or the -errno of reading json_path;
 * prom_export_free() x in every case.
 */
int prom_export_start(struct prom_export *x, const char *path, const char *target, const struct run_op *ops,
		      size_t nops, const char *json_path);

/*
 * Replace the file with the page of the counters plus now[i], the results
 * so far of op i's unfinished period, and iobench_watch_up = up. Returns 0
 * or prom_write_file()'s -errno (the previous page then stays).
 */
int prom_export_write(const struct prom_export *x, const struct op_result *now, bool up);

/*
 * A period ended with results now[i]: they join the counters, and set the
 * gauges of ops that succeeded. 0, or -EOVERFLOW when an op's counters would
 * pass their maximum (that op's counters then stay as they were).
 */
int prom_export_period(struct prom_export *x, const struct op_result *now);

void prom_export_free(struct prom_export *x);

#endif
