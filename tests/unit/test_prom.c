/* test_prom.c - Prometheus page: bounds from the histogram, counts, text format, reading back, files. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "lib/hist_json.h"
#include "results/prom.h"

/* Successful values of h at most ns, counted the slow way. */
static uint64_t at_most(const uint64_t *values, size_t n, uint64_t ns)
{
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += values[i] <= ns;
	return c;
}

/* Lines of text that start with prefix. */
static unsigned lines_starting(const char *text, const char *prefix)
{
	unsigned n = 0;
	size_t len = strlen(prefix);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += strncmp(p, prefix, len) == 0;
	return n;
}

TEST(bounds_are_every_8th_histogram_boundary_from_2us_to_9s)
{
	for (unsigned j = 0; j < PROM_NBOUNDS; j++) {
		unsigned k = 8 + 8 * j;
		uint64_t b = prom_bound_ns(j);
		/* the largest whole ns below boundary k: bucket k-1, the next ns is in bucket k */
		CHECK_EQ_U(hist_bucket_of(b), k - 1);
		CHECK_EQ_U(hist_bucket_of(b + 1), k);
		CHECK_NEAR((double)b, hist_bucket_start(k), 1.0);
	}
	CHECK_EQ_U(8 + 8 * (PROM_NBOUNDS - 1), 168);
	CHECK(hist_bucket_start(168 + 8) > HIST_PIN_MAX); /* no room for another below the last bucket */
	char s[32];
	prom_bound_label(0, s, sizeof(s));
	CHECK(strcmp(s, "0.000002143") == 0);
	prom_bound_label(9, s, sizeof(s));
	CHECK(strcmp(s, "0.0020484") == 0);
	prom_bound_label(PROM_NBOUNDS - 1, s, sizeof(s));
	CHECK(strcmp(s, "8.994377403") == 0);
}

TEST(cumulative_counts_are_exact_at_every_bound)
{
	/* values on both sides of every bound, below 1 us (pinned into bucket 0) and above 10 s */
	uint64_t values[3 * PROM_NBOUNDS + 3];
	size_t n = 0;
	struct hist h;
	hist_init(&h);
	for (unsigned j = 0; j < PROM_NBOUNDS; j++) {
		values[n++] = prom_bound_ns(j);
		values[n++] = prom_bound_ns(j) + 1;
		values[n++] = prom_bound_ns(j) - 7;
	}
	values[n++] = 5;
	values[n++] = 999;
	values[n++] = 25000000000ULL;
	for (size_t i = 0; i < n; i++)
		hist_record(&h, values[i]);
	hist_record_error(&h);
	struct prom_counts c = { 0 };
	prom_counts_add(&c, &h, 4096);
	for (unsigned j = 0; j < PROM_NBOUNDS; j++)
		CHECK_EQ_U(c.le[j], at_most(values, n, prom_bound_ns(j)));
	CHECK_EQ_U(c.le[0], 2 + 2); /* 5 ns and 999 ns, and the first bound's two values */
	CHECK_EQ_U(c.count, n);
	CHECK_EQ_U(c.le[PROM_NBOUNDS - 1], n - 2); /* the last bound's +1 and the 25 s value are above it */
	CHECK_EQ_U(c.sum_ns, h.total_ns);
	CHECK_EQ_U(c.errors, 1);
	CHECK_EQ_U(c.bytes, 4096);
	/* adding again doubles every counter */
	prom_counts_add(&c, &h, 4096);
	CHECK_EQ_U(c.le[5], 2 * at_most(values, n, prom_bound_ns(5)));
	CHECK_EQ_U(c.count, 2 * n);
}

