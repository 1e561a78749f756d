/* report/base/price.c - the one price model: a price list parsed once, and what a configuration costs an hour. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/base/price.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "report/base/alloc.h"

/* The monthly price of iops provisioned IOPS of one volume of type v. */
static double iops_month(const struct price_volume *v, double iops)
{
	double billable = fmax(iops - v->free_iops, 0);
	if (v->ntiers == 0)
		return billable * v->per_iops_month;
	/* Tiers split the provisioned total: io2's first 32,000 at one price, the next 32,000 at another... */
	double sum = 0, from = v->free_iops;
	for (size_t i = 0; i < v->ntiers; i++) {
		double upto = v->tiers[i].up_to;
		if (iops <= from)
			break;
		sum += (fmin(iops, upto) - from) * v->tiers[i].per_iops_month;
		from = fmax(from, upto);
	}
	return sum;
}

/* A fact of a config: absent (NAN) or a count from 0 to PRICE_MAX. */
static bool fact_ok(double x)
{
	return isnan(x) || (x >= 0 && x <= PRICE_MAX);
}

static const struct price_instance *find_instance(const struct price_list *p, const char *name)
{
	for (size_t i = 0; i < p->ninstances; i++)
		if (strcmp(p->instances[i].name, name) == 0)
			return &p->instances[i];
	return NULL;
}

static const struct price_volume *find_volume(const struct price_list *p, const char *name)
{
	for (size_t i = 0; i < p->nvolumes; i++)
		if (strcmp(p->volumes[i].name, name) == 0)
			return &p->volumes[i];
	return NULL;
}

int price_hourly(const struct price_list *p, const struct price_facts *f, struct price_hour *out)
{
	memset(out, 0, sizeof(*out));
	if (!f->instance && !f->volume)
		return -EINVAL;
	/* a line's facts are data too: a negative or endless size would price an hour below 0 or at inf */
	if (!fact_ok(f->count) || !fact_ok(f->size_gib) || !fact_ok(f->iops) || !fact_ok(f->mibps))
		return -ERANGE;
	if (f->instance) {
		const struct price_instance *ip = find_instance(p, f->instance);
		if (ip)
			out->instance = ip->hourly;
		else
			out->unpriced |= PRICE_NO_INSTANCE;
	}
	if (f->volume) {
		const struct price_volume *v = find_volume(p, f->volume);
		if (v) {
			double n = f->count >= 1 ? f->count : 1;
			double gib = isnan(f->size_gib) ? 0 : f->size_gib;
			double iops = isnan(f->iops) ? v->free_iops : f->iops;
			double mibps = isnan(f->mibps) ? v->free_mibps : f->mibps;
			double im = iops_month(v, iops), mm = fmax(mibps - v->free_mibps, 0) * v->per_mibps_month;
			out->storage = n * gib * v->per_gb_month / PRICE_HOURS_PER_MONTH;
			out->iops = n * im / PRICE_HOURS_PER_MONTH;
			out->throughput = n * fmax(mibps - v->free_mibps, 0) * v->per_mibps_month / PRICE_HOURS_PER_MONTH;
			out->volume = (gib * v->per_gb_month + im + mm) / PRICE_HOURS_PER_MONTH;
			out->per_million_io = v->per_million_io;
		} else {
			out->unpriced |= PRICE_NO_VOLUME;
		}
	}
	out->fixed = out->instance + out->storage + out->iops + out->throughput;
	return out->unpriced ? -ENOENT : 0;
}

/* A fact: the config's when it says it, else look's. */
static bool fact_text(const struct price_config *cfg, price_lookup_fn look, void *arg, const char *const *keys,
		      char *buf, size_t len)
{
	for (const char *const *k = keys; *k; k++) {
		const char *v = price_config_fact(cfg, *k);
		if (v) {
			snprintf(buf, len, "%s", v);
			return true;
		}
	}
	return look(arg, keys, buf, len);
}

/* A number fact; NAN when absent or not a number. */
static double fact_num(const struct price_config *cfg, price_lookup_fn look, void *arg, const char *const *keys)
{
	char v[64], *end;
	if (!fact_text(cfg, look, arg, keys, v, sizeof(v)))
		return NAN;
	double d = strtod(v, &end);
	return end != v && *end == '\0' ? d : NAN;
}

bool price_facts_find(const struct price_config *cfg, price_lookup_fn look, void *arg, struct price_facts *f,
		      char *inst, size_t ilen, char *vol, size_t vlen)
{
	static const char *const inst_keys[] = { "instance", "instanceType", NULL };
	static const char *const vol_keys[] = { "volume", "volumeType", NULL };
	static const char *const store_keys[] = { "instanceStore", NULL };
	static const char *const count_keys[] = { "volumeCount", NULL };
	static const char *const gb_keys[] = { "volumeGB", "volumeSize", NULL };
	static const char *const iops_keys[] = { "volumeIops", NULL };
	static const char *const mibps_keys[] = { "volumeThroughput", NULL };
	char store[16] = "";
	bool has_inst = fact_text(cfg, look, arg, inst_keys, inst, ilen);
	bool has_vol = fact_text(cfg, look, arg, vol_keys, vol, vlen);
	/* instance-store disks come with the instance: the list's "ephemeral" prices them (at 0 in the sample) */
	if (!has_vol && fact_text(cfg, look, arg, store_keys, store, sizeof(store)) && strcmp(store, "true") == 0) {
		snprintf(vol, vlen, "ephemeral");
		has_vol = true;
	}
	if (!has_inst && !has_vol)
		return false;
	f->instance = has_inst ? inst : NULL;
	f->volume = has_vol ? vol : NULL;
	f->count = fact_num(cfg, look, arg, count_keys);
	f->size_gib = fact_num(cfg, look, arg, gb_keys);
	f->iops = fact_num(cfg, look, arg, iops_keys);
	f->mibps = fact_num(cfg, look, arg, mibps_keys);
	return true;
}

