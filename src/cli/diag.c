/* diag.c - "iobench: ..." on stderr, and the exit code the message stands for. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/diag.h"
#include "cli/commands.h"

#include <stdarg.h>
#include <stdio.h>

/* Where the messages come from, when not the command line (diag_context()). */
static const char *context;

void diag_context(const char *where)
{
	context = where;
}

static void vsay(const char *fmt, va_list ap)
{
	fputs("iobench: ", stderr);
	if (context)
		fprintf(stderr, "%s: ", context);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int diag_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int diag_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_RUNTIME;
}

int diag_interrupted(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_INTERRUPTED;
}

void diag_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void diag_progress(bool quiet, const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

/* The status line: text over the last one; at its end (text NULL), end. */
static void status(const char *text, const char *end)
{
	if (text)
		fprintf(stderr, "\r%s\033[K", text);
	else
		fputs(end, stderr);
	fflush(stderr);
}

void diag_status(void *arg, const char *text)
{
	(void)arg;
	status(text, "\r\033[K");
}

void diag_status_kept(void *arg, const char *text)
{
	(void)arg;
	status(text, "\n");
}
