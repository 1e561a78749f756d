/* report/sections/flush.c - the durability section: flushed writes faster than the evidence allows. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hist.h"
#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/store/config.h"

static const struct tcol durability_cols[] = {
	OP_COLS,
	{ "threads", "threads", TC_NUM, 0 },
	CONFIG_COLS,
	{ "size", "size", TC_SIZE, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "writeP50Ns", "write p50", TC_NS, 0 },
	{ "readSignature", NULL, TC_STR, 0 },
	{ "readOp", "read op", TC_STR, 0 },
	{ "readP50Ns", "read p50", TC_NS, 0 },
	{ "floorNs", "floor", TC_NS, 0 },
	{ "suspicious", "suspicious", TC_BOOL, 0 },
	{ "evidence", "evidence", TC_STR, 0 },
	{ "verdict", "verdict", TC_STR, 0 },
};

/* Reads are looked up by target (host or fleet, labels, size) and block size. */
static int cmp_target(const struct rep_group *a, const struct rep_group *b)
{
	const struct rep_cell *x = a->cells[0], *y = b->cells[0];
	int r = (a->n > b->n) - (a->n < b->n);
	if (!r && a->n == 1)
		r = strcmp(x->host, y->host);
	if (!r)
		r = rep_config_cmp(x->cfg, y->cfg);
	if (!r)
		r = (x->size > y->size) - (x->size < y->size);
	if (!r)
		r = (x->block > y->block) - (x->block < y->block);
	return r;
}

static int cmp_group_ptr(const void *a, const void *b)
{
	return cmp_target(*(const struct rep_group *const *)a, *(const struct rep_group *const *)b);
}

/*
 * A flushed write on an EBS volume waits for a network round trip to the
 * replicas: none returns in under this (single-digit hundreds of us in
 * practice). EBS is known from the provision facts, or from the device's
 * model where Nitro's NVMe names it; never from the rotational flag (virtio
 * and loop devices say 1 whatever is behind them).
 */
#define DUR_EBS_FLOOR_NS 100e3

/* The model an EBS volume reports on Nitro (NVMe); Xen's virtio and blkfront say none. */
#define DUR_EBS_MODEL "Amazon Elastic Block Store"

/* A flush that returns in under this share of a read of the same target wrote to a cache, not the media. */
#define DUR_READ_SHARE 0.25

/*
 * A read is evidence against a write only of the same host, and run within
 * this many seconds of it: another host's read, or one a day later, says
 * nothing of what this write's device did.
 */
#define DUR_READ_WINDOW_S 3600

/* The EBS volume type of a configuration's provision facts; false when it names none. */
static bool dur_ebs_type(const struct rep_config *cfg, char *buf, size_t len)
{
	static const char *const ebs[] = { "standard", "gp2", "gp3", "io1", "io2", "st1", "sc1" };
	if (!rep_label_value(cfg->facts, "volumeType", buf, len))
		return false;
	for (size_t i = 0; i < sizeof(ebs) / sizeof(ebs[0]); i++)
		if (strcmp(buf, ebs[i]) == 0)
			return true;
	return false;
}

