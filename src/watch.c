/* watch.c - the probe loop behind `iobench watch`. */
#include "watch.h"
#include "clock.h"
#include "engine.h"
#include "prng.h"
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One operation's probe; what it measures goes into its struct op_result. */
struct probe {
	struct engine eng; /* the sync engine: EINTR and short transfers as in a run */
	struct io_req req;
	uint64_t nslots;
};

/* Submit one request on the probe's engine and collect it. Returns its result. */
static int64_t probe_io(struct probe *p, enum io_kind kind)
{
	struct io_req *done;
	p->req.kind = kind;
	int rc = p->eng.ops->submit(&p->eng, &p->req);
	if (rc == 0)
		rc = p->eng.ops->reap(&p->eng, &done, 1, 1, NULL) == 1 ? 0 : -EIO;
	return rc < 0 ? rc : p->req.result;
}

/* One timed operation, the study's way, counted in o. Returns 0 or -errno. */
static int probe_once(const struct run_op *op, struct probe *p, struct op_result *o, struct prng *rng,
		      uint64_t *ns)
{
	uint64_t off = prng_below(rng, p->nslots) * op->spec.align;
	bool write = op->spec.kind != OP_READ &&
		     (op->spec.kind != OP_MIXED || prng_below(rng, 100) >= op->spec.read_pct);
	bool sync = op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0 &&
		    prng_below(rng, op->spec.sync_every) == 0;
	if (write)
		prng_fill(rng, p->req.buf, op->spec.size);
	p->req.offset = (off_t)off;
	uint64_t t0 = clock_now_ns();
	int64_t res = probe_io(p, write ? IO_WRITE : IO_READ);
	if (res >= 0 && sync) {
		o->fdatasyncs++;
		res = probe_io(p, IO_FDATASYNC);
	}
	*ns = clock_now_ns() - t0;
	if (res < 0 && !o->first_errno) {
		o->first_errno = (int)-res;
		o->first_err_offset = off;
	}
	if (res >= 0)
		o->bytes += op->spec.size;
	return res < 0 ? (int)res : 0;
}

/* A period's result starts empty: one time bucket, which is its total. */
static void result_reset(struct op_result *o)
{
	*o = (struct op_result){ .buckets = &o->total, .nbuckets = 1, .max_inflight = 1 };
	hist_init(&o->total);
	hist_init(&o->service);
}

/* Append the period's line: the run format with the period as its one time bucket. */
static int emit(const struct watch_config *wc, struct op_result *results, time_t start, double elapsed,
		bool interrupted)
{
	struct output_run run = {
		.target = wc->target, .span = wc->span, .ops = wc->ops, .nops = wc->nops,
		.engine = engine_sync_ops.name, .iodepth = 1, .runtime_ns = wc->period_ns,
		.bucket_ns = wc->period_ns, .seed = wc->seed, .meta = wc->meta,
	};
	struct run_result res = { .ops = results, .nops = wc->nops, .launch_time = start,
				  .elapsed_s = elapsed, .interrupted = interrupted };
	char *line = output_json_line(&run, &res);
	int rc = line ? output_append_line(wc->json_path, line) : -ENOMEM;
	free(line);
	return rc;
}

int watch_run(const struct watch_config *wc, char *err, size_t errlen)
{
	struct probe *probes = calloc(wc->nops, sizeof(*probes));
	struct op_result *results = calloc(wc->nops, sizeof(*results));
	size_t *order = calloc(wc->nops, sizeof(*order));
	int rc = probes && results && order ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < wc->nops; i++) {
		const struct run_op *op = &wc->ops[i];
		probes[i].eng = (struct engine){ .ops = &engine_sync_ops, .depth = 1 };
		probes[i].eng.fd = open(wc->target->path, op->open_flags);
		if (probes[i].eng.fd < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot open for %s: %s%s", wc->target->path, op->spec.name,
				 strerror(errno), errno == EINVAL && op->direct ? "; use --no-direct" : "");
			break;
		}
		size_t len = (op->spec.size + 4095) / 4096 * 4096;
		if (posix_memalign(&probes[i].req.buf, 4096, len) != 0 ||
		    probes[i].eng.ops->init(&probes[i].eng) != 0) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			break;
		}
		probes[i].req.len = op->spec.size;
		probes[i].nslots = (wc->span - op->spec.size) / op->spec.align + 1;
		result_reset(&results[i]);
		order[i] = i;
	}
	struct prng rng;
	prng_seed(&rng, wc->seed, 0x3a7c);
	uint64_t periods = 0;
	while (rc == 0) {
		uint64_t p0 = clock_now_ns();
		time_t start = time(NULL);
		uint64_t round = p0;
		int sig = 0;
		while (clock_now_ns() - p0 < wc->period_ns) {
			/* each op once, in a fresh random order */
			for (size_t i = wc->nops; i > 1; i--) {
				size_t j = (size_t)prng_below(&rng, i), tmp = order[i - 1];
				order[i - 1] = order[j];
				order[j] = tmp;
			}
			for (size_t i = 0; i < wc->nops; i++) {
				struct op_result *o = &results[order[i]];
				uint64_t ns;
				if (probe_once(&wc->ops[order[i]], &probes[order[i]], o, &rng, &ns) == 0)
					hist_record(&o->total, ns);
				else
					hist_record_error(&o->total);
			}
			round += wc->interval_ns;
			uint64_t now = clock_now_ns();
			if (round < now)
				round = now; /* fell behind (a stall): do not burst to catch up */
			uint64_t until = round < p0 + wc->period_ns ? round : p0 + wc->period_ns;
			if (until > now) {
				sig = signals_wait(wc->stop_signals, until - now);
				if (sig > 0)
					break;
			}
		}
		double elapsed = (double)(clock_now_ns() - p0) / 1e9;
		rc = emit(wc, results, start, elapsed, sig > 0);
		if (rc < 0) {
			snprintf(err, errlen, "%s: cannot append results: %s", wc->json_path, strerror(-rc));
			break;
		}
		periods++;
		if (!wc->quiet)
			fprintf(stderr, "iobench: watch: period %llu written (%.0f s)%s\n",
				(unsigned long long)periods, elapsed, sig > 0 ? ", interrupted" : "");
		for (size_t i = 0; i < wc->nops; i++)
			result_reset(&results[i]);
		if (sig > 0)
			rc = -EINTR;
		else if (wc->max_periods && periods >= wc->max_periods)
			break;
	}
	for (size_t i = 0; probes && i < wc->nops; i++) {
		if (probes[i].eng.priv)
			probes[i].eng.ops->cleanup(&probes[i].eng);
		if (probes[i].eng.fd > 0)
			close(probes[i].eng.fd);
		free(probes[i].req.buf);
	}
	free(probes);
	free(results);
	free(order);
	return rc;
}
