/* cli/price.c - `iobench price`: what a configuration costs an hour, by the report's price model. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/price.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "report/store/db.h"
#include "report/render/term.h"
#include "report/read/read.h"

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

#define MAX_FACTS 16

struct price_args {
	bool json;
	const char *prices_path;
	const char *key[MAX_FACTS], *value[MAX_FACTS]; /* --fact K=V, in the order given */
	int nfacts;
};

/* The fact keys the model reads (report/base/price.h: price_facts_find), and config: the list's. */
static const char *const fact_keys[] = {
	"instanceType", "instance", "volumeType", "volume", "volumeCount", "volumeSize", "volumeGB",
	"volumeIops", "volumeThroughput", "instanceStore", "config",
};
#define NKEYS (sizeof(fact_keys) / sizeof(fact_keys[0]))

static int parse_fact(void *settings, const char *arg)
{
	struct price_args *a = settings;
	const char *eq = strchr(arg, '=');
	size_t klen = eq ? (size_t)(eq - arg) : 0;
	size_t k = 0;
	while (k < NKEYS && !(strlen(fact_keys[k]) == klen && strncmp(fact_keys[k], arg, klen) == 0))
		k++;
	if (!eq || k == NKEYS)
		return diag_usage("--fact '%s' is not a fact the model reads; give KEY=VALUE with KEY one of instanceType, "
				  "volumeType, volumeCount, volumeSize, volumeIops, volumeThroughput, instanceStore, config",
				  arg);
	const char *v = eq + 1;
	if (k >= 4 && k <= 8) { /* a count: the model takes 0 to PRICE_MAX */
		char *end;
		double x = strtod(v, &end);
		if (end == v || *end != '\0' || !(x >= 0 && x <= PRICE_MAX))
			return diag_usage("--fact %s: '%s' is not a count; give a number from 0 to %g", fact_keys[k], v,
					  PRICE_MAX);
	} else if (k == 9 && strcmp(v, "true") != 0 && strcmp(v, "false") != 0) {
		return diag_usage("--fact instanceStore: '%s' is not a boolean; give true or false", v);
	} else if (!v[0]) {
		return diag_usage("--fact %s: empty; give a name (e.g. %s)", fact_keys[k],
				  k < 2 ? "m5.large" : k < 4 ? "gp3" : "m5.large/gp3");
	}
	if (a->nfacts == MAX_FACTS)
		return diag_usage("more than %d --fact options; give each key once", MAX_FACTS);
	/* the last one given of a key counts */
	int i = 0;
	while (i < a->nfacts && strcmp(a->key[i], fact_keys[k]) != 0)
		i++;
	a->key[i] = fact_keys[k];
	a->value[i] = v;
	a->nfacts += i == a->nfacts;
	return 0;
}

#define CMDLINE_SETTINGS struct price_args
/* name, short, value, commands, help, default, how */
static const struct cmdline_opt price_opts[] = {
	{ "prices", 0, "FILE", 0, "the price list (share/prices-sample.json; required)", NULL, STRING(prices_path) },
	{ "fact", 0, "KEY=VALUE", 0, "a fact of the configuration, as the report reads provision facts:\n"
	  "instanceType, volumeType, volumeCount, volumeSize (GiB each),\n"
	  "volumeIops, volumeThroughput (MiB/s each), instanceStore (true:\n"
	  "volumeType ephemeral), config (a config of the list: its facts\n"
	  "come first); repeatable", NULL, CUSTOM(parse_fact) },
	{ "json", 0, NULL, 0, "one JSON object instead of text", NULL, FLAG(json) },
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS

static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	const struct price_args *a = settings;
	(void)cmd;
	if (noperands > 0)
		return diag_usage("unexpected argument '%s'; price takes only options (see 'iobench price --help')",
				  operands[0]);
	if (!a->prices_path)
		return diag_usage("no --prices FILE given; give a price list (share/prices-sample.json)");
	if (a->nfacts == 0)
		return diag_usage("no --fact given; give at least --fact instanceType=TYPE or --fact volumeType=TYPE");
	return 0;
}

