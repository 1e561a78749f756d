/* test_parse.c - sizes, durations, op specs (short and long form, one vocabulary with the report), thread lists. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "lib/opspec.h"
#include "lib/units.h"
#include "report/store/db.h"
#include "report/store/opname.h"

TEST(sizes_use_binary_units_case_insensitively)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} ok[] = {
		{ "512", 512 }, { "4k", 4096 }, { "4K", 4096 }, { "64K", 65536 },
		{ "1m", 1048576 }, { "4M", 4194304 }, { "1g", 1073741824ULL },
		{ "10GiB", 10737418240ULL }, { "4KB", 4096 }, { "2T", 2199023255552ULL },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 0;
		CHECK(units_parse_size(ok[i].text, &v) == 0);
		CHECK_EQ_U(v, ok[i].bytes);
	}
	static const char *const bad[] = { "", "k", "-4k", "4x", "4 k", "4kk", "1.5M", "0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v;
		CHECK(units_parse_size(bad[i], &v) == -EINVAL);
	}
	uint64_t v;
	CHECK(units_parse_size("99999999999999999999", &v) == -ERANGE);
	CHECK(units_parse_size("9000000P", &v) == -ERANGE);
}

TEST(signature_sizes_print_like_the_2012_tool)
{
	char buf[32];
	units_format_signature_size(buf, sizeof(buf), 4096);
	CHECK(strcmp(buf, "4K") == 0);
	units_format_signature_size(buf, sizeof(buf), 4194304);
	CHECK(strcmp(buf, "4M") == 0);
	units_format_signature_size(buf, sizeof(buf), 1000);
	CHECK(strcmp(buf, "1000") == 0);
	units_format_signature_size(buf, sizeof(buf), 1536);
	CHECK(strcmp(buf, "1536") == 0);
}

TEST(durations)
{
	uint64_t ns;
	CHECK(units_parse_duration("60", &ns) == 0);
	CHECK_EQ_U(ns, 60000000000ULL);
	CHECK(units_parse_duration("2.5", &ns) == 0);
	CHECK_EQ_U(ns, 2500000000ULL);
	CHECK(units_parse_duration("5m", &ns) == 0);
	CHECK_EQ_U(ns, 300000000000ULL);
	CHECK(units_parse_duration("0", &ns) == -ERANGE);
	CHECK(units_parse_duration("-1", &ns) == -EINVAL);
	CHECK(units_parse_duration("abc", &ns) == -EINVAL);
	CHECK(units_parse_duration("10x", &ns) == -EINVAL);
	CHECK(units_parse_duration("1000d", &ns) == -ERANGE);
	CHECK(units_parse_duration("0x10", &ns) == -EINVAL);
	CHECK(units_parse_duration("inf", &ns) == -EINVAL);
	CHECK(units_parse_duration(" 5", &ns) == -EINVAL);
	CHECK(units_parse_duration(".5", &ns) == 0);
	CHECK_EQ_U(ns, 500000000ULL);
}

TEST(plain_decimals_only)
{
	double v;
	const char *end;
	CHECK(units_parse_decimal("2.5x", &v, &end) == 0);
	CHECK(v == 2.5 && strcmp(end, "x") == 0);
	CHECK(units_parse_decimal("1e-3", &v, &end) == 0);
	CHECK(v == 1e-3 && *end == '\0');
	CHECK(units_parse_decimal("1e", &v, &end) == 0);
	CHECK(v == 1 && strcmp(end, "e") == 0);
	CHECK(units_parse_decimal("0x10", &v, &end) == 0);
	CHECK(v == 0 && strcmp(end, "x10") == 0);
	CHECK(units_parse_decimal("0.0", &v, &end) == 0);
	CHECK(v == 0);
	CHECK(units_parse_decimal("inf", &v, &end) == -EINVAL);
	CHECK(units_parse_decimal("nan", &v, &end) == -EINVAL);
	CHECK(units_parse_decimal("-1", &v, &end) == -EINVAL);
	CHECK(units_parse_decimal(".", &v, &end) == -EINVAL);
	CHECK(units_parse_decimal("1e400", &v, &end) == -ERANGE);
	CHECK(units_parse_decimal("1e-400", &v, &end) == -ERANGE);
}

TEST(latencies_say_their_unit)
{
	double ns;
	CHECK(units_parse_latency("50us", &ns) == 0 && ns == 50e3);
	CHECK(units_parse_latency("50\xc2\xb5s", &ns) == 0 && ns == 50e3);
	CHECK(units_parse_latency("1.5ms", &ns) == 0 && ns == 1.5e6);
	CHECK(units_parse_latency("800ns", &ns) == 0 && ns == 800);
	CHECK(units_parse_latency("2s", &ns) == 0 && ns == 2e9);
	/* the Greek mu as --expect takes it: one table of units for both */
	CHECK(units_parse_latency("50\xce\xbcs", &ns) == 0 && ns == 50e3);
	CHECK(units_duration_ns("ms") == 1e6 && units_duration_ns("min") == 0);
	/* 50 could be 50 ns or 50 ms */
	CHECK(units_parse_latency("50", &ns) == -EDOM);
	CHECK(units_parse_latency("50 us", &ns) == -EINVAL);
	CHECK(units_parse_latency(" 50us", &ns) == -EINVAL);
	CHECK(units_parse_latency("0x10us", &ns) == -EINVAL);
	CHECK(units_parse_latency("infs", &ns) == -EINVAL);
	CHECK(units_parse_latency("50m", &ns) == -EINVAL);
	CHECK(units_parse_latency("2h", &ns) == -EINVAL);
	CHECK(units_parse_latency("3601s", &ns) == -ERANGE);
}

