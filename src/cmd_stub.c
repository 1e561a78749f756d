#include <stdio.h>
#include "commands.h"
int cmd_run(int argc, char **argv) { (void)argc; (void)argv; return 1; }
int cmd_create(int argc, char **argv) { (void)argc; (void)argv; return 1; }
