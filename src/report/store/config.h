/*
 * SPDX-License-Identifier: Apache-2.0
 * config.h - who, what configuration, what bookkeeping (report/store/config.c):
 * what a result line says apart, the canonical "k=v,k=v" strings, and the
 * store's interned configurations and their names. The string functions
 * are pure and thread-safe (rep_split_line() runs on the reading
 * threads); those taking a struct rep_db are the store's thread's.
 */
#ifndef IOBENCH_REPORT_STORE_CONFIG_H
#define IOBENCH_REPORT_STORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/store/model.h"

/* "interrupted", "targetLost", "short". */
const char *rep_partial_name(enum rep_partial_kind k);

/*
 * Value of label key in a canonical "k=v,k=v" string (a ',' '=' or '\\' in a
 * key or value escaped by '\\'), unescaped into buf; false (buf untouched) if absent.
 */
bool rep_label_value(const char *labels, const char *key, char *buf, size_t len);

/* True for the label keys older scripts used for bookkeeping: run, runId, fleetHost, planStep, spanHuman. */
bool rep_is_bookkeeping_label(const char *key);

/* What one result line says apart. Strings are malloc'd; "" when empty. */
struct rep_split {
	char *host;          /* the host's name; NULL when the line names none */
	char *labels;        /* user labels, "k=v,k=v" sorted (no size or bookkeeping labels) */
	char *facts;         /* provision configuration facts, "k=v,k=v" sorted */
	char *notes;         /* notes and bookkeeping labels, "k=v,k=v" sorted */
	uint64_t size_label; /* bytes of a fileSize or span label; 0 if none */
};

struct jv; /* report_json.h */

/* Split a result line's JSON object (or a bonnie++ line's) as above. */
void rep_split_line(const struct jv *root, struct rep_split *out);
void rep_split_free(struct rep_split *s);

/*
 * One entry of a canonical "k=v,k=v" string at p, unescaped into key and
 * value (each cut to its length). Returns where the next entry starts, or
 * NULL when p is NULL or at the end.
 */
const char *rep_kv_next(const char *p, char *key, size_t klen, char *value, size_t vlen);

/*
 * The configuration facts of a provision object, "k=v,k=v" sorted (malloc'd;
 * "" for none or not an object), canonical: a volume type's defaults made
 * explicit (gp3 3000 IOPS, 125 MiB/s; one volume), raidLevel "none" left out.
 */
char *rep_config_facts(const struct jv *provision);

/*
 * The name of a configuration: from the facts when there are any,
 * "TYPE / VOLUMETYPE xCOUNT / raidLEVEL" (the parts that are known; other
 * facts as "k=v" when none of these is), then " / " and the labels; else
 * the labels; else "". malloc'd.
 */
char *rep_config_name(const char *labels, const char *facts);

/* The interned configuration of labels and facts (made on first use). */
const struct rep_config *rep_config_get(struct rep_db *db, const char *labels, const char *facts);

/*
 * The same for runs of a kind kept apart: runs is "k=v,k=v" sorted of
 * partial (interrupted, targetLost, short), round (N of a runId note
 * "roundN") and runtime (the nominal seconds); "" for none.
 */
const struct rep_config *rep_config_get_runs(struct rep_db *db, const char *labels, const char *facts,
					     const char *runs);

/*
 * The same with settings that change the result ("direct=false",
 * "engine=io_uring,iodepth=8", "rate=1000", "sync=O_DSYNC": non-defaults,
 * sorted); the name gets them as words ("... / io_uring qd8").
 */
const struct rep_config *rep_config_get_settings(struct rep_db *db, const char *labels, const char *facts,
						 const char *runs, const char *settings);

/*
 * A setting of cfg with its default made explicit: engine sync, iodepth 1,
 * rate none, direct and sync as the op kind of sig has them. false for a
 * key that is no setting.
 */
bool rep_config_setting(const struct rep_config *cfg, const char *sig, const char *key, char *buf, size_t len);

/*
 * Mark configurations of runs kept apart in their names: " [interrupted]"
 * (targetLost, short) always; " / round N" and " / S s runs" where another
 * configuration of the same labels and facts differs in it. True in
 * *split (when not NULL) when rounds or durations were told apart.
 * rep_db_finish() calls it.
 */
void rep_configs_mark_runs(struct rep_db *db, bool *split);

/*
 * Where configurations that differ came out with one name (facts a name
 * leaves out: volumeSize, filesystem, ...), add " / key=value" for each
 * fact whose values differ among them. rep_db_finish() calls it.
 */
void rep_configs_distinguish(struct rep_db *db);

#endif