TEST(the_page_is_the_text_format_with_escaped_labels)
{
	struct hist h;
	hist_init(&h);
	hist_record(&h, 3000);       /* 3 us */
	hist_record(&h, 1500000000); /* 1.5 s */
	hist_record_error(&h);
	struct prom_op ops[2] = { { .name = "read4k" }, { .name = "write4k/64" } };
	prom_counts_add(&ops[0].counts, &h, 8192);
	prom_op_set_period(&ops[0], &h);
	struct prom_page page = { .target = "/d/a\\b\"c\nd.dat", .ops = ops, .nops = 2, .up = true, .version = "9.9" };
	char *t = prom_format(&page);
	CHECK(t != NULL);
	if (!t)
		return;
	const char *lab = "{target=\"/d/a\\\\b\\\"c\\nd.dat\",op=\"read4k\"";
	char want[512];
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_bucket%s,le=\"0.000002143\"} 0\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_bucket%s,le=\"0.000004594\"} 1\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_bucket%s,le=\"1.957438581\"} 2\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_bucket%s,le=\"+Inf\"} 2\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_sum%s} 1.500003\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_latency_seconds_count%s} 2\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_operations_total%s} 3\n", lab);
	CHECK(strstr(t, want) != NULL);
	snprintf(want, sizeof(want), "iobench_op_errors_total%s} 1\n", lab);
	CHECK(strstr(t, want) != NULL);
	CHECK(strstr(t, "op=\"write4k/64\",le=\"+Inf\"} 0\n") != NULL);
	/* one HELP and one TYPE per family, before its series */
	CHECK_EQ_U(lines_starting(t, "# HELP "), 8);
	CHECK_EQ_U(lines_starting(t, "# TYPE "), 8);
	CHECK(strstr(t, "# TYPE iobench_op_latency_seconds histogram\n") != NULL);
	CHECK(strstr(t, "# TYPE iobench_op_errors_total counter\n") != NULL);
	CHECK(strstr(t, "# TYPE iobench_op_latency_seconds histogram\n") < strstr(t, "iobench_op_latency_seconds_bucket"));
	CHECK_EQ_U(lines_starting(t, "iobench_op_latency_seconds_bucket{"), 2 * (PROM_NBOUNDS + 1));
	/* the period gauges only for the op that had one */
	CHECK_EQ_U(lines_starting(t, "iobench_op_period_p99_seconds{"), 1);
	CHECK(strstr(t, "iobench_watch_up 1\n") != NULL);
	CHECK(strstr(t, "iobench_build_info{version=\"9.9\"} 1\n") != NULL);
	CHECK(t[strlen(t) - 1] == '\n');
	/* no raw newline inside a label: every line starts with '#' or "iobench_" */
	CHECK_EQ_U(lines_starting(t, "#") + lines_starting(t, "iobench_"), lines_starting(t, ""));
	free(t);
}

TEST(without_a_finished_period_the_gauges_are_left_out)
{
	struct prom_op op = { .name = "read4k" };
	struct prom_page page = { .target = "t", .ops = &op, .nops = 1, .up = false, .version = "1" };
	char *t = prom_format(&page);
	CHECK(t && strstr(t, "period_p50") == NULL && strstr(t, "iobench_watch_up 0\n") != NULL);
	free(t);
}

