/* opspec.c - parse operation names and thread lists. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/opspec.h"
#include "lib/err.h"
#include "lib/units.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SPEC_TEXT_MAX 128

/* Each OP word once: the long form, signatures, the short names and the report read it from here. */
static const struct opspec_word words[] = {
	{ "read", "read", OP_READ, false, OPSPEC_NUMBER_NONE },
	{ "writeFlush", "write", OP_WRITE_FLUSH, false, OPSPEC_NUMBER_NONE },
	{ "write", "write", OP_WRITE_N, false, OPSPEC_NUMBER_OPTIONAL },
	{ "seqRead", "seqread", OP_READ, true, OPSPEC_NUMBER_NONE },
	{ "seqWriteFlush", "seqwrite", OP_WRITE_FLUSH, true, OPSPEC_NUMBER_NONE },
	{ "seqWrite", "seqwrite", OP_WRITE_N, true, OPSPEC_NUMBER_OPTIONAL },
	{ "rw", "rw", OP_MIXED, false, OPSPEC_NUMBER_REQUIRED },
};
#define NWORDS (sizeof(words) / sizeof(words[0]))

const struct opspec_word *opspec_word_find(const char *text, size_t len, const char **num, size_t *numlen)
{
	for (size_t i = 0; i < NWORDS; i++) {
		size_t n = strlen(words[i].word);
		if (len < n || strncmp(text, words[i].word, n) != 0)
			continue;
		bool alone = len == n, numbered = len > n && isdigit((unsigned char)text[n]);
		if (words[i].number == OPSPEC_NUMBER_NONE ? !alone
		    : words[i].number == OPSPEC_NUMBER_REQUIRED ? !numbered
								: !(alone || numbered))
			continue;
		*num = text + n;
		*numlen = len - n;
		return &words[i];
	}
	*num = "";
	*numlen = 0;
	return NULL;
}

const struct opspec_word *opspec_word_of(enum op_kind kind, bool sequential)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (words[i].kind == kind && (words[i].sequential == sequential || kind == OP_MIXED))
			return &words[i];
	return &words[0];
}

/*
 * The short grammar's words: the stems of the entries that a short name
 * starts with (case-insensitive); "/N" makes a write an OP_WRITE_N.
 */
static const struct opspec_word *short_word(const char *text)
{
	for (size_t i = 0; i < NWORDS; i++)
		if (words[i].kind != OP_WRITE_N && strncasecmp(text, words[i].stem, strlen(words[i].stem)) == 0)
			return &words[i];
	return NULL;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *what)
{
	snprintf(err, errlen, fmt, QUOTE(what));
	return -EINVAL;
}

