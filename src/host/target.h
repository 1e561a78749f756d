/*
 * SPDX-License-Identifier: Apache-2.0
 * target.h - what is being benchmarked: a regular file or a block device.
 *
 * target_probe() gathers facts (size, filesystem, mount point, device, its
 * size, serial and model, whether it holds /, whether it is RAM, rotational,
 * scheduler, RAID level, O_DIRECT alignment) without opening the target for
 * writing. target_write_refusal() says why a write benchmark must not run
 * on a block device (mounted, in use by md/dm, or carrying a signature).
 * Functions return 0 or -errno; none prints.
 */
#ifndef IOBENCH_HOST_TARGET_H
#define IOBENCH_HOST_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target_info {
	char path[PATH_MAX];   /* as given */
	bool is_block;         /* block device (else regular file) */
	uint64_t size;         /* bytes (device size for block devices) */
	uint64_t allocated;    /* regular files: bytes of disk allocated (st_blocks); = size for devices */
	char fstype[32];       /* filesystem holding a file ("" if unknown / block) */
	char device[64];       /* kernel name of the block device: "vda", "md0" ("" if none) */
	int rotational;        /* 1, 0, or -1 when unknown */
	char scheduler[32];    /* I/O scheduler in use ("" if none/unknown) */
	char raid_level[16];   /* md level ("raid0") when on md, else "" */
	int io_poll;           /* the device's queue/io_poll: 1 it has poll queues, 0 not, -1 unknown */
	unsigned dio_offset_align; /* O_DIRECT offset/size alignment; 0 = unknown */
	unsigned dio_mem_align;    /* O_DIRECT buffer alignment; 0 = unknown */
	uint64_t st_dev, st_ino, st_rdev; /* identity at probe time */
	int loop_autoclear;    /* loop devices: autoclear flag at probe time, else -1 */
	char mount_point[PATH_MAX]; /* where the filesystem holding a file is mounted ("" for devices) */
	uint64_t device_size;  /* bytes of the block device named by device (0 if none) */
	char serial[64];       /* serial of device's disk (a partition: its disk's; "" for md, dm, loop...) */
	char model[64];        /* model of device's disk, as serial ("Amazon Elastic Block Store"; "" if none) */
	bool root_device;      /* device's disk is the disk that holds / */
	bool memory;           /* on tmpfs, ramfs, zram, a RAM disk, or a loop device over one: measures RAM */
	char memory_kind[48];  /* what the memory is, for messages: "tmpfs", "zram", "a loop device over tmpfs" */
};

/*
 * Probe path. Returns 0, -ENOENT (missing), -EISDIR (a directory),
 * -EINVAL (neither a regular file nor a block device), -ENOTSUP (a file of a
 * kernel interface: see target_kernel_fs), or another -errno.
 */
int target_probe(const char *path, struct target_info *out);

/* The first line of a sysfs (or procfs) file (read_first_line(), fileio.h) without the blanks around it; "" on failure. */
void target_read_value(const char *path, char *buf, size_t len);

/*
 * A sysfs file that holds a path (a loop device's backing_file) into buf,
 * whole: only the kernel's final newline is taken off, so a file name with
 * a newline or trailing spaces in it stays whole. "" when unreadable.
 */
void target_read_path_value(const char *path, char *buf, size_t len);

/*
 * Is path (a file or folder, which must exist) on a filesystem that lives
 * in RAM (tmpfs, ramfs, or one on zram or a RAM disk)? Returns true with
 * its kind ("tmpfs") in kind and its mount point in mnt; false otherwise
 * or when it cannot be told.
 */
bool target_path_in_memory(const char *path, char *kind, size_t klen, char *mnt, size_t mlen);

/*
 * The name of the kernel interface filesystem path is on ("procfs", "sysfs",
 * "efivarfs", "cgroup2", ...), whose files are settings, not data; NULL for
 * any other filesystem or when it cannot be told.
 */
const char *target_kernel_fs(const char *path);

/*
 * For a block device: 0 when a write benchmark may run, else -EBUSY with the
 * reason ("is mounted on /mnt", "has its partition loop0p1 mounted on /mnt",
 * "is in use by md0", "holds a filesystem (blkid: TYPE=ext4)") in why. The
 * partitions are the kernel's (sysfs), whatever the table on disk says now.
 * Regular files always return 0.
 */
int target_write_refusal(const struct target_info *t, char *why, size_t whylen);

/*
 * Does the open block device (or image) of size bytes carry data? Asks
 * libblkid (every superblock and partition table blkid(8) knows), then a
 * table of magic bytes for remains blkid no longer names. Returns 1 with a
 * description in name ("a filesystem (blkid: TYPE=ext4)", "a partition
 * table (blkid: PTTYPE=dos)", "an md RAID superblock (1.2)"), 0 when blank,
 * or -errno when it cannot be probed.
 */
int target_signature(int fd, uint64_t size, char *name, size_t len);

/*
 * True while path still names the probed file or device: not unlinked or
 * replaced, and (for a block device) still with a non-zero size. A loop
 * device detached while open keeps working until closed, but the kernel
 * marks it autoclear: a flag that turned on counts as detached. Cheap
 * enough to call every half second.
 */
bool target_still_there(const struct target_info *t);

/* Bytes of physical memory, for the "file smaller than 2x RAM" warning. */
uint64_t target_ram_bytes(void);

/*
 * That warning's factor: a span under this many times the memory the page
 * cache can hold (the RAM, or cgroup_memory_limit() when smaller) is partly
 * served from the cache by buffered I/O.
 */
#define TARGET_CACHE_SPAN_FACTOR 2

#endif
