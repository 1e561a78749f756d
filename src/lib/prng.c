/* prng.c - bulk random fill for data files and write buffers. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/prng.h"

#include <string.h>

void prng_fill(struct prng *p, void *buf, size_t len)
{
	unsigned char *out = buf;
	while (len >= 32) {
		uint64_t v[4] = { prng_next(p), prng_next(p), prng_next(p), prng_next(p) };
		memcpy(out, v, sizeof(v));
		out += 32;
		len -= 32;
	}
	while (len > 0) {
		uint64_t v = prng_next(p);
		size_t n = len < sizeof(v) ? len : sizeof(v);
		memcpy(out, &v, n);
		out += n;
		len -= n;
	}
}
