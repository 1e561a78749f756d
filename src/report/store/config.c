/* report/store/config.c - what a result line says apart: which host, which configuration, what bookkeeping. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/store/config.h"
#include "report/base/json.h"

#include <stdlib.h>
#include <string.h>

#include "host/provision.h"
#include "lib/units.h"
#include "report/base/alloc.h"
#include "report/store/opname.h"

/* Label keys that older scripts wrote for their own bookkeeping. */
static const char *const bookkeeping_labels[] = { "run", "runId", "fleetHost", "planStep", "spanHuman" };

bool rep_is_bookkeeping_label(const char *key)
{
	for (size_t i = 0; i < sizeof(bookkeeping_labels) / sizeof(bookkeeping_labels[0]); i++)
		if (strcmp(key, bookkeeping_labels[i]) == 0)
			return true;
	return false;
}

static bool is_size_label(const char *key)
{
	return strcmp(key, "fileSize") == 0 || strcmp(key, "span") == 0;
}

/* A growing list of key=value pairs, joined sorted by key into "k=v,k=v". */
struct kv_list {
	struct kv {
		const char *key;
		char *value;
	} *kv;
	size_t n, cap;
};

static void kv_add(struct kv_list *l, const char *key, char *value)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->kv = rep_realloc(l->kv, l->cap * sizeof(*l->kv));
	}
	l->kv[l->n].key = key;
	l->kv[l->n].value = value;
	l->n++;
}

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* s into p with ',', '=' and '\\' escaped by a '\\'; returns the end. */
static char *put_escaped(char *p, const char *s)
{
	for (; *s; s++) {
		if (*s == ',' || *s == '=' || *s == '\\')
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return p;
}

/*
 * The list as "k=v,k=v" sorted by key; frees the values. A ',' '=' or '\\'
 * in a key or value is escaped ("\\,"), so that the label a="1,b=2" stays
 * one label and never equals the two labels a=1 and b=2.
 */
static char *kv_join(struct kv_list *l)
{
	size_t len = 1;
	for (size_t i = 0; i < l->n; i++)
		len += 2 * (strlen(l->kv[i].key) + strlen(l->kv[i].value)) + 2;
	if (l->n)
		qsort(l->kv, l->n, sizeof(*l->kv), cmp_kv);
	char *out = rep_realloc(NULL, len), *p = out;
	*p = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			*p++ = ',';
		p = put_escaped(p, l->kv[i].key);
		*p++ = '=';
		p = put_escaped(p, l->kv[i].value);
		free(l->kv[i].value);
	}
	free(l->kv);
	memset(l, 0, sizeof(*l));
	return out;
}

/*
 * A value as text, as provision_text() writes it: strings as they are, a
 * real by provision_real_text, any other as compact JSON. Without jansson:
 * it runs for every label and fact of every line read.
 */
static char *text_of(const struct jv *v)
{
	if (jv_is_string(v))
		return rep_strdup(jv_string_value(v));
	if (v->type == JV_REAL) {
		char buf[PROVISION_REAL_LEN];
		provision_real_text(v->u.d, buf);
		return rep_strdup(buf);
	}
	char *t = jv_dumps(v);
	return t ? t : rep_strdup("");
}

/* A size label's bytes: a number, or text such as 1536M. */
static uint64_t size_of(const struct jv *v)
{
	if (jv_is_number(v)) {
		double d = jv_number_value(v);
		return d > 0 && d < 9.2e18 ? (uint64_t)d : 0;
	}
	uint64_t bytes;
	return jv_is_string(v) && units_parse_size(jv_string_value(v), &bytes) == 0 ? bytes : 0;
}

static const char *kv_get(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->kv[i].key, key) == 0)
			return l->kv[i].value;
	return NULL;
}

/*
 * Facts that mean the same read the same: a volume type's defaults made
 * explicit (gp3 given no IOPS or MiB/s has 3000 and 125; an EBS volume
 * given no count is one) and "raidLevel": "none" is no RAID, as absent.
 * Keys are string literals or the object's own (they outlive the list).
 */
