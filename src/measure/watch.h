/*
 * SPDX-License-Identifier: Apache-2.0
 * watch.h - a light, long-running latency probe (`iobench watch`).
 *
 * Every interval it does each operation once, in a random order, timing
 * each with the sync method; every period it appends one JSON line (the
 * same format as a run, one time bucket per period, "mode": "watch") and
 * fsyncs it. Weeks of probing stay small and merge exactly with runs.
 *
 * With a prom_path it also keeps Prometheus counters (prom.h) and rewrites
 * that file after every round: they start from what the JSON lines and the
 * previous file hold, so they never go down across a restart. A write that
 * fails (a full disk) keeps the previous file, is a note once per period,
 * and the probe goes on.
 *
 * watch_run() prints nothing: what it has to say as it goes (a period
 * written, the page failing and mended) goes to the caller's note function.
 */
#ifndef IOBENCH_MEASURE_WATCH_H
#define IOBENCH_MEASURE_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "host/target.h"
#include "results/output.h"
#include "results/result.h"

/* The probes' buffers are filled from seed ^ this (stream: the op's index). */
#define WATCH_SEED_SALT_FILL 0x9f11ULL
/* The stream of seed that shuffles each round's order. */
#define WATCH_STREAM_ORDER 0x3a7cULL

/* What a note is about. */
enum watch_note_kind {
	WATCH_NOTE_PERIOD,       /* a period's line was appended (no such notes when quiet) */
	WATCH_NOTE_PROM_FAILED,  /* the --prom page could not be written (once a period); the old one stays */
	WATCH_NOTE_PROM_WRITTEN, /* the page was written again after a failure */
};

struct watch_note {
	enum watch_note_kind kind;
	const char *text;  /* one line for people, without "iobench: " or a newline:
			    * "period 3 written (60 s)", "iobench.prom written again" */
	uint64_t period;   /* the period's number, from 1 (WATCH_NOTE_PERIOD) */
	bool interrupted;  /* the period was cut short by a stop signal (WATCH_NOTE_PERIOD) */
	int err;           /* the write's -errno (WATCH_NOTE_PROM_FAILED) */
};

struct watch_config {
	const struct target_info *target;
	const struct run_op *ops;
	size_t nops;
	uint64_t span;
	uint64_t interval_ns;  /* between rounds */
	uint64_t period_ns;    /* one JSON line per period */
	uint64_t max_periods;  /* stop after this many lines; 0 = run until signalled */
	uint64_t seed;
	const char *json_path; /* appended to; "-" for stdout */
	const char *prom_path; /* --prom: rewritten after every round (prom.h); NULL for none */
	const struct run_meta *meta;
	const struct device_tree *devices; /* recorded in each line; NULL: none */
	bool device_stats;     /* with their /proc/diskstats over the period */
	const sigset_t *stop_signals; /* blocked by the caller, awaited here */
	bool quiet;            /* no WATCH_NOTE_PERIOD notes */
	/* Called with each note, from watch_run()'s thread; text lasts only the call. NULL: none. */
	void (*note)(const struct watch_note *note, void *arg);
	void *note_arg;
};

/*
 * Probe until max_periods lines are written or a stop signal arrives (then
 * the partial period is written, marked interrupted, and -EINTR returned).
 * Returns 0, -EINTR, or -errno with a reason in err (also when the
 * prom_path cannot be written at the start, unless the disk is full).
 */
int watch_run(const struct watch_config *wc, char *err, size_t errlen);

#endif
