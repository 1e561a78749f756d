/*
 * SPDX-License-Identifier: Apache-2.0
 * report/sections/devices.c - the devices section: each member of an array (md, dm)
 * under a run's target against its siblings, from the "devices" figures the
 * runs recorded (iostat -x's, per run and per time bucket).
 *
 * md splits every request across its members, so one slow member sets the
 * array's pace (the bonnie++ EBS RAID study's sdi1). A member is slow when
 * its await is at least twice its siblings' median and it was busy (util at
 * least 50%); the row says in how many time buckets it was, and what the
 * array's await would be at its siblings' speed. Runs of one host, config,
 * ops, threads and size merge (counts and busy time add up; awaits weight by
 * completions); hosts are never merged: a slow member is a host's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/sections/section.h"

#define SLOW_FACTOR 2.0 /* await against the siblings' median */
#define BUSY_UTIL 0.5   /* and busy at least this fraction of the time */

static const struct tcol rep_devices_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "op", "op", TC_STR, 0 },
	{ "threads", "threads", TC_NUM, 0 },
	{ "size", "size", TC_SIZE, 0 },
	{ "array", "array", TC_STR, 0 },
	{ "member", "member", TC_STR, 0 },
	{ "serial", NULL, TC_STR, 0 },
	{ "volume", "volume", TC_STR, 0 },
	{ "runs", NULL, TC_INT, 0 },
	{ "awaitMs", "await ms", TC_NUM, 2 },
	{ "readAwaitMs", NULL, TC_NUM, 3 },
	{ "writeAwaitMs", NULL, TC_NUM, 3 },
	{ "utilPct", "util", TC_NUM, 1 },
	{ "siblingsAwaitMs", "siblings ms", TC_NUM, 2 },
	{ "vsSiblings", "vs siblings", TC_NUM, 2 },
	{ "slow", "slow", TC_BOOL, 0 },
	{ "slowBuckets", NULL, TC_INT, 0 },
	{ "buckets", NULL, TC_INT, 0 },
	{ NULL, "slow buckets", TC_STR, 0 },
	{ "arrayAwaitMs", NULL, TC_NUM, 3 },
	{ "arrayAwaitAtSiblingsMs", NULL, TC_NUM, 3 },
	{ "finding", "finding", TC_STR, 0 },
};
/* A member's figures summed over the runs of a group. */
struct member {
	const char *name, *serial;
	double reads, writes, r_ticks, w_ticks, busy, seconds;
	size_t slow_buckets, buckets;
	double first_slow, last_slow; /* seconds from the group's first run's start */
};

static double nz(double v)
{
	return isfinite(v) ? v : 0;
}

static double await_of(const struct member *m)
{
	double ios = m->reads + m->writes;
	return ios > 0 ? (m->r_ticks + m->w_ticks) / ios : NAN;
}

/* A completed-weighted await of one bucket or total: NAN when nothing completed. */
static double stat_await(const struct rep_dev_stat *s)
{
	double r = nz(s->reads), w = nz(s->writes);
	return r + w > 0 ? (r * nz(s->r_await) + w * nz(s->w_await)) / (r + w) : NAN;
}

static bool same_run_kind(const struct rep_devrun *a, const struct rep_devrun *b)
{
	return a->cfg == b->cfg && a->threads == b->threads && a->size == b->size && strcmp(a->host, b->host) == 0 &&
	       strcmp(a->ops, b->ops) == 0;
}

static int cmp_devrun(const void *x, const void *y)
{
	const struct rep_devrun *a = *(const struct rep_devrun *const *)x, *b = *(const struct rep_devrun *const *)y;
	int c = strverscmp(a->host, b->host);
	if (!c)
		c = strcmp(a->cfg->name, b->cfg->name);
	if (!c)
		c = strcmp(a->ops, b->ops);
	if (!c)
		c = (a->threads > b->threads) - (a->threads < b->threads);
	if (!c)
		c = (a->size > b->size) - (a->size < b->size);
	if (!c)
		c = (a->launch > b->launch) - (a->launch < b->launch);
	return c;
}

