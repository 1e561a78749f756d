/* create.c - random-filled data files (the library behind `iobench create` and --size). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/create.h"
#include "lib/clock.h"
#include "lib/fileio.h"
#include "lib/prng.h"
#include "lib/signals.h"
#include "lib/units.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (4u << 20)
#define DEFAULT_THREADS 4
/* Filler thread i draws stream FIRST_STREAM + i. */
#define FIRST_STREAM 1000
/* How often the waiting thread looks for the end or a stop signal, and redraws the bar. */
#define LOOK_NS 10000000ULL
#define BAR_NS 200000000ULL

struct filler {
	int fd_direct;        /* -1 when O_DIRECT is not available */
	int fd_buffered;
	uint64_t size;
	uint64_t nchunks;
	uint64_t seed;
	_Atomic uint64_t next;    /* next chunk to write */
	_Atomic uint64_t written; /* bytes written */
	_Atomic int error;        /* first -errno */
	atomic_bool stop;
};

struct filler_thread {
	struct filler *f;
	unsigned index;
	pthread_t tid;
};

static void *filler_main(void *arg)
{
	struct filler_thread *ft = arg;
	struct filler *f = ft->f;
	void *buf;
	if (posix_memalign(&buf, 4096, CHUNK) != 0) {
		int expected = 0;
		atomic_compare_exchange_strong(&f->error, &expected, -ENOMEM);
		return NULL;
	}
	struct prng rng;
	prng_seed(&rng, f->seed, FIRST_STREAM + ft->index);
	for (;;) {
		if (atomic_load(&f->stop) || atomic_load(&f->error))
			break;
		uint64_t c = atomic_fetch_add(&f->next, 1);
		if (c >= f->nchunks)
			break;
		uint64_t off = c * CHUNK;
		size_t len = off + CHUNK <= f->size ? CHUNK : (size_t)(f->size - off);
		prng_fill(&rng, buf, len);
		/* O_DIRECT needs whole 4 KiB blocks: a ragged tail goes through the page cache. */
		bool direct = f->fd_direct >= 0 && len % 4096 == 0;
		int rc = pwrite_full(direct ? f->fd_direct : f->fd_buffered, buf, len, (off_t)off);
		if (rc < 0) {
			int expected = 0;
			atomic_compare_exchange_strong(&f->error, &expected, rc);
			break;
		}
		atomic_fetch_add(&f->written, len);
	}
	free(buf);
	return NULL;
}

static void show_bar(const struct create_opts *o, uint64_t done, uint64_t total, double elapsed)
{
	char a[32], b[32];
	units_format_size(a, sizeof(a), done);
	units_format_size(b, sizeof(b), total);
	double frac = total ? (double)done / (double)total : 1;
	double rate = elapsed > 0 ? (double)done / elapsed : 0;
	double eta = rate > 0 ? (double)(total - done) / rate : 0;
	char bar[31];
	int fill = (int)(frac * 30);
	for (int i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : ' ';
	bar[30] = '\0';
	char text[160];
	snprintf(text, sizeof(text), "[%s] %3.0f%% %s / %s  %.0f MB/s  ETA %.0fs", bar, frac * 100, a, b, rate / 1e6,
		 eta);
	o->status(o->status_arg, text);
}

/*
 * Is path free to be (re)made? With force an existing regular file may be
 * replaced; anything else (a FIFO, a device, a directory) never is: create
 * makes data files. Opens nothing, so a FIFO cannot block it.
 */
static int check_final(const char *path, bool force, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return -errno;
	}
	/* The file is renamed into place: that replaces a link, never writes where it points (dangling or not). */
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s: is a symbolic link; give the path it points to, or remove the link", path);
		return -ELOOP;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory; give a file name", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file; create makes data files (a device needs no create)", path);
		return -EINVAL;
	}
	if (!force) {
		snprintf(err, errlen, "%s: already exists; use --force to overwrite it", path);
		return -EEXIST;
	}
	return 0;
}

/*
 * A new file beside path, "PATH.partial.XXXXXX", with size bytes reserved:
 * a full disk fails now, not after minutes. The name goes to tmp.
 */
static int open_partial(const char *path, uint64_t size, const char *human, char *tmp, size_t tmplen,
			char *err, size_t errlen)
{
	/* A data file is 0644 less the umask, as open() would make it. */
	int fd = replace_open(path, 0, 0644, tmp, tmplen);
	if (fd == -ENAMETOOLONG) {
		snprintf(err, errlen, "%s: name too long", path);
		return fd;
	}
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(-fd));
		return fd;
	}
	int rc = posix_fallocate(fd, 0, (off_t)size);
	/* EFBIG is the filesystem's limit on one file: freeing space would not help. */
	if (rc == EFBIG) {
		snprintf(err, errlen, "%s: %s is more than this filesystem allows in one file (%s); choose a smaller "
			 "size, or a filesystem (or a block device) that takes it", path, human, strerror(rc));
		replace_abort(fd, tmp);
		return -rc;
	}
	if (rc == ENOSPC) {
		snprintf(err, errlen, "%s: not enough space for %s (%s); free space or choose a smaller size",
			 path, human, strerror(rc));
		replace_abort(fd, tmp);
		return -rc;
	}
	return fd;
}

