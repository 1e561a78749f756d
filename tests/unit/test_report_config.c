/* test_report_config.c - who, which configuration, what bookkeeping: the split of a line and config names. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host/provision.h"
#include "report/store/db.h"
#include "report/base/json.h"
#include "report/store/config.h"
#include "report/store/opname.h"

/* Split the JSON text of a line. */
static void split_of(const char *text, struct rep_split *s)
{
	struct jv_doc d;
	jv_doc_init(&d);
	const struct jv *root = jv_parse(&d, text, strlen(text));
	CHECK(root != NULL);
	rep_split_line(root, s);
	jv_doc_free(&d);
}

static bool name_is(const char *labels, const char *facts, const char *want)
{
	char *name = rep_config_name(labels, facts);
	bool ok = strcmp(name, want) == 0;
	if (!ok)
		fprintf(stderr, "  name of '%s' + '%s': got '%s', want '%s'\n", labels, facts, name, want);
	free(name);
	return ok;
}

TEST(bookkeeping_labels_and_notes_never_make_a_configuration)
{
	struct rep_split s;
	split_of("{\"host\": \"vm\", \"labels\": {\"config\": \"large/ebs4\", \"planStep\": \"3\", \"fleetHost\": \"10.0.0.5\","
		 " \"spanHuman\": \"128M\", \"run\": \"r1\", \"runId\": \"r1\", \"fileSize\": \"1536M\", \"disk\": 2},"
		 " \"notes\": {\"batch\": \"b7\"}}", &s);
	CHECK(strcmp(s.labels, "config=large/ebs4,disk=2") == 0);
	CHECK(strcmp(s.notes, "batch=b7,fleetHost=10.0.0.5,planStep=3,run=r1,runId=r1,spanHuman=128M") == 0);
	CHECK_EQ_U(s.size_label, 1536ULL << 20);
	CHECK(strcmp(s.facts, "") == 0);
	/* an old line (no "hostname"): the fleetHost label names the host */
	CHECK(s.host && strcmp(s.host, "10.0.0.5") == 0);
	rep_split_free(&s);
	CHECK(rep_is_bookkeeping_label("planStep") && rep_is_bookkeeping_label("runId"));
	CHECK(!rep_is_bookkeeping_label("config") && !rep_is_bookkeeping_label("host"));
}

TEST(the_host_is_the_name_given_else_the_legacy_label_else_host)
{
	struct rep_split s;
	split_of("{\"host\": \"i-0abc\", \"hostname\": \"vm\", \"labels\": {\"fleetHost\": \"10.0.0.5\"}}", &s);
	CHECK(strcmp(s.host, "i-0abc") == 0);
	rep_split_free(&s);
	split_of("{\"host\": \"vm\", \"labels\": {}}", &s);
	CHECK(strcmp(s.host, "vm") == 0);
	rep_split_free(&s);
	split_of("{\"launchTime\": 1}", &s);
	CHECK(s.host == NULL);
	CHECK(strcmp(s.labels, "") == 0 && strcmp(s.notes, "") == 0);
	rep_split_free(&s);
}

TEST(per_host_facts_are_left_out_of_the_configuration)
{
	struct rep_split s;
	split_of("{\"provision\": {\"instanceType\": \"m5.large\", \"instanceId\": \"i-1\", \"az\": \"us-east-1a\","
		 " \"volumeCount\": 4, \"ebsOptimized\": true, \"raidLevel\": \"0\", \"rack\": {\"row\": 2},"
		 " \"lifecycle\": \"spot\", \"gone\": null}}", &s);
	CHECK(strcmp(s.facts, "ebsOptimized=true,instanceType=m5.large,rack={\"row\":2},raidLevel=0,volumeCount=4") == 0);
	rep_split_free(&s);
}

