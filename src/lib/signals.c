/* signals.c - block the stop signals, wait for one with a timeout or through a descriptor, tell stops. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/signals.h"
#include "lib/fileio.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

void signals_block_stop(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	/*
	 * A SIGHUP ignored at start (nohup, `trap '' HUP`) stays ignored: a
	 * blocked signal is queued even when ignored, and would be taken.
	 */
	struct sigaction hup;
	if (sigaction(SIGHUP, NULL, &hup) != 0 || hup.sa_handler != SIG_IGN)
		sigaddset(set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, set, NULL);
}

int signals_wait(const sigset_t *set, uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL), .tv_nsec = (long)(ns % 1000000000ULL) };
	if (!set) {
		nanosleep(&ts, NULL);
		return 0;
	}
	int sig = sigtimedwait(set, NULL, &ts);
	return sig > 0 ? sig : 0;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * This thread's time on a CPU plus its time waiting for one, in ns, from
 * /proc/thread-self/schedstat; false when the kernel does not keep it.
 */
static bool sched_ns(uint64_t *out)
{
	char line[128];
	unsigned long long run, delay;
	if (read_first_line("/proc/thread-self/schedstat", line, sizeof(line)) != 0 ||
	    sscanf(line, "%llu %llu", &run, &delay) != 2)
		return false;
	*out = run + delay;
	return true;
}

int signals_wait_stops(const sigset_t *set, uint64_t ns, struct signals_stops *stops)
{
	sigset_t with_cont;
	if (set)
		with_cont = *set;
	else
		sigemptyset(&with_cont);
	sigaddset(&with_cont, SIGCONT);
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL), .tv_nsec = (long)(ns % 1000000000ULL) };
	uint64_t called = monotonic_ns();
	int sig = sigtimedwait(&with_cont, NULL, &ts);
	int e = errno;
	uint64_t back = monotonic_ns(), sched = 0;
	bool known = sched_ns(&sched);
	/*
	 * Stopped in the wait: Linux ends sigtimedwait() with EINTR when the
	 * process is stopped and continued (signal(7)); the SIGCONT then waits
	 * for the next call, which must not count it again. Stopped elsewhere
	 * (between two waits, or on the way out of a wait that timed out): time
	 * since the last wait returned that the thread spent neither on a CPU,
	 * nor waiting for one, nor asleep in the wait, followed by the SIGCONT
	 * in this wait or the next. A SIGCONT alone is neither. Without
	 * schedstat, the CPU and run-queue time count as unexplained too.
	 */
	uint64_t slept = back - called < ns ? back - called : ns;
	bool idle_long = false;
	if (stops->last_ns) {
		uint64_t span = back - stops->last_ns;
		uint64_t busy = known && stops->sched_known && sched >= stops->last_sched ? sched - stops->last_sched : 0;
		idle_long = span > busy + slept && span - busy - slept > SIGNALS_STOP_GAP_NS;
	}
	if ((sig < 0 && e == EINTR) || (sig == SIGCONT && (idle_long || stops->suspect))) {
		stops->count++;
		stops->suspect = false;
	} else {
		stops->suspect = idle_long;
	}
	stops->last_ns = back;
	stops->last_sched = sched;
	stops->sched_known = known;
	return sig > 0 && sig != SIGCONT ? sig : 0;
}

int signals_fd(const sigset_t *set)
{
	int fd = signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

int signals_take(int fd)
{
	struct signalfd_siginfo si;
	return read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si) ? (int)si.ssi_signo : 0;
}
