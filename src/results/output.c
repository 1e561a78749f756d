/* output.c - JSON line and text summary of a run. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "results/output.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/hist_json.h"
#include "lib/units.h"
#include "lib/version.h"
#include "results/devices_json.h"
#include "results/jsonline.h"

#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

const double output_pct[OUTPUT_NPCT] = { 0.10, 0.50, 0.90, 0.99, 0.999, 0.9999 };
const char *const output_pct_key[OUTPUT_NPCT] = { "p10", "p50", "p90", "p99", "p99.9", "p99.99" };

static const char *const kind_names[] = {
	[OP_READ] = "read",
	[OP_WRITE_FLUSH] = "writeFlush",
	[OP_WRITE_N] = "writeN",
	[OP_MIXED] = "mixed",
};

double output_iops(const struct op_result *o, double elapsed_s)
{
	return elapsed_s > 0 ? (double)o->total.count / elapsed_s : 0;
}

double output_mbps(const struct op_result *o, double elapsed_s)
{
	return elapsed_s > 0 ? (double)o->bytes / elapsed_s / 1e6 : 0;
}

/* CPU time per operation done (successful or not), ns; NAN when none was done. */
static double cpu_per_op(uint64_t user_ns, uint64_t sys_ns, uint64_t ops)
{
	return ops ? (double)(user_ns + sys_ns) / (double)ops : NAN;
}

/* The cpu keys of an op or a run: user and system seconds, and ns per operation. */
static void cpu_json(json_t *obj, uint64_t user_ns, uint64_t sys_ns, uint64_t ops)
{
	double per = cpu_per_op(user_ns, sys_ns, ops);
	json_object_set_new(obj, "cpuUserSeconds", json_real((double)user_ns / 1e9));
	json_object_set_new(obj, "cpuSystemSeconds", json_real((double)sys_ns / 1e9));
	json_object_set_new(obj, "cpuNsPerOp", isnan(per) ? json_null() : json_real(per));
}

static uint64_t op_count(const struct op_result *o)
{
	return o->total.count + o->total.errors;
}

/* The threads that ran: those of every op run together (their rows say each op's own). */
static unsigned threads_ran(const struct output_run *run)
{
	unsigned n = 0;
	for (size_t i = 0; i < run->nops; i++)
		n += run_op_threads(&run->ops[i]);
	return n;
}

/*
 * The line's "threads": the --threads count (a sweep's step) that the ops
 * without a count of their own ran with; when every op has its own, the
 * threads that ran. A watch line's probes run on one thread.
 */
static unsigned threads_json(const struct output_run *run)
{
	if (run->meta->mode && strcmp(run->meta->mode, "watch") == 0)
		return 1;
	for (size_t i = 0; i < run->nops; i++)
		if (run->ops[i].spec.threads == 0)
			return run_op_threads(&run->ops[i]);
	return threads_ran(run);
}

/* Seconds as the study wrote them, whole; with a fraction when there is one (-d 2.5). */
static json_t *seconds_json(uint64_t ns)
{
	if (ns % 1000000000ULL == 0)
		return json_integer((json_int_t)(ns / 1000000000ULL));
	return json_real((double)ns / 1e9);
}

/* One side of a mixed op: its own total, time buckets and figures. */
static json_t *kind_json(const struct hist *total, const struct hist *buckets, unsigned nb,
			 uint64_t bytes, double elapsed)
{
	json_t *tb = json_array();
	for (unsigned b = 0; b < nb; b++)
		json_array_append_new(tb, hist_to_json(&buckets[b]));
	json_t *pct = json_object();
	for (int i = 0; i < OUTPUT_NPCT; i++)
		json_object_set_new(pct, output_pct_key[i], json_integer(llround(hist_percentile(total, output_pct[i]))));
	return json_pack("{s:o, s:o, s:f, s:f, s:I, s:f, s:o}",
			 "total", hist_to_json(total),
			 "timeBuckets", tb,
			 "iops", elapsed > 0 ? (double)total->count / elapsed : 0.0,
			 "mbPerSec", elapsed > 0 ? (double)bytes / elapsed / 1e6 : 0.0,
			 "bytes", (json_int_t)bytes,
			 "meanNs", hist_mean(total),
			 "percentiles", pct);
}

/* The rounds a --steady op's window spans: [*first, *last) of its buckets. */
static void steady_window(const struct op_result *o, unsigned *first, unsigned *last)
{
	const struct op_steady *s = o->steady;
	*last = s->attained ? s->round : o->nbuckets;
	*first = *last >= s->window ? *last - s->window : 0;
}

