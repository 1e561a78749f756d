/* runargs.c - the options of run and watch, and the target checks both make first. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/runargs.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/prepare.h"
#include "engines/engine.h"
#include "host/cgroup.h"
#include "host/imds.h"
#include "host/provision.h"
#include "lib/err.h"
#include "lib/signals.h"
#include "lib/steady.h"
#include "lib/units.h"
#include "measure/create.h"
#include "measure/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int parse_op(void *settings, const char *arg)
{
	struct run_args *a = settings;
	char err[ERR_MAX];
	int rc = opspec_parse(arg, a->ops + a->nops, RUNARGS_MAX_OPS - a->nops, err, sizeof(err));
	if (rc == -E2BIG)
		return diag_usage("too many operations (at most %d)", RUNARGS_MAX_OPS);
	if (rc < 0)
		return diag_usage("%s", err);
	/* One -o is one group: its ops (several in the 2012 '.' form) run at the same time. */
	for (size_t i = a->nops; i < a->nops + (size_t)rc; i++)
		a->op_group[i] = (unsigned)a->ngroups;
	a->ngroups++;
	a->nops += (size_t)rc;
	return 0;
}

static int set_direct_mode(struct run_args *a, int mode)
{
	if (a->direct_mode != -1 && a->direct_mode != mode)
		return diag_usage("--direct and --no-direct contradict each other; give one");
	a->direct_mode = mode;
	return 0;
}

static int parse_direct(void *settings, const char *arg)
{
	(void)arg;
	return set_direct_mode(settings, 1);
}

static int parse_no_direct(void *settings, const char *arg)
{
	(void)arg;
	return set_direct_mode(settings, 0);
}

static int parse_clock(void *settings, const char *arg)
{
	struct run_args *a = settings;
	if (!clock_choice_parse(arg, &a->clock))
		return diag_usage("bad --clock '%s'; use auto, tsc or clock_gettime", QUOTE(arg));
	return 0;
}

static int parse_rate(void *settings, const char *arg)
{
	struct run_args *a = settings;
	const char *end = arg;
	if (units_parse_decimal(arg, &a->rate, &end) != 0 || *end != '\0' || !(a->rate >= RUNARGS_MIN_RATE) ||
	    a->rate > 1e9)
		return diag_usage("bad --rate '%s'; use operations per second, 0.001 to 1e9, e.g. 1000", QUOTE(arg));
	return 0;
}

static int parse_progress(void *settings, const char *arg)
{
	struct run_args *a = settings;
	a->progress_given = true;
	if (strcmp(arg, "0") == 0) {
		a->progress_ns = 0;
		return 0;
	}
	int rc = units_parse_duration(arg, &a->progress_ns);
	if (rc < 0)
		return diag_usage("bad --progress '%s'; use seconds between progress lines (30, 0.5, 5m), or 0 for none",
				  QUOTE(arg));
	return 0;
}

static int parse_prom(void *settings, const char *arg)
{
	struct run_args *a = settings;
	size_t n = strlen(arg);
	const char *base = strrchr(arg, '/');
	base = base ? base + 1 : arg;
	if (n < 5 || strcmp(arg + n - 5, ".prom") != 0 || strlen(base) == 5)
		return diag_usage("bad --prom '%s'; node_exporter's textfile collector reads only NAME.prom "
				  "files, e.g. /var/lib/prometheus/node-exporter/iobench.prom", QUOTE(arg));
	a->prom_path = arg;
	return 0;
}

static int parse_note(void *settings, const char *arg)
{
	struct run_args *a = settings;
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !cmdline_is_text(arg))
		return diag_usage("bad --note '%s'; use KEY=VALUE in UTF-8 text, e.g. runId=r1", QUOTE(arg));
	if (a->nnotes == RUNARGS_MAX_NOTES)
		return diag_usage("too many --note options (at most %d)", RUNARGS_MAX_NOTES);
	a->notes[a->nnotes++] = arg;
	return 0;
}

static json_t *given_facts(struct run_args *a)
{
	if (!a->provision_given)
		a->provision_given = json_object();
	return a->provision_given;
}

static int parse_provision(void *settings, const char *arg)
{
	struct run_args *a = settings;
	char err[ERR_MAX];
	if (strcmp(arg, "imds") == 0) {
		a->imds = RUNARGS_IMDS_ASK;
		return 0;
	}
	if (strcmp(arg, "none") == 0) {
		a->imds = RUNARGS_IMDS_NEVER;
		return 0;
	}
	if (arg[0] == '\0')
		return diag_usage("--provision is empty; give a FILE holding a JSON object of facts, imds or none");
	if (provision_load_file(arg, given_facts(a), err, sizeof(err)) < 0)
		return diag_usage("--provision %s; give a JSON object of facts (e.g. {\"instanceType\": \"m5.large\"}), imds or none",
				  err);
	return 0;
}

static int parse_provision_fact(void *settings, const char *arg)
{
	struct run_args *a = settings;
	char err[ERR_MAX];
	if (provision_set_fact(given_facts(a), arg, err, sizeof(err)) < 0)
		return diag_usage("bad --provision-fact: %s; use KEY=VALUE, e.g. volumeType=gp3 or volumeCount=4", err);
	return 0;
}

