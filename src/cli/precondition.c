/* precondition.c - `iobench precondition TARGET`: sequential writes twice over (SNIA PTS), or every block read. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/precondition.h"
#include "cli/prepare.h"
#include "lib/err.h"
#include "lib/signals.h"
#include "lib/units.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct precondition_args {
	uint64_t passes;
	bool initialize, force, quiet;
	struct cmdline_seed seed;
	const char *target;
};

#define CMDLINE_SETTINGS struct precondition_args
/* name, short, value, commands, help, default, how */
static const struct cmdline_opt precondition_opts[] = {
	{ "passes", 0, "N", 0, "write TARGET N times over (default " CMDLINE_STR(PRECONDITION_DEFAULT_PASSES) ")", NULL,
	  U64(passes, 1, 100) },
	{ "initialize", 0, NULL, 0, "read every block once instead of writing (a volume\n"
	  "restored from a snapshot is slow until each block is touched)", NULL, FLAG(initialize) },
	{ "force", 0, NULL, 0, "write a block device that looks in use", NULL, FLAG(force) },
	SEED_ROW(0, "seed for the data written (default: from the clock)", CMDLINE_SEED_MAX),
	QUIET_ROW(0, "no progress, no summary"),
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS

static int check_operands(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	struct precondition_args *a = settings;
	(void)cmd;
	if (noperands != 1)
		return diag_usage("precondition needs one TARGET, e.g. 'iobench precondition /dev/nvme1n1'");
	a->target = operands[0];
	if (a->initialize && a->passes)
		return diag_usage("--passes counts writes and --initialize only reads; give one");
	if (!a->passes)
		a->passes = PRECONDITION_DEFAULT_PASSES;
	return 0;
}

static const struct cmdline_table precondition_table = {
	precondition_opts, sizeof(precondition_opts) / sizeof(precondition_opts[0]), NULL, check_operands,
};

static const struct cmdline_cmd precondition_cmd = {
	.name = "precondition",
	.bit = 1,
	.table = &precondition_table,
	.intro = "usage: iobench precondition [OPTIONS] TARGET\n"
		 "\n"
		 "Bring TARGET (a block device or a file) to a known state before it is\n"
		 "measured: write it from start to end in 128 KiB blocks of random data,\n"
		 "twice over (SNIA PTS preconditioning: an SSD's random writes then show their\n"
		 "sustained speed), or with --initialize read every block once. A file keeps\n"
		 "its size. Progress on stderr; the same refusals as any write benchmark.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Exit status: 0 done, 1 runtime error (a refusal among them), 2 usage error,\n"
		 "130 interrupted.\n"
		 "Example: iobench precondition /dev/nvme1n1; iobench run --steady -o write4k /dev/nvme1n1\n",
};

/* Without a terminal, one progress line in every PROGRESS_EVERY (about one each 10 s). */
#define PROGRESS_EVERY 10

static void status_lines(void *arg, const char *text)
{
	unsigned *calls = arg;
	if (text && (*calls)++ % PROGRESS_EVERY == 0)
		diag_progress(false, "%s", text);
}

int precondition_target(const char *path, const struct target_info *t, const struct precondition_opts *o,
			bool quiet, struct precondition_result *r)
{
	struct precondition_opts opts = *o;
	unsigned calls = 0;
	if (!quiet) {
		opts.status = isatty(STDERR_FILENO) ? diag_status : status_lines;
		opts.status_arg = &calls;
	}
	char err[ERR_MAX];
	int rc = precondition_run(path, t->size, &opts, r, err, sizeof(err));
	if (rc == -EINTR)
		return diag_interrupted("%s", err);
	if (rc < 0)
		return diag_fail("%s", err);
	return EXIT_OK;
}

int cmd_precondition(int argc, char **argv)
{
	struct precondition_args a = { .seed = { cmdline_default_seed(), false } };
	int first;
	int rc = cmdline_parse(&precondition_cmd, &a, argc, argv, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	sigset_t sigs;
	signals_block_stop(&sigs);
	char missing[64];
	snprintf(missing, sizeof(missing), "give an existing file or block device");
	const struct prepare p = { .path = a.target, .sigs = &sigs, .missing = missing, .example = "iobench.dat",
				   .writer = "preconditioning", .force = a.force };
	struct target_info t;
	rc = prepare_target(&p, &t);
	if (rc == 0 && !a.initialize)
		rc = prepare_write(&p, &t);
	if (rc != 0)
		return rc;
	struct precondition_opts o = { .read = a.initialize, .passes = (unsigned)a.passes, .seed = a.seed.value,
				       .stop_signals = &sigs };
	struct precondition_result r;
	rc = precondition_target(a.target, &t, &o, a.quiet, &r);
	if (rc == EXIT_OK && !a.quiet) {
		char size[32], bytes[32];
		units_format_size(size, sizeof(size), t.size);
		units_format_size(bytes, sizeof(bytes), r.bytes);
		if (a.initialize)
			printf("%s: initialized: every block of %s read once, %.1f s\n", a.target, size, r.seconds);
		else
			printf("%s: preconditioned: %u pass%s over %s, %s written sequentially in 128 KiB blocks, %.1f s "
			       "(%.0f MB/s)\n", a.target, r.passes, r.passes == 1 ? "" : "es", size, bytes, r.seconds,
			       r.seconds > 0 ? (double)r.bytes / r.seconds / 1e6 : 0);
	}
	return rc;
}
