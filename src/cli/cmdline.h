/*
 * SPDX-License-Identifier: Apache-2.0
 * cmdline.h - options described once, in data, for every command.
 *
 * Each command's options are rows of a table (struct cmdline_opt): the long
 * and short name, the value's name, the help line, the default, which
 * commands take the option, what kind of value it has and where the parsed
 * value goes in the command's settings struct. From that one table come
 * the getopt_long entries, the --help text (with "(default X)"), the
 * defaults, the refusal of an option another command owns, and the
 * parsing of the value; the table's check then says what the options mean
 * together. Adding an option is adding a row (and its field in the
 * settings).
 *
 * Every usage error of every command is one line on stderr,
 * "iobench: what is wrong; what to do", and exit status 2: the parser and
 * the commands' own checks all print through diag_usage() (cli/diag.h).
 *
 * This is the CLI layer: it prints. Not thread-safe (getopt's globals).
 */
#ifndef IOBENCH_CLI_CMDLINE_H
#define IOBENCH_CLI_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's value is, and so how it is parsed and stored. */
enum cmdline_kind {
	CMDLINE_FLAG,     /* bool, set to true; takes no value */
	CMDLINE_STRING,   /* const char *: the value as given */
	CMDLINE_U64,      /* uint64_t: a whole number in [min, max] */
	CMDLINE_DURATION, /* uint64_t nanoseconds: 60, 2.5, 90s, 5m, 1h */
	CMDLINE_SIZE,     /* uint64_t bytes, not 0: 512M, 10G (binary units) */
	CMDLINE_SEED,     /* struct cmdline_seed: a whole number in [min, max], and given */
	CMDLINE_CUSTOM,   /* parse() reads it */
	CMDLINE_HELP,     /* print the command's --help and exit 0 */
	CMDLINE_VERSION,  /* print the version and exit 0 */
};

struct cmdline_opt {
	const char *name;  /* long name, without "--" */
	char short_name;   /* 'o' for -o; 0 for none */
	const char *arg;   /* the value's name in --help ("SECS"); NULL when it takes none */
	unsigned cmds;     /* the commands that take it (cmdline_cmd.bit, or'ed); 0 = all */
	const char *help;  /* --help text; each '\n' starts an indented continuation line */
	/*
	 * The default as it would be typed, or NULL: parsed by this row, before
	 * argv, when argv does not give the option; --help ends the row's text
	 * with " (default DEF)" (on a line of its own when help ends in '\n').
	 * A repeatable option's several defaults are joined by " and ", each
	 * parsed in turn ("read4k and write4k/64"; not for CMDLINE_STRING,
	 * which keeps the pointer).
	 */
	const char *def;
	enum cmdline_kind kind;
	size_t field;      /* offsetof() the value in the command's settings struct */
	uint64_t min, max; /* CMDLINE_U64, CMDLINE_SEED: the range accepted */
	/*
	 * CMDLINE_CUSTOM: store arg at the field (at is the settings plus
	 * field; 0 for a parser that takes the whole settings struct).
	 * 0, or diag_usage()'s exit code.
	 */
	int (*parse)(void *at, const char *arg);
};

struct cmdline_cmd;

/*
 * The rows one or more commands share. An option may have one row per
 * command when its help differs; getopt sees each name once.
 */
struct cmdline_table {
	const struct cmdline_opt *opts;
	size_t nopts;
	const char *const *cmd_names; /* [i]: the command whose bit is 1 << i (NULL: one command) */
	/*
	 * Optional, run by cmdline_parse() after argv: what the options say
	 * together, and the operands (operands[0..noperands)). 0, or the exit
	 * code of the message it printed (diag.h).
	 */
	int (*check)(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands);
};

struct cmdline_cmd {
	const char *name;   /* "run", "watch", ... as typed after "iobench" */
	unsigned bit;       /* this command's bit in cmdline_opt.cmds */
	const struct cmdline_table *table;
	const char *intro;  /* --help before the options: usage line, what the command does */
	void (*help_more)(FILE *out); /* optional: --help after the options, before outro */
	const char *outro;  /* --help at the end: exit status, examples */
};

/*
 * How a row's value is read (its kind) and where it goes: the field f of
 * CMDLINE_SETTINGS, which a file defines as its settings struct before its
 * table (#define CMDLINE_SETTINGS struct create_args). A row is
 *   { name, short, value, commands, help, default, how }
 * with how one of these.
 */
#define FLAG(f) CMDLINE_FLAG, offsetof(CMDLINE_SETTINGS, f), 0, 0, NULL
#define STRING(f) CMDLINE_STRING, offsetof(CMDLINE_SETTINGS, f), 0, 0, NULL
#define U64(f, lo, hi) CMDLINE_U64, offsetof(CMDLINE_SETTINGS, f), lo, hi, NULL
#define DURATION(f) CMDLINE_DURATION, offsetof(CMDLINE_SETTINGS, f), 0, 0, NULL
#define SIZE(f) CMDLINE_SIZE, offsetof(CMDLINE_SETTINGS, f), 0, 0, NULL
/* fn(settings, arg): a parser of the command's own that sees every field. */
#define CUSTOM(fn) CMDLINE_CUSTOM, 0, 0, 0, fn
/* fn(&settings->f, arg): a parser that knows only its field. */
#define CUSTOM_AT(f, fn) CMDLINE_CUSTOM, offsetof(CMDLINE_SETTINGS, f), 0, 0, fn

