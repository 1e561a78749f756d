/*
 * SPDX-License-Identifier: Apache-2.0
 * precondition.h - preconditioning (or initializing) a target, for
 * `iobench precondition` and run's --precondition and --initialize.
 * CLI layer: prints its progress and messages, returns exit codes.
 */
#ifndef IOBENCH_CLI_PRECONDITION_H
#define IOBENCH_CLI_PRECONDITION_H

#include <stdbool.h>

#include "host/target.h"
#include "measure/precondition.h"

/*
 * Write (or read) t's whole size at path as o says (o's status is set
 * here: a status line on a terminal, else a line about every 10 s; none
 * when quiet). The refusals come before: the caller has made them.
 * Returns EXIT_OK with *r filled, or the exit code with the message said.
 */
int precondition_target(const char *path, const struct target_info *t, const struct precondition_opts *o,
			bool quiet, struct precondition_result *r);

#endif
