/* report.c - `iobench report`: options, reading, and which sections to print how. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "report_analyze.h"
#include "report_plot.h"

static const char report_usage[] =
	"usage: iobench report [OPTIONS] PATH...\n"
	"\n"
	"Read benchmark results, merge their histograms exactly and print what they say.\n"
	"PATH is a result file (.jsonl lines of iobench or bonnie++, the 2012 tool's run.out\n"
	"or its one-object-per-line .json), a folder searched recursively for *.jsonl,\n"
	"*.json and *.out, or - for standard input. Malformed lines are reported and skipped.\n"
	"\n"
	"Options:\n"
	"  --csv             CSV instead of aligned text: the groups section, or the sections\n"
	"                    named by --section (each after a \"# name\" line when several)\n"
	"  --json            one JSON object: \"inputs\" and one array per section\n"
	"  --section LIST    only these sections, comma-separated (default: all with data\n"
	"                    but series): groups instances badApples threads time regimes\n"
	"                    series modes tiers durability cost bonnie watch watchRegimes\n"
	"                    durabilityVerify\n"
	"  --merge-hosts     groups, modes and durability merged across hosts (default: per host)\n"
	"  --only KEY=GLOB   keep only runs whose KEY matches the shell pattern GLOB: KEY is\n"
	"                    host, signature (or op), threads, or a label key (config=large/*);\n"
	"                    repeatable, all must match\n"
	"  --prices FILE     prices for the ops-per-dollar section (share/prices-sample.json)\n"
	"  --floor DURATION  flushed writes with a p50 below this are durability-suspicious\n"
	"                    (default 50us; 2ms on rotational targets); units ns us ms s\n"
	"  --plot DIR        write gnuplot scripts and data to DIR and render PNG and SVG\n"
	"  -q, --quiet       do not report skipped lines\n"
	"  -h, --help        this help\n"
	"\n"
	"Grouping: runs merge exactly by signature x thread count x labels (--label k=v,\n"
	"sorted) x size x host. The size is a fileSize or span label, else target.span,\n"
	"else fileSize. Lines without a host (the 2012 tool's) take the name of the folder\n"
	"holding the file. ops/s = operations / run time; across hosts, the mean per host.\n"
	"\n"
	"Sections:\n"
	"  groups      per signature x threads x labels x size x host: ops/s, MB/s, mean,\n"
	"              p50 p90 p99 p99.9 max latency, errors\n"
	"  instances   groups that span hosts: min/median/max per-host ops/s, best/worst\n"
	"  badApples   hosts below median - 3 x 1.4826 x MAD or below half the median\n"
	"  threads     throughput by thread count; optimal = fewest within 5% of the best\n"
	"  time        per-host throughput per time bucket: mean, min, max, CV\n"
	"  regimes     lasting steps up or down in that throughput, with their start\n"
	"  series      every time bucket: ops/s and ops/s / host median (ask by name)\n"
	"  modes       peaks of the latency histogram with their share of operations\n"
	"  tiers       file-size sweep (labels fileSize/span or target.span): level ranges\n"
	"  durability  flushed writes faster than a read of the same target or the floor\n"
	"  cost        operations per dollar per config (needs --prices)\n"
	"  bonnie      bonnie++ lines as they are\n"
	"  watch       iobench watch lines: p50/p99 per period over days, per host and op\n"
	"  watchRegimes lasting steps in the probes' p99 (a tail that jumped and stayed)\n"
	"  durabilityVerify  iobench durability verify lines: acknowledged blocks intact or\n"
	"              LOST after a power cut, one row per verification\n"
	"\n"
	"Examples:\n"
	"  iobench report results/2026-11-21-ebs/\n"
	"  iobench report --merge-hosts --plot plots/ results/run1/\n"
	"  iobench report --csv --section instances,badApples results/\n"
	"  iobench report --only config='large/*' --only signature='read,*' results/\n"
	"Exit: 0 ok, 1 nothing usable read (or gnuplot failed), 2 usage error.\n";

/* "50us", "1.5ms", "2s", "800ns", "100000" (ns). */
static int parse_ns(const char *text, double *out)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !(v >= 0) || isinf(v))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0) {
			*out = v * units[i].scale;
			return 0;
		}
	return -EINVAL;
}

static int parse_sections(char *list, bool *want)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		size_t i;
		for (i = 0; i < SEC_COUNT; i++)
			if (strcmp(tok, rep_section_names[i]) == 0)
				break;
		if (i == SEC_COUNT) {
			fprintf(stderr, "iobench: report: unknown section '%s'; see iobench report --help\n",
				tok);
			return -EINVAL;
		}
		want[i] = true;
	}
	return 0;
}

enum { OPT_CSV = 256, OPT_JSON, OPT_SECTION, OPT_MERGE, OPT_PRICES, OPT_FLOOR, OPT_PLOT, OPT_ONLY };

#define MAX_FILTERS 16

static int usage_error(const char *what)
{
	fprintf(stderr, "iobench: report: %s; see iobench report --help\n", what);
	return EXIT_USAGE;
}

