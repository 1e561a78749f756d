/* report.c - `iobench report`: options, reading, and which sections to print how. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <errno.h>
#include <jansson.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/price.h"
#include "lib/err.h"
#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/sections/analyze.h"
#include "report/store/db.h"
#include "report/sections/expect.h"
#include "report/sections/summary.h"
#include "report/render/junit.h"
#include "report/charts/plot.h"
#include "report/render/term.h"
#include "report/store/config.h"
#include "report/store/opname.h"
#include "report/store/manifest.h"
#include "report/read/read.h"

#define MAX_FILTERS 16
#define MAX_COMPARE 16
#define MAX_BASELINE 64

struct report_args {
	bool csv, json, quiet, detail;
	bool include_partial, merge_rounds;
	bool want[SEC_COUNT], chosen; /* --section: which; chosen when given */
	const char *prices_path, *plot_dir;
	const char *only[MAX_FILTERS]; /* --only KEY=GLOB */
	int nonly;
	const char *compare[MAX_COMPARE]; /* --compare "A vs B" */
	const char *expect_path;
	const char *baseline[MAX_BASELINE]; /* --baseline PATH: the results these are judged against */
	int nbaseline;
	const char *junit_path;
	uint64_t jobs;                 /* --jobs; 0: one reading thread per CPU */
	struct rep_opts o;
};

static int parse_section(void *settings, const char *arg);
static int parse_floor(void *settings, const char *arg);
static int parse_only(void *settings, const char *arg);
static int parse_within(void *settings, const char *arg);
static int parse_tier_threshold(void *settings, const char *arg);
static int parse_compare(void *settings, const char *arg);
static int parse_baseline(void *settings, const char *arg);
static int parse_tolerance(void *settings, const char *arg);

/* --section's and --detail's help name the sections by their kind: written by help_from_sections(). */
static char section_help[256], detail_help[256];

