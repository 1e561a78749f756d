/*
 * SPDX-License-Identifier: Apache-2.0
 * provision.h - what was provisioned: the facts a result line carries in
 * its "provision" object, which of them describe the host and which the
 * configuration, and how a fact given as text becomes a JSON value.
 *
 * Per-host facts (cloud, instanceId, az, region, ami, privateIp,
 * lifecycle) say WHICH host ran; they never make a configuration. Every
 * other fact, known (instanceType, volumeType, volumeCount, raidLevel, ...)
 * or not, is a configuration fact: the report groups by them.
 *
 * Pure but for provision_load_file() (reads a file). Uses jansson: do not
 * share one json_t between threads.
 */
#ifndef IOBENCH_HOST_PROVISION_H
#define IOBENCH_HOST_PROVISION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What a known fact's value is. */
enum provision_type {
	PROVISION_STRING, /* "m5.large"; a number given is kept as its text ("0" for raidLevel) */
	PROVISION_NUMBER, /* a JSON number (volumeSize in GiB, volumeIops, ...) */
	PROVISION_BOOL,   /* true / false */
	PROVISION_BYTES,  /* a JSON number of bytes; text may say 256K, 1M */
};

struct provision_fact {
	const char *key;
	bool per_host;   /* describes which host, never part of a configuration */
	enum provision_type type;
};

/* The known facts, in the order the README lists them. */
extern const struct provision_fact provision_facts[];
extern const size_t provision_nfacts;

/* The row of key, or NULL for a key iobench does not know (a configuration fact). */
const struct provision_fact *provision_find(const char *key);

/* True when key names a per-host fact (instanceId, az, ...), false for configuration facts. */
bool provision_is_host_fact(const char *key);

/*
 * The JSON value of fact key given as text: typed as the key's row says;
 * for an unknown key a number or boolean when the text looks like one
 * (JSON's grammar), else a string. Returns a new reference, or NULL with a
 * one-line reason in err (text not valid UTF-8, "four" for volumeCount).
 */
json_t *provision_value(const char *key, const char *text, char *err, size_t errlen);

/*
 * "KEY=VALUE" into obj (replacing an earlier value of KEY). Returns 0, or
 * -EINVAL with a one-line reason in err.
 */
int provision_set_fact(json_t *obj, const char *key_value, char *err, size_t errlen);

/*
 * Merge the JSON object in the file at path into obj (the file's keys win).
 * Known facts are brought to their type (a count given as "4" becomes 4, a
 * raidLevel given as 0 becomes "0"); null members are left out; unknown
 * keys are kept as they are. Returns 0, or -errno / -EINVAL with a one-line
 * reason in err (unreadable, not JSON, not an object, a value of the wrong
 * kind for its key).
 */
int provision_load_file(const char *path, json_t *obj, char *err, size_t errlen);

/*
 * Value of a fact as text, as the report writes it: strings as they are,
 * integers without a decimal point, booleans true/false, anything else as
 * compact JSON. malloc'd; NULL on ENOMEM.
 */
char *provision_text(const json_t *value);

/* Room for provision_real_text's text. */
#define PROVISION_REAL_LEN 64

/*
 * A real's text as provision_text writes it: an integral value below 9e15
 * without a decimal point (3000.0 is "3000"), any other as %.15g.
 */
void provision_real_text(double v, char buf[PROVISION_REAL_LEN]);

#endif
