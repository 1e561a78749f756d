/* fileio.c - whole transfers, one-line reads, deadlines, replacing a file whole (see fileio.h). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/fileio.h"
#include "lib/clock.h"
#include "lib/prng.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* write() (or pwrite() at off, when positioned) until all of buf is written. */
static int write_all(int fd, const char *p, size_t len, off_t off, bool positioned)
{
	while (len > 0) {
		ssize_t n = positioned ? pwrite(fd, p, len, off) : write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, 0, false);
}

int pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	return write_all(fd, buf, len, off, true);
}

ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break; /* the end of the file */
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int read_first_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	int rc = 0;
	errno = 0;
	if (!fgets(buf, (int)(len < INT_MAX ? len : INT_MAX), f)) {
		rc = !ferror(f) ? -ENODATA : errno ? -errno : -EIO;
		buf[0] = '\0';
	}
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return rc;
}

int fd_wait(int fd, short events, int64_t deadline_ms)
{
	for (;;) {
		int64_t left = deadline_ms - clock_mono_ms();
		struct pollfd p = { .fd = fd, .events = events };
		int n = poll(&p, 1, left > 0 ? (left < INT_MAX ? (int)left : INT_MAX) : 0);
		if (n > 0)
			return 0;
		if (n == 0 && left > INT_MAX)
			continue;
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

int path_split(const char *path, char *dir, size_t dirlen, const char **name)
{
	const char *slash = strrchr(path, '/');
	if (name)
		*name = slash ? slash + 1 : path;
	int n = slash == path ? snprintf(dir, dirlen, "/")
		: slash	     ? snprintf(dir, dirlen, "%.*s", (int)(slash - path), path)
			     : snprintf(dir, dirlen, ".");
	return n < 0 || (size_t)n >= dirlen ? -ENAMETOOLONG : 0;
}

/* Six letters or digits no other call gets: the name part mkstemp would choose. */
static void fresh_suffix(char *out)
{
	static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static _Atomic uint64_t counter;
	uint64_t r;
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40);
	}
	/* Mixed with a counter: two calls in one nanosecond still differ. */
	r += atomic_fetch_add(&counter, 1);
	r = prng_splitmix64(&r);
	for (int i = 0; i < 6; i++, r /= 62)
		out[i] = letters[r % 62];
}

int replace_open(const char *path, unsigned flags, mode_t mode, char *tmp, size_t tmplen)
{
	int n;
	if (flags & REPLACE_HIDDEN) {
		char dir[PATH_MAX];
		const char *name;
		if (path_split(path, dir, sizeof(dir), &name) < 0)
			return -ENAMETOOLONG;
		n = snprintf(tmp, tmplen, "%s/.%s.XXXXXX", dir, name);
	} else {
		n = snprintf(tmp, tmplen, "%s.partial.XXXXXX", path);
	}
	if (n < 0 || (size_t)n >= tmplen)
		return -ENAMETOOLONG;
	/* O_EXCL: a fresh file, never one planted at the name (not even through a link). */
	for (int tries = 0; tries < 100; tries++) {
		fresh_suffix(tmp + n - 6);
		int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

void replace_abort(int fd, const char *tmp)
{
	if (fd >= 0)
		close(fd);
	unlink(tmp);
}

/* tmp's name becomes path: over an existing file, or (noreplace) only where there is none. */
static int rename_into(const char *tmp, const char *path, bool noreplace)
{
	if (!noreplace)
		return rename(tmp, path) == 0 ? 0 : -errno;
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* A filesystem without RENAME_NOREPLACE: a hard link fails on an existing name too. */
	if (link(tmp, path) != 0)
		return -errno;
	unlink(tmp);
	return 0;
}

int replace_commit(int fd, const char *tmp, const char *path, unsigned flags)
{
	int rc = fsync(fd) == 0 ? 0 : -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0)
		rc = rename_into(tmp, path, flags & REPLACE_NOREPLACE);
	if (rc < 0) {
		unlink(tmp);
		return rc;
	}
	/* The rename itself survives a crash only once the folder is synced. */
	char dir[PATH_MAX];
	if (path_split(path, dir, sizeof(dir), NULL) < 0)
		return -ENAMETOOLONG;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fsync(dfd) < 0 && errno != EINVAL)
		rc = -errno;
	close(dfd);
	return rc;
}

int replace_atomically(const char *path, const void *buf, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	int fd = replace_open(path, 0, mode, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	int rc = write_full(fd, buf, len);
	if (rc < 0) {
		replace_abort(fd, tmp);
		return rc;
	}
	return replace_commit(fd, tmp, path, 0);
}
