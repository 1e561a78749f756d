/*
 * create.h - make a data file full of random bytes, at device speed.
 *
 * Large aligned O_DIRECT writes (buffered where the filesystem refuses
 * O_DIRECT) from several threads, each filling its buffer with xoshiro256**
 * output; then fsync. On any failure or a stop signal the partial file is
 * removed: a file either has all its random bytes or does not exist.
 */
#ifndef IOBENCH_CREATE_H
#define IOBENCH_CREATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct create_opts {
	bool force;                  /* overwrite an existing file */
	unsigned threads;            /* writer threads; 0 = default */
	bool progress;               /* progress bar on stderr (only shown on a tty) */
	uint64_t seed;
	const sigset_t *stop_signals; /* blocked by the caller; awaited here */
};

/*
 * Create path with size random bytes. Returns 0; -EEXIST when it exists
 * and !force; -EINTR when a stop signal arrived (file removed); -ENOSPC or
 * another -errno on failure (file removed), with a one-line reason in err.
 */
int create_file(const char *path, uint64_t size, const struct create_opts *o, char *err, size_t errlen);

#endif