/* Who takes a row: run, watch, or both. */
#define RUN RUNARGS_RUN
#define WATCH RUNARGS_WATCH
#define BOTH (RUNARGS_RUN | RUNARGS_WATCH)
#define CMDLINE_SETTINGS struct run_args
/* name, short, value, commands, help, default, how; in --help order. */
static const struct cmdline_opt runargs_opts[] = {
	{ "op", 'o', "OP", RUN, "operation; several run one after the other, each a run\n"
	  "of its own (--together: at the same time)", "read4k", CUSTOM(parse_op) },
	{ "together", 0, NULL, RUN, "run the -o operations at the same time, in one run", NULL, FLAG(together) },
	{ "op", 'o', "OP", WATCH, "operation, repeatable", "read4k and write4k/64", CUSTOM(parse_op) },
	{ "threads", 't', "LIST", RUN, "threads per operation: 24, 1,2,4 or 1..4,8; several\n"
	  "counts make a sweep, one run per count", "1", STRING(threads) },
	{ "shuffle", 0, NULL, RUN, "run the runs (each op at each count) in random order", NULL, FLAG(shuffle) },
	{ "duration", 'd', "SECS", RUN, "length of each run; 90s, 5m also work", "60", DURATION(duration_ns) },
	{ "bucket", 'b', "SECS", RUN, "length of a time bucket", "10", DURATION(bucket_ns) },
	{ "ops", 'n', "N", RUN, "stop each thread after N operations", NULL, U64(max_ops, 1, UINT64_MAX >> 1) },
	{ "interval", 0, "SECS", WATCH, "between probe rounds", "10", DURATION(interval_ns) },
	{ "period", 0, "SECS", WATCH, "one JSON line per period", "3600", DURATION(period_ns) },
	{ "count", 0, "N", WATCH, "stop after N periods (default: run until stopped)", NULL,
	  U64(max_periods, 1, UINT64_MAX >> 1) },
	{ "size", 0, "SIZE", BOTH, "create TARGET with random data if it does not exist", NULL, SIZE(create_size) },
	{ "span", 0, "SIZE", BOTH, "only use offsets in the first SIZE bytes", NULL, SIZE(span) },
	{ "direct", 0, NULL, BOTH, "O_DIRECT for every operation", NULL, CUSTOM(parse_direct) },
	{ "no-direct", 0, NULL, BOTH, "no O_DIRECT at all (measures the page cache too)", NULL, CUSTOM(parse_no_direct) },
	{ "dsync", 0, NULL, BOTH, "O_DSYNC instead of O_SYNC for flushed writes", NULL, FLAG(dsync) },
	/* No default here: the engines say which is theirs (engine_default()). */
	{ "engine", 'e', "NAME", RUN, "I/O engine: sync (pread/pwrite, default), libaio, io_uring", NULL, STRING(engine) },
	{ "iodepth", 0, "N", RUN, "operations in flight per thread with libaio or io_uring", "1",
	  U64(iodepth, 1, WORKER_MAX_DEPTH) },
	{ "batch", 0, "N", RUN, "io_uring: queue N requests, then submit them in one call\n"
	  "(and wait in the same call when the queue is full; default 1)", NULL, U64(batch, 1, WORKER_MAX_DEPTH) },
	{ "register-files", 0, NULL, RUN, "io_uring: register the file with the ring once", NULL, FLAG(register_files) },
	{ "register-buffers", 0, NULL, RUN, "io_uring: register the buffers once (READ_FIXED, WRITE_FIXED)", NULL,
	  FLAG(register_buffers) },
	{ "sqpoll", 0, NULL, RUN, "io_uring: a kernel thread takes requests off the ring\n"
	  "(no system call to submit; its CPU time counts)", NULL, FLAG(sqpoll) },
	{ "hipri", 0, NULL, RUN, "io_uring: poll for completions (O_DIRECT, devices with poll queues)", NULL,
	  FLAG(hipri) },
	{ "rate", 0, "IOPS", RUN, "open loop: each op issues IOPS operations per second in total\n"
	  "(split across its threads) on a fixed schedule; latency\n"
	  "counts from when each op was due, service time apart", NULL, CUSTOM(parse_rate) },
	{ "clock", 0, "SOURCE", BOTH, "time source: auto (the TSC where the kernel keeps time\n"
	  "with it, else clock_gettime), tsc, clock_gettime\n", "auto", CUSTOM(parse_clock) },
	SEED_ROW(BOTH, "seed for offsets and data (same seed, same offsets)", CMDLINE_SEED_MAX),
	LABEL_ROW(BOTH, "recorded in the JSON (repeatable); labels make a configuration\n"
		  "in the report"),
	HOST_ROW(BOTH, "the host's name as the hosts file or the cloud calls it\n"
		 "(default: the EC2 instance id from IMDS, else the hostname)"),
	{ "provision", 0, "FILE", BOTH, "what was provisioned: a JSON object of facts (instanceType,\n"
	  "volumeType, volumeCount, raidLevel, ...); 'imds' asks the EC2\n"
	  "metadata service (automatic on EC2), 'none' never asks it", NULL, CUSTOM(parse_provision) },
	{ "provision-fact", 0, "KEY=VALUE", BOTH, "one provisioning fact, e.g. volumeType=gp3 (repeatable;\n"
	  "numbers and true/false are recorded as such)", NULL, CUSTOM(parse_provision_fact) },
	{ "note", 0, "KEY=VALUE", BOTH, "bookkeeping recorded in the JSON (repeatable), e.g. runId=r1;\n"
	  "never splits a group in the report", NULL, CUSTOM(parse_note) },
	{ "json", 0, "FILE", RUN, "append one JSON line per run ('-' for stdout)", NULL, STRING(json_path) },
	{ "json", 0, "FILE", WATCH, "append the lines here (default stdout)", NULL, STRING(json_path) },
	{ "prom", 0, "FILE", WATCH, "after every round, replace FILE (NAME.prom) with Prometheus\n"
	  "counters for node_exporter's textfile collector", NULL, CUSTOM(parse_prom) },
	{ "steady", 0, NULL, RUN, "run each op in rounds until steady state (SNIA PTS: over the\n"
	  "last window of rounds, IOPS within 20% and the fitted line's\n"
	  "slope within 10% of the average) or --max-rounds; -d, -b unused", NULL, FLAG(steady) },
	{ "steady-round", 0, "SECS", RUN, "with --steady: one round (default 60)", NULL, DURATION(steady_round_ns) },
	{ "steady-window", 0, "N", RUN, "with --steady: rounds judged together (default 5)", NULL,
	  U64(steady_window, STEADY_MIN_WINDOW, 1000) },
	{ "max-rounds", 0, "N", RUN, "with --steady: at most N rounds (default 25)", NULL, U64(max_rounds, 1, 10000) },
	{ "steady-on", 0, "WHAT", RUN, "with --steady: iops (default), or lat: each round's p99 too", NULL,
	  STRING(steady_on) },
	{ "precondition", 0, NULL, RUN, "first write TARGET sequentially twice over in 128 KiB blocks\n"
	  "(as 'iobench precondition' does; SNIA PTS)", NULL, FLAG(precondition) },
	{ "initialize", 0, NULL, RUN, "first read every block of TARGET once (a volume restored\n"
	  "from a snapshot is slow until each block is touched)", NULL, FLAG(initialize) },
	{ "raw", 0, "FILE", RUN, "append a line per operation (op, offset, length,\n"
	  "duration us, end us since start) in the 2012 tool's format", NULL, STRING(raw_path) },
	{ "plan", 0, "FILE", RUN, "run FILE's lines in order, one run a line in these options'\n"
	  "words (-o read4k -t 8 -d 60); TARGET stays on the command line", NULL, STRING(plan_path) },
	{ "progress", 0, "SECS", RUN, "a progress line on stderr every SECS: run k of n, elapsed,\n"
	  "ETA, each op's IOPS and p99 (default: a live line on a\n"
	  "terminal, every 30 s otherwise; 0: none)", NULL, CUSTOM(parse_progress) },
	QUIET_ROW(RUN, "no summary, no progress (unless --progress is given)"),
	QUIET_ROW(WATCH, "no line on stderr per period"),
	{ "force", 0, NULL, BOTH, "allow writes to a block device that looks in use", NULL, FLAG(force) },
	{ "no-device-stats", 0, NULL, BOTH, "record the devices under TARGET but not their figures\n"
	  "(by default /proc/diskstats is read at each bucket or period)", NULL, FLAG(no_device_stats) },
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS

static const char *const runargs_cmd_names[] = { "run", "watch" };

static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands);

