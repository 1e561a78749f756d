/* cli.c - `iobench [run]`: parse options, check the target, run, report. */
#include "commands.h"
#include "create.h"
#include "clock.h"
#include "engine.h"
#include "opspec.h"
#include "output.h"
#include "prng.h"
#include "run.h"
#include "signals.h"
#include "target.h"
#include "units.h"
#include "watch.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_OPS 64
#define MAX_LABELS 64
#define MAX_COUNTS 256

static const char run_usage[] =
	"usage: iobench [run] [OPTIONS] TARGET\n"
	"\n"
	"Random aligned I/O on TARGET (a file or block device) from several threads;\n"
	"every latency goes into a geometric histogram (ratio 1.1, 1 us - 10 s).\n"
	"\n"
	"Operations (-o, repeatable; several run at the same time):\n"
	"  read4k read4m             read SIZE at a random SIZE-aligned offset (O_DIRECT)\n"
	"  write4k write4m           write SIZE random bytes, O_DIRECT|O_SYNC\n"
	"  write4k/64                buffered write, fdatasync with probability 1/64\n"
	"  read<SIZE> write<SIZE> write<SIZE>/<N>, SIZE like 512, 4k, 64K, 1m;\n"
	"  add @ALIGN to align offsets differently (read64k@4k); /0 never syncs\n"
	"  OP,THREADS,SIZE,ALIGN     the 2012 tool's form (OP read|write|writeFlush|writeNN,\n"
	"                            THREADS a number or i for --threads); join with '.'\n"
	"\n"
	"Options:\n"
	"  -o, --op OP           operation (default read4k)\n"
	"  -t, --threads LIST    threads per operation: 24, 1,2,4 or 1..4,8 (default 1);\n"
	"                        several counts make a sweep, one run per count\n"
	"      --shuffle         run the sweep's counts in random order\n"
	"  -d, --duration SECS   length of each run (default 60; 90s, 5m also work)\n"
	"  -b, --bucket SECS     length of a time bucket (default 10)\n"
	"  -n, --ops N           stop each thread after N operations\n"
	"      --size SIZE       create TARGET with random data if it does not exist\n"
	"      --span SIZE       only use offsets in the first SIZE bytes\n"
	"      --direct          O_DIRECT for every operation\n"
	"      --no-direct       no O_DIRECT at all (measures the page cache too)\n"
	"      --dsync           O_DSYNC instead of O_SYNC for flushed writes\n"
	"  -e, --engine NAME     I/O engine: sync (pread/pwrite, default), libaio, io_uring\n"
	"      --iodepth N       operations in flight per thread (libaio, io_uring; default 1)\n"
	"      --rate IOPS       open loop: each op issues IOPS operations per second in total\n"
	"                        (split across its threads) on a fixed schedule; latency\n"
	"                        counts from when each op was due, service time apart\n"
	"      --clock SOURCE    time source: auto (the TSC where the kernel keeps time\n"
	"                        with it, else clock_gettime; default), tsc, clock_gettime\n"
	"      --seed N          seed for offsets and data (same seed, same offsets)\n"
	"      --label KEY=VALUE recorded in the JSON (repeatable)\n"
	"      --json FILE       append one JSON line per run ('-' for stdout)\n"
	"      --raw FILE        append a line per operation (op, offset, length,\n"
	"                        duration us, end us since start) in the 2012 tool's format\n"
	"  -q, --quiet           no summary, no progress\n"
	"      --force           allow writes to a block device that looks in use\n"
	"  -h, --help            this help\n"
	"  -V, --version         print the version\n"
	"\n"
	"Exit status: 0 ok, 1 runtime error, 2 usage error, 130 interrupted (results kept).\n"
	"Example: iobench --size 1G -o read4k -o write4k/64 -t 4 -d 30 --json out.jsonl data.bin\n";

