/*
 * SPDX-License-Identifier: Apache-2.0
 * opname.h - ops as users type them (report/store/opname.c): a signature's name
 * ("read,4K,4K" -> "read4k"), its kind, the natural order of signatures,
 * and the list of ops a store holds. Pure and thread-safe, but for
 * rep_db_op_list() (reads the store).
 */
#ifndef IOBENCH_REPORT_STORE_OPNAME_H
#define IOBENCH_REPORT_STORE_OPNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/store/model.h"

/* Signatures in natural order: op word, then operation size as a number, then the text. */
int rep_sig_cmp(const char *a, uint64_t block_a, const char *b, uint64_t block_b);

/*
 * The op as a user types it, from its signature: "read,4K,4K" -> "read4k",
 * "writeFlush,4M,4M" -> "write4m", "write64,4K,4K" -> "write4k/64",
 * "write,4K,4K" -> "write4k/0", "rw70,16K,16K" -> "rw16k:70",
 * "read,64K,4K" -> "read64k@4k". A signature of another form is copied.
 */
void rep_op_name(const char *sig, char *buf, size_t len);

/*
 * The ops db holds, each once: its cells' as typed in signature order
 * ("read4k, write4k/64"; with_sig: "read4k (read,4K,4K), ..."), then its
 * durability verdicts' and "bonnie++", ", "-separated into buf (ending
 * "..." when more do not fit). For a hint when --only op= matches none.
 */
void rep_db_op_list(const struct rep_db *db, bool with_sig, char *buf, size_t len);

/* Short name of a signature's kind: "read", "writeFlush", ... */
enum rep_kind rep_kind_of(const char *sig);

#endif