const struct cmdline_table runargs_table = {
	runargs_opts, sizeof(runargs_opts) / sizeof(runargs_opts[0]), runargs_cmd_names, check_args,
};

/* What no row's default says: which command, "neither --direct nor --no-direct", the clock's seed. */
static void set_defaults(struct run_args *a, bool watch)
{
	memset(a, 0, sizeof(*a));
	a->watch = watch;
	a->direct_mode = -1;
	a->seed.value = cmdline_default_seed();
}

/*
 * Each engine option given must be one the engine can do; an option
 * names the engine that can ("add -e io_uring").
 */
static int check_engine_opts(const struct run_args *a, const struct engine_ops *e)
{
	const struct {
		const char *name;
		bool given;
		unsigned cap;
	} opts[] = {
		{ "--batch", a->batch != 0, ENGINE_CAP_BATCH },
		{ "--register-files", a->register_files, ENGINE_CAP_REGISTER_FILES },
		{ "--register-buffers", a->register_buffers, ENGINE_CAP_REGISTER_BUFFERS },
		{ "--sqpoll", a->sqpoll, ENGINE_CAP_SQPOLL },
		{ "--hipri", a->hipri, ENGINE_CAP_POLL },
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (!opts[i].given || engine_can(e, opts[i].cap))
			continue;
		const struct engine_ops *can = engine_with(opts[i].cap);
		return diag_usage("%s is an %s option and the engine is %s; add -e %s", opts[i].name,
				  can ? can->name : "other engines'", e->name, can ? can->name : "another engine");
	}
	if (a->batch > a->iodepth)
		return diag_usage("--batch %llu is more than --iodepth %llu; a batch is at most the requests in flight",
				  (unsigned long long)a->batch, (unsigned long long)a->iodepth);
	return 0;
}

struct engine_opts runargs_engine_opts(const struct run_args *a)
{
	return (struct engine_opts){ .batch = (unsigned)a->batch, .register_files = a->register_files,
				     .register_buffers = a->register_buffers, .sqpoll = a->sqpoll, .hipri = a->hipri };
}

/* --steady and its options: given together, consistent; the defaults filled in. */
static int check_steady(struct run_args *a)
{
	const char *alone = a->steady_round_ns ? "--steady-round" : a->steady_window ? "--steady-window"
			    : a->max_rounds ? "--max-rounds" : a->steady_on ? "--steady-on" : NULL;
	if (!a->steady && alone)
		return diag_usage("%s is an option of --steady; add --steady", alone);
	if (!a->steady)
		return 0;
	if (a->steady_on && strcmp(a->steady_on, "iops") != 0 && strcmp(a->steady_on, "lat") != 0)
		return diag_usage("bad --steady-on '%s'; use iops or lat", QUOTE(a->steady_on));
	if (a->max_ops)
		return diag_usage("--ops stops each thread after N operations and --steady runs in rounds; give one");
	if (!a->steady_round_ns)
		a->steady_round_ns = STEADY_DEFAULT_ROUND_S * 1000000000ULL;
	if (!a->steady_window)
		a->steady_window = STEADY_DEFAULT_WINDOW;
	if (!a->max_rounds)
		a->max_rounds = a->steady_window > STEADY_DEFAULT_MAX_ROUNDS ? a->steady_window : STEADY_DEFAULT_MAX_ROUNDS;
	if (a->max_rounds < a->steady_window)
		return diag_usage("--max-rounds %llu is fewer than --steady-window %llu; steady state is judged over a "
				  "whole window", (unsigned long long)a->max_rounds, (unsigned long long)a->steady_window);
	return 0;
}

