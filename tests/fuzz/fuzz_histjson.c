/* fuzz_histjson.c - libFuzzer target: histograms from untrusted JSON. */
/* SPDX-License-Identifier: Apache-2.0 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/hist.h"
#include "lib/hist_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
	if (!j)
		return 0;
	struct hist h;
	char err[256];
	if (hist_from_json(j, &h, err, sizeof(err)) == 0) {
		/* an accepted histogram survives a round trip and gives sane percentiles */
		uint64_t sum = 0;
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			sum += h.buckets[k];
		if (sum != h.count)
			abort();
		double p = hist_percentile(&h, 0.5);
		if (h.count && (p < (double)h.min_ns || p > (double)h.max_ns) && h.min_ns <= h.max_ns)
			abort();
		json_t *back = hist_to_json(&h);
		struct hist h2;
		if (hist_from_json(back, &h2, err, sizeof(err)) != 0 || !hist_equal(&h, &h2))
			abort();
		json_decref(back);
	}
	json_decref(j);
	return 0;
}
