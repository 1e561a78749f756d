/* cmd_create.c - `iobench create FILE SIZE`: parse, block the stop signals, create. */
#include "commands.h"
#include "create.h"
#include "signals.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static const char create_usage[] =
	"usage: iobench create [OPTIONS] FILE SIZE\n"
	"\n"
	"Fill FILE with SIZE random bytes (e.g. 1G, 80G, 512M) using large O_DIRECT\n"
	"writes from several threads, then fsync. Shows progress on a terminal.\n"
	"\n"
	"  -f, --force        overwrite FILE if it exists\n"
	"  -t, --threads N    writer threads (default 4)\n"
	"      --seed N       seed for the random data (default: from the clock)\n"
	"  -q, --quiet        no progress bar\n"
	"  -h, --help         this help\n";

int cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "threads", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct create_opts o = { .progress = true, .seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) };
	uint64_t v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ft:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.force = true;
			break;
		case 't':
			if (units_parse_u64(optarg, 1, 256, &v) < 0) {
				fprintf(stderr, "iobench: create: bad --threads '%s'; use 1 to 256\n", optarg);
				return EXIT_USAGE;
			}
			o.threads = (unsigned)v;
			break;
		case 'S':
			if (units_parse_u64(optarg, 0, UINT64_MAX, &v) < 0) {
				fprintf(stderr, "iobench: create: bad --seed '%s'; use a whole number\n", optarg);
				return EXIT_USAGE;
			}
			o.seed = v;
			break;
		case 'q':
			o.progress = false;
			break;
		case 'h':
			fputs(create_usage, stdout);
			return EXIT_OK;
		default:
			fprintf(stderr, "iobench: create: see 'iobench create --help'\n");
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "iobench: create needs FILE and SIZE, e.g. 'iobench create data.bin 10G'\n");
		return EXIT_USAGE;
	}
	const char *path = argv[optind];
	uint64_t size;
	int rc = units_parse_size(argv[optind + 1], &size);
	if (rc < 0 || size == 0) {
		fprintf(stderr, "iobench: create: bad size '%s'; use e.g. 512M, 10G (binary units)\n",
			argv[optind + 1]);
		return EXIT_USAGE;
	}
	sigset_t sigs;
	signals_block_stop(&sigs);
	o.stop_signals = &sigs;
	char err[512];
	rc = create_file(path, size, &o, err, sizeof(err));
	if (rc == 0)
		return EXIT_OK;
	fprintf(stderr, "iobench: %s\n", err);
	if (rc == -EINTR)
		return EXIT_INTERRUPTED;
	return EXIT_RUNTIME;
}