static void canonical_facts(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->kv[i].key, "raidLevel") == 0 && strcmp(l->kv[i].value, "none") == 0) {
			free(l->kv[i].value);
			l->kv[i--] = l->kv[--l->n];
		}
	const char *type = kv_get(l, "volumeType");
	if (!type)
		return;
	bool gp3 = strcmp(type, "gp3") == 0;
	if (!kv_get(l, "volumeCount"))
		kv_add(l, "volumeCount", rep_strdup("1"));
	if (gp3 && !kv_get(l, "volumeIops"))
		kv_add(l, "volumeIops", rep_strdup("3000"));
	if (gp3 && !kv_get(l, "volumeThroughput"))
		kv_add(l, "volumeThroughput", rep_strdup("125"));
}

char *rep_config_facts(const struct jv *prov)
{
	struct kv_list facts = { 0 };
	const char *key;
	const struct jv *v;
	jv_object_foreach(prov, key, v)
		if (v->type != JV_NULL && !provision_is_host_fact(key))
			kv_add(&facts, key, text_of(v));
	canonical_facts(&facts);
	return kv_join(&facts);
}

/* The host a line names: "host" beside "hostname" (a name given), else a legacy fleetHost label, else "host". */
static char *host_of(const struct jv *root, const struct jv *labels)
{
	const struct jv *host = jv_object_get(root, "host");
	const struct jv *fleet = jv_object_get(labels, "fleetHost");
	if (jv_is_string(host) && jv_is_string(jv_object_get(root, "hostname")))
		return rep_strdup(jv_string_value(host));
	if (jv_is_string(fleet) && jv_size(fleet) > 0)
		return rep_strdup(jv_string_value(fleet));
	return jv_is_string(host) ? rep_strdup(jv_string_value(host)) : NULL;
}

/* Unescape up to the first unescaped char of stop (or the end) into buf (cut to len); returns where it stopped. */
static const char *take_escaped(const char *p, const char *stop, char *buf, size_t len)
{
	size_t n = 0;
	for (; *p && !strchr(stop, *p); p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < len)
			buf[n++] = *p;
	}
	if (len)
		buf[n] = '\0';
	return p;
}

const char *rep_kv_next(const char *p, char *key, size_t klen, char *value, size_t vlen)
{
	if (!p || !*p)
		return NULL;
	p = take_escaped(p, "=,", key, klen);
	if (*p == '=')
		p = take_escaped(p + 1, ",", value, vlen);
	else if (vlen)
		value[0] = '\0';
	return *p == ',' ? p + 1 : p;
}

void rep_split_line(const struct jv *root, struct rep_split *out)
{
	const struct jv *labels = jv_object_get(root, "labels");
	const struct jv *notes = jv_object_get(root, "notes");
	struct kv_list user = { 0 }, book = { 0 };
	const char *key;
	const struct jv *v;
	memset(out, 0, sizeof(*out));
	jv_object_foreach(labels, key, v) {
		if (is_size_label(key)) {
			uint64_t bytes = size_of(v);
			if (bytes)
				out->size_label = bytes;
		} else {
			kv_add(rep_is_bookkeeping_label(key) ? &book : &user, key, text_of(v));
		}
	}
	jv_object_foreach(notes, key, v)
		kv_add(&book, key, text_of(v));
	out->host = host_of(root, labels);
	out->labels = kv_join(&user);
	out->notes = kv_join(&book);
	out->facts = rep_config_facts(jv_object_get(root, "provision"));
}

void rep_split_free(struct rep_split *s)
{
	free(s->host);
	free(s->labels);
	free(s->facts);
	free(s->notes);
	memset(s, 0, sizeof(*s));
}

/* Append " / " (unless first) and text to the name being built. */
static void part(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", used ? " / " : "", text);
}

