/*
 * SPDX-License-Identifier: Apache-2.0
 * model.h - the report's store, its data: what `iobench report` read,
 * result lines grouped into cells, and the types of all it keeps.
 *
 * This header holds the types alone (cells, configurations, devices,
 * bonnie++ lines, notes, fleets' hosts, struct rep_db), no function: every
 * file of the store stands on it, and each has its own header for its
 * functions: db.h (the cell table, filters, the final order), add.h
 * (what one document adds, added), config.h (what a line says apart,
 * configurations), opname.h (ops as typed), manifest.h (a fleet's hosts),
 * verdict.h (durability verdicts), warn.h (the report's warnings).
 * Reading files into it is report/read/read.h's.
 *
 * A cell is one signature x thread count x configuration x swept size x
 * host. Every run line adds its operations to their cells: the total
 * histograms merge exactly, run time adds up, and the time buckets become
 * points of the cell's throughput-over-time series. Raw JSON is never kept.
 *
 * A line says three things apart (report/store/config.c): which host (its "host"
 * when it also has "hostname", else a legacy "fleetHost" label, else "host",
 * else the folder's name); which configuration (the user's labels and the
 * provision object's configuration facts); and bookkeeping ("notes", and
 * in older files the labels run, runId, fleetHost, planStep, spanHuman),
 * which never splits a cell. A fleet's manifest.json (report/store/manifest.c)
 * adds the hosts that were planned, and what became of each.
 *
 * Not thread-safe: one struct rep_db belongs to one thread.
 */
#ifndef IOBENCH_REPORT_STORE_MODEL_H
#define IOBENCH_REPORT_STORE_MODEL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/hist.h"

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

/*
 * One time bucket's latency histogram for report --plot's heat maps, kept
 * only when db->keep_heat: REP_HEAT_MERGE consecutive buckets of the
 * histogram a bin (ratio 1.21), its counts in the cell's pool, hbins[off ..
 * off + n), bins first .. first + n - 1 (saturated at UINT32_MAX).
 */
#define REP_HEAT_MERGE 2
#define REP_HEAT_BINS ((HIST_NBUCKETS + REP_HEAT_MERGE - 1) / REP_HEAT_MERGE)
struct rep_heat {
	double t;           /* the bucket's start, as its point's t */
	float seconds;      /* its length */
	uint32_t off;
	uint16_t first, n;
};

/*
 * What runs in rounds (`iobench run --steady`) said of a cell: the last
 * such run's verdict and window, how many attained steady state. runs 0:
 * none of its runs was in rounds.
 */
struct rep_steady {
	unsigned runs;          /* its runs in rounds */
	unsigned attained;      /* of them, those that attained steady state */
	unsigned round;         /* the last one's: the round whose window attained it (1-based); 0 not attained */
	unsigned rounds;        /* rounds it ran */
	unsigned first, last;   /* its window's rounds (1-based): the one that attained it, else the last */
	double bucket;          /* seconds per round */
	double steady_ops;      /* its window's ops/s: the run's figure */
	double first_ops;       /* its first round's ops/s */
	double slope, intercept; /* the line fitted over the window: ops/s per round, and at its first round */
	double range_pct, slope_pct;
	double launch;          /* its launchTime, for the rounds' times */
};

/* One configuration, interned: cells of one configuration point at the same one. */
struct rep_config {
	char *labels;       /* user labels "config=large/ebs4,disk=a": sorted; size and bookkeeping left out */
	char *facts;        /* provision configuration facts "instanceType=m5.large,volumeCount=4": sorted */
	char *name;         /* as tables and charts show it: "m5.large / gp3 x4 / raid0"; "" if neither */
	char *runs;         /* what kind of runs, kept apart from others: "partial=interrupted,round=2,runtime=8"; "" */
	char *settings;     /* what changes the result besides: "engine=io_uring,iodepth=8" (non-defaults; line.c); "" */
	bool partial;       /* its runs were interrupted, lost their target or ran short: never merged with whole ones */
};


