/* run.c - `iobench [run]`: a run, or a sweep of runs over thread counts, and their results. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/precondition.h"
#include "cli/runargs.h"
#include "engines/engine.h"
#include "host/devices.h"
#include "lib/clock.h"
#include "lib/err.h"
#include "lib/prng.h"
#include "lib/signals.h"
#include "measure/run.h"
#include "measure/steady.h"
#include "results/output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct cmdline_cmd run_cmd = {
	.name = "run",
	.bit = RUNARGS_RUN,
	.table = &runargs_table,
	.intro = "usage: iobench [run] [OPTIONS] TARGET\n"
		 "\n"
		 "Random aligned I/O on TARGET (a file or block device) from several threads;\n"
		 "every latency goes into a geometric histogram (ratio 1.1, 1 us - 10 s).\n"
		 "A directory as TARGET: a temporary file of --size (default 1 GiB) in it,\n"
		 "removed afterwards (on Ctrl-C and on failure too).\n"
		 "\n"
		 "Operations (-o, repeatable; several run one after the other, --together at once):\n"
		 "  read4k read4m             read SIZE at a random SIZE-aligned offset (O_DIRECT)\n"
		 "  write4k write4m           write SIZE random bytes, O_DIRECT|O_SYNC\n"
		 "  write4k/64                buffered write, fdatasync with probability 1/64\n"
		 "  read<SIZE> write<SIZE> write<SIZE>/<N>, SIZE like 512, 4k, 64K, 1m;\n"
		 "  add @ALIGN to align offsets differently (read64k@4k); /0 never syncs\n"
		 "  OP,THREADS,SIZE,ALIGN     the 2012 tool's form (OP read|write|writeFlush|writeNN,\n"
		 "                            THREADS a number or i for --threads); join with '.'\n"
		 "                            to run them at the same time\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Exit status: 0 ok, 1 runtime error, 2 usage error, 130 interrupted (results kept).\n"
		 "Example: iobench --size 1G -o read4k -o write4k/64 -t 4 -d 30 --json out.jsonl data.bin\n",
};

/*
 * One run of the command: its options (the command line's, or a plan
 * line's), its ops (a group: one -o, or all of them with --together) and
 * its thread count.
 */
struct run_step {
	struct run_args *a;
	size_t first, nops; /* a->ops[first .. first + nops) */
	unsigned count;
	unsigned plan_line; /* --plan: the line it comes from; 0 = none */
};

/* The runs in random order (--shuffle): a seeded Fisher-Yates. */
static void shuffle_steps(const struct run_args *a, struct run_step *steps, size_t n)
{
	struct prng rng;
	prng_seed(&rng, a->seed.value, 0x5417f1e);
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)prng_below(&rng, i);
		struct run_step tmp = steps[i - 1];
		steps[i - 1] = steps[j];
		steps[j] = tmp;
	}
}

/*
 * The runs a's options make, appended to *steps (*n of them, grown by
 * realloc): each group of ops in the order given, and for each the sweep's
 * counts (a group whose ops all fix their own thread count, the long form,
 * makes one run). Returns 0 or -ENOMEM.
 */
static int add_steps(struct run_args *a, unsigned plan_line, struct run_step **steps, size_t *n)
{
	size_t start = *n;
	for (size_t first = 0; first < a->nops;) {
		size_t end = first;
		bool any_from_list = false;
		while (end < a->nops && a->op_group[end] == a->op_group[first])
			any_from_list |= a->ops[end++].threads == 0;
		size_t nruns = any_from_list ? a->ncounts : 1;
		struct run_step *more = realloc(*steps, (*n + nruns) * sizeof(**steps));
		if (!more)
			return -ENOMEM;
		*steps = more;
		for (size_t r = 0; r < nruns; r++)
			(*steps)[(*n)++] = (struct run_step){ .a = a, .first = first, .nops = end - first,
							     .count = a->counts[r], .plan_line = plan_line };
		first = end;
	}
	if (a->shuffle)
		shuffle_steps(a, *steps + start, *n - start);
	return 0;
}

/* Off a terminal, a progress line this often unless --progress says otherwise. */
#define RUN_PROGRESS_LINE_NS (30ULL * 1000000000ULL)
/* The live line of a terminal: redrawn this often. */
#define RUN_PROGRESS_LIVE_NS 1000000000ULL

