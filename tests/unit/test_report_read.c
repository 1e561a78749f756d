/* test_report_read.c - reading result lines into cells: exact merges, labels, formats, tables. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_add.h"
#include "lib/hist.h"
#include "lib/hist_json.h"
#include "report/sections/analyze.h"
#include "report/store/db.h"
#include "report/render/table.h"
#include "report/store/config.h"
#include "report/store/opname.h"
#include "report/store/manifest.h"
#include "report/read/read.h"

/* A run line with one operation whose total and buckets come from h. */
static char *run_line(const struct hist *h, const char *sig, double threads, const char *host,
		      const char *labels_json, int nbuckets)
{
	json_t *tb = json_array();
	for (int i = 0; i < nbuckets; i++) {
		struct hist b;
		hist_init(&b);
		for (int k = 0; k < 10 * (i + 1); k++)
			hist_record(&b, 50000);
		json_array_append_new(tb, hist_to_json(&b));
	}
	json_t *labels = json_loads(labels_json, 0, NULL);
	json_t *root = json_pack("{s:I, s:I, s:I, s:I, s:[{s:s, s:f, s:o, s:o}], s:s, s:o, s:{s:I}}",
				 "fileSize", (json_int_t)1 << 30, "launchTime", (json_int_t)1000,
				 "runtime", (json_int_t)60, "bucketDuration", (json_int_t)10,
				 "operations", "signature", sig, "threadCount", threads,
				 "total", hist_to_json(h), "timeBuckets", tb,
				 "host", host, "labels", labels, "target", "span", (json_int_t)1 << 28);
	char *s = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return s;
}

static bool add_text(struct rep_db *db, const char *text, bool explicit_file)
{
	json_t *root = json_loads(text, 0, NULL);
	bool ok = add_json(db, root, "test:1", "fallback", explicit_file);
	json_decref(root);
	return ok;
}

static void spread(struct hist *h, uint64_t from, uint64_t step, int n)
{
	for (int i = 0; i < n; i++)
		hist_record(h, from + step * (uint64_t)i);
}

TEST(two_runs_of_a_cell_merge_exactly)
{
	struct hist a, b, want;
	hist_init(&a);
	hist_init(&b);
	spread(&a, 2000, 977, 5000);
	spread(&b, 90000, 12345, 3000);
	want = a;
	hist_merge(&want, &b);
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	char *la = run_line(&a, "read,4K,4K", 4, "h1", "{}", 6);
	char *lb = run_line(&b, "read,4K,4K", 4, "h1", "{}", 6);
	CHECK(add_text(&db, la, true));
	CHECK(add_text(&db, lb, true));
	CHECK_EQ_U(db.ncells, 1);
	CHECK(hist_equal(&db.cells[0]->total, &want));
	CHECK_EQ_U(db.cells[0]->runs, 2);
	CHECK_NEAR(db.cells[0]->seconds, 120, 0);
	CHECK_NEAR(rep_cell_ops(db.cells[0]), 8000.0 / 120, 1e-9);
	CHECK_EQ_U(db.cells[0]->block, 4096);
	free(la);
	free(lb);
	rep_db_free(&db);
}

TEST(thread_count_labels_and_host_split_cells)
{
	struct hist h;
	hist_init(&h);
	spread(&h, 5000, 10, 100);
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	const char *lines[][3] = {
		{ "h1", "{\"config\":\"a\"}", "1" },
		{ "h1", "{\"config\":\"a\"}", "2" },
		{ "h1", "{\"config\":\"b\"}", "1" },
		{ "h2", "{\"config\":\"a\"}", "1" },
		{ "h2", "{\"config\":\"a\"}", "1" },
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char *l = run_line(&h, "read,4K,4K", atof(lines[i][2]), lines[i][0], lines[i][1], 0);
		add_text(&db, l, true);
		free(l);
	}
	CHECK_EQ_U(db.ncells, 4);
	rep_db_finish(&db);
	struct rep_group *g;
	size_t ng = rep_groups(&db, false, &g);
	CHECK_EQ_U(ng, 3); /* a x1 (2 hosts), a x2, b x1 */
	CHECK_EQ_U(g[0].n, 2);
	CHECK_EQ_U(g[0].total.count, 300);
	free(g);
	rep_db_free(&db);
}

