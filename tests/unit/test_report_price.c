/* test_report_price.c - one price model: instance hours, GB-months, provisioned IOPS and MiB/s, per-I/O. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "report/base/price.h"

/* A list in the sample's format, with round prices so that the answers are known. */
static const char *const list =
	"{\"instances\": {\"m5.large\": 0.096, \"i3.large\": 0.156},"
	" \"volumes\": {"
	"  \"standard\": {\"perGBMonth\": 0.05, \"perMillionIO\": 0.05},"
	"  \"gp2\": {\"perGBMonth\": 0.10},"
	"  \"gp3\": {\"perGBMonth\": 0.08, \"perIopsMonth\": 0.005, \"freeIops\": 3000,"
	"           \"perMiBpsMonth\": 0.04, \"freeMiBps\": 125},"
	"  \"io1\": {\"perGBMonth\": 0.125, \"perIopsMonth\": 0.065},"
	"  \"io2\": {\"perGBMonth\": 0.125, \"iopsTiers\": [{\"upTo\": 32000, \"perIopsMonth\": 0.065},"
	"           {\"upTo\": 64000, \"perIopsMonth\": 0.0455}, {\"perIopsMonth\": 0.03185}]},"
	"  \"st1\": {\"perGBMonth\": 0.045}, \"ephemeral\": {\"perGBMonth\": 0}}}";

static struct price_list *parse(const char *text)
{
	char where[128], why[128];
	struct price_list *p = NULL;
	json_t *doc = json_loads(text, 0, NULL);
	CHECK(doc != NULL);
	CHECK(price_parse(doc, &p, where, sizeof(where), why, sizeof(why)) == 0);
	json_decref(doc);
	return p;
}

static struct price_list *prices(void)
{
	return parse(list);
}

/* The monthly price of iops provisioned IOPS of one volume of type, by the model. */
static double iops_month(const struct price_list *p, const char *type, double iops)
{
	struct price_facts f = { NULL, type, 1, NAN, iops, NAN };
	struct price_hour h;
	CHECK(price_hourly(p, &f, &h) == 0);
	return h.iops * PRICE_HOURS_PER_MONTH;
}

static struct price_facts vol(const char *inst, const char *type, double n, double gib, double iops, double mibps)
{
	struct price_facts f = { inst, type, n, gib, iops, mibps };
	return f;
}

TEST(gp3_pays_only_for_iops_and_throughput_above_its_free_baseline)
{
	struct price_list *p = prices();
	struct price_hour h;
	/* no IOPS or MiB/s given: the baseline, free */
	struct price_facts f = vol("m5.large", "gp3", 1, 200, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.instance, 0.096, 1e-12);
	CHECK_NEAR(h.storage, 200 * 0.08 / 730, 1e-12);
	CHECK(h.iops == 0 && h.throughput == 0);
	CHECK_NEAR(h.fixed, 0.096 + 16.0 / 730, 1e-12);
	/* 3000 IOPS and 125 MiB/s said outright: the same */
	f = vol("m5.large", "gp3", 1, 200, 3000, 125);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK(h.iops == 0 && h.throughput == 0);
	/* 6000 IOPS, 250 MiB/s, four volumes: 3000 and 125 above the baseline each */
	f = vol("m5.large", "gp3", 4, 200, 6000, 250);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.iops, 4 * 3000 * 0.005 / 730, 1e-12);
	CHECK_NEAR(h.throughput, 4 * 125 * 0.04 / 730, 1e-12);
	CHECK_NEAR(h.storage, 4 * 200 * 0.08 / 730, 1e-12);
	price_free(p);
}

