/* create.c - `iobench create FILE SIZE`: parse, block the stop signals, create. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "host/target.h"
#include "lib/err.h"
#include "lib/signals.h"
#include "lib/units.h"
#include "measure/create.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct create_args {
	bool force, quiet;
	uint64_t threads;
	struct cmdline_seed seed;
	const char *path; /* the operands, FILE and SIZE */
	uint64_t size;
};

#define CMDLINE_SETTINGS struct create_args
/* name, short, value, commands, help, default, how */
static const struct cmdline_opt create_opts[] = {
	{ "force", 'f', NULL, 0, "overwrite FILE if it exists", NULL, FLAG(force) },
	{ "threads", 't', "N", 0, "writer threads", "4", U64(threads, 1, 256) },
	SEED_ROW(0, "seed for the random data (default: from the clock)", CMDLINE_SEED_MAX),
	QUIET_ROW(0, "no progress bar"),
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS

/* The table's check: FILE and SIZE. */
static int check_operands(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	struct create_args *a = settings;
	(void)cmd;
	if (noperands != 2)
		return diag_usage("create needs FILE and SIZE, e.g. 'iobench create data.bin 10G'");
	a->path = operands[0];
	if (units_parse_size(operands[1], &a->size) < 0 || a->size == 0)
		return diag_usage("bad size '%s'; use e.g. 512M, 10G (binary units)", operands[1]);
	return 0;
}

static const struct cmdline_table create_table = {
	create_opts, sizeof(create_opts) / sizeof(create_opts[0]), NULL, check_operands,
};

static const struct cmdline_cmd create_cmd = {
	.name = "create",
	.bit = 1,
	.table = &create_table,
	.intro = "usage: iobench create [OPTIONS] FILE SIZE\n"
		 "\n"
		 "Fill FILE with SIZE random bytes (e.g. 1G, 80G, 512M) using large O_DIRECT\n"
		 "writes from several threads, then fsync. Shows progress on a terminal.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Writes FILE.partial.XXXXXX and renames it to FILE when complete and synced.\n"
		 "Refuses to overwrite FILE without --force, and anything but a regular file;\n"
		 "removes the partial file on any error or interrupt (exit 1, or 130 for\n"
		 "SIGINT, SIGTERM, SIGHUP).\n"
		 "Example: iobench create data.bin 10G\n",
};

int cmd_create(int argc, char **argv)
{
	struct create_args a = { .seed = { cmdline_default_seed(), false } };
	int first;
	int rc = cmdline_parse(&create_cmd, &a, argc, argv, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	const char *path = a.path;
	struct create_opts o = { .force = a.force, .threads = (unsigned)a.threads, .status = !a.quiet && isatty(STDERR_FILENO) ? diag_status_kept : NULL,
				 .seed = a.seed.value };
	sigset_t sigs;
	signals_block_stop(&sigs);
	o.stop_signals = &sigs;
	char err[ERR_MAX];
	rc = create_file(path, a.size, &o, err, sizeof(err));
	if (rc == 0) {
		/* Made, on tmpfs or the like: a benchmark of it would measure RAM, not a disk (a refusal says only why). */
		char kind[16], mnt[PATH_MAX];
		if (target_path_in_memory(path, kind, sizeof(kind), mnt, sizeof(mnt)))
			diag_warn("%s is %s: a benchmark of %s measures memory, not a disk; create it on a disk's filesystem",
				  mnt[0] ? mnt : path, kind, path);
		return EXIT_OK;
	}
	return rc == -EINTR ? diag_interrupted("%s", err) : diag_fail("%s", err);
}
