/* report/price.c - what a configuration costs an hour (see report_price.h). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/price.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"

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

/* A fact of a config: absent (NAN) or a count from 0 to PRICE_MAX. */
static bool fact_ok(double x)
{
	return isnan(x) || (x >= 0 && x <= PRICE_MAX);
}

int price_hourly(const json_t *prices, const struct price_facts *f, struct price_hour *out)
{
	memset(out, 0, sizeof(*out));
	if (!f->instance && !f->volume)
		return -EINVAL;
	/* a line's facts are data too: a negative or endless size would price an hour below 0 or at inf */
	if (!fact_ok(f->count) || !fact_ok(f->size_gib) || !fact_ok(f->iops) || !fact_ok(f->mibps))
		return -ERANGE;
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

/* A figure of the list: a number from 0 to PRICE_MAX; else -EINVAL, why said. */
static int check_figure(const json_t *v, char *why, size_t ylen)
{
	if (!json_is_number(v)) {
		snprintf(why, ylen, "not a number");
		return -EINVAL;
	}
	double x = json_number_value(v);
	if (!(x >= 0 && x <= PRICE_MAX)) {
		snprintf(why, ylen, "%g is not a price or count (a number from 0 to %g)", x, PRICE_MAX);
		return -EINVAL;
	}
	return 0;
}

/* The members of a volume type's object that are figures. */
static const char *const volume_figures[] = {
	"perGBMonth", "perMillionIO", "perIopsMonth", "perMiBpsMonth", "freeIops", "freeMiBps",
};

static int check_volume(const json_t *v, const char *name, char *where, size_t wlen, char *why, size_t ylen)
{
	if (!json_is_object(v)) {
		snprintf(where, wlen, "volumes.%s", name);
		snprintf(why, ylen, "not an object of prices");
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(volume_figures) / sizeof(volume_figures[0]); i++) {
		const json_t *f = json_object_get(v, volume_figures[i]);
		if (f && check_figure(f, why, ylen) != 0) {
			snprintf(where, wlen, "volumes.%s.%s", name, volume_figures[i]);
			return -EINVAL;
		}
	}
	const json_t *tiers = json_object_get(v, "iopsTiers");
	if (!tiers)
		return 0;
	if (!json_is_array(tiers)) {
		snprintf(where, wlen, "volumes.%s.iopsTiers", name);
		snprintf(why, ylen, "not an array of tiers");
		return -EINVAL;
	}
	size_t i;
	const json_t *t;
	json_array_foreach(tiers, i, t) {
		const json_t *f;
		const char *bad = !json_is_object(t) ? "" : NULL;
		if (!bad && (f = json_object_get(t, "upTo")) && check_figure(f, why, ylen) != 0)
			bad = ".upTo";
		if (!bad && (f = json_object_get(t, "perIopsMonth")) && check_figure(f, why, ylen) != 0)
			bad = ".perIopsMonth";
		if (bad) {
			if (!*bad)
				snprintf(why, ylen, "not an object");
			snprintf(where, wlen, "volumes.%s.iopsTiers[%zu]%s", name, i, bad);
			return -EINVAL;
		}
	}
	return 0;
}

/* The members of a config (the list's "configs") that are counts; they may be strings of one, as labels are. */
static const char *const config_figures[] = {
	"volumeCount", "volumeGB", "volumeSize", "volumeIops", "volumeThroughput",
};

static int check_config(const json_t *c, const char *name, char *where, size_t wlen, char *why, size_t ylen)
{
	if (!json_is_object(c)) {
		snprintf(where, wlen, "configs.%s", name);
		snprintf(why, ylen, "not an object of facts");
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(config_figures) / sizeof(config_figures[0]); i++) {
		const json_t *f = json_object_get(c, config_figures[i]);
		if (!f)
			continue;
		int rc;
		if (json_is_string(f)) {
			const char *text = json_string_value(f), *end;
			double x;
			rc = units_parse_decimal(text, &x, &end) == 0 && *end == '\0' && x <= PRICE_MAX ? 0 : -EINVAL;
			if (rc)
				snprintf(why, ylen, "'%s' is not a count (a number from 0 to %g)", text, PRICE_MAX);
		} else {
			rc = check_figure(f, why, ylen);
		}
		if (rc) {
			snprintf(where, wlen, "configs.%s.%s", name, config_figures[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int price_check(const json_t *prices, char *where, size_t wlen, char *why, size_t ylen)
{
	snprintf(where, wlen, "%s", "");
	snprintf(why, ylen, "%s", "");
	if (!json_is_object(prices)) {
		snprintf(why, ylen, "not an object");
		return -EINVAL;
	}
	const char *key;
	const json_t *v;
	const json_t *inst = json_object_get(prices, "instances");
	if (inst && !json_is_object(inst)) {
		snprintf(where, wlen, "instances");
		snprintf(why, ylen, "not an object of prices");
		return -EINVAL;
	}
	json_object_foreach((json_t *)inst, key, v)
		if (check_figure(v, why, ylen) != 0) {
			snprintf(where, wlen, "instances.%s", key);
			return -EINVAL;
		}
	const json_t *vols = json_object_get(prices, "volumes");
	if (vols && !json_is_object(vols)) {
		snprintf(where, wlen, "volumes");
		snprintf(why, ylen, "not an object of volume types");
		return -EINVAL;
	}
	json_object_foreach((json_t *)vols, key, v)
		if (check_volume(v, key, where, wlen, why, ylen) != 0)
			return -EINVAL;
	const json_t *cfgs = json_object_get(prices, "configs");
	if (cfgs && !json_is_object(cfgs)) {
		snprintf(where, wlen, "configs");
		snprintf(why, ylen, "not an object of configs");
		return -EINVAL;
	}
	json_object_foreach((json_t *)cfgs, key, v)
		if (check_config(v, key, where, wlen, why, ylen) != 0)
			return -EINVAL;
	return 0;
}