TEST(config_names_from_facts_then_labels)
{
	CHECK(name_is("", "instanceType=m5.large,raidLevel=0,volumeCount=4,volumeType=gp3", "m5.large / gp3 x4 / raid0"));
	CHECK(name_is("config=x", "instanceType=m5.large,raidLevel=10f2,volumeCount=2,volumeType=io2",
		      "m5.large / io2 x2 / raid10f2 / config=x"));
	CHECK(name_is("", "instanceType=i3.xlarge,instanceStore=true,raidLevel=none", "i3.xlarge / instance store"));
	CHECK(name_is("", "volumeType=st1", "st1"));
	CHECK(name_is("", "filesystem=xfs", "filesystem=xfs"));
	CHECK(name_is("config=large/ebs4", "", "config=large/ebs4"));
	CHECK(name_is("", "", ""));
}

TEST(configs_with_one_name_are_told_apart_by_the_facts_that_differ)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	const struct rep_config *a = rep_config_get(&db, "", "instanceType=m5.large,volumeSize=100,volumeType=gp3");
	const struct rep_config *b = rep_config_get(&db, "", "instanceType=m5.large,volumeSize=500,volumeType=gp3");
	const struct rep_config *c = rep_config_get(&db, "", "instanceType=m5.large,filesystem=xfs,volumeType=gp3");
	const struct rep_config *d = rep_config_get(&db, "", "instanceType=c5.large");
	CHECK(rep_config_get(&db, "", "instanceType=m5.large,volumeSize=100,volumeType=gp3") == a);
	CHECK_EQ_U(db.nconfigs, 4);
	rep_configs_distinguish(&db);
	CHECK(strcmp(a->name, "m5.large / gp3 / volumeSize=100 / filesystem=-") == 0);
	CHECK(strcmp(b->name, "m5.large / gp3 / volumeSize=500 / filesystem=-") == 0);
	CHECK(strcmp(c->name, "m5.large / gp3 / volumeSize=- / filesystem=xfs") == 0);
	CHECK(strcmp(d->name, "c5.large") == 0);
	rep_db_free(&db);
}

TEST(runs_kept_apart_are_named_partial_always_rounds_where_they_differ)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	const char *f = "instanceType=m5.large,volumeType=gp3";
	const struct rep_config *r1 = rep_config_get_runs(&db, "", f, "round=1,runtime=2");
	const struct rep_config *r2 = rep_config_get_runs(&db, "", f, "round=2,runtime=8");
	const struct rep_config *cut = rep_config_get_runs(&db, "", f, "partial=interrupted,round=2,runtime=8");
	/* another config with one kind of runs only: not renamed */
	const struct rep_config *o = rep_config_get_runs(&db, "", "instanceType=c5.large", "round=1,runtime=2");
	CHECK(rep_config_get_runs(&db, "", f, "round=1,runtime=2") == r1);
	CHECK(r1 != r2 && cut->partial && !r1->partial);
	bool split = false;
	rep_configs_distinguish(&db);
	rep_configs_mark_runs(&db, &split);
	CHECK(split);
	CHECK(strcmp(r1->name, "m5.large / gp3 / round 1 / 2 s runs") == 0);
	CHECK(strcmp(r2->name, "m5.large / gp3 / round 2 / 8 s runs") == 0);
	CHECK(strcmp(cut->name, "m5.large / gp3 / round 2 / 8 s runs [interrupted]") == 0);
	CHECK(strcmp(o->name, "c5.large") == 0);
	rep_db_free(&db);
}

TEST(signatures_sort_by_op_then_size_as_a_number)
{
	CHECK(rep_sig_cmp("read,4K,4K", 4096, "read,64K,64K", 65536) < 0);
	CHECK(rep_sig_cmp("read,64K,64K", 65536, "read,4M,4M", 4194304) < 0);
	CHECK(rep_sig_cmp("read,4M,4M", 4194304, "writeFlush,4K,4K", 4096) < 0);
	CHECK(rep_sig_cmp("read,4K,4K", 4096, "read,4K,4K", 4096) == 0);
}