/* "4K" -> "4k", "4M" -> "4m", "1000" -> "1000": the short names use lower case. */
static void short_size(char *buf, size_t len, uint64_t bytes)
{
	units_format_signature_size(buf, len, bytes);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

static int check_sizes(struct op_spec *op, const char *text, char *err, size_t errlen)
{
	if (op->size == 0)
		return fail(err, errlen, "operation size must be at least 1 byte in '%s'", text);
	if (op->size > OPSPEC_MAX_OPSIZE)
		return fail(err, errlen, "operation size over 1G in '%s'; use a smaller size", text);
	if (op->align == 0)
		return fail(err, errlen, "alignment must be at least 1 byte in '%s'", text);
	return 0;
}

static void spec_finish(struct op_spec *op)
{
	char size[24], align[24], ssize[24], salign[24];
	units_format_signature_size(size, sizeof(size), op->size);
	units_format_signature_size(align, sizeof(align), op->align);
	short_size(ssize, sizeof(ssize), op->size);
	short_size(salign, sizeof(salign), op->align);
	char suffix[32] = "";
	if (op->align != op->size)
		snprintf(suffix, sizeof(suffix), "@%s", salign);

	/* The short name: stem, size, @align, then /N or :PCT; the signature: the OP word (NN, PP), size, align. */
	const struct opspec_word *w = opspec_word_of(op->kind, op->sequential);
	char tail[16] = "", number[16] = "";
	if (op->kind == OP_WRITE_N) {
		snprintf(tail, sizeof(tail), "/%u", op->sync_every);
		if (op->sync_every)
			snprintf(number, sizeof(number), "%u", op->sync_every);
	} else if (op->kind == OP_MIXED) {
		snprintf(tail, sizeof(tail), ":%u", op->read_pct);
		snprintf(number, sizeof(number), "%u", op->read_pct);
	}
	snprintf(op->name, sizeof(op->name), "%s%s%s%s", w->stem, ssize, suffix, tail);
	snprintf(op->signature, sizeof(op->signature), "%s%s,%s,%s", w->word, number, size, align);
}

static int parse_size_field(const char *field, uint64_t *out, const char *text, char *err, size_t errlen)
{
	int rc = units_parse_size(field, out);
	if (rc == -ERANGE)
		return fail(err, errlen, "size too large in '%s'", text);
	if (rc < 0) {
		/* Never use input as a format string (the fuzzer found that once). */
		snprintf(err, errlen, "bad size '%s' in '%s'; use a number with an optional K, M or G", QUOTE(field), QUOTE(text));
		return -EINVAL;
	}
	return 0;
}

/* read<SIZE>[@ALIGN], write<SIZE>[@ALIGN][/N] */
static int parse_short(const char *text, struct op_spec *op, char *err, size_t errlen)
{
	char buf[SPEC_TEXT_MAX];
	snprintf(buf, sizeof(buf), "%s", text);
	char *rest = buf;
	memset(op, 0, sizeof(*op));
	const struct opspec_word *w = short_word(rest);
	if (!w)
		return fail(err, errlen,
			    "unknown operation '%s'; use read<SIZE>, write<SIZE>, write<SIZE>/<N>, seqread<SIZE>, "
			    "rw<SIZE>:<PCT> (e.g. read4k, write4k/64) or OP,THREADS,SIZE,ALIGN", text);
	op->kind = w->kind;
	op->sequential = w->sequential;
	rest += strlen(w->stem);
	if (op->kind == OP_MIXED) {
		char *colon = strchr(rest, ':');
		uint64_t pct;
		if (!colon || units_parse_u64(colon + 1, 0, 100, &pct) < 0)
			return fail(err, errlen, "mixed op '%s' needs a read share: rw<SIZE>:<PERCENT>, e.g. rw16k:70", text);
		*colon = '\0';
		op->read_pct = (unsigned)pct;
	}
	char *slash = strchr(rest, '/');
	if (slash) {
		if (op->kind == OP_READ || op->kind == OP_MIXED)
			return fail(err, errlen, "'/N' applies only to writes in '%s'", text);
		*slash = '\0';
		uint64_t n;
		if (units_parse_u64(slash + 1, 0, UINT32_MAX, &n) < 0)
			return fail(err, errlen, "bad fdatasync interval in '%s'; /N takes a whole number", text);
		op->kind = OP_WRITE_N;
		op->sync_every = (uint32_t)n;
	}
	char *at = strchr(rest, '@');
	if (at)
		*at = '\0';
	if (*rest == '\0')
		return fail(err, errlen, "missing size in '%s'; e.g. read4k", text);
	if (parse_size_field(rest, &op->size, text, err, errlen) < 0)
		return -EINVAL;
	op->align = op->size;
	if (at && parse_size_field(at + 1, &op->align, text, err, errlen) < 0)
		return -EINVAL;
	if (check_sizes(op, text, err, errlen) < 0)
		return -EINVAL;
	spec_finish(op);
	return 0;
}

/* OP,THREADS,SIZE,ALIGN */
static int parse_long(const char *text, struct op_spec *op, char *err, size_t errlen)
{
	char buf[SPEC_TEXT_MAX];
	snprintf(buf, sizeof(buf), "%s", text);
	char *field[4];
	char *save = NULL;
	int n = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 4)
			return fail(err, errlen, "too many fields in '%s'; the long form is OP,THREADS,SIZE,ALIGN", text);
		field[n++] = tok;
	}
	if (n != 4)
		return fail(err, errlen, "expected 4 fields in '%s'; the long form is OP,THREADS,SIZE,ALIGN", text);

	memset(op, 0, sizeof(*op));
	const char *num;
	size_t numlen;
	const struct opspec_word *w = opspec_word_find(field[0], strlen(field[0]), &num, &numlen);
	if (!w)
		return fail(err, errlen, "unknown operation in '%s'; OP is read, write, writeFlush, writeNN, "
			    "seqRead, seqWrite, seqWriteFlush, seqWriteNN or rwPP", text);
	op->kind = w->kind;
	op->sequential = w->sequential;
	uint64_t v;
	if (numlen && w->kind == OP_MIXED) {
		if (units_parse_u64(num, 0, 100, &v) < 0)
			return fail(err, errlen, "bad rwPP in '%s'; PP is the read share, 0 to 100", text);
		op->read_pct = (unsigned)v;
	} else if (numlen) {
		if (units_parse_u64(num, 1, UINT32_MAX, &v) < 0)
			return fail(err, errlen, "bad writeNN in '%s'; NN is a whole number >= 1", text);
		op->sync_every = (uint32_t)v;
	}

	if (strcmp(field[1], "i") == 0) {
		op->threads = 0;
	} else {
		const char *end = field[1];
		double t = 0;
		int rc = units_parse_decimal(field[1], &t, &end);
		if (rc == -EINVAL || (rc == 0 && (*end != '\0' || t == 0)))
			return fail(err, errlen, "bad thread count in '%s'; use a number > 0 (up to 4096) or i", text);
		if (rc < 0 || t < OPSPEC_MIN_THREADS || t > OPSPEC_MAX_THREADS)
			return fail(err, errlen, "thread count in '%s' out of range; use 0.01 to 4096 (for a slow load, --rate)",
				    text);
		op->threads = t;
	}
	if (parse_size_field(field[2], &op->size, text, err, errlen) < 0 ||
	    parse_size_field(field[3], &op->align, text, err, errlen) < 0 ||
	    check_sizes(op, text, err, errlen) < 0)
		return -EINVAL;
	spec_finish(op);
	return 0;
}

