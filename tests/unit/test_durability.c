/* test_durability.c - block stamps, classification, protocol lines and the block map. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "durability/net.h"
#include "durability/stamp.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#define BS 4096
#define RUN_ID 0x0123456789abcdefULL

static void stamp(unsigned char *buf, uint64_t block, uint64_t seq, uint64_t seed)
{
	struct prng rng;
	prng_seed(&rng, seed, 1);
	struct dur_stamp s = { .run = RUN_ID, .block = block, .seq = seq, .writer = 3 };
	dur_stamp_block(buf, BS, &s, &rng);
}

TEST(every_sector_carries_the_stamp_and_its_index)
{
	static unsigned char b[BS];
	stamp(b, 77, 5, 1);
	for (unsigned i = 0; i < BS / DUR_SECTOR; i++) {
		struct dur_stamp s;
		CHECK(dur_parse_sector(b + i * DUR_SECTOR, &s) == 0);
		CHECK(s.run == RUN_ID);
		CHECK_EQ_U(s.block, 77);
		CHECK_EQ_U(s.seq, 5);
		CHECK_EQ_U(s.writer, 3);
		CHECK_EQ_U(s.sector, i);
		CHECK_EQ_U(s.block_size, BS);
	}
	CHECK(memcmp(b, "IOBDUR01", 8) == 0);
}

TEST(a_flipped_byte_anywhere_in_a_sector_breaks_its_checksum)
{
	static unsigned char b[BS];
	stamp(b, 1, 1, 2);
	struct dur_stamp s;
	for (size_t off = 0; off < DUR_SECTOR; off += 37) {
		b[DUR_SECTOR + off] ^= 0x10;
		CHECK(dur_parse_sector(b + DUR_SECTOR, &s) == -EBADMSG);
		b[DUR_SECTOR + off] ^= 0x10;
	}
	CHECK(dur_parse_sector(b + DUR_SECTOR, &s) == 0);
	/* the random part differs between versions: the same stamp, other data */
	static unsigned char c[BS];
	stamp(c, 1, 1, 3);
	CHECK(memcmp(b + 64, c + 64, DUR_SECTOR - 64) != 0);
	CHECK(dur_checksum("abc", 3) != dur_checksum("abd", 3));
}

TEST(a_block_is_classified_against_its_acknowledged_version)
{
	static unsigned char b[BS], old[BS], newer[BS];
	struct dur_found f;
	stamp(b, 9, 10, 4);
	stamp(old, 9, 7, 5);
	stamp(newer, 9, 12, 6);
	CHECK(dur_classify(b, BS, RUN_ID, 9, 10, &f) == DUR_INTACT);
	CHECK_EQ_U(f.valid, 8);
	CHECK_EQ_U(f.seq_min, 10);
	CHECK(dur_classify(b, BS, RUN_ID, 9, 8, &f) == DUR_NEWER);
	CHECK(dur_classify(b, BS, RUN_ID, 9, 11, &f) == DUR_LOST_OLDER);
	CHECK(dur_class_lost(f.cls));
	/* another block's or another run's stamp, zeros, random bytes: missing */
	CHECK(dur_classify(b, BS, RUN_ID, 8, 10, &f) == DUR_LOST_MISSING);
	CHECK_EQ_U(f.valid, 0);
	CHECK(dur_classify(b, BS, RUN_ID + 1, 9, 10, &f) == DUR_LOST_MISSING);
	static unsigned char zero[BS];
	CHECK(dur_classify(zero, BS, RUN_ID, 9, 10, &f) == DUR_LOST_MISSING);
	/* half the acknowledged version, half a later one: torn, nothing acknowledged lost */
	memcpy(newer, b, BS / 2);
	CHECK(dur_classify(newer, BS, RUN_ID, 9, 10, &f) == DUR_TORN);
	CHECK(!dur_class_lost(f.cls));
	CHECK_EQ_U(f.seq_min, 10);
	CHECK_EQ_U(f.seq_max, 12);
	/* half the acknowledged version, half an older one: lost */
	memcpy(old, b, DUR_SECTOR * 3);
	CHECK(dur_classify(old, BS, RUN_ID, 9, 10, &f) == DUR_LOST_TORN);
	CHECK_EQ_U(f.seq_min, 7);
	/* one sector of old data in an acknowledged block: lost */
	memcpy(old, b, BS);
	memset(old + 5 * DUR_SECTOR, 0, DUR_SECTOR);
	CHECK(dur_classify(old, BS, RUN_ID, 9, 10, &f) == DUR_LOST_TORN);
	CHECK_EQ_U(f.valid, 7);
	/* a sector moved to another place in the block does not count as that place's */
	memcpy(old, b, BS);
	memcpy(old, b + DUR_SECTOR, DUR_SECTOR);
	CHECK(dur_classify(old, BS, RUN_ID, 9, 10, &f) == DUR_LOST_TORN);
}