TEST(labels_are_sorted_and_size_labels_become_the_size)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 7000);
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	char *l = run_line(&h, "read,4K,4K", 1, "h", "{\"z\":\"1\",\"config\":\"large/ebs4\",\"fileSize\":\"1536M\"}", 0);
	add_text(&db, l, true);
	free(l);
	l = run_line(&h, "read,4K,4K", 1, "h", "{\"config\":\"x\"}", 0);
	add_text(&db, l, true);
	free(l);
	CHECK_EQ_U(db.ncells, 2);
	CHECK(strcmp(db.cells[0]->cfg->labels, "config=large/ebs4,z=1") == 0);
	CHECK_EQ_U(db.cells[0]->size, 1536ULL << 20);
	CHECK_EQ_U(db.cells[1]->size, 1ULL << 28); /* target.span without a size label */
	char v[64];
	CHECK(rep_label_value(db.cells[0]->cfg->labels, "z", v, sizeof(v)) && strcmp(v, "1") == 0);
	CHECK(rep_label_value(db.cells[0]->cfg->labels, "config", v, sizeof(v)) && strcmp(v, "large/ebs4") == 0);
	CHECK(!rep_label_value(db.cells[0]->cfg->labels, "conf", v, sizeof(v)));
	rep_db_free(&db);
}

TEST(only_whole_time_buckets_become_points)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 7000);
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	char *l = run_line(&h, "read,4K,4K", 1, "h", "{}", 7); /* 60 s / 10 s + 1 extra */
	add_text(&db, l, true);
	free(l);
	CHECK_EQ_U(db.cells[0]->npts, 6);
	CHECK_NEAR(db.cells[0]->pts[0].ops, 1.0, 1e-12);  /* 10 ops in 10 s */
	CHECK_NEAR(db.cells[0]->pts[5].ops, 6.0, 1e-12);
	CHECK_NEAR(db.cells[0]->pts[5].t, 1050, 0);
	rep_db_free(&db);
}

TEST(foreign_histograms_are_refused_not_merged)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 7000);
	char *l = run_line(&h, "read,4K,4K", 1, "h", "{}", 0);
	json_t *root = json_loads(l, 0, NULL);
	json_t *total = json_object_get(json_array_get(json_object_get(root, "operations"), 0), "total");
	json_object_set_new(total, "pinMaximum", json_integer(1000000000));
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	CHECK(!add_json(&db, root, "t:1", "x", true));
	CHECK_EQ_U(db.ncells, 0);
	CHECK_EQ_U(db.skipped, 1);
	json_decref(root);
	free(l);
	rep_db_free(&db);
}

TEST(kinds_of_signatures)
{
	CHECK_EQ_U(rep_kind_of("read,4K,4K"), REP_READ);
	CHECK_EQ_U(rep_kind_of("writeFlush,4K,4K"), REP_WRITE_FLUSH);
	CHECK_EQ_U(rep_kind_of("write64,4K,4K"), REP_WRITE_N);
	CHECK_EQ_U(rep_kind_of("write,4K,4K"), REP_WRITE);
	CHECK_EQ_U(rep_kind_of("writeX,4K,4K"), REP_OTHER);
}

TEST(run_out_dump_and_pretty_objects_are_read_from_a_stream)
{
	static const char text[] =
		"Running 8 threads\n"
		"Total for [read,4K,4K]: 1 events\n"
		"<begin json dump>\n"
		"{\"launchTime\":2367,\"runtime\":60,\"bucketDuration\":10,\"fileSize\":1073741824,"
		"\"operations\":[{\"threadCount\":8.0,\"signature\":\"read,4K,4K\",\"total\":"
		"{\"count\":2,\"errorCount\":0,\"minValue\":6966,\"maxValue\":6970,\"totalValue\":13936,"
		"\"bucketRatio\":1.1,\"firstBucketStart\":6727.4999493256,\"buckets\":[2],"
		"\"pinMinimum\":1000,\"pinMaximum\":10000000000},\"timeBuckets\":[]}]}\n"
		"<end json dump>\n"
		"{\n  \"state\": 1\n}\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	rep_read_stream(&db, f, "results/r1/i-0a1/run.out", false);
	fclose(f);
	CHECK_EQ_U(db.runs, 1);
	CHECK_EQ_U(db.skipped, 0);
	CHECK_EQ_U(db.ncells, 1);
	CHECK(strcmp(db.cells[0]->host, "i-0a1") == 0);
	CHECK_NEAR(db.cells[0]->threads, 8, 0);
	CHECK_EQ_U(db.cells[0]->total.buckets[20], 2);
	rep_db_free(&db);
}