static const char watch_usage[] =
	"usage: iobench watch [OPTIONS] TARGET\n"
	"\n"
	"A light probe left running for days: every --interval it does each operation\n"
	"once (in a random order) and every --period it appends one JSON line with that\n"
	"period's histograms, fsynced. Restarts append; lines merge exactly with runs.\n"
	"\n"
	"  -o, --op OP           operation (repeatable; default read4k and write4k/64)\n"
	"      --interval SECS   between probe rounds (default 10)\n"
	"      --period SECS     one JSON line per period (default 3600)\n"
	"      --count N         stop after N periods (default: run until stopped)\n"
	"      --json FILE       append the lines here (default stdout)\n"
	"      --size SIZE       create TARGET with random data if it does not exist\n"
	"      --span SIZE       only use offsets in the first SIZE bytes\n"
	"      --direct, --no-direct, --dsync, --seed N, --label KEY=VALUE, --force,\n"
	"      --clock SOURCE (as for 'iobench run')\n"
	"  -q, --quiet           no line on stderr per period\n"
	"\n"
	"SIGINT, SIGTERM and SIGHUP write the partial period (marked interrupted), exit 130.\n"
	"Example: iobench watch --json /var/lib/iobench/watch.jsonl --label host=db1 /data/iobench.dat\n";

struct cli {
	struct op_spec ops[MAX_OPS];
	size_t nops;
	unsigned counts[MAX_COUNTS];
	size_t ncounts;
	bool shuffle;
	uint64_t duration_ns, bucket_ns, max_ops;
	uint64_t create_size, span;
	int direct_mode;
	bool dsync;
	const char *engine;
	unsigned iodepth;
	double rate;
	enum clock_choice clock;
	uint64_t seed;
	bool seed_given;
	const char *labels[MAX_LABELS];
	size_t nlabels;
	const char *json_path;
	const char *raw_path;
	bool watch;              /* `iobench watch`: the probe instead of a run */
	uint64_t interval_ns, period_ns, max_periods;
	bool run_only_given;     /* an option that only `run` understands */
	const char *run_only_name;
	bool quiet, force;
	const char *target;
	char *command_line;
};

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

