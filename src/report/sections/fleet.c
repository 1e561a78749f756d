/* report/sections/fleet.c - the fleet section: the hosts a fleet's manifest.json names that failed or sent nothing. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/sections/section.h"

#include <string.h>

static const struct tcol fleet_cols[] = {
	{ "run", "run", TC_STR, 0 },
	{ "host", "host", TC_STR, 0 },
	{ "status", "status", TC_STR, 0 },
	{ "kind", "failure", TC_STR, 0 },
	{ "planned", "planned", TC_INT, 0 },
	{ "finished", "finished", TC_INT, 0 },
	{ "fetched", "fetched", TC_INT, 0 },
	{ "exit", "exit", TC_INT, 0 },
	{ "remotePath", NULL, TC_STR, 0 },
	{ "detail", "detail", TC_STR, 0 },
};

/* The hosts of the fleets' manifests that failed, or whose lines were not read. */
static void build_fleet(struct table *tables, const struct rep_ctx *ctx)
{
	struct table *t = &tables[SEC_FLEET];
	const struct rep_db *db = ctx->db;
	for (size_t i = 0; i < db->nfleet; i++) {
		const struct rep_fleet_host *f = &db->fleet[i];
		bool ok = f->status && strcmp(f->status, "ok") == 0;
		if (ok && f->has_lines)
			continue;
		const char *status = f->status ? f->status : "unknown", *kind = f->kind, *detail = f->detail;
		char buf[1024];
		if ((kind && strcmp(kind, "not-fetched") == 0) || strcmp(status, "not-fetched") == 0) {
			kind = "not-fetched";
			snprintf(buf, sizeof(buf), "finished, results not fetched (still at %s)%s%s",
				 f->remote ? f->remote : "the host", f->detail ? ": " : "", f->detail ? f->detail : "");
			detail = buf;
		} else if (ok) {
			status = "missing";
			kind = "no-results";
			snprintf(buf, sizeof(buf), "the manifest says ok, but no result lines of it were read%s%s%s",
				 f->results ? " (expected in " : "", f->results ? f->results : "", f->results ? ")" : "");
			detail = buf;
		}
		table_row(t, f->run, f->name, status, kind, f->planned, f->finished, f->fetched, f->exit_code,
			  f->remote, detail);
	}
}

const struct rep_section_def rep_sec_fleet = {
	.name = "fleet",
	.title = "Failed and missing hosts (from the fleet's manifest.json)",
	.help = "hosts a fleet run's manifest.json names that failed or sent no results:\n"
		"status, failure kind, runs planned/finished/fetched, detail",
	SECTION_COLS(fleet_cols),
	.build = build_fleet,
};
