/*
 * SPDX-License-Identifier: Apache-2.0
 * roles.h - the three halves of `iobench durability`: the server
 * that keeps acknowledgements, the writer that makes them, the verifier that
 * checks a target against them after a power cut.
 *
 * Protocol (TCP, ASCII lines ending in '\n', at most DUR_LINE_MAX bytes):
 *   writer:   HELLO iobench-durability 1 run=.. writer=.. (durability.h)
 *                                    server: "OK" once the line is in its log, fsynced
 *             I BLOCK SEQ            about to write BLOCK as version SEQ (no reply)
 *             A BLOCK SEQ            BLOCK version SEQ is durable: the flush returned (no reply)
 *             BYE                    server: "OK N" (N records logged from this connection), fsynced
 *   verifier: RUNS                   server: "RUN created=SEC.USEC HELLO-LINE" per run, then "END N"
 *             GET RUNID              server: the run's log, then "END N" (N lines)
 *   any error: "ERR reason", then the server closes the connection.
 *   With a token (serve --token/--token-file) every peer's first line is
 *   "AUTH TOKEN"; a server without one refuses that line (the peer expects
 *   a protection the server does not give).
 *
 * The server's log: DIR/RUNID.log, lines "RUN run=HEX created=SEC.USEC" (its clock), the
 * writers' HELLO lines, "I WRITER BLOCK SEQ", "A WRITER BLOCK SEQ",
 * "BYE WRITER N" (writer said goodbye) and "GONE WRITER N" (connection lost
 * without it). Only whole lines are logged; it is fsynced after every round
 * of the poll loop and before each reply.
 *
 * Nothing here prints but the server's progress lines (to the FILE given);
 * functions return 0 / -errno with a one-line reason (no "iobench: ") in err.
 */
#ifndef IOBENCH_DURABILITY_ROLES_H
#define IOBENCH_DURABILITY_ROLES_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "durability/stamp.h"
#include "lib/opspec.h"

/* ---- serve ---- */

struct dur_cidr;

struct dur_serve_config {
	const char *listen;           /* "ADDR:PORT" */
	const char *dir;              /* the logs; created if missing */
	const sigset_t *stop_signals; /* blocked by the caller; one of them stops the server */
	/*
	 * What the server has to say ("listening on", connections), one line
	 * without a prefix or newline, from the serving thread; NULL = quiet.
	 */
	void (*note)(void *arg, const char *text);
	void *note_arg;
	const struct dur_cidr *allow; /* peers outside every block are closed before a byte is read */
	size_t nallow;                /* 0: every peer */
	const char *token;            /* NULL: none; else every peer's first line is "AUTH TOKEN" */
	uint64_t max_records;         /* a run's log holds at most this many records; 0: DUR_RECORDS_PER_BLOCK
	                                 per block of the run, at least DUR_RECORDS_MIN */
	size_t max_conns;             /* connections at once; 0: DUR_CONNS_DEFAULT (at most DUR_CONNS_MAX) */
	size_t max_per_addr;          /* connections from one address (IPv6: one /64); 0: DUR_PER_ADDR_DEFAULT */
};

#define DUR_RECORDS_PER_BLOCK 4096
#define DUR_RECORDS_MIN (16ULL << 20)
#define DUR_CONNS_MAX 4096
#define DUR_CONNS_DEFAULT 4096
#define DUR_PER_ADDR_DEFAULT 1040  /* a writer's 1024 threads (-t) and a few more */
/* Slots no writer may take: a verifier gets in however many writers are connected. */
#define DUR_READER_RESERVE(max_conns) ((max_conns) / 16 > 0 ? (max_conns) / 16 : 1)
/* With every writer slot taken, a writer silent this long gives its slot to a new one. */
#define DUR_EVICT_IDLE_MS 10000

/*
 * Serve until a stop signal arrives (returns -EINTR, logs flushed and
 * closed). Returns -errno when it cannot start (directory, address).
 *
 * Every peer may be hostile: the loop never blocks on one (replies are
 * non-blocking, at most 64 KiB queued per connection), a new connection has
 * 10 s to send its first line, a reader that takes no reply byte for 30 s and
 * a writer silent for 15 minutes are dropped, writers are read no faster
 * than the logs are written (64 KiB a connection a round, nothing while
 * 4 MiB wait), a run's log is closed while no writer of it is connected, a
 * run's failed log append (ENOSPC, EIO) fails that run's writers with an ERR
 * line, never an OK, and the server goes on. Peer text reaches the server's
 * messages escaped (dur_text_escape); control bytes never reach a log.
 */
