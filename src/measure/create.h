/*
 * SPDX-License-Identifier: Apache-2.0
 * create.h - make a data file full of random bytes, at device speed.
 *
 * Large aligned O_DIRECT writes (buffered where the filesystem refuses
 * O_DIRECT) from several threads, each filling its buffer with xoshiro256**
 * output; then fsync. The file is written under a name of its own beside
 * the final one ("FILE.partial.XXXXXX") and renamed when complete and
 * synced: a file by the final name always has all its random bytes, even
 * after a SIGKILL or a crash (which leave the .partial file behind). On a
 * failure or a stop signal the partial file is removed.
 */
#ifndef IOBENCH_MEASURE_CREATE_H
#define IOBENCH_MEASURE_CREATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Salts of the fill's seed (the caller's seed ^ salt), so that a data file's
 * bytes are never the stream a run or a durability writer draws from the
 * same --seed: a file made by `iobench run --size`, and by `iobench
 * durability write --size`.
 */
#define CREATE_SEED_SALT_RUN 0xc0ffeeULL
#define CREATE_SEED_SALT_DURABILITY 0xd0b1eULL

struct create_opts {
	bool force;                  /* overwrite an existing file */
	unsigned threads;            /* writer threads; 0 = default */
	/*
	 * A progress bar: status(status_arg, text) about once a second, the
	 * same at the end, then status(status_arg, NULL); NULL: none.
	 */
	void (*status)(void *arg, const char *text);
	void *status_arg;
	uint64_t seed;
	const sigset_t *stop_signals; /* blocked by the caller; awaited here */
};

/*
 * Create path with size random bytes. Returns 0; -EEXIST when it exists
 * and !force; -EISDIR, or -EINVAL when it exists as something other than a
 * regular file (a FIFO, a device: never opened); -EINTR when a stop signal arrived (file removed); -ENOSPC or
 * another -errno on failure (file removed), with a one-line reason in err.
 */
int create_file(const char *path, uint64_t size, const struct create_opts *o, char *err, size_t errlen);

#endif