/* The progress of the runs: a run's place among them, and the time left after it. */
struct progress {
	bool lines;           /* a line each time; false: the live line of a terminal */
	size_t k, n;          /* run k of n */
	char what[160];       /* "read4k, 4 threads" */
	uint64_t start_ns;    /* the run's start (clock_now_ns()) */
	uint64_t duration_ns; /* its length */
	uint64_t after_ns;    /* the length of the runs after it */
};

/* Seconds as a person reads them: 2.5s, 45s, 2m30s, 1h05m. */
static void format_secs(char *buf, size_t len, uint64_t ns)
{
	unsigned long long t = (ns + 500000000ULL) / 1000000000ULL;
	if (ns < 9950000000ULL && ns % 1000000000ULL >= 50000000ULL && ns % 1000000000ULL < 950000000ULL)
		snprintf(buf, len, "%.1fs", (double)ns / 1e9);
	else if (t < 60)
		snprintf(buf, len, "%llus", t);
	else if (t < 3600)
		snprintf(buf, len, "%llum%02llus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lluh%02llum", t / 3600, t / 60 % 60);
}

/* The status function of the runs (run_config.status): text is each op's IOPS and p99. */
static void progress_status(void *arg, const char *text)
{
	const struct progress *p = arg;
	if (!text) {
		if (!p->lines)
			diag_status(NULL, NULL);
		return;
	}
	uint64_t el = clock_now_ns() - p->start_ns;
	uint64_t left = (p->duration_ns > el ? p->duration_ns - el : 0) + p->after_ns;
	char e[16], d[16], eta[16];
	format_secs(e, sizeof(e), el);
	format_secs(d, sizeof(d), p->duration_ns);
	format_secs(eta, sizeof(eta), left);
	if (p->lines) {
		diag_warn("run %zu of %zu (%s): %s of %s, ETA %s: %s", p->k, p->n, p->what, e, d, eta, text);
		return;
	}
	char line[1280];
	snprintf(line, sizeof(line), "[%s/%s] run %zu/%zu, ETA %s: %s", e, d, p->k, p->n, eta, text);
	diag_status(NULL, line);
}

/*
 * A run as its progress names it: "read4k, 4 threads", or "read4k x3 +
 * write4k x1" when together; "plan line 3: " before, from a plan.
 */
static void describe_run(char *buf, size_t len, const struct run_step *s, const struct run_op *ops)
{
	size_t nops = s->nops, at = 0;
	buf[0] = '\0';
	if (s->plan_line)
		at = (size_t)snprintf(buf, len, "plan line %u: ", s->plan_line);
	if (nops == 1 && at < len) {
		snprintf(buf + at, len - at, "%s, %g thread%s", ops[0].spec.name, ops[0].thread_count,
			 ops[0].thread_count == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < nops && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s x%g", i ? " + " : "", ops[i].spec.name,
				       ops[i].thread_count);
}

/* Whether the runs show progress (--progress, else not -q), and how often. */
static bool progress_mode(const struct run_args *a, bool *lines, uint64_t *every)
{
	bool tty = isatty(STDERR_FILENO);
	*lines = a->progress_given || !tty;
	*every = a->progress_given ? a->progress_ns : tty ? RUN_PROGRESS_LIVE_NS : RUN_PROGRESS_LINE_NS;
	return a->progress_given ? a->progress_ns > 0 : !a->quiet;
}

/* The 2012 tool's header over each run's records in the --raw log. */
static void raw_header(FILE *raw, const struct run_args *a, const struct target_info *t,
		       const struct run_op *ops, size_t nops)
{
	char when[64];
	time_t now = time(NULL);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
	fprintf(raw, "# date: %s\n# arguments: %s\n# filesize: %llu\n# threadSpecs:", when, a->command_line,
		(unsigned long long)t->size);
	for (size_t i = 0; i < nops; i++)
		fprintf(raw, " %s x %g", ops[i].spec.signature, ops[i].thread_count);
	fputc('\n', raw);
}

/*
 * What went wrong in a run that still gave results: on stderr, under -q
 * too (the summary, which -q drops, is data; these are not).
 */
static void warn_run(const struct run_config *cfg, const struct run_result *res)
{
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		/* An op that measured nothing is the run's failure, said once by report_run. */
		if (o->total.errors && o->total.count)
			diag_warn("warning: %s: %llu of %llu operations failed (first: %s at offset %llu)",
				  cfg->ops[i].spec.name, (unsigned long long)o->total.errors,
				  (unsigned long long)(o->total.errors + o->total.count), strerror(o->first_errno),
				  (unsigned long long)o->first_err_offset);
	}
	if (res->stuck_threads)
		diag_warn("warning: %u thread(s) stuck in I/O were abandoned; their operations are not counted",
			  res->stuck_threads);
	if (res->stops)
		diag_warn("warning: the process was stopped %u time(s) mid-run (SIGSTOP, ^Z); the operations under "
			  "way then count the stopped time as latency (marked \"stopped\" in the JSON)", res->stops);
}

