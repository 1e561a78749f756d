/*
 * SPDX-License-Identifier: Apache-2.0
 * prepare.h - a command's target made ready, the same way for run, watch
 * and durability write and verify: probed (and created with --size), its
 * size checked against --size and --span, and, before a write, refused when
 * it holds something blkid names, is mounted or cannot be written.
 *
 * Each function says what is wrong through diag and returns the exit code
 * (0 when all is well). CLI layer; not thread-safe.
 */
#ifndef IOBENCH_CLI_PREPARE_H
#define IOBENCH_CLI_PREPARE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "host/target.h"

struct prepare {
	const char *path;
	uint64_t create_size;   /* --size: created with random data when missing; the least size it must have */
	uint64_t create_seed;   /* the seed of that data */
	bool quiet;             /* no "creating ..." progress */
	const sigset_t *sigs;   /* stop signals, blocked: a creation they interrupt ends with 130 */
	const char *missing;    /* what to do when it does not exist, after "PATH: does not exist; " */
	const char *example;    /* a file name to suggest when a directory is given ("iobench.dat") */
	const char *writer;     /* what a write would be, for a refusal ("a write benchmark") */
	bool force;             /* --force: write a device that holds something */
	bool *created;          /* when not NULL: set true once --size created the target */
};

/* Probe p->path into *t, creating it first with --size when it is missing. */
int prepare_target(const struct prepare *p, struct target_info *t);

/*
 * The target against --size (it may not be smaller) and --span (not larger
 * than the target; 0 becomes its size).
 */
int prepare_size(const struct prepare *p, const struct target_info *t, uint64_t *span);

/* Before writing: a device holding something is refused unless --force; the target must be writable. */
int prepare_write(const struct prepare *p, const struct target_info *t);

/* A file a command writes results to. */
struct prepare_output {
	const char *option;  /* "--json" */
	const char *path;    /* NULL: not given */
	bool stdout_ok;      /* "-" means stdout (the refusal says so) */
	bool replaced;       /* a page renamed into place, never appended to: any kind of file may stand there */
};

/*
 * Outputs o[0..n) before the run: none is the target itself, a folder, or
 * (appended to) a FIFO, socket or block device, and no two name one file.
 */
int prepare_outputs(const struct target_info *t, const struct prepare_output *o, size_t n);

#endif