#define CMDLINE_SETTINGS struct report_args
/* name, short, value, commands, help, default, how */
static const struct cmdline_opt report_opts[] = {
	{ "csv", 0, NULL, 0, "CSV instead of aligned text: the groups section, or the sections\n"
	  "named by --section (each after a \"# name\" line when several)", NULL, FLAG(csv) },
	{ "json", 0, NULL, 0, "one JSON object: \"inputs\" and one array per section", NULL, FLAG(json) },
	{ "section", 0, "LIST", 0, section_help, NULL, CUSTOM(parse_section) },
	{ "detail", 0, NULL, 0, detail_help, NULL, FLAG(detail) },
	{ "merge-hosts", 0, NULL, 0, "groups, modes and durability merged across hosts (default: per host)", NULL,
	  FLAG(o.merge_hosts) },
	{ "include-partial", 0, NULL, 0, "merge interrupted, targetLost and short runs with whole ones\n"
	  "(default: kept apart, marked [interrupted] ..., out of the fleet's figures)", NULL,
	  FLAG(include_partial) },
	{ "merge-rounds", 0, NULL, 0, "merge rounds (runId roundN) and runs of different durations (default:\n"
	  "separate groups, named \"round 2\", \"8 s runs\")", NULL, FLAG(merge_rounds) },
	{ "only", 0, "KEY=GLOB", 0, "keep only runs whose KEY matches the shell pattern GLOB: KEY is\n"
	  "host, op (as typed: read4k, 'write4k/*'; a signature such as\n"
	  "'read,4K,*' matches too), signature (read,4K,4K), threads, a label\n"
	  "key (config=large/*) or a provisioned configuration fact\n"
	  "(instanceType=m5.*); repeatable, all must match", NULL, CUSTOM(parse_only) },
	{ "prices", 0, "FILE", 0, "prices for the ops-per-dollar section (share/prices-sample.json)", NULL,
	  STRING(prices_path) },
	{ "floor", 0, "DURATION", 0, "flushed writes with a p50 below this are durability-suspicious\n"
	  "(on EBS, by the provision facts, 100us at least);\n"
	  "a number and its unit: ns, us (or \xc2\xb5s), ms, s", CMDLINE_STR(REP_FLOOR_US) "us", CUSTOM(parse_floor) },
	{ "within", 0, "PCT", 0, "the optimal thread count is the fewest threads within PCT percent\n"
	  "of the best ops/s", CMDLINE_STR(REP_WITHIN_PCT), CUSTOM(parse_within) },
	{ "tier-threshold", 0, "PCT", 0, "the smallest p50 step between two tiers of a size sweep; a step\n"
	  "must also be twice the runs' noise", CMDLINE_STR(REP_TIER_PCT), CUSTOM(parse_tier_threshold) },
	{ "compare", 0, "'A vs B'", 0, "compare side A with side B per op (the compare section): each side\n"
	  "a glob on config names or KEY=GLOB on the host, a label or a\n"
	  "configuration fact; repeatable (default: every two configs that\n"
	  "differ in one label, label part or fact)", NULL, CUSTOM(parse_compare) },
	{ "expect", 0, "FILE", 0, "check the expected figures in FILE ('read4k >= 15000 iops at 16\n"
	  "threads', 'write4k p99 <= 5ms'; a latency says its unit: ns, us or\n"
	  "\xc2\xb5s, ms, s): PASS/FAIL per line and host, exit 1 on a FAIL; prints\n"
	  "only that section unless --section names more", NULL, STRING(expect_path) },
	{ "baseline", 0, "PATH", 0, "judge the results (PATH...) against these: each cell (op, threads,\n"
	  "config, size) against the baseline's same cell, B/A of ops/s with a\n"
	  "95% interval, faster, slower or no difference; exit 4 when one is\n"
	  "slower beyond --tolerance; repeatable (a file, folder or -); prints\n"
	  "only that section unless --section names more", NULL, CUSTOM(parse_baseline) },
	{ "tolerance", 0, "PCT", 0, "with --baseline: a cell slower than the baseline by more than PCT\n"
	  "percent (and surely slower: its interval below 1) is a regression",
	  CMDLINE_STR(REP_TOLERANCE_PCT), CUSTOM(parse_tolerance) },
	{ "junit", 0, "FILE", 0, "write JUnit XML to FILE: a testcase per --baseline cell (a failure\n"
	  "for each regression) and per --expect line and host (a failure for\n"
	  "each FAIL)", NULL, STRING(junit_path) },
	{ "plot", 0, "DIR", 0, "write gnuplot scripts and data to DIR, render PNG and SVG, and\n"
	  "DIR/index.html: the findings first, then each section's table\n"
	  "beside its charts (needs gnuplot; said before reading)", NULL, STRING(plot_dir) },
	{ "jobs", 'j', "N", 0, "threads that read (parse) the files (default: one per CPU,\n"
	  "at most 8); the report is the same with any number", NULL, U64(jobs, 1, 64) },
	QUIET_ROW(0, "do not report skipped lines"),
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS

/* The table's check: one output format, and a PATH to read. */
static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	const struct report_args *a = settings;
	(void)cmd;
	(void)operands;
	if (a->csv && a->json)
		return diag_usage("--csv and --json exclude each other; give one");
	if (noperands == 0)
		return diag_usage("no PATH given; give a results file, a folder, or - (see 'iobench report --help')");
	if (a->junit_path && !a->nbaseline && !a->expect_path)
		return diag_usage("--junit writes the verdicts of --baseline or --expect; give one of them");
	return 0;
}

static const struct cmdline_table report_table = {
	report_opts, sizeof(report_opts) / sizeof(report_opts[0]), NULL, check_args,
};

/* The keys of the sections shown so, "a, b, c", into buf. */
static void sections_shown(enum rep_shown shown, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int s = 0; s < SEC_COUNT; s++)
		if (rep_section_shown(s) == shown && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", rep_section_name(s));
}

/* --section's and --detail's help, from the sections' table: which the defaults leave out. */
static void help_from_sections(void)
{
	char named[96], json[96], detail[96];
	sections_shown(REP_SHOWN_NAMED, named, sizeof(named));
	sections_shown(REP_SHOWN_JSON, json, sizeof(json));
	sections_shown(REP_SHOWN_DETAIL, detail, sizeof(detail));
	snprintf(section_help, sizeof(section_help),
		 "only these sections, comma-separated (default: all with data\n"
		 "but %s, %s only in JSON; the sections are listed below)", named, json);
	snprintf(detail_help, sizeof(detail_help),
		 "also the per-host sections in text: %s\n"
		 "(the default text is the summary and the fleet's sections)", detail);
}