static json_t *inputs_json(const struct rep_db *db)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "files", (json_int_t)db->files,
			 "runs", (json_int_t)db->runs, "operations", (json_int_t)db->operations,
			 "cells", (json_int_t)db->ncells, "bonnie", (json_int_t)db->nbonnie,
			 "skipped", (json_int_t)db->skipped);
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "section", required_argument, NULL, OPT_SECTION },
		{ "merge-hosts", no_argument, NULL, OPT_MERGE },
		{ "prices", required_argument, NULL, OPT_PRICES },
		{ "floor", required_argument, NULL, OPT_FLOOR },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rep_opts o;
	rep_opts_default(&o);
	bool csv = false, json = false, quiet = false, want[SEC_COUNT] = { false }, chosen = false;
	const char *prices_path = NULL, *plot_dir = NULL;
	char *only[MAX_FILTERS];
	int nonly = 0;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CSV:
			csv = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_SECTION:
			if (parse_sections(optarg, want) != 0)
				return EXIT_USAGE;
			chosen = true;
			break;
		case OPT_MERGE:
			o.merge_hosts = true;
			break;
		case OPT_PRICES:
			prices_path = optarg;
			break;
		case OPT_FLOOR:
			if (parse_ns(optarg, &o.floor_ns) != 0)
				return usage_error("--floor wants a duration like 50us or 1ms");
			o.floor_rot_ns = fmax(o.floor_rot_ns, o.floor_ns);
			break;
		case OPT_PLOT:
			plot_dir = optarg;
			break;
		case OPT_ONLY:
			if (!strchr(optarg, '=') || optarg[0] == '=')
				return usage_error("--only wants KEY=GLOB, e.g. --only config=large/*");
			if (nonly == MAX_FILTERS)
				return usage_error("at most 16 --only filters");
			only[nonly++] = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return EXIT_OK;
		default: {
			char what[128];
			if (optopt && optopt < 256)
				snprintf(what, sizeof(what), "unknown option -%c", optopt);
			else
				snprintf(what, sizeof(what), "unknown option or missing value in '%s'",
					 argv[optind - 1]);
			return usage_error(what);
		}
		}
	}
	if (csv && json)
		return usage_error("--csv and --json exclude each other");
	if (optind >= argc)
		return usage_error("no PATH given (a results file, a folder, or -)");

	json_t *prices = NULL;
	if (prices_path) {
		json_error_t jerr;
		prices = json_load_file(prices_path, 0, &jerr);
		if (!prices || !json_is_object(prices)) {
			fprintf(stderr, "iobench: %s:%d: not a prices file (%s); see share/prices-sample.json\n",
				prices_path, jerr.line, prices ? "not an object" : jerr.text);
			json_decref(prices);
			return EXIT_USAGE;
		}
		o.prices = prices;
	}

	struct rep_db db;
	rep_db_init(&db, quiet ? NULL : stderr);
	for (int i = optind; i < argc; i++)
		rep_read_path(&db, argv[i]);
	for (int i = 0; i < nonly; i++) {
		char *eq = strchr(only[i], '=');
		*eq = '\0';
		rep_db_filter(&db, only[i], eq + 1);
		*eq = '=';
	}
	if (db.ncells == 0 && db.nbonnie == 0 && db.nverdicts == 0) {
		/* One line per problem: say "nothing usable" only when nothing else was said. */
		if (db.warnings == 0 || !db.diag)
			fprintf(stderr, "iobench: report: no usable results in %s%s%s; nothing to report\n",
				argv[optind], argc - optind > 1 ? " and the other paths" : "",
				nonly ? " that match --only" : "");
		rep_db_free(&db);
		json_decref(prices);
		return EXIT_RUNTIME;
	}
	rep_db_finish(&db);

	if (!chosen) {
		for (int s = 0; s < SEC_COUNT; s++)
			want[s] = s != SEC_SERIES && (!csv || s == SEC_GROUPS);
	}
	/* Plots draw on the cost table. */
	bool build[SEC_COUNT];
	memcpy(build, want, sizeof(build));
	if (plot_dir)
		build[SEC_COST] = true;
	struct table tables[SEC_COUNT];
	rep_build_tables(&db, &o, build, tables);
	int nwanted = 0;
	for (int s = 0; s < SEC_COUNT; s++)
		nwanted += want[s];

	int rc = EXIT_OK;
	if (json) {
		json_t *root = json_object();
		json_object_set_new(root, "inputs", inputs_json(&db));
		for (int s = 0; s < SEC_COUNT; s++)
			if (want[s])
				json_object_set_new(root, rep_section_names[s], table_to_json(&tables[s]));
		json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
		fputc('\n', stdout);
		json_decref(root);
	} else if (csv) {
		bool first = true;
		for (int s = 0; s < SEC_COUNT; s++) {
			if (!want[s])
				continue;
			if (nwanted > 1)
				printf("%s# %s\n", first ? "" : "\n", rep_section_names[s]);
			table_print_csv(&tables[s], stdout);
			first = false;
		}
	} else {
		printf("iobench report: %lu files, %lu runs, %lu operations in %zu cells, %zu bonnie++ lines",
		       db.files, db.runs, db.operations, db.ncells, db.nbonnie);
		if (db.skipped)
			printf("; %lu lines skipped", db.skipped);
		printf("\n\n");
		for (int s = 0; s < SEC_COUNT; s++)
			if (want[s])
				table_print_text(&tables[s], stdout);
	}
	fflush(stdout);

	if (plot_dir && rep_plot(&db, &o, tables, plot_dir) != 0)
		rc = EXIT_RUNTIME;

	for (int s = 0; s < SEC_COUNT; s++)
		table_free(&tables[s]);
	rep_db_free(&db);
	json_decref(prices);
	return rc;
}
