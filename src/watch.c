/* watch.c - the probe loop behind `iobench watch`. */
#include "watch.h"
#include "engine.h"
#include "prng.h"
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct probe {
	int fd;
	void *buf;
	uint64_t nslots;
	uint64_t bytes;
	uint64_t fdatasyncs;
	struct hist h;
	int first_errno;
	uint64_t first_err_offset;
};

/* One timed operation, the study's way. Returns 0 or -errno. */
static int probe_once(const struct run_op *op, struct probe *p, struct prng *rng, uint64_t *ns)
{
	uint64_t off = prng_below(rng, p->nslots) * op->spec.align;
	bool write = op->spec.kind != OP_READ &&
		     (op->spec.kind != OP_MIXED || prng_below(rng, 100) >= op->spec.read_pct);
	bool sync = op->spec.kind == OP_WRITE_N && op->spec.sync_every > 0 &&
		    prng_below(rng, op->spec.sync_every) == 0;
	if (write)
		prng_fill(rng, p->buf, op->spec.size);
	uint64_t t0 = worker_now_ns();
	size_t done = 0;
	int rc = 0;
	while (done < op->spec.size) {
		ssize_t n = write ? pwrite(p->fd, (char *)p->buf + done, op->spec.size - done, (off_t)(off + done))
				  : pread(p->fd, (char *)p->buf + done, op->spec.size - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	if (rc == 0 && sync) {
		p->fdatasyncs++;
		if (fdatasync(p->fd) != 0)
			rc = -errno;
	}
	*ns = worker_now_ns() - t0;
	if (rc < 0 && !p->first_errno) {
		p->first_errno = -rc;
		p->first_err_offset = off;
	}
	if (rc == 0)
		p->bytes += op->spec.size;
	return rc;
}

/* Append the period's line. */
static int emit(const struct watch_config *wc, struct probe *probes, time_t start, double elapsed,
		bool interrupted)
{
	struct op_result *res_ops = calloc(wc->nops, sizeof(*res_ops));
	if (!res_ops)
		return -ENOMEM;
	for (size_t i = 0; i < wc->nops; i++) {
		res_ops[i].total = probes[i].h;
		res_ops[i].buckets = &probes[i].h;
		res_ops[i].nbuckets = 1;
		res_ops[i].bytes = probes[i].bytes;
		res_ops[i].fdatasyncs = probes[i].fdatasyncs;
		res_ops[i].first_errno = probes[i].first_errno;
		res_ops[i].first_err_offset = probes[i].first_err_offset;
		res_ops[i].max_inflight = 1;
		hist_init(&res_ops[i].service);
	}
	struct run_config cfg = {
		.target = wc->target, .ops = wc->ops, .nops = wc->nops,
		.duration_ns = wc->period_ns, .bucket_ns = wc->period_ns, .span = wc->span,
		.seed = wc->seed, .engine = &engine_sync_ops, .iodepth = 1,
	};
	struct run_result res = { .ops = res_ops, .nops = wc->nops, .launch_time = start,
				  .elapsed_s = elapsed, .interrupted = interrupted };
	char *line = output_json_line(&cfg, &res, wc->meta);
	int rc = line ? output_append_line(wc->json_path, line) : -ENOMEM;
	free(line);
	free(res_ops);
	return rc;
}

int watch_run(const struct watch_config *wc, char *err, size_t errlen)
{
	struct probe *probes = calloc(wc->nops, sizeof(*probes));
	size_t *order = calloc(wc->nops, sizeof(*order));
	int rc = probes && order ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < wc->nops; i++) {
		const struct run_op *op = &wc->ops[i];
		probes[i].fd = open(wc->target->path, op->open_flags);
		if (probes[i].fd < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot open for %s: %s%s", wc->target->path, op->spec.name,
				 strerror(errno), errno == EINVAL && op->direct ? "; use --no-direct" : "");
			break;
		}
		size_t len = (op->spec.size + 4095) / 4096 * 4096;
		if (posix_memalign(&probes[i].buf, 4096, len) != 0) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			break;
		}
		probes[i].nslots = (wc->span - op->spec.size) / op->spec.align + 1;
		hist_init(&probes[i].h);
		order[i] = i;
	}
	struct prng rng;
	prng_seed(&rng, wc->seed, 0x3a7c);
	uint64_t periods = 0;
	while (rc == 0) {
		uint64_t p0 = worker_now_ns();
		time_t start = time(NULL);
		uint64_t round = p0;
		int sig = 0;
		while (worker_now_ns() - p0 < wc->period_ns) {
			/* each op once, in a fresh random order */
			for (size_t i = wc->nops; i > 1; i--) {
				size_t j = (size_t)prng_below(&rng, i), tmp = order[i - 1];
				order[i - 1] = order[j];
				order[j] = tmp;
			}
			for (size_t i = 0; i < wc->nops; i++) {
				struct probe *p = &probes[order[i]];
				uint64_t ns;
				if (probe_once(&wc->ops[order[i]], p, &rng, &ns) == 0)
					hist_record(&p->h, ns);
				else
					hist_record_error(&p->h);
			}
			round += wc->interval_ns;
			uint64_t now = worker_now_ns();
			if (round < now)
				round = now; /* fell behind (a stall): do not burst to catch up */
			uint64_t until = round < p0 + wc->period_ns ? round : p0 + wc->period_ns;
			if (until > now) {
				uint64_t left = until - now;
				struct timespec ts = { .tv_sec = (time_t)(left / 1000000000ULL),
						       .tv_nsec = (long)(left % 1000000000ULL) };
				sig = sigtimedwait(wc->stop_signals, NULL, &ts);
				if (sig > 0)
					break;
			}
		}
		double elapsed = (double)(worker_now_ns() - p0) / 1e9;
		rc = emit(wc, probes, start, elapsed, sig > 0);
		if (rc < 0) {
			snprintf(err, errlen, "%s: cannot append results: %s", wc->json_path, strerror(-rc));
			break;
		}
		periods++;
		if (!wc->quiet)
			fprintf(stderr, "iobench: watch: period %llu written (%.0f s)%s\n",
				(unsigned long long)periods, elapsed, sig > 0 ? ", interrupted" : "");
		for (size_t i = 0; i < wc->nops; i++) {
			hist_init(&probes[i].h);
			probes[i].bytes = probes[i].fdatasyncs = 0;
			probes[i].first_errno = 0;
		}
		if (sig > 0)
			rc = -EINTR;
		else if (wc->max_periods && periods >= wc->max_periods)
			break;
	}
	for (size_t i = 0; probes && i < wc->nops; i++) {
		if (probes[i].fd > 0)
			close(probes[i].fd);
		free(probes[i].buf);
	}
	free(probes);
	free(order);
	return rc;
}