/* --help after the options: how runs group, then every section from the report's own table. */
static void report_help_sections(FILE *out)
{
	fputs("\n"
	      "Ops are named as typed (read4k, write4k/64, read64k@4k, rw4k:70); JSON and CSV\n"
	      "also carry each one's 2012 signature (read,4K,4K) as \"signature\".\n"
	      "\n"
	      "Grouping: runs merge exactly by op x thread count x config x size, per\n"
	      "host. The config is the user's labels (--label k=v) and the provisioned\n"
	      "configuration facts (instanceType, volumeType, volumeCount, raidLevel, ...),\n"
	      "named from the facts (\"m5.large / gp3 x4 / raid0\"), else by the labels.\n"
	      "Bookkeeping never splits a group: notes, and older files' run, runId, fleetHost,\n"
	      "planStep and spanHuman labels. Unlike runs stay apart: interrupted, targetLost\n"
	      "and short runs are groups of their own, marked [interrupted] ... after the\n"
	      "config and left out of the fleet's figures (--include-partial merges them);\n"
	      "rounds (a runId note roundN) and runs of another runtime are separate groups\n"
	      "(--merge-rounds merges them). The host is the line's host name (--host), a\n"
	      "legacy fleetHost label, else the hostname; lines without one (the 2012 tool's)\n"
	      "take the name of the folder holding the file. The size is a fileSize or span\n"
	      "label, else target.span, else fileSize. Sizes and thread counts sort as numbers.\n"
	      "A fleet's manifest.json in a folder read adds its failed and missing hosts and\n"
	      "\"N of M hosts\" per config. ops/s = operations / run time; across hosts, the\n"
	      "mean per host.\n"
	      "\n"
	      "Sections:\n", out);
	for (int s = 0; s < SEC_COUNT; s++) {
		const char *help = rep_section_help(s);
		size_t n = strcspn(help, "\n");
		fprintf(out, "  %-11s %.*s\n", rep_section_name(s), (int)n, help);
		while (help[n] == '\n') {
			help += n + 1;
			n = strcspn(help, "\n");
			fprintf(out, "%14s%.*s\n", "", (int)n, help);
		}
	}
}

static const struct cmdline_cmd report_cmd = {
	.name = "report",
	.bit = 1,
	.table = &report_table,
	.intro = "usage: iobench report [OPTIONS] PATH...\n"
		 "\n"
		 "Read benchmark results, merge their histograms exactly and print what they say.\n"
		 "PATH is a result file (.jsonl lines of iobench or bonnie++, the 2012 tool's run.out\n"
		 "or its one-object-per-line .json), a folder searched recursively for *.jsonl,\n"
		 "*.json and *.out, or - for standard input. Malformed lines are reported and skipped.\n"
		 "\n"
		 "Options:\n",
	.help_more = report_help_sections,
	.outro = "\n"
		 "Examples:\n"
		 "  iobench report results/2026-11-21-ebs/\n"
		 "  iobench report --merge-hosts --plot plots/ results/run1/\n"
		 "  iobench report --csv --section instances,badApples results/\n"
		 "  iobench report --only config='large/*' --only op='read*' results/\n"
		 "  iobench report --compare 'config=large/ebs1 vs config=large/ebs4' iobench_1/\n"
		 "  iobench report --expect box.expect results/\n"
		 "  iobench report --baseline results/v1/ --junit report.xml results/v2/\n"
		 "Exit: 0 ok, 1 nothing usable read (an --only op= that matches no op too),\n"
		 "gnuplot missing (said before reading) or failing, or an expectation failed;\n"
		 "2 usage error (a bad --expect file is one, said as FILE:LINE); 4 a cell\n"
		 "slower than the --baseline beyond --tolerance (when nothing above applies).\n",
};

/* --section LIST: names separated by commas (empty names between them are skipped; none at all is an error). */
static int parse_section(void *settings, const char *arg)
{
	struct report_args *a = settings;
	if (arg[strspn(arg, ",")] == '\0')
		return diag_usage("--section '%s' names no section; e.g. --section groups,instances", arg);
	for (const char *tok = arg; *tok; tok += *tok == ',') {
		size_t len = strcspn(tok, ",");
		int sec = rep_section_find(tok, len);
		if (len > 0 && sec < 0)
			return diag_usage("unknown section '%.*s'; see 'iobench report --help'", (int)len, tok);
		if (len > 0)
			a->want[sec] = true;
		tok += len;
	}
	a->chosen = true;
	return 0;
}

