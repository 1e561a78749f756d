/* report/alloc.c - allocations that end the report, with one message, when memory runs out. */
#include "report/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The report's one out-of-memory path. */
static void *checked(void *p)
{
	if (!p) {
		fputs("iobench: out of memory\n", stderr);
		exit(1);
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