static void build_durability(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_DURABILITY];
	const struct rep_group *g = ctx->view;
	size_t ng = ctx->nv;
	const struct rep_opts *o = ctx->o;
	char hb[64], verdict[600], evidence[400];
	const struct rep_group **reads = rep_calloc(ng, sizeof(*reads));
	size_t nr = 0;
	for (size_t i = 0; i < ng; i++)
		if (g[i].cells[0]->kind == REP_READ)
			reads[nr++] = &g[i];
	qsort(reads, nr, sizeof(*reads), cmp_group_ptr);
	for (size_t i = 0; i < ng; i++) {
		const struct rep_cell *w = g[i].cells[0];
		if (w->kind != REP_WRITE_FLUSH)
			continue;
		/* The read of the same target and block size: same threads, else the nearest count. */
		size_t lo = 0, hi = nr;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (cmp_target(reads[mid], &g[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		const struct rep_group *r = NULL;
		for (size_t j = lo; j < nr && cmp_target(reads[j], &g[i]) == 0; j++)
			if (!r || fabs(reads[j]->cells[0]->threads - w->threads) <
					  fabs(r->cells[0]->threads - w->threads))
				r = reads[j];
		/*
		 * Host by host: each write against its own host's read, run near
		 * it in time (a fleet merge mixes hosts and times: another host's
		 * outlier, or a read of a day later, says nothing of this write).
		 */
		size_t pairs = 0, fired = 0;
		bool other_time = false;
		const struct rep_cell *shown_w = NULL, *shown_r = NULL;
		for (size_t k = 0; r && k < g[i].n; k++) {
			const struct rep_cell *wc = g[i].cells[k], *rc = NULL;
			for (size_t q = 0; q < r->n && !rc; q++)
				if (strcmp(r->cells[q]->host, wc->host) == 0)
					rc = r->cells[q];
			if (!rc)
				continue;
			if (rc->launch > 0 && wc->launch > 0 && fabs(rc->launch - wc->launch) > DUR_READ_WINDOW_S) {
				other_time = true;
				continue;
			}
			pairs++;
			bool f = hist_percentile(&wc->total, 0.5) < hist_percentile(&rc->total, 0.5) * DUR_READ_SHARE;
			fired += f;
			if (!shown_w || (f && !(hist_percentile(&shown_w->total, 0.5) <
						hist_percentile(&shown_r->total, 0.5) * DUR_READ_SHARE))) {
				shown_w = wc;
				shown_r = rc;
			}
		}
		if (!pairs)
			r = NULL;
		double wp = hist_percentile(&g[i].total, 0.5);
		double rp = r ? hist_percentile(&r->total, 0.5) : NAN;
		char vtype[64], fb[32], wb[32], why[600] = "", checked[200] = "";
		bool by_facts = dur_ebs_type(w->cfg, vtype, sizeof(vtype));
		bool by_model = !by_facts && strcmp(w->model, DUR_EBS_MODEL) == 0;
		bool ebs = by_facts || by_model;
		double floor_ns = ebs ? fmax(o->floor_ns, DUR_EBS_FLOOR_NS) : o->floor_ns;
		units_format_ns(wb, sizeof(wb), wp);
		evidence[0] = '\0';
		/* each piece of evidence that fires, said with its figures; what was checked when none does */
		if (ebs) {
			units_format_ns(fb, sizeof(fb), DUR_EBS_FLOOR_NS);
			if (wp < DUR_EBS_FLOOR_NS && by_facts) {
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s on EBS (%s, by the provision facts), a network round trip that takes "
					 "%s at least", why[0] ? "; " : "", wb, vtype, fb);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence), "%sEBS round trip",
					 evidence[0] ? ", " : "");
			} else if (wp < DUR_EBS_FLOOR_NS) {
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%s on EBS (by the device model %s), a network round trip that takes %s at least",
					 why[0] ? "; " : "", wb, w->model, fb);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence),
					 "%sdevice model %s: EBS is a network round trip (%s)", evidence[0] ? ", " : "",
					 w->model, fb);
			}
			snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%sEBS round trip",
				 checked[0] ? ", " : "");
		}
		if (r) {
			const char *rop = r->cells[0]->op;
			if (fired) {
				char when[48] = "", hw[32], hr[32], hosts[96] = "";
				if (shown_r->launch > 0 && shown_w->launch > 0)
					snprintf(when, sizeof(when), ", %.0f min apart",
						 fabs(shown_r->launch - shown_w->launch) / 60);
				units_format_ns(hw, sizeof(hw), hist_percentile(&shown_w->total, 0.5));
				units_format_ns(hr, sizeof(hr), hist_percentile(&shown_r->total, 0.5));
				if (g[i].n > 1)
					snprintf(hosts, sizeof(hosts), "on %zu of %zu hosts; ", fired, pairs);
				snprintf(why + strlen(why), sizeof(why) - strlen(why),
					 "%s%sa flush under a quarter of a %s of the same target by the same host (%s: "
					 "write p50 %s, read p50 %s%s): it wrote to a cache", why[0] ? "; " : "", hosts,
					 rop, shown_w->host, hw, hr, when);
				snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence),
					 "%sread of the same target", evidence[0] ? ", " : "");
			}
			snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%s%s p50",
				 checked[0] ? ", " : "", rop);
		} else if (other_time) {
			snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked),
				 "%sno read of this host within an hour", checked[0] ? ", " : "");
		}
		units_format_ns(fb, sizeof(fb), o->floor_ns);
		if (wp < o->floor_ns) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s is below the %s floor (--floor)",
				 why[0] ? "; " : "", wb, fb);
			snprintf(evidence + strlen(evidence), sizeof(evidence) - strlen(evidence), "%sfloor",
				 evidence[0] ? ", " : "");
		}
		snprintf(checked + strlen(checked), sizeof(checked) - strlen(checked), "%s%s floor",
			 checked[0] ? ", " : "", fb);
		bool suspicious = why[0] != '\0';
		if (suspicious)
			snprintf(verdict, sizeof(verdict), "durability suspicious: %s", why);
		else {
			snprintf(verdict, sizeof(verdict), "plausible");
			snprintf(evidence, sizeof(evidence), "none (checked: %s)", checked);
		}
		table_row(t, w->sig, w->op, w->threads, rep_cfg_name(w), w->cfg->labels, (double)w->size, rep_host_of(&g[i], hb, sizeof(hb)),
			  wp, r ? r->cells[0]->sig : NULL, r ? r->cells[0]->op : NULL, rp, floor_ns, suspicious ? 1.0 : 0.0, evidence, verdict);
	}
	free(reads);
}

const struct rep_section_def rep_sec_durability = {
	.name = "durability",
	.title = "Durability check of flushed writes",
	.help = "flushed writes faster than the evidence allows: an EBS round trip (by\n"
		"the provision facts or the device model), a quarter of a read of the\n"
		"same target by the same host within an hour, the floor",
	SECTION_COLS(durability_cols),
	.build = build_durability,
};
