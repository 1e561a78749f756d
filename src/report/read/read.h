/*
 * SPDX-License-Identifier: Apache-2.0
 * read.h - the report's inputs (report/read/read.c): paths, folders and streams
 * read into the store, and the one judge of a file given to read (results,
 * --expect, --prices). Messages go through the store's warn function. Not
 * thread-safe: one struct rep_db, its thread (the reading threads are
 * pipe.c's).
 */
#ifndef IOBENCH_REPORT_READ_READ_H
#define IOBENCH_REPORT_READ_READ_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/store/db.h"

/*
 * Read PATH: "-" (stdin), a file, or a folder searched recursively. In a
 * folder, *.jsonl, *.json and *.out files are read; other files are
 * ignored. A file may hold iobench result lines, bonnie++ lines, the 2012
 * tool's one-object-per-line JSON, or its run.out with the JSON between
 * "<begin json dump>" and "<end json dump>". Malformed lines are reported
 * through rep_warn as "FILE:LINE: what is wrong" and skipped.
 * A folder's walk is bounded: folders deeper than REP_WALK_DEPTH are not
 * entered, and it stops after REP_WALK_NAMES names; each bound hit is said.
 * Returns 0, or -errno when PATH itself cannot be opened (also reported).
 */
#define REP_WALK_DEPTH 32
#define REP_WALK_NAMES 100000
int rep_read_path(struct rep_db *db, const char *path);

/*
 * Open path to read as a report input (results, --expect, --prices): a
 * regular file, or a FIFO when allow_fifo (`<(cmd)`). Judged before it is
 * opened and again after. Returns 0 and *f, -EISDIR, REP_INPUT_DEVICE (a
 * character or block device, a socket), REP_INPUT_KERNEL (any file on
 * procfs, sysfs, debugfs, ...: /proc/kmsg blocks and is consumed when
 * read), REP_INPUT_FIFO, or open()'s -errno. rep_input_error() says which.
 */
#define REP_INPUT_DEVICE (-ENODEV)
#define REP_INPUT_KERNEL (-EOPNOTSUPP)
#define REP_INPUT_FIFO (-ESPIPE)
int rep_open_input(const char *path, bool allow_fifo, FILE **f);
const char *rep_input_error(int rc);

/* The longest line read; a longer one is reported as FILE:LINE and skipped. */
#define REP_MAX_LINE (512u << 20)
#define REP_MAX_LINE_TEXT "512 MiB"

/* Read one stream already open (name is used in messages and as host fallback). */
void rep_read_stream(struct rep_db *db, FILE *f, const char *name, bool explicit_file);

#endif
