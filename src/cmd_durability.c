/* cmd_durability.c - `iobench durability serve|write|verify`: options, target checks, messages, JSON. */
#include "commands.h"
#include "create.h"
#include "durability.h"
#include "durability_net.h"
#include "durability_run.h"
#include "hist_json.h"
#include "opspec.h"
#include "output.h"
#include "run.h"
#include "signals.h"
#include "target.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MAX_LABELS 64

static const char durability_usage[] =
	"usage: iobench durability serve [--listen ADDR:PORT] [--dir DIR] [-q]\n"
	"       iobench durability write --server HOST:PORT [OPTIONS] TARGET\n"
	"       iobench durability verify --server HOST:PORT [OPTIONS] TARGET\n"
	"\n"
	"Do flushes survive a power cut? 'write' writes stamped blocks at random\n"
	"aligned offsets of TARGET and tells the server on another machine \"block B,\n"
	"version Q is durable\" only after the flush returned. Cut the power, boot,\n"
	"then 'verify' reads back every block the server heard about.\n"
	"\n"
	"serve:\n"
	"      --listen ADDR:PORT  where to listen (default 0.0.0.0:7340; port 0 picks one)\n"
	"      --dir DIR           where the fsynced logs go, one per run (default\n"
	"                          ./iobench-durability)\n"
	"write:\n"
	"      --server HOST:PORT  the server (port 7340 if omitted)\n"
	"  -o, --op OP           write4k (O_DIRECT|O_SYNC, each write acknowledged;\n"
	"                        the default), write<SIZE>, or write<SIZE>/<N>: buffered,\n"
	"                        fdatasync with probability 1/N, then the writes since\n"
	"                        the last one are acknowledged\n"
	"  -t, --threads N       writers (default 1); each owns its own blocks\n"
	"      --size SIZE       create TARGET (a file) with SIZE random bytes if missing\n"
	"      --span SIZE       only use the first SIZE bytes of TARGET\n"
	"  -d, --duration SECS   stop after SECS (default: run until killed)\n"
	"      --dsync           O_DSYNC instead of O_SYNC for flushed writes\n"
	"      --no-direct       no O_DIRECT (flushed writes still O_SYNC)\n"
	"      --seed N          seed for offsets and data\n"
	"      --force           write to a block device that looks in use\n"
	"verify:\n"
	"      --server HOST:PORT  the server that heard the acknowledgements\n"
	"      --run ID            the run to check (default: the newest from this host)\n"
	"      --host NAME         the newest run written from NAME instead\n"
	"      --json FILE         append one JSON line (\"mode\": \"durability\"); '-' stdout\n"
	"      --label KEY=VALUE   recorded in the JSON (repeatable)\n"
	"      --no-direct         read through the page cache (default O_DIRECT)\n"
	"  -q, --quiet           no progress or summary\n"
	"  -h, --help            this help\n"
	"\n"
	"verify opens TARGET read-only. Exit status: 0 nothing acknowledged was lost,\n"
	"1 some was (or a runtime error), 2 usage error; write and serve exit 130\n"
	"when stopped by SIGINT/SIGTERM/SIGHUP.\n"
	"Example: server$ iobench durability serve --dir /var/lib/iobench-dur\n"
	"         box$    iobench durability write --server server:7340 -t 4 /dev/nvme1n1\n"
	"         (pull the plug, boot)\n"
	"         box$    iobench durability verify --server server:7340 /dev/nvme1n1\n";

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("iobench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_USAGE;
}

__attribute__((format(printf, 1, 2))) static int runtime_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("iobench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return EXIT_RUNTIME;
}

enum {
	OPT_LISTEN = 256, OPT_DIR, OPT_SERVER, OPT_SIZE, OPT_SPAN, OPT_DSYNC, OPT_NO_DIRECT, OPT_SEED,
	OPT_FORCE, OPT_RUN, OPT_HOST, OPT_JSON, OPT_LABEL,
};