double price_with_io(const struct price_hour *h, double ops_per_sec)
{
	return h->fixed + ops_per_sec * 3600 * h->per_million_io / 1e6;
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

static int price_check(const json_t *prices, char *where, size_t wlen, char *why, size_t ylen)
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

/* A member of o as a number; def when absent (price_check has refused any other). */
static double num(const json_t *o, const char *key, double def)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : def;
}

static char *str_or_null(const json_t *doc, const char *key)
{
	const json_t *v = json_object_get(doc, key);
	return json_is_string(v) ? rep_strdup(json_string_value(v)) : NULL;
}

/* The keys a config may say, in the order of price_config.fact. */
static const char *const config_keys[PRICE_CONFIG_KEYS] = {
	"instance", "instanceType", "volume", "volumeType", "instanceStore",
	"volumeCount", "volumeGB", "volumeSize", "volumeIops", "volumeThroughput",
};

static void parse_volume(struct price_volume *v, const char *name, const json_t *o)
{
	v->name = rep_strdup(name);
	v->per_gb_month = num(o, "perGBMonth", 0);
	v->per_million_io = num(o, "perMillionIO", 0);
	v->per_iops_month = num(o, "perIopsMonth", 0);
	v->per_mibps_month = num(o, "perMiBpsMonth", 0);
	v->free_iops = num(o, "freeIops", 0);
	v->free_mibps = num(o, "freeMiBps", 0);
	const json_t *tiers = json_object_get(o, "iopsTiers");
	v->ntiers = json_is_array(tiers) ? json_array_size(tiers) : 0;
	v->tiers = v->ntiers ? rep_calloc(v->ntiers, sizeof(*v->tiers)) : NULL;
	for (size_t i = 0; i < v->ntiers; i++) {
		const json_t *t = json_array_get(tiers, i);
		v->tiers[i].up_to = num(t, "upTo", INFINITY);
		v->tiers[i].per_iops_month = num(t, "perIopsMonth", 0);
	}
}

static void parse_config(struct price_config *c, const char *name, const json_t *o)
{
	c->name = rep_strdup(name);
	for (size_t k = 0; k < PRICE_CONFIG_KEYS; k++) {
		const json_t *v = json_object_get(o, config_keys[k]);
		char buf[64];
		if (json_is_string(v)) {
			c->fact[k] = rep_strdup(json_string_value(v));
		} else if (json_is_number(v)) {
			snprintf(buf, sizeof(buf), "%.15g", json_number_value(v));
			c->fact[k] = rep_strdup(buf);
		}
	}
}

int price_parse(const json_t *doc, struct price_list **out, char *where, size_t wlen, char *why, size_t ylen)
{
	*out = NULL;
	if (price_check(doc, where, wlen, why, ylen) != 0)
		return -EINVAL;
	struct price_list *p = rep_calloc(1, sizeof(*p));
	p->date = str_or_null(doc, "date");
	p->region = str_or_null(doc, "region");
	p->currency = str_or_null(doc, "currency");
	const char *key;
	const json_t *v;
	const json_t *inst = json_object_get(doc, "instances"), *vols = json_object_get(doc, "volumes");
	const json_t *cfgs = json_object_get(doc, "configs");
	p->instances = rep_calloc(json_object_size(inst) + 1, sizeof(*p->instances));
	json_object_foreach((json_t *)inst, key, v) {
		p->instances[p->ninstances].name = rep_strdup(key);
		p->instances[p->ninstances++].hourly = json_number_value(v);
	}
	p->volumes = rep_calloc(json_object_size(vols) + 1, sizeof(*p->volumes));
	json_object_foreach((json_t *)vols, key, v)
		parse_volume(&p->volumes[p->nvolumes++], key, v);
	p->configs = rep_calloc(json_object_size(cfgs) + 1, sizeof(*p->configs));
	json_object_foreach((json_t *)cfgs, key, v)
		parse_config(&p->configs[p->nconfigs++], key, v);
	*out = p;
	return 0;
}

void price_free(struct price_list *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->ninstances; i++)
		free(p->instances[i].name);
	for (size_t i = 0; i < p->nvolumes; i++) {
		free(p->volumes[i].name);
		free(p->volumes[i].tiers);
	}
	for (size_t i = 0; i < p->nconfigs; i++) {
		free(p->configs[i].name);
		for (size_t k = 0; k < PRICE_CONFIG_KEYS; k++)
			free(p->configs[i].fact[k]);
	}
	free(p->instances);
	free(p->volumes);
	free(p->configs);
	free(p->date);
	free(p->region);
	free(p->currency);
	free(p);
}

const struct price_config *price_config_find(const struct price_list *p, const char *name)
{
	for (size_t i = 0; p && name && i < p->nconfigs; i++)
		if (strcmp(p->configs[i].name, name) == 0)
			return &p->configs[i];
	return NULL;
}

const char *price_config_fact(const struct price_config *c, const char *key)
{
	for (size_t k = 0; c && k < PRICE_CONFIG_KEYS; k++)
		if (strcmp(config_keys[k], key) == 0)
			return c->fact[k];
	return NULL;
}