TEST(percentages_are_plain_decimals)
{
	double v;
	CHECK(units_parse_percent("5", &v) == 0 && v == 5);
	CHECK(units_parse_percent("5%", &v) == 0 && v == 5);
	CHECK(units_parse_percent("12.5", &v) == 0 && v == 12.5);
	CHECK(units_parse_percent(" 1", &v) == -EINVAL);
	CHECK(units_parse_percent("0x10", &v) == -EINVAL);
	CHECK(units_parse_percent("-1", &v) == -EINVAL);
	CHECK(units_parse_percent("5 %", &v) == -EINVAL);
	CHECK(units_parse_percent("5%%", &v) == -EINVAL);
	CHECK(units_parse_percent("nan", &v) == -EINVAL);
}

TEST(study_ops_parse_to_their_signatures)
{
	static const struct {
		const char *text, *name, *signature;
		enum op_kind kind;
		uint64_t size;
		uint32_t every;
	} ops[] = {
		{ "read4k", "read4k", "read,4K,4K", OP_READ, 4096, 0 },
		{ "read4m", "read4m", "read,4M,4M", OP_READ, 4194304, 0 },
		{ "write4k", "write4k", "writeFlush,4K,4K", OP_WRITE_FLUSH, 4096, 0 },
		{ "write4m", "write4m", "writeFlush,4M,4M", OP_WRITE_FLUSH, 4194304, 0 },
		{ "write4k/64", "write4k/64", "write64,4K,4K", OP_WRITE_N, 4096, 64 },
		{ "READ64K", "read64k", "read,64K,64K", OP_READ, 65536, 0 },
		{ "read512", "read512", "read,512,512", OP_READ, 512, 0 },
		{ "write1m/1", "write1m/1", "write1,1M,1M", OP_WRITE_N, 1048576, 1 },
		{ "write4k/0", "write4k/0", "write,4K,4K", OP_WRITE_N, 4096, 0 },
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct op_spec s[4];
		char err[256] = "";
		CHECK(opspec_parse(ops[i].text, s, 4, err, sizeof(err)) == 1);
		CHECK(strcmp(s[0].name, ops[i].name) == 0);
		CHECK(strcmp(s[0].signature, ops[i].signature) == 0);
		CHECK(s[0].kind == ops[i].kind);
		CHECK_EQ_U(s[0].size, ops[i].size);
		CHECK_EQ_U(s[0].align, ops[i].size);
		CHECK_EQ_U(s[0].sync_every, ops[i].every);
		CHECK(s[0].threads == 0);
	}
}

TEST(alignment_suffix)
{
	struct op_spec s[1];
	char err[256];
	CHECK(opspec_parse("read64k@4k", s, 1, err, sizeof(err)) == 1);
	CHECK_EQ_U(s[0].size, 65536);
	CHECK_EQ_U(s[0].align, 4096);
	CHECK(strcmp(s[0].signature, "read,64K,4K") == 0);
	CHECK(strcmp(s[0].name, "read64k@4k") == 0);
}

TEST(long_form_with_phases)
{
	struct op_spec s[8];
	char err[256] = "";
	int n = opspec_parse("read,3,1K,1K.write,1,4K,4K", s, 8, err, sizeof(err));
	CHECK(n == 2);
	CHECK(s[0].kind == OP_READ && s[0].threads == 3 && s[0].size == 1024);
	CHECK(strcmp(s[0].signature, "read,1K,1K") == 0);
	CHECK(s[1].kind == OP_WRITE_N && s[1].sync_every == 0 && s[1].threads == 1);
	CHECK(strcmp(s[1].signature, "write,4K,4K") == 0);

	CHECK(opspec_parse("writeFlush,i,4K,4K", s, 8, err, sizeof(err)) == 1);
	CHECK(s[0].kind == OP_WRITE_FLUSH && s[0].threads == 0);
	CHECK(opspec_parse("write64,2.5,4K,4K", s, 8, err, sizeof(err)) == 1);
	CHECK(s[0].kind == OP_WRITE_N && s[0].sync_every == 64 && s[0].threads == 2.5);
	CHECK(strcmp(s[0].signature, "write64,4K,4K") == 0);
	CHECK(opspec_parse("read,5,25,64", s, 8, err, sizeof(err)) == 1);
	CHECK(strcmp(s[0].signature, "read,25,64") == 0);
}

