/* cli/price.c - a price list read for a command (--prices FILE). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/price.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/diag.h"
#include "report/db.h"
#include "report/term.h"

int cli_load_prices(const char *path, struct price_list **out)
{
	json_error_t jerr;
	FILE *f;
	*out = NULL;
	int orc = rep_open_input(path, false, &f);
	if (orc < 0)
		return diag_usage("--prices %s: %s; give a prices file (share/prices-sample.json)", path,
				  rep_input_error(orc));
	/* a UTF-8 byte-order mark is skipped, as in result and --expect files (a prices file is a regular file) */
	char bom[3];
	if (fread(bom, 1, 3, f) != 3 || memcmp(bom, "\xef\xbb\xbf", 3) != 0)
		rewind(f);
	json_t *doc = json_loadf(f, 0, &jerr);
	fclose(f);
	if (!doc)
		return diag_usage("%s:%d: not a prices file (%s); see share/prices-sample.json", path, jerr.line,
				  term_clean(jerr.text, sizeof(jerr.text), jerr.text));
	char where[256], why[256];
	int rc = price_parse(doc, out, where, sizeof(where), why, sizeof(why));
	json_decref(doc);
	if (rc == 0)
		return 0;
	/* a figure no price is: named by file and key, "p.json: instances.m5.large: ..." */
	if (where[0])
		return diag_usage("%s: %s: %s; see share/prices-sample.json", path, term_clean(where, sizeof(where), where),
				  why);
	return diag_usage("%s: not a prices file (%s); see share/prices-sample.json", path, why);
}
