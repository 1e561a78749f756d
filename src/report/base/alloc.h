/*
 * SPDX-License-Identifier: Apache-2.0
 * alloc.h - the report's allocations (private to src/report/, but for
 * rep_alloc_on_failure).
 *
 * A report that runs out of memory has nothing true left to print, so these
 * never return NULL: they call the command layer's failure function (which
 * says so and exits), or abort() when none was given.
 */
#ifndef IOBENCH_REPORT_ALLOC_H
#define IOBENCH_REPORT_ALLOC_H

#include <stddef.h>

/* What to call when memory runs out (it must not return); set once, before any allocation. */
void rep_alloc_on_failure(void (*fail)(void));

/* calloc(n, size); n == 0 gives one zeroed element. */
void *rep_calloc(size_t n, size_t size);

/* realloc(p, n); n == 0 gives a 1-byte block. */
void *rep_realloc(void *p, size_t n);

/* strdup(s); NULL copies as "". */
char *rep_strdup(const char *s);

#endif
