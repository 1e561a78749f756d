/*
 * SPDX-License-Identifier: Apache-2.0
 * stamp.h - the pure parts of `iobench durability`: block stamps, the
 * server's log records, and what a block read back after a power cut means.
 *
 * A block of a durability run is written whole, and every 512-byte sector of
 * it carries the same stamp (run id, block number, sequence, writer id, the
 * sector's index) and a checksum of the sector; the rest is random. Reading a
 * block back therefore tells, sector by sector, which version of which block
 * of which run is there, and a block whose sectors disagree is torn.
 *
 * Sector layout (little-endian):
 *   0  u64 magic "IOBDUR01"     8 u64 run id        16 u64 block number
 *   24 u64 sequence            32 u32 writer id     36 u32 sector index
 *   40 u32 block size          44 u32 zero          48 u64 checksum
 *   56.. random bytes
 * The checksum covers the whole sector with its own field read as zero.
 *
 * No I/O, no allocation except in the dur_map functions; thread-safe on
 * distinct objects.
 */
#ifndef IOBENCH_DURABILITY_STAMP_H
#define IOBENCH_DURABILITY_STAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/prng.h"

#define DUR_SECTOR 512
#define DUR_MAGIC 0x3130525544424f49ULL /* "IOBDUR01" read little-endian */
#define DUR_PROTO_VERSION 1
#define DUR_DEFAULT_PORT 7340
/* The same port as text, for help and messages: "7340". */
#define DUR_DEFAULT_PORT_STR DUR_QUOTE(DUR_DEFAULT_PORT)
#define DUR_QUOTE(x) DUR_QUOTE_(x)
#define DUR_QUOTE_(x) #x
#define DUR_LINE_MAX 1024 /* longest protocol or log line, newline included */

/* What one sector says about itself. */
struct dur_stamp {
	uint64_t run;
	uint64_t block;
	uint64_t seq;
	uint32_t writer;
	uint32_t sector;     /* index of the sector in its block */
	uint32_t block_size; /* bytes */
};

/* 64-bit checksum of len bytes (not cryptographic; detects torn and stale sectors). */
uint64_t dur_checksum(const void *buf, size_t len);

/*
 * Fill buf (block_size bytes, a multiple of DUR_SECTOR) with random bytes
 * from rng and stamp each sector with s (s->sector is ignored: each sector
 * gets its own index; s->block_size is set to block_size).
 */
void dur_stamp_block(void *buf, size_t block_size, const struct dur_stamp *s, struct prng *rng);

/* Parse one sector: 0 with *out filled, or -EBADMSG (no magic, bad checksum). */
int dur_parse_sector(const void *sector, struct dur_stamp *out);

/* What a block holds compared with what was acknowledged for it. */
enum dur_class {
	DUR_INTACT,      /* every sector: the last acknowledged version */
	DUR_NEWER,       /* every sector: one later version (written, never acknowledged) */
	DUR_TORN,        /* sectors of different versions, none older than the acknowledged one */
	DUR_LOST_OLDER,  /* every sector: one earlier version of this run */
	DUR_LOST_MISSING,/* no sector of this block of this run: old data, zeros, another run */
	DUR_LOST_TORN,   /* sectors of different versions, some older than acknowledged (or foreign) */
	DUR_NCLASS
};

/* True for the three DUR_LOST_* classes. */
static inline bool dur_class_lost(enum dur_class c)
{
	return c >= DUR_LOST_OLDER;
}

/* JSON/short name of a class: "intact", "newer", "torn", "older", "missing", "tornOlder". */
const char *dur_class_name(enum dur_class c);

struct dur_found {
	enum dur_class cls;
	unsigned sectors;      /* block_size / DUR_SECTOR */
	unsigned valid;        /* sectors stamped with this run and block */
	uint64_t seq_min, seq_max; /* over the valid sectors; 0 when none */
};