static int parse_floor(void *settings, const char *arg)
{
	struct report_args *a = settings;
	int rc = units_parse_latency(arg, &a->o.floor_ns);
	if (rc == -EDOM)
		return diag_usage("bad --floor '%s': a duration says its unit; say %sus or %gms (ns, us or \xc2\xb5s, ms, s)",
				  arg, arg, atof(arg) / 1e3);
	if (rc != 0)
		return diag_usage("bad --floor '%s'; use a duration like 50us or 1ms (ns, us or \xc2\xb5s, ms, s; at most 1 h)",
				  arg);
	return 0;
}

static int parse_only(void *settings, const char *arg)
{
	struct report_args *a = settings;
	if (!strchr(arg, '=') || arg[0] == '=')
		return diag_usage("bad --only '%s'; use KEY=GLOB, e.g. --only config=large/*", arg);
	if (a->nonly == MAX_FILTERS)
		return diag_usage("too many --only options (at most %d)", MAX_FILTERS);
	a->only[a->nonly++] = arg;
	return 0;
}

/* --within PCT */
static int parse_within(void *settings, const char *arg)
{
	struct report_args *a = settings;
	double v;
	if (units_parse_percent(arg, &v) != 0 || !(v >= 0 && v < 100))
		return diag_usage("bad --within '%s'; use a percentage from 0 to 99, e.g. 5", arg);
	a->o.within = v / 100;
	return 0;
}

/* --tier-threshold PCT: a step of PCT percent up or down. */
static int parse_tier_threshold(void *settings, const char *arg)
{
	struct report_args *a = settings;
	double v;
	if (units_parse_percent(arg, &v) != 0 || !(v > 0 && v <= 10000))
		return diag_usage("bad --tier-threshold '%s'; use a percentage above 0, e.g. 50", arg);
	a->o.tier_min = v / 100;
	return 0;
}

/* --compare 'A vs B': two non-empty sides around " vs ". */
static int parse_compare(void *settings, const char *arg)
{
	struct report_args *a = settings;
	const char *vs = strstr(arg, " vs ");
	if (!vs || vs == arg || vs[4] == '\0' || strstr(vs + 4, " vs "))
		return diag_usage("bad --compare '%s'; use 'A vs B', e.g. --compare 'config=large/ebs1 vs "
				  "config=large/ebs4'", arg);
	if (a->o.ncompare == MAX_COMPARE)
		return diag_usage("too many --compare options (at most %d)", MAX_COMPARE);
	a->compare[a->o.ncompare++] = arg;
	a->o.compare = a->compare;
	return 0;
}

/* --baseline PATH: repeatable. */
static int parse_baseline(void *settings, const char *arg)
{
	struct report_args *a = settings;
	if (a->nbaseline == MAX_BASELINE)
		return diag_usage("too many --baseline options (at most %d); give a folder that holds them", MAX_BASELINE);
	a->baseline[a->nbaseline++] = arg;
	return 0;
}

/* --tolerance PCT */
static int parse_tolerance(void *settings, const char *arg)
{
	struct report_args *a = settings;
	double v;
	if (units_parse_percent(arg, &v) != 0 || !(v >= 0 && v < 100))
		return diag_usage("bad --tolerance '%s'; use a percentage from 0 to 99, e.g. 5", arg);
	a->o.tolerance = v / 100;
	return 0;
}

/* How many of the baseline table's cells are regressions. */
static size_t baseline_regressions(const struct table *t)
{
	int col = table_col(t, "regression");
	size_t n = 0;
	for (size_t r = 0; col >= 0 && r < t->nrows; r++)
		n += table_num(t, r, col) > 0;
	return n;
}

/* --expect FILE, parsed; 0 or EXIT_USAGE (said as FILE:LINE). */
static int load_expect(const char *path, struct rep_expect **out, size_t *n)
{
	FILE *f;
	int orc = rep_open_input(path, true, &f);
	if (orc < 0)
		return diag_usage("--expect %s: %s; give a text file of expectations", path,
				  rep_input_error(orc));
	char err[ERR_MAX];
	int rc = rep_expect_parse(f, path, out, n, err, sizeof(err));
	fclose(f);
	/* the reason quotes the file: shown as any text from data */
	if (rc != 0)
		return diag_usage("%s", term_clean(err, sizeof(err), err));
	return 0;
}

