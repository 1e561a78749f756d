/* watch.c - `iobench watch`: the probe left running for days (watch.c), from the command line. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/runargs.h"
#include "host/devices.h"
#include "lib/err.h"
#include "measure/watch.h"
#include "results/output.h"

#include <errno.h>

static const struct cmdline_cmd watch_cmd = {
	.name = "watch",
	.bit = RUNARGS_WATCH,
	.table = &runargs_table,
	.intro = "usage: iobench watch [OPTIONS] TARGET\n"
		 "\n"
		 "A light probe left running for days: every --interval it does each operation\n"
		 "once (in a random order) and every --period it appends one JSON line with that\n"
		 "period's histograms, fsynced. Restarts append; lines merge exactly with runs.\n"
		 "With --prom it also keeps a Prometheus histogram per op in a file for\n"
		 "node_exporter's textfile collector (see man iobench).\n"
		 "Operations are written as for 'iobench run' (see 'iobench run --help').\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "SIGINT, SIGTERM and SIGHUP write the partial period (marked interrupted), exit 130.\n"
		 "Example: iobench watch --json /var/lib/iobench/watch.jsonl --host db1 /data/iobench.dat\n"
		 "         iobench watch --json /var/lib/iobench/watch.jsonl \\\n"
		 "             --prom /var/lib/prometheus/node-exporter/iobench.prom /data/iobench.dat\n",
};

/* watch_run()'s notes (a period written, the --prom page failing or mended), said as warnings are. */
static void say_note(const struct watch_note *n, void *arg)
{
	(void)arg;
	diag_warn("watch: %s", n->text);
}

static int watch_all(struct run_args *a, const struct target_info *t, const sigset_t *sigs)
{
	struct run_op ops[RUNARGS_MAX_OPS];
	runargs_build_ops(a, 1, ops);
	runargs_warn_buffered(a, t, ops);
	struct run_meta meta = { .command_line = a->command_line, .labels = a->labels.kv, .nlabels = a->labels.n,
				 .host = a->host_name, .provision = a->provision, .notes = a->notes, .nnotes = a->nnotes,
				 .seed_given = a->seed.given, .mode = "watch",
				 .interval_s = (double)a->interval_ns / 1e9 };
	struct watch_config wc = {
		.target = t, .ops = ops, .nops = a->nops, .span = a->span,
		.interval_ns = a->interval_ns, .period_ns = a->period_ns, .max_periods = a->max_periods,
		.seed = a->seed.value, .json_path = a->json_path ? a->json_path : "-",
		.prom_path = a->prom_path, .meta = &meta,
		.stop_signals = sigs, .quiet = a->quiet, .device_stats = !a->no_device_stats, .note = say_note,
	};
	struct device_tree devices;
	devices_resolve(t, &devices);
	wc.devices = &devices;
	char err[ERR_MAX];
	int rc = watch_run(&wc, err, sizeof(err));
	devices_tree_free(&devices);
	if (rc == -EINTR)
		return EXIT_INTERRUPTED;
	if (rc < 0)
		return diag_fail("%s", err);
	return EXIT_OK;
}

int cmd_watch(int argc, char **argv)
{
	struct run_args a;
	struct target_info t;
	sigset_t sigs;
	int rc = runargs_start(&a, &watch_cmd, argc, argv, &t, &sigs);
	if (rc == 0)
		rc = watch_all(&a, &t, &sigs);
	else if (rc == CMDLINE_DONE)
		rc = EXIT_OK;
	runargs_free(&a);
	return rc;
}