/*
 * Classify a block read back: block_size bytes at buf, expected to belong to
 * run and block number blockno, whose last acknowledged sequence is acked
 * (0 when none was: then "intact" cannot happen, "newer" means a write that
 * was never acknowledged landed, "missing" that none did). Fills *f.
 */
enum dur_class dur_classify(const void *buf, size_t block_size, uint64_t run, uint64_t blockno,
			    uint64_t acked, struct dur_found *f);

/* ---- the server's log and the protocol lines ---- */

/*
 * What a run is, as each writer connection announces it:
 * "HELLO iobench-durability 1 run=HEX writer=N writers=N blocksize=N blocks=N
 *  op=NAME host=NAME target=PATH start=UNIX" (op, host and target %-escaped;
 * no control byte, escaped or not, is accepted in them).
 */
struct dur_run_info {
	uint64_t run;
	uint32_t writer;    /* this connection's writer id */
	uint32_t writers;   /* writers in the run */
	uint32_t block_size;
	uint64_t blocks;    /* blocks in the span written */
	char op[32];
	char host[128];
	char target[512];
	int64_t start;      /* the writer's clock, Unix seconds */
	int64_t created;    /* the server's clock when the run's log began ("RUN" line), microseconds */
};

/* Format a HELLO line (no newline). Returns the length, or -ENOSPC. */
int dur_hello_format(char *buf, size_t len, const struct dur_run_info *r);

/* Parse a HELLO line (without its newline). 0, or -EINVAL with *r undefined. */
int dur_hello_parse(const char *line, struct dur_run_info *r);

/*
 * Copy s into out (len bytes, NUL included) as printable ASCII: bytes outside
 * 0x20..0x7e as \xNN, a backslash as \\. For anything a peer sent that goes to
 * a terminal or a log (newlines cannot forge lines, ESC cannot reach the
 * terminal). Cut at a whole escape when out is full. Returns the length.
 */
size_t dur_text_escape(char *out, size_t len, const char *s);

/* One acknowledgement or intent, as the server logs it: "A WRITER BLOCK SEQ", "I ...". */
struct dur_record {
	char kind; /* 'A' acknowledged durable, 'I' about to be written */
	uint32_t writer;
	uint64_t block;
	uint64_t seq;
};

/*
 * Parse a writer's message "A BLOCK SEQ" / "I BLOCK SEQ" (with_writer false)
 * or a log record "A WRITER BLOCK SEQ" (with_writer true), without newline.
 * Strict: one space between fields, decimal numbers, seq >= 1. 0 or -EINVAL.
 */
int dur_record_parse(const char *line, bool with_writer, struct dur_record *r);

/* Append "ddd" (decimal u64) to buf; returns the bytes written (at most 20). No printf: used per write. */
size_t dur_put_u64(char *buf, uint64_t v);

/* The run id as 16 lowercase hex digits (buf of 17 or more), and back (0 or -EINVAL). */
void dur_run_hex(uint64_t run, char buf[17]);
int dur_run_parse(const char *hex, uint64_t *run);

/* ---- what the verifier collects from the log: per block, the newest promises ---- */

struct dur_block {
	uint64_t block;
	uint64_t acked;    /* highest acknowledged sequence; 0 = never acknowledged */
	uint64_t intended; /* highest announced sequence; 0 = none */
};

/* Open-addressing map block -> struct dur_block. Zero-initialise, dur_map_free when done. */
struct dur_map {
	struct dur_block *slots; /* block + 1 stored in .block; 0 = free slot */
	size_t cap, n;
};

/* Note a record. Returns 0 or -ENOMEM. */
int dur_map_note(struct dur_map *m, const struct dur_record *r);

/* The entries sorted by block number (malloc'd; caller frees), count in *n; NULL on ENOMEM (or n == 0). */
struct dur_block *dur_map_sorted(const struct dur_map *m, size_t *n);

void dur_map_free(struct dur_map *m);

#endif
