/*
 * SPDX-License-Identifier: Apache-2.0
 * main.c - pick the subcommand; each lives in its own file (run.c, ...).
 * Here too: the commands' list (`iobench help`, `iobench --help`) and
 * `iobench version`, which are about the program as a whole.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"

static int cmd_version(int argc, char **argv);
static int cmd_help(int argc, char **argv);

/* Every command, as `iobench help` lists them; run is the default. */
static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} commands[] = {
	{ "run", cmd_run, "benchmark random I/O on a file or device (the default command)" },
	{ "create", cmd_create, "fill a data file with random bytes" },
	{ "precondition", cmd_precondition, "write a target twice over sequentially (SNIA PTS), or read it once" },
	{ "watch", cmd_watch, "probe latency for days, a JSON line per period" },
	{ "report", cmd_report, "merge and summarise result files" },
	{ "price", cmd_price, "what a configuration costs an hour under a price list" },
	{ "durability", cmd_durability, "serve|write|verify: do acknowledged flushes survive a power cut?" },
	{ "version", cmd_version, "print the version" },
	{ "help", cmd_help, "this help" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The commands, then (run being the default) run's own help. */
static void help(FILE *out)
{
	fputs("usage: iobench [COMMAND] [OPTIONS] [ARGS...]\n"
	      "\n"
	      "Commands:\n", out);
	/* the summaries in a column two past the longest name */
	int w = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if ((int)strlen(commands[i].name) > w)
			w = (int)strlen(commands[i].name);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-*s%s\n", w + 2, commands[i].name, commands[i].summary);
	fputs("\n"
	      "'iobench COMMAND --help' shows the options of each; man iobench has the rest.\n"
	      "With no COMMAND, iobench runs 'run' (iobench -o read4k data.bin); a TARGET\n"
	      "named like a command needs 'run' or a path: 'iobench run version' or\n"
	      "'iobench ./version' benchmarks a file called version. The help of run:\n"
	      "\n", out);
	cmd_run_help(out);
}

/* `iobench help`: the commands and run's options, whatever follows. */
static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	help(stdout);
	return EXIT_OK;
}

static int version_operands(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	(void)settings;
	(void)cmd;
	if (noperands > 0)
		return diag_usage("version takes no arguments; to benchmark a file named %s, give 'iobench run %s'",
				  operands[0], operands[0]);
	return 0;
}

static const struct cmdline_opt version_opts[] = {
	HELP_ROW,
	VERSION_ROW,
};

static const struct cmdline_table version_table = {
	version_opts, sizeof(version_opts) / sizeof(version_opts[0]), NULL, version_operands,
};

static const struct cmdline_cmd version_cmd = {
	.name = "version",
	.bit = 1,
	.table = &version_table,
	.intro = "usage: iobench version\n"
		 "\n"
		 "Print the version, and the git commit the binary was built from when known\n"
		 "(what 'iobench --version' prints). A file named version is benchmarked as\n"
		 "'iobench run version' or 'iobench ./version'.\n"
		 "\n"
		 "Options:\n",
};

/* `iobench version`: what --version prints. */
static int cmd_version(int argc, char **argv)
{
	int first;
	int rc = cmdline_parse(&version_cmd, NULL, argc, argv, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	cmdline_version(stdout);
	return EXIT_OK;
}

/*
 * What went to stdout (a summary, a report, --json -) must have arrived: a
 * full disk or a closed pipe (with SIGPIPE ignored) is a failure, not exit 0.
 */
static int check_stdout(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	int failed = diag_fail("writing to standard output failed: %s", strerror(errno ? errno : EIO));
	return rc == EXIT_OK ? failed : rc;
}

int main(int argc, char **argv)
{
	if (argc >= 2) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return check_stdout(commands[i].fn(argc - 1, argv + 1));
		/* Without a command, --help is the program's: the commands first. */
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
			return check_stdout(cmd_help(argc - 1, argv + 1));
	}
	/* "run" is the default subcommand: iobench -o read4k FILE. */
	return check_stdout(cmd_run(argc, argv));
}