/* prefix, then argv[first..argc) each after a space, arguments with spaces quoted. */
static char *join_args(int argc, char **argv, const char *prefix, int first)
{
	size_t len = strlen(prefix) + 1;
	for (int i = first; i < argc; i++)
		len += strlen(argv[i]) + 3;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, prefix);
	for (int i = first; i < argc; i++) {
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

enum {
	OPT_SIZE = 256, OPT_SPAN, OPT_DIRECT, OPT_NO_DIRECT, OPT_DSYNC, OPT_SEED, OPT_LABEL,
	OPT_JSON, OPT_FORCE, OPT_SHUFFLE, OPT_IODEPTH, OPT_RATE, OPT_RAW,
	OPT_INTERVAL, OPT_PERIOD, OPT_COUNT, OPT_CLOCK,
};

static int parse_duration_opt(const char *name, const char *arg, uint64_t *out)
{
	int rc = units_parse_duration(arg, out);
	if (rc == -ERANGE)
		return usage_error("%s '%s' out of range; use 1 ms to 100 days (e.g. 60, 90s, 5m)", name, arg);
	if (rc < 0)
		return usage_error("bad %s '%s'; use seconds (60, 2.5) or 90s, 5m, 1h", name, arg);
	return 0;
}

static int parse_size_opt(const char *name, const char *arg, uint64_t *out)
{
	int rc = units_parse_size(arg, out);
	if (rc < 0 || *out == 0)
		return usage_error("bad %s '%s'; use a size like 512M, 10G (binary units)", name, arg);
	return 0;
}

/* "--name" of an option, from the getopt table. */
static const char *opt_name(const struct option *opts, int val)
{
	static char buf[64];
	for (; opts->name; opts++)
		if (opts->val == val) {
			snprintf(buf, sizeof(buf), "--%s", opts->name);
			return buf;
		}
	return "option";
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "op", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "bucket", required_argument, NULL, 'b' },
		{ "ops", required_argument, NULL, 'n' },
		{ "engine", required_argument, NULL, 'e' },
		{ "iodepth", required_argument, NULL, OPT_IODEPTH },
		{ "rate", required_argument, NULL, OPT_RATE },
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "period", required_argument, NULL, OPT_PERIOD },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "span", required_argument, NULL, OPT_SPAN },
		{ "direct", no_argument, NULL, OPT_DIRECT },
		{ "no-direct", no_argument, NULL, OPT_NO_DIRECT },
		{ "dsync", no_argument, NULL, OPT_DSYNC },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "shuffle", no_argument, NULL, OPT_SHUFFLE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	const char *threads_arg = "1";
	uint64_t v;
	int opt, rc;
	bool direct_set = false;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:t:d:b:n:e:qhV", longopts, NULL)) != -1) {
		bool watch_opt = opt == OPT_INTERVAL || opt == OPT_PERIOD || opt == OPT_COUNT;
		bool run_only = strchr("tdbne", opt) != NULL || opt == OPT_RATE || opt == OPT_RAW ||
				opt == OPT_SHUFFLE || opt == OPT_IODEPTH;
		if (watch_opt && !c->watch)
			return usage_error("%s belongs to 'iobench watch'; see 'iobench watch --help'", opt_name(longopts, opt));
		if (run_only && c->watch)
			return usage_error("%s is not used by 'iobench watch' (it probes once per --interval); see 'iobench watch --help'",
					   opt_name(longopts, opt));
		switch (opt) {
		case 'o':
			rc = opspec_parse(optarg, c->ops + c->nops, MAX_OPS - c->nops, err, sizeof(err));
			if (rc == -E2BIG)
				return usage_error("too many operations (at most %d)", MAX_OPS);
			if (rc < 0)
				return usage_error("%s", err);
			c->nops += (size_t)rc;
			break;
		case 't':
			threads_arg = optarg;
			break;
		case 'd':
			if (parse_duration_opt("--duration", optarg, &c->duration_ns))
				return EXIT_USAGE;
			break;
		case 'b':
			if (parse_duration_opt("--bucket", optarg, &c->bucket_ns))
				return EXIT_USAGE;
			break;
		case 'n':
			if (units_parse_u64(optarg, 1, UINT64_MAX >> 1, &c->max_ops) < 0)
				return usage_error("bad --ops '%s'; use a whole number >= 1", optarg);
			break;
		case 'e':
			c->engine = optarg;
			break;
		case OPT_IODEPTH:
			if (units_parse_u64(optarg, 1, 1024, &v) < 0)
				return usage_error("bad --iodepth '%s'; use 1 to 1024", optarg);
			c->iodepth = (unsigned)v;
			break;
		case OPT_CLOCK:
			if (!clock_choice_parse(optarg, &c->clock))
				return usage_error("bad --clock '%s'; use auto, tsc or clock_gettime", optarg);
			break;
		case OPT_RATE: {
			char *end;
			errno = 0;
			c->rate = strtod(optarg, &end);
			if (*end != '\0' || errno || !(c->rate > 0) || c->rate > 1e9)
				return usage_error("bad --rate '%s'; use operations per second, e.g. 1000", optarg);
			break;
		}
		case OPT_SIZE:
			if (parse_size_opt("--size", optarg, &c->create_size))
				return EXIT_USAGE;
			break;
		case OPT_SPAN:
			if (parse_size_opt("--span", optarg, &c->span))
				return EXIT_USAGE;
			break;
		case OPT_DIRECT:
		case OPT_NO_DIRECT:
			if (direct_set && c->direct_mode != (opt == OPT_DIRECT))
				return usage_error("--direct and --no-direct contradict each other; give one");
			direct_set = true;
			c->direct_mode = opt == OPT_DIRECT;
			break;
		case OPT_DSYNC:
			c->dsync = true;
			break;
		case OPT_SEED:
			if (units_parse_u64(optarg, 0, UINT64_MAX >> 1, &c->seed) < 0)
				return usage_error("bad --seed '%s'; use a whole number", optarg);
			c->seed_given = true;
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
		case OPT_JSON:
			c->json_path = optarg;
			break;
		case OPT_RAW:
			c->raw_path = optarg;
			break;
		case OPT_INTERVAL:
			if (parse_duration_opt("--interval", optarg, &c->interval_ns))
				return EXIT_USAGE;
			break;
		case OPT_PERIOD:
			if (parse_duration_opt("--period", optarg, &c->period_ns))
				return EXIT_USAGE;
			break;
		case OPT_COUNT:
			if (units_parse_u64(optarg, 1, UINT64_MAX >> 1, &c->max_periods) < 0)
				return usage_error("bad --count '%s'; use a whole number >= 1", optarg);
			break;
		case 'q':
			c->quiet = true;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_SHUFFLE:
			c->shuffle = true;
			break;
		case 'h':
			fputs(c->watch ? watch_usage : run_usage, stdout);
			return -1;
		case 'V':
			printf("iobench %s\n", IOBENCH_VERSION);
			return -1;
		case ':':
			return usage_error("%s needs a value; see 'iobench --help'", argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown option '-%c'; see 'iobench --help'", optopt);
			return usage_error("unknown option '%s'; see 'iobench --help'", argv[optind - 1]);
		}
	}
	if (!direct_set)
		c->direct_mode = -1;
	int n = opspec_parse_threads(threads_arg, c->counts, MAX_COUNTS, err, sizeof(err));
	if (n < 0)
		return usage_error("%s", err);
	c->ncounts = (size_t)n;
	if (c->nops == 0 && c->watch) {
		opspec_parse("read4k", c->ops, 1, err, sizeof(err));
		opspec_parse("write4k/64", c->ops + 1, 1, err, sizeof(err));
		c->nops = 2;
	} else if (c->nops == 0) {
		opspec_parse("read4k", c->ops, 1, err, sizeof(err));
		c->nops = 1;
	}
	if (c->watch && c->interval_ns > c->period_ns)
		return usage_error("--interval is longer than --period; each period needs at least one probe");
	if (c->bucket_ns > c->duration_ns)
		c->bucket_ns = c->duration_ns;
	if (argc - optind == 0)
		return usage_error("no TARGET given; e.g. 'iobench --size 1G -o read4k data.bin' (see --help)");
	if (argc - optind > 1)
		return usage_error("one TARGET only, got '%s' and '%s'; quote options' values", argv[optind],
				   argv[optind + 1]);
	c->target = argv[optind];
	if (c->engine == NULL)
		c->engine = "sync";
	if (!engine_find(c->engine)) {
		const char *why = engine_missing_reason(c->engine);
		if (why)
			return usage_error("engine '%s' is not available: %s", c->engine, why);
		return usage_error("unknown engine '%s'; available: %s", c->engine, engine_names());
	}
	if (c->iodepth > 1 && strcmp(c->engine, "sync") == 0)
		return usage_error("--iodepth %u needs an asynchronous engine; the sync engine runs one operation at a time", c->iodepth);
	return 0;
}

