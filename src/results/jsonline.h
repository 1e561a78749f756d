/*
 * SPDX-License-Identifier: Apache-2.0
 * jsonline.h - what every result line is made of, whoever writes it (a run,
 * a watch period, a durability verdict): any bytes as JSON text, labels, the
 * target, and the header that says which tool wrote the line, where, when.
 *
 * Each function returns a new jansson value (the caller owns it), NULL only
 * on ENOMEM. Thread-safe.
 */
#ifndef IOBENCH_RESULTS_JSONLINE_H
#define IOBENCH_RESULTS_JSONLINE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "host/target.h"

/*
 * A JSON string of any bytes: each byte that starts no valid UTF-8 sequence
 * becomes U+FFFD, so a stray byte in a path or label never costs a line its
 * metadata.
 */
json_t *jsonline_text(const char *s);

/* jsonline_text(s), or JSON null when s is NULL or empty. */
json_t *jsonline_text_or_null(const char *s);

/*
 * Length of the valid UTF-8 sequence at s (NUL-terminated), or 0 when the
 * bytes there start none (overlong forms, surrogates and code points past
 * U+10FFFF are not valid).
 */
size_t jsonline_utf8_seq(const unsigned char *s);

/* "KEY=VALUE" strings (each has an '=') as an object; keys past 255 bytes are cut. */
json_t *jsonline_labels(const char *const *kv, size_t n);

/* The "target" object: what t is; "span" (offsets fell in [0, span)) when span is not 0. */
json_t *jsonline_target(const struct target_info *t, uint64_t span);

/*
 * The keys every line starts with: "tool", "version", "commandLine",
 * "host" (host, or the hostname when host is NULL or empty), "hostname",
 * "kernel".
 */
json_t *jsonline_header(const char *command_line, const char *host);

#endif
