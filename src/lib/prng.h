/*
 * SPDX-License-Identifier: Apache-2.0
 * prng.h - xoshiro256** seeded by splitmix64: fast, per-thread, reproducible.
 *
 * Not cryptographic. Each thread owns its own state; nothing here is shared.
 */
#ifndef IOBENCH_LIB_PRNG_H
#define IOBENCH_LIB_PRNG_H

#include <stdint.h>
#include <stddef.h>

struct prng {
	uint64_t s[4];
};

static inline uint64_t prng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Seed the state from one 64-bit seed and a stream number (e.g. the thread index). */
static inline void prng_seed(struct prng *p, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	for (int i = 0; i < 4; i++)
		p->s[i] = prng_splitmix64(&x);
}

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t result = prng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return result;
}

/* Uniform integer in [0, n) by multiply-shift (Lemire); n > 0. */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)prng_next(p) * n) >> 64);
}

/* Fill len bytes (any length) with random data. */
void prng_fill(struct prng *p, void *buf, size_t len);

#endif