TEST(a_page_reads_back_to_the_same_counts)
{
	struct hist h;
	hist_init(&h);
	for (uint64_t v = 700; v < 20000000000ULL; v = v * 3 / 2 + 11)
		hist_record(&h, v);
	hist_record_error(&h);
	struct prom_op ops[2] = { { .name = "read4k" }, { .name = "rw16k:70" } };
	prom_counts_add(&ops[0].counts, &h, 123456789);
	prom_counts_add(&ops[1].counts, &h, 1);
	prom_counts_add(&ops[1].counts, &h, 1);
	const char *target = "/x/\"odd\"\\path\n";
	struct prom_page page = { .target = target, .ops = ops, .nops = 2, .up = true, .version = "0" };
	char *t = prom_format(&page);
	CHECK(t != NULL);
	if (!t)
		return;
	struct prom_counts back;
	for (int i = 0; i < 2; i++) {
		CHECK(prom_parse(t, target, ops[i].name, &back) == 0);
		CHECK(memcmp(&back, &ops[i].counts, sizeof(back)) == 0);
	}
	CHECK(prom_parse(t, "/x/other", "read4k", &back) == -ENOENT);
	CHECK(prom_parse(t, target, "write4k", &back) == -ENOENT);
	/* a page without the marker line is not this watch's, whatever it holds */
	CHECK(prom_parse("", target, "read4k", &back) == -EINVAL);
	CHECK(prom_parse(t + strlen(PROM_MARKER), target, "read4k", &back) == -EINVAL);
	/* a count that went down inside the page is not trusted */
	char *bad = strdup(t);
	char *p = strstr(bad, "le=\"+Inf\"} ");
	p[11] = p[11] == '1' ? '2' : '1';
	CHECK(prom_parse(bad, target, "read4k", &back) == -EINVAL);
	CHECK_EQ_U(back.count, 0);
	/* nor one written with other bounds */
	strcpy(bad, t);
	p = strstr(bad, "le=\"0.000002143\"");
	p[13] = '9';
	CHECK(prom_parse(bad, target, "read4k", &back) == -EINVAL);
	free(bad);
	free(t);
}

TEST(counters_never_wrap_and_a_page_past_2_53_is_not_taken_up)
{
	struct hist h;
	hist_init(&h);
	for (int i = 0; i < 5; i++)
		hist_record(&h, 3000);
	struct prom_counts c = { 0 };
	for (unsigned j = 0; j < PROM_NBOUNDS; j++)
		c.le[j] = PROM_COUNT_MAX - 2;
	c.count = PROM_COUNT_MAX - 2;
	struct prom_counts before = c;
	CHECK(prom_counts_add(&c, &h, 0) == -EOVERFLOW);
	CHECK(memcmp(&c, &before, sizeof(c)) == 0);
	c = (struct prom_counts){ .count = UINT64_MAX - 1 };
	CHECK(prom_counts_add(&c, &h, 0) == -EOVERFLOW);
	CHECK_EQ_U(c.count, UINT64_MAX - 1);
	c = (struct prom_counts){ 0 };
	CHECK(prom_counts_add(&c, &h, 0) == 0);
	CHECK_EQ_U(c.count, 5);
	/* a page (with the marker) whose counts are near 2^64 */
	struct prom_op op = { .name = "read4k" };
	for (unsigned j = 0; j < PROM_NBOUNDS; j++)
		op.counts.le[j] = PROM_COUNT_MAX;
	op.counts.count = PROM_COUNT_MAX;
	struct prom_page page = { .target = "t", .ops = &op, .nops = 1, .up = true, .version = "0" };
	char *t = prom_format(&page);
	struct prom_counts back;
	CHECK(t && prom_parse(t, "t", "read4k", &back) == 0);
	free(t);
	op.counts.count = 18446744073709551612ULL;
	for (unsigned j = 0; j < PROM_NBOUNDS; j++)
		op.counts.le[j] = 18446744073709551612ULL;
	t = prom_format(&page);
	CHECK(t && prom_parse(t, "t", "read4k", &back) == -EINVAL);
	CHECK_EQ_U(back.count, 0);
	free(t);
}

TEST(the_larger_of_two_consistent_sets_is_consistent)
{
	struct prom_counts a = { 0 }, b = { 0 };
	struct hist h1, h2;
	hist_init(&h1);
	hist_init(&h2);
	for (int i = 0; i < 50; i++)
		hist_record(&h1, 3000);
	for (int i = 0; i < 20; i++)
		hist_record(&h2, 300000);
	prom_counts_add(&a, &h1, 0);
	prom_counts_add(&b, &h2, 0);
	prom_counts_max(&a, &b);
	CHECK_EQ_U(a.le[0], 0);
	CHECK_EQ_U(a.le[1], 50);
	CHECK_EQ_U(a.count, 50);
	for (unsigned j = 0; j + 1 < PROM_NBOUNDS; j++)
		CHECK(a.le[j] <= a.le[j + 1]);
	CHECK(a.le[PROM_NBOUNDS - 1] <= a.count);
}

