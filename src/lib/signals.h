/*
 * SPDX-License-Identifier: Apache-2.0
 * signals.h - the stop signals (SIGINT, SIGTERM, SIGHUP): awaited, never handled.
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
#include <stdint.h>

/* Block SIGINT, SIGTERM and SIGHUP in the calling thread and store them in set. */
void signals_block_stop(sigset_t *set);

/*
 * Wait up to ns nanoseconds (0: just look) for one of the signals in set,
 * which the caller has blocked. Returns the signal taken, or 0 when none
 * came. A NULL set means no signals to watch: it sleeps ns and returns 0.
 */
int signals_wait(const sigset_t *set, uint64_t ns);

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
