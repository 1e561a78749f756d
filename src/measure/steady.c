/* steady.c - rounds of a run until each op's last window holds the SNIA PTS criteria. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/steady.h"
#include "lib/clock.h"
#include "lib/steady.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Round k's seed: the run's, mixed so that no round repeats another's offsets or data. */
#define STEADY_SEED_MIX 0x9e3779b97f4a7c15ULL

double steady_round_iops(const struct hist *round, uint64_t round_ns)
{
	return round_ns ? (double)round->count / ((double)round_ns / 1e9) : 0;
}

double steady_round_p99(const struct hist *round)
{
	return round->count ? hist_percentile(round, 0.99) : 0;
}

/* Room for max rounds of each op; NULL buckets on ENOMEM. */
static int alloc_ops(struct run_result *res, const struct run_config *cfg, unsigned max)
{
	res->ops = calloc(cfg->nops, sizeof(*res->ops));
	if (!res->ops)
		return -ENOMEM;
	res->nops = cfg->nops;
	for (size_t i = 0; i < cfg->nops; i++) {
		struct op_result *o = &res->ops[i];
		hist_init(&o->total);
		hist_init(&o->service);
		hist_init(&o->write_only);
		hist_init(&o->sync);
		o->buckets = calloc(max, sizeof(*o->buckets));
		o->steady = calloc(1, sizeof(*o->steady));
		if (!o->buckets || !o->steady)
			return -ENOMEM;
		bool mixed = cfg->ops[i].spec.kind == OP_MIXED;
		for (int k = 0; mixed && k < 2; k++) {
			hist_init(&o->kind_total[k]);
			o->kind_buckets[k] = calloc(max, sizeof(*o->kind_buckets[k]));
			if (!o->kind_buckets[k])
				return -ENOMEM;
		}
		for (unsigned b = 0; b < max; b++) {
			hist_init(&o->buckets[b]);
			for (int k = 0; mixed && k < 2; k++)
				hist_init(&o->kind_buckets[k][b]);
		}
	}
	return 0;
}

/* Round r of one op (all its time buckets, the late one too) into the result: bucket r and the totals. */
static void add_round(struct op_result *acc, const struct op_result *o, unsigned r)
{
	for (unsigned b = 0; b < o->nbuckets; b++) {
		hist_merge(&acc->buckets[r], &o->buckets[b]);
		for (int k = 0; k < 2; k++)
			if (acc->kind_buckets[k] && o->kind_buckets[k])
				hist_merge(&acc->kind_buckets[k][r], &o->kind_buckets[k][b]);
	}
	hist_merge(&acc->total, &o->total);
	for (int k = 0; k < 2; k++) {
		hist_merge(&acc->kind_total[k], &o->kind_total[k]);
		acc->kind_bytes[k] += o->kind_bytes[k];
	}
	acc->bytes += o->bytes;
	acc->fdatasyncs += o->fdatasyncs;
	acc->sync_fallbacks += o->sync_fallbacks;
	hist_merge(&acc->write_only, &o->write_only);
	hist_merge(&acc->sync, &o->sync);
	if (o->max_inflight > acc->max_inflight)
		acc->max_inflight = o->max_inflight;
	hist_merge(&acc->service, &o->service);
	acc->late_starts += o->late_starts;
	acc->cpu_user_ns += o->cpu_user_ns;
	acc->cpu_sys_ns += o->cpu_sys_ns;
	if (!acc->first_errno && o->first_errno) {
		acc->first_errno = o->first_errno;
		acc->first_err_offset = o->first_err_offset;
	}
}

/* What the round says of the run as a whole: time, CPU, signals, the --raw log. */
static void add_run(struct run_result *acc, const struct run_result *r, unsigned round)
{
	if (round == 0)
		acc->launch_time = r->launch_time;
	acc->elapsed_s += r->elapsed_s;
	acc->cpu_user_ns += r->cpu_user_ns;
	acc->cpu_sys_ns += r->cpu_sys_ns;
	acc->stops += r->stops;
	acc->stuck_threads += r->stuck_threads;
	if (r->interrupted) {
		acc->interrupted = true;
		acc->signal = r->signal;
	}
	acc->target_lost |= r->target_lost;
	if (acc->raw_dropped >= 0)
		acc->raw_dropped = r->raw_dropped < 0 ? r->raw_dropped : acc->raw_dropped + r->raw_dropped;
}