TEST(bad_ops_say_why)
{
	static const char *const bad[] = {
		"", "foo4k", "read", "read4x", "read0", "read4k/64", "write4k/x",
		"read,1,4K", "read,0,4K,4K", "read,x,4K,4K", "frob,1,4K,4K",
		"read,1,4K,4K,9", "write0,1,4K,4K", "read2g", "read4k@0",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct op_spec s[4];
		char err[256] = "";
		int rc = opspec_parse(bad[i], s, 4, err, sizeof(err));
		if (rc >= 0)
			fprintf(stderr, "  accepted bad op '%s'\n", bad[i]);
		CHECK(rc < 0);
		CHECK(err[0] != '\0');
	}
}

TEST(sequential_and_mixed_ops)
{
	static const struct {
		const char *text, *name, *signature;
		enum op_kind kind;
		bool seq;
		unsigned pct;
		uint32_t every;
	} ops[] = {
		{ "seqread1m", "seqread1m", "seqRead,1M,1M", OP_READ, true, 0, 0 },
		{ "seqwrite1m", "seqwrite1m", "seqWriteFlush,1M,1M", OP_WRITE_FLUSH, true, 0, 0 },
		{ "seqwrite64k/8", "seqwrite64k/8", "seqWrite8,64K,64K", OP_WRITE_N, true, 0, 8 },
		{ "seqwrite64k/0", "seqwrite64k/0", "seqWrite,64K,64K", OP_WRITE_N, true, 0, 0 },
		{ "rw16k:70", "rw16k:70", "rw70,16K,16K", OP_MIXED, false, 70, 0 },
		{ "RW4K:0", "rw4k:0", "rw0,4K,4K", OP_MIXED, false, 0, 0 },
		{ "seqRead,2,1M,1M", "seqread1m", "seqRead,1M,1M", OP_READ, true, 0, 0 },
		{ "seqWrite64,1,4K,4K", "seqwrite4k/64", "seqWrite64,4K,4K", OP_WRITE_N, true, 0, 64 },
		{ "rw70,i,16K,16K", "rw16k:70", "rw70,16K,16K", OP_MIXED, false, 70, 0 },
	};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct op_spec s[2];
		char err[256] = "";
		CHECK(opspec_parse(ops[i].text, s, 2, err, sizeof(err)) == 1);
		if (strcmp(s[0].name, ops[i].name) || strcmp(s[0].signature, ops[i].signature))
			fprintf(stderr, "  %s -> %s %s\n", ops[i].text, s[0].name, s[0].signature);
		CHECK(strcmp(s[0].name, ops[i].name) == 0);
		CHECK(strcmp(s[0].signature, ops[i].signature) == 0);
		CHECK(s[0].kind == ops[i].kind);
		CHECK(s[0].sequential == ops[i].seq);
		CHECK_EQ_U(s[0].read_pct, ops[i].pct);
		CHECK_EQ_U(s[0].sync_every, ops[i].every);
	}
	static const char *const bad[] = { "rw16k", "rw16k:101", "rw16k:x", "seqrw4k:5", "rw4k:50/8", "rw101,1,4K,4K" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct op_spec s[2];
		char err[256] = "";
		CHECK(opspec_parse(bad[i], s, 2, err, sizeof(err)) < 0);
		CHECK(err[0] != '\0');
	}
}

TEST(input_is_never_a_format_string)
{
	/* found by fuzz_opspec: a '%' in a bad size reached snprintf's format */
	struct op_spec s[2];
	char err[256] = "";
	CHECK(opspec_parse("read4d4t%s%s%n", s, 2, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "bad size '4d4t%s%s%n'") != NULL);
	CHECK(opspec_parse("write,1,%n%n,4K", s, 2, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "'%n%n'") != NULL);
}

