/* merge.c - the threads' histograms and counters into one op's result, exactly. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "measure/merge.h"

#include <errno.h>
#include <stdlib.h>

/* nbuckets empty histograms, or NULL. */
static struct hist *new_buckets(unsigned nbuckets)
{
	struct hist *h = calloc(nbuckets, sizeof(*h));
	for (unsigned b = 0; h && b < nbuckets; b++)
		hist_init(&h[b]);
	return h;
}

/* One worker's buckets into the op's: a mixed op's reads (buckets) and writes (wbuckets) are both the op. */
static void add_buckets(struct op_result *o, const struct worker *w, bool mixed)
{
	for (unsigned b = 0; b < o->nbuckets; b++) {
		hist_merge(&o->buckets[b], &w->buckets[b]);
		hist_merge(&o->total, &w->buckets[b]);
		if (!mixed)
			continue;
		hist_merge(&o->buckets[b], &w->wbuckets[b]);
		hist_merge(&o->total, &w->wbuckets[b]);
		hist_merge(&o->kind_buckets[0][b], &w->buckets[b]);
		hist_merge(&o->kind_buckets[1][b], &w->wbuckets[b]);
		hist_merge(&o->kind_total[0], &w->buckets[b]);
		hist_merge(&o->kind_total[1], &w->wbuckets[b]);
	}
}

/* One worker's counters into the op's. */
static void add_counters(struct op_result *o, const struct worker *w)
{
	o->kind_bytes[0] += w->rbytes;
	o->kind_bytes[1] += w->bytes - w->rbytes;
	o->bytes += w->bytes;
	o->fdatasyncs += w->fdatasyncs;
	hist_merge(&o->write_only, &w->write_only);
	hist_merge(&o->sync, &w->sync);
	o->sync_fallbacks += w->eng.sync_fallbacks;
	if (w->eng.max_inflight > o->max_inflight)
		o->max_inflight = w->eng.max_inflight;
	hist_merge(&o->service, &w->service);
	o->late_starts += w->late_starts;
	o->cpu_user_ns += w->cpu_user_ns;
	o->cpu_sys_ns += w->cpu_sys_ns;
	if (!o->first_errno && w->first_errno) {
		o->first_errno = w->first_errno;
		o->first_err_offset = w->first_err_offset;
	}
}

int merge_op(struct op_result *o, const struct op_spec *spec, struct worker *const *ws, unsigned nthreads,
	     unsigned nbuckets)
{
	bool mixed = spec->kind == OP_MIXED;
	hist_init(&o->total);
	hist_init(&o->service);
	hist_init(&o->write_only);
	hist_init(&o->sync);
	o->nbuckets = nbuckets;
	o->buckets = new_buckets(nbuckets);
	for (int k = 0; mixed && k < 2; k++) {
		hist_init(&o->kind_total[k]);
		o->kind_buckets[k] = new_buckets(nbuckets);
	}
	if (!o->buckets || (mixed && (!o->kind_buckets[0] || !o->kind_buckets[1]))) {
		o->nbuckets = 0;
		return -ENOMEM;
	}
	for (unsigned j = 0; j < nthreads; j++) {
		if (!ws[j])
			continue;
		add_buckets(o, ws[j], mixed && ws[j]->wbuckets);
		add_counters(o, ws[j]);
	}
	/*
	 * Like the 2012 tool, keep buckets up to the last one used: the extra
	 * one only when operations finished after the end, and none past an
	 * interruption.
	 */
	while (o->nbuckets > 1 && o->buckets[o->nbuckets - 1].count == 0 &&
	       o->buckets[o->nbuckets - 1].errors == 0)
		o->nbuckets--;
	return 0;
}
