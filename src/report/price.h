/*
 * SPDX-License-Identifier: Apache-2.0
 * price.h - what a configuration costs an hour, from a price list in
 * the format of share/prices-sample.json.
 *
 * One model for every volume type: instance hours; GB-months; provisioned
 * IOPS above the type's free baseline (freeIops: gp3's 3000), priced flat
 * (perIopsMonth) or in tiers of the provisioned total (iopsTiers: io2);
 * provisioned MiB/s above the free baseline (freeMiBps: gp3's 125); and a
 * charge per million I/O requests (perMillionIO: standard), which depends
 * on the rate measured and so is kept apart. Months are 730 hours.
 * scripts/ec2-provision's estimate computes the same (in jq);
 * tests/answers-cost.bats holds the two to the cent for every volume type
 * of the sample list. Pure: no I/O, no global state, thread-safe.
 */
#ifndef IOBENCH_REPORT_PRICE_H
#define IOBENCH_REPORT_PRICE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define PRICE_HOURS_PER_MONTH 730.0

/* What a configuration is, as far as its price goes. */
struct price_facts {
	const char *instance; /* instance type ("m5.large"); NULL: no instance priced */
	const char *volume;   /* volume type ("gp3", "ephemeral"); NULL: no volume priced */
	double count;         /* volumes; below 1 counts as 1 */
	double size_gib;      /* each volume's size; NAN or 0: no storage charge */
	double iops;          /* each volume's provisioned IOPS; NAN: the free baseline */
	double mibps;         /* each volume's provisioned MiB/s; NAN: the free baseline */
};

/* The hourly price, in parts (all volumes together). */
struct price_hour {
	double instance;       /* $/h of the instance */
	double storage;        /* $/h of the GB-months */
	double iops;           /* $/h of provisioned IOPS above the free baseline */
	double throughput;     /* $/h of provisioned MiB/s above the free baseline */
	double fixed;          /* the sum of the above: what an hour costs before any I/O */
	double per_million_io; /* $ per million I/O requests, all volumes (0: none) */
};

/*
 * The hourly price of f under the price list prices (a JSON object with
 * "instances" and "volumes"). 0 on success; -ENOENT when f names an
 * instance or volume type the list has no price for (out is then zeroed),
 * -EINVAL when f names neither, -ERANGE when a fact given (count, size,
 * IOPS, MiB/s) is not a number from 0 to PRICE_MAX.
 */
int price_hourly(const json_t *prices, const struct price_facts *f, struct price_hour *out);

/*
 * Whether prices is a price list whose figures can be used: "instances"
 * an object of prices, "volumes" an object of objects whose members
 * perGBMonth, perMillionIO, perIopsMonth, perMiBpsMonth, freeIops,
 * freeMiBps and iopsTiers (an array of objects with upTo and perIopsMonth)
 * are numbers from 0 to PRICE_MAX (a negative price would rank first, a
 * huge one makes an hour cost inf), and "configs" an object of objects
 * whose volumeCount, volumeGB, volumeSize, volumeIops and volumeThroughput
 * are such numbers (or strings of one). 0 when it is; -EINVAL with where the
 * first bad value is ("instances.m5.large", "volumes.io2.iopsTiers[1].upTo")
 * in where and what is wrong in why. Other members (date, note) are free.
 */
#define PRICE_MAX 1e9
int price_check(const json_t *prices, char *where, size_t wlen, char *why, size_t ylen);

/* The monthly price of iops provisioned IOPS of one volume of type v (its object in "volumes"). */
double price_iops_month(const json_t *v, double iops);

/* $/h of p with the per-I/O charge at ops_per_sec I/O requests a second. */
double price_with_io(const struct price_hour *p, double ops_per_sec);

#endif
