/*
 * SPDX-License-Identifier: Apache-2.0
 * steady.h - a run in rounds until steady state (SNIA PTS) or a round limit.
 *
 * Each round is a run of its own (run_execute) of round_ns, so a round's
 * histograms are exact and complete when it is judged; the rounds become
 * the time buckets of one result, with each op's verdict beside them
 * (struct op_steady). Each op is judged on its own: the rounds go on until
 * every op has attained steady state, or max_rounds.
 */
#ifndef IOBENCH_MEASURE_STEADY_H
#define IOBENCH_MEASURE_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/run.h"

struct steady_config {
	uint64_t round_ns;    /* one round */
	unsigned window;      /* rounds judged together, >= STEADY_MIN_WINDOW */
	unsigned max_rounds;  /* >= window */
	bool on_lat;          /* judge each round's p99 latency too */
	/* After each round: round (1-based) and each op's IOPS in it; NULL: nothing said. */
	void (*round_done)(void *arg, unsigned round, const double *iops, size_t nops);
	void *arg;
};

/* A round's figures of one op: its operations per second and its p99 latency (ns). */
double steady_round_iops(const struct hist *round, uint64_t round_ns);
double steady_round_p99(const struct hist *round);

/*
 * Run cfg's ops in rounds of sc->round_ns (cfg's duration and bucket are
 * not used). Round k runs with cfg->seed mixed with k, so the rounds do
 * not repeat each other's offsets. /proc/diskstats of cfg->devices is
 * read at each round's start and after the last (as a run's at its
 * buckets). Returns 0 with *res filled as one run whose time buckets are
 * the rounds and whose ops carry their verdicts (run_result_free() it);
 * a stop signal, a lost target or stuck threads end the rounds early
 * (res says which, as a run's does). -errno with a one-line reason in err
 * when a round could not run (as run_execute()).
 */
int steady_execute(const struct run_config *cfg, const struct steady_config *sc, struct run_result *res,
		   char *err, size_t errlen);

#endif