/* The table's check: what the options say together (the thread list, buckets, engine), and TARGET. */
static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	struct run_args *a = settings;
	(void)cmd; /* a->watch says which */
	char err[ERR_MAX];
	if (a->watch && a->interval_ns > a->period_ns)
		return diag_usage("--interval is longer than --period; each period needs at least one probe");
	if (!a->watch && a->together) {
		for (size_t i = 0; i < a->nops; i++)
			a->op_group[i] = 0;
		a->ngroups = a->nops > 0;
	}
	if (!a->watch) {
		int n = opspec_parse_threads(a->threads, a->counts, RUNARGS_MAX_COUNTS, err, sizeof(err));
		if (n < 0)
			return diag_usage("%s", err);
		a->ncounts = (size_t)n;
		if (a->bucket_ns > a->duration_ns)
			a->bucket_ns = a->duration_ns;
		if (run_check_buckets(a->duration_ns, a->bucket_ns, err, sizeof(err)) < 0)
			return diag_usage("%s", err);
		int src = check_steady(a);
		if (src)
			return src;
	}
	if (noperands == 0)
		return diag_usage("no TARGET given; e.g. 'iobench --size 1G -o read4k data.bin' (see --help)");
	if (noperands > 1)
		return diag_usage("one TARGET only, got '%s' and '%s'; quote options' values", QUOTE(operands[0]),
				  QUOTE(operands[1]));
	a->target = operands[0];
	if (a->watch)
		return 0; /* the probe's engine is sync; the engine's options are run's */
	if (a->engine == NULL)
		a->engine = engine_default()->name;
	const struct engine_ops *e = engine_find(a->engine);
	if (!e) {
		const char *why = engine_missing_reason(a->engine);
		if (why)
			return diag_usage("engine '%s' is not available: %s", QUOTE(a->engine), why);
		return diag_usage("unknown engine '%s'; available: %s", QUOTE(a->engine), engine_names());
	}
	if (a->iodepth > 1 && !engine_can(e, ENGINE_CAP_QUEUE))
		return diag_usage("--iodepth %llu needs an asynchronous engine; the %s engine runs one operation at a time",
				  (unsigned long long)a->iodepth, e->name);
	return check_engine_opts(a, e);
}

static bool any_write(const struct run_args *a)
{
	for (size_t i = 0; i < a->nops; i++)
		if (a->ops[i].kind != OP_READ)
			return true;
	return false;
}

/*
 * --hipri polls for O_DIRECT completions on a queue set aside for polling.
 * Without one the kernel quietly completes by interrupt and the option
 * would measure nothing it claims: refuse it before the run.
 */
static int check_hipri(const struct run_args *a, const struct target_info *t)
{
	for (size_t i = 0; i < a->nops; i++) {
		bool direct;
		run_open_flags(&a->ops[i], a->direct_mode, a->dsync, &direct);
		if (!direct)
			return diag_usage("--hipri polls for O_DIRECT completions and %s is buffered; drop --hipri or add --direct",
					  a->ops[i].name);
	}
	if (!t->device[0] || t->io_poll < 0)
		return diag_usage("--hipri: %s is not on a block device with poll queues; drop --hipri", a->target);
	if (t->io_poll == 0)
		return diag_usage("--hipri: %s has no poll queues (/sys/block/%s/queue/io_poll is 0); drop --hipri, "
				  "or give the driver poll queues (NVMe: nvme.poll_queues=N)",
				  t->device, t->device);
	return 0;
}

static int check_ops(struct run_args *a, const struct prepare *p, const struct target_info *t);

/* The outputs; size, span and write access against the operations. */
static int check_target(struct run_args *a, const struct prepare *p, const struct target_info *t)
{
	const struct prepare_output out[] = {
		{ "--json", a->json_path, true, false },
		{ "--raw", a->raw_path, false, false },
		{ "--prom", a->prom_path, false, true },
	};
	int rc = prepare_outputs(t, out, sizeof(out) / sizeof(out[0]));
	return rc == 0 ? check_ops(a, p, t) : rc;
}

/* The span and the operations against the target: sizes, --hipri, write access. */
static int check_ops(struct run_args *a, const struct prepare *p, const struct target_info *t)
{
	char human[32], need[32];
	int rc = prepare_size(p, t, &a->span);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < a->nops; i++) {
		if (a->ops[i].size > a->span && a->span < t->size) {
			units_format_size(human, sizeof(human), a->span);
			units_format_size(need, sizeof(need), a->ops[i].size);
			return diag_usage("--span %s is smaller than one %s operation; use a span of at least %s",
					  human, a->ops[i].name, need);
		}
		if (a->ops[i].size > a->span) {
			units_format_size(human, sizeof(human), a->span);
			return diag_fail("%s: %s is smaller than one %s operation; use a larger file (--size) or a smaller op",
					 a->target, human, a->ops[i].name);
		}
	}
	if (a->hipri) {
		int hrc = check_hipri(a, t);
		if (hrc)
			return hrc;
	}
	return any_write(a) || a->precondition ? prepare_write(p, t) : 0;
}