/* A --steady op's rounds: each round's operations, IOPS, p50 and p99 (ns). */
static json_t *rounds_json(const struct op_result *o, uint64_t round_ns)
{
	json_t *a = json_array();
	for (unsigned b = 0; b < o->nbuckets; b++) {
		const struct hist *h = &o->buckets[b];
		json_array_append_new(a, json_pack("{s:I, s:I, s:f, s:I, s:I}",
						   "round", (json_int_t)b + 1,
						   "ops", (json_int_t)h->count,
						   "iops", h->count / ((double)round_ns / 1e9),
						   "p50", (json_int_t)llround(h->count ? hist_percentile(h, 0.5) : 0),
						   "p99", (json_int_t)llround(h->count ? hist_percentile(h, 0.99) : 0)));
	}
	return a;
}

static json_t *fit_json(const struct steady_fit *f)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:b}", "average", f->avg, "rangePct", f->range_pct,
			 "slopePct", f->slope_pct, "slope", f->slope, "intercept", f->intercept, "steady", f->steady);
}

/*
 * steadyState: the verdict, and the window's figures (what the report
 * takes for the op when the run has them): its IOPS, its merged p50/p99.
 */
static json_t *steady_json(const struct op_result *o)
{
	const struct op_steady *s = o->steady;
	unsigned first, last;
	steady_window(o, &first, &last);
	struct hist w;
	hist_init(&w);
	for (unsigned b = first; b < last; b++)
		hist_merge(&w, &o->buckets[b]);
	json_t *on = json_array();
	json_array_append_new(on, json_string("iops"));
	if (s->on_lat)
		json_array_append_new(on, json_string("p99"));
	json_t *j = json_pack("{s:b, s:o, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:o, s:o, s:o}",
			      "attained", s->attained,
			      "round", s->attained ? json_integer(s->round) : json_null(),
			      "rounds", (json_int_t)s->rounds,
			      "window", (json_int_t)s->window,
			      "windowFirst", (json_int_t)first + 1,
			      "windowLast", (json_int_t)last,
			      "iops", s->iops.avg,
			      "rangePct", s->iops.range_pct,
			      "slopePct", s->iops.slope_pct,
			      "fit", fit_json(&s->iops),
			      "percentiles", json_pack("{s:I, s:I}",
						       "p50", (json_int_t)llround(w.count ? hist_percentile(&w, 0.5) : 0),
						       "p99", (json_int_t)llround(w.count ? hist_percentile(&w, 0.99) : 0)),
			      "criteria", json_pack("{s:f, s:f, s:o}", "maxRangePct", STEADY_MAX_RANGE_PCT,
						    "maxSlopePct", STEADY_MAX_SLOPE_PCT, "on", on));
	if (j && s->on_lat)
		json_object_set_new(j, "p99Fit", fit_json(&s->p99));
	return j;
}

