/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_json.c - libFuzzer target: the report's JSON parser (report_json.h)
 * against jansson, on any input. Both must accept or refuse alike, and what
 * both accept must read the same: every type, integer, real, string, array
 * element and object member (the last of a repeated key), as jv_object_get
 * and jv_object_foreach see them, and jv_dumps writes what json_dumps
 * writes. Any difference aborts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void differ(const char *what)
{
	fprintf(stderr, "fuzz_json: the parsers differ: %s\n", what);
	abort();
}

static void same(const struct jv *v, const json_t *j)
{
	switch (v->type) {
	case JV_NULL:
		if (!json_is_null(j))
			differ("null");
		break;
	case JV_TRUE:
	case JV_FALSE:
		if (!json_is_boolean(j) || json_is_true(j) != (v->type == JV_TRUE) || !jv_is_boolean(v))
			differ("boolean");
		break;
	case JV_INT:
		if (!json_is_integer(j) || json_integer_value(j) != v->u.i ||
		    jv_number_value(v) != json_number_value(j))
			differ("integer");
		break;
	case JV_REAL:
		if (!json_is_real(j) || memcmp(&v->u.d, &(double){ json_real_value(j) }, sizeof(double)) != 0)
			differ("real");
		break;
	case JV_STRING:
		if (!json_is_string(j) || json_string_length(j) != v->n || memcmp(json_string_value(j), v->u.s, v->n) != 0 ||
		    v->u.s[v->n] != '\0')
			differ("string");
		break;
	case JV_ARRAY: {
		if (!json_is_array(j) || json_array_size(j) != v->n || jv_size(v) != v->n)
			differ("array size");
		size_t i;
		const struct jv *e;
		jv_array_foreach(v, i, e) {
			same(e, json_array_get(j, i));
			if (jv_array_get(v, i) != e)
				differ("jv_array_get");
		}
		break;
	}
	case JV_OBJECT: {
		if (!json_is_object(j))
			differ("object");
		/* the same keys in the same order, each with the same value */
		size_t keys = 0;
		const char *key;
		const struct jv *m;
		json_t *jm;
		void *it = json_object_iter((json_t *)j);
		jv_object_foreach(v, key, m) {
			keys++;
			if (!it || strcmp(json_object_iter_key(it), key) != 0)
				differ("object member order");
			jm = json_object_iter_value(it);
			if (jv_object_get(v, key) != m)
				differ("object member");
			same(m, jm);
			it = json_object_iter_next((json_t *)j, it);
		}
		if (keys != json_object_size(j) || it)
			differ("object size");
		break;
	}
	default:
		differ("type");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jv_doc doc; /* reused, as the report reuses its docs */
	json_error_t err;
	json_t *j = json_loadb((const char *)data, size, 0, &err);
	const struct jv *v = jv_parse(&doc, (const char *)data, size);
	if (!j != !v)
		differ(j ? "jansson accepts, jv refuses" : "jv accepts, jansson refuses");
	if (j) {
		same(v, j);
		json_t *back = jv_to_json(v);
		if (!back || !json_equal(back, j))
			differ("jv_to_json");
		json_decref(back);
		/* the text the report writes of a value (a label's, a fact's) is jansson's, byte for byte */
		char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT), *got = jv_dumps(v);
		if (!want || !got || strcmp(want, got) != 0)
			differ("jv_dumps");
		free(want);
		free(got);
		json_decref(j);
	}
	return 0;
}
