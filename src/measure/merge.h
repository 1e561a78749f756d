/*
 * SPDX-License-Identifier: Apache-2.0
 * merge.h - one operation's result from the threads that ran it.
 *
 * Each worker counted into its own histograms, one per time bucket (and,
 * for a mixed op, reads and writes apart); after the threads are joined
 * they merge exactly, bucket by bucket, into the op's struct op_result.
 * Pure data: no I/O, no locks; call it only when the workers have stopped.
 */
#ifndef IOBENCH_MEASURE_MERGE_H
#define IOBENCH_MEASURE_MERGE_H

#include "lib/opspec.h"
#include "measure/worker.h"
#include "results/result.h"

/*
 * Fill o (zeroed by the caller) from ws[0..nthreads), which ran an op of
 * kind spec; a NULL entry is a thread that was abandoned (stuck in I/O):
 * its numbers are left out. Every worker has nbuckets time buckets; bucket
 * b of the op is the sum of the workers' bucket b, and the total is the sum
 * of all buckets. Like the 2012 tool, trailing buckets with no operation
 * (and no error) are dropped, down to one: the extra last bucket stays only
 * when operations finished after the nominal end. A mixed op's buckets hold
 * reads and writes; kind_total/kind_buckets/kind_bytes [0] reads, [1] writes.
 * The first error is the first thread's (in ws order) that had one. CPU
 * times and counters add up.
 * Returns 0, or -ENOMEM (o then holds what was allocated; free it with
 * run_result_free() as usual).
 */
int merge_op(struct op_result *o, const struct op_spec *spec, struct worker *const *ws, unsigned nthreads,
	     unsigned nbuckets);

#endif
