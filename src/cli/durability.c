/* durability.c - `iobench durability serve|write|verify`: option table, target checks, messages, JSON. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/cmdline.h"
#include "cli/commands.h"
#include "cli/diag.h"
#include "cli/prepare.h"
#include "durability/net.h"
#include "durability/roles.h"
#include "durability/stamp.h"
#include "host/target.h"
#include "lib/err.h"
#include "lib/fileio.h"
#include "lib/hist_json.h"
#include "lib/opspec.h"
#include "lib/signals.h"
#include "lib/units.h"
#include "lib/version.h"
#include "measure/create.h"
#include "measure/run.h"
#include "results/jsonline.h"
#include "results/output.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define MAX_ALLOW 64
/* verify's verdict LOST: apart from 1 (the check could not run), so a script tells them apart. */
#define EXIT_LOST 3
#define TOKEN_MAX 256
/* The longest --host a run's HELLO line carries (struct dur_run_info's host). */
#define MAX_HOST (sizeof(((struct dur_run_info *)0)->host) - 1)

/* The three commands' bits in the table's rows. */
enum { DUR_SERVE = 1, DUR_WRITE = 2, DUR_VERIFY = 4 };

struct dur_args {
	const char *listen, *dir, *server, *json_path, *host;
	struct op_spec op;
	bool op_given;
	uint64_t threads, create_size, span, duration_ns, run;
	struct cmdline_seed seed;
	bool dsync, no_direct, force, quiet;
	struct cmdline_labels labels;
	struct dur_cidr allow[MAX_ALLOW];
	size_t nallow;
	uint64_t max_records, max_conns, max_per_addr;
	char token[TOKEN_MAX + 1];      /* --token or the first line of --token-file; "" none */
	const char *target;
	char host_name[256];            /* --host, else gethostname() */
	char *command_line;
};

static int parse_op(void *settings, const char *arg)
{
	struct dur_args *a = settings;
	char err[ERR_MAX];
	if (a->op_given)
		return diag_usage("one -o only: the blocks of one run have one size");
	int rc = opspec_parse(arg, &a->op, 1, err, sizeof(err));
	if (rc == -E2BIG)
		return diag_usage("-o '%s' names several operations; give one write op", QUOTE(arg));
	if (rc < 0)
		return diag_usage("%s", err);
	const struct op_spec *o = &a->op;
	if ((o->kind != OP_WRITE_FLUSH && o->kind != OP_WRITE_N) || o->sequential || o->threads > 0)
		return diag_usage("-o %s: durability writes write<SIZE> or write<SIZE>/<N> (e.g. write4k, write4k/64)",
				  arg);
	if (o->kind == OP_WRITE_N && o->sync_every == 0)
		return diag_usage("-o %s never syncs, so nothing could be acknowledged; use write<SIZE>/<N> with N >= 1",
				  arg);
	if (o->size % DUR_SECTOR != 0 || o->align != o->size)
		return diag_usage("-o %s: the block size must be a multiple of 512 and the offsets aligned to it",
				  arg);
	a->op_given = true;
	return 0;
}

static int parse_run(void *settings, const char *arg)
{
	struct dur_args *a = settings;
	if (dur_run_parse(arg, &a->run) != 0 || a->run == 0)
		return diag_usage("bad --run '%s'; use the 16 hex digits 'write' printed", QUOTE(arg));
	return 0;
}

static int parse_allow(void *settings, const char *arg)
{
	struct dur_args *a = settings;
	if (a->nallow == MAX_ALLOW)
		return diag_usage("too many --allow options (at most %d); use wider blocks", MAX_ALLOW);
	if (dur_cidr_parse(arg, &a->allow[a->nallow]) != 0)
		return diag_usage("bad --allow '%s'; use an address or ADDR/PREFIX with no host bits set (10.0.0.0/8, 192.0.2.7, fd00::/8)",
				  QUOTE(arg));
	a->nallow++;
	return 0;
}

