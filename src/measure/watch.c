/* watch.c - the probe loop behind `iobench watch`. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/watch.h"
#include "engines/engine.h"
#include "lib/clock.h"
#include "lib/prng.h"
#include "lib/signals.h"
#include "measure/run.h"
#include "results/prom.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One operation's probe; what it measures goes into its struct op_result. */
struct probe {
	struct engine eng; /* the default (synchronous) engine: EINTR and short transfers as in a run */
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
	uint64_t t0 = clock_now_ns(), t1 = 0;
	int64_t res = probe_io(p, write ? IO_WRITE : IO_READ);
	if (res >= 0 && sync) {
		o->fdatasyncs++;
		t1 = clock_now_ns();
		res = probe_io(p, IO_FDATASYNC);
	}
	*ns = clock_now_ns() - t0;
	if (op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0) {
		/* As a run keeps them: every op timed to its write's end, and the fdatasyncs alone. */
		if (res < 0) {
			hist_record_error(&o->write_only);
			if (t1)
				hist_record_error(&o->sync);
		} else if (t1) {
			hist_record(&o->write_only, t1 - t0);
			hist_record(&o->sync, t0 + *ns - t1);
		} else {
			hist_record(&o->write_only, *ns);
		}
	}
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
static int emit(const struct watch_config *wc, struct op_result *results, const struct device_log *devices,
		time_t start, double elapsed, bool interrupted, const uint64_t cpu_ns[2])
{
	struct output_run run = {
		.target = wc->target, .span = wc->span, .ops = wc->ops, .nops = wc->nops,
		.engine = engine_default(), .iodepth = 1, .runtime_ns = wc->period_ns,
		.bucket_ns = wc->period_ns, .seed = wc->seed, .devices = wc->devices,
		.device_stats = wc->device_stats, .meta = wc->meta,
	};
	struct run_result res = { .ops = results, .nops = wc->nops, .launch_time = start,
				  .elapsed_s = elapsed, .interrupted = interrupted,
				  .cpu_user_ns = cpu_ns[0], .cpu_sys_ns = cpu_ns[1], .devices = *devices };
	char *line = output_json_line(&run, &res);
	int rc = line ? output_append_line(wc->json_path, line) : -ENOMEM;
	free(line);
	return rc;
}

/* The probes of every op, their results, and the order of a round. */
struct watch_state {
	struct probe *probes;
	struct op_result *results;
	size_t *order;
	struct prng rng;
	/* --prom: the page's counters, and how writing it goes */
	struct prom_export prom;
	int prom_err;     /* the last write's -errno; 0 when it worked */
	bool prom_warned; /* a failure was said in this period */
	bool prom_on;     /* prom_start() succeeded: the file is ours to keep up */
	int prom_lock;    /* the page's lock (prom_lock_page), -1 without one */
	struct device_log devices; /* the devices' readings at the period's start and end */
};

/* Pass a note to the caller, if it takes them. */
static void tell(const struct watch_config *wc, struct watch_note note)
{
	if (wc->note)
		wc->note(&note, wc->note_arg);
}

/* How a write of the page went: a failure is told once per period, the first success after it once. */
static void prom_tell(const struct watch_config *wc, struct watch_state *st, int rc)
{
	char text[PATH_MAX + 160];
	if (rc == -EOVERFLOW && !st->prom_warned) {
		snprintf(text, sizeof(text), "%s: a counter would pass 2^53 (more than a watch counts); "
			 "its counters stay as they were, probing goes on; start a new page (another NAME.prom)",
			 wc->prom_path);
		tell(wc, (struct watch_note){ .kind = WATCH_NOTE_PROM_FAILED, .text = text, .err = rc });
	} else if (rc < 0 && !st->prom_warned) {
		snprintf(text, sizeof(text), "cannot write %s: %s; the previous file stays, probing goes on "
			 "(said once per period)", wc->prom_path, strerror(-rc));
		tell(wc, (struct watch_note){ .kind = WATCH_NOTE_PROM_FAILED, .text = text, .err = rc });
	} else if (rc == 0 && st->prom_err < 0) {
		snprintf(text, sizeof(text), "%s written again", wc->prom_path);
		tell(wc, (struct watch_note){ .kind = WATCH_NOTE_PROM_WRITTEN, .text = text });
	}
	st->prom_warned |= rc < 0;
	st->prom_err = rc;
}

/* --prom: the page as of now (finished periods plus the current one's probes). */
static void prom_update(const struct watch_config *wc, struct watch_state *st, bool up)
{
	prom_tell(wc, st, prom_export_write(&st->prom, st->results, up));
}

/*
 * --prom: the counters (prom_export_start), then the first page. Errors a
 * retry will not mend (no such directory, no permission) end the watch
 * here; a full disk is only said.
 */
static int prom_start(const struct watch_config *wc, struct watch_state *st, char *err, size_t errlen)
{
	int rc = prom_check_page(wc->prom_path);
	if (rc < 0) {
		snprintf(err, errlen, "--prom %s: %s; give the NAME.prom path of a regular file (or of none yet)",
			 wc->prom_path, rc == -EISDIR ? "is a directory" : "exists and is not a regular file");
		return rc;
	}
	long other = 0;
	rc = prom_lock_page(wc->prom_path, &st->prom_lock, &other);
	if (rc == -EBUSY && other > 0) {
		snprintf(err, errlen, "--prom %s: another iobench watch (pid %ld) writes this page; stop it, "
			 "or give each watch its own NAME.prom", wc->prom_path, other);
		return rc;
	}
	if (rc < 0) {
		snprintf(err, errlen, "--prom %s: cannot write it: %s; give a file in a directory this user can write "
			 "(node_exporter's --collector.textfile.directory)", wc->prom_path,
			 rc == -EBUSY ? "another process holds its lock" :
			 rc == -EINVAL ? "its lock file is not a regular file" : strerror(-rc));
		return rc;
	}
	rc = prom_export_start(&st->prom, wc->prom_path, wc->target->path, wc->ops, wc->nops, wc->json_path);
	if (rc < 0) {
		if (rc == -EOVERFLOW)
			snprintf(err, errlen, "--prom: the watch lines of %s add up past 2^53 (more than a watch counts); "
				 "give another --json file", wc->json_path);
		else
			snprintf(err, errlen, "--prom: cannot start its counters from %s: %s", wc->json_path,
				 strerror(-rc));
		return rc;
	}
	rc = prom_export_write(&st->prom, st->results, true);
	if (rc < 0 && rc != -ENOSPC && rc != -EDQUOT) {
		snprintf(err, errlen, "--prom %s: cannot write it: %s; give a file in a directory this user can write "
			 "(node_exporter's --collector.textfile.directory)", wc->prom_path, strerror(-rc));
		return rc;
	}
	prom_tell(wc, st, rc);
	st->prom_on = true;
	return 0;
}

/* Each op's own descriptor (with its flags), buffer and synchronous engine. */
static int probes_open(const struct watch_config *wc, struct watch_state *st, char *err, size_t errlen)
{
	for (size_t i = 0; i < wc->nops; i++) {
		const struct run_op *op = &wc->ops[i];
		struct probe *p = &st->probes[i];
		p->eng = (struct engine){ .ops = engine_default(), .depth = 1 };
		p->eng.fd = open(wc->target->path, op->open_flags);
		if (p->eng.fd < 0) {
			int e = errno;
			snprintf(err, errlen, "%s: cannot open for %s: %s%s", wc->target->path, op->spec.name,
				 strerror(e), e == EINVAL && op->direct ? "; use --no-direct" : "");
			return -e;
		}
		size_t len = (op->spec.size + 4095) / 4096 * 4096;
		if (posix_memalign(&p->req.buf, 4096, len) != 0 || p->eng.ops->init(&p->eng) != 0) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		p->req.len = op->spec.size;
		p->nslots = (wc->span - op->spec.size) / op->spec.align + 1;
		/* Random bytes from the start: the preflight may write them. */
		struct prng fill;
		prng_seed(&fill, wc->seed ^ WATCH_SEED_SALT_FILL, i);
		prng_fill(&fill, p->req.buf, len);
		int rc = run_preflight(wc->target, op, wc->span, p->eng.fd, p->req.buf, err, errlen);
		if (rc < 0)
			return rc;
		result_reset(&st->results[i]);
		st->order[i] = i;
	}
	return 0;
}

static void probes_close(const struct watch_config *wc, struct watch_state *st)
{
	for (size_t i = 0; st->probes && i < wc->nops; i++) {
		struct probe *p = &st->probes[i];
		if (p->eng.priv)
			p->eng.ops->cleanup(&p->eng);
		if (p->eng.fd >= 0)
			close(p->eng.fd);
		free(p->req.buf);
	}
	free(st->probes);
	free(st->results);
	free(st->order);
	prom_export_free(&st->prom);
	devices_log_free(&st->devices);
	if (st->prom_lock >= 0)
		close(st->prom_lock);
}

/*
 * This thread's CPU time, to the ns: a probe takes microseconds, too short
 * for getrusage(), whose per-thread figures move with the scheduler's ticks.
 */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* One round: each op once, in a fresh random order. */
static void probe_round(const struct watch_config *wc, struct watch_state *st)
{
	for (size_t i = wc->nops; i > 1; i--) {
		size_t j = (size_t)prng_below(&st->rng, i), tmp = st->order[i - 1];
		st->order[i - 1] = st->order[j];
		st->order[j] = tmp;
	}
	for (size_t i = 0; i < wc->nops; i++) {
		size_t k = st->order[i];
		struct op_result *o = &st->results[k];
		uint64_t ns, cpu0 = thread_cpu_ns();
		if (probe_once(&wc->ops[k], &st->probes[k], o, &st->rng, &ns) == 0)
			hist_record(&o->total, ns);
		else
			hist_record_error(&o->total);
		o->cpu_ns += thread_cpu_ns() - cpu0;
	}
}

/* Rounds every interval until the period (from p0) ends. Returns the stop signal that cut it short, or 0. */
static int probe_period(const struct watch_config *wc, struct watch_state *st, uint64_t p0)
{
	uint64_t round = p0;
	while (clock_now_ns() - p0 < wc->period_ns) {
		probe_round(wc, st);
		if (st->prom_on)
			prom_update(wc, st, true);
		round += wc->interval_ns;
		uint64_t now = clock_now_ns();
		if (round < now)
			round = now; /* fell behind (a stall): do not burst to catch up */
		uint64_t until = round < p0 + wc->period_ns ? round : p0 + wc->period_ns;
		if (until > now) {
			int sig = signals_wait(wc->stop_signals, until - now);
			if (sig > 0)
				return sig;
		}
	}
	return 0;
}

int watch_run(const struct watch_config *wc, char *err, size_t errlen)
{
	struct watch_state st = {
		.probes = calloc(wc->nops, sizeof(*st.probes)),
		.results = calloc(wc->nops, sizeof(*st.results)),
		.order = calloc(wc->nops, sizeof(*st.order)),
		.prom_lock = -1,
	};
	int rc = st.probes && st.results && st.order ? 0 : -ENOMEM;
	if (rc < 0)
		snprintf(err, errlen, "out of memory");
	for (size_t i = 0; rc == 0 && i < wc->nops; i++)
		st.probes[i].eng.fd = -1; /* not opened yet: 0 is a descriptor too */
	if (rc == 0)
		rc = probes_open(wc, &st, err, errlen);
	if (rc == 0 && wc->prom_path)
		rc = prom_start(wc, &st, err, errlen);
	/* Found now, not when the first period ends (an hour by default). */
	if (rc == 0 && (rc = output_check_writable(wc->json_path)) < 0)
		snprintf(err, errlen, "--json %s: cannot write results: %s; give a file this user can write, or '-' for "
			 "stdout", wc->json_path, rc == -EINVAL ? "not a regular file" : strerror(-rc));
	prng_seed(&st.rng, wc->seed, WATCH_STREAM_ORDER);
	/* No room for the readings: the lines say so ("devicesNote") and the watch goes on. */
	if (rc == 0 && wc->devices && wc->device_stats)
		devices_log_init(&st.devices, wc->devices, 2);
	for (uint64_t periods = 1; rc == 0; periods++) {
		devices_log_reset(&st.devices);
		devices_log_take(&st.devices, 0, clock_now_ns());
		uint64_t p0 = clock_now_ns(), cpu0[2], cpu[2];
		time_t start = time(NULL);
		clock_cpu_ns(RUSAGE_SELF, &cpu0[0], &cpu0[1]);
		int sig = probe_period(wc, &st, p0);
		double elapsed = (double)(clock_now_ns() - p0) / 1e9;
		devices_log_end(&st.devices, clock_now_ns());
		clock_cpu_ns(RUSAGE_SELF, &cpu[0], &cpu[1]);
		cpu[0] -= cpu0[0];
		cpu[1] -= cpu0[1];
		rc = emit(wc, st.results, &st.devices, start, elapsed, sig > 0, cpu);
		if (rc < 0) {
			snprintf(err, errlen, "%s: cannot append results: %s", wc->json_path,
				 rc == -EINVAL ? "not a regular file; give a file, or '-' for stdout" : strerror(-rc));
			break;
		}
		if (!wc->quiet) {
			char text[96];
			snprintf(text, sizeof(text), "period %llu written (%.0f s)%s", (unsigned long long)periods,
				 elapsed, sig > 0 ? ", interrupted" : "");
			tell(wc, (struct watch_note){ .kind = WATCH_NOTE_PERIOD, .text = text, .period = periods,
						       .interrupted = sig > 0 });
		}
		if (st.prom_on) {
			int prc = prom_export_period(&st.prom, st.results);
			if (prc < 0)
				prom_tell(wc, &st, prc);
		}
		for (size_t i = 0; i < wc->nops; i++)
			result_reset(&st.results[i]);
		st.prom_warned = false;
		if (sig > 0)
			rc = -EINTR;
		else if (wc->max_periods && periods >= wc->max_periods)
			break;
		else if (st.prom_on)
			prom_update(wc, &st, true);
	}
	/* The last page says the probe has stopped; its counts include the last (partial) period. */
	if (st.prom_on)
		prom_update(wc, &st, false);
	probes_close(wc, &st);
	return rc;
}