TEST(a_block_never_acknowledged_is_newer_torn_or_missing_but_never_lost_or_intact)
{
	static unsigned char b[BS];
	struct dur_found f;
	stamp(b, 4, 1, 7);
	CHECK(dur_classify(b, BS, RUN_ID, 4, 0, &f) == DUR_NEWER);
	memset(b, 0, DUR_SECTOR);
	CHECK(dur_classify(b, BS, RUN_ID, 4, 0, &f) == DUR_TORN);
	memset(b, 0, BS);
	CHECK(dur_classify(b, BS, RUN_ID, 4, 0, &f) == DUR_LOST_MISSING);
}

TEST(writer_messages_and_log_records_parse_strictly)
{
	struct dur_record r;
	CHECK(dur_record_parse("A 12 7", false, &r) == 0);
	CHECK(r.kind == 'A');
	CHECK_EQ_U(r.block, 12);
	CHECK_EQ_U(r.seq, 7);
	CHECK(dur_record_parse("I 3 0 18446744073709551615", true, &r) == 0);
	CHECK(r.kind == 'I');
	CHECK_EQ_U(r.writer, 3);
	CHECK_EQ_U(r.block, 0);
	CHECK(r.seq == UINT64_MAX);
	static const char *const bad[] = {
		"", "A", "A 1", "A 1 0", "A  1 2", "A 1 2 ", "B 1 2", "a 1 2", "A 01 2", "A 1 -2",
		"A 1 2x", "A 18446744073709551616 1", "A 1 2 3", "A 1 2\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(dur_record_parse(bad[i], false, &r) == -EINVAL);
	CHECK(dur_record_parse("A 1 2", true, &r) == -EINVAL);
	CHECK(dur_record_parse("A 4294967296 1 2", true, &r) == -EINVAL);

	char buf[24];
	CHECK_EQ_U(dur_put_u64(buf, 0), 1);
	CHECK(buf[0] == '0');
	size_t n = dur_put_u64(buf, 18446744073709551615ULL);
	CHECK(n == 20 && memcmp(buf, "18446744073709551615", 20) == 0);
	char hex[17];
	uint64_t run;
	dur_run_hex(0xabcULL, hex);
	CHECK(strcmp(hex, "0000000000000abc") == 0);
	CHECK(dur_run_parse(hex, &run) == 0 && run == 0xabc);
	CHECK(dur_run_parse("0000000000000ABC", &run) == -EINVAL);
	CHECK(dur_run_parse("abc", &run) == -EINVAL);
}

TEST(hello_lines_round_trip_with_escaped_paths)
{
	struct dur_run_info a = { .run = RUN_ID, .writer = 2, .writers = 4, .block_size = 4096, .blocks = 1000,
				  .start = 1700000000 };
	strcpy(a.op, "write4k/64");
	strcpy(a.host, "db 1");
	strcpy(a.target, "/mnt/my disk/x=1%.dat");
	char line[DUR_LINE_MAX];
	int n = dur_hello_format(line, sizeof(line), &a);
	CHECK(n > 0);
	CHECK(strchr(line, '\n') == NULL);
	CHECK(strstr(line, "target=/mnt/my%20disk/x%3D1%25.dat") != NULL);
	struct dur_run_info b;
	CHECK(dur_hello_parse(line, &b) == 0);
	CHECK(b.run == RUN_ID);
	CHECK_EQ_U(b.writer, 2);
	CHECK_EQ_U(b.writers, 4);
	CHECK_EQ_U(b.block_size, 4096);
	CHECK_EQ_U(b.blocks, 1000);
	CHECK(b.start == 1700000000);
	CHECK(strcmp(b.op, "write4k/64") == 0);
	CHECK(strcmp(b.host, "db 1") == 0);
	CHECK(strcmp(b.target, a.target) == 0);
	/* unknown keys are skipped; missing, repeated or impossible ones refused */
	char more[DUR_LINE_MAX + 16];
	snprintf(more, sizeof(more), "%s future=1", line);
	CHECK(dur_hello_parse(more, &b) == 0);
	static const char *const bad[] = {
		"HELLO iobench-durability 2 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=t start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=1 writers=1 blocksize=4096 blocks=9 op=w host=h target=t start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=1000 blocks=9 op=w host=h target=t start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=t start=1 run=0123456789abcdef",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=%2 start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=%00 start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=t start=1 ",
		"HELLO iobench-durability 1 run=xyz writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=t start=1",
		/* a peer's names reach logs and terminals: no control byte, escaped or raw */
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h%0Aforged target=t start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=%1B[2J start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w%07 host=h target=t start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h target=a\x1b[31m start=1",
		"HELLO iobench-durability 1 run=0123456789abcdef writer=0 writers=1 blocksize=4096 blocks=9 op=w host=h\x7f target=t start=1",
		"HELLO iobench 1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (dur_hello_parse(bad[i], &b) != -EINVAL)
			fprintf(stderr, "  accepted: %s\n", bad[i]);
		CHECK(dur_hello_parse(bad[i], &b) == -EINVAL);
	}
	/* a path that cannot fit the line is refused, not cut */
	memset(a.target, 'x', sizeof(a.target) - 1);
	a.target[sizeof(a.target) - 1] = '\0';
	char small[300];
	CHECK(dur_hello_format(small, sizeof(small), &a) == -ENOSPC);
}

TEST(the_map_keeps_the_newest_promise_per_block_sorted)
{
	struct dur_map m = { 0 };
	struct dur_record recs[] = {
		{ 'I', 0, 50, 1 }, { 'A', 0, 50, 1 }, { 'I', 0, 50, 4 }, { 'A', 0, 50, 3 },
		{ 'I', 0, 7, 2 }, { 'A', 1, 0, 9 },
	};
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		CHECK(dur_map_note(&m, &recs[i]) == 0);
	/* many blocks make it grow */
	for (uint64_t b = 1000; b < 5000; b++) {
		struct dur_record r = { 'A', 0, b, b };
		CHECK(dur_map_note(&m, &r) == 0);
	}
	size_t n;
	struct dur_block *s = dur_map_sorted(&m, &n);
	CHECK_EQ_U(n, 3 + 4000);
	CHECK(s != NULL);
	if (s && n == 4003) {
		CHECK_EQ_U(s[0].block, 0);
		CHECK_EQ_U(s[0].acked, 9);
		CHECK_EQ_U(s[1].block, 7);
		CHECK_EQ_U(s[1].acked, 0);
		CHECK_EQ_U(s[1].intended, 2);
		CHECK_EQ_U(s[2].block, 50);
		CHECK_EQ_U(s[2].acked, 3);
		CHECK_EQ_U(s[2].intended, 4);
		bool ascending = true;
		for (size_t i = 1; i < n; i++)
			ascending &= s[i - 1].block < s[i].block;
		CHECK(ascending);
		CHECK_EQ_U(s[4002].acked, 4999);
	}
	free(s);
	dur_map_free(&m);
	CHECK_EQ_U(m.n, 0);
}

TEST(text_from_a_peer_is_escaped_to_printable_ascii)
{
	char out[64];
	CHECK(dur_text_escape(out, sizeof(out), "db1 /dev/sdb") == 12);
	CHECK(strcmp(out, "db1 /dev/sdb") == 0);
	dur_text_escape(out, sizeof(out), "a\nverdict: ok\x1b[2J\x07\\\x9b\xc3\xa9");
	CHECK(strcmp(out, "a\\x0averdict: ok\\x1b[2J\\x07\\\\\\x9b\\xc3\\xa9") == 0);
	/* cut at a whole escape, always terminated */
	char tiny[6];
	CHECK(dur_text_escape(tiny, sizeof(tiny), "ab\x1b") == 2);
	CHECK(strcmp(tiny, "ab") == 0);
}

/* Does ADDR (v4 or v6 text) lie in CIDR? */
static bool in_block(const char *cidr, const char *addr)
{
	struct dur_cidr c;
	struct sockaddr_in in = { .sin_family = AF_INET };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
	if (dur_cidr_parse(cidr, &c) != 0)
		return false;
	if (inet_pton(AF_INET, addr, &in.sin_addr) == 1)
		return dur_cidr_match(&c, (struct sockaddr *)&in);
	return inet_pton(AF_INET6, addr, &in6.sin6_addr) == 1 && dur_cidr_match(&c, (struct sockaddr *)&in6);
}

TEST(allow_blocks_match_their_addresses_and_no_others)
{
	CHECK(in_block("127.0.0.1/32", "127.0.0.1"));
	CHECK(!in_block("127.0.0.1/32", "127.0.0.2"));
	CHECK(in_block("127.0.0.1", "127.0.0.1"));
	CHECK(in_block("10.0.0.0/8", "10.255.1.2"));
	CHECK(!in_block("10.0.0.0/8", "11.0.0.1"));
	CHECK(in_block("192.168.4.0/22", "192.168.7.255"));
	CHECK(!in_block("192.168.4.0/22", "192.168.8.0"));
	CHECK(in_block("0.0.0.0/0", "203.0.113.9"));
	CHECK(in_block("10.0.0.0/8", "::ffff:10.1.2.3")); /* an IPv4 peer on a dual-stack socket */
	CHECK(!in_block("10.0.0.0/8", "fd00::1"));
	CHECK(in_block("fd00::/8", "fd12::1"));
	CHECK(!in_block("fd00::/8", "fe80::1"));
	CHECK(in_block("::1", "::1"));
	struct dur_cidr c;
	static const char *const bad[] = { "10.0.0.5/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "host", "", "/8",
					   "::1/129", "10.0.0.0/08x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(dur_cidr_parse(bad[i], &c) == -EINVAL);
}

TEST(the_default_port_as_text_is_the_port)
{
	char want[16];
	snprintf(want, sizeof(want), "%d", DUR_DEFAULT_PORT);
	CHECK(strcmp(DUR_DEFAULT_PORT_STR, want) == 0);
}

int main(void)
{
	RUN(every_sector_carries_the_stamp_and_its_index);
	RUN(a_flipped_byte_anywhere_in_a_sector_breaks_its_checksum);
	RUN(a_block_is_classified_against_its_acknowledged_version);
	RUN(a_block_never_acknowledged_is_newer_torn_or_missing_but_never_lost_or_intact);
	RUN(writer_messages_and_log_records_parse_strictly);
	RUN(hello_lines_round_trip_with_escaped_paths);
	RUN(the_map_keeps_the_newest_promise_per_block_sorted);
	RUN(text_from_a_peer_is_escaped_to_printable_ascii);
	RUN(allow_blocks_match_their_addresses_and_no_others);
	RUN(the_default_port_as_text_is_the_port);
	return check_summary("test_durability");
}