/* Every option of every durability command; each command accepts its own. */
static const struct option longopts[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "server", required_argument, NULL, OPT_SERVER },
	{ "op", required_argument, NULL, 'o' },
	{ "threads", required_argument, NULL, 't' },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "span", required_argument, NULL, OPT_SPAN },
	{ "duration", required_argument, NULL, 'd' },
	{ "dsync", no_argument, NULL, OPT_DSYNC },
	{ "no-direct", no_argument, NULL, OPT_NO_DIRECT },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "run", required_argument, NULL, OPT_RUN },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

enum sub { SUB_SERVE, SUB_WRITE, SUB_VERIFY };
static const char *const sub_names[] = { "serve", "write", "verify" };

/* Which commands take an option (bit per enum sub). */
static unsigned option_subs(int opt)
{
	switch (opt) {
	case OPT_LISTEN: case OPT_DIR:
		return 1u << SUB_SERVE;
	case OPT_SERVER: case OPT_NO_DIRECT:
		return 1u << SUB_WRITE | 1u << SUB_VERIFY;
	case 'o': case 't': case OPT_SIZE: case OPT_SPAN: case 'd': case OPT_DSYNC: case OPT_SEED: case OPT_FORCE:
		return 1u << SUB_WRITE;
	case OPT_RUN: case OPT_HOST: case OPT_JSON: case OPT_LABEL:
		return 1u << SUB_VERIFY;
	default:
		return 7;
	}
}

struct dur_cli {
	enum sub sub;
	const char *listen, *dir, *server, *json_path, *host_arg;
	struct op_spec op;
	bool op_given;
	unsigned threads;
	uint64_t create_size, span, duration_ns, seed, run;
	bool seed_given, dsync, direct, force, quiet;
	const char *labels[MAX_LABELS];
	size_t nlabels;
	const char *target;
	char *command_line;
};

static const char *opt_name(int val)
{
	static char buf[64];
	for (const struct option *o = longopts; o->name; o++)
		if (o->val == val) {
			snprintf(buf, sizeof(buf), "--%s", o->name);
			return buf;
		}
	return "option";
}