/* A finished run's JSON line, summary and warnings. Returns the exit code so far. */
static int report_run(const struct run_args *a, const struct run_config *cfg, const struct run_result *res)
{
	int rc = EXIT_OK;
	if (cfg->raw && res->raw_dropped < 0)
		rc = diag_fail("%s: writing the --raw log failed: %s", a->raw_path, strerror((int)-res->raw_dropped));
	else if (cfg->raw && res->raw_dropped > 0)
		diag_warn("warning: %lld operations missing from the --raw log (its writer fell behind)",
			  (long long)res->raw_dropped);
	struct run_meta meta = { .command_line = a->command_line, .labels = a->labels.kv, .nlabels = a->labels.n,
				 .host = a->host_name, .provision = a->provision, .notes = a->notes, .nnotes = a->nnotes,
				 .seed_given = a->seed.given };
	struct output_run out = run_output_of(cfg, &meta);
	if (a->json_path) {
		char *line = output_json_line(&out, res);
		int wrc = line ? output_append_line(a->json_path, line) : -ENOMEM;
		free(line);
		if (wrc == -EINVAL)
			return diag_fail("%s: cannot write results: not a regular file; give a file, or '-' for stdout",
					 a->json_path);
		if (wrc < 0)
			return diag_fail("%s: cannot write results: %s", a->json_path, strerror(-wrc));
	}
	if (!a->quiet) {
		FILE *f = a->json_path && strcmp(a->json_path, "-") == 0 ? stderr : stdout;
		output_summary(f, &out, res);
		/* Each run's table as it ends, in a log too (stdout to a file is fully buffered). */
		if (fflush(f) != 0) {
			int e = errno;
			clearerr(f); /* said here, once; what was buffered is gone */
			return diag_fail("writing to standard output failed: %s", strerror(e));
		}
	}
	warn_run(cfg, res);
	if (res->target_lost)
		return diag_fail("%s disappeared mid-run (unlinked, replaced or detached); results so far %s",
				 a->target, a->json_path ? "written, marked targetLost" : "shown");
	if (res->interrupted)
		return diag_interrupted("interrupted by %s; results so far %s", strsignal(res->signal),
					a->json_path ? "written" : "shown");
	/* An op none of whose operations succeeded measured nothing: not a success. */
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		if (o->total.count == 0 && o->total.errors > 0)
			return diag_fail("%s: all %llu operations failed (first: %s at offset %llu); results %s",
					 cfg->ops[i].spec.name, (unsigned long long)o->total.errors,
					 strerror(o->first_errno), (unsigned long long)o->first_err_offset,
					 a->json_path ? "written" : "shown");
	}
	return rc;
}

/* --steady: each round's IOPS, as progress. */
static void round_done(void *arg, unsigned round, const double *iops, size_t nops)
{
	const struct run_args *a = arg;
	char text[512];
	size_t len = 0;
	for (size_t i = 0; i < nops && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, " %s %.0f IOPS", a->ops[i].name, iops[i]);
	diag_progress(a->quiet, "round %u of at most %llu:%s", round, (unsigned long long)a->max_rounds, text);
}

/*
 * One run of the sweep: for a fixed duration, or with --steady in rounds
 * (then cfg's duration and bucket become what the rounds were).
 */