char *rep_config_name(const char *labels, const char *facts)
{
	char name[1024] = "", v[256], s[512];
	if (rep_label_value(facts, "instanceType", v, sizeof(v)))
		part(name, sizeof(name), v);
	s[0] = '\0';
	if (rep_label_value(facts, "volumeType", v, sizeof(v)))
		snprintf(s, sizeof(s), "%s", v);
	else if (rep_label_value(facts, "instanceStore", v, sizeof(v)) && strcmp(v, "true") == 0)
		snprintf(s, sizeof(s), "instance store");
	if (s[0] && rep_label_value(facts, "volumeCount", v, sizeof(v)))
		snprintf(s + strlen(s), sizeof(s) - strlen(s), " x%s", v);
	if (s[0])
		part(name, sizeof(name), s);
	if (rep_label_value(facts, "raidLevel", v, sizeof(v)) && v[0] && strcmp(v, "none") != 0) {
		snprintf(s, sizeof(s), "%s%s", strncmp(v, "raid", 4) == 0 ? "" : "raid", v);
		part(name, sizeof(name), s);
	}
	/* Facts, but none of the ones a name is made of: say them as they are. */
	if (!name[0] && facts[0])
		part(name, sizeof(name), facts);
	if (labels[0])
		part(name, sizeof(name), labels);
	return rep_strdup(name);
}

/* ---- interning ---- */