/*
 * A file mostly made of holes (an interrupted copy, a truncate) reads as
 * zeros without touching the disk: say so before numbers that measure nothing.
 */
static void warn_sparse(const struct run_args *a, const struct target_info *t)
{
	if (t->is_block || a->span < (1u << 20) || t->allocated >= a->span / 2)
		return;
	char alloc[32], span[32];
	units_format_size(alloc, sizeof(alloc), t->allocated);
	units_format_size(span, sizeof(span), a->span);
	diag_warn("warning: %s has only %s of disk allocated for %s (sparse, or compressed by the filesystem): "
		  "reads of holes never reach the disk; recreate it with 'iobench create --force %s SIZE'",
		  a->target, alloc, span, a->target);
}

/*
 * tmpfs takes O_DIRECT (since 6.6) and zram looks like a disk: the numbers
 * would be RAM's, millions of IOPS. Say so before the run, not after.
 */
static void warn_memory(const struct run_args *a, const struct target_info *t)
{
	if (!t->memory)
		return;
	/* A run that cannot open its target (ramfs refuses O_DIRECT) fails with its one line, no warning first. */
	for (size_t i = 0; i < a->nops; i++) {
		bool direct;
		int flags = run_open_flags(&a->ops[i], a->direct_mode, a->dsync, &direct) & (O_ACCMODE | O_DIRECT);
		int fd = open(t->path, flags | O_CLOEXEC);
		if (fd < 0)
			return;
		close(fd);
	}
	if (t->is_block)
		diag_warn("%s is %s: this measures memory, not a disk; give a disk's device", t->path, t->memory_kind);
	else
		diag_warn("%s is %s: this measures memory, not a disk; put %s on a disk's filesystem",
			  t->mount_point[0] ? t->mount_point : t->path, t->memory_kind, t->path);
}

/*
 * The row of run's table a long option names: its exact name, else the one
 * name it starts (as getopt_long takes --tog for --together); NULL when none
 * or several.
 */
static const struct cmdline_opt *run_row_long(const char *name, size_t len)
{
	const struct cmdline_opt *found = NULL;
	for (size_t i = 0; i < sizeof(runargs_opts) / sizeof(runargs_opts[0]); i++) {
		const struct cmdline_opt *o = &runargs_opts[i];
		if (o->cmds && !(o->cmds & RUN))
			continue;
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		if (found && strcmp(found->name, o->name) != 0)
			return NULL;
		found = o;
	}
	return found;
}

static const struct cmdline_opt *run_row_short(char c)
{
	for (size_t i = 0; i < sizeof(runargs_opts) / sizeof(runargs_opts[0]); i++)
		if (runargs_opts[i].short_name == c && (!runargs_opts[i].cmds || (runargs_opts[i].cmds & RUN)))
			return &runargs_opts[i];
	return NULL;
}

/* The options about the command as a whole: the command line's, never a plan line's. */
static bool command_wide(const struct cmdline_opt *o)
{
	static const char *const names[] = { "json", "raw", "size", "force", "quiet", "progress", "plan", "host",
					      "provision", "provision-fact", "clock", "no-device-stats", "help",
					      "version" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(o->name, names[i]) == 0)
			return true;
	return false;
}

/*
 * Walk words as getopt would read them, each option's row to fn (with the
 * word that names it); a word that is not an option, or an unknown one, to
 * fn with row NULL. Stops at fn's first non-zero return, which it returns.
 */
static int walk_options(char **w, int n, int (*fn)(void *ctx, const struct cmdline_opt *row, const char *word),
			void *ctx)
{
	for (int i = 0; i < n; i++) {
		int rc;
		if (w[i][0] != '-' || w[i][1] == '\0' || strcmp(w[i], "--") == 0) {
			if ((rc = fn(ctx, NULL, w[i])) != 0)
				return rc;
			continue;
		}
		if (w[i][1] == '-') {
			const char *eq = strchr(w[i] + 2, '=');
			size_t len = eq ? (size_t)(eq - w[i] - 2) : strlen(w[i] + 2);
			const struct cmdline_opt *o = run_row_long(w[i] + 2, len);
			if ((rc = fn(ctx, o, w[i])) != 0)
				return rc;
			if (o && o->arg && !eq)
				i++;
			continue;
		}
		for (const char *c = w[i] + 1; *c; c++) {
			const struct cmdline_opt *o = run_row_short(*c);
			if ((rc = fn(ctx, o, w[i])) != 0)
				return rc;
			if (o && o->arg) {
				if (c[1] == '\0')
					i++;
				break;
			}
		}
	}
	return 0;
}

/* walk_options() over a plan line: what a line may not say. */
static int plan_word(void *ctx, const struct cmdline_opt *o, const char *word)
{
	(void)ctx;
	if (!o && word[0] == '-' && word[1] != '\0' && strcmp(word, "--") != 0)
		return diag_usage("unknown option '%s'; see 'iobench run --help'", QUOTE(word));
	if (!o)
		return diag_usage("'%s' is not an option; TARGET goes on the command line, not in the plan",
				  QUOTE(word));
	if (command_wide(o))
		return diag_usage("--%s is about the whole command; give it on the command line, not in the plan",
				  o->name);
	return 0;
}

/* walk_options() over the command line with --plan: -o is the plan's. */
static int plan_cmdline_word(void *ctx, const struct cmdline_opt *o, const char *word)
{
	(void)ctx;
	(void)word;
	if (o && strcmp(o->name, "op") == 0)
		return diag_usage("--plan gives the operations: put -o in the plan's lines, not on the command line");
	return 0;
}

