/* test_merge.c - merging synthetic workers into one op's result: buckets, stragglers, errors, mixed ops. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure/merge.h"

#define NB 4 /* 3 nominal time buckets and the extra one for late completions */

static struct worker *worker_with(bool mixed)
{
	struct worker *w = aligned_alloc(64, sizeof(*w));
	memset(w, 0, sizeof(*w));
	w->nbuckets = NB;
	w->buckets = calloc(NB, sizeof(*w->buckets));
	for (unsigned b = 0; b < NB; b++)
		hist_init(&w->buckets[b]);
	if (mixed) {
		w->wbuckets = calloc(NB, sizeof(*w->wbuckets));
		for (unsigned b = 0; b < NB; b++)
			hist_init(&w->wbuckets[b]);
	}
	hist_init(&w->service);
	return w;
}

static void worker_drop(struct worker *w)
{
	free(w->buckets);
	free(w->wbuckets);
	free(w);
}

/* Merge ws into a fresh result; free it with result_drop(). */
static struct op_result *merged(enum op_kind kind, struct worker **ws, unsigned n)
{
	struct op_spec spec = { .kind = kind };
	struct op_result *o = calloc(1, sizeof(*o));
	CHECK_EQ_U(merge_op(o, &spec, ws, n, NB), 0);
	return o;
}

static void result_drop(struct op_result *o)
{
	struct run_result res = { .ops = o, .nops = 1 };
	run_result_free(&res);
}

TEST(bucket_b_of_the_op_is_bucket_b_of_every_thread_and_they_sum_to_the_total)
{
	struct worker *ws[2] = { worker_with(false), worker_with(false) };
	for (int i = 0; i < 3; i++)
		hist_record(&ws[0]->buckets[0], 1000);
	hist_record(&ws[0]->buckets[1], 5000);
	hist_record(&ws[1]->buckets[0], 2000);
	hist_record(&ws[1]->buckets[2], 9000);
	struct op_result *o = merged(OP_READ, ws, 2);
	CHECK_EQ_U(o->buckets[0].count, 4);
	CHECK_EQ_U(o->buckets[1].count, 1);
	CHECK_EQ_U(o->buckets[2].count, 1);
	struct hist want0;
	hist_init(&want0);
	hist_merge(&want0, &ws[0]->buckets[0]);
	hist_merge(&want0, &ws[1]->buckets[0]);
	CHECK(hist_equal(&o->buckets[0], &want0));
	CHECK_EQ_U(o->total.count, 6);
	CHECK_EQ_U(o->total.total_ns, 3 * 1000 + 5000 + 2000 + 9000);
	CHECK_EQ_U(o->total.min_ns, 1000);
	CHECK_EQ_U(o->total.max_ns, 9000);
	struct hist sum;
	hist_init(&sum);
	for (unsigned b = 0; b < o->nbuckets; b++)
		hist_merge(&sum, &o->buckets[b]);
	CHECK(hist_equal(&sum, &o->total));
	/* nothing finished after the nominal end: the extra bucket is dropped */
	CHECK_EQ_U(o->nbuckets, 3);
	result_drop(o);
	worker_drop(ws[0]);
	worker_drop(ws[1]);
}

TEST(the_straggler_bucket_stays_only_when_operations_landed_in_it)
{
	struct worker *w = worker_with(false);
	hist_record(&w->buckets[0], 3000);
	hist_record(&w->buckets[NB - 1], 4000);
	struct op_result *o = merged(OP_READ, &w, 1);
	CHECK_EQ_U(o->nbuckets, NB);
	CHECK_EQ_U(o->buckets[NB - 1].count, 1);
	CHECK_EQ_U(o->buckets[1].count, 0); /* an empty bucket inside the run stays */
	result_drop(o);

	/* interrupted in the first bucket: no empty buckets after it */
	w->buckets[NB - 1].count = 0;
	hist_init(&w->buckets[NB - 1]);
	o = merged(OP_READ, &w, 1);
	CHECK_EQ_U(o->nbuckets, 1);
	result_drop(o);

	/* a bucket holding only failed operations is used */
	hist_record_error(&w->buckets[2]);
	o = merged(OP_READ, &w, 1);
	CHECK_EQ_U(o->nbuckets, 3);
	CHECK_EQ_U(o->total.errors, 1);
	result_drop(o);
	worker_drop(w);
}

TEST(errors_add_up_and_the_first_error_is_the_first_thread_s)
{
	struct worker *ws[3] = { worker_with(false), worker_with(false), worker_with(false) };
	hist_record(&ws[0]->buckets[0], 1500);
	hist_record_error(&ws[1]->buckets[0]);
	hist_record_error(&ws[1]->buckets[1]);
	ws[1]->first_errno = EIO;
	ws[1]->first_err_offset = 8192;
	hist_record_error(&ws[2]->buckets[0]);
	ws[2]->first_errno = ENOSPC;
	ws[2]->first_err_offset = 4096;
	struct op_result *o = merged(OP_WRITE_FLUSH, ws, 3);
	CHECK_EQ_U(o->total.count, 1);
	CHECK_EQ_U(o->total.errors, 3);
	CHECK_EQ_U(o->buckets[0].errors, 2);
	CHECK_EQ_U(o->first_errno, EIO);
	CHECK_EQ_U(o->first_err_offset, 8192);
	result_drop(o);
	for (int i = 0; i < 3; i++)
		worker_drop(ws[i]);
}

