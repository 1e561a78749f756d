/*
 * SPDX-License-Identifier: Apache-2.0
 * raw.h - the 2012 tool's per-operation log (--raw FILE), kept off the hot path.
 *
 * Each worker owns a struct raw_buf of two fixed chunks. The worker appends
 * records to one chunk; when it is full it hands it to the writer thread
 * (an atomic flag) and switches to the other. If the writer has not emptied
 * that one yet, records are dropped and counted, never waited for: the
 * benchmark is not slowed by its own log. Nothing is allocated after setup.
 *
 * Lines: "op: <OP> <offset> <length> <duration us> <end us since start>"
 * and " ERROR[<message>]" for failed operations, after "# key: value" headers.
 */
#ifndef IOBENCH_MEASURE_RAW_H
#define IOBENCH_MEASURE_RAW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RAW_CHUNK_RECS 16384

struct raw_rec {
	uint64_t offset;
	uint64_t end_ns;  /* since the run's start */
	uint64_t dur_ns;
	uint32_t len;
	int32_t err;      /* errno, 0 for success */
	uint8_t is_write;
};

struct raw_buf {
	struct raw_rec *chunk[2];
	uint32_t count[2];        /* records in a chunk handed to the writer */
	_Atomic int full[2];      /* 1: the writer owns the chunk */
	unsigned cur;             /* the chunk the worker fills */
	uint32_t n;               /* records in chunk[cur] */
	uint64_t dropped;         /* records lost because the writer was behind */
	char op_word[32];         /* the signature's op word: "read", "writeFlush", "write64", "rw70" */
	int mixed;                /* add "/read" or "/write" to the op word */
};

/* Allocate a buffer's chunks for an op of this signature. 0 or -ENOMEM. */
int raw_buf_init(struct raw_buf *b, const char *signature, int mixed);
void raw_buf_free(struct raw_buf *b);

/* Append one record (worker thread only). */
static inline void raw_add(struct raw_buf *b, const struct raw_rec *r)
{
	if (b->n == RAW_CHUNK_RECS) {
		if (atomic_load_explicit(&b->full[b->cur ^ 1], memory_order_acquire)) {
			b->dropped++;
			return;
		}
		b->count[b->cur] = b->n;
		atomic_store_explicit(&b->full[b->cur], 1, memory_order_release);
		b->cur ^= 1;
		b->n = 0;
	}
	b->chunk[b->cur][b->n++] = *r;
}

struct raw_writer;

/*
 * Start the writer thread over nbufs buffers, writing to f (owned by the
 * caller, who writes the header lines first). NULL on failure.
 */
struct raw_writer *raw_writer_start(FILE *f, struct raw_buf **bufs, size_t nbufs);

/*
 * After the workers have stopped: write what is left in every buffer, stop
 * the thread. Returns the number of records dropped in all, or -errno when
 * writing failed; the log then ends with its last whole line (raw_cut_to_line).
 * abandoned (nbufs entries, or NULL): buffers whose worker was abandoned
 * stuck in I/O and may still write to them; their partial chunk and counts
 * are never read (what they handed over whole was written).
 */
int64_t raw_writer_finish(struct raw_writer *w, const bool *abandoned);

/*
 * After a write to f failed (a full disk): drop what stdio still holds and,
 * when f is a regular file, cut it back to the end of its last whole line,
 * so the next run's header never continues a broken record. 0 or -errno.
 */
int raw_cut_to_line(FILE *f);

#endif
