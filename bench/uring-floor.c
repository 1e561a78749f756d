/*
 * SPDX-License-Identifier: Apache-2.0
 * uring-floor.c - the least a tool can spend per cached read4k through
 * io_uring at a queue depth: a bare loop in the style of fio's t/io_uring.
 * DEPTH reads are queued, submitted BATCH at a time, and completions reaped
 * with the submission of the next batch in the same io_uring_enter; each
 * read takes one clock reading when it is queued and shares one per reaped
 * batch (as iobench's worker does), nothing else is recorded. Registered
 * file, registered buffers (READ_FIXED), the ring's own fd registered, and a
 * single-issuer ring are options, so their effect can be seen one at a time.
 *
 * usage: uring-floor [-q DEPTH] [-b BATCH] [-f] [-B] [-r] [-s] FILE SECONDS
 *   -q DEPTH   reads in flight (default 32)
 *   -b BATCH   SQEs per io_uring_enter (default DEPTH)
 *   -f         registered file (IOSQE_FIXED_FILE)
 *   -B         registered buffers (IORING_OP_READ_FIXED)
 *   -r         register the ring fd (io_uring_register_ring_fd)
 *   -s         IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN
 * prints "IOPS CPU_NS_PER_OP" (user + system time of the whole process over
 * the reads done). No SQPOLL mode: with one, this loop waited here for
 * completions that never came (kernel 6.18, 2 vCPUs; not run down);
 * iobench's --sqpoll is measured by bench/vs-fio instead.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return now_ns();
#endif
}

int main(int argc, char **argv)
{
	unsigned depth = 32, batch = 0;
	int fixed_file = 0, fixed_buf = 0, reg_ring = 0, single = 0, c;
	while ((c = getopt(argc, argv, "q:b:fBrs")) != -1) {
		switch (c) {
		case 'q': depth = (unsigned)atoi(optarg); break;
		case 'b': batch = (unsigned)atoi(optarg); break;
		case 'f': fixed_file = 1; break;
		case 'B': fixed_buf = 1; break;
		case 'r': reg_ring = 1; break;
		case 's': single = 1; break;
		default: return 2;
		}
	}
	if (argc - optind != 2 || depth == 0 || depth > 4096)
		return 2;
	if (batch == 0 || batch > depth)
		batch = depth;
	int fd = open(argv[optind], O_RDONLY | O_NOATIME);
	if (fd < 0)
		fd = open(argv[optind], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 4096)
		return 1;
	struct io_uring ring;
	struct io_uring_params p = { 0 };
	if (single)
		p.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	if (io_uring_queue_init_params(depth, &ring, &p) < 0)
		return 1;
	struct iovec *iov = calloc(depth, sizeof(*iov));
	for (unsigned i = 0; i < depth; i++) {
		if (posix_memalign(&iov[i].iov_base, 4096, 4096) != 0)
			return 1;
		iov[i].iov_len = 4096;
	}
	if (fixed_buf && io_uring_register_buffers(&ring, iov, depth) < 0)
		return 1;
	if (fixed_file && io_uring_register_files(&ring, &fd, 1) < 0)
		return 1;
	if (reg_ring && io_uring_register_ring_fd(&ring) < 0)
		return 1;
	unsigned *free_slots = calloc(depth, sizeof(*free_slots));
	unsigned nfree = depth;
	for (unsigned i = 0; i < depth; i++)
		free_slots[i] = i;
	uint64_t *issued_at = calloc(depth, sizeof(*issued_at));
	uint64_t x = 88172645463325252ULL, n = 0, sum = 0, queued = 0;
	uint64_t slots = ((uint64_t)st.st_size - 4096) / 4096 + 1;
	uint64_t start = now_ns(), end = start + (uint64_t)(atof(argv[optind + 1]) * 1e9);
	for (;;) {
		/* Queue what is free, in batches. */
		while (nfree > 0 && queued < batch) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			if (!sqe)
				break;
			unsigned s = free_slots[--nfree];
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			uint64_t off = (uint64_t)(((unsigned __int128)x * slots) >> 64) * 4096;
			int f = fixed_file ? 0 : fd;
			if (fixed_buf)
				io_uring_prep_read_fixed(sqe, f, iov[s].iov_base, 4096, off, (int)s);
			else
				io_uring_prep_read(sqe, f, iov[s].iov_base, 4096, off);
			if (fixed_file)
				sqe->flags |= IOSQE_FIXED_FILE;
			sqe->user_data = s;
			issued_at[s] = ticks();
			queued++;
		}
		if (io_uring_submit_and_wait(&ring, 1) < 0)
			return 1;
		queued = 0;
		uint64_t t = ticks();
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != 4096)
				return 1;
			unsigned s = (unsigned)cqe->user_data;
			sum += t - issued_at[s];
			free_slots[nfree++] = s;
			seen++;
		}
		io_uring_cq_advance(&ring, seen);
		n += seen;
		if ((n & ~1023ULL) != ((n - seen) & ~1023ULL) && now_ns() >= end)
			break;
	}
	double secs = (double)(now_ns() - start) / 1e9;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		     (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	printf("%.0f %.0f\n", (double)n / secs, cpu / (double)n);
	return sum == 0;
}
