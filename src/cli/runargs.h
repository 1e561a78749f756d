/*
 * SPDX-License-Identifier: Apache-2.0
 * runargs.h - what `iobench run` and `iobench watch` share: one option table
 * (each row says which of the two takes it), the parsed settings, and the
 * steps both take before their own work (parse, pick the clock, block the
 * stop signals, make sure the target exists and suits the operations).
 *
 * CLI layer: these print their messages ("iobench: ...") and return exit
 * codes (commands.h).
 */
#ifndef IOBENCH_CLI_RUNARGS_H
#define IOBENCH_CLI_RUNARGS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cli/cmdline.h"
#include "host/target.h"
#include "lib/clock.h"
#include "lib/opspec.h"
#include "measure/run.h"

#define RUNARGS_MAX_OPS 64
#define RUNARGS_MAX_COUNTS 256
/* --rate: one op in 1000 s at the least; slower is no load at all. */
#define RUNARGS_MIN_RATE 0.001
#define RUNARGS_MAX_NOTES 64

/* Whether to ask the EC2 instance metadata service for provisioning facts. */
enum runargs_imds {
	RUNARGS_IMDS_AUTO,  /* when DMI says EC2, or IOBENCH_IMDS_ENDPOINT is set */
	RUNARGS_IMDS_ASK,   /* --provision imds: always (and say when it fails) */
	RUNARGS_IMDS_NEVER, /* --provision none */
};

/* The two commands' bits in the table's rows. */
enum { RUNARGS_RUN = 1, RUNARGS_WATCH = 2 };

/* The rows of both commands' options. */
extern const struct cmdline_table runargs_table;

struct runargs_plan_line;

struct run_args {
	bool watch;                  /* parsed for `iobench watch` */
	struct op_spec ops[RUNARGS_MAX_OPS];
	size_t nops;
	/*
	 * run: the group of each op, from 0: each -o is a group, run after the
	 * one before (the ops of a 2012 '.' form, or all with --together, are
	 * one group and run at the same time); groups are contiguous in ops[].
	 */
	unsigned op_group[RUNARGS_MAX_OPS];
	size_t ngroups;
	bool together;               /* --together */
	const char *threads;         /* -t as given; parsed into counts */
	unsigned counts[RUNARGS_MAX_COUNTS];
	size_t ncounts;
	bool shuffle;
	uint64_t duration_ns, bucket_ns, max_ops;
	uint64_t create_size, span;  /* --size, --span; 0 = not given */
	int direct_mode;             /* -1 per op's default, 0 --no-direct, 1 --direct */
	bool dsync;
	const char *engine;
	uint64_t iodepth;
	uint64_t batch;              /* --batch; 0 = not given (each request at once) */
	bool register_files, register_buffers, sqpoll, hipri; /* io_uring's options */
	double rate;
	enum clock_choice clock;
	struct cmdline_seed seed;
	struct cmdline_labels labels;
	const char *host;            /* --host NAME as given */
	char *host_name;             /* after runargs_start(): --host, else IMDS's instance id, else NULL (gethostname) */
	const char *notes[RUNARGS_MAX_NOTES]; /* --note "key=value" */
	size_t nnotes;
	enum runargs_imds imds;
	json_t *provision_given;     /* --provision FILE and --provision-fact, in order; NULL if none */
	json_t *provision;           /* after runargs_start(): IMDS's facts, then the given ones; NULL if none */
	const char *json_path, *raw_path;
	uint64_t interval_ns, period_ns, max_periods; /* watch */
	const char *prom_path;       /* watch --prom; NULL = none */
	bool quiet, force;
	uint64_t progress_ns;        /* --progress; 0 = none (when given) */
	bool progress_given;
	bool no_device_stats;        /* --no-device-stats: list the devices, read no /proc/diskstats */
	bool steady;                 /* --steady: rounds until steady state (measure/steady.h) */
	uint64_t steady_round_ns, steady_window, max_rounds; /* 0 = not given (the defaults, after parsing) */
	const char *steady_on;       /* --steady-on iops|lat; NULL = not given */
	bool precondition, initialize; /* --precondition, --initialize: before the first run */
	const char *target;
	char *temp_target;           /* run on a directory: the temporary file made in it (malloc'd), removed by runargs_free */
	bool created;                /* --size created the target during runargs_start */
	char *command_line;          /* as the JSON records it; malloc'd */
	const char *plan_path;       /* --plan FILE; NULL = none */
	struct runargs_plan_line *plan; /* after runargs_start(): the plan's runs lines (nplan), in order */
	size_t nplan;
};

/*
 * One line of a plan file that names runs: its options parsed as a command
 * line's (the command line's, then the line's words), with the command
 * line's TARGET, host, provision facts and command line (borrowed, not
 * freed with it) and two notes of its own, planLine and planLineNumber.
 */
struct runargs_plan_line {
	unsigned number;   /* in the file, from 1 */
	char **words;      /* the argv it was parsed from (nwords), each malloc'd */
	int nwords;
	char *notes[2];    /* "planLine=TEXT", "planLineNumber=N" */
	struct run_args args;
};

/* A plan file: at most this many bytes and lines that name runs. */
#define RUNARGS_PLAN_MAX_BYTES (1 << 20)
#define RUNARGS_PLAN_MAX_LINES 4096

/* The size of the temporary file `iobench run DIR` makes in DIR when --size is not given. */
#define RUNARGS_DIR_SIZE (1ULL << 30)

/*
 * Everything both commands do before their own work: parse argv into a
 * (with the defaults), learn the provisioning facts (asking IMDS within
 * IMDS_TIMEOUT_MS when a->imds says so) and the host's name, set up the
 * clock, block the stop signals into sigs, and probe the target into t
 * (creating it for --size; checking size, span and write access).
 * Returns 0 to go on, CMDLINE_DONE when --help or --version was printed,
 * or an exit code with the message printed. runargs_free() a in every case.
 */
int runargs_start(struct run_args *a, const struct cmdline_cmd *cmd, int argc, char **argv,
		  struct target_info *t, sigset_t *sigs);

/* Free what runargs_start() allocated, and remove the temporary file of a directory target. */
void runargs_free(struct run_args *a);

/*
 * For a command that fails (exit 1 or 2): remove the target when --size
 * created it in runargs_start(), so a failed run leaves no file behind.
 */
void runargs_remove_created(const struct run_args *a);

/* The io_uring options as the engine takes them (all zero when none was given). */
struct engine_opts runargs_engine_opts(const struct run_args *a);

/* The operations as one run executes them, for a --threads count (ops[] holds a->nops). */
void runargs_build_ops(const struct run_args *a, unsigned count, struct run_op *ops);

/*
 * Warn when a buffered op's span is smaller than twice what the page cache
 * can hold (the RAM, or this cgroup's memory limit when smaller); true when
 * it did. Call it once per command (a plan: until it warns), before the
 * first run.
 */
bool runargs_warn_buffered(const struct run_args *a, const struct target_info *t, const struct run_op *ops);

#endif
