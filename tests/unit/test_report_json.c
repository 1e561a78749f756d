/* test_report_json.c - the report's JSON parser: values, lookups, what it refuses, and jansson's reasons. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/base/json.h"

static const struct jv *parse(struct jv_doc *d, const char *text)
{
	return jv_parse(d, text, strlen(text));
}

TEST(a_result_line_reads_as_jansson_would_read_it)
{
	struct jv_doc d;
	jv_doc_init(&d);
	const struct jv *root = parse(&d, "{\"fileSize\": 1073741824, \"elapsed\": 2.5, \"host\": \"db1\","
					  " \"operations\": [{\"signature\": \"read,4K,4K\", \"threadCount\": 4,"
					  " \"total\": {\"buckets\": [1, 2, 3]}}], \"interrupted\": false, \"x\": null}");
	CHECK(jv_is_object(root));
	CHECK_EQ_U(jv_size(root), 6);
	CHECK(jv_is_integer(jv_object_get(root, "fileSize")));
	CHECK_NEAR(jv_number_value(jv_object_get(root, "fileSize")), 1073741824.0, 0);
	CHECK(!jv_is_integer(jv_object_get(root, "elapsed")) && jv_is_number(jv_object_get(root, "elapsed")));
	CHECK_NEAR(jv_number_value(jv_object_get(root, "elapsed")), 2.5, 0);
	CHECK(strcmp(jv_string_value(jv_object_get(root, "host")), "db1") == 0);
	CHECK(jv_is_boolean(jv_object_get(root, "interrupted")) && !jv_is_true(jv_object_get(root, "interrupted")));
	CHECK(jv_object_get(root, "x") && jv_object_get(root, "x")->type == JV_NULL);
	CHECK(jv_object_get(root, "missing") == NULL);
	const struct jv *ops = jv_object_get(root, "operations");
	CHECK(jv_is_array(ops) && jv_size(ops) == 1);
	const struct jv *op = jv_array_get(ops, 0);
	CHECK(strcmp(jv_string_value(jv_object_get(op, "signature")), "read,4K,4K") == 0);
	const struct jv *b = jv_object_get(jv_object_get(op, "total"), "buckets"), *e;
	size_t i;
	double sum = 0;
	jv_array_foreach(b, i, e)
		sum += jv_number_value(e) * (double)(i + 1);
	CHECK_NEAR(sum, 1 + 4 + 9, 0);
	CHECK(jv_array_get(b, 3) == NULL);
	/* the type tests and lookups take NULL and wrong types without harm */
	CHECK(!jv_is_object(NULL) && jv_object_get(NULL, "a") == NULL && jv_object_get(b, "a") == NULL);
	CHECK(jv_string_value(b) == NULL && jv_number_value(NULL) == 0);
	jv_doc_free(&d);
}

TEST(strings_are_unescaped_and_a_repeated_key_reads_as_its_last_value)
{
	struct jv_doc d;
	jv_doc_init(&d);
	const struct jv *root = parse(&d, "{\"k\": 1, \"s\": \"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\", \"k\": 2}");
	CHECK(root != NULL);
	CHECK_NEAR(jv_number_value(jv_object_get(root, "k")), 2, 0);
	CHECK(strcmp(jv_string_value(jv_object_get(root, "s")), "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80") == 0);
	CHECK_EQ_U(jv_size(jv_object_get(root, "s")), 13);
	/* foreach: each key once, with its last value */
	const char *key;
	const struct jv *v;
	unsigned n = 0;
	jv_object_foreach(root, key, v) {
		n++;
		if (strcmp(key, "k") == 0)
			CHECK_NEAR(jv_number_value(v), 2, 0);
	}
	CHECK_EQ_U(n, 2);
	/* as jansson would have made it */
	json_t *j = jv_to_json(root), *want = json_loads("{\"k\": 2, \"s\": \"a\\\"b\\\\c/\\n\\u00e9\\ud83d\\ude00\"}", 0, NULL);
	CHECK(j && want && json_equal(j, want));
	json_decref(j);
	json_decref(want);
	jv_doc_free(&d);
}