/* How many of the expect table's rows failed. */
static size_t expect_failures(const struct table *t)
{
	int col = table_col(t, "result");
	size_t failed = 0;
	for (size_t r = 0; col >= 0 && r < t->nrows; r++)
		failed += strcmp(t->vals[r * t->ncols + (size_t)col].s, "FAIL") == 0;
	return failed;
}

static json_t *inputs_json(const struct rep_db *db)
{
	json_t *apart = json_object();
	for (int k = 0; k < REP_PARTIAL_KINDS; k++)
		json_object_set_new(apart, rep_partial_name(k), json_integer((json_int_t)db->kept_apart[k]));
	json_object_set_new(apart, "roundsOrDurations", json_boolean(db->runs_split));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}", "files", (json_int_t)db->files,
			 "runs", (json_int_t)db->runs, "operations", (json_int_t)db->operations,
			 "cells", (json_int_t)db->ncells, "bonnie", (json_int_t)db->nbonnie,
			 "durabilityVerdicts", (json_int_t)db->nverdicts, "skipped", (json_int_t)db->skipped,
			 "manifests", (json_int_t)db->manifests, "keptApart", apart);
}

/* What the report kept apart and why, a line each: "kept apart: 1 interrupted run, ...". */
static void print_kept_apart(const struct rep_db *db)
{
	unsigned long total = 0;
	for (int k = 0; k < REP_PARTIAL_KINDS; k++)
		total += db->kept_apart[k];
	if (total) {
		printf("kept apart: ");
		const char *sep = "";
		for (int k = 0; k < REP_PARTIAL_KINDS; k++)
			if (db->kept_apart[k]) {
				printf("%s%lu %s run%s", sep, db->kept_apart[k], rep_partial_name(k),
				       db->kept_apart[k] == 1 ? "" : "s");
				sep = ", ";
			}
		printf(" (marked so after the config; left out of merges and of the fleet's figures; "
		       "--include-partial merges them)\n");
	}
	if (db->runs_split)
		printf("kept apart: rounds and runs of different durations are separate groups (\"round 2\", "
		       "\"8 s runs\" in the config; --merge-rounds merges them)\n");
}

/* The report's warnings: the report says what, the command layer says it. */
static void report_warn(void *arg, const char *msg)
{
	(void)arg;
	/* a warning is one line, quoting files, hosts, labels: every control character in it is theirs */
	char *shown = rep_strdup(msg);
	diag_warn("%s", term_clean(shown, strlen(shown) + 1, shown));
	free(shown);
}

/* The report's allocations do not return NULL: out of memory ends the command here. */
static void report_out_of_memory(void)
{
	exit(diag_fail("out of memory"));
}

/* Read every PATH into db and apply the --only filters; false when nothing usable was read (said). */
static bool read_all(struct rep_db *db, const struct report_args *a, int npaths, char *const *paths, const char *what)
{
	rep_db_init(db, a->quiet ? NULL : report_warn, NULL);
	db->jobs = (unsigned)a->jobs;
	db->include_partial = a->include_partial;
	db->merge_rounds = a->merge_rounds;
	/* the heat maps' histograms per time bucket are kept only for --plot: reading without it costs nothing more */
	db->keep_heat = a->plot_dir != NULL && !what[0];
	for (int i = 0; i < npaths; i++)
		rep_read_path(db, paths[i]);
	/* whether a planned host sent results, before --only leaves some out */
	rep_fleet_match(db);
	for (int i = 0; i < a->nonly; i++) {
		const char *eq = strchr(a->only[i], '=');
		char *key = strndup(a->only[i], (size_t)(eq - a->only[i]));
		if (!key)
			continue;
		/* an op that is not there is a typo: said with the ops that are, not a report of nothing */
		bool op_key = strcmp(key, "op") == 0 || strcmp(key, "signature") == 0;
		size_t before = db->ncells + db->nbonnie + db->nverdicts;
		char ops[512] = "";
		if (op_key && before)
			rep_db_op_list(db, key[0] == 's', ops, sizeof(ops));
		rep_db_filter(db, key, eq + 1);
		if (op_key && before && db->ncells + db->nbonnie + db->nverdicts == 0) {
			diag_fail("report: --only %s matches no op%s; the ops read are %s", a->only[i], what,
				  term_clean(ops, sizeof(ops), ops));
			free(key);
			return false;
		}
		free(key);
	}
	if (db->ncells > 0 || db->nbonnie > 0 || db->nverdicts > 0 || db->nfleet > 0)
		return true;
	/* One line per problem: say "nothing usable" only when nothing else was said. */
	if (db->warnings == 0 || !db->warn)
		diag_fail("report: no usable results in %s%s%s%s; nothing to report", paths[0],
			  npaths > 1 ? " and the other paths" : "", a->nonly ? " that match --only" : "", what);
	return false;
}

