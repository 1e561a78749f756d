/*
 * SPDX-License-Identifier: Apache-2.0
 * add.h - what one document of a results file adds to the store (struct
 * rep_line), and adding it (report/store/add.c).
 *
 * The reader (report/read/line.c, rep_line_read()) fills a struct rep_line
 * on any thread, touching nothing shared; rep_line_add() then changes the
 * store and says its messages, on the thread that owns the struct rep_db,
 * in the order of the input, so that the report is the same however many
 * threads read. The store knows this record, not how it was read.
 */
#ifndef IOBENCH_REPORT_STORE_ADD_H
#define IOBENCH_REPORT_STORE_ADD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/hist.h"
#include "report/store/model.h"
#include "report/store/config.h"

/* One operation of a run line, to be merged into its cell. */
struct rep_line_op {
	char *sig;
	double threads;
	struct hist total;
	bool split;               /* a syncing op's line with "writeOnly" and "sync": */
	struct hist write_only, sync; /* the writes alone and the fdatasyncs alone */
	uint64_t block;
	double cpu_ns, cpu_ops;   /* its CPU time (ns) over its operations, when the line says; 0, 0 if not */
	double rate;              /* ops/s it was held to (its rate.target); 0 none */
	char settings[160];       /* what changes its result besides the config: rep_settings_of() */
	struct rep_point *pts;    /* its time-series points */
	size_t npts;
	struct rep_heat *heat;    /* with heat: each time bucket's histogram, binned (db.h) */
	size_t nheat;
	uint32_t *hbins;          /* their counts */
	size_t nhbins;
	/*
	 * A run in rounds (steadyState): total is its window's rounds merged and
	 * seconds their length, so its figure is the steady one wherever the
	 * report reads figures; 0 = the line's seconds.
	 */
	double seconds;
	struct rep_steady steady;
};

enum rep_line_kind {
	REP_LINE_NONE,     /* adds nothing (its messages and counters still count) */
	REP_LINE_RUN,      /* an iobench (or 2012) run line: operations into cells */
	REP_LINE_BONNIE,   /* a bonnie++ line */
	REP_LINE_MANIFEST, /* a fleet's manifest, as a line */
	REP_LINE_DURABILITY, /* an `iobench durability verify` line: a verdict */
};

/* What one document adds. Everything is owned by it (rep_line_free). */
struct rep_line {
	enum rep_line_kind kind;
	char *msgs;                /* messages for "iobench: FILE:LINE: ...", each NUL-terminated, in order */
	size_t msgs_len, msgs_cap;
	unsigned skipped;          /* to add to db->skipped */
	/* REP_LINE_RUN */
	struct rep_split split;
	char *host;                /* the line's host, else the file's fallback host */
	double seconds, launch;
	double runtime;            /* its nominal "runtime" (s); 0 unknown */
	bool steady;               /* a run in rounds (run --steady): its runtime is how long it took to settle */
	bool interrupted, target_lost; /* the line says "interrupted" or "targetLost" */
	bool count_limited;        /* it ran to a number of operations (maxOps), not for its runtime */
	int rotational;
	char model[64];            /* target.model, the device's model ("" none) */
	bool watch;
	bool legacy;               /* the 2012 tool's line: its counts were converted to iobench's */
	uint64_t size;
	struct rep_line_op *ops;   /* the operations that read well, in order */
	size_t nops, ops_cap;
	bool some_failed;          /* an operation was skipped (the line counts as skipped too) */
	char *sigs;                /* every operation's signature, for the notes section */
	char *target_path;         /* the target's path, when target_finding */
	char *target_finding;      /* the target is RAM, or not the volume its provision facts name (NULL: fine) */
	struct rep_dev *devs;      /* the devices under the target ("devices"), what they did */
	size_t ndevs;
	size_t dev_fold;           /* time buckets per device bucket kept (REP_DEVICE_POINTS bounds them) */
	double bucket;             /* bucketDuration (s) */
	char engine[24];           /* "engine", "" when the line does not say */
	double iodepth;            /* "iodepth", 0 when the line does not say */
	/* REP_LINE_BONNIE */
	struct rep_bonnie bonnie;
	/* REP_LINE_MANIFEST, REP_LINE_DURABILITY: the document as a jansson tree (rare lines) */
	json_t *manifest;
	char *dur_host;            /* REP_LINE_DURABILITY: the file's fallback host */
	bool heat;                 /* keep each time bucket's histogram, binned (report --plot) */
};

/*
 * Add *l, line lineno of file, to db: its messages (said as "FILE:LINE: ",
 * or "FILE: " when lineno is 0), counters, cells. A run line whose counts
 * would take the report's sum of all past HIST_COUNT_MAX is refused, said.
 * True when it added something. Not thread-safe (db's thread).
 */
bool rep_line_add(struct rep_db *db, const struct rep_line *l, const char *file, unsigned long lineno);

/* Free what *l owns and zero it (a zeroed line is freed as well). */
void rep_line_free(struct rep_line *l);

#endif