TEST(what_jansson_refuses_is_refused_and_jansson_gives_the_reason)
{
	static const char *const bad[] = {
		"", "1", "\"s\"", "{", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[01]", "[1.]", "[.5]", "[1e]", "[-]",
		"[+1]", "[tru]", "[nul]", "[\"\\x\"]", "[\"\\u12\"]", "[\"\\u0000\"]", "[\"\\ud800\"]", "[\"\\udc00\"]",
		"[\"\x01\"]", "[\"\xc0\xaf\"]", "[\"\xed\xa0\x80\"]", "[\"\xf4\x90\x80\x80\"]", "[9223372036854775808]",
		"[-9223372036854775809]", "[1e400]", "{} {}", "[1] x", "[\"a\"",
	};
	struct jv_doc d;
	jv_doc_init(&d);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_error_t err;
		CHECK(parse(&d, bad[i]) == NULL);
		CHECK(json_loads(bad[i], 0, &err) == NULL);
		json_error_t why;
		jv_error(bad[i], strlen(bad[i]), &why);
		CHECK(strcmp(why.text, err.text) == 0);
	}
	/* and the edges it takes */
	const struct jv *r = parse(&d, "[9223372036854775807, -9223372036854775808, -0, 1e-400, 1E+2, \"\xc3\xa9\", [], {}]");
	CHECK(r != NULL);
	CHECK(jv_array_get(r, 0)->u.i == INT64_MAX && jv_array_get(r, 1)->u.i == INT64_MIN);
	CHECK(jv_is_integer(jv_array_get(r, 2)) && jv_array_get(r, 3)->u.d == 0 && jv_array_get(r, 4)->u.d == 100);
	jv_doc_free(&d);
}

TEST(nesting_is_allowed_to_jansson_s_depth_and_no_further)
{
	char deep[2 * 2049 + 2];
	struct jv_doc d;
	jv_doc_init(&d);
	for (int levels = 2047; levels <= 2049; levels++) {
		size_t n = 0;
		for (int i = 0; i < levels; i++)
			deep[n++] = '[';
		deep[n++] = '1';
		for (int i = 0; i < levels; i++)
			deep[n++] = ']';
		json_t *tree = json_loadb(deep, n, 0, NULL);
		bool jansson = tree != NULL;
		json_decref(tree);
		CHECK((jv_parse(&d, deep, n) != NULL) == jansson);
		CHECK(jansson == (levels < 2048)); /* the 1 inside counts as a level */
	}
	jv_doc_free(&d);
}

TEST(a_value_dumps_as_jansson_dumps_it)
{
	static const char *const docs[] = {
		("[1, -1, 0, 9223372036854775807, -9223372036854775808, 1.5, 0.1, -0.0, 0.0, 3.0, 1e21, 1E+21, 1e-7,"
		 " 1e300, 1.7976931348623157e308, 5e-324, 2.5e-300, 123456789.123456789, 100000000000000000000.0]"),
		"{\"a\": {\"b\": [1, 2.5, \"x\", null, true, false, {}, []]}, \"k\": 1, \"j\": [[]], \"k\": {\"z\": 2}}",
		"[\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f/\\u00e9\\ud83d\\ude00\", \"\", \"\\u0020\"]",
		"{\"k\\\"=,\\\\\\n\": \"v\", \"\": \"\"}", "{}", "[]",
	};
	struct jv_doc d;
	jv_doc_init(&d);
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		const struct jv *root = parse(&d, docs[i]);
		CHECK(root != NULL);
		/* every value of the document, containers and what they hold */
		for (const struct jv *v = root; root && v < root + root->skip; v++) {
			json_t *j = jv_to_json(v);
			char *want = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT), *got = jv_dumps(v);
			CHECK(want && got);
			if (want && got && strcmp(want, got) != 0) {
				fprintf(stderr, "  got '%s', want '%s'\n", got, want);
				CHECK(strcmp(want, got) == 0);
			}
			free(want);
			free(got);
			json_decref(j);
		}
	}
	jv_doc_free(&d);
}

int main(void)
{
	RUN(a_result_line_reads_as_jansson_would_read_it);
	RUN(strings_are_unescaped_and_a_repeated_key_reads_as_its_last_value);
	RUN(what_jansson_refuses_is_refused_and_jansson_gives_the_reason);
	RUN(nesting_is_allowed_to_jansson_s_depth_and_no_further);
	RUN(a_value_dumps_as_jansson_dumps_it);
	return check_summary("test_report_json");
}