struct rep_cell {
	char *sig;          /* "read,4K,4K": the 2012 signature, a data column ("signature") */
	char *op;           /* the op as typed, "read4k" (rep_op_name): what tables show and --only op= matches */
	const struct rep_config *cfg;
	char *host;
	double threads;
	uint64_t size;      /* bytes the offsets spanned; 0 unknown */
	uint64_t block;     /* bytes per operation; 0 unknown */
	enum rep_kind kind;
	int rotational;     /* -1 unknown, 0 no, 1 yes */
	char model[64];     /* the target's device model (target.model), "" unknown */
	bool watch;         /* its points are `iobench watch` periods (latency over time) */
	double rate;        /* ops/s the runs were held to (--rate: the op's rate.target); 0 none */
	double launch;      /* earliest launchTime of its runs (Unix seconds; uptime for the 2012 tool); 0 unknown */
	struct hist total;  /* exact merge of every run's total */
	struct hist write_only, sync; /* exact merges of the runs' "writeOnly" and "sync" (syncing ops) */
	unsigned split_runs; /* runs that had them: all of runs, or the merges are partial */
	double cpu_ns, cpu_ops; /* CPU time (ns) and operations of the runs that recorded their CPU time */
	double seconds;     /* summed run time */
	unsigned runs;
	struct rep_point *pts; /* per time bucket, sorted by t after rep_db_finish() */
	size_t npts, cap;
	struct rep_heat *heat; /* per time bucket when db->keep_heat (--plot), sorted by t after rep_db_finish() */
	size_t nheat, heat_cap;
	uint32_t *hbins;    /* their counts */
	size_t nhbins, hbins_cap;
	struct rep_steady steady; /* its runs in rounds, if any: their figure is their window's */
};

/*
 * What one block device under a run's target did, over the run or one time
 * bucket (the line's "devices": iostat -x figures). NAN where unknown.
 */
struct rep_dev_stat {
	double seconds, reads, writes;
	double r_await, w_await; /* ms per completed read, write */
	double util;             /* busy fraction, 0..1 */
};

struct rep_dev {
	char name[32], type[12], role[12], above[32], serial[64];
	struct rep_dev_stat total;
	struct rep_dev_stat *buckets; /* aligned with the run's time buckets */
	size_t nbuckets;
};

/* The devices of one run line, with what names the run (report/sections/devices.c). */
struct rep_devrun {
	char *host;
	const struct rep_config *cfg;
	char *ops;          /* its operations as typed, "read4k write4k/64" */
	double threads;     /* its first operation's */
	uint64_t size;
	double launch, bucket; /* launchTime, and the seconds of a device bucket: bucketDuration x the line's fold */
	struct rep_dev *devs;
	size_t ndevs;
};

/* One bonnie++ line. Missing numbers are NAN, missing strings NULL. */
enum { REP_BONNIE_SEQ_OUT, REP_BONNIE_REWRITE, REP_BONNIE_SEQ_IN, REP_BONNIE_SEEKS,
       REP_BONNIE_NFIELDS };
struct rep_bonnie {
	char *host, *labels, *file_size;
	char *facts;        /* provision configuration facts, "k=v,k=v" sorted ("" none) */
	double launch;
	double rate[REP_BONNIE_NFIELDS]; /* KB/s, KB/s, KB/s, seeks/s */
	double cpu[REP_BONNIE_NFIELDS];  /* % */
	char *latency[REP_BONNIE_NFIELDS];
};

/* A run line's bookkeeping: its notes (and legacy bookkeeping labels). */
struct rep_note {
	char *host;
	const struct rep_config *cfg;
	double launch;      /* launchTime */
	char *sigs;         /* its operations' signatures, "read,4K,4K write64,4K,4K" */
	char *notes;        /* "planStep=3,runId=r1": sorted */
};

/* Run lines of a host and config whose target was RAM or not the volume provisioned (report/sections/targets.c). */
struct rep_target_flag {
	char *host;
	const struct rep_config *cfg;
	char *path;         /* the target's path (of the first such line) */
	char *finding;      /* "measured /dev/vda (root), not the gp3 volume" */
	unsigned runs;      /* lines of this host and config with this finding */
};