/* The one hash of a configuration's identity: the interning and its growth both use it. */
static uint64_t config_hash(const char *labels, const char *facts, const char *runs, const char *settings)
{
	uint64_t h = 14695981039346656037ULL;
	const char *parts[4] = { labels, facts, runs, settings };
	for (int i = 0; i < 4; i++) {
		for (const char *p = parts[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

static void config_slots_grow(struct rep_db *db)
{
	size_t n = db->nconfig_slots ? db->nconfig_slots * 2 : 64;
	free(db->config_slots);
	db->config_slots = rep_calloc(n, sizeof(*db->config_slots));
	db->nconfig_slots = n;
	for (size_t i = 0; i < db->nconfigs; i++) {
		const struct rep_config *c = db->configs[i];
		size_t s = config_hash(c->labels, c->facts, c->runs, c->settings) & (n - 1);
		while (db->config_slots[s])
			s = (s + 1) & (n - 1);
		db->config_slots[s] = i + 1;
	}
}

const struct rep_config *rep_config_get(struct rep_db *db, const char *labels, const char *facts)
{
	return rep_config_get_runs(db, labels, facts, "");
}

const struct rep_config *rep_config_get_runs(struct rep_db *db, const char *labels, const char *facts,
					     const char *runs)
{
	return rep_config_get_settings(db, labels, facts, runs, "");
}

bool rep_config_setting(const struct rep_config *cfg, const char *sig, const char *key, char *buf, size_t len)
{
	if (rep_label_value(cfg->settings, key, buf, len))
		return true;
	enum rep_kind kind = sig ? rep_kind_of(sig) : REP_READ;
	if (strcmp(key, "engine") == 0)
		snprintf(buf, len, "sync");
	else if (strcmp(key, "iodepth") == 0)
		snprintf(buf, len, "1");
	else if (strcmp(key, "rate") == 0)
		snprintf(buf, len, "none");
	else if (strcmp(key, "direct") == 0)
		snprintf(buf, len, "%s", kind != REP_WRITE_N && kind != REP_WRITE ? "true" : "false");
	else if (strcmp(key, "sync") == 0)
		snprintf(buf, len, "%s", kind == REP_WRITE_FLUSH ? "O_SYNC" : "none");
	else
		return false;
	return true;
}

/* The words a config's name gets for its settings: "io_uring qd8", "buffered", "O_DSYNC", "rate 1000". */
static void settings_words(const char *settings, char *buf, size_t len)
{
	char key[32], v[64];
	buf[0] = '\0';
	for (const char *p = settings; (p = rep_kv_next(p, key, sizeof(key), v, sizeof(v)));) {
		char w[96];
		if (strcmp(key, "direct") == 0)
			snprintf(w, sizeof(w), "%s", strcmp(v, "true") == 0 ? "direct" : "buffered");
		else if (strcmp(key, "iodepth") == 0)
			snprintf(w, sizeof(w), "qd%s", v);
		else if (strcmp(key, "rate") == 0)
			snprintf(w, sizeof(w), "rate %s", v);
		else if (strcmp(key, "sync") == 0)
			snprintf(w, sizeof(w), "%s", strcmp(v, "none") == 0 ? "no O_SYNC" : v);
		else
			snprintf(w, sizeof(w), "%s", v);
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", w);
	}
}

const struct rep_config *rep_config_get_settings(struct rep_db *db, const char *labels, const char *facts,
						 const char *runs, const char *settings)
{
	if ((db->nconfigs + 1) * 2 > db->nconfig_slots)
		config_slots_grow(db);
	size_t mask = db->nconfig_slots - 1;
	size_t s = config_hash(labels, facts, runs, settings) & mask;
	while (db->config_slots[s]) {
		struct rep_config *c = db->configs[db->config_slots[s] - 1];
		if (strcmp(c->labels, labels) == 0 && strcmp(c->facts, facts) == 0 && strcmp(c->runs, runs) == 0 &&
		    strcmp(c->settings, settings) == 0)
			return c;
		s = (s + 1) & mask;
	}
	if (db->nconfigs == db->configs_cap) {
		db->configs_cap = db->configs_cap ? db->configs_cap * 2 : 16;
		db->configs = rep_realloc(db->configs, db->configs_cap * sizeof(*db->configs));
	}
	struct rep_config *c = rep_calloc(1, sizeof(*c));
	c->labels = rep_strdup(labels);
	c->facts = rep_strdup(facts);
	c->name = rep_config_name(labels, facts);
	c->settings = rep_strdup(settings);
	if (settings[0]) {
		char words[256];
		settings_words(settings, words, sizeof(words));
		size_t len = strlen(c->name) + strlen(words) + 4;
		char *name = rep_calloc(len, 1);
		snprintf(name, len, "%s%s%s", c->name, c->name[0] ? " / " : "", words);
		free(c->name);
		c->name = name;
	}
	c->runs = rep_strdup(runs);
	c->partial = strstr(runs, "partial=") != NULL;
	db->configs[db->nconfigs++] = c;
	db->config_slots[s] = db->nconfigs;
	return c;
}

/* ---- names that came out equal ---- */

static int cmp_config_name(const void *a, const void *b)
{
	return strcmp((*(struct rep_config *const *)a)->name, (*(struct rep_config *const *)b)->name);
}

/* Append " / key=VALUE" to the name of c (VALUE "-" when c lacks the fact). */
static void name_add_fact(struct rep_config *c, const char *key)
{
	char v[256] = "-";
	rep_label_value(c->facts, key, v, sizeof(v));
	size_t len = strlen(c->name) + strlen(key) + strlen(v) + 5;
	char *name = rep_realloc(NULL, len);
	snprintf(name, len, "%s%s%s=%s", c->name, c->name[0] ? " / " : "", key, v);
	free(c->name);
	c->name = name;
}

/* Configurations g[0..n) share a name: add the facts whose values differ among them. */
static void distinguish(struct rep_config **g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char key[128], unused[8];
		for (const char *p = g[i]->facts; (p = rep_kv_next(p, key, sizeof(key), unused, sizeof(unused)));) {
			/* once per key: only where it first appears */
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++) {
				char v[256];
				seen = rep_label_value(g[j]->facts, key, v, sizeof(v));
			}
			if (seen)
				continue;
			char first[256] = "", v[256];
			bool differs = false;
			for (size_t j = 0; j < n && !differs; j++) {
				if (!rep_label_value(g[j]->facts, key, v, sizeof(v)))
					v[0] = '\x01'; /* absent differs from any value */
				if (j == 0)
					snprintf(first, sizeof(first), "%s", v);
				differs = strcmp(first, v) != 0;
			}
			if (differs)
				for (size_t j = 0; j < n; j++)
					name_add_fact(g[j], key);
		}
	}
}

void rep_configs_distinguish(struct rep_db *db)
{
	if (db->nconfigs < 2)
		return;
	struct rep_config **byname = rep_calloc(db->nconfigs, sizeof(*byname));
	memcpy(byname, db->configs, db->nconfigs * sizeof(*byname));
	qsort(byname, db->nconfigs, sizeof(*byname), cmp_config_name);
	for (size_t i = 0; i < db->nconfigs;) {
		size_t j = i + 1;
		while (j < db->nconfigs && strcmp(byname[j]->name, byname[i]->name) == 0)
			j++;
		if (j - i > 1)
			distinguish(byname + i, j - i);
		i = j;
	}
	free(byname);
}

/* ---- runs kept apart ---- */

const char *rep_partial_name(enum rep_partial_kind k)
{
	static const char *const names[REP_PARTIAL_KINDS] = { "interrupted", "targetLost", "short" };
	return k < REP_PARTIAL_KINDS ? names[k] : "?";
}

/* Append text to c's name (" / " first when the name is not empty and sep). */
static void name_append(struct rep_config *c, const char *sep, const char *text)
{
	size_t len = strlen(c->name) + strlen(sep) + strlen(text) + 1;
	char *name = rep_realloc(NULL, len);
	snprintf(name, len, "%s%s%s", c->name, c->name[0] ? sep : "", text);
	free(c->name);
	c->name = name;
}

/* True when a configuration of c's labels and facts has another value of key in its runs. */
static bool runs_differ(const struct rep_db *db, const struct rep_config *c, const char *key)
{
	char mine[64] = "", theirs[64];
	rep_label_value(c->runs, key, mine, sizeof(mine));
	for (size_t i = 0; i < db->nconfigs; i++) {
		const struct rep_config *o = db->configs[i];
		if (o == c || strcmp(o->labels, c->labels) != 0 || strcmp(o->facts, c->facts) != 0)
			continue;
		theirs[0] = '\0';
		rep_label_value(o->runs, key, theirs, sizeof(theirs));
		if (strcmp(mine, theirs) != 0)
			return true;
	}
	return false;
}

void rep_configs_mark_runs(struct rep_db *db, bool *split)
{
	bool any = false;
	/* decide for all before renaming any: runs_differ reads only labels, facts and runs */
	bool *round = rep_calloc(db->nconfigs + 1, sizeof(*round)), *dur = rep_calloc(db->nconfigs + 1, sizeof(*dur));
	for (size_t i = 0; i < db->nconfigs; i++) {
		round[i] = runs_differ(db, db->configs[i], "round");
		dur[i] = runs_differ(db, db->configs[i], "runtime");
	}
	for (size_t i = 0; i < db->nconfigs; i++) {
		struct rep_config *c = db->configs[i];
		char v[64], text[96];
		if (round[i] && rep_label_value(c->runs, "round", v, sizeof(v))) {
			snprintf(text, sizeof(text), "round %s", v);
			name_append(c, " / ", text);
			any = true;
		}
		if (dur[i] && rep_label_value(c->runs, "runtime", v, sizeof(v))) {
			snprintf(text, sizeof(text), strcmp(v, "steady") == 0 ? "runs in rounds" : "%s s runs", v);
			name_append(c, " / ", text);
			any = true;
		}
		if (rep_label_value(c->runs, "partial", v, sizeof(v))) {
			snprintf(text, sizeof(text), "[%s]", v);
			name_append(c, " ", text);
		}
	}
	free(round);
	free(dur);
	if (split)
		*split = any;
}

bool rep_label_value(const char *labels, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	char small[128];
	char *k = kl + 2 <= sizeof(small) ? small : rep_realloc(NULL, kl + 2);
	bool found = false;
	/* k holds one byte more than key, so a longer key cannot compare equal; buf is written only when found. */
	for (const char *p = labels, *next; !found && (next = rep_kv_next(p, k, kl + 2, NULL, 0)); p = next)
		if (strcmp(k, key) == 0)
			found = rep_kv_next(p, k, kl + 2, buf, len) != NULL;
	if (k != small)
		free(k);
	return found;
}
