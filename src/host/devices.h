/*
 * SPDX-License-Identifier: Apache-2.0
 * devices.h - the block devices under a target, and what they did.
 *
 * devices_resolve() walks sysfs from the target's device down: md and dm
 * devices to their members (slaves/), partitions to their disk; a loop
 * device is recorded with its backing file and the walk stops there. It
 * never fails a run: what cannot be read is left out and said in a note.
 *
 * A device_log keeps /proc/diskstats readings of every device of a tree
 * at the run's start, at each time bucket boundary and at its end, taken
 * by the thread that waits out the run (never a worker). devices_stats()
 * turns two readings into `iostat -x`'s columns, computed as sysstat does.
 * Nothing here prints; nothing is thread-safe (one thread per log).
 */
#ifndef IOBENCH_HOST_DEVICES_H
#define IOBENCH_HOST_DEVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/target.h"

/* Deepest stack walked (dm on md on partitions on disks is 4). */
#define DEVICES_MAX_DEPTH 8
/* Most devices recorded for one target. */
#define DEVICES_MAX 256

struct device_node {
	char name[64];         /* kernel name: "md0", "vdb1", "dm-0"; "MAJ:MIN" when sysfs has none */
	unsigned major, minor;
	const char *type;      /* "disk", "partition", "md", "dm", "loop" */
	const char *role;      /* "target" (the target is or lives on it), "member" (of the md/dm above), "disk" (of the partition above) */
	int above;             /* index of the device above it; -1 for the target's */
	char raid_level[16];   /* md: "raid1"; else "" */
	char dm_name[64];      /* dm: its name ("vg-data"); else "" */
	char model[64];        /* device/model, trimmed; "" if none */
	char serial[64];       /* serial or device/serial, trimmed, as is ("vol0123..." on EBS); "" if none */
	uint64_t size;         /* bytes; 0 if unknown */
	int rotational;        /* 1, 0, or -1 unknown */
	char *backing_file;    /* loop: its backing file (malloc'd), where the walk stops; else NULL */
};

struct device_tree {
	struct device_node *nodes; /* n of them, the target's first, each before those below it */
	size_t n;
	char note[384];        /* why the tree is empty or incomplete; "" when whole */
};

/*
 * The devices under t: its own (a block device) or its filesystem's (st_dev;
 * a btrfs mount's anonymous number through its source device). Always
 * returns a tree (free it with devices_tree_free): empty with a note for
 * tmpfs, NFS and such, partial with a note when sysfs cannot be read.
 * Returns 0, or -ENOMEM (then the tree is empty, its note says so).
 */
int devices_resolve(const struct target_info *t, struct device_tree *tree);

void devices_tree_free(struct device_tree *tree);

/* One device's counters from /proc/diskstats (Documentation/admin-guide/iostats.rst). */
struct device_counters {
	uint64_t reads, read_sectors, read_ms;
	uint64_t writes, write_sectors, write_ms;
	uint64_t busy_ms;      /* io_ticks: ms with at least one request in flight */
	uint64_t queue_ms;     /* time_in_queue: ms x requests in flight */
	bool seen;             /* the device had a line */
};

/*
 * Fill out[i] for tree->nodes[i] from the text of /proc/diskstats (lines
 * "MAJ MIN NAME f1 f2 ..."); a device without a line gets seen = false.
 * Returns how many devices were found.
 */
size_t devices_parse(const char *text, const struct device_tree *tree, struct device_counters *out);

/* `iostat -x` between two readings seconds apart. */
struct device_stats {
	double seconds;
	uint64_t reads, writes;          /* completed in the interval */
	double reads_per_s, writes_per_s; /* r/s, w/s */
	double read_mb_per_s, write_mb_per_s; /* rMB/s, wMB/s in 10^6 bytes (iostat -m: 2^20) */
	double read_await_ms, write_await_ms; /* r_await, w_await; NAN when none completed */
	double util_pct;                 /* %util: busy ms / interval ms x 100 */
	double queue_size;               /* aqu-sz: queue ms / interval ms */
};

/*
 * What the device did between a and b (a earlier), over seconds. Counters
 * that went down wrapped at 2^32 (the kernel's 32-bit ms fields) when a
 * was below it; else they count as 0. Returns false when either reading
 * lacks the device or seconds <= 0.
 */
bool devices_stats(const struct device_counters *a, const struct device_counters *b, double seconds,
		   struct device_stats *out);

/*
 * Readings of every device of a tree: slot k holds the one at the start of
 * time bucket k (slot 0 the run's start), the slot after the last one
 * taken the end. A slot not taken (the process was stopped past a
 * boundary) has at_ns 0.
 */
struct device_log {
	const struct device_tree *tree;
	size_t slots;          /* room: time buckets + 1 */
	size_t used;           /* slots up to the end reading */
	uint64_t t0_ns;        /* slot 0's time, for the others' offsets */
	uint64_t *at_ns;       /* slots; 0 = not taken */
	struct device_counters *counters; /* slots x tree->n */
	char *buf;             /* /proc/diskstats as read, reused */
	size_t buflen;
	const char *path;      /* "/proc/diskstats" (another file in tests) */
	int err;               /* the first reading that failed: -errno; 0 */
};

/*
 * Room for slots readings of tree's devices. 0 or -ENOMEM (then err says
 * so and no reading is taken). A tree with no devices needs no room and
 * takes no readings.
 */
int devices_log_init(struct device_log *log, const struct device_tree *tree, size_t slots);

/* Read every device now into slot k (a slot past the room is ignored). */
void devices_log_take(struct device_log *log, size_t k, uint64_t now_ns);

/* Forget every reading (a watch's next period); the room stays. */
void devices_log_reset(struct device_log *log);

/* The end reading, into the slot after the last one taken. */
void devices_log_end(struct device_log *log, uint64_t now_ns);

/*
 * Device i over slots a to b (both taken): false when a reading is missing.
 */
bool devices_log_stats(const struct device_log *log, size_t i, size_t a, size_t b, struct device_stats *out);

void devices_log_free(struct device_log *log);

#endif
