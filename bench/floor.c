/*
 * SPDX-License-Identifier: Apache-2.0
 * floor.c - the least any tool can spend per cached read4k: one pread and two
 * clock reads in a loop, nothing recorded. The clock is the cheapest there is
 * (RDTSC on x86-64, as iobench and fio read it there; clock_gettime
 * elsewhere), the read is the bare system call (no cancellation-point
 * wrapper, as iobench's sync engine calls it), and the deadline is looked at
 * every 1024 reads. bench/vs-fio compiles and runs it
 * beside iobench and fio so the hot-cache ratio has its ceiling next to it.
 *
 * usage: floor FILE SECONDS   (prints "IOPS CPU_NS_PER_OP": user + system time
 *                               of the process over the reads done)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
	if (argc != 3)
		return 2;
	/* O_NOATIME as iobench reads do (where permitted): no atime bookkeeping per read. */
	int fd = open(argv[1], O_RDONLY | O_NOATIME);
	if (fd < 0)
		fd = open(argv[1], O_RDONLY);
	struct stat st;
	void *buf;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 4096 || posix_memalign(&buf, 4096, 4096) != 0)
		return 1;
	uint64_t x = 88172645463325252ULL, n = 0, sum = 0;
	uint64_t slots = ((uint64_t)st.st_size - 4096) / 4096 + 1;
	uint64_t start = now_ns(), end = start + (uint64_t)(atof(argv[2]) * 1e9);
	for (;;) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t off = (uint64_t)(((unsigned __int128)x * slots) >> 64) * 4096;
		uint64_t t0 = ticks();
		if (syscall(SYS_pread64, fd, buf, 4096, (off_t)off) != 4096)
			return 1;
		uint64_t t1 = ticks();
		sum += t1 - t0;
		n++;
		if ((n & 1023) == 0 && now_ns() >= end)
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