/* One line per fleet run of the manifests read: "fleet run r1 (complete): 3 of 4 hosts sent results". */
static void print_fleet_runs(const struct rep_db *db)
{
	for (size_t i = 0; i < db->nfleet; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(db->fleet[j].run, db->fleet[i].run) == 0;
		if (seen)
			continue;
		size_t planned = 0, sent = 0;
		for (size_t j = i; j < db->nfleet; j++)
			if (strcmp(db->fleet[j].run, db->fleet[i].run) == 0) {
				planned++;
				sent += db->fleet[j].has_lines;
			}
		term_printf(stdout, "fleet run %s (%s): %zu of %zu hosts sent results\n",
			    db->fleet[i].run[0] ? db->fleet[i].run : "-",
			    db->fleet[i].state ? db->fleet[i].state : "state unknown", sent, planned);
	}
}

/*
 * Columns of text: the terminal's on one, else $COLUMNS; 0 (no limit) when
 * neither says (a pipe into a file keeps every column).
 */
static size_t text_columns(void)
{
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	char *end;
	long n = env ? strtol(env, &end, 10) : 0;
	return env && *env && !*end && n >= 40 && n <= 10000 ? (size_t)n : 0;
}

/* The wanted tables on stdout: one JSON object, CSV, or aligned text. */
static void print_tables(const struct report_args *a, const struct rep_db *db, const struct rep_db *base,
			 const struct table *tables)
{
	int nwanted = 0;
	for (int s = 0; s < SEC_COUNT; s++)
		nwanted += a->want[s];
	if (a->json) {
		json_t *root = json_object();
		json_t *inputs = inputs_json(db);
		if (base)
			json_object_set_new(inputs, "baseline", inputs_json(base));
		json_object_set_new(root, "inputs", inputs);
		for (int s = 0; s < SEC_COUNT; s++)
			if (a->want[s])
				json_object_set_new(root, rep_section_name(s), table_to_json(&tables[s]));
		json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
		fputc('\n', stdout);
		json_decref(root);
	} else if (a->csv) {
		bool first = true;
		for (int s = 0; s < SEC_COUNT; s++) {
			if (!a->want[s])
				continue;
			if (nwanted > 1)
				printf("%s# %s\n", first ? "" : "\n", rep_section_name(s));
			table_print_csv(&tables[s], stdout);
			first = false;
		}
	} else {
		printf("iobench report: %lu files, %lu runs, %lu operations in %zu cells, %zu bonnie++ lines",
		       db->files, db->runs, db->operations, db->ncells, db->nbonnie);
		if (db->nverdicts)
			printf(", %zu durability verdict%s", db->nverdicts, db->nverdicts == 1 ? "" : "s");
		if (db->skipped)
			printf("; %lu lines skipped", db->skipped);
		printf("\n");
		if (base)
			printf("baseline (--baseline): %lu files, %lu runs, %lu operations in %zu cells\n", base->files,
			       base->runs, base->operations, base->ncells);
		print_kept_apart(db);
		print_fleet_runs(db);
		printf("\n");
		size_t width = text_columns();
		for (int s = 0; s < SEC_COUNT; s++) {
			if (!a->want[s])
				continue;
			if (s == SEC_SUMMARY)
				rep_summary_print_text(&tables[s], stdout, width);
			else
				table_print_text_fit(&tables[s], stdout, width);
		}
	}
	fflush(stdout);
}

