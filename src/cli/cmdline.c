/* cmdline.c - option tables to getopt_long, --help and values. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/cmdline.h"
#include "lib/err.h"
#include "cli/diag.h"
#include "lib/units.h"
#include "lib/version.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Rows in one table, at most (getopt's arrays are built on the stack). */
#define CMDLINE_MAX_OPTS 64
/* Between a repeatable option's defaults in cmdline_opt.def. */
#define DEFAULTS_SEP " and "
/* getopt_long's value for row i: above every short option character. */
#define ROW_VAL(i) (256 + (int)(i))

int cmdline_check_label(const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return diag_usage("bad --label '%s'; use KEY=VALUE", QUOTE(arg));
	for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return diag_usage("bad --label: control character 0x%02x in it; use printable text", *p);
	return 0;
}

bool cmdline_is_text(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	json_t *j = json_string(s); /* NULL unless valid UTF-8 */
	json_decref(j);
	return j != NULL;
}

int cmdline_parse_label(void *at, const char *arg)
{
	struct cmdline_labels *labels = at;
	int rc = cmdline_check_label(arg);
	if (rc != 0)
		return rc;
	if (labels->n == CMDLINE_MAX_LABELS)
		return diag_usage("too many --label options (at most %d)", CMDLINE_MAX_LABELS);
	labels->kv[labels->n++] = arg;
	return 0;
}

int cmdline_parse_host(void *at, const char *arg)
{
	if (arg[0] == '\0' || !cmdline_is_text(arg))
		return diag_usage("bad --host '%s'; use the name the hosts file or the cloud gives it (i-0abc..., db1)",
				  QUOTE(arg));
	*(const char **)at = arg;
	return 0;
}

uint64_t cmdline_time_pid_hash(void)
{
	return (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid();
}

uint64_t cmdline_default_seed(void)
{
	return cmdline_time_pid_hash() & CMDLINE_SEED_MAX;
}

/* True when argv[i] is "--NAME" (its value follows) or "--NAME=VALUE", NAME one of secret. */
static int secret_at(char **argv, int i, const char *const *secret)
{
	if (!secret || strncmp(argv[i], "--", 2) != 0)
		return 0;
	for (const char *const *n = secret; *n; n++) {
		size_t l = strlen(*n);
		if (strncmp(argv[i] + 2, *n, l) != 0)
			continue;
		if (argv[i][2 + l] == '\0')
			return 1; /* the next argument is the value */
		if (argv[i][2 + l] == '=')
			return 2; /* the value is in this one */
	}
	return 0;
}

#define CMDLINE_REDACTED "<redacted>"

char *cmdline_join_secret(int argc, char **argv, const char *prefix, int first, const char *const *secret)
{
	size_t len = strlen(prefix) + 1;
	for (int i = first; i < argc; i++)
		len += strlen(argv[i]) + 3 + sizeof(CMDLINE_REDACTED);
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, prefix);
	bool value_next = false;
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			secret = NULL; /* operands from here on */
		if (value_next) {
			strcat(s, " " CMDLINE_REDACTED);
			value_next = false;
			continue;
		}
		int sec = secret_at(argv, i, secret);
		if (sec == 2) {
			strcat(s, " ");
			strncat(s, argv[i], (size_t)(strchr(argv[i], '=') - argv[i]) + 1);
			strcat(s, CMDLINE_REDACTED);
			continue;
		}
		value_next = sec == 1;
		bool quote = argv[i][0] == '\0' || strpbrk(argv[i], " \t\"'") != NULL;
		strcat(s, " ");
		if (quote)
			strcat(s, "'");
		strcat(s, argv[i]);
		if (quote)
			strcat(s, "'");
	}
	return s;
}

char *cmdline_join(int argc, char **argv, const char *prefix, int first)
{
	return cmdline_join_secret(argc, argv, prefix, first, NULL);
}

static bool takes(const struct cmdline_cmd *cmd, const struct cmdline_opt *o)
{
	return o->cmds == 0 || (o->cmds & cmd->bit) != 0;
}

/* Index of the first row named like row i (rows of one name share its getopt entry). */
static size_t first_of_name(const struct cmdline_table *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(t->opts[j].name, t->opts[i].name) == 0)
			return j;
	return i;
}

/* The row of o's name that cmd takes, or o itself when cmd takes none. */
static const struct cmdline_opt *row_for(const struct cmdline_cmd *cmd, const struct cmdline_opt *o)
{
	const struct cmdline_table *t = cmd->table;
	for (size_t i = (size_t)(o - t->opts); i < t->nopts; i++)
		if (strcmp(t->opts[i].name, o->name) == 0 && takes(cmd, &t->opts[i]))
			return &t->opts[i];
	return o;
}