int opspec_parse(const char *text, struct op_spec *out, size_t max, char *err, size_t errlen)
{
	if (text == NULL || *text == '\0')
		return fail(err, errlen, "empty operation%s; e.g. --op read4k", "");
	if (strlen(text) >= SPEC_TEXT_MAX)
		return fail(err, errlen, "operation '%s' is too long; give one op (read4k, write4k/64) or OP,THREADS,SIZE,ALIGN "
			    "phases joined with '.', each -o its own", text);
	if (strchr(text, ',') == NULL) {
		if (max < 1)
			return -E2BIG;
		return parse_short(text, &out[0], err, errlen) < 0 ? -EINVAL : 1;
	}
	char buf[SPEC_TEXT_MAX];
	snprintf(buf, sizeof(buf), "%s", text);
	size_t n = 0;
	/* '.' before a letter separates phases; "2.5" is a fractional thread count. */
	for (char *p = buf; *p; p++)
		if (*p == '.' && isalpha((unsigned char)p[1]))
			*p = '\x1f';
	char *save = NULL;
	for (char *tok = strtok_r(buf, "\x1f", &save); tok; tok = strtok_r(NULL, "\x1f", &save)) {
		if (n == max) {
			snprintf(err, errlen, "too many operations in '%s'", QUOTE(text));
			return -E2BIG;
		}
		if (parse_long(tok, &out[n], err, errlen) < 0)
			return -EINVAL;
		n++;
	}
	if (n == 0)
		return fail(err, errlen, "no operation in '%s'", text);
	return (int)n;
}

int opspec_parse_threads(const char *text, unsigned *out, size_t max, char *err, size_t errlen)
{
	char buf[256];
	if (text == NULL || *text == '\0' || strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "bad thread list '%s'; use e.g. 8, 1,2,4 or 1..4,8", QUOTE(text ? text : ""));
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	size_t n = 0;
	/* strtok_r would skip empty elements: "1,,2" is as malformed as ",,". */
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		snprintf(err, errlen, "bad thread list '%s'; use e.g. 8, 1,2,4 or 1..4,8", QUOTE(text));
		return -EINVAL;
	}
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t lo, hi;
		char *dots = strstr(tok, "..");
		int rc;
		if (dots) {
			*dots = '\0';
			rc = units_parse_u64(tok, 0, UINT32_MAX, &lo);
			if (rc == 0)
				rc = units_parse_u64(dots + 2, 0, UINT32_MAX, &hi);
			if (rc == 0 && hi < lo)
				rc = -EINVAL;
		} else {
			rc = units_parse_u64(tok, 0, UINT32_MAX, &lo);
			hi = lo;
		}
		if (rc < 0) {
			snprintf(err, errlen, "bad thread list '%s'; use e.g. 8, 1,2,4 or 1..4,8", QUOTE(text));
			return -EINVAL;
		}
		if (lo == 0 || hi > OPSPEC_MAX_THREADS) {
			snprintf(err, errlen, "thread count out of range in '%s'; use 1 to %d", QUOTE(text), OPSPEC_MAX_THREADS);
			return -ERANGE;
		}
		for (uint64_t t = lo; t <= hi; t++) {
			if (n == max) {
				snprintf(err, errlen, "too many thread counts in '%s' (at most %zu)", QUOTE(text), max);
				return -ERANGE;
			}
			out[n++] = (unsigned)t;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "bad thread list '%s'; use e.g. 8, 1,2,4 or 1..4,8", QUOTE(text));
		return -EINVAL;
	}
	return (int)n;
}