/* Parse the command's options. 0, -1 (help shown), or EXIT_USAGE (message printed). */
static int parse(struct dur_cli *c, int argc, char **argv)
{
	char err[512];
	uint64_t v;
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:t:d:qh", longopts, NULL)) != -1) {
		if (opt != ':' && opt != '?' && !(option_subs(opt) & (1u << c->sub)))
			return usage_error("%s is not an option of 'iobench durability %s'; see 'iobench durability --help'",
					   opt < 256 ? (char[]){ '-', (char)opt, 0 } : opt_name(opt), sub_names[c->sub]);
		switch (opt) {
		case OPT_LISTEN:
			c->listen = optarg;
			break;
		case OPT_DIR:
			c->dir = optarg;
			break;
		case OPT_SERVER:
			c->server = optarg;
			break;
		case 'o': {
			if (c->op_given)
				return usage_error("one -o only: the blocks of one run have one size");
			int rc = opspec_parse(optarg, &c->op, 1, err, sizeof(err));
			if (rc == -E2BIG)
				return usage_error("-o '%s' names several operations; give one write op", optarg);
			if (rc < 0)
				return usage_error("%s", err);
			const struct op_spec *o = &c->op;
			if ((o->kind != OP_WRITE_FLUSH && o->kind != OP_WRITE_N) || o->sequential || o->threads > 0)
				return usage_error("-o %s: durability writes write<SIZE> or write<SIZE>/<N> (e.g. write4k, write4k/64)", optarg);
			if (o->kind == OP_WRITE_N && o->sync_every == 0)
				return usage_error("-o %s never syncs, so nothing could be acknowledged; use write<SIZE>/<N> with N >= 1", optarg);
			if (o->size % DUR_SECTOR != 0 || o->align != o->size)
				return usage_error("-o %s: the block size must be a multiple of 512 and the offsets aligned to it", optarg);
			c->op_given = true;
			break;
		}
		case 't':
			if (units_parse_u64(optarg, 1, 1024, &v) < 0)
				return usage_error("bad --threads '%s'; use 1 to 1024 writers", optarg);
			c->threads = (unsigned)v;
			break;
		case OPT_SIZE:
		case OPT_SPAN: {
			uint64_t *dst = opt == OPT_SIZE ? &c->create_size : &c->span;
			if (units_parse_size(optarg, dst) < 0 || *dst == 0)
				return usage_error("bad %s '%s'; use a size like 64M, 10G (binary units)", opt_name(opt), optarg);
			break;
		}
		case 'd': {
			int rc = units_parse_duration(optarg, &c->duration_ns);
			if (rc < 0)
				return usage_error("bad --duration '%s'; use seconds (60, 2.5) or 90s, 5m, 1h", optarg);
			break;
		}
		case OPT_DSYNC:
			c->dsync = true;
			break;
		case OPT_NO_DIRECT:
			c->direct = false;
			break;
		case OPT_SEED:
			if (units_parse_u64(optarg, 0, UINT64_MAX >> 1, &c->seed) < 0)
				return usage_error("bad --seed '%s'; use a whole number", optarg);
			c->seed_given = true;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_RUN:
			if (dur_run_parse(optarg, &c->run) != 0 || c->run == 0)
				return usage_error("bad --run '%s'; use the 16 hex digits 'write' printed", optarg);
			break;
		case OPT_HOST:
			c->host_arg = optarg;
			break;
		case OPT_JSON:
			c->json_path = optarg;
			break;
		case OPT_LABEL: {
			const char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return usage_error("bad --label '%s'; use KEY=VALUE", optarg);
			if (c->nlabels == MAX_LABELS)
				return usage_error("too many --label options (at most %d)", MAX_LABELS);
			c->labels[c->nlabels++] = optarg;
			break;
		}
		case 'q':
			c->quiet = true;
			break;
		case 'h':
			fputs(durability_usage, stdout);
			return -1;
		case ':':
			return usage_error("%s needs a value; see 'iobench durability --help'", argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown option '-%c'; see 'iobench durability --help'", optopt);
			return usage_error("unknown option '%s'; see 'iobench durability --help'", argv[optind - 1]);
		}
	}
	int left = argc - optind;
	if (c->sub == SUB_SERVE) {
		if (left > 0)
			return usage_error("durability serve takes no TARGET, got '%s'", argv[optind]);
		char host[256];
		unsigned port;
		if (dur_net_split(c->listen, host, sizeof(host), &port, true) != 0)
			return usage_error("bad --listen '%s'; use ADDR:PORT (e.g. 0.0.0.0:%d, or 127.0.0.1:0 for any free port)",
					   c->listen, DUR_DEFAULT_PORT);
		return 0;
	}
	if (!c->server)
		return usage_error("durability %s needs --server HOST:PORT (where 'iobench durability serve' runs)",
				   sub_names[c->sub]);
	char host[256];
	unsigned port;
	if (dur_net_split(c->server, host, sizeof(host), &port, false) != 0 || host[0] == '\0')
		return usage_error("bad --server '%s'; use HOST:PORT (e.g. 10.0.0.5:%d)", c->server, DUR_DEFAULT_PORT);
	if (c->run && c->host_arg)
		return usage_error("--run and --host both pick the run; give one");
	if (left == 0)
		return usage_error("no TARGET given; e.g. 'iobench durability %s --server HOST:PORT /dev/sdb' (see --help)",
				   sub_names[c->sub]);
	if (left > 1)
		return usage_error("one TARGET only, got '%s' and '%s'", argv[optind], argv[optind + 1]);
	c->target = argv[optind];
	if (!c->op_given)
		opspec_parse("write4k", &c->op, 1, err, sizeof(err));
	return 0;
}

/* prefix, then argv[first..argc) each after a space, arguments with spaces quoted. */
static char *join_args(int argc, char **argv, const char *prefix)
{
	size_t len = strlen(prefix) + 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, prefix);
	for (int i = 0; i < argc; i++) {
		bool quote = argv[i][0] == '\0' || strpbrk(argv[i], " \t\"'") != NULL;
		strcat(s, quote ? " '" : " ");
		strcat(s, argv[i]);
		if (quote)
			strcat(s, "'");
	}
	return s;
}

