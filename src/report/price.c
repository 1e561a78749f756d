/* report/price.c - what a configuration costs an hour (see report_price.h). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/price.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* A member of o as a number; def when absent or not a number. */
static double num(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : def;
}

double price_iops_month(const json_t *v, double iops)
{
	double billable = fmax(iops - num(v, "freeIops", 0), 0);
	const json_t *tiers = json_object_get(v, "iopsTiers");
	if (!json_is_array(tiers) || json_array_size(tiers) == 0)
		return billable * num(v, "perIopsMonth", 0);
	/* Tiers split the provisioned total: io2's first 32,000 at one price, the next 32,000 at another... */
	double sum = 0, from = num(v, "freeIops", 0);
	size_t i;
	const json_t *t;
	json_array_foreach(tiers, i, t) {
		double upto = num(t, "upTo", INFINITY);
		if (iops <= from)
			break;
		sum += (fmin(iops, upto) - from) * num(t, "perIopsMonth", 0);
		from = fmax(from, upto);
	}
	return sum;
}

int price_hourly(const json_t *prices, const struct price_facts *f, struct price_hour *out)
{
	memset(out, 0, sizeof(*out));
	if (!f->instance && !f->volume)
		return -EINVAL;
	if (f->instance) {
		const json_t *ip = json_object_get(json_object_get(prices, "instances"), f->instance);
		if (!json_is_number(ip))
			return -ENOENT;
		out->instance = json_number_value(ip);
	}
	if (f->volume) {
		const json_t *v = json_object_get(json_object_get(prices, "volumes"), f->volume);
		if (!json_is_object(v)) {
			memset(out, 0, sizeof(*out));
			return -ENOENT;
		}
		double n = f->count >= 1 ? f->count : 1;
		double gib = isnan(f->size_gib) ? 0 : f->size_gib;
		double iops = isnan(f->iops) ? num(v, "freeIops", 0) : f->iops;
		double mibps = isnan(f->mibps) ? num(v, "freeMiBps", 0) : f->mibps;
		out->storage = n * gib * num(v, "perGBMonth", 0) / PRICE_HOURS_PER_MONTH;
		out->iops = n * price_iops_month(v, iops) / PRICE_HOURS_PER_MONTH;
		out->throughput = n * fmax(mibps - num(v, "freeMiBps", 0), 0) * num(v, "perMiBpsMonth", 0) /
				  PRICE_HOURS_PER_MONTH;
		out->per_million_io = num(v, "perMillionIO", 0);
	}
	out->fixed = out->instance + out->storage + out->iops + out->throughput;
	return 0;
}

double price_with_io(const struct price_hour *p, double ops_per_sec)
{
	return p->fixed + ops_per_sec * 3600 * p->per_million_io / 1e6;
}