static json_t *op_json(const struct run_op *op, const struct op_result *o, double elapsed, double rate,
		       uint64_t bucket_ns)
{
	json_t *buckets = json_array();
	for (unsigned b = 0; b < o->nbuckets; b++)
		json_array_append_new(buckets, hist_to_json(&o->buckets[b]));
	json_t *pct = json_object();
	for (int i = 0; i < OUTPUT_NPCT; i++)
		json_object_set_new(pct, output_pct_key[i],
				    json_integer(llround(hist_percentile(&o->total, output_pct[i]))));
	json_t *flags = json_array();
	int f = op->open_flags;
	if (f & O_DIRECT)
		json_array_append_new(flags, json_string("O_DIRECT"));
	if ((f & O_SYNC) == O_SYNC)
		json_array_append_new(flags, json_string("O_SYNC"));
	else if (f & O_DSYNC)
		json_array_append_new(flags, json_string("O_DSYNC"));
	json_t *tc = op->thread_count == floor(op->thread_count)
			     ? json_integer((json_int_t)op->thread_count)
			     : json_real(op->thread_count);
	json_t *j = json_pack("{s:s, s:o, s:o, s:o}",
			      "signature", op->spec.signature,
			      "threadCount", tc,
			      "total", hist_to_json(&o->total),
			      "timeBuckets", buckets);
	json_t *own = json_pack("{s:s, s:s, s:I, s:I, s:I, s:b, s:o, s:f, s:f, s:I, s:f, s:o, s:I}",
				"name", op->spec.name,
				"kind", kind_names[op->spec.kind],
				"blockSize", (json_int_t)op->spec.size,
				"align", (json_int_t)op->spec.align,
				"syncEvery", (json_int_t)op->spec.sync_every,
				"direct", op->direct,
				"openFlags", flags,
				"iops", output_iops(o, elapsed),
				"mbPerSec", output_mbps(o, elapsed),
				"bytes", (json_int_t)o->bytes,
				"meanNs", hist_mean(&o->total),
				"percentiles", pct,
				"fdatasyncs", (json_int_t)o->fdatasyncs);
	if (!j || !own || json_object_update(j, own) != 0) {
		json_decref(j);
		json_decref(own);
		return NULL;
	}
	json_decref(own);
	json_object_set_new(j, "maxInflight", json_integer(o->max_inflight));
	if (o->cpu_ns) {
		double per = cpu_per_op(o->cpu_ns, 0, op_count(o));
		json_object_set_new(j, "cpuNsPerOp", isnan(per) ? json_null() : json_real(per));
	} else {
		cpu_json(j, o->cpu_user_ns, o->cpu_sys_ns, op_count(o));
	}
	json_object_set_new(j, "sequential", json_boolean(op->spec.sequential));
	if (op->spec.kind == OP_MIXED && o->kind_buckets[0] && o->kind_buckets[1]) {
		json_object_set_new(j, "readShare", json_integer(op->spec.read_pct));
		json_object_set_new(j, "reads", kind_json(&o->kind_total[0], o->kind_buckets[0], o->nbuckets,
							  o->kind_bytes[0], elapsed));
		json_object_set_new(j, "writes", kind_json(&o->kind_total[1], o->kind_buckets[1], o->nbuckets,
							   o->kind_bytes[1], elapsed));
	}
	if (op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0) {
		json_object_set_new(j, "fdatasyncVia",
				    json_string(o->sync_fallbacks == 0 ? "engine" : o->sync_fallbacks == o->fdatasyncs ? "sync" : "mixed"));
		/* total stays write + its fdatasync (the study's time); these say what each part took. */
		json_object_set_new(j, "writeOnly", hist_to_json(&o->write_only));
		json_object_set_new(j, "sync", hist_to_json(&o->sync));
	}
	if (rate > 0) {
		json_t *sp = json_object();
		for (int i = 0; i < OUTPUT_NPCT; i++)
			json_object_set_new(sp, output_pct_key[i],
					    json_integer(llround(hist_percentile(&o->service, output_pct[i]))));
		json_object_set_new(j, "rate",
				    json_pack("{s:f, s:f, s:I, s:o, s:o}",
					      "target", rate,
					      "achieved", output_iops(o, elapsed),
					      "lateStarts", (json_int_t)o->late_starts,
					      "service", hist_to_json(&o->service),
					      "servicePercentiles", sp));
	}
	if (o->steady) {
		json_object_set_new(j, "rounds", rounds_json(o, bucket_ns));
		json_object_set_new(j, "steadyState", steady_json(o));
	}
	if (o->first_errno) {
		json_object_set_new(j, "firstError",
				    json_pack("{s:s, s:I}", "error", strerror(o->first_errno),
					      "offset", (json_int_t)o->first_err_offset));
	}
	return j;
}

/* "key=value" strings as one object of strings (labels, notes). */
/* io_uring's options as they were used (batch 1: each request submitted at once). */
static json_t *engine_opts_json(const struct engine_opts *o)
{
	return json_pack("{s:I, s:b, s:b, s:b, s:b}",
			 "batch", (json_int_t)(o->batch > 1 ? o->batch : 1),
			 "registerFiles", o->register_files,
			 "registerBuffers", o->register_buffers,
			 "sqpoll", o->sqpoll,
			 "hipri", o->hipri);
}

