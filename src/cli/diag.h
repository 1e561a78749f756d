/*
 * SPDX-License-Identifier: Apache-2.0
 * diag.h - every message iobench's commands print on stderr.
 *
 * Each is one line, "iobench: " and the formatted text; the commands pick
 * the function by what the message means, and so the exit code:
 *   diag_usage        a usage error: returns EXIT_USAGE (2)
 *   diag_fail         a runtime failure: returns EXIT_RUNTIME (1)
 *   diag_interrupted  stopped by a signal: returns EXIT_INTERRUPTED (130)
 *   diag_warn         said, and the work goes on (callers write "warning: "
 *                     where the text wants it)
 *   diag_progress     what the command is doing; nothing when quiet
 *
 * Libraries never print: they return 0 / -errno with a reason in a
 * char[ERR_MAX] (lib/err.h) and the command passes it here. Not
 * thread-safe in the sense that lines of two threads may interleave; the
 * commands call it from their main thread.
 */
#ifndef IOBENCH_CLI_DIAG_H
#define IOBENCH_CLI_DIAG_H

#include <stdbool.h>

#include "lib/err.h"

__attribute__((format(printf, 1, 2))) int diag_usage(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) int diag_fail(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) int diag_interrupted(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void diag_warn(const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void diag_progress(bool quiet, const char *fmt, ...);

/*
 * Say where the next messages come from ("nightly.plan line 3"): each is
 * then "iobench: WHERE: ..."; NULL for the command line again. where must
 * last until then.
 */
void diag_context(const char *where);

/*
 * A status line on stderr, rewritten in place (a run's IOPS, a creation's
 * bar): text, or with text NULL its end; diag_status erases the line,
 * diag_status_kept leaves it and ends it with a newline. The lower
 * layers' status functions (arg unused); for a terminal only.
 */
void diag_status(void *arg, const char *text);
void diag_status_kept(void *arg, const char *text);

#endif