static bool any_write(const struct cli *c)
{
	for (size_t i = 0; i < c->nops; i++)
		if (c->ops[i].kind != OP_READ)
			return true;
	return false;
}

/* Make sure TARGET exists (creating it for --size) and is fit for these ops. */
static int prepare_target(struct cli *c, struct target_info *t, const sigset_t *sigs)
{
	char err[512], human[32], need[32];
	int rc = target_probe(c->target, t);
	if (rc == -ENOENT && c->create_size) {
		struct create_opts co = { .progress = !c->quiet, .stop_signals = sigs,
					  .seed = c->seed ^ 0xc0ffee };
		units_format_size(human, sizeof(human), c->create_size);
		if (!c->quiet)
			fprintf(stderr, "iobench: creating %s (%s of random data)\n", c->target, human);
		rc = create_file(c->target, c->create_size, &co, err, sizeof(err));
		if (rc == -EINTR) {
			fprintf(stderr, "iobench: %s\n", err);
			return EXIT_INTERRUPTED;
		}
		if (rc < 0)
			return runtime_error("%s", err);
		rc = target_probe(c->target, t);
	}
	if (rc == -ENOENT)
		return runtime_error("%s: does not exist; create it with 'iobench create %s SIZE' or add --size SIZE",
				     c->target, c->target);
	if (rc == -EISDIR)
		return usage_error("%s: is a directory; give a file or block device (e.g. %s/iobench.dat)",
				   c->target, c->target);
	if (rc == -EINVAL)
		return usage_error("%s: not a regular file or block device", c->target);
	if (rc == -EACCES)
		return runtime_error("%s: permission denied; run as a user who can read it (sudo for devices)", c->target);
	if (rc < 0)
		return runtime_error("%s: %s", c->target, strerror(-rc));

	if (c->create_size && t->size < c->create_size) {
		units_format_size(human, sizeof(human), t->size);
		units_format_size(need, sizeof(need), c->create_size);
		return runtime_error("%s: is %s, smaller than --size %s; remove it or recreate it with 'iobench create --force'",
				     c->target, human, need);
	}
	if (c->span > t->size) {
		units_format_size(human, sizeof(human), t->size);
		return usage_error("--span is larger than %s (%s); use a span up to its size", c->target, human);
	}
	if (c->span == 0)
		c->span = t->size;
	for (size_t i = 0; i < c->nops; i++) {
		if (c->ops[i].size > c->span) {
			units_format_size(human, sizeof(human), c->span);
			return runtime_error("%s: %s is smaller than one %s operation; use a larger file (--size) or a smaller op",
					     c->target, human, c->ops[i].name);
		}
	}
	if (any_write(c)) {
		if (t->is_block && !c->force) {
			rc = target_write_refusal(t, err, sizeof(err));
			if (rc == -EBUSY)
				return runtime_error("%s %s; a write benchmark would destroy it (use --force to write anyway)",
						     c->target, err);
		}
		if (access(c->target, W_OK) != 0)
			return runtime_error("%s: not writable (%s); write ops need write access: use a file you own, or sudo",
					     c->target, strerror(errno));
	}
	return 0;
}