/* Judge op o after n rounds: the window ending at round n; the first window that holds is kept. */
static void judge(struct op_result *o, unsigned n, uint64_t round_ns, const struct steady_config *sc)
{
	struct op_steady *s = o->steady;
	s->rounds = n;
	if (s->attained || n < sc->window)
		return;
	double iops[sc->window], p99[sc->window];
	for (unsigned k = 0; k < sc->window; k++) {
		const struct hist *h = &o->buckets[n - sc->window + k];
		iops[k] = steady_round_iops(h, round_ns);
		p99[k] = steady_round_p99(h);
	}
	steady_judge(iops, sc->window, &s->iops);
	if (sc->on_lat)
		steady_judge(p99, sc->window, &s->p99);
	if (s->iops.steady && (!sc->on_lat || s->p99.steady)) {
		s->attained = true;
		s->round = n;
	}
}

int steady_execute(const struct run_config *cfg, const struct steady_config *sc, struct run_result *res,
		   char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	if (sc->window < STEADY_MIN_WINDOW || sc->max_rounds < sc->window || sc->round_ns == 0) {
		snprintf(err, errlen, "steady state needs a window of at least %d rounds, within the rounds allowed",
			 STEADY_MIN_WINDOW);
		return -EINVAL;
	}
	if (alloc_ops(res, cfg, sc->max_rounds) < 0) {
		run_result_free(res);
		snprintf(err, errlen, "out of memory for %u rounds", sc->max_rounds);
		return -ENOMEM;
	}
	for (size_t i = 0; i < res->nops; i++) {
		res->ops[i].steady->window = sc->window;
		res->ops[i].steady->on_lat = sc->on_lat;
	}
	/* No room for the readings: the rounds go on without them ("devicesNote" says so). */
	if (cfg->devices && cfg->device_stats)
		devices_log_init(&res->devices, cfg->devices, (size_t)sc->max_rounds + 1);
	struct run_config rc = *cfg;
	rc.duration_ns = rc.bucket_ns = sc->round_ns;
	rc.device_stats = false;
	double iops[res->nops];
	unsigned n = 0;
	while (n < sc->max_rounds) {
		struct run_result r;
		rc.seed = cfg->seed ^ (STEADY_SEED_MIX * n);
		devices_log_take(&res->devices, n, clock_now_ns());
		int e = run_execute(&rc, &r, err, errlen);
		if (e < 0) {
			run_result_free(res);
			return e;
		}
		bool all = true, failed = false;
		for (size_t i = 0; i < res->nops; i++) {
			add_round(&res->ops[i], &r.ops[i], n);
			failed |= r.ops[i].total.count == 0 && r.ops[i].total.errors > 0;
		}
		/* A round cut short (a signal, a lost target) is kept, never judged: its ops/s are a part's. */
		bool whole = !r.interrupted && !r.target_lost && !r.stuck_threads;
		add_run(res, &r, n);
		run_result_free(&r);
		n++;
		for (size_t i = 0; i < res->nops; i++) {
			if (whole)
				judge(&res->ops[i], n, sc->round_ns, sc);
			else
				res->ops[i].steady->rounds = n;
			all &= res->ops[i].steady->attained;
			iops[i] = steady_round_iops(&res->ops[i].buckets[n - 1], sc->round_ns);
		}
		if (sc->round_done)
			sc->round_done(sc->arg, n, iops, res->nops);
		if (all || failed || res->interrupted || res->target_lost || res->stuck_threads)
			break;
	}
	devices_log_end(&res->devices, clock_now_ns());
	for (size_t i = 0; i < res->nops; i++)
		res->ops[i].nbuckets = n;
	return 0;
}