TEST(io1_pays_for_every_provisioned_iops)
{
	struct price_list *p = prices();
	struct price_hour h;
	struct price_facts f = vol(NULL, "io1", 1, 100, 5000, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK(h.instance == 0);
	CHECK_NEAR(h.iops, 5000 * 0.065 / 730, 1e-12);
	CHECK_NEAR(h.fixed, (100 * 0.125 + 5000 * 0.065) / 730, 1e-12);
	price_free(p);
}

TEST(io2_prices_its_iops_in_tiers_of_the_total)
{
	struct price_list *p = prices();
	/* the m5.large + io2 200 GiB at 8000 IOPS: $0.8426/h, not the $0.1302 of GB-months alone */
	struct price_hour h;
	struct price_facts f = vol("m5.large", "io2", 1, 200, 8000, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 0.8426, 5e-5);
	CHECK_NEAR(iops_month(p, "io2", 32000), 32000 * 0.065, 1e-9);
	CHECK_NEAR(iops_month(p, "io2", 40000), 32000 * 0.065 + 8000 * 0.0455, 1e-9);
	CHECK_NEAR(iops_month(p, "io2", 100000), 32000 * 0.065 + 32000 * 0.0455 + 36000 * 0.03185, 1e-9);
	CHECK(iops_month(p, "io2", 0) == 0);
	/* one volume's $/h, the figure ec2-provision prints "each" */
	CHECK_NEAR(h.volume, (200 * 0.125 + 8000 * 0.065) / 730, 1e-12);
	price_free(p);
}

TEST(types_without_provisioned_performance_pay_for_size_and_requests)
{
	struct price_list *p = prices();
	struct price_hour h;
	struct price_facts f = vol(NULL, "gp2", 2, 500, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 2 * 500 * 0.10 / 730, 1e-12);
	CHECK(h.per_million_io == 0);
	f = vol(NULL, "st1", 1, 500, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 500 * 0.045 / 730, 1e-12);
	/* standard: per million requests, at the rate measured */
	f = vol("m5.large", "standard", 1, 100, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 0.096 + 5.0 / 730, 1e-12);
	CHECK_NEAR(h.per_million_io, 0.05, 1e-12);
	CHECK_NEAR(price_with_io(&h, 100), h.fixed + 100 * 3600 * 0.05 / 1e6, 1e-12);
	/* instance store comes with the instance */
	f = vol("i3.large", "ephemeral", 1, 475, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 0.156, 1e-12);
	price_free(p);
}

TEST(an_unknown_type_has_no_price_rather_than_a_wrong_one)
{
	struct price_list *p = prices();
	struct price_hour h;
	struct price_facts f = vol("m5.large", "io3", 1, 100, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == -ENOENT);
	/* what it could price stays, and it says what it could not */
	CHECK(h.unpriced == PRICE_NO_VOLUME);
	CHECK_NEAR(h.fixed, 0.096, 1e-12);
	f = vol("x9.huge", "gp2", 1, 100, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == -ENOENT);
	CHECK(h.unpriced == PRICE_NO_INSTANCE && h.instance == 0);
	CHECK_NEAR(h.fixed, 100 * 0.10 / 730, 1e-12);
	f = vol(NULL, NULL, 1, NAN, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == -EINVAL);
	/* size unknown: no storage charge (the instance alone) */
	f = vol("m5.large", "gp2", 1, NAN, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == 0);
	CHECK_NEAR(h.fixed, 0.096, 1e-12);
	price_free(p);
}

TEST(a_list_whose_figures_no_price_is_is_refused_with_the_key)
{
	char where[128], why[128];
	static const struct {
		const char *json, *where;
	} bad[] = {
		{ "{\"instances\": {\"m5.large\": -0.0959}}", "instances.m5.large" },
		{ "{\"instances\": {\"m5.large\": \"0.1\"}}", "instances.m5.large" },
		{ "{\"volumes\": {\"standard\": {\"perMillionIO\": 1e308}}}", "volumes.standard.perMillionIO" },
		{ "{\"volumes\": {\"gp3\": {\"freeIops\": -1}}}", "volumes.gp3.freeIops" },
		{ "{\"volumes\": {\"io2\": {\"iopsTiers\": [{\"upTo\": 1}, {\"perIopsMonth\": -2}]}}}",
		  "volumes.io2.iopsTiers[1].perIopsMonth" },
		{ "{\"volumes\": {\"io2\": {\"iopsTiers\": 3}}}", "volumes.io2.iopsTiers" },
		{ "{\"volumes\": {\"gp3\": 0.08}}", "volumes.gp3" },
		{ "{\"instances\": [0.1]}", "instances" },
		{ "{\"configs\": {\"large/ebs4\": {\"volumeGB\": -100}}}", "configs.large/ebs4.volumeGB" },
		{ "{\"configs\": {\"large/ebs4\": {\"volumeCount\": \"0x10\"}}}", "configs.large/ebs4.volumeCount" },
		{ "{\"configs\": {\"large/ebs4\": \"m1.large\"}}", "configs.large/ebs4" },
		{ "[1, 2]", "" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct price_list *p = (struct price_list *)1;
		json_t *doc = json_loads(bad[i].json, 0, NULL);
		CHECK(doc != NULL);
		CHECK(price_parse(doc, &p, where, sizeof(where), why, sizeof(why)) == -EINVAL);
		CHECK(p == NULL);
		CHECK(strcmp(where, bad[i].where) == 0);
		CHECK(why[0] != '\0');
		json_decref(doc);
	}
}

TEST(a_fact_no_volume_has_prices_nothing)
{
	struct price_list *p = prices();
	struct price_hour h;
	struct price_facts f = vol("m5.large", "gp2", 1, -500, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == -ERANGE);
	f = vol("m5.large", "gp3", 1, 100, INFINITY, NAN);
	CHECK(price_hourly(p, &f, &h) == -ERANGE);
	f = vol("m5.large", "gp3", -4, 100, NAN, NAN);
	CHECK(price_hourly(p, &f, &h) == -ERANGE);
	f = vol("m5.large", "gp3", 1, 100, NAN, 1e300);
	CHECK(price_hourly(p, &f, &h) == -ERANGE);
	/* a config list with a fact in a string, as labels give them, is a price list */
	struct price_list *c = parse("{\"configs\": {\"a\": {\"volumeGB\": \"100\", \"volumeCount\": 4,"
				     " \"instanceStore\": true}}, \"date\": \"2026-11-01\"}");
	const struct price_config *a = price_config_find(c, "a");
	CHECK(a != NULL && price_config_find(c, "b") == NULL);
	CHECK(strcmp(price_config_fact(a, "volumeGB"), "100") == 0);
	CHECK(strcmp(price_config_fact(a, "volumeCount"), "4") == 0);
	/* a boolean is no fact (labels say "true"): as the report has always read it */
	CHECK(price_config_fact(a, "instanceStore") == NULL);
	CHECK(strcmp(c->date, "2026-11-01") == 0 && c->region == NULL);
	price_free(c);
	price_free(p);
}

int main(void)
{
	RUN(gp3_pays_only_for_iops_and_throughput_above_its_free_baseline);
	RUN(io1_pays_for_every_provisioned_iops);
	RUN(io2_prices_its_iops_in_tiers_of_the_total);
	RUN(types_without_provisioned_performance_pay_for_size_and_requests);
	RUN(an_unknown_type_has_no_price_rather_than_a_wrong_one);
	RUN(a_list_whose_figures_no_price_is_is_refused_with_the_key);
	RUN(a_fact_no_volume_has_prices_nothing);
	return check_summary("report_price");
}
