/*
 * SPDX-License-Identifier: Apache-2.0
 * signals.h - the stop signals (SIGINT, SIGTERM, SIGHUP): awaited, never handled;
 * and a stop of the process (SIGSTOP) told from a SIGCONT alone.
 *
 * A command blocks them in its main thread before any other thread exists,
 * so every thread inherits the mask and no handler ever runs; the thread
 * that waits (for a run's end, a watch period, a create) collects one with
 * signals_wait() (or from signals_fd()) and treats it as "stop now, keep what
 * was measured".
 */
#ifndef IOBENCH_LIB_SIGNALS_H
#define IOBENCH_LIB_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Block SIGINT, SIGTERM and SIGHUP in the calling thread and store them in
 * set; a SIGHUP that is ignored when this is called (nohup, `trap '' HUP`)
 * is left out, so it stays ignored.
 */
void signals_block_stop(sigset_t *set);

/*
 * Wait up to ns nanoseconds (0: just look) for one of the signals in set,
 * which the caller has blocked. Returns the signal taken, or 0 when none
 * came. A NULL set means no signals to watch: it sleeps ns and returns 0.
 */
int signals_wait(const sigset_t *set, uint64_t ns);

/*
 * A stop (SIGSTOP, ^Z's SIGTSTP, SIGTTIN, SIGTTOU, then a SIGCONT) told from
 * a SIGCONT alone (`kill -CONT`, `timeout`, which sends one after its
 * signal): only the first means the process did not run for a while. The
 * waiting thread keeps one of these, zeroed, across its waits.
 */
struct signals_stops {
	uint64_t last_ns;    /* CLOCK_MONOTONIC when the previous wait returned; 0 before the first */
	uint64_t last_sched; /* then: the thread's time on a CPU or waiting for one (schedstat) */
	bool sched_known;    /* last_sched was read */
	bool suspect;        /* the previous wait saw a gap a stop would make; a SIGCONT now confirms it */
	unsigned count;      /* the stops seen */
};

/*
 * Time the waiting thread spent off a CPU, not waiting for one and not
 * asleep in a wait, longer than this and followed by a SIGCONT, was a stop
 * (its own work between waits never sleeps that long; a stop inside a
 * wait is told by EINTR, however short).
 */
#define SIGNALS_STOP_GAP_NS 250000000ULL

/*
 * As signals_wait(), also taking SIGCONT, which the caller has blocked in
 * every thread of the process (so that it waits here instead of going to a
 * thread that would drop it): a SIGCONT is taken and not returned, and a
 * stop, in this wait or since the previous one, adds one to stops->count.
 * Returns the stop signal taken from set, or 0.
 */
int signals_wait_stops(const sigset_t *set, uint64_t ns, struct signals_stops *stops);

/*
 * For a thread that waits in poll() on sockets as well (the durability
 * server): a descriptor (non-blocking, close-on-exec) that is readable while
 * one of the signals in set, which the caller has blocked, is pending.
 * Returns it, or -errno. signals_take() collects one: the signal, or 0 when
 * none was pending.
 */
int signals_fd(const sigset_t *set);
int signals_take(int fd);

#endif
