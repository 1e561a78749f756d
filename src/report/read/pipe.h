/*
 * SPDX-License-Identifier: Apache-2.0
 * pipe.h - the report's reading in parallel (report/read/pipe.c): documents are
 * read (parsed, their histograms checked) on worker threads, and added to
 * the cell store on the caller's thread in the order they came in, with
 * the messages about other lines in their places. The report is thus the
 * same, byte for byte, with any number of threads; memory holds a few
 * batches of lines at a time, never a whole file.
 *
 * All of it is called from the one thread that owns the struct rep_db.
 */
#ifndef IOBENCH_REPORT_PIPE_H
#define IOBENCH_REPORT_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/store/db.h"

struct rep_pipe;

/* A pipe into db with jobs reading threads; jobs <= 1: none, each document is read and added at once. */
struct rep_pipe *rep_pipe_new(struct rep_db *db, unsigned jobs);

/*
 * The documents and messages that follow come from file name; host is its
 * lines' fallback host; labels (NULL none) the labels a 2012 archive's
 * layout gives them (rep_line_read). Copies all three.
 */
void rep_pipe_file(struct rep_pipe *p, const char *name, const char *host, const char *labels, bool explicit_file);

/* A document of the current file starting at line lineno: to be read and added. Copies text. */
void rep_pipe_doc(struct rep_pipe *p, unsigned long lineno, const char *text, size_t len);

/* A message about line lineno of the current file, printed in its place; skipped: the line counts as skipped. */
void rep_pipe_msg(struct rep_pipe *p, unsigned long lineno, const char *msg, bool skipped);

/* Wait until everything handed in so far is added (before touching db or its messages directly). */
void rep_pipe_sync(struct rep_pipe *p);

/* Sync, stop the threads, free p. */
void rep_pipe_free(struct rep_pipe *p);

#endif
