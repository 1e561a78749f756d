/*
 * SPDX-License-Identifier: Apache-2.0
 * manifest.h - a fleet's manifest.json in the store (report/store/manifest.c): its
 * hosts (struct rep_fleet_host, db.h), what became of each, and whether
 * their lines were read. Not thread-safe (the store's thread).
 */
#ifndef IOBENCH_REPORT_STORE_MANIFEST_H
#define IOBENCH_REPORT_STORE_MANIFEST_H

#include <stdbool.h>

#include "report/store/model.h"

/*
 * Add the hosts of a manifest.json object (tool "iobench-fleet") to
 * db->fleet; a host already there from the same run is replaced. Returns
 * false (reported at where) when it has no "hosts" array.
 */
bool rep_add_manifest(struct rep_db *db, const void *json_root, const char *where);

/* Mark the fleet's hosts whose lines were read; call after reading, before filtering. */
void rep_fleet_match(struct rep_db *db);

/* Free db->fleet (rep_db_free() calls it). */
void rep_fleet_free(struct rep_db *db);

#endif