static void host_name(char *buf, size_t len)
{
	buf[0] = '\0';
	gethostname(buf, len - 1);
	buf[len - 1] = '\0';
	if (!buf[0])
		snprintf(buf, len, "localhost");
}

static int probe_error(const char *path, int rc)
{
	if (rc == -ENOENT)
		return runtime_error("%s: does not exist; give a device, or a file with --size SIZE to create it", path);
	if (rc == -EISDIR)
		return usage_error("%s: is a directory; give a file or block device (e.g. %s/durability.dat)", path, path);
	if (rc == -EINVAL)
		return usage_error("%s: not a regular file or block device", path);
	if (rc == -EACCES)
		return runtime_error("%s: permission denied; run as a user who can use it (sudo for devices)", path);
	return runtime_error("%s: %s", path, strerror(-rc));
}

/* ---- serve ---- */

static int do_serve(struct dur_cli *c, const sigset_t *sigs)
{
	struct dur_serve_config sc = { .listen = c->listen, .dir = c->dir, .stop_signals = sigs,
				       .log = c->quiet ? NULL : stderr };
	char err[512];
	int rc = dur_serve(&sc, err, sizeof(err));
	if (rc == -EINTR)
		return EXIT_INTERRUPTED;
	return rc < 0 ? runtime_error("%s", err) : EXIT_OK;
}

/* ---- write ---- */

static int prepare_write_target(struct dur_cli *c, struct target_info *t, const sigset_t *sigs)
{
	char err[512], a[32], b[32];
	int rc = target_probe(c->target, t);
	if (rc == -ENOENT && c->create_size) {
		struct create_opts co = { .progress = !c->quiet, .stop_signals = sigs, .seed = c->seed ^ 0xd0b1e };
		if (!c->quiet) {
			units_format_size(a, sizeof(a), c->create_size);
			fprintf(stderr, "iobench: creating %s (%s of random data)\n", c->target, a);
		}
		rc = create_file(c->target, c->create_size, &co, err, sizeof(err));
		if (rc == -EINTR)
			return fprintf(stderr, "iobench: %s\n", err), EXIT_INTERRUPTED;
		if (rc < 0)
			return runtime_error("%s", err);
		rc = target_probe(c->target, t);
	}
	if (rc < 0)
		return probe_error(c->target, rc);
	if (c->create_size && t->size < c->create_size) {
		units_format_size(a, sizeof(a), t->size);
		units_format_size(b, sizeof(b), c->create_size);
		return runtime_error("%s: is %s, smaller than --size %s", c->target, a, b);
	}
	if (c->span > t->size) {
		units_format_size(a, sizeof(a), t->size);
		return usage_error("--span is larger than %s (%s); use a span up to its size", c->target, a);
	}
	if (!c->span)
		c->span = t->size;
	uint64_t blocks = c->span / c->op.size;
	if (blocks < c->threads) {
		units_format_size(a, sizeof(a), c->span);
		units_format_size(b, sizeof(b), c->op.size);
		return runtime_error("%s: %s holds %llu blocks of %s, fewer than the %u writers; use a larger target or fewer -t",
				     c->target, a, (unsigned long long)blocks, b, c->threads);
	}
	if (c->direct && t->dio_offset_align && c->op.size % t->dio_offset_align != 0)
		return runtime_error("%s: O_DIRECT needs %u-byte blocks here, %s is not; use a larger op or --no-direct",
				     c->target, t->dio_offset_align, c->op.name);
	if (t->is_block && !c->force) {
		rc = target_write_refusal(t, err, sizeof(err));
		if (rc == -EBUSY)
			return runtime_error("%s %s; a durability run would destroy it (use --force to write anyway)",
					     c->target, err);
	}
	if (access(c->target, W_OK) != 0)
		return runtime_error("%s: not writable (%s); use a file you own, or sudo", c->target, strerror(errno));
	return 0;
}