/* One host of a fleet's manifest.json. Missing numbers are NAN, missing strings NULL. */
struct rep_fleet_host {
	char *run;          /* the manifest's runId */
	char *state;        /* the run's state: running, complete, interrupted */
	char *name;         /* the host's name, as its lines say "host" */
	char *status;       /* ok, failed, not-fetched, partial, not-started */
	char *kind;         /* failure kind: unreachable, auth, no-iobench, no-space, exited, ... */
	char *detail;       /* failure detail */
	char *remote;       /* remotePath: where its results are on the host */
	char *results;      /* results: where they were to land, relative to the manifest */
	char *facts;        /* its provision configuration facts, as rep_config.facts; "" if none */
	double planned, finished, fetched, exit_code;
	bool has_lines;     /* result lines of it were read (rep_fleet_match()) */
};

/* Why a run is partial: its line said interrupted, targetLost, or it ran short of its runtime. */
enum rep_partial_kind { REP_PARTIAL_INTERRUPTED, REP_PARTIAL_TARGET_LOST, REP_PARTIAL_SHORT, REP_PARTIAL_KINDS };

/* A warning of the report ("FILE:LINE: what is wrong"), for the command layer to say. */
typedef void rep_warn_fn(void *arg, const char *msg);

struct rep_db {
	struct rep_cell **cells;
	size_t ncells, cells_cap;
	size_t *slots; /* open-addressing hash of cell indexes + 1; 0 = free */
	size_t nslots;
	struct rep_config **configs;
	size_t nconfigs, configs_cap;
	size_t *config_slots; /* the same kind of hash, of config indexes + 1 */
	size_t nconfig_slots;
	struct rep_note *notes;
	size_t nnotes, notes_cap;
	struct rep_target_flag *tflags;
	size_t ntflags, tflags_cap;
	struct rep_fleet_host *fleet;
	size_t nfleet, fleet_cap;
	unsigned long manifests;
	struct rep_bonnie *bonnie;
	size_t nbonnie, bonnie_cap;
	struct rep_devrun *devruns;   /* run lines' devices (report/sections/devices.c) */
	size_t ndevruns, devruns_cap;
	struct rep_verdict *verdicts; /* `iobench durability verify` lines (report/store/verdict.h) */
	size_t nverdicts, verdicts_cap;
	/*
	 * Every histogram added, merged: a line that would take it past
	 * HIST_COUNT_MAX is refused, so no merge of cells (a subset) can wrap.
	 */
	struct hist sum;
	/* counters for the summary line */
	unsigned long files, lines, runs, operations, skipped;
	unsigned long warnings; /* warnings said (rep_warn), or counted only when there is no warn */
	rep_warn_fn *warn;      /* the command layer's: says "FILE:LINE: what is wrong" (it adds "iobench: ") */
	void *warn_arg;
	unsigned jobs; /* threads that read documents (report --jobs); 0: one per CPU, at most 8 */
	bool include_partial; /* report --include-partial: partial runs merge with whole ones */
	bool merge_rounds;    /* report --merge-rounds: rounds and runs of other durations merge */
	bool keep_heat;       /* report --plot: keep each time bucket's histogram (struct rep_heat); set before reading */
	unsigned long kept_apart[REP_PARTIAL_KINDS]; /* partial runs kept apart, by kind (rep_partial_kind) */
	bool runs_split;      /* rounds or runs of different durations were told apart (rep_db_finish) */
	struct rep_pipe *pipe; /* while a read is under way (report/read/pipe.h) */
	/* files and folders read so far, by device and inode: each is read once */
	struct rep_seen *seen; /* open-addressing hash, seen_cap a power of two; path NULL = free */
	size_t nseen, seen_cap;
};

struct rep_seen {
	uint64_t dev, ino;
	char *path; /* the path it was first reached by */
};

#endif
