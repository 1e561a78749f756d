/* report.c - placeholder until `iobench report` lands (issue: Report). */
#include <stdio.h>

#include "commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("iobench: report is not built yet\n", stderr);
	return EXIT_RUNTIME;
}
