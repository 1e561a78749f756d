/* signals.c - block the stop signals, and wait for one with a timeout or through a descriptor. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/signals.h"

#include <errno.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

void signals_block_stop(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
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
