/* report/sections/targets.c - runs that measured RAM, or not the volume their provision facts name. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/base/alloc.h"
#include "report/sections/section.h"

#include <stdlib.h>
#include <string.h>

static const struct tcol rep_targets_cols[] = {
	{ "host", "host", TC_STR, 0 },
	CONFIG_COLS,
	{ "path", "target", TC_STR, 0 },
	{ "runs", "runs", TC_INT, 0 },
	{ "finding", "finding", TC_STR, 0 },
};
static int cmp_flag(const void *a, const void *b)
{
	const struct rep_target_flag *x = *(const struct rep_target_flag *const *)a;
	const struct rep_target_flag *y = *(const struct rep_target_flag *const *)b;
	int c = strcmp(x->host, y->host);
	return c ? c : strcmp(x->finding, y->finding);
}

static void rep_build_targets(struct table *tables, const struct rep_ctx *ctx)
{
	const struct rep_db *db = ctx->db;
	const struct rep_target_flag **f = rep_calloc(db->ntflags + 1, sizeof(*f));
	for (size_t i = 0; i < db->ntflags; i++)
		f[i] = &db->tflags[i];
	qsort(f, db->ntflags, sizeof(*f), cmp_flag);
	for (size_t i = 0; i < db->ntflags; i++)
		table_row(&tables[SEC_TARGETS], f[i]->host, f[i]->cfg->name[0] ? f[i]->cfg->name : NULL, f[i]->cfg->labels, f[i]->path,
			  (double)f[i]->runs, f[i]->finding);
	free(f);
}

const struct rep_section_def rep_sec_targets = {
	.name = "targets",
	.title = "Targets that were not the disk provisioned (RAM, the root disk, another size)",
	.help = "runs whose target was RAM (tmpfs, zram), or not the volume their\n"
		"provision facts name: on the root disk, or a device of another size",
	SECTION_COLS(rep_targets_cols),
	.build = rep_build_targets,
};
