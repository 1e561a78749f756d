/* main.c - pick the subcommand; everything else lives in the cmd_* files. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/diag.h"

static const char usage[] =
	"usage: iobench [run] [OPTIONS] TARGET     benchmark random I/O on a file or device\n"
	"       iobench create [OPTIONS] FILE SIZE fill a data file with random bytes\n"
	"       iobench report [OPTIONS] RESULTS... merge and summarise result files\n"
	"       iobench watch [OPTIONS] TARGET     probe latency for days, a JSON line per period\n"
	"       iobench durability serve|write|verify  do acknowledged flushes survive a power cut?\n"
	"\n"
	"iobench COMMAND --help shows the options of each; man iobench has the rest.\n"
	"Example: iobench --size 1G -o read4k -t 4 -d 30 data.bin\n";

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
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} commands[] = {
		{ "run", cmd_run },
		{ "create", cmd_create },
		{ "report", cmd_report },
		{ "watch", cmd_watch },
		{ "durability", cmd_durability },
	};

	if (argc >= 2) {
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return check_stdout(commands[i].fn(argc - 1, argv + 1));
		if (strcmp(argv[1], "help") == 0) {
			fputs(usage, stdout);
			return check_stdout(EXIT_OK);
		}
	}
	/* "run" is the default subcommand: iobench -o read4k FILE. */
	return check_stdout(cmd_run(argc, argv));
}
