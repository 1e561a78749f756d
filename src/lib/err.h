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

#include <stdio.h>
#include <string.h>

#define ERR_MAX 1024

/*
 * A value a message quotes, short enough that the advice after it always
 * fits in ERR_MAX (a 5,000-character -t lost its "; use ..."): up to
 * ERR_QUOTE_KEEP bytes as they are, else the first 48 and the last 16 with
 * "..." between and the length after. QUOTE(s) gives each use its own
 * buffer (a compound literal, alive for the statement that uses it).
 */
#define ERR_QUOTE_KEEP 80
#define ERR_QUOTE_MAX 96

static inline const char *err_quote(const char *s, char *buf)
{
	size_t n = strlen(s);
	if (n <= ERR_QUOTE_KEEP)
		return s;
	snprintf(buf, ERR_QUOTE_MAX, "%.48s...%s (%zu bytes)", s, s + n - 16, n);
	return buf;
}

#define QUOTE(s) err_quote((s), (char[ERR_QUOTE_MAX]){ 0 })

#endif
