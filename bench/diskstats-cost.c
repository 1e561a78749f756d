/*
 * SPDX-License-Identifier: Apache-2.0
 * diskstats-cost - what one reading of the devices under a target costs:
 * the time devices_log_take() takes (open, read and parse /proc/diskstats
 * for every device of the tree), over many readings. The run thread takes
 * one per time bucket; the workers never do.
 *
 * usage: diskstats-cost TARGET [READINGS]
 * build: make build/results.a build/host.a build/lib.a && cc -O2 -std=gnu11 -D_GNU_SOURCE -Isrc \
 *            -o diskstats-cost bench/diskstats-cost.c build/results.a build/host.a build/lib.a \
 *            -ljansson -lblkid -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "host/devices.h"
#include "host/target.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: diskstats-cost TARGET [READINGS]\n");
		return 2;
	}
	int n = argc > 2 ? atoi(argv[2]) : 20000;
	struct target_info t;
	struct device_tree tree;
	struct device_log log;
	if (n <= 0 || target_probe(argv[1], &t) != 0 || devices_resolve(&t, &tree) != 0 || tree.n == 0 ||
	    devices_log_init(&log, &tree, 2) != 0) {
		fprintf(stderr, "diskstats-cost: %s: no devices to read (%s)\n", argv[1], tree.note);
		return 1;
	}
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++) {
		devices_log_reset(&log);
		devices_log_take(&log, 0, (uint64_t)i + 1);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double us = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n / 1e3;
	printf("%zu device%s, %d readings: %.1f us each; at one reading per 0.1 s bucket %.3f%% of one CPU\n",
	       tree.n, tree.n == 1 ? "" : "s", n, us, us / 1e5 * 100);
	int rc = log.err ? 1 : 0;
	devices_log_free(&log);
	devices_tree_free(&tree);
	return rc;
}