char *output_json_line(const struct output_run *run, const struct run_result *res)
{
	const struct run_meta *meta = run->meta;
	json_t *ops = json_array();
	for (size_t i = 0; i < res->nops; i++) {
		if (json_array_append_new(ops, op_json(&run->ops[i], &res->ops[i], res->elapsed_s, run->rate, run->bucket_ns)) != 0) {
			json_decref(ops);
			return NULL;
		}
	}

	json_t *labels = jsonline_labels(meta->labels, meta->nlabels);
	if (!labels) {
		json_decref(ops);
		return NULL;
	}

	json_t *root = json_pack("{s:I, s:I, s:o, s:o, s:o}",
				 "fileSize", (json_int_t)run->target->size,
				 "launchTime", (json_int_t)res->launch_time,
				 "runtime", seconds_json(run->runtime_ns),
				 "bucketDuration", seconds_json(run->bucket_ns),
				 "operations", ops);
	json_t *header = jsonline_header(meta->command_line, meta->host);
	json_t *own = json_pack("{s:o, s:s, s:I, s:s, s:I, s:b, s:o, s:b, s:f, s:I, s:I}",
				"target", jsonline_target(run->target, run->span),
				"engine", run->engine->name,
				"iodepth", (json_int_t)run->iodepth,
				"clock", clock_source_name(),
				"seed", (json_int_t)run->seed,
				"seedGiven", meta->seed_given,
				"labels", labels,
				"interrupted", res->interrupted,
				"elapsed", res->elapsed_s,
				"threads", (json_int_t)threads_json(run),
				"maxOps", (json_int_t)run->max_ops);
	/* Never a line without its metadata: a block that cannot be built fails the line. */
	if (!root || !header || !own || json_object_update(root, header) != 0 || json_object_update(root, own) != 0) {
		json_decref(root);
		json_decref(header);
		json_decref(own);
		return NULL;
	}
	json_decref(header);
	json_decref(own);
	if (run->engine->caps & ENGINE_CAPS_OPTIONS)
		json_object_set_new(root, "engineOptions", engine_opts_json(&run->engine_opts));
	uint64_t ops_done = 0;
	for (size_t i = 0; i < res->nops; i++)
		ops_done += op_count(&res->ops[i]);
	cpu_json(root, res->cpu_user_ns, res->cpu_sys_ns, ops_done);
	if (*iobench_commit)
		json_object_set_new(root, "commit", json_string(iobench_commit));
	if (meta->provision)
		json_object_set_new(root, "provision", json_deep_copy(meta->provision));
	if (meta->nnotes && json_object_set_new(root, "notes", jsonline_labels(meta->notes, meta->nnotes)) != 0) {
		json_decref(root);
		return NULL;
	}
	if (res->stuck_threads)
		json_object_set_new(root, "stuckThreads", json_integer(res->stuck_threads));
	if (res->target_lost)
		json_object_set_new(root, "targetLost", json_true());
	if (res->stops)
		json_object_set_new(root, "stopped", json_integer(res->stops));
	if (run->rate > 0)
		json_object_set_new(root, "rate", json_real(run->rate));
	if (meta->mode) {
		json_object_set_new(root, "mode", json_string(meta->mode));
		json_object_set_new(root, "interval", json_real(meta->interval_s));
	}
	if (run->raw)
		json_object_set_new(root, "rawDropped", json_integer(res->raw_dropped > 0 ? res->raw_dropped : 0));
	if (run->devices) {
		char why[384];
		devices_note(run->devices, run->device_stats ? &res->devices : NULL, why, sizeof(why));
		if (json_object_set_new(root, "devices",
					devices_to_json(run->devices, run->device_stats ? &res->devices : NULL)) != 0) {
			json_decref(root);
			return NULL;
		}
		if (why[0])
			json_object_set_new(root, "devicesNote", jsonline_text(why));
	}
	char *line = json_dumps(root, HIST_JSON_DUMP_FLAGS | JSON_PRESERVE_ORDER);
	json_decref(root);
	return line;
}

static void fmt_ns(char *buf, size_t len, const struct hist *h, double ns)
{
	if (h->count == 0)
		snprintf(buf, len, "-");
	else
		units_format_ns(buf, len, ns);
}

/* One row; cpu_ns_per_op NAN leaves the cpu/op column empty (a mixed op's reads and writes). */
static void summary_row(FILE *f, const char *name, const char *threads, const struct hist *h,
			uint64_t bytes, double elapsed, double cpu_ns_per_op)
{
	char b[32];
	fprintf(f, "%-14s %7s %10llu %7llu %10.1f %9.2f", name, threads, (unsigned long long)h->count,
		(unsigned long long)h->errors, elapsed > 0 ? (double)h->count / elapsed : 0,
		elapsed > 0 ? (double)bytes / elapsed / 1e6 : 0);
	fmt_ns(b, sizeof(b), h, hist_mean(h));
	fprintf(f, " %8s", b);
	for (int p = 0; p < OUTPUT_NPCT; p++) {
		fmt_ns(b, sizeof(b), h, hist_percentile(h, output_pct[p]));
		fprintf(f, " %8s", b);
	}
	fmt_ns(b, sizeof(b), h, (double)h->min_ns);
	fprintf(f, " %8s", b);
	fmt_ns(b, sizeof(b), h, (double)h->max_ns);
	fprintf(f, " %8s", b);
	if (isnan(cpu_ns_per_op))
		snprintf(b, sizeof(b), "%s", "");
	else
		units_format_ns(b, sizeof(b), cpu_ns_per_op);
	fprintf(f, " %8s\n", b);
}

