/*
 * SPDX-License-Identifier: Apache-2.0
 * faultinj.c - an LD_PRELOAD library for the fault tests; never linked
 * into iobench.
 *
 * IOB_FAULT_PATH=FILE      only descriptors opened on FILE (or on FILE.partial.*,
 *                          where iobench create writes it) are affected
 * IOB_FAULT=RULE[,RULE...] with RULE = CALL:FAULT:N, meaning every Nth call
 *   of CALL (pread, pwrite, fdatasync, fsync, io_getevents) on such a
 *   descriptor gets FAULT; io_getevents_call: every Nth io_getevents call
 *   itself fails (returns -EIO, reaps nothing: the engine has failed):
 *     eio, enospc, eintr   fail with that errno (io_getevents: the Nth
 *                          completion gets res = -EIO)
 *     short                transfer half the bytes, rounded down to whole
 *                          512-byte sectors as a device does (pread/pwrite;
 *                          for io_getevents, report half of what was done);
 *                          a transfer under two sectors is left whole, since
 *                          O_DIRECT cannot continue from inside a sector
 *     zero                 return 0 (end of file) (pread/pwrite)
 * IOB_FAULT_LOG=FILE       append one line per injected fault (for counting)
 * IOB_FAULT_WAIT=FILE      before injecting a fault, wait (up to 60 s) until
 *                          FILE exists: the test decides what happens meanwhile
 *
 * iobench's sync engine calls syscall(SYS_pread64/SYS_pwrite64, ...) rather
 * than glibc's wrappers; those calls are routed through pread/pwrite here.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum call { C_PREAD, C_PWRITE, C_FDATASYNC, C_FSYNC, C_GETEVENTS, C_GETEVENTS_CALL, C_N };
enum fault { F_NONE, F_EIO, F_ENOSPC, F_EINTR, F_SHORT, F_ZERO };

static const char *const call_names[C_N] = { "pread", "pwrite", "fdatasync", "fsync", "io_getevents",
					      "io_getevents_call" };
static struct {
	enum fault fault;
	unsigned every;
	atomic_uint count;
} rules[C_N];
static char fault_path[4096];
static dev_t fault_dev;
static ino_t fault_ino;
static int have_path;
static FILE *fault_log;
static const char *fault_wait;

__attribute__((constructor)) static void faultinj_init(void)
{
	const char *p = getenv("IOB_FAULT_PATH");
	if (p) {
		snprintf(fault_path, sizeof(fault_path), "%s", p);
		have_path = 1;
	}
	fault_wait = getenv("IOB_FAULT_WAIT");
	const char *log = getenv("IOB_FAULT_LOG");
	if (log)
		fault_log = fopen(log, "a");
	const char *spec = getenv("IOB_FAULT");
	if (!spec)
		return;
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", spec);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char call[32], fault[32];
		unsigned n;
		if (sscanf(tok, "%31[^:]:%31[^:]:%u", call, fault, &n) != 3 || n == 0)
			continue;
		for (int c = 0; c < C_N; c++) {
			if (strcmp(call, call_names[c]) != 0)
				continue;
			rules[c].every = n;
			rules[c].fault = !strcmp(fault, "eio") ? F_EIO : !strcmp(fault, "enospc") ? F_ENOSPC
				       : !strcmp(fault, "eintr") ? F_EINTR : !strcmp(fault, "short") ? F_SHORT
				       : !strcmp(fault, "zero") ? F_ZERO : F_NONE;
		}
	}
}

/* Is fd open on create's temporary file for the fault path, FILE.partial.XXXXXX? */
static int on_partial(int fd)
{
	char link[64], name[4096], want[4200];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, name, sizeof(name) - 1);
	if (n <= 0 || !realpath(fault_path, want)) {
		/* The file itself does not exist yet: its folder does. */
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s", fault_path);
		char *slash = strrchr(dir, '/');
		if (n <= 0 || !slash)
			return 0;
		*slash = '\0';
		char real[4096];
		if (!realpath(dir, real))
			return 0;
		snprintf(want, sizeof(want), "%s/%s", real, slash + 1);
	}
	name[n] = '\0';
	strncat(want, ".partial.", sizeof(want) - strlen(want) - 1);
	return strncmp(name, want, strlen(want)) == 0;
}

