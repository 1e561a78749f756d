/* report/base/alloc.c - allocations that never return NULL: running out is the command layer's to say. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/base/alloc.h"

#include <stdlib.h>
#include <string.h>

static void (*out_of_memory)(void);

void rep_alloc_on_failure(void (*fail)(void))
{
	out_of_memory = fail;
}

/* The report's one out-of-memory path. */
static void *checked(void *p)
{
	if (!p) {
		if (out_of_memory)
			out_of_memory();
		abort();
	}
	return p;
}

void *rep_calloc(size_t n, size_t size)
{
	return checked(calloc(n ? n : 1, size));
}

void *rep_realloc(void *p, size_t n)
{
	return checked(realloc(p, n ? n : 1));
}

char *rep_strdup(const char *s)
{
	return checked(strdup(s ? s : ""));
}
