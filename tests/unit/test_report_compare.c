/* test_report_compare.c - pairing configurations by dimension, and saying what differs. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <string.h>

#include "check.h"
#include "report/sections/compare.h"

/* rep_config_diff of two configurations; checks the count, the text and the dimensions. */
static bool diff_is(const char *lx, const char *fx, const char *ly, const char *fy, size_t want_n,
		    const char *want_text, const char *want_dims)
{
	struct rep_config x = { .labels = (char *)lx, .facts = (char *)fx, .name = (char *)"", .runs = (char *)"" },
			  y = { .labels = (char *)ly, .facts = (char *)fy, .name = (char *)"", .runs = (char *)"" };
	char buf[1024], dims[256];
	bool swap;
	size_t n = rep_config_diff(&x, &y, buf, sizeof(buf), dims, sizeof(dims), &swap);
	bool ok = n == want_n && strcmp(buf, want_text) == 0 && strcmp(dims, want_dims) == 0;
	if (!ok)
		fprintf(stderr, "  '%s'+'%s' vs '%s'+'%s': got %zu '%s' (%s), want %zu '%s' (%s)\n", lx, fx, ly, fy, n,
			buf, dims, want_n, want_text, want_dims);
	/* the other way round: the same count and text, A and B kept in order */
	struct rep_config *a = &x, *b = &y;
	char buf2[1024], dims2[256];
	bool swap2;
	size_t n2 = rep_config_diff(b, a, buf2, sizeof(buf2), dims2, sizeof(dims2), &swap2);
	if (n2 != n || strcmp(buf2, buf) != 0 || (n && swap2 == swap)) {
		fprintf(stderr, "  reversed: got %zu '%s', want %zu '%s'\n", n2, buf2, n, buf);
		ok = false;
	}
	return ok;
}

TEST(gp3_against_io2_is_one_dimension_however_many_facts_differ)
{
	/* type, IOPS and throughput differ (gp3's 3000/125 unsaid): one dimension, the volume */
	CHECK(diff_is("", "instanceType=m5.large,volumeCount=1,volumeSize=200,volumeType=gp3", "",
		      "instanceType=m5.large,volumeCount=1,volumeIops=8000,volumeSize=200,volumeType=io2", 1,
		      "volume gp3 3000 IOPS → io2 8000 IOPS", "volume"));
	/* a size of its own */
	CHECK(diff_is("", "volumeSize=200,volumeType=gp3", "", "volumeSize=500,volumeType=gp3", 1,
		      "volume gp3 200 GiB → gp3 500 GiB", "volume"));
	/* gp3 with its baseline said and unsaid is the same volume */
	CHECK(diff_is("", "volumeType=gp3", "", "volumeIops=3000,volumeThroughput=125,volumeType=gp3", 0, "", ""));
}

TEST(one_volume_against_a_raid0_of_four_is_the_layout)
{
	CHECK(diff_is("", "instanceType=m5.large,volumeType=gp3", "",
		      "instanceType=m5.large,raidChunk=262144,raidLevel=0,volumeCount=4,volumeType=gp3", 1,
		      "layout 1 volume → 4 volumes raid0 chunk 256K", "layout"));
	/* raidLevel none is no RAID */
	CHECK(diff_is("", "raidLevel=none,volumeCount=1,volumeType=gp3", "", "volumeType=gp3", 0, "", ""));
}

TEST(two_dimensions_are_not_a_pair_but_are_said)
{
	CHECK(diff_is("", "instanceType=m5.large,volumeType=gp3", "", "instanceType=c5.large,volumeIops=8000,volumeType=io2",
		      2, "instance c5.large → m5.large; volume io2 8000 IOPS → gp3 3000 IOPS", "instance, volume"));
}

TEST(labels_and_label_parts_are_dimensions_of_their_own)
{
	CHECK(diff_is("config=large/ebs1", "", "config=large/ebs4", "", 1, "config[2] ebs1 → ebs4", "config[2]"));
	CHECK(diff_is("config=sync", "", "config=uring-qd4", "", 1, "config sync → uring-qd4", "config"));
	/* an absent value sorts last: 2012's side is A */
	CHECK(diff_is("config=large/ebs4", "", "config=large/ebs4,study=2012", "", 1, "study 2012 → -", "study"));
	/* a label and a fact: two dimensions */
	CHECK(diff_is("disk=a", "volumeType=gp3", "disk=b", "volumeType=io1", 2,
		      "disk a → b; volume gp3 3000 IOPS 125 MiB/s → io1", "disk, volume"));
	/* an unknown fact is a dimension of its own */
	CHECK(diff_is("", "kernel=6.1,volumeType=gp3", "", "kernel=6.6,volumeType=gp3", 1, "kernel 6.1 → 6.6", "kernel"));
}

TEST(instance_facts_go_together)
{
	CHECK(diff_is("", "ebsOptimized=false,instanceType=m1.large", "", "ebsOptimized=true,instanceType=m5.large", 1,
		      "instance m1.large not EBS-optimized → m5.large EBS-optimized", "instance"));
	CHECK(diff_is("", "instanceStore=true,instanceType=i3.large", "", "instanceType=i3.large,volumeType=gp3", 1,
		      "volume gp3 3000 IOPS 125 MiB/s → instance store", "volume"));
}

int main(void)
{
	RUN(gp3_against_io2_is_one_dimension_however_many_facts_differ);
	RUN(one_volume_against_a_raid0_of_four_is_the_layout);
	RUN(two_dimensions_are_not_a_pair_but_are_said);
	RUN(labels_and_label_parts_are_dimensions_of_their_own);
	RUN(instance_facts_go_together);
	return check_summary("report_compare");
}