/* A token is one protocol word: printable ASCII, no space. */
static bool token_valid(const char *t)
{
	size_t n = strlen(t);
	for (const char *p = t; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return false;
	return n >= 1 && n <= TOKEN_MAX;
}

static int parse_token(void *settings, const char *arg)
{
	struct dur_args *a = settings;
	if (!token_valid(arg))
		return diag_usage("bad --token; use 1 to %d printable characters without spaces (e.g. from 'openssl rand -hex 16')",
				  TOKEN_MAX);
	snprintf(a->token, sizeof(a->token), "%s", arg);
	/*
	 * The argument is in /proc/PID/cmdline, which every user reads: overwrite
	 * it (as mysql does with -p). Only the time from exec to here remains.
	 */
	memset((char *)arg, 'x', strlen(arg));
	return 0;
}

/* --token-file FILE: its first line is the token (a file keeps it out of ps and shell history). */
static int parse_token_file(void *settings, const char *arg)
{
	struct dur_args *a = settings;
	char line[TOKEN_MAX + 3];
	if (arg[0] == '\0')
		return diag_usage("--token-file is empty; give a FILE holding the shared token");
	int rc = read_first_line(arg, line, sizeof(line));
	if (rc < 0 && rc != -ENODATA)
		return diag_usage("--token-file %s: %s; give a file holding the shared token", arg, strerror(-rc));
	if (rc < 0 || !token_valid(line))
		return diag_usage("--token-file %s: its first line is not a token; put 1 to %d printable characters without spaces there",
				  arg, TOKEN_MAX);
	snprintf(a->token, sizeof(a->token), "%s", line);
	return 0;
}

#define SERVE DUR_SERVE
#define WRITE DUR_WRITE
#define VERIFY DUR_VERIFY
#define PORT DUR_DEFAULT_PORT_STR
#define CMDLINE_SETTINGS struct dur_args
/* name, short, value, commands, help, default, how; in --help order. */
static const struct cmdline_opt dur_opts[] = {
	{ "listen", 0, "ADDR:PORT", SERVE, "where to listen; port 0 picks a free one\n", "0.0.0.0:" PORT,
	  STRING(listen) },
	{ "dir", 0, "DIR", SERVE, "where the fsynced logs go, one per run\n", "iobench-durability", STRING(dir) },
	{ "allow", 0, "CIDR", SERVE, "accept connections only from this address block\n"
	  "(repeatable; e.g. 10.0.0.0/8); others are closed\n"
	  "before a byte is read (default: every peer)", NULL, CUSTOM(parse_allow) },
	{ "max-connections", 0, "N", SERVE, "connections at once (default 4096, at most 4096);\n"
	  "writers never take the last 1/16: a verifier gets in", NULL, U64(max_conns, 16, DUR_CONNS_MAX) },
	{ "max-per-address", 0, "N", SERVE, "connections from one address, an IPv6 /64 (default\n"
	  "1040: a writer's 1024 threads and a few more)", NULL, U64(max_per_addr, 1, DUR_CONNS_MAX) },
	{ "max-records", 0, "N", SERVE, "a run's log holds at most N records (default 4096\n"
	  "per block of the run, at least 16M)", NULL, U64(max_records, 1, UINT64_MAX) },
	{ "server", 0, "HOST:PORT", WRITE, "the server (port " PORT " if omitted); the static build\n"
	  "(make static) takes an address, not a name", NULL, STRING(server) },
	{ "op", 'o', "OP", WRITE, "write<SIZE> (O_DIRECT|O_SYNC, each write acknowledged)\n"
	  "or write<SIZE>/<N>: buffered, fdatasync with probability\n"
	  "1/N, then the writes since the last one are\n"
	  "acknowledged", "write4k", CUSTOM(parse_op) },
	{ "threads", 't', "N", WRITE, "writers, each owning its own blocks", "1", U64(threads, 1, 1024) },
	{ "size", 0, "SIZE", WRITE, "create TARGET (a file) with SIZE random bytes if\n"
	  "missing", NULL, SIZE(create_size) },
	{ "span", 0, "SIZE", WRITE, "only use the first SIZE bytes of TARGET", NULL, SIZE(span) },
	{ "duration", 'd', "SECS", WRITE, "stop after SECS (default: run until stopped)", NULL, DURATION(duration_ns) },
	{ "dsync", 0, NULL, WRITE, "O_DSYNC instead of O_SYNC for flushed writes", NULL, FLAG(dsync) },
	{ "no-direct", 0, NULL, WRITE, "no O_DIRECT (flushed writes still O_SYNC)", NULL, FLAG(no_direct) },
	SEED_ROW(WRITE, "seed for offsets and data", CMDLINE_SEED_MAX),
	{ "force", 0, NULL, WRITE, "write to a block device that looks in use", NULL, FLAG(force) },
	HOST_ROW(WRITE, "this box's name as the server records the run, as\n"
		 "run's --host (default: the hostname)"),
	{ "server", 0, "HOST:PORT", VERIFY, "the server that heard the acknowledgements; the\n"
	  "static build (make static) takes an address, not a name", NULL, STRING(server) },
	{ "run", 0, "ID", VERIFY, "the run to check (default: the newest from this host)", NULL, CUSTOM(parse_run) },
	HOST_ROW(VERIFY, "this box's name, as given to write --host: the newest\n"
		 "run from NAME is checked, and it is the JSON's host\n"
		 "(default: the hostname)"),
	{ "json", 0, "FILE", VERIFY, "append one JSON line (\"mode\": \"durability\");\n"
	  "'-' for stdout", NULL, STRING(json_path) },
	LABEL_ROW(VERIFY, "recorded in the JSON (repeatable)"),
	{ "no-direct", 0, NULL, VERIFY, "read through the page cache (default O_DIRECT)", NULL, FLAG(no_direct) },
	{ "token", 0, "TOKEN", SERVE | WRITE | VERIFY, "a shared secret: the server refuses peers that do\n"
	  "not present it (other users may see it in ps until\n"
	  "it is parsed: prefer --token-file or IOBENCH_TOKEN)", NULL, CUSTOM(parse_token) },
	{ "token-file", 0, "FILE", SERVE | WRITE | VERIFY, "the shared secret, the first line of FILE", NULL, CUSTOM(parse_token_file) },
	QUIET_ROW(0, "no progress or summary"),
	HELP_ROW,
	VERSION_ROW,
};
#undef CMDLINE_SETTINGS
#undef PORT

static const char *const dur_cmd_names[] = { "durability serve", "durability write", "durability verify" };

static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands);