static void warn_buffered(const struct cli *c, const struct target_info *t, const struct run_op *ops)
{
	uint64_t ram = target_ram_bytes();
	if (t->is_block || ram == 0 || c->span >= 2 * ram)
		return;
	for (size_t i = 0; i < c->nops; i++) {
		if (ops[i].direct)
			continue;
		char a[32], b[32];
		units_format_size(a, sizeof(a), c->span);
		units_format_size(b, sizeof(b), ram);
		fprintf(stderr, "iobench: warning: %s runs through the page cache and %s (%s) is smaller than twice the RAM (%s): "
			"the numbers include cache hits; use a file over 2x RAM, or O_DIRECT\n",
			ops[i].spec.name, c->target, a, b);
		return;
	}
}

/* Build this run's operations for a --threads count. */
static void build_ops(const struct cli *c, unsigned count, struct run_op *ops)
{
	for (size_t i = 0; i < c->nops; i++) {
		ops[i].spec = c->ops[i];
		if (c->ops[i].threads > 0) {
			ops[i].thread_count = c->ops[i].threads;
			ops[i].nthreads = (unsigned)ceil(c->ops[i].threads);
		} else {
			ops[i].thread_count = count;
			ops[i].nthreads = count;
		}
		ops[i].open_flags = run_open_flags(&c->ops[i], c->direct_mode, c->dsync, &ops[i].direct);
	}
}

static bool uses_thread_list(const struct cli *c)
{
	for (size_t i = 0; i < c->nops; i++)
		if (c->ops[i].threads == 0)
			return true;
	return false;
}

static int run_sweep(struct cli *c, const struct target_info *t, const sigset_t *sigs, FILE *raw,
		     size_t nruns);