TEST(a_manifest_adds_its_hosts_once_per_run_and_learns_which_sent_lines)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	static const char manifest[] =
		"{\"tool\": \"iobench-fleet\", \"runId\": \"r1\", \"state\": \"interrupted\", \"hosts\": ["
		"{\"name\": \"h1\", \"status\": \"ok\", \"planned\": 2, \"provision\": {\"instanceId\": \"i-1\","
		" \"instanceType\": \"m5.large\"}},"
		"{\"name\": \"h2\", \"status\": \"failed\", \"failure\": {\"kind\": \"auth\", \"detail\": \"denied\","
		" \"exit\": 255}}, {\"status\": \"ok\"}]}";
	CHECK(add_text(&db, manifest, false));
	CHECK(add_text(&db, manifest, false)); /* read twice (folder and file): the same hosts */
	CHECK_EQ_U(db.nfleet, 2);
	CHECK_EQ_U(db.manifests, 2);
	struct hist h;
	hist_init(&h);
	hist_record(&h, 7000);
	char *l = run_line(&h, "read,4K,4K", 1, "h1", "{}", 0);
	add_text(&db, l, true);
	free(l);
	rep_fleet_match(&db);
	rep_db_finish(&db);
	CHECK(strcmp(db.fleet[0].name, "h1") == 0 && db.fleet[0].has_lines);
	CHECK(strcmp(db.fleet[0].facts, "instanceType=m5.large") == 0);
	CHECK(strcmp(db.fleet[0].state, "interrupted") == 0);
	CHECK(strcmp(db.fleet[1].name, "h2") == 0 && !db.fleet[1].has_lines);
	CHECK(strcmp(db.fleet[1].kind, "auth") == 0 && db.fleet[1].exit_code == 255);
	CHECK(isnan(db.fleet[1].planned));
	/* no hosts array: said and skipped */
	CHECK(!add_text(&db, "{\"tool\": \"iobench-fleet\", \"runId\": \"r2\"}", false));
	CHECK_EQ_U(db.skipped, 1);
	rep_db_free(&db);
}