static const struct cmdline_table dur_table = {
	dur_opts, sizeof(dur_opts) / sizeof(dur_opts[0]), dur_cmd_names, check_args,
};

static const struct cmdline_cmd serve_cmd = {
	.name = "durability serve",
	.bit = SERVE,
	.table = &dur_table,
	.intro = "usage: iobench durability serve [--listen ADDR:PORT] [--dir DIR] [--allow CIDR]\n"
		 "                                [--token-file FILE | --token TOKEN] [--max-records N]\n"
		 "                                [--max-connections N] [--max-per-address N] [-q]\n"
		 "\n"
		 "On a machine other than the box under test: keep, fsynced, what writers tell\n"
		 "it (one log per run in DIR), and hand the logs to 'verify'. Runs until stopped.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Without --allow or --token-file any peer that reaches the port may write and\n"
		 "read runs; see docs/security.md. The token may also come from the environment\n"
		 "variable IOBENCH_TOKEN (every command; an option wins).\n"
		 "Example: iobench durability serve --dir /var/lib/iobench-durability \\\n"
		 "           --allow 10.0.0.0/8 --token-file /etc/iobench-durability.token\n",
};

static const struct cmdline_cmd write_cmd = {
	.name = "durability write",
	.bit = WRITE,
	.table = &dur_table,
	.intro = "usage: iobench durability write --server HOST:PORT [OPTIONS] TARGET\n"
		 "\n"
		 "Write stamped blocks at random aligned offsets of TARGET and tell the server\n"
		 "\"block B, version Q is durable\" only after the flush returned. Runs until\n"
		 "stopped, or the power is cut; then boot and run 'iobench durability verify'.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "TARGET's data is destroyed; a block device that looks in use needs --force.\n"
		 "Exit status: 0 after --duration, 130 when stopped by SIGINT/SIGTERM/SIGHUP,\n"
		 "1 when a write, a flush or the server failed, 2 usage error.\n"
		 "Example: iobench durability write --server 10.0.0.5:" DUR_DEFAULT_PORT_STR " -t 4 /dev/nvme1n1\n",
};

static const struct cmdline_cmd verify_cmd = {
	.name = "durability verify",
	.bit = VERIFY,
	.table = &dur_table,
	.intro = "usage: iobench durability verify --server HOST:PORT [OPTIONS] TARGET\n"
		 "\n"
		 "After the power cut and the boot: read back every block the server heard about\n"
		 "and say which hold what was acknowledged (intact, newer, torn) and which do not\n"
		 "(LOST: the storage acknowledged flushes it did not keep). TARGET is opened\n"
		 "read-only.\n"
		 "\n"
		 "Options:\n",
	.outro = "\n"
		 "Exit status: 0 verdict ok (nothing acknowledged was lost), 3 verdict LOST (some\n"
		 "was), 1 the check could not run (server, target, JSON), 2 usage error.\n"
		 "Example: iobench durability verify --server 10.0.0.5 --json d.jsonl /dev/sdb\n",
};

/* `iobench durability --help`: each command's options under its name, from the same table. */
static void group_options(FILE *out)
{
	static const struct cmdline_cmd *const cmds[] = { &serve_cmd, &write_cmd, &verify_cmd };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		fprintf(out, "%s:\n", cmds[i]->name + strlen("durability "));
		cmdline_help_options(&dur_table, cmds[i]->bit, out);
	}
}

