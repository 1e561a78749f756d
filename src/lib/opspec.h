/*
 * SPDX-License-Identifier: Apache-2.0
 * opspec.h - operation names and thread lists, as typed on the command line.
 *
 * Short grammar (case-insensitive units):
 *   read<SIZE>        read SIZE bytes at a random SIZE-aligned offset
 *   write<SIZE>       write SIZE random bytes, flushed before the call returns
 *   write<SIZE>/<N>   buffered write, then fdatasync with probability 1/N
 *                     (N = 0: never fdatasync)
 *   seqread<SIZE>, seqwrite<SIZE>, seqwrite<SIZE>/<N>
 *                     the same, but each thread streams through the target
 *                     from its own evenly spaced start, wrapping around
 *   rw<SIZE>:<P>      random mix: P% reads, the rest flushed writes
 *   any of these + "@<ALIGN>" to align offsets to ALIGN instead of SIZE
 * Long form of the 2012 tool: OP,THREADS,SIZE,ALIGN with OP one of read,
 * write (buffered, never flushed), writeFlush, writeNN; iobench adds
 * seqRead, seqWrite, seqWriteFlush, seqWriteNN and rwPP. THREADS is a number
 * (fractional allowed, at least OPSPEC_MIN_THREADS: 2.5 threads are 3
 * threads pausing 20% of the time) or "i" (take the count from --threads); several
 * joined with "." run at the same time.
 *
 * Pure: no I/O, no allocation, thread-safe.
 */
#ifndef IOBENCH_LIB_OPSPEC_H
#define IOBENCH_LIB_OPSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum op_kind {
	OP_READ,        /* pread */
	OP_WRITE_FLUSH, /* pwrite on an O_SYNC (or O_DSYNC) descriptor */
	OP_WRITE_N,     /* buffered pwrite, fdatasync with probability 1/sync_every */
	OP_MIXED,       /* read with probability read_pct/100, else a flushed write */
};

#define OPSPEC_NAME_MAX 96
#define OPSPEC_MAX_THREADS 4096
/* Fewer would be a thread idle over 99% of the time: --rate is the way to a slow load. */
#define OPSPEC_MIN_THREADS 0.01
#define OPSPEC_MAX_OPSIZE (1ULL << 30)

struct op_spec {
	enum op_kind kind;
	uint64_t size;       /* bytes per operation */
	uint64_t align;      /* offsets are multiples of this */
	uint32_t sync_every; /* OP_WRITE_N: N in 1/N; 0 means never */
	bool sequential;     /* stream through the target instead of random offsets */
	unsigned read_pct;   /* OP_MIXED: share of reads, 0..100 */
	double threads;      /* from the long form; 0 = use --threads */
	char name[OPSPEC_NAME_MAX];      /* short name: "read4k", "write4k/64" */
	char signature[OPSPEC_NAME_MAX]; /* the 2012 tool's: "read,4K,4K", "write64,4K,4K" */
};

/*
 * The vocabulary: each OP word of the long form (and of signatures, which
 * are long forms without THREADS), with what it means and the short name's
 * stem. A numbered word (writeNN, rwPP) is its entry's word followed by the
 * number.
 */
enum opspec_number {
	OPSPEC_NUMBER_NONE,     /* the word alone: "read", "writeFlush", "seqRead" */
	OPSPEC_NUMBER_OPTIONAL, /* "write" (never synced) or "write64" (fdatasync 1 in 64) */
	OPSPEC_NUMBER_REQUIRED, /* "rw70" (70% reads) */
};

struct opspec_word {
	const char *word; /* the OP word, or a numbered word's part before its number: "seqWriteFlush", "write", "rw" */
	const char *stem; /* how the short name starts: "read", "write", "seqwrite", "rw" */
	enum op_kind kind; /* OP_WRITE_N for "write" and "writeNN"; the short name adds "/N" */
	bool sequential;
	enum opspec_number number;
};

/*
 * The entry for the OP word text[0..len) (a signature's text before its
 * first ','): an entry's word alone (when its number is not required), or
 * its word followed by a number (when it takes one), that is by the rest of
 * text, which must begin with a digit. The number's text goes to *num and
 * its length to *numlen ("" and 0 for none); whether it is all digits and in
 * range is the caller's to check. NULL when text is no OP word.
 */
const struct opspec_word *opspec_word_find(const char *text, size_t len, const char **num, size_t *numlen);

/* The entry names and signatures of kind are made from (OP_MIXED: its one entry, sequential or not). */
const struct opspec_word *opspec_word_of(enum op_kind kind, bool sequential);

/*
 * Parse one --op argument into up to max specs (several for a "."-joined
 * long form). Returns the number of specs parsed (>= 1), or -EINVAL with a
 * one-line reason in err, or -E2BIG when more than max.
 */
int opspec_parse(const char *text, struct op_spec *out, size_t max, char *err, size_t errlen);

/*
 * Parse a thread list: "24", "1,2,4", "1..4,8,16". Counts keep the order
 * given. Returns how many counts were stored (>= 1), or -EINVAL / -ERANGE
 * (a count of 0 or above OPSPEC_MAX_THREADS, or more than max counts) with
 * a reason in err.
 */
int opspec_parse_threads(const char *text, unsigned *out, size_t max, char *err, size_t errlen);

#endif
