/*
 * SPDX-License-Identifier: Apache-2.0
 * db.h - the store's cell table (report/store/db.c): a store made and
 * freed, a cell found or made by its key, the filters of --only and the
 * final order. The store's types are model.h's.
 *
 * Not thread-safe: one struct rep_db belongs to one thread.
 */
#ifndef IOBENCH_REPORT_STORE_DB_H
#define IOBENCH_REPORT_STORE_DB_H

#include <stdint.h>

#include "report/store/model.h"

/*
 * Start an empty store. warn(warn_arg, msg) is how the report says what
 * it skipped or could not do: the command layer prints it (the report
 * never prints); NULL: warnings are only counted.
 */
void rep_db_init(struct rep_db *db, rep_warn_fn *warn, void *warn_arg);

/*
 * The cell of sig x threads x cfg x size x host, made empty on first use
 * (its op named, its kind known, its histograms empty). Never NULL.
 */
struct rep_cell *rep_db_cell(struct rep_db *db, const char *sig, double threads, const struct rep_config *cfg,
			     uint64_t size, const char *host);

/* Free all the store holds and zero it. */
void rep_db_free(struct rep_db *db);

/* Free what b owns (its strings and latency texts); b itself is the caller's. */
void rep_bonnie_free(struct rep_bonnie *b);

/*
 * Keep only the cells (and bonnie++ lines, notes, durability verdicts) where
 * key matches the fnmatch(3) pattern: key "host"; "op", the op as typed
 * (read4k, write4k/64) or its signature (so 'read,4K,*' still works: either
 * form matching keeps the cell); "signature", the signature alone
 * (read,4K,4K); a verdict's op and signature are its name (write4k); "threads" (a
 * verdict's writers); a label key or a provision configuration fact (a cell
 * without it does not match). Call before rep_db_finish().
 */
void rep_db_filter(struct rep_db *db, const char *key, const char *pattern);

/*
 * Sort cells (signature, configuration, size, threads, host; sizes and
 * thread counts as numbers, names in natural order) and their points by
 * time; tell apart configurations whose names came out equal; sort the
 * fleet's hosts by name.
 */
void rep_db_finish(struct rep_db *db);

/*
 * Two configurations in the order every table lists them: by name in natural
 * order (x2 before x16), then labels, facts, kind of runs and settings; 0 only
 * for the same one (they are interned). Never by address: the order must not
 * depend on the reading threads.
 */
int rep_config_cmp(const struct rep_config *a, const struct rep_config *b);

#endif
