/* clock.c - choosing and calibrating the time source (see clock.h). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/clock.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct clock_state clock_state;

static uint64_t raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The kernel's own verdict on the TSC: it keeps time with it only when it is sound. */
static bool kernel_uses_tsc(char *current, size_t len)
{
	if (read_first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", current, len) < 0) {
		snprintf(current, len, "unknown");
		return false;
	}
	return strcmp(current, "tsc") == 0;
}

#if defined(__x86_64__)
/*
 * One (TSC, time) pair: the TSC read between two CLOCK_MONOTONIC_RAW
 * readings, the tightest of a few tries, timed at the middle.
 */
static void tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 16; i++) {
		unsigned aux;
		uint64_t a = raw_ns();
		uint64_t t = __rdtscp(&aux);
		uint64_t b = raw_ns();
		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
}

/* About 10 ms: the pairs' error (tens of ns) becomes a few parts per million. */
static bool tsc_calibrate(void)
{
	uint64_t t0, n0, t1, n1;
	tsc_pair(&t0, &n0);
	struct timespec nap = { 0, 10000000L };
	while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
		;
	tsc_pair(&t1, &n1);
	if (t1 <= t0 || n1 <= n0)
		return false;
	clock_state.mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
	clock_state.base_tsc = t1;
	clock_state.base_ns = n1;
	return clock_state.mult > 0;
}
#endif

int clock_setup(enum clock_choice choice, char *why, size_t whylen)
{
	clock_state.tsc = false;
	if (choice == CLOCK_CHOICE_GETTIME)
		return 0;
	char current[64];
	bool usable = kernel_uses_tsc(current, sizeof(current));
#if defined(__x86_64__)
	if (usable && tsc_calibrate()) {
		clock_state.tsc = true;
		return 0;
	}
	if (usable)
		snprintf(current, sizeof(current), "tsc, but it did not advance");
#else
	usable = false;
	snprintf(current, sizeof(current), "not x86-64");
#endif
	if (choice == CLOCK_CHOICE_AUTO)
		return 0;
	snprintf(why, whylen, "the kernel does not keep time with the TSC here (clocksource: %s)", current);
	return -ENOTSUP;
}

const char *clock_source_name(void)
{
	return clock_state.tsc ? "tsc" : "clock_gettime";
}

bool clock_choice_parse(const char *s, enum clock_choice *out)
{
	static const struct {
		const char *name;
		enum clock_choice choice;
	} names[] = {
		{ "auto", CLOCK_CHOICE_AUTO },
		{ "tsc", CLOCK_CHOICE_TSC },
		{ "clock_gettime", CLOCK_CHOICE_GETTIME },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*out = names[i].choice;
			return true;
		}
	}
	return false;
}

void clock_sleep_until(uint64_t ns)
{
	/* Relative sleeps: this clock's readings mean nothing to clock_nanosleep. */
	for (;;) {
		uint64_t now = clock_now_ns();
		if (now >= ns)
			return;
		uint64_t left = ns - now;
		struct timespec ts = { .tv_sec = (time_t)(left / 1000000000ULL),
				       .tv_nsec = (long)(left % 1000000000ULL) };
		if (nanosleep(&ts, NULL) == 0)
			return;
	}
}

void clock_cpu_ns(int who, uint64_t *user_ns, uint64_t *sys_ns)
{
	struct rusage ru;
	if (getrusage(who, &ru) != 0)
		memset(&ru, 0, sizeof(ru));
	*user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_utime.tv_usec * 1000ULL;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ULL + (uint64_t)ru.ru_stime.tv_usec * 1000ULL;
}
