/*
 * SPDX-License-Identifier: Apache-2.0
 * line.h - one document of a results file, read into what it will add to
 * the cell store (report/read/line.c), and added (report/read/read.c).
 *
 * Reading a line is the costly part and touches nothing shared:
 * rep_line_read() may run on any thread, many at once. Adding it changes
 * the store and prints its messages: rep_line_add() runs on the thread that
 * owns the struct rep_db, in the order of the input, so that the report is
 * the same however many threads read.
 */
#ifndef IOBENCH_REPORT_LINE_H
#define IOBENCH_REPORT_LINE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/hist.h"
#include "report/store/db.h"
#include "report/base/json.h"

/*
 * The durations a run line may say ("elapsed", else "runtime"), seconds:
 * a microsecond (one operation) to about 31 years. Outside, its counts
 * would divide into inf or 0 ops/s: the line is skipped, said.
 */
#define REP_MIN_SECONDS 1e-6

/*
 * A device's time buckets kept per line, at most: a longer series is
 * folded, dev_fold consecutive buckets summed into one (reads, writes,
 * seconds; awaits weighted by what completed, busy by the seconds), so a
 * line of 64 devices x 100k buckets keeps 64 x 1024, not 6.4M.
 */
#define REP_DEVICE_POINTS 1024
#define REP_MAX_SECONDS 1e9

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
 * Read the document text[0..len) into *l (zeroed first). doc is the
 * caller's (one per thread); fallback_host names the host of a line that
 * has none; layout_labels (NULL none) are the labels a 2012 archive's
 * layout gives the 2012 tool's lines that carry none; explicit_file: the
 * file was named (a non-result line in it is reported, not passed over);
 * heat: keep each time bucket's histogram, binned, for the heat maps
 * (report --plot; db->keep_heat). Thread-safe for different docs and lines.
 */
void rep_line_read(struct rep_line *l, struct jv_doc *doc, const char *text, size_t len,
		   const char *fallback_host, const char *layout_labels, bool explicit_file, bool heat);


/*
 * Add *l, line lineno of file, to db: its messages (said as "FILE:LINE: ",
 * or "FILE: " when lineno is 0), counters, cells. A run line whose counts
 * would take the report's sum of all past HIST_COUNT_MAX is refused, said.
 * True when it added something. Not thread-safe (db's thread).
 */
bool rep_line_add(struct rep_db *db, const struct rep_line *l, const char *file, unsigned long lineno);

void rep_line_free(struct rep_line *l);

#endif
