/* test_provision.c - provisioning facts: per-host or configuration, and how text becomes a typed value. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "host/provision.h"

/* The compact JSON of fact key given as text, or "ERR: reason". */
static char *value_of(const char *key, const char *text)
{
	char err[200];
	json_t *v = provision_value(key, text, err, sizeof(err));
	if (!v) {
		char *out = malloc(strlen(err) + 6);
		sprintf(out, "ERR: %s", err);
		return out;
	}
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	json_decref(v);
	return s;
}

#define CHECK_VALUE(key, text, want)                                 \
	do {                                                         \
		char *got = value_of(key, text);                     \
		if (strcmp(got, want) != 0)                          \
			fprintf(stderr, "  %s=%s: got %s, want %s\n", key, text, got, want); \
		CHECK(strcmp(got, want) == 0);                       \
		free(got);                                           \
	} while (0)

TEST(per_host_facts_never_make_a_configuration)
{
	static const char *const host[] = { "cloud", "instanceId", "az", "region", "ami", "privateIp", "lifecycle" };
	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
		CHECK(provision_is_host_fact(host[i]));
	static const char *const config[] = { "instanceType", "volumeType", "volumeCount", "raidLevel",
					      "filesystem", "ebsOptimized", "rack", "" };
	for (size_t i = 0; i < sizeof(config) / sizeof(config[0]); i++)
		CHECK(!provision_is_host_fact(config[i]));
}

TEST(known_facts_take_their_type)
{
	CHECK_VALUE("volumeCount", "4", "4");
	CHECK_VALUE("volumeSize", "1.5", "1.5");
	CHECK_VALUE("volumeCount", "four", "ERR: volumeCount wants a number, got 'four'");
	CHECK_VALUE("volumeIops", "0x10", "ERR: volumeIops wants a number, got '0x10'");
	CHECK_VALUE("ebsOptimized", "true", "true");
	CHECK_VALUE("instanceStore", "yes", "ERR: instanceStore wants true or false, got 'yes'");
	CHECK_VALUE("raidChunk", "256K", "262144");
	CHECK_VALUE("raidChunk", "big", "ERR: raidChunk wants bytes (262144, 256K, 1M), got 'big'");
	/* strings stay strings, even when they look like numbers */
	CHECK_VALUE("raidLevel", "0", "\"0\"");
	CHECK_VALUE("instanceType", "m5.large", "\"m5.large\"");
	CHECK_VALUE("instanceType", "bad\xff", "ERR: instanceType: value is not valid UTF-8 text");
}

TEST(unknown_facts_are_numbers_or_booleans_when_they_look_like_json)
{
	CHECK_VALUE("rack", "7", "7");
	CHECK_VALUE("rack", "-2.5e3", "-2500");
	CHECK_VALUE("rack", "true", "true");
	CHECK_VALUE("rack", "007", "\"007\"");
	CHECK_VALUE("rack", "1.", "\"1.\"");
	CHECK_VALUE("rack", "inf", "\"inf\"");
	CHECK_VALUE("rack", "", "\"\"");
	CHECK_VALUE("rack", "a=b", "\"a=b\"");
}

TEST(set_fact_replaces_and_refuses_a_missing_key)
{
	json_t *obj = json_object();
	char err[200];
	CHECK(provision_set_fact(obj, "volumeType=gp2", err, sizeof(err)) == 0);
	CHECK(provision_set_fact(obj, "volumeType=gp3", err, sizeof(err)) == 0);
	CHECK(strcmp(json_string_value(json_object_get(obj, "volumeType")), "gp3") == 0);
	CHECK(provision_set_fact(obj, "=gp3", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "not KEY=VALUE") != NULL);
	CHECK(provision_set_fact(obj, "volumeType", err, sizeof(err)) == -EINVAL);
	CHECK(json_object_size(obj) == 1);
	json_decref(obj);
}

TEST(a_file_is_merged_with_known_facts_typed)
{
	char path[] = "/tmp/test_provision.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char *text = "{\"volumeCount\": \"4\", \"raidLevel\": 10, \"raidChunk\": \"512K\","
			   " \"az\": \"us-east-1a\", \"rack\": {\"row\": 3}, \"gone\": null}";
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	json_t *obj = json_pack("{s:s, s:i}", "instanceType", "m5.large", "volumeCount", 2);
	char err[300];
	CHECK(provision_load_file(path, obj, err, sizeof(err)) == 0);
	char *s = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	CHECK(strcmp(s, "{\"az\":\"us-east-1a\",\"instanceType\":\"m5.large\",\"rack\":{\"row\":3},"
			"\"raidChunk\":524288,\"raidLevel\":\"10\",\"volumeCount\":4}") == 0);
	free(s);
	json_decref(obj);

	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(write(fd, "[1]", 3) == 3);
	close(fd);
	obj = json_object();
	CHECK(provision_load_file(path, obj, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "not a JSON object of facts") != NULL);
	json_decref(obj);
	unlink(path);
	obj = json_object();
	CHECK(provision_load_file(path, obj, err, sizeof(err)) == -ENOENT);
	json_decref(obj);
}

TEST(text_of_a_value)
{
	json_t *v[] = { json_string("gp3"), json_integer(4), json_real(3.0), json_real(1.25), json_true() };
	const char *want[] = { "gp3", "4", "3", "1.25", "true" };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *s = provision_text(v[i]);
		CHECK(s && strcmp(s, want[i]) == 0);
		free(s);
		json_decref(v[i]);
	}
}

int main(void)
{
	RUN(per_host_facts_never_make_a_configuration);
	RUN(known_facts_take_their_type);
	RUN(unknown_facts_are_numbers_or_booleans_when_they_look_like_json);
	RUN(set_fact_replaces_and_refuses_a_missing_key);
	RUN(a_file_is_merged_with_known_facts_typed);
	RUN(text_of_a_value);
	return check_summary("test_provision");
}
