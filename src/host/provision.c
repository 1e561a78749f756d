/* provision.c - provisioning facts: which describe the host, which the configuration, their types. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/provision.h"
#include "lib/err.h"
#include "lib/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct provision_fact provision_facts[] = {
	{ "cloud", true, PROVISION_STRING },
	{ "instanceId", true, PROVISION_STRING },
	{ "az", true, PROVISION_STRING },
	{ "region", true, PROVISION_STRING },
	{ "ami", true, PROVISION_STRING },
	{ "privateIp", true, PROVISION_STRING },
	{ "lifecycle", true, PROVISION_STRING },
	{ "instanceType", false, PROVISION_STRING },
	{ "ebsOptimized", false, PROVISION_BOOL },
	{ "volumeType", false, PROVISION_STRING },
	{ "volumeSize", false, PROVISION_NUMBER },
	{ "volumeIops", false, PROVISION_NUMBER },
	{ "volumeThroughput", false, PROVISION_NUMBER },
	{ "volumeCount", false, PROVISION_NUMBER },
	{ "instanceStore", false, PROVISION_BOOL },
	{ "raidLevel", false, PROVISION_STRING },
	{ "raidChunk", false, PROVISION_BYTES },
	{ "filesystem", false, PROVISION_STRING },
};
const size_t provision_nfacts = sizeof(provision_facts) / sizeof(provision_facts[0]);

const struct provision_fact *provision_find(const char *key)
{
	for (size_t i = 0; i < provision_nfacts; i++)
		if (strcmp(provision_facts[i].key, key) == 0)
			return &provision_facts[i];
	return NULL;
}

bool provision_is_host_fact(const char *key)
{
	const struct provision_fact *f = provision_find(key);
	return f && f->per_host;
}

/* JSON's number grammar, whole text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool looks_like_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s += strspn(s, "0123456789");
	else
		return false;
	if (*s == '.') {
		size_t n = strspn(s + 1, "0123456789");
		if (n == 0)
			return false;
		s += 1 + n;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		size_t n = strspn(s, "0123456789");
		if (n == 0)
			return false;
		s += n;
	}
	return *s == '\0';
}

/* A number as JSON: an integer when it is one (and fits), else a real. NULL when not finite. */
static json_t *number_json(const char *text)
{
	double v = strtod(text, NULL);
	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static json_t *bool_json(const char *text)
{
	if (strcmp(text, "true") == 0)
		return json_true();
	if (strcmp(text, "false") == 0)
		return json_false();
	return NULL;
}

json_t *provision_value(const char *key, const char *text, char *err, size_t errlen)
{
	const struct provision_fact *f = provision_find(key);
	json_t *v = NULL;
	uint64_t bytes;
	if (!f) {
		v = looks_like_number(text) ? number_json(text) : bool_json(text);
		if (!v)
			v = json_string(text);
	} else if (f->type == PROVISION_STRING) {
		v = json_string(text);
	} else if (f->type == PROVISION_NUMBER) {
		v = looks_like_number(text) ? number_json(text) : NULL;
		if (!v) {
			snprintf(err, errlen, "%s wants a number, got '%s'", QUOTE(key), QUOTE(text));
			return NULL;
		}
	} else if (f->type == PROVISION_BOOL) {
		v = bool_json(text);
		if (!v) {
			snprintf(err, errlen, "%s wants true or false, got '%s'", QUOTE(key), QUOTE(text));
			return NULL;
		}
	} else if (f->type == PROVISION_BYTES) {
		if (units_parse_size(text, &bytes) != 0) {
			snprintf(err, errlen, "%s wants bytes (262144, 256K, 1M), got '%s'", QUOTE(key), QUOTE(text));
			return NULL;
		}
		v = json_integer((json_int_t)bytes);
	}
	if (!v)
		snprintf(err, errlen, "%s: value is not valid UTF-8 text", key);
	return v;
}

int provision_set_fact(json_t *obj, const char *key_value, char *err, size_t errlen)
{
	const char *eq = strchr(key_value, '=');
	if (!eq || eq == key_value) {
		snprintf(err, errlen, "'%s' is not KEY=VALUE", QUOTE(key_value));
		return -EINVAL;
	}
	char *key = strndup(key_value, (size_t)(eq - key_value));
	if (!key) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	json_t *v = provision_value(key, eq + 1, err, errlen);
	int rc = 0;
	if (!v) {
		rc = -EINVAL;
	} else if (json_object_set_new(obj, key, v) != 0) {
		snprintf(err, errlen, "fact name '%s' is not valid UTF-8 text", QUOTE(key));
		rc = -EINVAL;
	}
	free(key);
	return rc;
}

void provision_real_text(double v, char buf[PROVISION_REAL_LEN])
{
	if (v == floor(v) && fabs(v) < 9e15)
		snprintf(buf, PROVISION_REAL_LEN, "%.0f", v);
	else
		snprintf(buf, PROVISION_REAL_LEN, "%.15g", v);
}

char *provision_text(const json_t *value)
{
	if (json_is_string(value))
		return strdup(json_string_value(value));
	if (json_is_real(value)) {
		char buf[PROVISION_REAL_LEN];
		provision_real_text(json_real_value(value), buf);
		return strdup(buf);
	}
	return json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* A file's value of a known fact, brought to the fact's type; NULL (err said) when it cannot be. */
static json_t *typed(const struct provision_fact *f, json_t *v, char *err, size_t errlen)
{
	bool scalar = json_is_string(v) || json_is_number(v) || json_is_boolean(v);
	if (!scalar) {
		snprintf(err, errlen, "\"%s\" must be a string, number or boolean", f->key);
		return NULL;
	}
	if (f->type == PROVISION_STRING && json_is_string(v))
		return json_incref(v);
	if (f->type == PROVISION_NUMBER && json_is_number(v))
		return json_incref(v);
	if (f->type == PROVISION_BOOL && json_is_boolean(v))
		return json_incref(v);
	if (f->type == PROVISION_BYTES && json_is_integer(v))
		return json_incref(v);
	char *text = provision_text(v);
	if (!text) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	json_t *out = provision_value(f->key, text, err, errlen);
	free(text);
	return out;
}

int provision_load_file(const char *path, json_t *obj, char *err, size_t errlen)
{
	FILE *in = fopen(path, "re");
	if (!in) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	json_error_t jerr;
	json_t *root = json_loadf(in, 0, &jerr);
	fclose(in);
	if (!root) {
		snprintf(err, errlen, "%s:%d: not JSON (%s)", path, jerr.line, jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(root)) {
		snprintf(err, errlen, "%s: not a JSON object of facts", path);
		json_decref(root);
		return -EINVAL;
	}
	const char *key;
	json_t *v;
	int rc = 0;
	json_object_foreach(root, key, v) {
		if (json_is_null(v))
			continue;
		const struct provision_fact *f = provision_find(key);
		char why[200];
		json_t *t = f ? typed(f, v, why, sizeof(why)) : json_incref(v);
		if (!t) {
			snprintf(err, errlen, "%s: %s", path, why);
			rc = -EINVAL;
			break;
		}
		json_object_set_new(obj, key, t);
	}
	json_decref(root);
	return rc;
}
