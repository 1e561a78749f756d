/* devices_json.c - the result line's "devices" array. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "results/devices_json.h"
#include "results/jsonline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Three decimals: what iostat shows is two. */
static json_t *figure(double v)
{
	return isfinite(v) ? json_real(round(v * 1000) / 1000) : json_null();
}

/* One interval's iostat -x columns; null when a reading is missing. */
static json_t *stats_json(const struct device_log *log, size_t i, size_t a, size_t b)
{
	struct device_stats s;
	if (!devices_log_stats(log, i, a, b, &s))
		return json_null();
	return json_pack("{s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "seconds", figure(s.seconds),
			 "reads", (json_int_t)s.reads,
			 "writes", (json_int_t)s.writes,
			 "readsPerSec", figure(s.reads_per_s),
			 "writesPerSec", figure(s.writes_per_s),
			 "readMBPerSec", figure(s.read_mb_per_s),
			 "writeMBPerSec", figure(s.write_mb_per_s),
			 "readAwaitMs", figure(s.read_await_ms),
			 "writeAwaitMs", figure(s.write_await_ms),
			 "utilPct", figure(s.util_pct),
			 "queueSize", figure(s.queue_size));
}

/* sysfs values are bytes the kernel and firmware chose: any of them is made valid UTF-8. */
static json_t *text_or_null(const char *s)
{
	return s && *s ? jsonline_text(s) : json_null();
}

static json_t *node_json(const struct device_tree *tree, size_t i)
{
	const struct device_node *d = &tree->nodes[i];
	char majmin[32];
	snprintf(majmin, sizeof(majmin), "%u:%u", d->major, d->minor);
	json_t *below = json_array();
	for (size_t k = 0; below && k < tree->n; k++)
		if (tree->nodes[k].above == (int)i)
			json_array_append_new(below, jsonline_text(tree->nodes[k].name));
	json_t *j = json_pack("{s:o, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "name", jsonline_text(d->name),
			      "majMin", majmin,
			      "type", d->type,
			      "role", d->role,
			      "above", d->above >= 0 ? jsonline_text(tree->nodes[d->above].name) : json_null(),
			      "below", below,
			      "sizeBytes", d->size ? json_integer((json_int_t)d->size) : json_null(),
			      "rotational", d->rotational < 0 ? json_null() : json_boolean(d->rotational),
			      "model", text_or_null(d->model),
			      "serial", text_or_null(d->serial));
	if (!j)
		return NULL;
	if (d->raid_level[0])
		json_object_set_new(j, "raidLevel", text_or_null(d->raid_level));
	if (d->dm_name[0])
		json_object_set_new(j, "dmName", text_or_null(d->dm_name));
	if (strcmp(d->type, "loop") == 0)
		json_object_set_new(j, "backingFile", text_or_null(d->backing_file));
	return j;
}

json_t *devices_to_json(const struct device_tree *tree, const struct device_log *log)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < tree->n; i++) {
		json_t *j = node_json(tree, i);
		if (j && log && log->slots) {
			json_t *buckets = json_array();
			for (size_t k = 0; buckets && k + 1 < log->used; k++)
				json_array_append_new(buckets, stats_json(log, i, k, k + 1));
			json_object_set_new(j, "total", log->used > 1 ? stats_json(log, i, 0, log->used - 1) : json_null());
			json_object_set_new(j, "buckets", buckets);
		}
		if (!j || json_array_append_new(arr, j) != 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

void devices_note(const struct device_tree *tree, const struct device_log *log, char *buf, size_t len)
{
	char why[160] = "";
	if (log && log->err)
		snprintf(why, sizeof(why), "no statistics: %s %s", log->err == -ENOMEM ? "out of memory for" : "cannot read",
			 log->err == -ENOMEM ? "the readings" : log->path);
	if (log && log->err && log->err != -ENOMEM)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " (%s)", strerror(-log->err));
	/* A device the kernel keeps no statistics for (or a /proc/diskstats that hides it). */
	for (size_t i = 0; log && !log->err && log->used > 0 && i < tree->n && !why[0]; i++)
		if (!log->counters[i].seen)
			snprintf(why, sizeof(why), "no statistics for %s: not in %s", tree->nodes[i].name, log->path);
	snprintf(buf, len, "%s%s%s", tree->note, tree->note[0] && why[0] ? "; " : "", why);
}