/*
 * A plan line's words, shell-like but plain: split at blanks, '...' and
 * "..." keep blanks in a word, a word starting with # ends the line. Into
 * w (at most max, each malloc'd), *n of them, and the line up to its
 * comment, trimmed, into *text (malloc'd). 0, or the exit code of the one
 * line said.
 */
static int plan_split(const char *line, char **w, int max, int *n, char **text)
{
	*n = 0;
	*text = NULL;
	size_t len = strlen(line);
	char *word = malloc(len + 1);
	if (!word)
		return diag_fail("out of memory");
	const char *p = line, *end_text = line;
	int rc = 0;
	while (rc == 0) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0' || *p == '#')
			break;
		size_t k = 0;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r') {
			if (*p == '\'' || *p == '"') {
				const char *close = strchr(p + 1, *p);
				if (!close) {
					rc = diag_usage("a %s quote is not closed; close it on the same line",
							*p == '\'' ? "single" : "double");
					break;
				}
				memcpy(word + k, p + 1, (size_t)(close - p - 1));
				k += (size_t)(close - p - 1);
				p = close + 1;
			} else {
				word[k++] = *p++;
			}
		}
		end_text = p;
		if (rc != 0)
			break;
		word[k] = '\0';
		if (*n == max)
			rc = diag_usage("more than %d words; split the line", max);
		else if (!(w[*n] = strdup(word)))
			rc = diag_fail("out of memory");
		else
			++*n;
	}
	free(word);
	if (rc == 0) {
		const char *b = line;
		while (*b == ' ' || *b == '\t')
			b++;
		*text = strndup(b, end_text > b ? (size_t)(end_text - b) : 0);
		if (!*text)
			rc = diag_fail("out of memory");
	}
	return rc;
}

static void plan_line_free(struct runargs_plan_line *l)
{
	for (int i = 0; i < l->nwords; i++)
		free(l->words[i]);
	free(l->words);
	free(l->notes[0]);
	free(l->notes[1]);
	json_decref(l->args.provision_given);
}

/* Most words a plan line and the command line give together. */
#define PLAN_MAX_WORDS 1024

/*
 * One plan line: its words after the command line's options (argv[1..first),
 * a closing "--" left out), then "--" and TARGET, parsed as run parses a
 * command line; then what run checks of the ops against the target. 0, or
 * the exit code of the one line said (the caller set the context).
 */
static int plan_line_parse(struct run_args *base, int first, char **argv, const struct prepare *p,
			   const struct target_info *t, const char *line, struct runargs_plan_line *l, const char *cmd_name)
{
	char *lw[PLAN_MAX_WORDS];
	int nlw;
	char *text;
	int rc = plan_split(line, lw, PLAN_MAX_WORDS, &nlw, &text);
	if (rc == 0)
		rc = walk_options(lw, nlw, plan_word, NULL);
	if (rc == 0 && !cmdline_is_text(text))
		rc = diag_usage("the line is not UTF-8 text; write it in plain text");
	int nbase = first > 0 && strcmp(argv[first - 1], "--") == 0 ? first - 1 : first;
	if (rc == 0 && nbase + nlw + 2 > PLAN_MAX_WORDS)
		rc = diag_usage("more than %d words with the command line's; split the line", PLAN_MAX_WORDS);
	/* With argv's closing NULL, which getopt reads. */
	if (rc == 0 && !(l->words = calloc((size_t)(nbase + nlw + 3), sizeof(char *))))
		rc = diag_fail("out of memory");
	if (rc != 0) {
		for (int i = 0; i < nlw; i++)
			free(lw[i]);
		free(text);
		return rc;
	}
	for (int i = 0; i < nbase; i++)
		l->words[l->nwords++] = strdup(argv[i]);
	for (int i = 0; i < nlw; i++)
		l->words[l->nwords++] = lw[i];
	l->words[l->nwords++] = strdup("--");
	l->words[l->nwords++] = strdup(argv[first]);
	for (int i = 0; i < l->nwords; i++)
		if (!l->words[i]) {
			free(text);
			return diag_fail("out of memory");
		}
	size_t tl = strlen(text) + sizeof("planLine=");
	l->notes[0] = malloc(tl);
	l->notes[1] = malloc(sizeof("planLineNumber=") + 12);
	if (!l->notes[0] || !l->notes[1]) {
		free(text);
		return diag_fail("out of memory");
	}
	snprintf(l->notes[0], tl, "planLine=%s", text);
	snprintf(l->notes[1], sizeof("planLineNumber=") + 12, "planLineNumber=%u", l->number);
	free(text);
	const struct cmdline_cmd cmd = { .name = cmd_name, .bit = RUN, .table = &runargs_table };
	struct run_args *a = &l->args;
	set_defaults(a, false);
	int f;
	char **parse_words = malloc(((size_t)l->nwords + 1) * sizeof(char *));
	if (!parse_words)
		return diag_fail("out of memory");
	/* getopt permutes what it parses: a copy (NULL-ended, as argv), so that the words stay in their order. */
	memcpy(parse_words, l->words, ((size_t)l->nwords + 1) * sizeof(char *));
	rc = cmdline_parse(&cmd, a, l->nwords, parse_words, &f);
	free(parse_words);
	if (rc == CMDLINE_DONE)
		rc = diag_usage("--help and --version are not run options; give them on the command line");
	if (rc != 0)
		return rc;
	if (a->nnotes + 2 > RUNARGS_MAX_NOTES)
		return diag_usage("too many --note options with the plan's two (at most %d)", RUNARGS_MAX_NOTES);
	a->notes[a->nnotes++] = l->notes[0];
	a->notes[a->nnotes++] = l->notes[1];
	/* The command line's, borrowed: one target, one host, one set of facts for every run. */
	a->target = base->target;
	a->host_name = base->host_name;
	a->provision = base->provision;
	a->command_line = base->command_line;
	if (!a->seed.given)
		a->seed.value = base->seed.value;
	return check_ops(a, p, t);
}

