/*
 * output.h - a run's results as one JSON line (the study's format plus
 * iobench's own keys) and as a human summary.
 */
#ifndef IOBENCH_OUTPUT_H
#define IOBENCH_OUTPUT_H

#include <stdio.h>

#include "run.h"

/* What the JSON records about how the run came to be. */
struct run_meta {
	const char *command_line;
	const char *const *labels; /* "key=value" strings */
	size_t nlabels;
	unsigned threads;          /* this run's --threads count */
	bool seed_given;
	const char *mode;          /* "watch" for probe lines, NULL for runs */
	double interval_s;         /* watch: seconds between probe rounds */
};

/* Percentiles reported everywhere, as fractions and as JSON keys. */
#define OUTPUT_NPCT 6
extern const double output_pct[OUTPUT_NPCT];
extern const char *const output_pct_key[OUTPUT_NPCT];

/*
 * The run as one line of JSON (no trailing newline), malloc'd; NULL on
 * ENOMEM.
 */
char *output_json_line(const struct run_config *cfg, const struct run_result *res,
		       const struct run_meta *meta);

/* Human summary: a header line, one row per operation, and warnings. */
void output_summary(FILE *f, const struct run_config *cfg, const struct run_result *res,
		    const struct run_meta *meta);

/*
 * Append line plus a newline to path with one write() and an fsync, so
 * concurrent appenders never interleave and a crash loses at most the line
 * being written; "-" means stdout. 0 or -errno.
 */
int output_append_line(const char *path, const char *line);

/* Operations per second and MB/s (10^6 bytes) of one op's result. */
double output_iops(const struct op_result *o, double elapsed_s);
double output_mbps(const struct op_result *o, double elapsed_s);

#endif
