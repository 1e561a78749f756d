/* output.c - JSON line and text summary of a run. */
#include "output.h"
#include "clock.h"
#include "hist_json.h"
#include "units.h"
#include "version.h"

#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
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

static json_t *json_str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

struct output_run output_run_of(const struct run_config *cfg, const struct run_meta *meta)
{
	return (struct output_run){
		.target = cfg->target, .span = cfg->span, .ops = cfg->ops, .nops = cfg->nops,
		.engine = cfg->engine->name, .iodepth = cfg->iodepth ? cfg->iodepth : 1,
		.runtime_ns = cfg->duration_ns, .bucket_ns = cfg->bucket_ns, .max_ops = cfg->max_ops,
		.seed = cfg->seed, .rate = cfg->rate, .raw = cfg->raw != NULL, .meta = meta,
	};
}

static json_t *target_json(const struct output_run *run)
{
	const struct target_info *t = run->target;
	return json_pack("{s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "path", t->path,
			 "type", t->is_block ? "block" : "file",
			 "size", (json_int_t)t->size,
			 "span", (json_int_t)run->span,
			 "filesystem", json_str_or_null(t->fstype),
			 "device", json_str_or_null(t->device),
			 "rotational", t->rotational < 0 ? json_null() : json_boolean(t->rotational),
			 "scheduler", json_str_or_null(t->scheduler),
			 "raidLevel", json_str_or_null(t->raid_level));
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

static json_t *op_json(const struct run_op *op, const struct op_result *o, double elapsed, double rate)
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
	json_object_update(j, own);
	json_decref(own);
	json_object_set_new(j, "maxInflight", json_integer(o->max_inflight));
	json_object_set_new(j, "sequential", json_boolean(op->spec.sequential));
	if (op->spec.kind == OP_MIXED && o->kind_buckets[0] && o->kind_buckets[1]) {
		json_object_set_new(j, "readShare", json_integer(op->spec.read_pct));
		json_object_set_new(j, "reads", kind_json(&o->kind_total[0], o->kind_buckets[0], o->nbuckets,
							  o->kind_bytes[0], elapsed));
		json_object_set_new(j, "writes", kind_json(&o->kind_total[1], o->kind_buckets[1], o->nbuckets,
							   o->kind_bytes[1], elapsed));
	}
	if (op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0)
		json_object_set_new(j, "fdatasyncVia",
				    json_string(o->sync_fallbacks == 0 ? "engine" : o->sync_fallbacks == o->fdatasyncs ? "sync" : "mixed"));
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
	if (o->first_errno) {
		json_object_set_new(j, "firstError",
				    json_pack("{s:s, s:I}", "error", strerror(o->first_errno),
					      "offset", (json_int_t)o->first_err_offset));
	}
	return j;
}

/* "key=value" strings as one object of strings (labels, notes). */
static json_t *kv_object(const char *const *kv, size_t n)
{
	json_t *obj = json_object();
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '=');
		char key[256];
		size_t len = (size_t)(eq - kv[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), kv[i]);
		json_object_set_new(obj, key, json_string(eq + 1));
	}
	return obj;
}

char *output_json_line(const struct output_run *run, const struct run_result *res)
{
	const struct run_meta *meta = run->meta;
	json_t *ops = json_array();
	for (size_t i = 0; i < res->nops; i++)
		json_array_append_new(ops, op_json(&run->ops[i], &res->ops[i], res->elapsed_s, run->rate));

	json_t *labels = kv_object(meta->labels, meta->nlabels);
	struct utsname u;
	char host[256] = "";
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	gethostname(host, sizeof(host) - 1);

	json_t *root = json_pack("{s:I, s:I, s:I, s:I, s:o}",
				 "fileSize", (json_int_t)run->target->size,
				 "launchTime", (json_int_t)res->launch_time,
				 "runtime", (json_int_t)llround((double)run->runtime_ns / 1e9),
				 "bucketDuration", (json_int_t)llround((double)run->bucket_ns / 1e9),
				 "operations", ops);
	json_t *own = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:I, s:s, s:I, s:b, s:o, s:b, s:f, s:I, s:I}",
				"tool", "iobench",
				"version", IOBENCH_VERSION,
				"commandLine", meta->command_line,
				"host", meta->host ? meta->host : host,
				"hostname", host,
				"kernel", u.release,
				"target", target_json(run),
				"engine", run->engine,
				"iodepth", (json_int_t)run->iodepth,
				"clock", clock_source_name(),
				"seed", (json_int_t)run->seed,
				"seedGiven", meta->seed_given,
				"labels", labels,
				"interrupted", res->interrupted,
				"elapsed", res->elapsed_s,
				"threads", (json_int_t)meta->threads,
				"maxOps", (json_int_t)run->max_ops);
	json_object_update(root, own);
	json_decref(own);
	if (*iobench_commit)
		json_object_set_new(root, "commit", json_string(iobench_commit));
	if (meta->provision)
		json_object_set_new(root, "provision", json_deep_copy(meta->provision));
	if (meta->nnotes)
		json_object_set_new(root, "notes", kv_object(meta->notes, meta->nnotes));
	if (res->stuck_threads)
		json_object_set_new(root, "stuckThreads", json_integer(res->stuck_threads));
	if (res->target_lost)
		json_object_set_new(root, "targetLost", json_true());
	if (run->rate > 0)
		json_object_set_new(root, "rate", json_real(run->rate));
	if (meta->mode) {
		json_object_set_new(root, "mode", json_string(meta->mode));
		json_object_set_new(root, "interval", json_real(meta->interval_s));
	}
	if (run->raw)
		json_object_set_new(root, "rawDropped", json_integer(res->raw_dropped > 0 ? res->raw_dropped : 0));
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