/*
 * --plan FILE: every line read and checked before the first run, each
 * line that names runs parsed into base->plan. 0, or the exit code of the
 * one line said (naming the file and the line).
 */
static int plan_load(struct run_args *base, int first, char **argv, const struct prepare *p,
		     const struct target_info *t)
{
	int rc = walk_options(argv + 1, first - 1, plan_cmdline_word, NULL);
	if (rc != 0)
		return rc;
	FILE *f = fopen(base->plan_path, "re");
	if (!f)
		return diag_usage("--plan %s: %s; give a plan file (one run a line, see docs/usage.md)",
				  base->plan_path, strerror(errno));
	char *line = NULL;
	size_t cap = 0, bytes = 0;
	ssize_t got;
	unsigned number = 0;
	char where[PATH_MAX + 32];
	while (rc == 0 && (got = getline(&line, &cap, f)) >= 0) {
		number++;
		bytes += (size_t)got;
		if (bytes > RUNARGS_PLAN_MAX_BYTES) {
			rc = diag_usage("--plan %s: over %d bytes; split it into several plans", base->plan_path,
					RUNARGS_PLAN_MAX_BYTES);
			break;
		}
		if (got > 0 && line[got - 1] == '\n')
			line[--got] = '\0';
		if (strlen(line) != (size_t)got) {
			rc = diag_usage("--plan %s line %u: holds a NUL byte; a plan is text", base->plan_path, number);
			break;
		}
		const char *c = line;
		while (*c == ' ' || *c == '\t' || *c == '\r')
			c++;
		if (*c == '\0' || *c == '#')
			continue;
		if (base->nplan == RUNARGS_PLAN_MAX_LINES) {
			rc = diag_usage("--plan %s: over %d runs lines; split it into several plans", base->plan_path,
					RUNARGS_PLAN_MAX_LINES);
			break;
		}
		struct runargs_plan_line *more = realloc(base->plan, (base->nplan + 1) * sizeof(*more));
		if (!more) {
			rc = diag_fail("out of memory");
			break;
		}
		base->plan = more;
		struct runargs_plan_line *l = &base->plan[base->nplan++];
		memset(l, 0, sizeof(*l));
		l->number = number;
		snprintf(where, sizeof(where), "%s line %u", base->plan_path, number);
		diag_context(where);
		rc = plan_line_parse(base, first, argv, p, t, line, l, "run");
		diag_context(NULL);
	}
	if (rc == 0 && ferror(f))
		rc = diag_usage("--plan %s: cannot be read: %s", base->plan_path, strerror(errno));
	if (rc == 0 && base->nplan == 0)
		rc = diag_usage("--plan %s names no runs; write one run a line (-o read4k -t 8 -d 60)",
				base->plan_path);
	free(line);
	fclose(f);
	return rc;
}

/*
 * The provision object and the host's name: IMDS's facts when asked (or
 * on EC2), then the given ones over them; --host, else the instance id.
 */
static int resolve_provision(struct run_args *a)
{
	const char *endpoint = getenv(IMDS_ENDPOINT_ENV);
	if (endpoint && !*endpoint)
		endpoint = NULL;
	bool ask = a->imds == RUNARGS_IMDS_ASK || (a->imds == RUNARGS_IMDS_AUTO && (endpoint || imds_on_ec2()));
	json_t *facts = json_object();
	if (!facts)
		return diag_fail("%s", strerror(ENOMEM));
	if (ask) {
		char err[ERR_MAX];
		int rc = imds_fetch(endpoint ? endpoint : IMDS_DEFAULT_ENDPOINT, IMDS_TIMEOUT_MS, facts, err, sizeof(err));
		if (rc < 0 && a->imds == RUNARGS_IMDS_ASK)
			diag_warn("warning: --provision imds: %s; the results carry no facts from it", err);
		const char *id = json_string_value(json_object_get(facts, "instanceId"));
		if (rc == 0 && !a->host && id)
			a->host_name = strdup(id);
	}
	if (a->host)
		a->host_name = strdup(a->host);
	if (a->provision_given)
		json_object_update(facts, a->provision_given);
	if (json_object_size(facts) == 0) {
		json_decref(facts);
		facts = NULL;
	}
	a->provision = facts;
	return 0;
}

/*
 * `iobench run DIR` (as ioping and sysbench take a folder): the run goes to a
 * temporary file of --size (RUNARGS_DIR_SIZE when not given) made in DIR,
 * removed by runargs_free() whatever the end (a stop signal included: they
 * are blocked and awaited, so the command always gets there).
 */
