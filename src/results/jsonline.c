/* jsonline.c - the parts every result line is made of. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "results/jsonline.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/version.h"

size_t jsonline_utf8_seq(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
		   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	/* The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF. */
	unsigned char lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;
	if (n == 0 || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * s as valid UTF-8: each byte that starts no valid sequence becomes U+FFFD.
 * A path or label is text to a reader; one stray byte must not cost the
 * line its metadata. malloc'd; NULL on ENOMEM.
 */
static char *utf8_clean(const char *s)
{
	size_t len = strlen(s);
	char *out = malloc(len * 3 + 1);
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	char *o = out;
	while (*p) {
		size_t n = jsonline_utf8_seq(p);
		if (n == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		} else {
			memcpy(o, p, n);
			o += n;
			p += n;
		}
	}
	*o = '\0';
	return out;
}

json_t *jsonline_text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *clean = utf8_clean(s);
	j = clean ? json_string(clean) : NULL;
	free(clean);
	return j;
}

json_t *jsonline_text_or_null(const char *s)
{
	return s && *s ? jsonline_text(s) : json_null();
}

json_t *jsonline_labels(const char *const *kv, size_t n)
{
	json_t *obj = json_object();
	if (!obj)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '=');
		char key[256];
		size_t len = (size_t)(eq - kv[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(len < sizeof(key) ? len : sizeof(key) - 1), kv[i]);
		char *ckey = utf8_clean(key);
		if (!ckey || json_object_set_new(obj, ckey, jsonline_text(eq + 1)) != 0) {
			free(ckey);
			json_decref(obj);
			return NULL;
		}
		free(ckey);
	}
	return obj;
}

json_t *jsonline_target(const struct target_info *t, uint64_t span)
{
	json_t *obj = json_pack("{s:o, s:s, s:I}",
				"path", jsonline_text(t->path),
				"type", t->is_block ? "block" : "file",
				"size", (json_int_t)t->size);
	if (obj && span && json_object_set_new(obj, "span", json_integer((json_int_t)span)) != 0) {
		json_decref(obj);
		return NULL;
	}
	json_t *rest = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b, s:o, s:o, s:o}",
				 "filesystem", jsonline_text_or_null(t->fstype),
				 "mountPoint", jsonline_text_or_null(t->mount_point),
				 "device", jsonline_text_or_null(t->device),
				 "deviceSize", t->device_size ? json_integer((json_int_t)t->device_size) : json_null(),
				 "serial", jsonline_text_or_null(t->serial),
				 "model", jsonline_text_or_null(t->model),
				 "rootDevice", t->root_device,
				 "memory", t->memory,
				 "rotational", t->rotational < 0 ? json_null() : json_boolean(t->rotational),
				 "scheduler", jsonline_text_or_null(t->scheduler),
				 "raidLevel", jsonline_text_or_null(t->raid_level));
	int rc = obj && rest ? json_object_update(obj, rest) : -1;
	json_decref(rest);
	if (rc != 0) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

json_t *jsonline_header(const char *command_line, const char *host)
{
	struct utsname u;
	char hostname[256] = "";
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	gethostname(hostname, sizeof(hostname) - 1);
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}",
			 "tool", "iobench",
			 "version", iobench_version,
			 "commandLine", jsonline_text(command_line ? command_line : ""),
			 "host", jsonline_text(host && *host ? host : hostname),
			 "hostname", jsonline_text(hostname),
			 "kernel", jsonline_text(u.release));
}