static const struct cmdline_cmd group_cmd = {
	.name = "durability",
	.bit = 0, /* only the rows every command takes: the rest come from group_options() */
	.table = &dur_table,
	.intro = "usage: iobench durability serve [--listen ADDR:PORT] [--dir DIR] [--allow CIDR]\n"
		 "                                [--token-file FILE | --token TOKEN] [--max-records N]\n"
		 "                                [--max-connections N] [--max-per-address N] [-q]\n"
		 "       iobench durability write --server HOST:PORT [OPTIONS] TARGET\n"
		 "       iobench durability verify --server HOST:PORT [OPTIONS] TARGET\n"
		 "\n"
		 "Do flushes survive a power cut? 'write' writes stamped blocks at random\n"
		 "aligned offsets of TARGET and tells the server on another machine \"block B,\n"
		 "version Q is durable\" only after the flush returned. Cut the power, boot,\n"
		 "then 'verify' reads back every block the server heard about.\n"
		 "\n"
		 "Every command:\n",
	.help_more = group_options,
	.outro = "\n"
		 "verify opens TARGET read-only. Exit status: verify 0 when nothing acknowledged\n"
		 "was lost, 3 when some was (verdict LOST), 1 when the check could not run;\n"
		 "2 usage error; write and serve run until stopped and exit 130 on\n"
		 "SIGINT/SIGTERM/SIGHUP (write: 0 after --duration). The token: --token-file\n"
		 "FILE or IOBENCH_TOKEN (other users can read a command line, not another\n"
		 "user's environment).\n"
		 "Example: server$ iobench durability serve --dir /var/lib/iobench-durability\n"
		 "         box$    iobench durability write --server server:" DUR_DEFAULT_PORT_STR " -t 4 /dev/nvme1n1\n"
		 "         (pull the plug, boot)\n"
		 "         box$    iobench durability verify --server server:" DUR_DEFAULT_PORT_STR " /dev/nvme1n1\n",
};

/* The table's check: what the options say together, and the operands. */
static int check_args(void *settings, const struct cmdline_cmd *cmd, int noperands, char **operands)
{
	struct dur_args *a = settings;
	char host[256];
	unsigned port;
	if (cmd->bit == DUR_SERVE) {
		if (noperands > 0)
			return diag_usage("durability serve takes no TARGET, got '%s'", QUOTE(operands[0]));
		if (dur_net_split(a->listen, host, sizeof(host), &port, true) != 0)
			return diag_usage("bad --listen '%s'; use ADDR:PORT, ADDR a dotted quad, [IPv6] or a name (e.g. 0.0.0.0:%d, or 127.0.0.1:0 for any free port)",
					  QUOTE(a->listen), DUR_DEFAULT_PORT);
		if (!dur_net_resolves_names && host[0] && strcmp(host, "*") != 0 && !dur_net_numeric(host))
			return diag_usage("%s --listen %s: this static build resolves no host names; give an address "
					  "(0.0.0.0:%u) or use the dynamic build", cmd->name, a->listen, port);
		return 0;
	}
	/* The HELLO line carries the name in a field of its own size. */
	if (a->host && strlen(a->host) > MAX_HOST)
		return diag_usage("bad --host '%s'; use the name the hosts file or the cloud gives the box (db1, i-0abc...), up to %zu bytes",
				  QUOTE(a->host), MAX_HOST);
	if (!a->server)
		return diag_usage("%s needs --server HOST:PORT (where 'iobench durability serve' runs)", cmd->name);
	if (dur_net_split(a->server, host, sizeof(host), &port, false) != 0 || host[0] == '\0')
		return diag_usage("bad --server '%s'; use HOST:PORT, HOST a name, a dotted quad or [IPv6] (e.g. 10.0.0.5:%d)", QUOTE(a->server),
				  DUR_DEFAULT_PORT);
	if (!dur_net_resolves_names && !dur_net_numeric(host))
		return diag_usage("%s --server %s: this static build resolves no host names; give an address "
				  "(10.0.0.5:%u) or use the dynamic build", cmd->name, a->server, port);
	if (noperands == 0)
		return diag_usage("no TARGET given; e.g. 'iobench %s --server HOST:PORT /dev/sdb' (see --help)",
				  cmd->name);
	if (noperands > 1)
		return diag_usage("one TARGET only, got '%s' and '%s'", QUOTE(operands[0]), QUOTE(operands[1]));
	a->target = operands[0];
	return 0;
}

static void host_name(char *buf, size_t len)
{
	buf[0] = '\0';
	gethostname(buf, len - 1);
	buf[len - 1] = '\0';
	if (!buf[0])
		snprintf(buf, len, "localhost");
}

/* What to do when the target does not exist (write and verify). */
#define DUR_MISSING "give a device, or a file with --size SIZE to create it"

/* ---- serve ---- */

/* The server's lines, as the command says them. */
static void serve_note(void *arg, const char *text)
{
	(void)arg;
	diag_warn("durability serve: %s", text);
}

