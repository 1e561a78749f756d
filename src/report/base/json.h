/*
 * SPDX-License-Identifier: Apache-2.0
 * json.h - the report's JSON reader: one document parsed into a flat
 * array of values, reused from one document to the next, so that a result
 * line costs no allocation per value.
 *
 * It accepts exactly what jansson's json_loadb(text, len, 0, &err) accepts
 * (an object or array at the top, strict numbers, UTF-8 strings without
 * \u0000, nesting to 2048 levels, integers within int64_t, reals that do not
 * overflow), and reads the same values: integers as strtoll, reals as strtod,
 * and of repeated keys the last. tests/fuzz/fuzz_json.c holds it to that.
 * When a document is refused, jv_error() asks jansson for its reason, so the
 * report's messages stay jansson's.
 *
 * Values point into their struct jv_doc and live until its next parse. A
 * struct jv_doc belongs to one thread; different docs may be used at once.
 */
#ifndef IOBENCH_REPORT_JSON_H
#define IOBENCH_REPORT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum jv_type { JV_NULL, JV_FALSE, JV_TRUE, JV_INT, JV_REAL, JV_STRING, JV_ARRAY, JV_OBJECT };

/*
 * One value. A container is followed by its members (an object's as key,
 * value pairs; a key is a JV_STRING) and skip counts it and all of them, so
 * v + v->skip is the value after it.
 */
struct jv {
	uint8_t type;
	uint32_t skip;  /* values in this one's subtree, itself included */
	uint32_t n;     /* JV_ARRAY: elements; JV_OBJECT: members; JV_STRING: bytes (without the NUL) */
	union {
		int64_t i;      /* JV_INT */
		double d;       /* JV_REAL */
		const char *s;  /* JV_STRING: NUL-terminated (a \u0000 is refused, so none inside) */
	} u;
};

struct jv_doc {
	struct jv *v;
	size_t nv, cap;
	char *str;       /* the strings, unescaped, each NUL-terminated */
	size_t str_cap;
	uint32_t *stack; /* open containers while parsing */
	size_t stack_cap;
};

void jv_doc_init(struct jv_doc *d);
void jv_doc_free(struct jv_doc *d);

/*
 * Parse text[0..len) as one JSON document. Returns its root, or NULL when
 * jansson would refuse it (or memory ran out). Replaces the doc's values.
 */
const struct jv *jv_parse(struct jv_doc *d, const char *text, size_t len);

/* Why jansson refuses text: its error, as json_loadb(text, len, 0, err) reports it. */
void jv_error(const char *text, size_t len, json_error_t *err);

/* The type tests take NULL (false), as jansson's do. */
static inline bool jv_is_object(const struct jv *v) { return v && v->type == JV_OBJECT; }
static inline bool jv_is_array(const struct jv *v) { return v && v->type == JV_ARRAY; }
static inline bool jv_is_string(const struct jv *v) { return v && v->type == JV_STRING; }
static inline bool jv_is_number(const struct jv *v) { return v && (v->type == JV_INT || v->type == JV_REAL); }
static inline bool jv_is_integer(const struct jv *v) { return v && v->type == JV_INT; }
static inline bool jv_is_boolean(const struct jv *v) { return v && (v->type == JV_TRUE || v->type == JV_FALSE); }
static inline bool jv_is_true(const struct jv *v) { return v && v->type == JV_TRUE; }

/* A number's value (an integer converted as jansson's json_number_value does); 0 otherwise. */
static inline double jv_number_value(const struct jv *v)
{
	return !v ? 0 : v->type == JV_INT ? (double)v->u.i : v->type == JV_REAL ? v->u.d : 0;
}

/* A string's text, or NULL. */
static inline const char *jv_string_value(const struct jv *v)
{
	return jv_is_string(v) ? v->u.s : NULL;
}

/* Elements of an array, members of an object, bytes of a string; 0 otherwise. */
static inline size_t jv_size(const struct jv *v)
{
	return v && (v->type == JV_ARRAY || v->type == JV_OBJECT || v->type == JV_STRING) ? v->n : 0;
}

/* The value of key in obj (the last, if repeated), or NULL (also when obj is not an object). */
const struct jv *jv_object_get(const struct jv *obj, const char *key);

/* Element i of arr (walks from the first: use jv_array_foreach to visit all), or NULL. */
const struct jv *jv_array_get(const struct jv *arr, size_t i);

/* Every element of arr in order: i counts from 0, v is the element. arr may be NULL or not an array. */
#define jv_array_foreach(arr, i, v)                                                              \
	for ((i) = 0, (v) = jv_is_array(arr) ? (arr) + 1 : NULL; jv_is_array(arr) && (i) < (arr)->n; \
	     (i)++, (v) += (v)->skip)

/*
 * Every member of obj in order, as a jansson object iterates: a repeated
 * key once, where it first came, with its last value (jv_object_get's).
 * key is its text. obj may be NULL or not an object (no member then).
 */
#define jv_object_foreach(obj, key, v)                                                   \
	for (const struct jv *jv_m_ = jv_object_next((obj), NULL, &(key), &(v)); jv_m_;    \
	     jv_m_ = jv_object_next((obj), jv_m_, &(key), &(v)))

/* jv_object_foreach's step: the member after m (NULL: the first); NULL at the end. */
const struct jv *jv_object_next(const struct jv *obj, const struct jv *m, const char **key, const struct jv **v);

/*
 * v as a jansson value, the same as json_loadb would have made it (NULL on
 * ENOMEM). For what is kept whole, once per document and never per result
 * line: a fleet's manifest, a durability verdict.
 */
json_t *jv_to_json(const struct jv *v);

/*
 * v as text, byte for byte as json_dumps(jv_to_json(v), JSON_ENCODE_ANY |
 * JSON_COMPACT) writes it, without building it: no space, members in
 * jv_object_foreach's order, strings' '"', '\\' and control characters
 * escaped (\u001F), integers as they are, reals as %.17g (an integral one
 * with ".0", the exponent without '+' or leading zeros). malloc'd; NULL on
 * ENOMEM.
 */
char *jv_dumps(const struct jv *v);

#endif
