/*
 * SPDX-License-Identifier: Apache-2.0
 * clock.h - the benchmark's time source: nanoseconds on one monotonic scale,
 * the same for every thread.
 *
 * Two sources. On x86-64, where the kernel itself keeps time with the TSC
 * (clocksource "tsc": invariant and synchronised across CPUs, checked by the
 * kernel at boot), a reading is one RDTSC and a multiply, calibrated once
 * against CLOCK_MONOTONIC_RAW, as fio's clocksource=cpu does. Anywhere else,
 * or when asked, it is clock_gettime(CLOCK_MONOTONIC) through the vDSO. On
 * the machines iobench was measured on the TSC reading costs less than half
 * as much, which is time the benchmark does not add to every operation.
 *
 * Readings are only comparable with each other, not with clock_gettime()'s:
 * sleep with clock_sleep_until(), never with an absolute CLOCK_MONOTONIC
 * deadline.
 */
#ifndef IOBENCH_LIB_CLOCK_H
#define IOBENCH_LIB_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

enum clock_choice {
	CLOCK_CHOICE_AUTO,    /* the TSC where the kernel trusts it, else clock_gettime */
	CLOCK_CHOICE_TSC,     /* the TSC or an error */
	CLOCK_CHOICE_GETTIME, /* always clock_gettime(CLOCK_MONOTONIC) */
};

/* Set by clock_setup(); read-only afterwards. Not for direct use. */
struct clock_state {
	bool tsc;
	uint64_t base_tsc;
	uint64_t base_ns;
	uint64_t mult; /* nanoseconds per tick, << 32 */
};
extern struct clock_state clock_state;

/*
 * Choose the source; call once, before any thread reads the clock. With
 * the TSC it takes about 10 ms to calibrate. Returns 0, or -ENOTSUP when
 * CLOCK_CHOICE_TSC was asked for and the kernel does not keep time with the
 * TSC (why is written to why, whylen bytes). Until it is called the clock
 * is clock_gettime(CLOCK_MONOTONIC).
 */
int clock_setup(enum clock_choice choice, char *why, size_t whylen);

/* "tsc" or "clock_gettime": what clock_now_ns() reads. */
const char *clock_source_name(void);

/* Parse "auto", "tsc" or "clock_gettime"; false for anything else. */
bool clock_choice_parse(const char *s, enum clock_choice *out);

/* Nanoseconds since an arbitrary start; thread-safe. */
static inline uint64_t clock_now_ns(void)
{
#if defined(__x86_64__)
	if (clock_state.tsc) {
		/* Plain RDTSC as fio reads it: fencing would double its cost to save a few ns of skew. */
		uint64_t d = __rdtsc() - clock_state.base_tsc;
		return clock_state.base_ns + (uint64_t)(((unsigned __int128)d * clock_state.mult) >> 32);
	}
#endif
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Milliseconds of CLOCK_MONOTONIC since an arbitrary start, whatever
 * clock_setup() chose: for poll() deadlines and network timeouts, which
 * need no nanoseconds and must not depend on the TSC's calibration.
 * Thread-safe. Inline, as clock_now_ns(): fileio.c's deadlines use it, and
 * clock.c reads the clocksource with fileio.c, so neither file calls the other.
 */
static inline int64_t clock_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleep until clock_now_ns() reaches ns (at once if it has); EINTR is resumed. */
void clock_sleep_until(uint64_t ns);

/*
 * CPU time used so far by who (RUSAGE_SELF: the whole process, every
 * thread live or joined; RUSAGE_THREAD: the calling thread), user and
 * system apart, in ns; zeros if getrusage() fails. The sum is exact; the
 * kernel splits it into user and system by sampling.
 */
void clock_cpu_ns(int who, uint64_t *user_ns, uint64_t *sys_ns);

#endif