TEST(a_mixed_op_holds_reads_and_writes_and_keeps_each_apart)
{
	struct worker *ws[2] = { worker_with(true), worker_with(true) };
	hist_record(&ws[0]->buckets[0], 2000);  /* reads */
	hist_record(&ws[0]->buckets[1], 2200);
	hist_record(&ws[0]->wbuckets[0], 50000); /* writes */
	hist_record(&ws[1]->buckets[1], 2100);
	hist_record(&ws[1]->wbuckets[1], 60000);
	hist_record(&ws[1]->wbuckets[1], 70000);
	ws[0]->bytes = 3 * 16384;
	ws[0]->rbytes = 2 * 16384;
	ws[1]->bytes = 3 * 16384;
	ws[1]->rbytes = 1 * 16384;
	struct op_result *o = merged(OP_MIXED, ws, 2);
	CHECK_EQ_U(o->total.count, 6);
	CHECK_EQ_U(o->buckets[0].count, 2);
	CHECK_EQ_U(o->buckets[1].count, 4);
	CHECK_EQ_U(o->kind_total[0].count, 3);
	CHECK_EQ_U(o->kind_total[1].count, 3);
	CHECK_EQ_U(o->kind_total[0].max_ns, 2200);
	CHECK_EQ_U(o->kind_total[1].min_ns, 50000);
	CHECK_EQ_U(o->kind_buckets[0][1].count, 2);
	CHECK_EQ_U(o->kind_buckets[1][1].count, 2);
	CHECK_EQ_U(o->kind_buckets[1][0].count, 1);
	CHECK_EQ_U(o->kind_bytes[0], 3 * 16384);
	CHECK_EQ_U(o->kind_bytes[1], 3 * 16384);
	CHECK_EQ_U(o->bytes, 6 * 16384);
	struct hist both;
	hist_init(&both);
	hist_merge(&both, &o->kind_total[0]);
	hist_merge(&both, &o->kind_total[1]);
	CHECK(hist_equal(&both, &o->total));
	CHECK_EQ_U(o->nbuckets, 2);
	result_drop(o);
	worker_drop(ws[0]);
	worker_drop(ws[1]);
}

TEST(counters_add_up_depth_is_the_largest_and_abandoned_threads_are_left_out)
{
	struct worker *ws[3] = { worker_with(false), NULL, worker_with(false) };
	struct worker *stuck = worker_with(false);
	ws[1] = NULL; /* stuck in I/O: abandoned, its numbers unread */
	hist_record(&stuck->buckets[0], 1000);
	stuck->cpu_user_ns = 1000000;
	ws[0]->bytes = 4096;
	ws[0]->cpu_user_ns = 300;
	ws[0]->cpu_sys_ns = 5000;
	ws[0]->fdatasyncs = 3;
	ws[0]->eng.sync_fallbacks = 1;
	ws[0]->eng.max_inflight = 4;
	ws[0]->late_starts = 2;
	hist_record(&ws[0]->service, 7000);
	hist_record(&ws[0]->buckets[0], 8000);
	ws[2]->bytes = 8192;
	ws[2]->cpu_user_ns = 200;
	ws[2]->cpu_sys_ns = 7000;
	ws[2]->fdatasyncs = 5;
	ws[2]->eng.max_inflight = 8;
	ws[2]->late_starts = 1;
	hist_record(&ws[2]->service, 9000);
	hist_record(&ws[2]->buckets[0], 10000);
	struct op_result *o = merged(OP_WRITE_N, ws, 3);
	CHECK_EQ_U(o->bytes, 12288);
	CHECK_EQ_U(o->fdatasyncs, 8);
	CHECK_EQ_U(o->sync_fallbacks, 1);
	CHECK_EQ_U(o->max_inflight, 8);
	CHECK_EQ_U(o->late_starts, 3);
	CHECK_EQ_U(o->cpu_user_ns, 500); /* the abandoned thread's CPU time is left out too */
	CHECK_EQ_U(o->cpu_sys_ns, 12000);
	CHECK_EQ_U(o->service.count, 2);
	CHECK_EQ_U(o->total.count, 2);
	CHECK_EQ_U(o->kind_buckets[0] == NULL, 1); /* not a mixed op */
	result_drop(o);
	worker_drop(ws[0]);
	worker_drop(ws[2]);
	worker_drop(stuck);
}

int main(void)
{
	RUN(bucket_b_of_the_op_is_bucket_b_of_every_thread_and_they_sum_to_the_total);
	RUN(the_straggler_bucket_stays_only_when_operations_landed_in_it);
	RUN(errors_add_up_and_the_first_error_is_the_first_thread_s);
	RUN(a_mixed_op_holds_reads_and_writes_and_keeps_each_apart);
	RUN(counters_add_up_depth_is_the_largest_and_abandoned_threads_are_left_out);
	return check_summary("test_merge");
}