/* --label KEY=VALUE, repeatable: the labels in the order given. */
#define CMDLINE_MAX_LABELS 64
struct cmdline_labels {
	const char *kv[CMDLINE_MAX_LABELS]; /* "key=value" */
	size_t n;
};

/* --seed N: the seed (cmdline_default_seed() until given), and whether it was given. */
struct cmdline_seed {
	uint64_t value;
	bool given;
};

/*
 * The rows several commands take, each with one parser: a command's row
 * gives the commands and its own help line (and the seed's largest value:
 * UINT64_MAX >> 1 where a JSON integer records it); its settings struct
 * names the field as here (struct cmdline_seed seed, struct cmdline_labels
 * labels, const char *host, bool quiet).
 */
#define SEED_ROW(cmds, help, max) { "seed", 0, "N", cmds, help, NULL, CMDLINE_SEED, offsetof(CMDLINE_SETTINGS, seed), 0, max, NULL }
#define LABEL_ROW(cmds, help) { "label", 0, "KEY=VALUE", cmds, help, NULL, CUSTOM_AT(labels, cmdline_parse_label) }
#define HOST_ROW(cmds, help) { "host", 0, "NAME", cmds, help, NULL, CUSTOM_AT(host, cmdline_parse_host) }
#define QUIET_ROW(cmds, help) { "quiet", 'q', NULL, cmds, help, NULL, FLAG(quiet) }
#define HELP_ROW { "help", 'h', NULL, 0, "this help", NULL, CMDLINE_HELP, 0, 0, 0, NULL }
#define VERSION_ROW { "version", 'V', NULL, 0, "print the version", NULL, CMDLINE_VERSION, 0, 0, 0, NULL }

/* The rows' parsers, each storing at its field; 0, or diag_usage()'s exit code. */
int cmdline_parse_label(void *labels, const char *arg); /* struct cmdline_labels: cmdline_check_label() */
int cmdline_parse_host(void *host, const char *arg);   /* const char *: cmdline_is_text(), not empty */

/*
 * A --seed when none is given: from the clock and the process id, so two
 * runs differ, in 53 bits: CMDLINE_SEED_MAX, what --seed takes and what a
 * JSON number keeps exactly in every reader (jq 1.6 and JavaScript read
 * numbers as doubles), so a run is reproduced from its JSON line.
 */
#define CMDLINE_SEED_MAX ((UINT64_C(1) << 53) - 1)
uint64_t cmdline_default_seed(void);

/*
 * The clock in seconds and the process id mixed into 64 bits: differs
 * between processes and seconds, and is not random. Where a better source
 * failed, or none is needed.
 */
uint64_t cmdline_time_pid_hash(void);

/* cmdline_parse()'s result when it printed --help or the version: exit 0. */
#define CMDLINE_DONE (-1)

/*
 * Parse the options of argv[1..argc) (argv[0] is the command's name) into
 * settings: first each row's default (when argv does not give it), then
 * argv in order, then the table's check. Returns 0 with *first set to the
 * index of the first operand, CMDLINE_DONE, or the exit code of the one
 * line it printed (EXIT_USAGE, or what the check returned).
 */
int cmdline_parse(const struct cmdline_cmd *cmd, void *settings, int argc, char **argv, int *first);

/* The command's --help: intro, one line per option it takes (and continuations), outro. */
void cmdline_help(const struct cmdline_cmd *cmd, FILE *out);

/*
 * The --help lines of the rows of t that name bit among their commands
 * (rows for every command, cmds 0, are not among them): for the help of a
 * command group that lists each member's options under its name.
 */
void cmdline_help_options(const struct cmdline_table *t, unsigned bit, FILE *out);

/* What --version prints: "iobench VERSION", and the commit when the build knows it. */
void cmdline_version(FILE *out);

/*
 * A --label KEY=VALUE as run, watch and durability take it: a key, and no
 * control character (a newline or escape would break every line-based reader:
 * tables, --plot). 0, or diag_usage()'s exit code.
 */
int cmdline_check_label(const char *arg);

/* Text the JSON records as it is: valid UTF-8 without control characters. */
bool cmdline_is_text(const char *s);

/*
 * prefix, then argv[first..argc) each after a space, arguments that are
 * empty or hold spaces or quotes in single quotes: the command line as the
 * JSON and --raw log record it. malloc'd; NULL on ENOMEM.
 */
char *cmdline_join(int argc, char **argv, const char *prefix, int first);

/*
 * As cmdline_join, with the value of each option named in secret (a
 * NULL-terminated list of long names without "--": "--NAME VALUE" and
 * "--NAME=VALUE") written as "<redacted>": a secret given on the command
 * line never reaches a result or a log.
 */
char *cmdline_join_secret(int argc, char **argv, const char *prefix, int first, const char *const *secret);

/* A macro's value as a string: CMDLINE_STR(DUR_DEFAULT_PORT) is "7340". */
#define CMDLINE_STR(x) CMDLINE_STR_(x)
#define CMDLINE_STR_(x) #x

#endif
