/*
 * SPDX-License-Identifier: Apache-2.0
 * mounts.h - this process's mounts, as /proc/self/mountinfo lists them.
 *
 * One reader of mountinfo for the host layer: where a file's filesystem is
 * mounted (target.c), whether a device is mounted (target.c), a btrfs
 * mount's real device (devices.c), where the cgroup hierarchy is (cgroup.c).
 * Nothing here prints; thread-safe (it keeps no state).
 */
#ifndef IOBENCH_HOST_MOUNTS_H
#define IOBENCH_HOST_MOUNTS_H

#include <limits.h>
#include <stdbool.h>

/* One line of mountinfo; the paths with the kernel's octal escapes ("\040" for a space) undone. */
struct mount_entry {
	unsigned major, minor;  /* the device number st_dev shows for its files */
	char root[PATH_MAX];    /* the directory of the filesystem mounted there ("/" for all of it) */
	char point[PATH_MAX];   /* where it is mounted */
	char fstype[64];        /* "ext4", "tmpfs", "cgroup2" */
	char source[PATH_MAX];  /* "/dev/vda1", "tmpfs", "none" */
	char super[1024];       /* the superblock's options: "rw,memory" ("" when none) */
};

/*
 * Call each(m, arg) for every mount, in mountinfo's order (a mount comes
 * after the ones it covers), until each returns true. Lines that do not
 * parse are passed over. Returns true when each did, false when it never
 * did or mountinfo cannot be read.
 */
bool mounts_each(bool (*each)(const struct mount_entry *m, void *arg), void *arg);

/*
 * True when filesystems of type fstype live on a block device: the kernel
 * lists it in /proc/filesystems without "nodev". False for tmpfs, proc,
 * overlay, fuse and any type the kernel does not list: a mount of such a
 * type names any source it likes ("mount -t tmpfs /dev/vda M"), which says
 * nothing about where its data is.
 */
bool mounts_fs_on_device(const char *fstype);

#endif
