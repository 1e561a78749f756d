/* signals.c - block the stop signals, and wait for one with a timeout. */
#include "signals.h"

#include <pthread.h>
#include <time.h>

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