/*
 * The run's CPU cost: the whole process (helper threads too) against the
 * wall time, as CPUs busy, and per operation.
 */
static void summary_cpu(FILE *f, const struct run_result *res)
{
	uint64_t ops = 0;
	for (size_t i = 0; i < res->nops; i++)
		ops += op_count(&res->ops[i]);
	double per = cpu_per_op(res->cpu_user_ns, res->cpu_sys_ns, ops);
	char b[32] = "-";
	if (!isnan(per))
		units_format_ns(b, sizeof(b), per);
	double cpu_s = (double)(res->cpu_user_ns + res->cpu_sys_ns) / 1e9;
	fprintf(f, "cpu: %.2f s user + %.2f s system = %.2f CPUs busy; %s per operation (the whole process)\n",
		(double)res->cpu_user_ns / 1e9, (double)res->cpu_sys_ns / 1e9,
		res->elapsed_s > 0 ? cpu_s / res->elapsed_s : 0.0, b);
}

void output_summary(FILE *f, const struct output_run *run, const struct run_result *res)
{
	const struct target_info *t = run->target;
	char size[32], span[32];
	units_format_size(size, sizeof(size), t->size);
	units_format_size(span, sizeof(span), run->span);
	unsigned ran = threads_ran(run);
	fprintf(f, "iobench %s: %s (%s%s%s%s%s), %u thread%s, %.1f s%s\n", IOBENCH_VERSION, t->path,
		size, t->fstype[0] ? ", " : "", t->fstype, t->device[0] ? " on " : "", t->device,
		ran, ran == 1 ? "" : "s", res->elapsed_s,
		res->interrupted ? " (interrupted)" : "");
	if (run->span < t->size)
		fprintf(f, "offsets within the first %s\n", span);
	fprintf(f, "%-14s %7s %10s %7s %10s %9s %8s", "op", "threads", "ops", "errors", "IOPS", "MB/s", "mean");
	for (int i = 0; i < OUTPUT_NPCT; i++)
		fprintf(f, " %8s", output_pct_key[i]);
	fprintf(f, " %8s %8s %8s\n", "min", "max", "cpu/op");
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		const struct run_op *op = &run->ops[i];
		char threads[16];
		if (op->thread_count == floor(op->thread_count))
			snprintf(threads, sizeof(threads), "%u", run_op_threads(op));
		else
			snprintf(threads, sizeof(threads), "%.2f", op->thread_count);
		summary_row(f, op->spec.name, threads, &o->total, o->bytes, res->elapsed_s,
			    cpu_per_op(o->cpu_user_ns, o->cpu_sys_ns, op_count(o)));
		if (op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0 && o->write_only.count > 0) {
			char p50[32], p99[32];
			units_format_ns(p50, sizeof(p50), hist_percentile(&o->write_only, 0.5));
			units_format_ns(p99, sizeof(p99), hist_percentile(&o->write_only, 0.99));
			fprintf(f, "  %s: latency includes the fdatasync of 1 in %u writes; the writes alone: p50 %s, "
				"p99 %s (as fio reports them)\n", op->spec.name, op->spec.sync_every, p50, p99);
		}
		if (op->spec.kind == OP_MIXED) {
			summary_row(f, "  reads", "", &o->kind_total[0], o->kind_bytes[0], res->elapsed_s, NAN);
			summary_row(f, "  writes", "", &o->kind_total[1], o->kind_bytes[1], res->elapsed_s, NAN);
		}
	}
	summary_cpu(f, res);
	for (size_t i = 0; i < res->nops; i++) {
		if (!run->ops[i].spec.sequential)
			continue;
		char sz[32];
		units_format_size(sz, sizeof(sz), res->ops[i].bytes);
		fprintf(f, "%s: %.1f MB/s sequential (%s in %.1f s)\n", run->ops[i].spec.name,
			output_mbps(&res->ops[i], res->elapsed_s), sz, res->elapsed_s);
	}
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		if (!o->steady || !o->steady->attained || o->nbuckets == 0)
			continue;
		const struct op_steady *s = o->steady;
		fprintf(f, "%s: steady state at round %u of %u: %.0f IOPS over rounds %u-%u (range %.1f%%, slope %.1f%%); "
			"round 1: %.0f IOPS\n", run->ops[i].spec.name, s->round, s->rounds, s->iops.avg,
			s->round - s->window + 1, s->round, s->iops.range_pct, s->iops.slope_pct,
			o->buckets[0].count / ((double)run->bucket_ns / 1e9));
	}
	for (size_t i = 0; run->rate > 0 && i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		char p50[32], p99[32];
		units_format_ns(p50, sizeof(p50), hist_percentile(&o->service, 0.5));
		units_format_ns(p99, sizeof(p99), hist_percentile(&o->service, 0.99));
		fprintf(f, "%s: rate %.0f/s asked, %.1f/s done; %llu started late; service time p50 %s, p99 %s "
			"(the table's latencies count from when each op was due)\n",
			run->ops[i].spec.name, run->rate, output_iops(o, res->elapsed_s),
			(unsigned long long)o->late_starts, p50, p99);
	}
}

