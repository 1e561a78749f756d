/*
 * SPDX-License-Identifier: Apache-2.0
 * report/base/price.h - the one price model: a price list in the format of
 * share/prices-sample.json, read and checked once into struct price_list,
 * and what a configuration costs an hour under it.
 *
 * One model for every volume type: instance hours; GB-months; provisioned
 * IOPS above the type's free baseline (freeIops: gp3's 3000), priced flat
 * (perIopsMonth) or in tiers of the provisioned total (iopsTiers: io2);
 * provisioned MiB/s above the free baseline (freeMiBps: gp3's 125); and a
 * charge per million I/O requests (perMillionIO: standard), which depends
 * on the rate measured and so is kept apart. Months are 730 hours.
 * The report's cost section and charts and `iobench price` (which
 * scripts/ec2-provision asks for its estimate) all price through
 * price_hourly(); nothing else reads the list's keys.
 * Pure: no I/O, no global state; a parsed list is read-only, so any number
 * of threads may price with it at once.
 */
#ifndef IOBENCH_REPORT_PRICE_H
#define IOBENCH_REPORT_PRICE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define PRICE_HOURS_PER_MONTH 730.0
/* The largest price or count a list or a fact may say (a huge one makes an hour cost inf). */
#define PRICE_MAX 1e9

/* One tier of a volume type's provisioned IOPS: up to up_to (INFINITY: the rest) at per_iops_month. */
struct price_tier {
	double up_to, per_iops_month;
};

/* A volume type's prices ("volumes" of the list); a member the list leaves out is 0. */
struct price_volume {
	char *name;
	double per_gb_month, per_million_io, per_iops_month, per_mibps_month, free_iops, free_mibps;
	size_t ntiers; /* 0: perIopsMonth, flat */
	struct price_tier *tiers;
};

/* An instance type's $/h ("instances" of the list). */
struct price_instance {
	char *name;
	double hourly;
};

/* The facts a named config of the list says ("configs"), as text; see price_config_fact. */
#define PRICE_CONFIG_KEYS 10
struct price_config {
	char *name;
	char *fact[PRICE_CONFIG_KEYS]; /* by the index of its key in price_config_keys; NULL: not said */
};

/* A price list, parsed and checked. */
struct price_list {
	char *date, *region, *currency; /* NULL when the list says none (or not as a string) */
	size_t ninstances, nvolumes, nconfigs;
	struct price_instance *instances;
	struct price_volume *volumes;
	struct price_config *configs;
};

/*
 * Whether doc is a price list whose figures can be used: "instances" an
 * object of prices, "volumes" an object of objects whose members
 * perGBMonth, perMillionIO, perIopsMonth, perMiBpsMonth, freeIops,
 * freeMiBps and iopsTiers (an array of objects with upTo and perIopsMonth)
 * are numbers from 0 to PRICE_MAX (a negative price would rank first),
 * and "configs" an object of objects whose volumeCount, volumeGB,
 * volumeSize, volumeIops and volumeThroughput are such numbers (or strings
 * of one). Other members (date, note) are free. If so, 0 and *out the list
 * (free it with price_free); else -EINVAL with where the first bad value is
 * ("instances.m5.large", "volumes.io2.iopsTiers[1].upTo"; empty when the
 * document itself is not an object) in where and what is wrong in why.
 * Out of memory is the report allocator's (report/base/alloc.h).
 */
int price_parse(const json_t *doc, struct price_list **out, char *where, size_t wlen, char *why, size_t ylen);
void price_free(struct price_list *p);

/* The config of the list named name, or NULL. */
const struct price_config *price_config_find(const struct price_list *p, const char *name);
/*
 * What config c says of key (one of "instance", "instanceType", "volume",
 * "volumeType", "instanceStore", "volumeCount", "volumeGB", "volumeSize",
 * "volumeIops", "volumeThroughput"): a string member as it is, a number as
 * %.15g prints it; NULL when c is NULL or says nothing (or a boolean, an
 * object...) of it.
 */
const char *price_config_fact(const struct price_config *c, const char *key);

/* What a configuration is, as far as its price goes. */
struct price_facts {
	const char *instance; /* instance type ("m5.large"); NULL: no instance priced */
	const char *volume;   /* volume type ("gp3", "ephemeral"); NULL: no volume priced */
	double count;         /* volumes; below 1 counts as 1 */
	double size_gib;      /* each volume's size; NAN or 0: no storage charge */
	double iops;          /* each volume's provisioned IOPS; NAN: the free baseline */
	double mibps;         /* each volume's provisioned MiB/s; NAN: the free baseline */
};

/*
 * Where a configuration's facts come from, after the list's config: look
 * fills buf with the value of the first of keys (a NULL-ended list of
 * synonyms, "volumeGB", "volumeSize") it knows and returns true, else false.
 */
typedef bool (*price_lookup_fn)(void *arg, const char *const *keys, char *buf, size_t len);

/*
 * The price facts of a configuration: each from config cfg of the list
 * (NULL: none) when it says it, else from look: the instance type
 * (instance, instanceType) into inst, the volume type (volume, volumeType;
 * instanceStore true without one: "ephemeral") into vol, volumeCount,
 * volumeGB or volumeSize, volumeIops, volumeThroughput (NAN when not said
 * or not a number). f's strings point into inst and vol. False when
 * neither an instance nor a volume type is said (f is then unset).
 */
bool price_facts_find(const struct price_config *cfg, price_lookup_fn look, void *arg, struct price_facts *f,
		      char *inst, size_t ilen, char *vol, size_t vlen);

/* What price_hourly could not price. */
enum price_unpriced {
	PRICE_NO_INSTANCE = 1, /* the instance type is not in the list */
	PRICE_NO_VOLUME = 2,   /* the volume type is not in the list */
};

/* The hourly price, in parts (all volumes together but volume). */
struct price_hour {
	double instance;       /* $/h of the instance */
	double storage;        /* $/h of the GB-months */
	double iops;           /* $/h of provisioned IOPS above the free baseline */
	double throughput;     /* $/h of provisioned MiB/s above the free baseline */
	double fixed;          /* the sum of the above: what an hour costs before any I/O */
	double volume;         /* $/h of one volume: its GB-months, IOPS and MiB/s */
	double per_million_io; /* $ per million I/O requests, all volumes (0: none) */
	unsigned unpriced;     /* enum price_unpriced bits: the parts left at 0 */
};

/*
 * The hourly price of f under the list p. 0 on success; -ENOENT when f
 * names an instance or volume type the list has no price for (out then
 * holds the parts it could price, and unpriced says which it could not),
 * -EINVAL when f names neither, -ERANGE when a fact given (count, size,
 * IOPS, MiB/s) is not a number from 0 to PRICE_MAX (out zeroed for both).
 */
int price_hourly(const struct price_list *p, const struct price_facts *f, struct price_hour *out);

/* $/h of h with the per-I/O charge at ops_per_sec I/O requests a second. */
double price_with_io(const struct price_hour *h, double ops_per_sec);

#endif