static int execute(const struct run_args *a, struct run_config *cfg, struct run_result *res, char *err,
		   size_t errlen)
{
	if (!a->steady)
		return run_execute(cfg, res, err, errlen);
	struct steady_config sc = {
		.round_ns = a->steady_round_ns, .window = (unsigned)a->steady_window,
		.max_rounds = (unsigned)a->max_rounds, .on_lat = a->steady_on && strcmp(a->steady_on, "lat") == 0,
		.round_done = round_done, .arg = (void *)a,
	};
	int rc = steady_execute(cfg, &sc, res, err, errlen);
	if (rc == 0) {
		cfg->bucket_ns = a->steady_round_ns;
		cfg->duration_ns = (res->nops ? res->ops[0].nbuckets : 0) * a->steady_round_ns;
	}
	return rc;
}

/* --steady: one line per op that never settled (a result, not a failure: the exit stays 0). */
static void say_not_steady(const struct run_args *a, const struct run_config *cfg, const struct run_result *res)
{
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_steady *s = res->ops[i].steady;
		if (!s || s->attained || res->interrupted || res->target_lost)
			continue;
		double secs = (double)a->steady_round_ns / 1e9;
		if (s->rounds < s->window)
			diag_warn("%s: steady state not attained: %u round%s of %g s, fewer than a window of %u",
				  cfg->ops[i].spec.name, s->rounds, s->rounds == 1 ? "" : "s", secs, s->window);
		else
			diag_warn("%s: steady state not attained in %u rounds of %g s (last window: %.0f IOPS, range "
				  "%.0f%%, slope %.0f%% of its average; limits 20%% and 10%%)",
				  cfg->ops[i].spec.name, s->rounds, secs, s->iops.avg, s->iops.range_pct,
				  s->iops.slope_pct);
	}
}

/* The runs, in order; stops at the first failure or signal. */
static int run_steps(const struct run_step *steps, size_t nsteps, const struct target_info *t, const sigset_t *sigs,
		     FILE *raw, const struct device_tree *devices)
{
	struct run_op all[RUNARGS_MAX_OPS];
	uint64_t after = 0;
	for (size_t r = 0; r < nsteps; r++)
		after += steps[r].a->duration_ns;
	for (size_t r = 0; r < nsteps; r++) {
		const struct run_step *s = &steps[r];
		struct run_args *a = s->a;
		runargs_build_ops(a, s->count, all);
		const struct run_op *ops = all + s->first;
		after -= a->duration_ns;
		struct progress prog = { .k = r + 1, .n = nsteps, .duration_ns = a->duration_ns, .after_ns = after };
		uint64_t every;
		bool show = progress_mode(a, &prog.lines, &every);
		describe_run(prog.what, sizeof(prog.what), s, ops);
		struct run_config cfg = {
			.target = t, .ops = ops, .nops = s->nops,
			.duration_ns = a->duration_ns, .bucket_ns = a->bucket_ns, .max_ops = a->max_ops,
			.span = a->span, .seed = a->seed.value, .engine = engine_find(a->engine), .engine_opts = runargs_engine_opts(a),
			.iodepth = (unsigned)a->iodepth, .rate = a->rate,
			.status = show ? progress_status : NULL, .status_arg = &prog, .status_ns = every,
			.stop_signals = sigs, .raw = raw, .devices = devices, .device_stats = !a->no_device_stats,
		};
		if (raw)
			raw_header(raw, a, t, ops, s->nops);
		if (nsteps > 1)
			diag_progress(!show, "run %zu of %zu: %s", r + 1, nsteps, prog.what);
		struct run_result res;
		char err[ERR_MAX];
		prog.start_ns = clock_now_ns();
		if (execute(a, &cfg, &res, err, sizeof(err)) < 0)
			return diag_fail("%s", err);
		int rc = report_run(a, &cfg, &res);
		if (rc == EXIT_OK)
			say_not_steady(a, &cfg, &res);
		run_result_free(&res);
		if (rc != EXIT_OK)
			return rc;
		/* A signal between runs stops the sweep too. */
		int sig = signals_wait(sigs, 0);
		if (sig > 0 && r + 1 < nsteps)
			return diag_interrupted("interrupted by %s between runs; %zu of %zu runs done", strsignal(sig), r + 1,
						nsteps);
	}
	return EXIT_OK;
}