static int do_serve(struct dur_args *c, const sigset_t *sigs)
{
	struct dur_serve_config sc = { .listen = c->listen, .dir = c->dir, .stop_signals = sigs,
				       .note = c->quiet ? NULL : serve_note, .allow = c->allow, .nallow = c->nallow,
				       .token = c->token[0] ? c->token : NULL, .max_records = c->max_records,
				       .max_conns = (size_t)c->max_conns, .max_per_addr = (size_t)c->max_per_addr };
	char err[ERR_MAX];
	int rc = dur_serve(&sc, err, sizeof(err));
	if (rc == -EINTR)
		return EXIT_INTERRUPTED;
	return rc < 0 ? diag_fail("%s", err) : EXIT_OK;
}

/* ---- write ---- */

static int prepare_write_target(struct dur_args *c, struct target_info *t, const sigset_t *sigs)
{
	char a[32], b[32];
	const struct prepare p = { .path = c->target, .create_size = c->create_size,
				   .create_seed = c->seed.value ^ CREATE_SEED_SALT_DURABILITY, .quiet = c->quiet, .sigs = sigs,
				   .missing = DUR_MISSING, .example = "durability.dat",
				   .writer = "a durability run", .force = c->force };
	int rc = prepare_target(&p, t);
	if (rc == 0)
		rc = prepare_size(&p, t, &c->span);
	if (rc != 0)
		return rc;
	uint64_t blocks = c->span / c->op.size;
	if (blocks < c->threads) {
		units_format_size(a, sizeof(a), c->span);
		units_format_size(b, sizeof(b), c->op.size);
		return diag_fail("%s: %s holds %llu blocks of %s, fewer than the %u writers; use a larger target or fewer -t",
				 c->target, a, (unsigned long long)blocks, b, (unsigned)c->threads);
	}
	if (!c->no_direct && t->dio_offset_align && c->op.size % t->dio_offset_align != 0)
		return diag_fail("%s: O_DIRECT needs %u-byte blocks here, %s is not; use a larger op or --no-direct",
				 c->target, t->dio_offset_align, c->op.name);
	rc = prepare_write(&p, t);
	if (rc != 0)
		return rc;
	/* Before the server hears of the run: a target that cannot be written must not register one. */
	int fd = open(c->target, O_WRONLY | O_CLOEXEC);
	int ro = 0;
	if (fd >= 0 && t->is_block && ioctl(fd, BLKROGET, &ro) != 0)
		ro = 0;
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (fd < 0)
		return diag_fail("%s: cannot open for writing: %s", c->target, strerror(e));
	if (ro)
		return diag_fail("%s: the device is read-only (blockdev --setro, losetup -r); use a writable device",
				 c->target);
	return 0;
}