static int dir_target(struct run_args *a)
{
	struct stat st;
	if (stat(a->target, &st) != 0 || !S_ISDIR(st.st_mode))
		return 0;
	size_t len = strlen(a->target);
	while (len > 1 && a->target[len - 1] == '/')
		len--;
	char *path = malloc(len + sizeof("/iobench-XXXXXX.dat"));
	if (!path)
		return diag_fail("out of memory");
	snprintf(path, len + sizeof("/iobench-XXXXXX.dat"), "%.*s/iobench-XXXXXX.dat", (int)len,
		 len == 1 && a->target[0] == '/' ? "" : a->target);
	/* The name reserved, then freed for create_file(), which renames the finished file onto it. */
	int fd = mkstemps(path, 4);
	if (fd < 0) {
		int e = errno;
		free(path);
		return diag_fail("%s: is a directory and a temporary file cannot be made in it (%s); give a directory "
				 "this user can write, or a file", a->target, strerror(e));
	}
	close(fd);
	unlink(path);
	bool given = a->create_size != 0;
	if (!given)
		a->create_size = RUNARGS_DIR_SIZE;
	char human[32];
	units_format_size(human, sizeof(human), a->create_size);
	diag_progress(a->quiet, "%s is a directory: running on a temporary file of %s in it (%s), removed afterwards",
		      a->target, human, given ? "--size" : "the default; --size to change");
	a->temp_target = path;
	a->target = path;
	return 0;
}

int runargs_start(struct run_args *a, const struct cmdline_cmd *cmd, int argc, char **argv,
		  struct target_info *t, sigset_t *sigs)
{
	set_defaults(a, cmd->bit == RUNARGS_WATCH);
	int first;
	int rc = cmdline_parse(cmd, a, argc, argv, &first);
	if (rc == 0)
		rc = resolve_provision(a);
	if (rc != 0)
		return rc;
	/* Recorded as "iobench [run|watch] ARGS...", whatever the program was called. */
	bool named = strcmp(argv[0], "run") == 0 || strcmp(argv[0], "watch") == 0;
	a->command_line = cmdline_join(argc, argv, "iobench", named ? 0 : 1);
	char why[ERR_MAX];
	if (clock_setup(a->clock, why, sizeof(why)) < 0)
		return diag_usage("--clock tsc: %s; use --clock auto", why);
	/* Signals are awaited, never handled: block them before any thread exists. */
	signals_block_stop(sigs);
	if (!a->watch) {
		rc = dir_target(a);
		if (rc != 0)
			return rc;
	}
	char missing[PATH_MAX + 64];
	snprintf(missing, sizeof(missing), "create it with 'iobench create %s SIZE' or add --size SIZE", a->target);
	const struct prepare p = { .path = a->target, .create_size = a->create_size,
				   .create_seed = a->seed.value ^ CREATE_SEED_SALT_RUN, .quiet = a->quiet, .sigs = sigs,
				   .missing = missing, .example = "iobench.dat", .writer = "a write benchmark",
				   .force = a->force, .created = &a->created };
	rc = prepare_target(&p, t);
	if (rc == 0)
		rc = check_target(a, &p, t);
	if (rc == 0 && a->plan_path)
		rc = plan_load(a, first, argv, &p, t);
	if (rc == 0) {
		warn_memory(a, t);
		warn_sparse(a, t);
	}
	return rc;
}

void runargs_remove_created(const struct run_args *a)
{
	if (a->created && !a->temp_target)
		unlink(a->target);
}

void runargs_free(struct run_args *a)
{
	if (a->temp_target) {
		unlink(a->temp_target);
		free(a->temp_target);
		a->temp_target = NULL;
	}
	free(a->command_line);
	a->command_line = NULL;
	free(a->host_name);
	a->host_name = NULL;
	json_decref(a->provision_given);
	json_decref(a->provision);
	a->provision_given = a->provision = NULL;
	for (size_t i = 0; i < a->nplan; i++)
		plan_line_free(&a->plan[i]);
	free(a->plan);
	a->plan = NULL;
	a->nplan = 0;
}

void runargs_build_ops(const struct run_args *a, unsigned count, struct run_op *ops)
{
	for (size_t i = 0; i < a->nops; i++) {
		ops[i].spec = a->ops[i];
		ops[i].thread_count = a->ops[i].threads > 0 ? a->ops[i].threads : count;
		ops[i].open_flags = run_open_flags(&a->ops[i], a->direct_mode, a->dsync, &ops[i].direct);
	}
}

bool runargs_warn_buffered(const struct run_args *a, const struct target_info *t, const struct run_op *ops)
{
	/* The page cache holds at most the RAM, or the memory cgroup's limit when that is smaller. */
	uint64_t mem = target_ram_bytes(), cg = cgroup_memory_limit();
	bool by_cgroup = cg && (mem == 0 || cg < mem);
	if (by_cgroup)
		mem = cg;
	if (t->is_block || mem == 0 || a->span >= TARGET_CACHE_SPAN_FACTOR * mem)
		return false;
	for (size_t i = 0; i < a->nops; i++) {
		if (ops[i].direct)
			continue;
		char span[32], size[32], m[32], want[32], what[PATH_MAX + 96];
		units_format_size(span, sizeof(span), a->span);
		units_format_size(size, sizeof(size), t->size);
		units_format_size(m, sizeof(m), mem);
		units_format_size(want, sizeof(want), TARGET_CACHE_SPAN_FACTOR * mem);
		/* What the offsets cover is what must outgrow the cache: the span, and the file's size when different. */
		if (a->span == t->size)
			snprintf(what, sizeof(what), "%s (%s)", a->target, span);
		else
			snprintf(what, sizeof(what), "its span (%s of %s's %s)", span, a->target, size);
		diag_warn("warning: %s runs through the page cache and %s is smaller than twice %s (%s): "
			  "the numbers include cache hits; use a %s over %s, or O_DIRECT",
			  ops[i].spec.name, what, by_cgroup ? "the memory limit of this cgroup" : "the RAM", m,
			  a->span == t->size ? "file" : "span", want);
		return true;
	}
	return false;
}
