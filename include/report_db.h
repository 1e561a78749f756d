/*
 * report_db.h - the report's cell store (src/report/read.c): what
 * `iobench report` reads, result lines grouped into cells.
 *
 * A cell is one signature x thread count x labels x swept size x host. Every
 * run line adds its operations to their cells: the total histograms merge
 * exactly, run time adds up, and the time buckets become points of the
 * cell's throughput-over-time series. Raw JSON is never kept.
 *
 * Not thread-safe: one struct rep_db belongs to one thread.
 */
#ifndef IOBENCH_REPORT_DB_H
#define IOBENCH_REPORT_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hist.h"

enum rep_kind {
	REP_READ,        /* read,SIZE,ALIGN */
	REP_WRITE_FLUSH, /* writeFlush: every write durable before it returns */
	REP_WRITE_N,     /* writeNN: fdatasync with probability 1/NN */
	REP_WRITE,       /* write: never synced */
	REP_OTHER,
};

/* One time bucket of one run: seconds since the run's launch, ops/s in it. */
struct rep_point {
	double t;
	double ops;
	double p50, p99;    /* ns; set for `iobench watch` periods, NAN otherwise */
};

struct rep_cell {
	char *sig;          /* "read,4K,4K" */
	char *labels;       /* "config=large/ebs4,disk=a": sorted, size labels left out; "" if none */
	char *host;
	double threads;
	uint64_t size;      /* bytes the offsets spanned; 0 unknown */
	uint64_t block;     /* bytes per operation; 0 unknown */
	enum rep_kind kind;
	int rotational;     /* -1 unknown, 0 no, 1 yes */
	bool watch;         /* its points are `iobench watch` periods (latency over time) */
	struct hist total;  /* exact merge of every run's total */
	double seconds;     /* summed run time */
	unsigned runs;
	struct rep_point *pts; /* per time bucket, sorted by t after rep_db_finish() */
	size_t npts, cap;
};

/* One bonnie++ line. Missing numbers are NAN, missing strings NULL. */
enum { REP_BONNIE_SEQ_OUT, REP_BONNIE_REWRITE, REP_BONNIE_SEQ_IN, REP_BONNIE_SEEKS,
       REP_BONNIE_NFIELDS };
struct rep_bonnie {
	char *host, *labels, *file_size;
	double launch;
	double rate[REP_BONNIE_NFIELDS]; /* KB/s, KB/s, KB/s, seeks/s */
	double cpu[REP_BONNIE_NFIELDS];  /* % */
	char *latency[REP_BONNIE_NFIELDS];
};

struct rep_db {
	struct rep_cell **cells;
	size_t ncells, cells_cap;
	size_t *slots; /* open-addressing hash of cell indexes + 1; 0 = free */
	size_t nslots;
	struct rep_bonnie *bonnie;
	size_t nbonnie, bonnie_cap;
	/* counters for the summary line */
	unsigned long files, lines, runs, operations, skipped;
	unsigned long warnings; /* messages written to diag (or suppressed by -q) */
	FILE *diag; /* where "iobench: FILE:LINE: ..." warnings go (stderr) */
};

void rep_db_init(struct rep_db *db, FILE *diag);
void rep_db_free(struct rep_db *db);

/*
 * Read PATH: "-" (stdin), a file, or a folder searched recursively. In a
 * folder, *.jsonl, *.json and *.out files are read; other files are
 * ignored. A file may hold iobench result lines, bonnie++ lines, the 2012
 * tool's one-object-per-line JSON, or its run.out with the JSON between
 * "<begin json dump>" and "<end json dump>". Malformed lines are reported
 * on db->diag as "iobench: FILE:LINE: what is wrong" and skipped.
 * Returns 0, or -errno when PATH itself cannot be opened (also reported).
 */
int rep_read_path(struct rep_db *db, const char *path);

/* Read one stream already open (name is used in messages and as host fallback). */
void rep_read_stream(struct rep_db *db, FILE *f, const char *name, bool explicit_file);

/*
 * Add one parsed JSON document (a run or a bonnie++ line). where is
 * "FILE:LINE" for messages, fallback_host names the host when the line has
 * none. Returns true when something was added.
 */
bool rep_add_json(struct rep_db *db, const void *json_root, const char *where,
		  const char *fallback_host, bool explicit_file);

/*
 * Keep only the cells (and bonnie++ lines) where key matches the fnmatch(3)
 * pattern: key "host", "signature" (or "op"), "threads", or a label key
 * (a cell without that label does not match). Call before rep_db_finish().
 */
void rep_db_filter(struct rep_db *db, const char *key, const char *pattern);

/* Sort cells (signature, labels, size, threads, host) and their points by time. */
void rep_db_finish(struct rep_db *db);

/* Value of label key in a canonical "k=v,k=v" string, copied to buf; false if absent. */
bool rep_label_value(const char *labels, const char *key, char *buf, size_t len);

/* Short name of a signature's kind: "read", "writeFlush", ... */
enum rep_kind rep_kind_of(const char *sig);

#endif