/* The run's HELLO carries the target's path whole: refuse one it cannot carry. */
static int check_hello_fits(const struct dur_args *c)
{
	size_t max = sizeof(((struct dur_run_info *)0)->target) - 1;
	if (strlen(c->target) > max)
		return diag_usage("%s: the path is %zu bytes, the durability protocol carries at most %zu; use a shorter path (a symlink to it)",
				  c->target, strlen(c->target), max);
	for (const char *p = c->target; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return diag_usage("the TARGET path holds a control byte (0x%02x); use a path without one",
					  (unsigned char)*p);
	struct dur_run_info info = { .writers = (uint32_t)c->threads, .block_size = (uint32_t)c->op.size,
				     .blocks = UINT64_MAX, .run = UINT64_MAX, .writer = (uint32_t)c->threads,
				     .start = INT64_MIN + 1 };
	snprintf(info.op, sizeof(info.op), "%s", c->op.name);
	snprintf(info.host, sizeof(info.host), "%s", c->host_name);
	snprintf(info.target, sizeof(info.target), "%s", c->target);
	char line[DUR_LINE_MAX];
	if (dur_hello_format(line, sizeof(line) - 1, &info) < 0)
		return diag_usage("%s: the path is too long for the durability protocol once escaped (spaces, %%, = take 3 bytes); use a shorter path",
				  c->target);
	return 0;
}

struct write_go {
	const struct dur_args *c;
	const char *hex, *span;
};

/* The go-ahead, once the server took every writer (never before: a refused run must not show it). */
static void write_go_ahead(void *arg)
{
	const struct write_go *g = arg;
	const struct dur_args *c = g->c;
	diag_progress(c->quiet, "durability run %s: %s over %s of %s from %u writer%s, acknowledgements to %s; "
		      "cut the power any time, then run 'iobench durability verify --server %s %s'",
		      g->hex, c->op.name, g->span, c->target, (unsigned)c->threads, c->threads == 1 ? "" : "s",
		      c->server, c->server, c->target);
}

static int do_write(struct dur_args *c, const sigset_t *sigs)
{
	struct target_info t;
	int rc = check_hello_fits(c);
	if (rc == 0)
		rc = prepare_write_target(c, &t, sigs);
	if (rc != 0)
		return rc;
	uint64_t run = 0;
	while (run == 0)
		if (getrandom(&run, sizeof(run), 0) != sizeof(run))
			run = cmdline_time_pid_hash();
	char hex[17], span[32];
	dur_run_hex(run, hex);
	bool direct;
	int flags = run_open_flags(&c->op, c->no_direct ? 0 : -1, c->dsync, &direct);
	struct dur_target dt = { t.path, t.size, t.dio_offset_align };
	struct dur_write_config wc = {
		.server = c->server, .target = &dt, .op = &c->op, .open_flags = flags, .threads = (unsigned)c->threads,
		.span = c->span, .duration_ns = c->duration_ns, .run = run, .seed = c->seed.value, .host = c->host_name,
		.stop_signals = sigs, .token = c->token[0] ? c->token : NULL,
	};
	units_format_size(span, sizeof(span), c->span);
	struct write_go go = { c, hex, span };
	wc.accepted = write_go_ahead;
	wc.accepted_arg = &go;
	struct dur_write_result res;
	char err[ERR_MAX];
	rc = dur_write(&wc, &res, err, sizeof(err));
	if (rc < 0)
		return diag_fail("%s", err);
	diag_progress(c->quiet, "durability run %s: %llu writes, %llu acknowledged, %llu records confirmed by the server, %.1f s%s",
		      hex, (unsigned long long)res.writes, (unsigned long long)res.acked,
		      (unsigned long long)res.confirmed, res.elapsed_s, res.interrupted ? " (stopped by a signal)" : "");
	if (res.io_errno)
		return diag_fail("%s: %s failed at block %llu (offset %llu): %s; the device reported it, so nothing after it was acknowledged",
				 c->target, c->op.kind == OP_WRITE_N ? "a write or fdatasync" : "a write",
				 (unsigned long long)res.io_err_block,
				 (unsigned long long)(res.io_err_block * c->op.size), strerror(res.io_errno));
	if (res.net_errno)
		return diag_fail("%s; stopped writing (an acknowledgement the server never hears proves nothing)", err);
	return res.interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* ---- verify ---- */

/* "lostBlocks": the first lost blocks, what was acknowledged and what was found. */
static json_t *lost_json(const struct dur_verify_result *r)
{
	json_t *lost = json_array();
	for (size_t i = 0; i < r->nexamples; i++) {
		const struct dur_example *e = &r->examples[i];
		json_t *x = json_pack("{s:I, s:I, s:s, s:I, s:I, s:i, s:i}",
				      "block", (json_int_t)e->block,
				      "acknowledged", (json_int_t)e->acked,
				      "found", dur_class_name(e->found.cls),
				      "seqMin", (json_int_t)e->found.seq_min,
				      "seqMax", (json_int_t)e->found.seq_max,
				      "validSectors", (int)e->found.valid,
				      "sectors", (int)e->found.sectors);
		if (e->read_errno)
			json_object_set_new(x, "readError", json_string(strerror(e->read_errno)));
		json_array_append_new(lost, x);
	}
	return lost;
}

/* The "durability" object: the run verified, the counts by class, the verdict. */
static json_t *durability_json(const struct dur_args *c, const struct dur_verify_result *r)
{
	char hex[17];
	dur_run_hex(r->info.run, hex);
	/* The writer's host and target come from the server's log: any bytes. */
	json_t *d = json_pack("{s:s, s:o, s:o, s:i, s:I, s:I, s:o, s:o, s:I, s:i, s:i, s:I}",
			      "run", hex,
			      "server", jsonline_text(c->server),
			      "op", jsonline_text(r->info.op),
			      "writers", (int)r->info.writers,
			      "blockSize", (json_int_t)r->info.block_size,
			      "blocks", (json_int_t)r->info.blocks,
			      "writeHost", jsonline_text(r->info.host),
			      "writeTarget", jsonline_text(r->info.target),
			      "writeStart", (json_int_t)r->info.start,
			      "writersSeen", (int)r->writers_seen,
			      "writersEnded", (int)r->writers_bye,
			      "records", (json_int_t)r->records);
	json_t *counts = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
				   "acknowledged", (json_int_t)r->acked_blocks,
				   "intact", (json_int_t)r->cls[DUR_INTACT],
				   "newer", (json_int_t)r->cls[DUR_NEWER],
				   "torn", (json_int_t)r->cls[DUR_TORN],
				   "lost", (json_int_t)r->lost,
				   "lostOlder", (json_int_t)r->cls[DUR_LOST_OLDER],
				   "lostMissing", (json_int_t)r->cls[DUR_LOST_MISSING],
				   "lostTorn", (json_int_t)r->cls[DUR_LOST_TORN],
				   "unreadable", (json_int_t)r->unreadable,
				   "neverAcknowledged", (json_int_t)r->unacked_blocks,
				   "neverAcknowledgedLanded", (json_int_t)r->unacked_landed);
	json_object_update(d, counts);
	json_decref(counts);
	json_object_set_new(d, "lostBlocks", lost_json(r));
	json_object_set_new(d, "direct", json_boolean(!c->no_direct));
	json_object_set_new(d, "verdict", json_string(r->lost ? "lost" : "ok"));
	return d;
}

/* verify's JSON line (malloc'd; NULL on ENOMEM): who, where, when, and the durability object. */
static char *verify_json(const struct dur_args *c, const struct target_info *t, const struct dur_verify_result *r,
			 time_t launch)
{
	json_t *labels = jsonline_labels(c->labels.kv, c->labels.n);
	json_t *header = jsonline_header(c->command_line, c->host_name);
	json_t *root = json_pack("{s:s, s:I, s:f, s:o, s:o, s:o}",
				 "mode", "durability",
				 "launchTime", (json_int_t)launch,
				 "elapsed", r->elapsed_s,
				 "target", jsonline_target(t, 0),
				 "labels", labels,
				 "durability", durability_json(c, r));
	/* Never a line without its metadata (a label it was given, say): a part that cannot be built fails the line. */
	if (header && root && json_object_update(header, root) == 0) {
		json_decref(root);
		root = header;
	} else {
		json_decref(header);
		json_decref(root);
		root = NULL;
	}
	if (root && *iobench_commit)
		json_object_set_new(root, "commit", json_string(iobench_commit));
	char *line = root ? json_dumps(root, HIST_JSON_DUMP_FLAGS | JSON_PRESERVE_ORDER) : NULL;
	json_decref(root);
	return line;
}

static void verify_summary(FILE *f, const struct dur_args *c, const struct dur_verify_result *r)
{
	char hex[17], bs[32];
	dur_run_hex(r->info.run, hex);
	units_format_size(bs, sizeof(bs), r->info.block_size);
	unsigned cut = r->writers_seen > r->writers_bye ? r->writers_seen - r->writers_bye : 0;
	/* The run's names come from the server: escaped, so they cannot put lines or ESC on the terminal. */
	char op[3 * sizeof(r->info.op)], host[3 * sizeof(r->info.host)], target[3 * sizeof(r->info.target)];
	dur_text_escape(op, sizeof(op), r->info.op);
	dur_text_escape(host, sizeof(host), r->info.host);
	dur_text_escape(target, sizeof(target), r->info.target);
	fprintf(f, "iobench durability verify: run %s (%s, %u writer%s on %s, %s), %u of %u writers cut off\n", hex,
		op, r->info.writers, r->info.writers == 1 ? "" : "s", host, target, cut, r->writers_seen);
	fprintf(f, "  acknowledged blocks %10llu  (%s each, read from %s%s)\n", (unsigned long long)r->acked_blocks,
		bs, c->target, c->no_direct ? " through the page cache" : " with O_DIRECT");
	fprintf(f, "    intact            %10llu  hold the last acknowledged version\n",
		(unsigned long long)r->cls[DUR_INTACT]);
	fprintf(f, "    newer             %10llu  hold a later version, written but not yet acknowledged\n",
		(unsigned long long)r->cls[DUR_NEWER]);
	fprintf(f, "    torn              %10llu  mix versions, none older than acknowledged (a write not atomic)\n",
		(unsigned long long)r->cls[DUR_TORN]);
	fprintf(f, "    LOST              %10llu  older version %llu, missing %llu (unreadable %llu), torn with older sectors %llu\n",
		(unsigned long long)r->lost, (unsigned long long)r->cls[DUR_LOST_OLDER],
		(unsigned long long)r->cls[DUR_LOST_MISSING], (unsigned long long)r->unreadable,
		(unsigned long long)r->cls[DUR_LOST_TORN]);
	fprintf(f, "  never acknowledged  %10llu  announced, no promise made (%llu landed)\n",
		(unsigned long long)r->unacked_blocks, (unsigned long long)r->unacked_landed);
	for (size_t i = 0; i < r->nexamples && i < 5; i++) {
		const struct dur_example *e = &r->examples[i];
		if (e->read_errno)
			fprintf(f, "  lost block %llu: acknowledged version %llu, read failed: %s\n",
				(unsigned long long)e->block, (unsigned long long)e->acked, strerror(e->read_errno));
		else if (e->found.valid == 0)
			fprintf(f, "  lost block %llu: acknowledged version %llu, found no version of this run\n",
				(unsigned long long)e->block, (unsigned long long)e->acked);
		else
			fprintf(f, "  lost block %llu: acknowledged version %llu, found versions %llu..%llu in %u of %u sectors\n",
				(unsigned long long)e->block, (unsigned long long)e->acked,
				(unsigned long long)e->found.seq_min, (unsigned long long)e->found.seq_max, e->found.valid,
				e->found.sectors);
	}
	if (r->lost)
		fprintf(f, "verdict: LOST: %llu of %llu acknowledged blocks do not hold what was acknowledged; "
			"the storage acknowledged flushes it did not keep\n",
			(unsigned long long)r->lost, (unsigned long long)r->acked_blocks);
	else
		fprintf(f, "verdict: ok: every one of %llu acknowledged blocks holds its acknowledged version or a later one\n",
			(unsigned long long)r->acked_blocks);
}

static int do_verify(struct dur_args *c)
{
	struct target_info t;
	const struct prepare p = { .path = c->target, .missing = DUR_MISSING, .example = "durability.dat" };
	/* As run's --json: never the target itself (verify must not change a byte of it), a FIFO or a folder. */
	const struct prepare_output out = { "--json", c->json_path, true, false };
	int rc = prepare_target(&p, &t);
	if (rc == 0)
		rc = prepare_outputs(&t, &out, 1);
	if (rc != 0)
		return rc;
	struct dur_target dt = { t.path, t.size, t.dio_offset_align };
	struct dur_verify_config vc = { .server = c->server, .target = &dt, .direct = !c->no_direct, .run = c->run,
					.host = c->host_name, .token = c->token[0] ? c->token : NULL };
	struct dur_verify_result res;
	char err[ERR_MAX];
	time_t launch = time(NULL);
	rc = dur_verify(&vc, &res, err, sizeof(err));
	if (rc < 0)
		return diag_fail("%s", err);
	bool json_stdout = c->json_path && strcmp(c->json_path, "-") == 0;
	if (!c->quiet)
		verify_summary(json_stdout ? stderr : stdout, c, &res);
	if (c->json_path) {
		char *line = verify_json(c, &t, &res, launch);
		rc = line ? output_append_line(c->json_path, line) : -ENOMEM;
		free(line);
		if (rc < 0)
			return diag_fail("%s: cannot write results: %s", c->json_path, strerror(-rc));
	}
	if (res.acked_blocks == 0 && !c->quiet)
		diag_warn("warning: the run has no acknowledged block: nothing was promised, nothing checked");
	return res.lost ? EXIT_LOST : EXIT_OK;
}

int cmd_durability(int argc, char **argv)
{
	static const struct cmdline_cmd *const cmds[] = { &serve_cmd, &write_cmd, &verify_cmd };
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		cmdline_help(&group_cmd, stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
		cmdline_version(stdout);
		return EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return diag_usage("durability needs serve, write or verify; see 'iobench durability --help'");
	const struct cmdline_cmd *cmd = NULL;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i]->name + strlen("durability ")) == 0)
			cmd = cmds[i];
	if (!cmd)
		return diag_usage("unknown durability command '%s'; use serve, write or verify", QUOTE(argv[1]));
	struct dur_args a = { .seed = { cmdline_default_seed(), false } };
	int first;
	int rc = cmdline_parse(cmd, &a, argc - 1, argv + 1, &first);
	if (rc == CMDLINE_DONE)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	if (a.host)
		snprintf(a.host_name, sizeof(a.host_name), "%s", a.host);
	else
		host_name(a.host_name, sizeof(a.host_name));
	if (!a.token[0] && getenv("IOBENCH_TOKEN") && *getenv("IOBENCH_TOKEN")) {
		if (!token_valid(getenv("IOBENCH_TOKEN")))
			return diag_usage("IOBENCH_TOKEN is not a token; set it to 1 to %d printable characters without spaces",
					  TOKEN_MAX);
		snprintf(a.token, sizeof(a.token), "%s", getenv("IOBENCH_TOKEN"));
	}
	static const char *const secret[] = { "token", NULL };
	a.command_line = cmdline_join_secret(argc, argv, "iobench", 0, secret);
	/*
	 * serve and write await their stop signals (a signalfd, signals_wait):
	 * block them before any thread exists. verify keeps the default: Ctrl-C
	 * stops it.
	 */
	sigset_t sigs;
	if (cmd == &serve_cmd) {
		signals_block_stop(&sigs);
		rc = do_serve(&a, &sigs);
	} else if (cmd == &write_cmd) {
		signals_block_stop(&sigs);
		rc = do_write(&a, &sigs);
	} else {
		rc = do_verify(&a);
	}
	free(a.command_line);
	return rc;
}