TEST(table_renders_csv_quotes_and_json_nulls)
{
	static const struct tcol cols[] = {
		{ "name", "name", TC_STR, 0 },
		{ "lat", "lat", TC_NS, 0 },
		{ "n", "n", TC_INT, 0 },
	};
	struct table t;
	table_init(&t, "x", "X", cols, 3);
	table_row(&t, "a,\"b\"", 1500.0, 3.0);
	table_row(&t, "c", NAN, 4.0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	table_print_csv(&t, f);
	fclose(f);
	CHECK(strcmp(buf, "name,lat,n\n\"a,\"\"b\"\"\",1500,3\nc,,4\n") == 0);
	free(buf);
	json_t *j = table_to_json(&t);
	CHECK(json_is_null(json_object_get(json_array_get(j, 1), "lat")));
	CHECK(json_integer_value(json_object_get(json_array_get(j, 1), "n")) == 4);
	json_decref(j);
	f = open_memstream(&buf, &len);
	table_print_text(&t, f);
	fclose(f);
	CHECK(strstr(buf, "1.50us") != NULL);
	free(buf);
	table_free(&t);
}

/* A verify line of `iobench durability verify` (only what the report reads). */
static char *verify_line(const char *host, const char *label, double launch, int acknowledged, int lost)
{
	json_t *root = json_pack("{s:s, s:s, s:s, s:f, s:{s:s}, s:{s:s}, s:{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i,"
				 " s:i, s:i, s:i}}",
				 "tool", "iobench", "mode", "durability", "host", host, "launchTime", launch,
				 "target", "path", "/dev/sdb", "labels", "try", label, "durability", "run",
				 "00000000000000aa", "op", "write4k", "writers", 2, "writersSeen", 2,
				 "writersEnded", 1, "acknowledged", acknowledged, "intact", acknowledged - lost,
				 "newer", 0, "torn", 0, "lost", lost, "neverAcknowledged", 3);
	char *s = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return s;
}

TEST(verify_lines_are_verdicts_filtered_like_cells)
{
	struct rep_db db;
	rep_db_init(&db, NULL, NULL);
	const char *hosts[] = { "db2", "db1", "db1" };
	const char *labels[] = { "a", "b", "a" };
	for (int i = 0; i < 3; i++) {
		char *line = verify_line(hosts[i], labels[i], 100 - i, 16, i == 1 ? 5 : 0);
		CHECK(add_text(&db, line, true));
		free(line);
	}
	/* no counts: skipped with a warning, not a run */
	CHECK(!add_text(&db, "{\"mode\": \"durability\", \"durability\": {\"run\": \"x\"}}", true));
	CHECK_EQ_U(db.nverdicts, 3);
	CHECK_EQ_U(db.runs, 0);
	CHECK_EQ_U(db.ncells, 0);
	CHECK_EQ_U(db.skipped, 1);
	CHECK_EQ_U(db.warnings, 1);

	bool want[SEC_COUNT] = { false };
	want[SEC_DUR_VERIFY] = true;
	struct table tables[SEC_COUNT];
	struct rep_opts o;
	rep_opts_default(&o);
	rep_build_tables(&db, &o, want, tables);
	struct table *t = &tables[SEC_DUR_VERIFY];
	CHECK(strcmp(t->name, "durabilityVerify") == 0);
	CHECK_EQ_U(t->nrows, 3);
	int host = table_col(t, "host"), lab = table_col(t, "labels"), lost = table_col(t, "lost");
	int verdict = table_col(t, "verdict"), cut = table_col(t, "writersCut");
	/* sorted by host, labels */
	CHECK(strcmp(t->vals[0 * t->ncols + host].s, "db1") == 0);
	CHECK(strcmp(t->vals[0 * t->ncols + lab].s, "try=a") == 0);
	CHECK(strcmp(t->vals[1 * t->ncols + lab].s, "try=b") == 0);
	CHECK(strcmp(t->vals[2 * t->ncols + host].s, "db2") == 0);
	CHECK_NEAR(t->vals[1 * t->ncols + lost].v, 5, 0);
	CHECK(strcmp(t->vals[1 * t->ncols + verdict].s, "LOST") == 0);
	CHECK(strcmp(t->vals[0 * t->ncols + verdict].s, "ok") == 0);
	CHECK_NEAR(t->vals[0 * t->ncols + cut].v, 1, 0);
	for (int i = 0; i < SEC_COUNT; i++)
		table_free(&tables[i]);

	rep_db_filter(&db, "op", "write4k");
	CHECK_EQ_U(db.nverdicts, 3);
	rep_db_filter(&db, "try", "a");
	CHECK_EQ_U(db.nverdicts, 2);
	rep_db_filter(&db, "host", "db1");
	CHECK_EQ_U(db.nverdicts, 1);
	rep_db_free(&db);
}

int main(void)
{
	RUN(two_runs_of_a_cell_merge_exactly);
	RUN(thread_count_labels_and_host_split_cells);
	RUN(labels_are_sorted_and_size_labels_become_the_size);
	RUN(only_whole_time_buckets_become_points);
	RUN(foreign_histograms_are_refused_not_merged);
	RUN(kinds_of_signatures);
	RUN(run_out_dump_and_pretty_objects_are_read_from_a_stream);
	RUN(a_manifest_adds_its_hosts_once_per_run_and_learns_which_sent_lines);
	RUN(table_renders_csv_quotes_and_json_nulls);
	RUN(verify_lines_are_verdicts_filtered_like_cells);
	return check_summary("report_read");
}