int cmd_report(int argc, char **argv)
{
	rep_alloc_on_failure(report_out_of_memory);
	struct report_args a = { .csv = false };
	rep_opts_default(&a.o);
	int first;
	help_from_sections();
	int rc = cmdline_parse(&report_cmd, &a, argc, argv, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	/* before any reading: a missing gnuplot is one line, not the work's end */
	if (a.plot_dir && rep_plot_check() != 0)
		return diag_fail("report: gnuplot not found; install it (Debian: gnuplot-nox), or leave out --plot");
	struct rep_expect *expect = NULL;
	if (a.expect_path && load_expect(a.expect_path, &expect, &a.o.nexpect) != 0)
		return EXIT_USAGE;
	a.o.expect = expect;
	struct price_list *prices = NULL;
	if (a.prices_path && cli_load_prices(a.prices_path, &prices) != 0) {
		free(expect);
		return EXIT_USAGE;
	}
	a.o.prices = prices;

	struct rep_db db;
	if (!read_all(&db, &a, argc - first, argv + first, "")) {
		rep_db_free(&db);
		price_free(prices);
		free(expect);
		return EXIT_RUNTIME;
	}
	rep_db_finish(&db);
	/* the baseline is read as the results are, with the same --only: its cells pair with theirs */
	struct rep_db base;
	bool have_base = a.nbaseline > 0;
	if (have_base) {
		if (!read_all(&base, &a, a.nbaseline, (char *const *)a.baseline, " (--baseline)")) {
			rep_db_free(&base);
			rep_db_free(&db);
			price_free(prices);
			free(expect);
			return EXIT_RUNTIME;
		}
		rep_db_finish(&base);
		a.o.baseline = &base;
	}
	/*
	 * By default the sections each one's definition shows (report/analyze.h:
	 * enum rep_shown): text leaves the per-host ones to --detail, notes are
	 * JSON's, series is asked by name; CSV: the groups; with --expect or
	 * --baseline, their verdicts alone.
	 */
	if (!a.chosen && !a.expect_path && !have_base)
		for (int s = 0; s < SEC_COUNT; s++) {
			enum rep_shown shown = rep_section_shown(s);
			a.want[s] = (shown == REP_SHOWN_ALWAYS || (shown == REP_SHOWN_JSON && a.json) ||
				     (shown == REP_SHOWN_DETAIL && (a.json || a.csv || a.detail))) &&
				    (!a.csv || s == SEC_GROUPS);
		}
	if (a.expect_path)
		a.want[SEC_EXPECT] = true;
	if (have_base)
		a.want[SEC_BASELINE] = true;
	/*
	 * --plot: the tables its charts and page read, and the per-host ones
	 * the default text leaves to --detail (the page folds them).
	 */
	bool build[SEC_COUNT];
	memcpy(build, a.want, sizeof(build));
	for (int s = 0; a.plot_dir && s < SEC_COUNT; s++)
		build[s] |= rep_section_plotted(s) || (!a.chosen && rep_section_shown(s) == REP_SHOWN_DETAIL);
	struct table tables[SEC_COUNT];
	rep_build_tables(&db, &a.o, build, tables);
	print_tables(&a, &db, have_base ? &base : NULL, tables);
	rc = EXIT_OK;
	if (a.plot_dir) {
		size_t charts;
		/* warnings from here on are --plot's: said even with -q */
		db.warn = report_warn;
		if (rep_plot(&db, &a.o, tables, a.plot_dir, &charts) != 0)
			rc = EXIT_RUNTIME;
		/* where to look, said once (stderr: stdout may be --json) */
		if (charts != SIZE_MAX)
			fprintf(stderr, "plots: %s/index.html (%zu chart%s)\n", a.plot_dir, charts, charts == 1 ? "" : "s");
	}
	if (a.junit_path) {
		int j = rep_junit_write(a.junit_path, have_base ? &tables[SEC_BASELINE] : NULL,
					a.expect_path ? &tables[SEC_EXPECT] : NULL);
		if (j != 0)
			rc = diag_fail("--junit %s: %s; give a file in a folder you can write", a.junit_path, strerror(-j));
	}
	if (a.expect_path && expect_failures(&tables[SEC_EXPECT]) > 0)
		rc = EXIT_RUNTIME;
	if (rc == EXIT_OK && have_base && baseline_regressions(&tables[SEC_BASELINE]) > 0)
		rc = EXIT_REGRESSION;
	for (int s = 0; s < SEC_COUNT; s++)
		table_free(&tables[s]);
	if (have_base)
		rep_db_free(&base);
	rep_db_free(&db);
	price_free(prices);
	free(expect);
	return rc;
}
