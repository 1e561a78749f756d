/*
 * SPDX-License-Identifier: Apache-2.0
 * commands.h - the subcommands main() dispatches to.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit code:
 *   0 ok, 1 runtime failure, 2 usage error, 130 interrupted.
 * They print their messages through cli/diag.h, each "iobench: ...".
 */
#ifndef IOBENCH_CLI_COMMANDS_H
#define IOBENCH_CLI_COMMANDS_H

#include <stdio.h>

enum exit_code {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 4, /* report --baseline: a cell slower than the baseline beyond --tolerance */
	EXIT_INTERRUPTED = 130,
};

int cmd_run(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_durability(int argc, char **argv);
int cmd_precondition(int argc, char **argv);
int cmd_price(int argc, char **argv);

/* `iobench run --help` on out: what `iobench --help` shows after the commands. */
void cmd_run_help(FILE *out);

#endif
