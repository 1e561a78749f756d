/*
 * fileio.h - the file rules every layer shares: whole transfers.
 *
 * Every function returns 0 (or a count) or -errno and prints nothing. All
 * are thread-safe: they keep no state.
 */
#ifndef IOBENCH_LIB_FILEIO_H
#define IOBENCH_LIB_FILEIO_H

#include <stddef.h>
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

#endif