/* getopt_long's tables: every name once, long and short. */
static void getopt_tables(const struct cmdline_table *t, struct option *longs, char *shorts)
{
	size_t nl = 0, ns = 0;
	shorts[ns++] = ':'; /* a missing value is ':', not '?' */
	for (size_t i = 0; i < t->nopts; i++) {
		const struct cmdline_opt *o = &t->opts[i];
		if (first_of_name(t, i) != i)
			continue;
		longs[nl++] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL, ROW_VAL(i) };
		if (o->short_name) {
			shorts[ns++] = o->short_name;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = '\0';
}

static const struct cmdline_opt *row_of_short(const struct cmdline_table *t, int c)
{
	for (size_t i = 0; i < t->nopts; i++)
		if (t->opts[i].short_name == c)
			return &t->opts[i];
	return NULL;
}

/* An option the table knows but this command does not take. */
static int refuse(const struct cmdline_cmd *cmd, const struct cmdline_opt *o)
{
	const char *owner = "another command";
	for (unsigned b = 0; cmd->table->cmd_names && b < 8 * sizeof(o->cmds); b++)
		if (o->cmds & (1u << b)) {
			owner = cmd->table->cmd_names[b];
			break;
		}
	return diag_usage("--%s belongs to 'iobench %s', not 'iobench %s'; see 'iobench %s --help'",
			  o->name, owner, cmd->name, owner);
}

static int bad_number(const struct cmdline_opt *o, const char *arg)
{
	if (o->max < UINT64_MAX >> 1)
		return diag_usage("bad --%s '%s'; use %llu to %llu", o->name, QUOTE(arg),
				  (unsigned long long)o->min, (unsigned long long)o->max);
	if (o->min > 0)
		return diag_usage("bad --%s '%s'; use a whole number >= %llu", o->name, QUOTE(arg),
				  (unsigned long long)o->min);
	return diag_usage("bad --%s '%s'; use a whole number", o->name, QUOTE(arg));
}

/* Parse arg as o says and store it in settings. */
static int apply(const struct cmdline_cmd *cmd, const struct cmdline_opt *o, void *settings, const char *arg)
{
	void *at = (char *)settings + o->field;
	int rc;
	switch (o->kind) {
	case CMDLINE_FLAG:
		*(bool *)at = true;
		return 0;
	case CMDLINE_STRING:
		/* A path, an address, a name: an empty one names nothing (and made "iobench: : cannot ..."). */
		if (arg[0] == '\0')
			return diag_usage("--%s is empty; give a %s", o->name, o->arg ? o->arg : "value");
		*(const char **)at = arg;
		return 0;
	case CMDLINE_U64:
		return units_parse_u64(arg, o->min, o->max, at) < 0 ? bad_number(o, arg) : 0;
	case CMDLINE_SEED:
		if (units_parse_u64(arg, o->min, o->max, &((struct cmdline_seed *)at)->value) < 0)
			return bad_number(o, arg);
		((struct cmdline_seed *)at)->given = true;
		return 0;
	case CMDLINE_DURATION:
		rc = units_parse_duration(arg, at);
		if (rc == -ERANGE)
			return diag_usage("--%s '%s' out of range; use 1 ms to 100 days (e.g. 60, 90s, 5m)",
					  o->name, QUOTE(arg));
		if (rc < 0)
			return diag_usage("bad --%s '%s'; use seconds (60, 2.5) or 90s, 5m, 1h", o->name, QUOTE(arg));
		return 0;
	case CMDLINE_SIZE:
		if (units_parse_size(arg, at) < 0 || *(uint64_t *)at == 0)
			return diag_usage("bad --%s '%s'; use a size like 512M, 10G (binary units)", o->name,
					  QUOTE(arg));
		return 0;
	case CMDLINE_CUSTOM:
		return o->parse(at, arg);
	case CMDLINE_HELP:
		cmdline_help(cmd, stdout);
		return CMDLINE_DONE;
	case CMDLINE_VERSION:
		cmdline_version(stdout);
		return CMDLINE_DONE;
	}
	return 0;
}

/* What getopt_long could not match: an unknown option, or a value given to a flag. */
static int unknown(const struct cmdline_cmd *cmd, char **argv)
{
	if (optopt >= ROW_VAL(0))
		return diag_usage("--%s takes no value; see 'iobench %s --help'",
				  cmd->table->opts[optopt - ROW_VAL(0)].name, cmd->name);
	if (optopt)
		return diag_usage("unknown option '-%c'; see 'iobench %s --help'", optopt, cmd->name);
	return diag_usage("unknown option '%s'; see 'iobench %s --help'", QUOTE(argv[optind - 1]), cmd->name);
}

/*
 * Which options argv gives, by the index of their name's first row: a pass
 * that says nothing, over a copy (getopt reorders what it reads, and a
 * pass that stops early, at "-d" with no value, would leave argv reordered
 * for the real one). -ENOMEM, else 0.
 */
static int mark_given(const struct cmdline_table *t, int argc, char **argv, const struct option *longs,
		      const char *shorts, bool *given)
{
	char **copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, argv, ((size_t)argc + 1) * sizeof(*copy));
	optind = 0; /* 0, not 1: glibc starts afresh (a short option cluster half read, a permutation) */
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, copy, shorts, longs, NULL)) != -1) {
		const struct cmdline_opt *o = c >= ROW_VAL(0) ? &t->opts[c - ROW_VAL(0)] : row_of_short(t, c);
		if (c != '?' && c != ':' && o)
			given[first_of_name(t, (size_t)(o - t->opts))] = true;
	}
	free(copy);
	return 0;
}