/* Is fd open on the fault path? Compared by device and inode, looked up lazily. */
static int targeted(int fd)
{
	if (!have_path)
		return 1;
	struct stat a, b;
	if (fstat(fd, &a) != 0)
		return 0;
	if (S_ISREG(a.st_mode) && on_partial(fd))
		return 1;
	if (!fault_ino) {
		if (stat(fault_path, &b) != 0)
			return 0;
		fault_dev = b.st_dev;
		fault_ino = b.st_ino;
	}
	return a.st_dev == fault_dev && a.st_ino == fault_ino && !S_ISCHR(a.st_mode);
}

static enum fault due(enum call c, int fd)
{
	if (rules[c].fault == F_NONE || (fd >= 0 && !targeted(fd)))
		return F_NONE;
	unsigned k = atomic_fetch_add(&rules[c].count, 1) + 1;
	if (k % rules[c].every != 0)
		return F_NONE;
	if (fault_log) {
		fprintf(fault_log, "%s %d\n", call_names[c], rules[c].fault);
		fflush(fault_log);
	}
	for (int i = 0; fault_wait && i < 6000 && access(fault_wait, F_OK) != 0; i++)
		usleep(10000);
	return rules[c].fault;
}

static int fail_errno(enum fault f)
{
	errno = f == F_ENOSPC ? ENOSPC : f == F_EINTR ? EINTR : EIO;
	return -1;
}

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

/* A short transfer's length: half, in whole sectors; 0 when too small to cut. */
static size_t short_len(size_t len)
{
	return (len / 2) & ~(size_t)511;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	REAL(pread);
	enum fault f = due(C_PREAD, fd);
	if (f == F_SHORT && short_len(len))
		return real_pread(fd, buf, short_len(len), off);
	if (f == F_ZERO)
		return 0;
	if (f != F_NONE && f != F_SHORT)
		return fail_errno(f);
	return real_pread(fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	REAL(pwrite);
	enum fault f = due(C_PWRITE, fd);
	if (f == F_SHORT && short_len(len))
		return real_pwrite(fd, buf, short_len(len), off);
	if (f == F_ZERO)
		return 0;
	if (f != F_NONE && f != F_SHORT)
		return fail_errno(f);
	return real_pwrite(fd, buf, len, off);
}

long syscall(long n, ...)
{
	/* Up to six register arguments, as glibc's own syscall() reads them. */
	va_list ap;
	long a[6];
	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == SYS_pread64)
		return pread((int)a[0], (void *)a[1], (size_t)a[2], (off_t)a[3]);
	if (n == SYS_pwrite64)
		return pwrite((int)a[0], (const void *)a[1], (size_t)a[2], (off_t)a[3]);
	REAL(syscall);
	return real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int fdatasync(int fd)
{
	REAL(fdatasync);
	enum fault f = due(C_FDATASYNC, fd);
	if (f != F_NONE)
		return fail_errno(f);
	return real_fdatasync(fd);
}

int fsync(int fd)
{
	REAL(fsync);
	enum fault f = due(C_FSYNC, fd);
	if (f != F_NONE)
		return fail_errno(f);
	return real_fsync(fd);
}

int io_getevents(io_context_t ctx, long min_nr, long nr, struct io_event *events, struct timespec *timeout)
{
	REAL(io_getevents);
	if (due(C_GETEVENTS_CALL, -1) != F_NONE)
		return -EIO; /* libaio returns -errno */
	int n = real_io_getevents(ctx, min_nr, nr, events, timeout);
	for (int i = 0; i < n; i++) {
		enum fault f = due(C_GETEVENTS, -1);
		if (f == F_SHORT && (long)events[i].res > 0 && short_len(events[i].res))
			events[i].res = short_len(events[i].res); /* as if only the first half was done */
		else if (f != F_NONE && f != F_SHORT)
			events[i].res = (unsigned long)-EIO;
	}
	return n;
}
