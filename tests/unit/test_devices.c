/* test_devices.c - /proc/diskstats lines to iostat -x's columns, and the log of readings. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "host/devices.h"

/* A tree of two devices, md0 over vdb, as devices_resolve() would make it. */
static struct device_node nodes[2] = {
	{ .name = "md0", .major = 9, .minor = 0, .type = "md", .role = "target", .above = -1 },
	{ .name = "vdb", .major = 254, .minor = 16, .type = "disk", .role = "member", .above = 0 },
};
static const struct device_tree tree = { .nodes = nodes, .n = 2 };

/* Kernel 5.5+ lines (17 fields and more); 4.x has 14, which is enough. */
static const char before[] =
	"   7       0 loop0 1 2 3 4 5 6 7 8 0 9 10 0 0 0 0 0 0\n"
	" 254      16 vdb 1000 0 8000 500 2000 0 32000 3000 0 1500 3500 0 0 0 0 0 0\n"
	"   9       0 md0 1000 0 8000 0 2000 0 32000 0 0 0 0 0 0 0 0\n";
static const char after[] =
	" 254      16 vdb 3000 7 24000 1500 3000 0 40000 7000 2 2500 8500 0 0 0 0 0 0\n"
	"   9       0 md0 3000 0 24000 0 3000 0 40000 0 0 0 0\n"
	" 254      17 vdb1\n";

TEST(each_device_gets_its_own_line_and_a_missing_one_is_not_seen)
{
	struct device_counters c[2];
	CHECK_EQ_U(devices_parse(before, &tree, c), 2);
	CHECK(c[0].seen && c[1].seen);
	CHECK_EQ_U(c[1].reads, 1000);
	CHECK_EQ_U(c[1].read_sectors, 8000);
	CHECK_EQ_U(c[1].read_ms, 500);
	CHECK_EQ_U(c[1].writes, 2000);
	CHECK_EQ_U(c[1].write_sectors, 32000);
	CHECK_EQ_U(c[1].write_ms, 3000);
	CHECK_EQ_U(c[1].busy_ms, 1500);
	CHECK_EQ_U(c[1].queue_ms, 3500);
	/* md0's short line in after (11 fields) is whole; a line without fields is no device's. */
	const char only_name[] = " 254      16 vdb\n   9       0 md0 1 2 3\n";
	CHECK_EQ_U(devices_parse(only_name, &tree, c), 0);
	CHECK(!c[0].seen && !c[1].seen);
}

TEST(the_columns_are_iostat_s)
{
	struct device_counters a[2], b[2];
	devices_parse(before, &tree, a);
	devices_parse(after, &tree, b);
	struct device_stats s;
	CHECK(devices_stats(&a[1], &b[1], 2.0, &s));
	CHECK_EQ_U(s.reads, 2000);
	CHECK_EQ_U(s.writes, 1000);
	CHECK_NEAR(s.reads_per_s, 1000, 1e-9);
	CHECK_NEAR(s.writes_per_s, 500, 1e-9);
	CHECK_NEAR(s.read_mb_per_s, 16000 * 512 / 1e6 / 2, 1e-9);
	CHECK_NEAR(s.write_mb_per_s, 8000 * 512 / 1e6 / 2, 1e-9);
	CHECK_NEAR(s.read_await_ms, 1000.0 / 2000, 1e-9); /* ms reading / reads done */
	CHECK_NEAR(s.write_await_ms, 4000.0 / 1000, 1e-9);
	CHECK_NEAR(s.util_pct, 1000.0 / 2000 * 100, 1e-9); /* busy ms / interval ms */
	CHECK_NEAR(s.queue_size, 5000.0 / 2000, 1e-9);     /* weighted ms / interval ms */
	/* md0 completes no time: no await, and no reads is no await either. */
	CHECK(devices_stats(&a[0], &b[0], 2.0, &s));
	CHECK_NEAR(s.read_await_ms, 0, 1e-9);
	CHECK(devices_stats(&b[0], &b[0], 2.0, &s));
	CHECK(isnan(s.read_await_ms) && isnan(s.write_await_ms));
	CHECK(!devices_stats(&a[1], &b[1], 0, &s));
}

TEST(a_32_bit_counter_that_wrapped_counts_what_it_did)
{
	struct device_counters a = { .busy_ms = 4294967000ULL, .seen = true };
	struct device_counters b = { .busy_ms = 704, .seen = true };
	struct device_stats s;
	CHECK(devices_stats(&a, &b, 1.0, &s));
	CHECK_NEAR(s.util_pct, 100.0, 1e-9); /* 296 + 704 ms of 1000 */
}

TEST(the_log_keeps_a_reading_per_boundary_and_the_end_after_the_last)
{
	char path[] = "/tmp/test_devices.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	struct device_log log;
	CHECK_EQ_U(devices_log_init(&log, &tree, 4), 0);
	log.path = path;
	CHECK(write(fd, before, strlen(before)) == (ssize_t)strlen(before));
	devices_log_take(&log, 0, 1000000000ULL);
	CHECK(ftruncate(fd, 0) == 0);
	CHECK(pwrite(fd, after, strlen(after), 0) == (ssize_t)strlen(after));
	/* Slot 1 slept through; the end goes after slot 2. */
	devices_log_take(&log, 2, 3000000000ULL);
	devices_log_end(&log, 3500000000ULL);
	CHECK_EQ_U(log.used, 4);
	struct device_stats s;
	CHECK(!devices_log_stats(&log, 1, 0, 1, &s));
	CHECK(devices_log_stats(&log, 1, 0, 2, &s));
	CHECK_NEAR(s.seconds, 2.0, 1e-9);
	CHECK_NEAR(s.reads_per_s, 1000, 1e-9);
	CHECK(devices_log_stats(&log, 1, 2, 3, &s));
	CHECK_EQ_U(s.reads, 0);
	/* A fourth reading has no room: ignored. */
	devices_log_end(&log, 4000000000ULL);
	CHECK_EQ_U(log.used, 4);
	devices_log_reset(&log);
	CHECK_EQ_U(log.used, 0);
	/* A file that cannot be read is said once, and no reading is taken after it. */
	log.path = "/nonexistent/diskstats";
	devices_log_take(&log, 0, 1);
	CHECK(log.err < 0 && log.used == 0);
	devices_log_free(&log);
	close(fd);
	unlink(path);
}

int main(void)
{
	RUN(each_device_gets_its_own_line_and_a_missing_one_is_not_seen);
	RUN(the_columns_are_iostat_s);
	RUN(a_32_bit_counter_that_wrapped_counts_what_it_did);
	RUN(the_log_keeps_a_reading_per_boundary_and_the_end_after_the_last);
	return check_summary("devices");
}