TEST(thread_lists)
{
	unsigned t[64];
	char err[256];
	CHECK(opspec_parse_threads("24", t, 64, err, sizeof(err)) == 1 && t[0] == 24);
	CHECK(opspec_parse_threads("1,2,4", t, 64, err, sizeof(err)) == 3 && t[2] == 4);
	int n = opspec_parse_threads("1..4,8,16", t, 64, err, sizeof(err));
	CHECK(n == 6);
	CHECK(t[0] == 1 && t[3] == 4 && t[4] == 8 && t[5] == 16);
	CHECK(opspec_parse_threads("0", t, 64, err, sizeof(err)) == -ERANGE);
	CHECK(opspec_parse_threads("5000", t, 64, err, sizeof(err)) == -ERANGE);
	CHECK(opspec_parse_threads("4..2", t, 64, err, sizeof(err)) == -EINVAL);
	CHECK(opspec_parse_threads("a", t, 64, err, sizeof(err)) == -EINVAL);
	CHECK(opspec_parse_threads("1..100", t, 64, err, sizeof(err)) == -ERANGE);
	CHECK(opspec_parse_threads("", t, 64, err, sizeof(err)) == -EINVAL);
}

TEST(each_op_word_is_found_as_the_entry_names_are_made_from)
{
	static const struct {
		enum op_kind kind;
		bool sequential;
	} kinds[] = {
		{ OP_READ, false }, { OP_WRITE_FLUSH, false }, { OP_WRITE_N, false }, { OP_MIXED, false },
		{ OP_READ, true },  { OP_WRITE_FLUSH, true },  { OP_WRITE_N, true },
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct opspec_word *w = opspec_word_of(kinds[i].kind, kinds[i].sequential);
		CHECK(w->kind == kinds[i].kind && w->sequential == kinds[i].sequential);
		char word[32];
		snprintf(word, sizeof(word), "%s%s", w->word, w->number == OPSPEC_NUMBER_REQUIRED ? "70" : "");
		const char *num;
		size_t nl;
		CHECK(opspec_word_find(word, strlen(word), &num, &nl) == w);
	}
	const char *num;
	size_t nl;
	const struct opspec_word *w = opspec_word_find("write64,4K,4K", 7, &num, &nl);
	CHECK(w && w->kind == OP_WRITE_N && !w->sequential && nl == 2 && strncmp(num, "64", 2) == 0);
	CHECK(opspec_word_find("rw", 2, &num, &nl) == NULL);
	CHECK(opspec_word_find("read5", 5, &num, &nl) == NULL);
	CHECK(opspec_word_find("seqrw5", 6, &num, &nl) == NULL);
	CHECK(opspec_word_find("writeflush", 10, &num, &nl) == NULL);
}

/* The report turns a signature back into the name typed (report/store/opname.c): both read one vocabulary. */
TEST(a_signature_names_the_op_as_it_was_typed)
{
	static const char *const names[] = {
		"read4k", "write4k", "write4k/64", "write4k/0", "seqread1m", "seqwrite64k", "seqwrite64k/8",
		"rw16k:70", "rw16k@1k:30", "read4k@512", "write8k@4k/16",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct op_spec op;
		char err[256], back[OPSPEC_NAME_MAX];
		CHECK(opspec_parse(names[i], &op, 1, err, sizeof(err)) == 1);
		CHECK(strcmp(op.name, names[i]) == 0);
		rep_op_name(op.signature, back, sizeof(back));
		if (strcmp(back, op.name) != 0)
			fprintf(stderr, "  %s -> %s -> %s\n", names[i], op.signature, back);
		CHECK(strcmp(back, op.name) == 0);
	}
	CHECK(rep_kind_of("read,4K,4K") == REP_READ);
	CHECK(rep_kind_of("writeFlush,4K,4K") == REP_WRITE_FLUSH);
	CHECK(rep_kind_of("write,4K,4K") == REP_WRITE);
	CHECK(rep_kind_of("write64,4K,4K") == REP_WRITE_N);
	CHECK(rep_kind_of("seqWrite64,4K,4K") == REP_OTHER);
	CHECK(rep_kind_of("rw70,4K,4K") == REP_OTHER);
	CHECK(rep_kind_of("write6x,4K,4K") == REP_OTHER);
}

int main(void)
{
	RUN(sizes_use_binary_units_case_insensitively);
	RUN(each_op_word_is_found_as_the_entry_names_are_made_from);
	RUN(a_signature_names_the_op_as_it_was_typed);
	RUN(signature_sizes_print_like_the_2012_tool);
	RUN(durations);
	RUN(latencies_say_their_unit);
	RUN(percentages_are_plain_decimals);
	RUN(plain_decimals_only);
	RUN(study_ops_parse_to_their_signatures);
	RUN(alignment_suffix);
	RUN(long_form_with_phases);
	RUN(bad_ops_say_why);
	RUN(sequential_and_mixed_ops);
	RUN(input_is_never_a_format_string);
	RUN(thread_lists);
	return check_summary("test_parse");
}