int output_check_path(const char *path, const struct target_info *t)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
		return -EINVAL;
	if (st.st_dev == t->st_dev && st.st_ino == t->st_ino)
		return -EEXIST;
	return 0;
}

/*
 * Could a file be created where path names one? Asked of its directory
 * with an unnamed O_TMPFILE, so that no name ever appears (a file made and
 * removed again could take another appender's first line with it); where
 * the filesystem has no O_TMPFILE, access() answers.
 */
static int dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	int n = slash == path ? snprintf(dir, sizeof(dir), "/")
		: slash	     ? snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path)
			     : snprintf(dir, sizeof(dir), ".");
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	return access(dir, W_OK | X_OK) == 0 ? 0 : -errno;
}

int output_check_writable(const char *path)
{
	if (strcmp(path, "-") == 0)
		return 0;
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return dir_writable(path);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;
	struct stat st;
	int rc = fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) ? 0 : -EINVAL;
	close(fd);
	return rc;
}

/* output_open_append() with access mode mode (O_WRONLY, or O_RDWR to read back what was written). */
static int open_append(const char *path, int mode)
{
	/* O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of blocking. */
	int fd = open(path, mode | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int output_open_append(const char *path)
{
	return open_append(path, O_WRONLY);
}

/*
 * After a failed append of buf[0..len) that began at offset start: cut the
 * file back to start only if it still ends with exactly the bytes of ours
 * that landed. Anything past them is another writer's, and is kept.
 */
static int append_undo(int fd, off_t start, const char *buf, size_t len)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -errno;
	if (st.st_size <= start)
		return 0; /* nothing of ours landed */
	size_t landed = (size_t)(st.st_size - start);
	if (landed > len)
		return 0; /* someone wrote after us: our bytes are not the file's end */
	char *seen = malloc(landed);
	if (!seen)
		return -ENOMEM;
	ssize_t n = pread_full(fd, seen, landed, start);
	/* Write-only (no read permission): the lock and the size are all there is to go by. */
	bool ours = n == -EBADF ? true : n == (ssize_t)landed && memcmp(seen, buf, landed) == 0;
	free(seen);
	if (ours && ftruncate(fd, start) != 0)
		return -errno;
	return 0;
}

int output_append_line(const char *path, const char *line)
{
	if (strcmp(path, "-") == 0) {
		printf("%s\n", line);
		return fflush(stdout) == 0 ? 0 : -errno;
	}
	int fd = open_append(path, O_RDWR);
	if (fd == -EACCES)
		fd = open_append(path, O_WRONLY);
	if (fd < 0)
		return fd;
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	memcpy(buf, line, len);
	buf[len] = '\n';
	struct stat st;
	bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	/*
	 * Every iobench appender holds this lock from its write to its undo, so
	 * the end it measures is its own; an appender that takes no lock is
	 * still safe, since the undo checks whose bytes end the file.
	 */
	if (regular)
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
	off_t start = regular ? lseek(fd, 0, SEEK_END) : -1;
	/* One write per line: concurrent appenders never interleave inside a line. */
	int rc = write_full(fd, buf, len + 1);
	if (rc == 0 && fsync(fd) != 0 && errno != EINVAL)
		rc = -errno;
	/* Whole or not at all: a partial line would swallow the next one. */
	if (rc != 0 && start >= 0) {
		int urc = append_undo(fd, start, buf, len + 1);
		if (urc < 0)
			rc = urc;
	}
	free(buf);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}