int dur_serve(const struct dur_serve_config *c, char *err, size_t errlen);

/*
 * The device or file written and verified, as the command probed it
 * (durability/ sits on lib/ alone, so not host/'s struct target_info).
 */
struct dur_target {
	const char *path;
	uint64_t size;             /* bytes */
	unsigned dio_offset_align; /* O_DIRECT offset/size alignment; 0 = unknown */
};

/* ---- write ---- */

struct dur_write_config {
	const char *server;
	const char *token;            /* NULL: none; else sent as "AUTH TOKEN" first */
	void (*accepted)(void *arg);  /* called once the server said OK to every writer, before a block is written */
	void *accepted_arg;
	const struct dur_target *target;
	const struct op_spec *op;     /* write<SIZE> (flushed) or write<SIZE>/<N> (N >= 1) */
	int open_flags;               /* from run_open_flags() */
	unsigned threads;             /* writers; thread t owns the blocks b with b % threads == t */
	uint64_t span;                /* bytes of the target used, from offset 0 */
	uint64_t duration_ns;         /* 0: until a stop signal */
	uint64_t run;                 /* run id, random */
	uint64_t seed;
	const char *host;             /* this machine's name, as the server records it */
	const sigset_t *stop_signals; /* blocked by the caller; one of them stops the writers */
};

struct dur_write_result {
	uint64_t writes;      /* writes issued */
	uint64_t acked;       /* acknowledgements sent after a flush returned */
	uint64_t flushes;     /* fdatasync calls (write<SIZE>/<N>) */
	uint64_t confirmed;   /* records the server confirmed on BYE (all writers that said goodbye) */
	int io_errno;         /* first failed write or flush, 0 if none */
	uint64_t io_err_block;
	int net_errno;        /* the server was lost, 0 if not */
	bool interrupted;     /* a stop signal ended the run */
	int signal;
	double elapsed_s;
};

/*
 * Write until duration_ns, a stop signal, a failed write or flush, or a lost
 * server (those two stop every writer). One dur_write at a time per process
 * (the writers share one stop flag). Returns 0 with *res filled (look at
 * io_errno and net_errno), or -errno when it could not start (open, connect,
 * the server's reply), with a reason in err.
 */
int dur_write(const struct dur_write_config *c, struct dur_write_result *res, char *err, size_t errlen);

/* ---- verify ---- */

#define DUR_EXAMPLES 20

/* One lost block, for the report. */
struct dur_example {
	uint64_t block;
	uint64_t acked;
	struct dur_found found;
	int read_errno; /* the read failed: nothing was found */
};

struct dur_verify_config {
	const char *server;
	const char *token;  /* as dur_write_config's */
	const struct dur_target *target;
	bool direct;        /* O_DIRECT reads (default): a page cache cannot hide what the device lost */
	uint64_t run;       /* 0: the newest run from host */
	const char *host;
};

struct dur_verify_result {
	struct dur_run_info info; /* the run verified (from its first HELLO) */
	uint32_t writers_seen;    /* HELLO lines in the log */
	uint32_t writers_bye;     /* writers that said goodbye (the rest were cut off) */
	uint64_t records;         /* I and A lines */
	uint64_t acked_blocks;    /* blocks with an acknowledged version */
	uint64_t cls[DUR_NCLASS]; /* acknowledged blocks by what they hold */
	uint64_t unreadable;      /* acknowledged blocks that could not be read (counted as missing) */
	uint64_t lost;            /* acknowledged blocks in a DUR_LOST_* class */
	uint64_t unacked_blocks;  /* announced, never acknowledged */
	uint64_t unacked_landed;  /* of those: hold the announced version (or a torn part of it) */
	struct dur_example examples[DUR_EXAMPLES];
	size_t nexamples;
	double elapsed_s;
};

/*
 * Fetch the run's log from the server, read every block it names from the
 * target (opened O_RDONLY, never written) and classify it. Returns 0 with
 * *res filled, -ENOENT (no such run / no run from host; err lists what the
 * server has), or another -errno.
 */
int dur_verify(const struct dur_verify_config *c, struct dur_verify_result *res, char *err, size_t errlen);

#endif
