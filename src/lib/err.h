/*
 * SPDX-License-Identifier: Apache-2.0
 * err.h - the one size of an error buffer.
 *
 * Libraries return 0 / -errno and write a one-line reason, without
 * "iobench: ", into a char[ERR_MAX] their caller gives; only the command
 * layer (src/cli/diag.h) prints it and picks the exit code.
 */
#ifndef IOBENCH_LIB_ERR_H
#define IOBENCH_LIB_ERR_H

#define ERR_MAX 1024

#endif
