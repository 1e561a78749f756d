/* test_report_targets.c - runs flagged as not measuring the disk provisioned (report/sections/targets.c). */
/* SPDX-License-Identifier: Apache-2.0 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_add.h"
#include "lib/hist.h"
#include "lib/hist_json.h"
#include "report/store/db.h"

/* A run line of host with the given target and provision objects (JSON text). */
static bool add_line(struct rep_db *db, const char *host, const char *target, const char *provision)
{
	struct hist h;
	hist_init(&h);
	for (int i = 0; i < 100; i++)
		hist_record(&h, 50000);
	json_t *t = json_loads(target, 0, NULL), *p = provision ? json_loads(provision, 0, NULL) : NULL;
	json_t *root = json_pack("{s:I, s:I, s:I, s:I, s:[{s:s, s:i, s:o, s:[]}], s:s, s:o}",
				 "fileSize", (json_int_t)1 << 30, "launchTime", (json_int_t)1000,
				 "runtime", (json_int_t)10, "bucketDuration", (json_int_t)10,
				 "operations", "signature", "read,4K,4K", "threadCount", 1,
				 "total", hist_to_json(&h), "timeBuckets", "host", host, "target", t);
	if (p)
		json_object_set_new(root, "provision", p);
	bool ok = add_json(db, root, "test:1", "fallback", true);
	json_decref(root);
	return ok;
}

/* The finding of host's flag, or NULL when it has none. */
static const char *finding_of(const struct rep_db *db, const char *host)
{
	for (size_t i = 0; i < db->ntflags; i++)
		if (strcmp(db->tflags[i].host, host) == 0)
			return db->tflags[i].finding;
	return NULL;
}

#define GIB "1073741824"
#define GP3_100 "{\"instanceType\": \"m5.large\", \"volumeType\": \"gp3\", \"volumeSize\": 100, \"volumeCount\": 1, \"raidLevel\": \"none\"}"

TEST(memory_root_and_wrong_size_are_flagged_each_once_per_host)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	CHECK(add_line(&db, "mem", "{\"path\": \"/tmp/data.bin\", \"filesystem\": \"tmpfs\", \"mountPoint\": \"/tmp\","
				   " \"device\": null, \"memory\": true, \"rootDevice\": false}", NULL));
	CHECK(add_line(&db, "mem", "{\"path\": \"/tmp/data.bin\", \"filesystem\": \"tmpfs\", \"mountPoint\": \"/tmp\","
				   " \"device\": null, \"memory\": true, \"rootDevice\": false}", NULL));
	CHECK(add_line(&db, "root", "{\"path\": \"data.bin\", \"device\": \"nvme0n1p1\", \"deviceSize\": 8589934592,"
				    " \"memory\": false, \"rootDevice\": true}", GP3_100));
	CHECK(add_line(&db, "small", "{\"path\": \"data.bin\", \"device\": \"nvme1n1\", \"deviceSize\": 8589934592,"
				     " \"memory\": false, \"rootDevice\": false}", GP3_100));
	CHECK_EQ_U(db.ntflags, 3);
	CHECK(strcmp(finding_of(&db, "mem"), "measured memory (/tmp on tmpfs), not a disk") == 0);
	CHECK(strcmp(finding_of(&db, "root"), "measured /dev/nvme0n1p1 (root), not the gp3 volume") == 0);
	CHECK(strcmp(finding_of(&db, "small"), "measured /dev/nvme1n1 (8.0 GiB), not the 100 GiB gp3 volume") == 0);
	for (size_t i = 0; i < db.ntflags; i++)
		CHECK_EQ_U(db.tflags[i].runs, strcmp(db.tflags[i].host, "mem") == 0 ? 2 : 1);
	rep_db_free(&db);
}

TEST(the_volume_a_partition_of_it_an_array_and_lines_without_facts_are_not_flagged)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	/* The volume itself; a partition of it (1 MiB smaller). */
	CHECK(add_line(&db, "whole", "{\"device\": \"nvme1n1\", \"deviceSize\": 107374182400, \"memory\": false,"
				     " \"rootDevice\": false}", GP3_100));
	CHECK(add_line(&db, "part", "{\"device\": \"nvme1n1p1\", \"deviceSize\": 107373133824, \"memory\": false,"
				    " \"rootDevice\": false}", GP3_100));
	/* A RAID 0 over four: its md device is four volumes' size. */
	CHECK(add_line(&db, "raid", "{\"device\": \"md0\", \"deviceSize\": 429496729600, \"memory\": false,"
				    " \"rootDevice\": false}",
		       "{\"volumeType\": \"gp3\", \"volumeSize\": 100, \"volumeCount\": 4, \"raidLevel\": \"0\"}"));
	/* No volume named (instance store, or no facts): the root disk is what was asked for. */
	CHECK(add_line(&db, "store", "{\"device\": \"nvme0n1\", \"deviceSize\": " GIB ", \"rootDevice\": true}",
		       "{\"instanceStore\": true, \"volumeType\": \"gp3\"}"));
	CHECK(add_line(&db, "plain", "{\"device\": \"vda\", \"deviceSize\": " GIB ", \"rootDevice\": true}", NULL));
	/* Older lines without the keys. */
	CHECK(add_line(&db, "old", "{\"path\": \"data.bin\", \"device\": \"vda\"}", GP3_100));
	CHECK_EQ_U(db.ntflags, 0);
	rep_db_free(&db);
}

TEST(filtering_by_host_or_fact_keeps_the_flags_that_match)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	CHECK(add_line(&db, "a", "{\"device\": \"vda\", \"rootDevice\": true}", GP3_100));
	CHECK(add_line(&db, "b", "{\"device\": \"vda\", \"rootDevice\": true}",
		       "{\"instanceType\": \"m5.xlarge\", \"volumeType\": \"io2\"}"));
	rep_db_filter(&db, "op", "read*");
	CHECK_EQ_U(db.ntflags, 2);
	rep_db_filter(&db, "instanceType", "m5.large");
	CHECK_EQ_U(db.ntflags, 1);
	CHECK(strcmp(db.tflags[0].host, "a") == 0);
	rep_db_filter(&db, "host", "b");
	CHECK_EQ_U(db.ntflags, 0);
	rep_db_free(&db);
}

int main(void)
{
	RUN(memory_root_and_wrong_size_are_flagged_each_once_per_host);
	RUN(the_volume_a_partition_of_it_an_array_and_lines_without_facts_are_not_flagged);
	RUN(filtering_by_host_or_fact_keeps_the_flags_that_match);
	return check_summary("report_targets");
}
