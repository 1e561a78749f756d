/*
 * SPDX-License-Identifier: Apache-2.0
 * version.h - which iobench this is.
 *
 * iobench_version is the release (configure.ac's AC_INIT); iobench_commit is
 * the git commit the binary was built from ("abc1234", "abc1234-dirty" with
 * uncommitted changes, "abc1234, release tarball" from `make dist`'s tarball), or ""
 * when unknown. Both are constant for the life of the process.
 */
#ifndef IOBENCH_LIB_VERSION_H
#define IOBENCH_LIB_VERSION_H

extern const char iobench_version[];
extern const char iobench_commit[];

#endif
