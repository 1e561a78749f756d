/*
 * SPDX-License-Identifier: Apache-2.0
 * report_add.h - what the report's unit tests add: one JSON document, as
 * the reader adds a line it parsed (rep_line_read, then rep_line_add).
 */
#ifndef TESTS_REPORT_ADD_H
#define TESTS_REPORT_ADD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/store/db.h"
#include "report/base/json.h"
#include "report/read/line.h"

/*
 * Add root (a run, bonnie++ or durability verify line) to db; where is
 * "FILE:LINE" for messages, fallback_host names the host when the line
 * has none. True when something was added.
 */
static inline bool add_json(struct rep_db *db, const json_t *root, const char *where, const char *fallback_host,
			    bool explicit_file)
{
	char *text = json_dumps(root, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		return false;
	struct jv_doc doc;
	jv_doc_init(&doc);
	struct rep_line l;
	rep_line_read(&l, &doc, text, strlen(text), fallback_host, NULL, explicit_file, false);
	bool added = rep_line_add(db, &l, where, 0);
	rep_line_free(&l);
	jv_doc_free(&doc);
	free(text);
	return added;
}

#endif