static int do_write(struct dur_cli *c, const sigset_t *sigs)
{
	struct target_info t;
	int rc = prepare_write_target(c, &t, sigs);
	if (rc != 0)
		return rc;
	uint64_t run = 0;
	while (run == 0)
		if (getrandom(&run, sizeof(run), 0) != sizeof(run))
			run = (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid() << 32;
	char host[128], hex[17], span[32];
	host_name(host, sizeof(host));
	dur_run_hex(run, hex);
	bool direct;
	int flags = run_open_flags(&c->op, c->direct ? -1 : 0, c->dsync, &direct);
	struct dur_write_config wc = {
		.server = c->server, .target = &t, .op = &c->op, .open_flags = flags, .threads = c->threads,
		.span = c->span, .duration_ns = c->duration_ns, .run = run, .seed = c->seed, .host = host,
		.stop_signals = sigs,
	};
	units_format_size(span, sizeof(span), c->span);
	if (!c->quiet)
		fprintf(stderr, "iobench: durability run %s: %s over %s of %s from %u writer%s, acknowledgements to %s; "
			"cut the power any time, then run 'iobench durability verify --server %s %s'\n",
			hex, c->op.name, span, c->target, c->threads, c->threads == 1 ? "" : "s", c->server, c->server,
			c->target);
	struct dur_write_result res;
	char err[512];
	rc = dur_write(&wc, &res, err, sizeof(err));
	if (rc < 0)
		return runtime_error("%s", err);
	if (!c->quiet)
		fprintf(stderr, "iobench: durability run %s: %llu writes, %llu acknowledged, %llu records confirmed by the server, %.1f s%s\n",
			hex, (unsigned long long)res.writes, (unsigned long long)res.acked,
			(unsigned long long)res.confirmed, res.elapsed_s, res.interrupted ? " (stopped by a signal)" : "");
	if (res.io_errno)
		return runtime_error("%s: %s failed at block %llu (offset %llu): %s; the device reported it, so nothing after it was acknowledged",
				     c->target, c->op.kind == OP_WRITE_N ? "a write or fdatasync" : "a write",
				     (unsigned long long)res.io_err_block,
				     (unsigned long long)(res.io_err_block * c->op.size), strerror(res.io_errno));
	if (res.net_errno)
		return runtime_error("%s; stopped writing (an acknowledgement the server never hears proves nothing)", err);
	return res.interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* ---- verify ---- */

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static char *verify_json(const struct dur_cli *c, const struct target_info *t, const struct dur_verify_result *r,
			 time_t launch)
{
	struct utsname u;
	char host[256], hex[17];
	if (uname(&u) != 0)
		memset(&u, 0, sizeof(u));
	host_name(host, sizeof(host));
	dur_run_hex(r->info.run, hex);
	json_t *labels = json_object();
	for (size_t i = 0; i < c->nlabels; i++) {
		const char *eq = strchr(c->labels[i], '=');
		char key[256];
		snprintf(key, sizeof(key), "%.*s", (int)(eq - c->labels[i]), c->labels[i]);
		json_object_set_new(labels, key, json_string(eq + 1));
	}
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
	json_t *d = json_pack("{s:s, s:s, s:s, s:i, s:I, s:I, s:s, s:s, s:I, s:i, s:i, s:I}",
			      "run", hex,
			      "server", c->server,
			      "op", r->info.op,
			      "writers", (int)r->info.writers,
			      "blockSize", (json_int_t)r->info.block_size,
			      "blocks", (json_int_t)r->info.blocks,
			      "writeHost", r->info.host,
			      "writeTarget", r->info.target,
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
	json_object_set_new(d, "lostBlocks", lost);
	json_object_set_new(d, "direct", json_boolean(c->direct));
	json_object_set_new(d, "verdict", json_string(r->lost ? "lost" : "ok"));
	json_t *target = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:o}",
				   "path", t->path,
				   "type", t->is_block ? "block" : "file",
				   "size", (json_int_t)t->size,
				   "filesystem", str_or_null(t->fstype),
				   "device", str_or_null(t->device),
				   "rotational", t->rotational < 0 ? json_null() : json_boolean(t->rotational),
				   "scheduler", str_or_null(t->scheduler),
				   "raidLevel", str_or_null(t->raid_level));
	json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:f, s:o, s:o, s:o}",
				 "tool", "iobench",
				 "version", IOBENCH_VERSION,
				 "mode", "durability",
				 "commandLine", c->command_line ? c->command_line : "",
				 "host", host,
				 "kernel", u.release,
				 "launchTime", (json_int_t)launch,
				 "elapsed", r->elapsed_s,
				 "target", target,
				 "labels", labels,
				 "durability", d);
	char *line = json_dumps(root, HIST_JSON_DUMP_FLAGS | JSON_PRESERVE_ORDER);
	json_decref(root);
	return line;
}

