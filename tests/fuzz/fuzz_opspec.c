/* fuzz_opspec.c - libFuzzer target: op specs, thread lists, sizes, durations. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/opspec.h"
#include "lib/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[256];
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	struct op_spec ops[8];
	char err[256];
	int k = opspec_parse(text, ops, 8, err, sizeof(err));
	for (int i = 0; i < k; i++) {
		/* what the run layer relies on */
		if (ops[i].size == 0 || ops[i].size > OPSPEC_MAX_OPSIZE || ops[i].align == 0 ||
		    ops[i].threads < 0 || ops[i].threads > OPSPEC_MAX_THREADS || ops[i].read_pct > 100 ||
		    !memchr(ops[i].name, '\0', sizeof(ops[i].name)) || strchr(ops[i].signature, ',') == NULL)
			abort();
	}
	unsigned counts[64];
	int c = opspec_parse_threads(text, counts, 64, err, sizeof(err));
	for (int i = 0; i < c; i++)
		if (counts[i] == 0 || counts[i] > OPSPEC_MAX_THREADS)
			abort();
	uint64_t v;
	if (units_parse_size(text, &v) == 0 && v > (uint64_t)INT64_MAX)
		abort();
	if (units_parse_duration(text, &v) == 0 && v == 0)
		abort();
	return 0;
}