static char tmpdir[] = "/tmp/test_prom.XXXXXX";

/* A watch line for target with one op's histogram. */
static char *watch_line(const char *mode, const char *target, const char *op, const struct hist *h)
{
	json_t *j = json_pack("{s:s, s:{s:s}, s:[{s:s, s:o, s:I}]}", "mode", mode, "target", "path", target,
			      "operations", "name", op, "total", hist_to_json(h), "bytes", (json_int_t)(h->count * 4096));
	char *s = json_dumps(j, HIST_JSON_DUMP_FLAGS);
	json_decref(j);
	return s;
}

TEST(counts_start_from_the_watch_lines_of_this_target)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/w.jsonl", tmpdir);
	struct hist a, b;
	hist_init(&a);
	hist_init(&b);
	hist_record(&a, 5000);
	hist_record(&a, 6000);
	hist_record_error(&a);
	for (int i = 0; i < 7; i++)
		hist_record(&b, 80000);
	FILE *f = fopen(path, "w");
	char *l[5] = { watch_line("watch", "/t", "read4k", &a), watch_line("watch", "/t", "read4k", &b),
		       watch_line("watch", "/other", "read4k", &a), watch_line("run", "/t", "read4k", &a),
		       watch_line("watch", "/t", "write4k", &a) };
	for (int i = 0; i < 5; i++) {
		fprintf(f, "%s\n", l[i]);
		free(l[i]);
	}
	fputs("{\"mode\":\"watch\",\"target\":{\"path\":\"/t\"},\"operations\":[{\"na\n", f); /* torn by a crash */
	fclose(f);
	struct prom_op ops[1] = { { .name = "read4k" } };
	CHECK(prom_counts_from_json(path, "/t", ops, 1) == 3); /* the /t watch lines, whatever their ops */
	CHECK_EQ_U(ops[0].counts.count, 9);
	CHECK_EQ_U(ops[0].counts.errors, 1);
	CHECK_EQ_U(ops[0].counts.bytes, 9 * 4096);
	CHECK_EQ_U(ops[0].counts.sum_ns, 11000 + 7 * 80000);
	CHECK_EQ_U(ops[0].counts.le[1], 0); /* 5 and 6 us are above 4.594 us */
	CHECK_EQ_U(ops[0].counts.le[2], 2); /* and below 9.849 us */
	/* the gauges: the last line's period, all at 80 us */
	CHECK(ops[0].have_period);
	CHECK_NEAR(ops[0].p99_ns, 80000, 1);
	struct prom_op none[1] = { { .name = "read4k" } };
	snprintf(path, sizeof(path), "%s/missing.jsonl", tmpdir);
	CHECK(prom_counts_from_json(path, "/t", none, 1) == 0);
	CHECK_EQ_U(none[0].counts.count, 0);
}

TEST(the_file_is_replaced_whole_and_readable_by_others)
{
	char path[256], tmp[256];
	snprintf(path, sizeof(path), "%s/iobench.prom", tmpdir);
	snprintf(tmp, sizeof(tmp), "%s/.iobench.prom.tmp", tmpdir);
	mode_t old = umask(077);
	CHECK(prom_write_file(path, "first 1\n") == 0);
	CHECK(prom_write_file(path, "second 2\n") == 0);
	umask(old);
	char buf[64] = { 0 };
	FILE *f = fopen(path, "r");
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 9);
	if (f)
		fclose(f);
	CHECK(strcmp(buf, "second 2\n") == 0);
	struct stat st;
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	CHECK(access(tmp, F_OK) != 0);
	snprintf(path, sizeof(path), "%s/no/such/dir/iobench.prom", tmpdir);
	CHECK(prom_write_file(path, "x 1\n") == -ENOENT);
}