/* The serial as EC2 names the volume: "vol0123abcd" is vol-0123abcd; else none. */
static void volume_of(const char *serial, char *buf, size_t len)
{
	buf[0] = '\0';
	if (serial && strncmp(serial, "vol", 3) == 0 && serial[3] && serial[3] != '-')
		snprintf(buf, len, "vol-%s", serial + 3);
	else if (serial && strncmp(serial, "vol-", 4) == 0)
		snprintf(buf, len, "%s", serial);
}

/* Whether a run's host and config still have a cell (--only left them in). */
static bool kept(const struct rep_db *db, const struct rep_devrun *r)
{
	for (size_t i = 0; i < db->ncells; i++)
		if (db->cells[i]->cfg == r->cfg && db->cells[i]->threads == r->threads && strcmp(db->cells[i]->host, r->host) == 0)
			return true;
	return false;
}

/* The arrays of runs g[0..n) (one group): for each, its members against each other, a row each. */
static void group_rows(struct table *t, const struct rep_devrun *const *g, size_t n)
{
	const struct rep_devrun *first = g[0];
	/* the arrays: devices some member names as the one it is under */
	for (size_t a = 0; a < first->ndevs; a++) {
		const struct rep_dev *arr = &first->devs[a];
		if (strcmp(arr->type, "md") != 0 && strcmp(arr->type, "dm") != 0)
			continue;
		struct member m[64];
		size_t nm = 0;
		for (size_t k = 0; k < first->ndevs && nm < 64; k++)
			if (strcmp(first->devs[k].role, "member") == 0 && strcmp(first->devs[k].above, arr->name) == 0)
				m[nm++] = (struct member){ .name = first->devs[k].name, .serial = first->devs[k].serial,
							   .first_slow = NAN, .last_slow = NAN };
		if (nm < 2)
			continue;
		double arr_ios = 0, arr_ticks = 0;
		for (size_t r = 0; r < n; r++) {
			const struct rep_devrun *run = g[r];
			double offset = run->launch > 0 && first->launch > 0 ? run->launch - first->launch : 0;
			size_t nb = SIZE_MAX;
			for (size_t i = 0; i < nm; i++) {
				const struct rep_dev *d = NULL;
				for (size_t k = 0; k < run->ndevs && !d; k++)
					if (strcmp(run->devs[k].name, m[i].name) == 0)
						d = &run->devs[k];
				if (!d) {
					nb = 0;
					continue;
				}
				m[i].reads += nz(d->total.reads);
				m[i].writes += nz(d->total.writes);
				m[i].r_ticks += nz(d->total.reads) * nz(d->total.r_await);
				m[i].w_ticks += nz(d->total.writes) * nz(d->total.w_await);
				m[i].busy += nz(d->total.util) * nz(d->total.seconds);
				m[i].seconds += nz(d->total.seconds);
				nb = nb < d->nbuckets ? nb : d->nbuckets;
			}
			/* per bucket: each member against its siblings' median then */
			for (size_t b = 0; nb != SIZE_MAX && b < nb; b++) {
				double aw[64], others[64];
				for (size_t i = 0; i < nm; i++) {
					const struct rep_dev *d = NULL;
					for (size_t k = 0; k < run->ndevs && !d; k++)
						if (strcmp(run->devs[k].name, m[i].name) == 0)
							d = &run->devs[k];
					aw[i] = stat_await(&d->buckets[b]);
				}
				for (size_t i = 0; i < nm; i++) {
					size_t no = 0;
					for (size_t j = 0; j < nm; j++)
						if (j != i && isfinite(aw[j]))
							others[no++] = aw[j];
					if (!isfinite(aw[i]) || no == 0)
						continue;
					m[i].buckets++;
					double med = stats_median(others, no);
					if (med > 0 && aw[i] >= SLOW_FACTOR * med) {
						double at = offset + (double)b * (run->bucket > 0 ? run->bucket : 0);
						m[i].slow_buckets++;
						if (isnan(m[i].first_slow))
							m[i].first_slow = at;
						m[i].last_slow = at + (run->bucket > 0 ? run->bucket : 0);
					}
				}
			}
		}
		for (size_t i = 0; i < nm; i++) {
			arr_ios += m[i].reads + m[i].writes;
			arr_ticks += m[i].r_ticks + m[i].w_ticks;
		}
		/* the array's await: its members', weighted by what each completed */
		double arr_await = arr_ios > 0 ? arr_ticks / arr_ios : NAN;
		for (size_t i = 0; i < nm; i++) {
			double others[64];
			size_t no = 0;
			for (size_t j = 0; j < nm; j++)
				if (j != i && isfinite(await_of(&m[j])))
					others[no++] = await_of(&m[j]);
			double aw = await_of(&m[i]), sib = no ? stats_median(others, no) : NAN;
			double util = m[i].seconds > 0 ? m[i].busy / m[i].seconds : NAN;
			double vs = sib > 0 ? aw / sib : NAN;
			bool slow = vs >= SLOW_FACTOR && util >= BUSY_UTIL;
			double r_aw = m[i].reads > 0 ? m[i].r_ticks / m[i].reads : NAN;
			double w_aw = m[i].writes > 0 ? m[i].w_ticks / m[i].writes : NAN;
			char volume[80], when[96] = "", finding[400] = "";
			volume_of(m[i].serial, volume, sizeof(volume));
			if (m[i].buckets)
				snprintf(when, sizeof(when), m[i].slow_buckets ? "%zu of %zu (%.0f-%.0f s)" : "%zu of %zu",
					 m[i].slow_buckets, m[i].buckets, m[i].first_slow, m[i].last_slow);
			if (slow)
				snprintf(finding, sizeof(finding),
					 "slow member: await %.1fx its siblings' (%.2f ms vs %.2f), busy %.0f%%; at their speed "
					 "the array's await would be %.2f ms, not %.2f",
					 vs, aw, sib, util * 100, sib, arr_await);
			table_row(t, first->host, first->cfg->name[0] ? first->cfg->name : NULL, first->cfg->labels, first->ops,
				  first->threads, (double)first->size, arr->name, m[i].name,
				  m[i].serial && m[i].serial[0] ? m[i].serial : NULL, volume[0] ? volume : NULL, (double)n, aw,
				  r_aw, w_aw, util * 100, sib, vs, slow ? 1.0 : 0.0, (double)m[i].slow_buckets,
				  (double)m[i].buckets, when[0] ? when : NULL, arr_await, sib, finding[0] ? finding : NULL);
		}
	}
}

static void rep_build_devices(struct table *tables, const struct rep_ctx *ctx)
{
	const struct rep_db *db = ctx->db;
	const struct rep_devrun **runs = rep_calloc(db->ndevruns + 1, sizeof(*runs));
	size_t n = 0;
	for (size_t i = 0; i < db->ndevruns; i++)
		if (kept(db, &db->devruns[i]))
			runs[n++] = &db->devruns[i];
	qsort(runs, n, sizeof(*runs), cmp_devrun);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && same_run_kind(runs[i], runs[j]))
			j++;
		group_rows(&tables[SEC_DEVICES], runs + i, j - i);
		i = j;
	}
	free(runs);
}

const struct rep_section_def rep_sec_devices = {
	.name = "devices",
	.title = "Array members against their siblings (iostat -x figures the runs recorded)",
	.help = "per md/dm array under a run's target, each member's await and util\n"
		"against its siblings'; slow: await >= 2x the siblings' median and\n"
		"busy >= 50%, with the time buckets it was slow in and the array's\n"
		"await at the siblings' speed; per host (a slow member is its host's)",
	SECTION_COLS(rep_devices_cols),
	.build = rep_build_devices,
	.plot = true,
};
