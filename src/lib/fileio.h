/*
 * SPDX-License-Identifier: Apache-2.0
 * fileio.h - the file rules every layer shares: whole transfers, one-line
 * reads, waiting on a descriptor with a deadline, and replacing a file so
 * that readers see the old one or the new one, never half of either.
 *
 * Every function returns 0 (or a count) or -errno and prints nothing. All
 * are thread-safe: they keep no state, and name temporary files without
 * touching the umask.
 */
#ifndef IOBENCH_LIB_FILEIO_H
#define IOBENCH_LIB_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Write all len bytes of buf to fd at its file offset (or at the end, for
 * O_APPEND), continuing after short writes and EINTR. Returns 0, or -errno
 * from the write() that failed (-EIO when one wrote nothing); what was
 * written before the failure stays written.
 */
int write_full(int fd, const void *buf, size_t len);

/* write_full() at offset off (pwrite; fd's own offset is not moved). */
int pwrite_full(int fd, const void *buf, size_t len, off_t off);

/*
 * Read len bytes at offset off into buf, continuing after short reads and
 * EINTR. Returns the bytes read: len, or fewer only when the end of the file
 * (or device) came first; or -errno when a pread() failed, even after part
 * was read (a caller that wanted the whole block has not got it).
 */
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);

/*
 * The first line of the file at path (a sysfs or procfs value, a token
 * file) into buf, without its line end ("\n", "\r\n"), cut to len - 1
 * bytes when longer; nothing else is changed (no blanks are trimmed).
 * Returns 0, -ENODATA when the file is empty, or -errno when it cannot be
 * opened or read; buf is "" on any failure. len must be at least 1.
 */
int read_first_line(const char *path, char *buf, size_t len);

/*
 * Wait until fd is ready for events (poll's POLLIN, POLLOUT) or the
 * deadline passes, a clock_mono_ms() reading; a passed deadline still
 * looks once. EINTR is resumed. Returns 0 (ready, or an error or hang-up is
 * pending: the next call says which), -ETIMEDOUT, or -errno from poll().
 */
int fd_wait(int fd, short events, int64_t deadline_ms);

/*
 * path's folder into dir ("." for a bare name, "/" for one in the root)
 * and, unless name is NULL, its last component (a pointer into path) into
 * *name. Returns 0, or -ENAMETOOLONG when the folder does not fit dirlen.
 */
int path_split(const char *path, char *dir, size_t dirlen, const char **name);

/*
 * Replacing a file whole: replace_open() makes a new file beside path
 * under a fresh name (created with O_EXCL, so a link planted by someone
 * who can write the directory is never followed); the caller writes it
 * whole; replace_commit() makes it durable and gives it path's name. A
 * reader of path sees the old file or the new one complete, also after a
 * crash. A failure at any step leaves path as it was and removes the
 * temporary file; so does replace_abort().
 */

/* replace_open(): name the temporary file ".NAME.XXXXXX" (hidden from a collector that reads the folder) instead of "NAME.partial.XXXXXX". */
#define REPLACE_HIDDEN 0x1
/* replace_commit(): fail with -EEXIST instead of replacing a path that exists. */
#define REPLACE_NOREPLACE 0x2

/*
 * Create the temporary file for path: in path's folder, named
 * "PATH.partial.XXXXXX" (or "DIR/.NAME.XXXXXX" with REPLACE_HIDDEN), open
 * read-write and close-on-exec, with mode less the umask as open(2) makes
 * it. Its name goes to tmp (tmplen bytes). Returns the descriptor, or
 * -ENAMETOOLONG when the name does not fit tmp, or another -errno.
 */
int replace_open(const char *path, unsigned flags, mode_t mode, char *tmp, size_t tmplen);

/*
 * Finish what replace_open() began: fsync fd and close it, rename tmp over
 * path (with REPLACE_NOREPLACE only where path does not exist: -EEXIST
 * otherwise, also on a filesystem without renameat2's RENAME_NOREPLACE),
 * then fsync the folder so that the new name survives a crash. fd is
 * closed in every case, and tmp removed on failure. Returns 0, or -errno;
 * a failure to sync the folder comes after the rename: path is then the
 * new file, which a crash might still undo.
 */
int replace_commit(int fd, const char *tmp, const char *path, unsigned flags);

/* Give up what replace_open() began: close fd (when >= 0) and remove tmp. */
void replace_abort(int fd, const char *tmp);

/*
 * The whole of it for a file held in memory: path replaced by len bytes of
 * buf, as a new file of mode (less the umask). Returns 0 or -errno (then
 * path is as it was). Its temporary file is "PATH.partial.XXXXXX".
 */
int replace_atomically(const char *path, const void *buf, size_t len, mode_t mode);

#endif
