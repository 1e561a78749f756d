/* test_report_caps.c - what a host's volumes allow: given facts, else the volume type's baseline. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "report/sections/analyze.h"

/* A cell of block-sized operations on a configuration with these facts. */
static struct rep_cell cell_of(struct rep_config *cfg, const char *facts, uint64_t block)
{
	*cfg = (struct rep_config){ .labels = "", .facts = (char *)facts, .name = "" };
	return (struct rep_cell){ .sig = "read,4K,4K", .cfg = cfg, .host = "h", .block = block };
}

TEST(gp3_without_iops_or_throughput_gets_its_baseline)
{
	struct rep_config cfg;
	struct rep_cell c = cell_of(&cfg, "instanceType=m5.large,volumeSize=200,volumeType=gp3", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 3000, 1e-9);
	CHECK(rep_cell_cap_is_baseline(&c));
	/* read4m: 125 MiB/s over 4 MiB */
	c.block = 4 << 20;
	CHECK_NEAR(rep_cell_cap(&c), 31.25, 1e-9);
	/* given facts win and are not a baseline */
	c = cell_of(&cfg, "volumeIops=8000,volumeSize=200,volumeThroughput=500,volumeType=gp3", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 8000, 1e-9);
	CHECK(!rep_cell_cap_is_baseline(&c));
	/* four in a RAID 0 */
	c = cell_of(&cfg, "volumeCount=4,volumeSize=200,volumeType=gp3", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 12000, 1e-9);
}

TEST(gp2_is_three_iops_per_gib_bursting_to_3000)
{
	struct rep_config cfg;
	struct rep_cell c = cell_of(&cfg, "volumeSize=100,volumeType=gp2", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 3000, 1e-9);
	CHECK_NEAR(rep_cell_cap_after_burst(&c), 300, 1e-9);
	c = cell_of(&cfg, "volumeSize=2000,volumeType=gp2", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 6000, 1e-9);
	CHECK_NEAR(rep_cell_cap_after_burst(&c), 6000, 1e-9);
	c = cell_of(&cfg, "volumeSize=10,volumeType=gp2", 4096);
	CHECK_NEAR(rep_cell_cap_after_burst(&c), 100, 1e-9);
}

TEST(st1_and_sc1_are_throughput_per_tib)
{
	struct rep_config cfg;
	/* 2 TiB st1: 500 MiB/s burst (250 per TiB), 80 after (40 per TiB); 1 MiB reads */
	struct rep_cell c = cell_of(&cfg, "volumeSize=2048,volumeType=st1", 1 << 20);
	CHECK_NEAR(rep_cell_cap(&c), 500, 1e-9);
	CHECK_NEAR(rep_cell_cap_after_burst(&c), 80, 1e-9);
	c = cell_of(&cfg, "volumeSize=1024,volumeType=sc1", 1 << 20);
	CHECK_NEAR(rep_cell_cap(&c), 80, 1e-9);
	CHECK_NEAR(rep_cell_cap_after_burst(&c), 12, 1e-9);
}

TEST(io2_is_as_provisioned_and_unknown_types_have_no_cap)
{
	struct rep_config cfg;
	struct rep_cell c = cell_of(&cfg, "volumeIops=8000,volumeSize=200,volumeType=io2", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 8000, 1e-9);
	CHECK(!rep_cell_cap_is_baseline(&c));
	c = cell_of(&cfg, "volumeSize=200,volumeType=io2", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 0, 0);
	c = cell_of(&cfg, "instanceType=m5.large", 4096);
	CHECK_NEAR(rep_cell_cap(&c), 0, 0);
	/* a --rate is the cap whatever the volume */
	c = cell_of(&cfg, "volumeType=gp3", 4096);
	c.rate = 20;
	CHECK_NEAR(rep_cell_cap(&c), 20, 0);
	CHECK(!rep_cell_cap_is_baseline(&c));
}

int main(void)
{
	RUN(gp3_without_iops_or_throughput_gets_its_baseline);
	RUN(gp2_is_three_iops_per_gib_bursting_to_3000);
	RUN(st1_and_sc1_are_throughput_per_tib);
	RUN(io2_is_as_provisioned_and_unknown_types_have_no_cap);
	return check_summary("report_caps");
}
