/*
 * SPDX-License-Identifier: Apache-2.0
 * cgroup.h - what a memory cgroup lets this process keep in memory.
 *
 * A process in a cgroup with a memory limit (v2 memory.max, v1
 * memory.limit_in_bytes) has that much page cache at most, whatever the
 * machine's RAM: the "file smaller than twice the RAM" warning needs the
 * smaller of the two.
 */
#ifndef IOBENCH_HOST_CGROUP_H
#define IOBENCH_HOST_CGROUP_H

#include <stdint.h>

/*
 * The smallest memory limit on this process's cgroup and the cgroups above
 * it (v2 limits nest; a v1 child may be set above its parent's, which then
 * binds), in bytes; 0 when none is set or no memory controller is mounted.
 * Reads /proc/self/mountinfo, /proc/self/cgroup and the limit files.
 * Thread-safe (it keeps no state).
 */
uint64_t cgroup_memory_limit(void);

#endif
