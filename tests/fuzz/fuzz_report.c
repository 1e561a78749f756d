/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_report.c - libFuzzer target: `iobench report` input (iobench lines,
 * the 2012 tool's run.out and JSON, bonnie++ lines) through the reader and
 * every analysis section.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/sections/analyze.h"
#include "report/store/db.h"
#include "report/render/table.h"
#include "report/read/read.h"

/* The report's warnings, formatted and written as the command would. */
static void warn_to(void *arg, const char *msg)
{
	fprintf(arg, "iobench: %s\n", msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in = fmemopen((void *)data, size, "r");
	FILE *sink = fopen("/dev/null", "w");
	if (!in || !sink) {
		if (in)
			fclose(in);
		if (sink)
			fclose(sink);
		return 0;
	}
	struct rep_db db;
	rep_db_init(&db, warn_to, sink);
	rep_read_stream(&db, in, "fuzz.jsonl", true);
	rep_db_finish(&db);
	struct rep_opts o;
	rep_opts_default(&o);
	bool want[SEC_COUNT];
	for (int s = 0; s < SEC_COUNT; s++)
		want[s] = s != SEC_COST;
	struct table tables[SEC_COUNT];
	rep_build_tables(&db, &o, want, tables);
	for (int s = 0; s < SEC_COUNT; s++) {
		table_print_text(&tables[s], sink);
		table_free(&tables[s]);
	}
	rep_db_free(&db);
	fclose(in);
	fclose(sink);
	return 0;
}