/*
 * --precondition and --initialize, once before the first run; the result
 * lines' provision facts say it was done (a state of the target, as much
 * its configuration as what was provisioned).
 */
static int prepare_state(struct run_args *a, const struct target_info *t, const sigset_t *sigs)
{
	for (int k = 0; k < 2; k++) {
		bool read = k == 1;
		if (!(read ? a->initialize : a->precondition))
			continue;
		struct precondition_opts o = { .read = read, .passes = PRECONDITION_DEFAULT_PASSES,
					       .seed = a->seed.value ^ 0x9ec0ULL, .stop_signals = sigs };
		struct precondition_result r;
		int rc = precondition_target(a->target, t, &o, a->quiet, &r);
		if (rc != EXIT_OK)
			return rc;
		if (!a->provision)
			a->provision = json_object();
		json_object_set_new(a->provision, read ? "initialized" : "preconditioned", json_true());
	}
	return EXIT_OK;
}

/* Every run of the sweep, with the --raw log open around them. */
static int run_all(struct run_args *a, const struct target_info *t, const sigset_t *sigs)
{
	/* Found now, not after the first run: a sweep's measurement would be lost. */
	int wrc = a->json_path ? output_check_writable(a->json_path) : 0;
	if (wrc < 0)
		return diag_fail("--json %s: cannot write results: %s; give a file this user can write, or '-' "
				 "for stdout", a->json_path,
				 wrc == -EINVAL ? "not a regular file" : strerror(-wrc));
	FILE *raw = NULL;
	if (a->raw_path) {
		int fd = output_open_append(a->raw_path);
		raw = fd >= 0 ? fdopen(fd, "a") : NULL;
		if (!raw) {
			int e = fd >= 0 ? errno : -fd;
			if (fd >= 0)
				close(fd);
			return diag_fail("%s: cannot open the --raw log: %s", a->raw_path,
					 e == EINVAL ? "not a regular file" : strerror(e));
		}
		setvbuf(raw, NULL, _IOFBF, 1 << 20);
	}
	/* Once per command, before the first run: a sweep's runs share the file and the cache. */
	struct run_op ops[RUNARGS_MAX_OPS];
	if (a->nplan == 0) {
		runargs_build_ops(a, a->counts[0], ops);
		runargs_warn_buffered(a, t, ops);
	}
	for (size_t i = 0; i < a->nplan; i++) {
		runargs_build_ops(&a->plan[i].args, a->plan[i].args.counts[0], ops);
		if (runargs_warn_buffered(&a->plan[i].args, t, ops))
			break;
	}
	/* Once for the sweep: the stack does not change between its runs. */
	struct device_tree devices;
	devices_resolve(t, &devices);
	struct run_step *steps = NULL;
	size_t nsteps = 0;
	int rc = EXIT_OK;
	if (a->nplan == 0 && add_steps(a, 0, &steps, &nsteps) < 0)
		rc = diag_fail("out of memory");
	for (size_t i = 0; i < a->nplan && rc == EXIT_OK; i++)
		if (add_steps(&a->plan[i].args, a->plan[i].number, &steps, &nsteps) < 0)
			rc = diag_fail("out of memory");
	if (rc == EXIT_OK)
		rc = run_steps(steps, nsteps, t, sigs, raw, &devices);
	free(steps);
	devices_tree_free(&devices);
	if (raw && fclose(raw) != 0 && rc == EXIT_OK)
		return diag_fail("%s: writing the --raw log failed: %s", a->raw_path, strerror(errno));
	return rc;
}

void cmd_run_help(FILE *out)
{
	cmdline_help(&run_cmd, out);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct target_info t;
	sigset_t sigs;
	int rc = runargs_start(&a, &run_cmd, argc, argv, &t, &sigs);
	if (rc == 0)
		rc = prepare_state(&a, &t, &sigs);
	if (rc == 0)
		rc = run_all(&a, &t, &sigs);
	else if (rc == CMDLINE_DONE)
		rc = EXIT_OK;
	if (rc == EXIT_RUNTIME || rc == EXIT_USAGE)
		runargs_remove_created(&a);
	runargs_free(&a);
	return rc;
}