TEST(a_watch_carries_on_from_the_larger_of_its_json_lines_and_its_last_page)
{
	char json[256], page_path[256];
	snprintf(json, sizeof(json), "%s/x.jsonl", tmpdir);
	snprintf(page_path, sizeof(page_path), "%s/x.prom", tmpdir);
	struct hist in_json, shown_only, now_h;
	hist_init(&in_json);
	hist_init(&shown_only);
	hist_init(&now_h);
	for (int i = 0; i < 4; i++)
		hist_record(&in_json, 3000);
	for (int i = 0; i < 6; i++)
		hist_record(&shown_only, 50000); /* a period the JSON lines lost to a hard kill */
	for (int i = 0; i < 3; i++)
		hist_record(&now_h, 7000);
	FILE *f = fopen(json, "w");
	char *l = watch_line("watch", "/t", "read4k", &in_json);
	fprintf(f, "%s\n", l);
	free(l);
	fclose(f);
	/* the last page: the JSON line's probes plus the lost period's */
	struct prom_op shown = { .name = "read4k" };
	prom_counts_add(&shown.counts, &in_json, 4 * 4096);
	prom_counts_add(&shown.counts, &shown_only, 6 * 4096);
	struct prom_page page = { .target = "/t", .ops = &shown, .nops = 1, .up = true, .version = "0" };
	char *text = prom_format(&page);
	CHECK(text && prom_write_file(page_path, text) == 0);
	free(text);

	struct run_op ops[2] = { 0 };
	strcpy(ops[0].spec.name, "read4k");
	strcpy(ops[1].spec.name, "write4k");
	struct prom_export x;
	CHECK(prom_export_start(&x, page_path, "/t", ops, 2, json) == 0);
	CHECK_EQ_U(x.ops[0].counts.count, 10);
	CHECK_EQ_U(x.ops[0].counts.le[1], 4);
	CHECK_EQ_U(x.ops[0].counts.le[5], 10);
	CHECK_EQ_U(x.ops[1].counts.count, 0);
	CHECK(x.ops[0].have_period && !x.ops[1].have_period);
	/* the unfinished period shows in the page, and joins the counters when it ends */
	struct op_result now[2] = { { .total = now_h, .bytes = 3 * 4096 }, { .bytes = 0 } };
	hist_init(&now[1].total);
	CHECK(prom_export_write(&x, now, true) == 0);
	struct prom_counts back;
	f = fopen(page_path, "r");
	char buf[16384] = { 0 };
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) > 0);
	if (f)
		fclose(f);
	CHECK(prom_parse(buf, "/t", "read4k", &back) == 0);
	CHECK_EQ_U(back.count, 13);
	CHECK_EQ_U(back.bytes, 13 * 4096);
	CHECK_EQ_U(x.ops[0].counts.count, 10);
	prom_export_period(&x, now);
	CHECK_EQ_U(x.ops[0].counts.count, 13);
	CHECK_NEAR(x.ops[0].p50_ns, 7000, 1);
	prom_export_free(&x);
	/* a missing directory is the write's error; start itself writes nothing */
	snprintf(page_path, sizeof(page_path), "%s/none/x.prom", tmpdir);
	CHECK(prom_export_start(&x, page_path, "/t", ops, 2, NULL) == 0);
	CHECK(prom_export_write(&x, now, true) == -ENOENT);
	prom_export_free(&x);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(bounds_are_every_8th_histogram_boundary_from_2us_to_9s);
	RUN(cumulative_counts_are_exact_at_every_bound);
	RUN(the_page_is_the_text_format_with_escaped_labels);
	RUN(without_a_finished_period_the_gauges_are_left_out);
	RUN(a_page_reads_back_to_the_same_counts);
	RUN(counters_never_wrap_and_a_page_past_2_53_is_not_taken_up);
	RUN(the_larger_of_two_consistent_sets_is_consistent);
	RUN(counts_start_from_the_watch_lines_of_this_target);
	RUN(the_file_is_replaced_whole_and_readable_by_others);
	RUN(a_watch_carries_on_from_the_larger_of_its_json_lines_and_its_last_page);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return check_summary("test_prom");
}
