/*
 * SPDX-License-Identifier: Apache-2.0
 * precondition.h - a target brought to a known state before it is measured.
 *
 * Preconditioning (SNIA PTS): sequential writes of PRECONDITION_BLOCK bytes
 * from offset 0 to the end, `passes` times over (twice by default), so an
 * SSD's spare blocks are used and its random writes show their sustained
 * speed. Initializing: every block read once, sequentially, so a volume
 * restored from a snapshot has fetched all its blocks. Both go through
 * O_DIRECT (a tail that is not a multiple of 4096 through the page cache),
 * write random bytes, and leave the target's size as it was. Nothing here
 * prints; progress goes to the caller's status function.
 */
#ifndef IOBENCH_MEASURE_PRECONDITION_H
#define IOBENCH_MEASURE_PRECONDITION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The PTS's preconditioning transfer: 128 KiB. */
#define PRECONDITION_BLOCK (128u * 1024u)
/* Initializing reads in larger blocks: only touching each one matters. */
#define PRECONDITION_READ_BLOCK (1024u * 1024u)
#define PRECONDITION_DEFAULT_PASSES 2

struct precondition_opts {
	bool read;              /* initialize: read every block once (passes unused) */
	unsigned passes;        /* write passes over the whole target, >= 1 */
	uint64_t seed;          /* of the data written */
	/* Progress about once a second: status(status_arg, text), and status(status_arg, NULL) at the end; NULL: none. */
	void (*status)(void *arg, const char *text);
	void *status_arg;
	const sigset_t *stop_signals; /* blocked by the caller; looked at between blocks */
};

struct precondition_result {
	uint64_t bytes;         /* written (or read), all passes */
	unsigned passes;        /* whole passes done */
	double seconds;
};

/*
 * Write (or read) path's first size bytes as o says. Returns 0 with *r
 * filled; -EINTR when a stop signal arrived (*r says how far it got);
 * another -errno with a one-line reason (no "iobench: ") in err.
 */
int precondition_run(const char *path, uint64_t size, const struct precondition_opts *o,
		     struct precondition_result *r, char *err, size_t errlen);

#endif
