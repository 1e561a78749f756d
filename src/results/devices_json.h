/*
 * SPDX-License-Identifier: Apache-2.0
 * devices_json.h - the devices under a target, and what each did, as the
 * result line's "devices" array (the format is in README.md, OUTPUT).
 *
 *   [ { "name": "md0", "majMin": "9:0", "type": "md", "role": "target",
 *       "above": null, "below": ["vdb", "vdc"], "raidLevel": "raid1",
 *       "sizeBytes": 536281088, "rotational": false, "model": null, "serial": null,
 *       "total": {STATS}, "buckets": [{STATS}, ...] }, ... ]
 *
 * STATS are iostat -x's columns over an interval (devices.h). Uses jansson.
 */
#ifndef IOBENCH_RESULTS_DEVICES_JSON_H
#define IOBENCH_RESULTS_DEVICES_JSON_H

#include <jansson.h>

#include "host/devices.h"

/*
 * The array for tree; with log (readings taken, or NULL for none) each
 * device also gets "total" and "buckets". NULL on ENOMEM.
 */
json_t *devices_to_json(const struct device_tree *tree, const struct device_log *log);

/*
 * Why the array is empty or incomplete, or its statistics missing (tree's
 * note, then what went wrong with the readings), into buf; "" when nothing is.
 */
void devices_note(const struct device_tree *tree, const struct device_log *log, char *buf, size_t len);

#endif