/*
 * The values a label, note or fact may take, each inside a line's labels:
 * what the report writes of each is provision_text's text of jansson's
 * value, byte for byte (the report builds no jansson value per line).
 */
static const char *const fact_values[] = {
	"1", "-1", "0", "4", "123456789012345678", "-9223372036854775808", "9223372036854775807",
	"1.5", "-2.25", "0.1", "1e21", "1E+21", "1e-7", "3000.0", "-0.0", "0.0", "9e15", "8999999999999999.0",
	"8999999999999998", "1.7976931348623157e308", "5e-324", "2.5e-300", "123456789.123456789", "1e300",
	"true", "false", "null", "{}", "[]", "[[]]", "{\"a\":{}}",
	"{\"a\": {\"b\": [1, 2.5, \"x\", null, true, false, 1e21, 0.1, -0.0, 3.0]}}",
	"{\"k\": 1, \"j\": [], \"k\": 2}", "[1e300, 1E+2, 1e-05, 100000000000000000000.0, 1.5e-10]",
	"[\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f/\\u00e9\\ud83d\\ude00\"]",
	"{\"k\\\"=,\\\\\": \"v\\u0000x\"}",
	"{\"k\\\"=,\\\\\": \"v\\n,=x\", \"\": \"\"}",
	"\"plain\"", "\"with, comma=and \\\\ backslash\"",
};

TEST(a_label_s_text_is_provision_text_s_of_the_value_byte_for_byte)
{
	for (size_t i = 0; i < sizeof(fact_values) / sizeof(fact_values[0]); i++) {
		char line[1024];
		snprintf(line, sizeof(line), "{\"labels\": {\"x\": %s}}", fact_values[i]);
		json_t *want_j = json_loads(fact_values[i], JSON_DECODE_ANY, NULL);
		if (!want_j) {
			/* a value jansson refuses (\u0000) is refused by the report's parser too */
			struct jv_doc d;
			jv_doc_init(&d);
			CHECK(jv_parse(&d, line, strlen(line)) == NULL);
			jv_doc_free(&d);
			continue;
		}
		char *want = provision_text(want_j);
		json_decref(want_j);
		struct rep_split s;
		split_of(line, &s);
		char key[64], value[512];
		CHECK(rep_kv_next(s.labels, key, sizeof(key), value, sizeof(value)) != NULL);
		CHECK(strcmp(key, "x") == 0);
		if (strcmp(value, want) != 0) {
			fprintf(stderr, "  %s: got '%s', want '%s'\n", fact_values[i], value, want);
			CHECK(strcmp(value, want) == 0);
		}
		/* a provision fact reads the same way */
		struct jv_doc d;
		jv_doc_init(&d);
		snprintf(line, sizeof(line), "{\"instanceType\": %s}", fact_values[i]);
		char *facts = rep_config_facts(jv_parse(&d, line, strlen(line)));
		CHECK(rep_kv_next(facts, key, sizeof(key), value, sizeof(value)) != NULL || strcmp(want, "null") == 0);
		CHECK(strcmp(want, "null") == 0 ? facts[0] == '\0' : strcmp(value, want) == 0);
		free(facts);
		jv_doc_free(&d);
		free(want);
		rep_split_free(&s);
	}
}

int main(void)
{
	RUN(bookkeeping_labels_and_notes_never_make_a_configuration);
	RUN(the_host_is_the_name_given_else_the_legacy_label_else_host);
	RUN(per_host_facts_are_left_out_of_the_configuration);
	RUN(config_names_from_facts_then_labels);
	RUN(configs_with_one_name_are_told_apart_by_the_facts_that_differ);
	RUN(runs_kept_apart_are_named_partial_always_rounds_where_they_differ);
	RUN(signatures_sort_by_op_then_size_as_a_number);
	RUN(a_label_s_text_is_provision_text_s_of_the_value_byte_for_byte);
	return check_summary("report_config");
}