static int run_all(struct cli *c, const struct target_info *t, const sigset_t *sigs)
{
	int rc;

	/* Sweep order; with --shuffle a seeded Fisher-Yates. */
	size_t nruns = uses_thread_list(c) ? c->ncounts : 1;
	if (c->shuffle) {
		struct prng rng;
		prng_seed(&rng, c->seed, 0x5417f1e);
		for (size_t i = nruns; i > 1; i--) {
			size_t j = (size_t)prng_below(&rng, i);
			unsigned tmp = c->counts[i - 1];
			c->counts[i - 1] = c->counts[j];
			c->counts[j] = tmp;
		}
	}
	FILE *raw = NULL;
	if (c->raw_path) {
		raw = fopen(c->raw_path, "a");
		if (!raw)
			return runtime_error("%s: cannot open the --raw log: %s", c->raw_path, strerror(errno));
		setvbuf(raw, NULL, _IOFBF, 1 << 20);
	}
	rc = run_sweep(c, t, sigs, raw, nruns);
	if (raw && fclose(raw) != 0 && rc == EXIT_OK)
		return runtime_error("%s: writing the --raw log failed: %s", c->raw_path, strerror(errno));
	return rc;
}

/* The runs of a sweep, in order; stops at the first failure or signal. */
static int run_sweep(struct cli *c, const struct target_info *t, const sigset_t *sigs, FILE *raw,
		     size_t nruns)
{
	FILE *summary = c->json_path && strcmp(c->json_path, "-") == 0 ? stderr : stdout;
	struct run_op ops[MAX_OPS];
	int rc;
	for (size_t r = 0; r < nruns; r++) {
		unsigned count = c->counts[r];
		build_ops(c, count, ops);
		if (r == 0)
			warn_buffered(c, t, ops);
		struct run_config cfg = {
			.target = t, .ops = ops, .nops = c->nops,
			.duration_ns = c->duration_ns, .bucket_ns = c->bucket_ns, .max_ops = c->max_ops,
			.span = c->span, .seed = c->seed, .engine = engine_find(c->engine),
			.iodepth = c->iodepth, .rate = c->rate, .progress = !c->quiet && isatty(STDERR_FILENO),
			.stop_signals = sigs, .raw = raw,
		};
		if (raw) {
			char when[64];
			time_t now = time(NULL);
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
			fprintf(raw, "# date: %s\n# arguments: %s\n# filesize: %llu\n# threadSpecs:", when,
				c->command_line, (unsigned long long)t->size);
			for (size_t i = 0; i < c->nops; i++)
				fprintf(raw, " %s x %g", ops[i].spec.signature, ops[i].thread_count);
			fputc('\n', raw);
		}
		if (!c->quiet && nruns > 1)
			fprintf(stderr, "iobench: run %zu of %zu: %u thread%s\n", r + 1, nruns, count,
				count == 1 ? "" : "s");
		struct run_result res;
		char err[512];
		rc = run_execute(&cfg, &res, err, sizeof(err));
		if (rc < 0)
			return runtime_error("%s", err);
		if (raw && res.raw_dropped < 0)
			fprintf(stderr, "iobench: %s: writing the --raw log failed: %s\n", c->raw_path,
				strerror((int)-res.raw_dropped));
		else if (raw && res.raw_dropped > 0)
			fprintf(stderr, "iobench: warning: %lld operations missing from the --raw log (its writer fell behind)\n",
				(long long)res.raw_dropped);
		struct run_meta meta = { .command_line = c->command_line, .labels = c->labels,
					 .nlabels = c->nlabels, .threads = count, .seed_given = c->seed_given };
		struct output_run out = output_run_of(&cfg, &meta);
		if (c->json_path) {
			char *line = output_json_line(&out, &res);
			rc = line ? output_append_line(c->json_path, line) : -ENOMEM;
			free(line);
			if (rc < 0) {
				run_result_free(&res);
				return runtime_error("%s: cannot write results: %s", c->json_path, strerror(-rc));
			}
		}
		if (!c->quiet)
			output_summary(summary, &out, &res);
		bool interrupted = res.interrupted, lost = res.target_lost;
		int sig = res.signal;
		run_result_free(&res);
		if (lost)
			return runtime_error("%s disappeared mid-run (unlinked, replaced or detached); results so far %s",
					     c->target, c->json_path ? "written, marked targetLost" : "shown");
		if (interrupted) {
			fprintf(stderr, "iobench: interrupted by %s; results so far %s\n", strsignal(sig),
				c->json_path ? "written" : "shown");
			return EXIT_INTERRUPTED;
		}
		/* A signal between runs stops the sweep too. */
		sig = signals_wait(sigs, 0);
		if (sig > 0 && r + 1 < nruns) {
			fprintf(stderr, "iobench: interrupted by %s between runs; %zu of %zu runs done\n",
				strsignal(sig), r + 1, nruns);
			return EXIT_INTERRUPTED;
		}
	}
	return EXIT_OK;
}