static void summary_row(FILE *f, const char *name, const char *threads, const struct hist *h,
			uint64_t bytes, double elapsed)
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
	fprintf(f, " %8s\n", b);
}

void output_summary(FILE *f, const struct output_run *run, const struct run_result *res)
{
	const struct run_meta *meta = run->meta;
	const struct target_info *t = run->target;
	char size[32], span[32];
	units_format_size(size, sizeof(size), t->size);
	units_format_size(span, sizeof(span), run->span);
	fprintf(f, "iobench %s: %s (%s%s%s%s%s), %u thread%s, %.1f s%s\n", IOBENCH_VERSION, t->path,
		size, t->fstype[0] ? ", " : "", t->fstype, t->device[0] ? " on " : "", t->device,
		meta->threads, meta->threads == 1 ? "" : "s", res->elapsed_s,
		res->interrupted ? " (interrupted)" : "");
	if (run->span < t->size)
		fprintf(f, "offsets within the first %s\n", span);
	fprintf(f, "%-14s %7s %10s %7s %10s %9s %8s", "op", "threads", "ops", "errors", "IOPS", "MB/s", "mean");
	for (int i = 0; i < OUTPUT_NPCT; i++)
		fprintf(f, " %8s", output_pct_key[i]);
	fprintf(f, " %8s %8s\n", "min", "max");
	for (size_t i = 0; i < res->nops; i++) {
		const struct op_result *o = &res->ops[i];
		const struct run_op *op = &run->ops[i];
		char threads[16];
		if (op->thread_count == floor(op->thread_count))
			snprintf(threads, sizeof(threads), "%u", op->nthreads);
		else
			snprintf(threads, sizeof(threads), "%.2f", op->thread_count);
		summary_row(f, op->spec.name, threads, &o->total, o->bytes, res->elapsed_s);
		if (op->spec.kind == OP_MIXED) {
			summary_row(f, "  reads", "", &o->kind_total[0], o->kind_bytes[0], res->elapsed_s);
			summary_row(f, "  writes", "", &o->kind_total[1], o->kind_bytes[1], res->elapsed_s);
		}
	}
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
		if (o->total.errors)
			fprintf(f, "iobench: warning: %s: %llu of %llu operations failed (first: %s at offset %llu)\n",
				run->ops[i].spec.name, (unsigned long long)o->total.errors,
				(unsigned long long)(o->total.errors + o->total.count),
				strerror(o->first_errno), (unsigned long long)o->first_err_offset);
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
	if (res->stuck_threads)
		fprintf(f, "iobench: warning: %u thread(s) stuck in I/O were abandoned; their operations are not counted\n",
			res->stuck_threads);
}

int output_append_line(const char *path, const char *line)
{
	if (strcmp(path, "-") == 0) {
		printf("%s\n", line);
		return fflush(stdout) == 0 ? 0 : -errno;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	memcpy(buf, line, len);
	buf[len] = '\n';
	/* One write per line: concurrent appenders never interleave inside a line. */
	ssize_t n = write(fd, buf, len + 1);
	int rc = n == (ssize_t)(len + 1) ? 0 : (n < 0 ? -errno : -EIO);
	free(buf);
	if (rc == 0 && fsync(fd) != 0 && errno != EINVAL)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