static const struct cmdline_table price_table = {
	price_opts, sizeof(price_opts) / sizeof(price_opts[0]), NULL, check_args,
};

static const struct cmdline_cmd price_cmd = {
	.name = "price",
	.bit = 1,
	.table = &price_table,
	.intro = "usage: iobench price --prices FILE --fact KEY=VALUE... [--json]\n"
		 "\n"
		 "What a configuration costs an hour under a price list, by the model the\n"
		 "report's cost section uses: the instance's hourly price; per volume its\n"
		 "GB-months, provisioned IOPS above the type's free baseline (flat or in\n"
		 "tiers of the total) and MiB/s above the free baseline, 730 hours a month;\n"
		 "times volumeCount. Per-I/O charges (perMillionIO) follow the rate run, so\n"
		 "they are named apart and not in the total. A volume without volumeSize\n"
		 "has no storage charge; one without volumeIops or volumeThroughput gets its\n"
		 "type's free baseline.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Examples:\n"
		 "  iobench price --prices share/prices-sample.json --fact instanceType=m5.large \\\n"
		 "      --fact volumeType=io2 --fact volumeSize=200 --fact volumeIops=8000\n"
		 "  iobench price --json --prices share/prices-sample.json --fact config=large/ebs4\n"
		 "Exit: 0 priced; 1 the list has no price for the instance or volume type\n"
		 "(said; the rest is still printed, that part left out); 2 usage error (a\n"
		 "bad --fact, or a prices file that is not one, said as FILE: KEY).\n",
};

/* The facts given, for price_facts_find: the first of keys given. */
static bool args_lookup(void *arg, const char *const *keys, char *buf, size_t len)
{
	const struct price_args *a = arg;
	for (const char *const *k = keys; *k; k++)
		for (int i = 0; i < a->nfacts; i++)
			if (strcmp(a->key[i], *k) == 0) {
				snprintf(buf, len, "%s", a->value[i]);
				return true;
			}
	return false;
}

static const char *given(const struct price_args *a, const char *key)
{
	const char *const keys[] = { key, NULL };
	static char buf[256];
	return args_lookup((void *)a, keys, buf, sizeof(buf)) ? buf : NULL;
}

/* x as the fewest digits that read back as x (0.096, not 0.096000000000000002); null when NAN. */
static void json_num(const char *name, double x, bool last)
{
	char buf[32];
	if (isnan(x)) {
		snprintf(buf, sizeof(buf), "null");
	} else {
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, x);
			if (strtod(buf, NULL) == x)
				break;
		}
	}
	printf("\"%s\":%s%s", name, buf, last ? "" : ",");
}

static void json_str(const char *name, const char *s)
{
	printf("\"%s\":", name);
	if (!s) {
		fputs("null,", stdout);
		return;
	}
	json_t *j = json_string(s);
	char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	printf("%s,", text ? text : "null");
	free(text);
	json_decref(j);
}

static void print_json(const struct price_list *p, const struct price_facts *f, const struct price_hour *h)
{
	bool ni = h->unpriced & PRICE_NO_INSTANCE, nv = h->unpriced & PRICE_NO_VOLUME;
	fputs("{", stdout);
	json_str("instanceType", f->instance);
	json_str("volumeType", f->volume);
	json_num("volumeCount", f->volume ? (f->count >= 1 ? f->count : 1) : NAN, false);
	json_num("volumeSize", f->size_gib, false);
	json_num("volumeIops", f->iops, false);
	json_num("volumeThroughput", f->mibps, false);
	json_num("instanceDollarsPerHour", f->instance && !ni ? h->instance : NAN, false);
	json_num("volumeDollarsPerHour", f->volume && !nv ? h->volume : NAN, false);
	json_num("storageDollarsPerHour", h->storage, false);
	json_num("iopsDollarsPerHour", h->iops, false);
	json_num("throughputDollarsPerHour", h->throughput, false);
	json_num("dollarsPerHour", h->fixed, false);
	json_num("perMillionIO", h->per_million_io, false);
	printf("\"unpriced\":[%s%s%s],", ni ? "\"instanceType\"" : "", ni && nv ? "," : "", nv ? "\"volumeType\"" : "");
	json_str("date", p->date);
	json_str("region", p->region);
	json_str("currency", p->currency);
	json_num("hoursPerMonth", PRICE_HOURS_PER_MONTH, true);
	fputs("}\n", stdout);
}