static int watch_all(struct cli *c, const struct target_info *t, const sigset_t *sigs)
{
	int rc;
	struct run_op ops[MAX_OPS];
	build_ops(c, 1, ops);
	warn_buffered(c, t, ops);
	struct run_meta meta = { .command_line = c->command_line, .labels = c->labels, .nlabels = c->nlabels,
				 .threads = 1, .seed_given = c->seed_given, .mode = "watch",
				 .interval_s = (double)c->interval_ns / 1e9 };
	struct watch_config wc = {
		.target = t, .ops = ops, .nops = c->nops, .span = c->span,
		.interval_ns = c->interval_ns, .period_ns = c->period_ns, .max_periods = c->max_periods,
		.seed = c->seed, .json_path = c->json_path ? c->json_path : "-", .meta = &meta,
		.stop_signals = sigs, .quiet = c->quiet,
	};
	char err[512];
	rc = watch_run(&wc, err, sizeof(err));
	if (rc == -EINTR)
		return EXIT_INTERRUPTED;
	if (rc < 0)
		return runtime_error("%s", err);
	return EXIT_OK;
}

static int cli_main(int argc, char **argv, bool watch);

int cmd_run(int argc, char **argv)
{
	return cli_main(argc, argv, false);
}

int cmd_watch(int argc, char **argv)
{
	return cli_main(argc, argv, true);
}

static int cli_main(int argc, char **argv, bool watch)
{
	struct cli c;
	memset(&c, 0, sizeof(c));
	c.watch = watch;
	c.interval_ns = 10ULL * 1000000000ULL;
	c.period_ns = 3600ULL * 1000000000ULL;
	c.duration_ns = 60ULL * 1000000000ULL;
	c.bucket_ns = 10ULL * 1000000000ULL;
	c.iodepth = 1;
	c.seed = (uint64_t)time(NULL) * 2654435761ULL ^ (uint64_t)getpid();
	c.seed &= UINT64_MAX >> 1;
	int rc = parse_args(&c, argc, argv);
	if (rc == -1)
		return EXIT_OK;
	if (rc != 0)
		return rc;
	/* Recorded as "iobench [run|watch] ARGS...", whatever the program was called. */
	bool named = strcmp(argv[0], "run") == 0 || strcmp(argv[0], "watch") == 0;
	c.command_line = join_args(argc, argv, "iobench", named ? 0 : 1);
	char why[160];
	if (clock_setup(c.clock, why, sizeof(why)) < 0) {
		free(c.command_line);
		return usage_error("--clock tsc: %s; use --clock auto", why);
	}
	/* Signals are awaited, never handled: block them before any thread exists. */
	sigset_t sigs;
	signals_block_stop(&sigs);
	struct target_info t;
	rc = prepare_target(&c, &t, &sigs);
	if (rc == 0)
		rc = c.watch ? watch_all(&c, &t, &sigs) : run_all(&c, &t, &sigs);
	free(c.command_line);
	return rc;
}