/*
 * Wait for started filler threads to finish (the bar every BAR_NS when o->status).
 * Returns the stop signal that cut it short, or 0.
 */
static int wait_fillers(struct filler *f, const struct create_opts *o, unsigned started, uint64_t t0)
{
	uint64_t next_bar = t0 + BAR_NS;
	int sig = 0;
	while (atomic_load(&f->written) < f->size && !atomic_load(&f->error)) {
		/* Look every LOOK_NS: the end is noticed at once, not up to a bar refresh late. */
		sig = signals_wait(o->stop_signals, LOOK_NS);
		if (sig > 0) {
			atomic_store(&f->stop, true);
			break;
		}
		uint64_t now = clock_now_ns();
		if (o->status && now >= next_bar) {
			show_bar(o, atomic_load(&f->written), f->size, (double)(now - t0) / 1e9);
			next_bar = now + BAR_NS;
		}
		/* All threads gone without finishing means they hit an error. */
		if (atomic_load(&f->next) >= f->nchunks + started)
			break;
	}
	return sig;
}

/* Fill f's file from nthreads threads. 0, -EINTR (a stop signal), or -errno. */
static int fill(struct filler *f, const struct create_opts *o, unsigned nthreads)
{
	struct filler_thread *ts = calloc(nthreads, sizeof(*ts));
	if (!ts)
		return -ENOMEM;
	unsigned started = 0;
	for (; started < nthreads; started++) {
		ts[started] = (struct filler_thread){ .f = f, .index = started };
		if (pthread_create(&ts[started].tid, NULL, filler_main, &ts[started]) != 0)
			break;
	}
	if (started == 0) {
		free(ts);
		return -EAGAIN;
	}
	uint64_t t0 = clock_now_ns();
	int sig = wait_fillers(f, o, started, t0);
	for (unsigned i = 0; i < started; i++)
		pthread_join(ts[i].tid, NULL);
	free(ts);
	if (o->status) {
		show_bar(o, atomic_load(&f->written), f->size, (double)(clock_now_ns() - t0) / 1e9);
		o->status(o->status_arg, NULL);
	}
	int rc = atomic_load(&f->error);
	if (sig > 0)
		rc = -EINTR;
	else if (rc == 0 && atomic_load(&f->written) != f->size)
		rc = -EIO;
	return rc;
}

int create_file(const char *path, uint64_t size, const struct create_opts *o, char *err, size_t errlen)
{
	char human[32], tmp[PATH_MAX];
	units_format_size(human, sizeof(human), size);
	int rc = check_final(path, o->force, err, errlen);
	if (rc < 0)
		return rc;
	int fd = open_partial(path, size, human, tmp, sizeof(tmp), err, errlen);
	if (fd < 0)
		return fd;
	struct filler f = { .fd_buffered = fd, .size = size, .seed = o->seed };
	f.nchunks = (size + CHUNK - 1) / CHUNK;
	f.fd_direct = open(tmp, O_WRONLY | O_DIRECT | O_CLOEXEC);
	unsigned nthreads = o->threads ? o->threads : DEFAULT_THREADS;
	if (nthreads > f.nchunks)
		nthreads = f.nchunks ? (unsigned)f.nchunks : 1;
	rc = fill(&f, o, nthreads);
	if (f.fd_direct >= 0)
		close(f.fd_direct);
	/* The complete, synced file takes its name; without force, never over one that appeared meanwhile. */
	if (rc == 0)
		rc = replace_commit(fd, tmp, path, o->force ? 0 : REPLACE_NOREPLACE);
	else
		replace_abort(fd, tmp);
	if (rc == 0)
		return 0;
	if (rc == -EINTR)
		snprintf(err, errlen, "%s: interrupted; partial file removed", path);
	else if (rc == -ENOSPC || rc == -EDQUOT)
		snprintf(err, errlen, "%s: no space left after writing part of %s; partial file removed", path, human);
	else if (rc == -EEXIST)
		snprintf(err, errlen, "%s: appeared while it was being created; the new data was removed", path);
	else
		snprintf(err, errlen, "%s: write failed: %s; partial file removed", path, strerror(-rc));
	return rc;
}