static void print_text(const struct price_list *p, const struct price_facts *f, const struct price_hour *h)
{
	char name[300];
	if (f->instance) {
		snprintf(name, sizeof(name), "%s", f->instance);
		if (h->unpriced & PRICE_NO_INSTANCE)
			printf("%s: no price in the list; left out\n", term_clean(name, sizeof(name), name));
		else
			printf("%s: $%.4f/h\n", term_clean(name, sizeof(name), name), h->instance);
	}
	if (f->volume) {
		char size[48] = "";
		if (!isnan(f->size_gib))
			snprintf(size, sizeof(size), " %.15g GiB", f->size_gib);
		snprintf(name, sizeof(name), "%.15g x %s%s", f->count >= 1 ? f->count : 1, f->volume, size);
		term_clean(name, sizeof(name), name);
		if (h->unpriced & PRICE_NO_VOLUME)
			printf("%s: no price in the list; left out\n", name);
		else
			printf("%s: $%.4f/h ($%.4f/h each); of which storage $%.4f, IOPS $%.4f, throughput $%.4f\n", name,
			       h->storage + h->iops + h->throughput, h->volume, h->storage, h->iops, h->throughput);
		if (h->per_million_io > 0)
			printf("per I/O request: $%g per million, at the rate run (not in the total)\n", h->per_million_io);
	}
	printf("total: $%.4f/h%s\n", h->fixed, h->unpriced ? " (what has no price left out)" : "");
	char where[300];
	snprintf(where, sizeof(where), "%s %s%s%s", p->region ? p->region : "one region", p->date ? p->date : "undated",
		 p->currency ? " " : "", p->currency ? p->currency : "");
	printf("prices: %s\n", term_clean(where, sizeof(where), where));
}

int cmd_price(int argc, char **argv)
{
	struct price_args a = { 0 };
	int first;
	int rc = cmdline_parse(&price_cmd, &a, argc, argv, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	struct price_list *p;
	if (cli_load_prices(a.prices_path, &p) != 0)
		return EXIT_USAGE;
	const char *cname = given(&a, "config");
	const struct price_config *cfg = NULL;
	if (cname && !(cfg = price_config_find(p, cname))) {
		rc = diag_usage("--fact config=%s: %s has no such config; name one of its \"configs\"", cname,
				a.prices_path);
		price_free(p);
		return rc;
	}
	struct price_facts f;
	struct price_hour h;
	char inst[256], vol[256];
	if (!price_facts_find(cfg, args_lookup, &a, &f, inst, sizeof(inst), vol, sizeof(vol))) {
		price_free(p);
		return diag_usage("no instance or volume type given; add --fact instanceType=TYPE or --fact volumeType=TYPE");
	}
	rc = price_hourly(p, &f, &h);
	if (rc == -ERANGE) { /* a config of the list with a string fact out of range */
		price_free(p);
		return diag_usage("a count of the configuration is not a number from 0 to %g; fix it", PRICE_MAX);
	}
	if (a.json)
		print_json(p, &f, &h);
	else
		print_text(p, &f, &h);
	rc = EXIT_OK;
	if (h.unpriced & PRICE_NO_INSTANCE)
		rc = diag_fail("instance type %s has no price in %s; the estimate leaves it out; add it to the list",
			       term_clean(inst, sizeof(inst), inst), a.prices_path);
	if (h.unpriced & PRICE_NO_VOLUME)
		rc = diag_fail("volume type %s has no price in %s; the estimate leaves it out; add it to the list",
			       term_clean(vol, sizeof(vol), vol), a.prices_path);
	price_free(p);
	return rc;
}