/* Each default of the rows cmd takes whose option argv does not give, in table order. */
static int apply_defaults(const struct cmdline_cmd *cmd, void *settings, const bool *given)
{
	const struct cmdline_table *t = cmd->table;
	for (size_t i = 0; i < t->nopts; i++) {
		const struct cmdline_opt *o = &t->opts[i];
		if (!o->def || !takes(cmd, o) || given[first_of_name(t, i)])
			continue;
		/* "read4k and write4k/64": each value in turn (a string row keeps the pointer: the whole default). */
		const char *v = o->def, *end;
		while (o->kind != CMDLINE_STRING && (end = strstr(v, DEFAULTS_SEP)) != NULL) {
			char one[128];
			snprintf(one, sizeof(one), "%.*s", (int)(end - v), v);
			int rc = apply(cmd, o, settings, one);
			if (rc != 0)
				return rc;
			v = end + strlen(DEFAULTS_SEP);
		}
		int rc = apply(cmd, o, settings, v);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int cmdline_parse(const struct cmdline_cmd *cmd, void *settings, int argc, char **argv, int *first)
{
	const struct cmdline_table *t = cmd->table;
	struct option longs[CMDLINE_MAX_OPTS + 1];
	char shorts[2 * CMDLINE_MAX_OPTS + 2];
	bool given[CMDLINE_MAX_OPTS] = { false };
	if (t->nopts > CMDLINE_MAX_OPTS)
		return diag_usage("%s: %zu options, over the %d this parser holds", cmd->name, t->nopts,
				  CMDLINE_MAX_OPTS);
	getopt_tables(t, longs, shorts);
	if (mark_given(t, argc, argv, longs, shorts, given) != 0)
		return diag_fail("%s", strerror(ENOMEM));
	int rc = apply_defaults(cmd, settings, given);
	if (rc != 0)
		return rc;
	optind = 0;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == ':')
			return diag_usage("%s needs a value; see 'iobench %s --help'", argv[optind - 1],
					  cmd->name);
		const struct cmdline_opt *o = c >= ROW_VAL(0) ? &t->opts[c - ROW_VAL(0)] : row_of_short(t, c);
		if (c == '?' || !o)
			return unknown(cmd, argv);
		o = row_for(cmd, o);
		if (!takes(cmd, o))
			return refuse(cmd, o);
		rc = apply(cmd, o, settings, optarg);
		if (rc != 0)
			return rc;
	}
	*first = optind;
	/* An operand is a path or a size: an empty one names nothing (and made "iobench: : does not exist"). */
	for (int i = optind; i < argc; i++)
		if (argv[i][0] == '\0')
			return diag_usage("argument %d is empty ('') and names nothing; give a path (see 'iobench %s --help')",
					  i - optind + 1, cmd->name);
	return t->check ? t->check(settings, cmd, argc - optind, argv + optind) : 0;
}

/*
 * "  -o, --op OP           operation (default read4k)" and its continuation
 * lines, text at column 24; the default ends the last line (a line of its
 * own after help that ends in '\n').
 */
static void help_row(const struct cmdline_opt *o, FILE *out)
{
	char left[64];
	snprintf(left, sizeof(left), "%c%c%c --%s%s%s", o->short_name ? '-' : ' ',
		 o->short_name ? o->short_name : ' ', o->short_name ? ',' : ' ', o->name, o->arg ? " " : "",
		 o->arg ? o->arg : "");
	const char *text = o->help;
	size_t n = strcspn(text, "\n");
	if (strlen(left) > 21)
		fprintf(out, "  %s\n%24s%.*s", left, "", (int)n, text); /* too long: text on the next line */
	else
		fprintf(out, "  %-21s %.*s", left, (int)n, text);
	while (text[n] == '\n') {
		text += n + 1;
		n = strcspn(text, "\n");
		fprintf(out, "\n%24s%.*s", "", (int)n, text);
	}
	if (o->def)
		fprintf(out, "%s(default %s)", n > 0 ? " " : "", o->def);
	fputc('\n', out);
}

void cmdline_help(const struct cmdline_cmd *cmd, FILE *out)
{
	fputs(cmd->intro, out);
	for (size_t i = 0; i < cmd->table->nopts; i++)
		if (takes(cmd, &cmd->table->opts[i]))
			help_row(&cmd->table->opts[i], out);
	if (cmd->help_more)
		cmd->help_more(out);
	if (cmd->outro)
		fputs(cmd->outro, out);
}

void cmdline_version(FILE *out)
{
	if (*iobench_commit)
		fprintf(out, "iobench %s (commit %s)\n", iobench_version, iobench_commit);
	else
		fprintf(out, "iobench %s\n", iobench_version);
}

void cmdline_help_options(const struct cmdline_table *t, unsigned bit, FILE *out)
{
	for (size_t i = 0; i < t->nopts; i++)
		if (t->opts[i].cmds & bit)
			help_row(&t->opts[i], out);
}
