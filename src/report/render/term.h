/*
 * SPDX-License-Identifier: Apache-2.0
 * report/render/term.h - the one writer of text that leaves the report for a terminal.
 *
 * Every string the report shows comes, in the end, from a results tree, a
 * manifest or a host: none of it may reach a terminal as a control
 * sequence. A string from data is written with each of these shown as one
 * '?': a C0 control (newline, CR, ESC, BEL, tab included), DEL, a C1
 * control (U+0080..U+009F), a bidirectional override or isolate (U+202A..
 * U+202E, U+2066..U+2069) and every byte of invalid UTF-8 (a stray
 * continuation byte, a cut sequence, an overlong form, a surrogate, past
 * U+10FFFF). Valid UTF-8 otherwise passes as it is.
 *
 * The printf-like helpers take a format that is the program's own (its
 * newlines and blanks are written as they are) and pass every %s argument
 * through the same rule; numbers are formatted as printf does. Not
 * thread-safe beyond what stdio is.
 */
#ifndef IOBENCH_REPORT_TERM_H
#define IOBENCH_REPORT_TERM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * s as a terminal may show it, into dst (len bytes, always terminated when
 * len > 0; cut at a character's end). NULL s is "". Returns dst.
 * dst may be s itself: the result is never longer than s.
 */
char *term_clean(char *dst, size_t len, const char *s);

/* The first n bytes of s (or up to its NUL), cleaned, written to out. */
void term_write(FILE *out, const char *s, size_t n);

/* s (NULL: nothing) cleaned, written to out. */
void term_puts(FILE *out, const char *s);

/*
 * printf into buf (len bytes, terminated when len > 0), each %s argument
 * cleaned first; flags, width and precision apply to the cleaned string.
 * Returns the length the whole text would have (as snprintf), or -1 for a
 * format it does not know (%n is refused).
 */
__attribute__((format(printf, 3, 0)))
int term_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap);
__attribute__((format(printf, 3, 4)))
int term_snprintf(char *buf, size_t len, const char *fmt, ...);

/* The same, written to out (any length). Returns the bytes written, or -1. */
__attribute__((format(printf, 2, 0)))
int term_vfprintf(FILE *out, const char *fmt, va_list ap);
__attribute__((format(printf, 2, 3)))
int term_printf(FILE *out, const char *fmt, ...);

#endif
