/*
 * SPDX-License-Identifier: Apache-2.0
 * units.h - parse and print sizes, counts and durations.
 *
 * Pure helpers: no I/O, no allocation, thread-safe.
 */
#ifndef IOBENCH_LIB_UNITS_H
#define IOBENCH_LIB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a byte size: digits followed by an optional binary unit K, M, G, T
 * or P (case-insensitive, 1K = 1024), optionally followed by "B" or "iB".
 * "512", "4k", "64K", "1m", "4M", "10GiB" are accepted.
 * Returns 0 and stores the size in *out, or -EINVAL for malformed text,
 * -ERANGE when the value does not fit in 63 bits.
 */
int units_parse_size(const char *text, uint64_t *out);

/*
 * Parse a non-negative integer that must fit in [min, max].
 * Returns 0, -EINVAL (not a number) or -ERANGE (outside [min, max]).
 */
int units_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse the plain decimal number at the start of text: digits, an optional
 * fraction, an optional exponent ("2", "2.5", ".5", "1e-3"). No sign, no
 * spaces, no hex ("0x10"), no "inf" or "nan": what a person writes for a
 * count or a duration. Stores the value and, in *end, where the number
 * stopped. Returns 0, -EINVAL (no number there) or -ERANGE (too large, or
 * so small it rounds to zero).
 */
int units_parse_decimal(const char *text, double *out, const char **end);

/*
 * Parse a duration in seconds: "60", "2.5", "90s", "5m", "1h".
 * The number is a plain decimal (units_parse_decimal()).
 * Returns 0 with *out_ns set, -EINVAL or -ERANGE (zero, negative, under a
 * millisecond, or over 100 days).
 */
int units_parse_duration(const char *text, uint64_t *out_ns);

/*
 * Parse a latency as people write one: a plain decimal (units_parse_decimal())
 * and its unit, ns, us (or \u00b5s), ms or s, with no blank between: "50us",
 * "1.5ms", "0.2s". The unit is required: "50" could be 50 ns or 50 ms.
 * Returns 0 with *out_ns set; -EDOM when the number has no unit, -EINVAL
 * for anything else malformed, -ERANGE when over an hour.
 */
int units_parse_latency(const char *text, double *out_ns);

/*
 * The nanoseconds in one of a duration unit: ns, us, ms, s, and us written
 * with the micro sign (U+00B5) or the Greek mu (U+03BC); 0 for anything
 * else. The one table of duration units (units_parse_latency, --expect).
 */
double units_duration_ns(const char *unit);

/*
 * Parse a percentage: a plain decimal (units_parse_decimal()) with an
 * optional '%' right after it: "5", "5%", "12.5". No blank, sign or hex.
 * Returns 0 with *out set (5 for "5"), -EINVAL or -ERANGE.
 */
int units_parse_percent(const char *text, double *out);

/*
 * Print a size the way the 2012 tool did in its signatures: the largest
 * binary unit that divides it exactly ("4K", "4M", "1000", "64K").
 * Returns the length written (snprintf semantics).
 */
int units_format_signature_size(char *buf, size_t len, uint64_t bytes);

/*
 * Human size with two decimals and a binary unit: "1.00 GiB", "512 B";
 * rounded down, so it never shows more than there is ("3.99 KiB" for
 * 4,095 bytes).
 */
int units_format_size(char *buf, size_t len, uint64_t bytes);

/* Human duration from nanoseconds, three significant figures: "81.2us", "13.1ms", "1.20s". */
int units_format_ns(char *buf, size_t len, double ns);

#endif