static void verify_summary(FILE *f, const struct dur_cli *c, const struct dur_verify_result *r)
{
	char hex[17], bs[32];
	dur_run_hex(r->info.run, hex);
	units_format_size(bs, sizeof(bs), r->info.block_size);
	unsigned cut = r->writers_seen > r->writers_bye ? r->writers_seen - r->writers_bye : 0;
	fprintf(f, "iobench durability verify: run %s (%s, %u writer%s on %s, %s), %u of %u writers cut off\n", hex,
		r->info.op, r->info.writers, r->info.writers == 1 ? "" : "s", r->info.host, r->info.target, cut,
		r->writers_seen);
	fprintf(f, "  acknowledged blocks %10llu  (%s each, read from %s%s)\n", (unsigned long long)r->acked_blocks,
		bs, c->target, c->direct ? " with O_DIRECT" : " through the page cache");
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

static int do_verify(struct dur_cli *c)
{
	struct target_info t;
	int rc = target_probe(c->target, &t);
	if (rc < 0)
		return probe_error(c->target, rc);
	char host[128];
	host_name(host, sizeof(host));
	struct dur_verify_config vc = { .server = c->server, .target = &t, .direct = c->direct, .run = c->run,
					.host = c->host_arg ? c->host_arg : host };
	struct dur_verify_result res;
	char err[1024];
	time_t launch = time(NULL);
	rc = dur_verify(&vc, &res, err, sizeof(err));
	if (rc < 0)
		return runtime_error("%s", err);
	bool json_stdout = c->json_path && strcmp(c->json_path, "-") == 0;
	if (!c->quiet)
		verify_summary(json_stdout ? stderr : stdout, c, &res);
	if (c->json_path) {
		char *line = verify_json(c, &t, &res, launch);
		rc = line ? output_append_line(c->json_path, line) : -ENOMEM;
		free(line);
		if (rc < 0)
			return runtime_error("%s: cannot write results: %s", c->json_path, strerror(-rc));
	}
	if (res.acked_blocks == 0 && !c->quiet)
		fprintf(stderr, "iobench: warning: the run has no acknowledged block: nothing was promised, nothing checked\n");
	return res.lost ? EXIT_RUNTIME : EXIT_OK;
}

int cmd_durability(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
			fputs(durability_usage, stdout);
			return EXIT_OK;
		}
		return usage_error("durability needs serve, write or verify; see 'iobench durability --help'");
	}
	struct dur_cli c = { .listen = "0.0.0.0:7340", .dir = "iobench-durability", .threads = 1, .direct = true };
	size_t i;
	for (i = 0; i < 3; i++)
		if (strcmp(argv[1], sub_names[i]) == 0)
			break;
	if (i == 3)
		return usage_error("unknown durability command '%s'; use serve, write or verify", argv[1]);
	c.sub = (enum sub)i;
	c.seed = ((uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid()) & (UINT64_MAX >> 1);
	int rc = parse(&c, argc - 1, argv + 1);
	if (rc == -1)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	c.command_line = join_args(argc, argv, "iobench");
	/*
	 * serve and write await their stop signals (a signalfd, signals_wait):
	 * block them before any thread exists. verify keeps the default: Ctrl-C
	 * stops it.
	 */
	sigset_t sigs;
	if (c.sub != SUB_VERIFY)
		signals_block_stop(&sigs);
	switch (c.sub) {
	case SUB_SERVE:
		rc = do_serve(&c, &sigs);
		break;
	case SUB_WRITE:
		rc = do_write(&c, &sigs);
		break;
	case SUB_VERIFY:
		rc = do_verify(&c);
		break;
	}
	free(c.command_line);
	return rc;
}
