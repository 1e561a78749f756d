/* test_report_term.c - the report's terminal writer: data's control characters and bad UTF-8 as '?'. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <string.h>

#include "check.h"
#include "report/render/term.h"

static int same(const char *in, const char *want)
{
	char buf[256];
	term_clean(buf, sizeof(buf), in);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "  term_clean(\"%s\") gave \"%s\", not \"%s\"\n", in, buf, want);
	return strcmp(buf, want) == 0;
}

TEST(controls_become_one_question_mark_each)
{
	CHECK(same("g2\x1b]0;PWN\a\rFORGED\nFAKE", "g2?]0;PWN??FORGED?FAKE"));
	CHECK(same("a\tb\x7f", "a?b?"));
	/* C1 CSI (U+009B) is two bytes, one '?' */
	CHECK(same("gp3\xc2\x9b" "2J", "gp3?2J"));
	/* bidirectional overrides reorder what is shown */
	CHECK(same("a\xe2\x80\xae" "b\xe2\x81\xa6", "a?b?"));
	CHECK(same(NULL, ""));
}

TEST(valid_utf8_passes_invalid_bytes_do_not)
{
	CHECK(same("µs → 日本 \xf0\x9f\x98\x80", "µs → 日本 \xf0\x9f\x98\x80"));
	/* a stray continuation, a cut sequence, an overlong '/', a surrogate, past U+10FFFF */
	CHECK(same("a\x80" "b", "a?b"));
	CHECK(same("a\xe2\x86", "a??"));
	CHECK(same("\xc0\xaf", "??"));
	CHECK(same("\xed\xa0\x80", "???"));
	CHECK(same("\xf4\x90\x80\x80", "????"));
	CHECK(same("\xff", "?"));
}

TEST(clean_in_place_and_cut_at_a_character)
{
	char s[] = "x\x1b[2J\xe2\x86\x92";
	term_clean(s, sizeof(s), s);
	CHECK(strcmp(s, "x?[2J→") == 0);
	char small[6];
	term_clean(small, sizeof(small), "abcd→");
	CHECK(strcmp(small, "abcd") == 0);
}

TEST(printf_cleans_strings_from_data_and_keeps_its_own_format)
{
	char buf[128];
	int n = term_snprintf(buf, sizeof(buf), "run %s (%s): %zu of %d\n", "r\x1b[2J", "ok\r\n", (size_t)3, 4);
	CHECK(strcmp(buf, "run r?[2J (ok?" "?): 3 of 4\n") == 0);
	CHECK(n == (int)strlen(buf));
	term_snprintf(buf, sizeof(buf), "[%-5s|%5s|%.2s|%*s|%-*s]", "a\n", "b", "c\x07" "d", 3, "e", 2, "f");
	CHECK(strcmp(buf, "[a?   |    b|c?|  e|f ]") == 0);
	term_snprintf(buf, sizeof(buf), "%.1f %5.2e %lu %lld %x %c %% %s", 1.25, 1000.0, 7ul, -8ll, 255u, '\x1b', "é");
	CHECK(strcmp(buf, "1.2 1.00e+03 7 -8 ff ? % é") == 0);
	/* cut at a character's start, and the length of the whole said */
	char small[7];
	n = term_snprintf(small, sizeof(small), "ab%s", "cd→→");
	CHECK(strcmp(small, "abcd") == 0);
	CHECK(n == 10);
}

int main(void)
{
	RUN(controls_become_one_question_mark_each);
	RUN(valid_utf8_passes_invalid_bytes_do_not);
	RUN(clean_in_place_and_cut_at_a_character);
	RUN(printf_cleans_strings_from_data_and_keeps_its_own_format);
	return check_summary("report_term");
}
