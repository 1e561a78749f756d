/* stamp.c - block stamps, log records and classification for `iobench durability`. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "durability/stamp.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OFF_MAGIC 0
#define OFF_RUN 8
#define OFF_BLOCK 16
#define OFF_SEQ 24
#define OFF_WRITER 32
#define OFF_SECTOR 36
#define OFF_BSIZE 40
#define OFF_ZERO 44
#define OFF_SUM 48
#define SUM_WORD (OFF_SUM / 8)

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return le32toh(v);
}

static void put64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xxHash64's round and avalanche over 8-byte words; word skip reads as zero. */
static uint64_t checksum_words(const unsigned char *p, size_t len, size_t skip)
{
	const uint64_t p1 = 0x9e3779b185ebca87ULL, p2 = 0xc2b2ae3d27d4eb4fULL;
	uint64_t h = 0x27d4eb2f165667c5ULL ^ (uint64_t)len;
	size_t words = len / 8;
	for (size_t i = 0; i < words; i++) {
		uint64_t w = i == skip ? 0 : get64(p + 8 * i);
		h ^= rotl64(w * p2, 31) * p1;
		h = rotl64(h, 27) * p1 + 0x85ebca77c2b2ae63ULL;
	}
	for (size_t i = words * 8; i < len; i++)
		h = rotl64(h ^ (p[i] * 0x27d4eb2f165667c5ULL), 11) * p1;
	h ^= h >> 33;
	h *= p2;
	h ^= h >> 29;
	h *= 0x165667b19e3779f9ULL;
	h ^= h >> 32;
	return h;
}

uint64_t dur_checksum(const void *buf, size_t len)
{
	return checksum_words(buf, len, SIZE_MAX);
}

void dur_stamp_block(void *buf, size_t block_size, const struct dur_stamp *s, struct prng *rng)
{
	unsigned char *b = buf;
	prng_fill(rng, buf, block_size);
	for (size_t off = 0, i = 0; off + DUR_SECTOR <= block_size; off += DUR_SECTOR, i++) {
		unsigned char *p = b + off;
		put64(p + OFF_MAGIC, DUR_MAGIC);
		put64(p + OFF_RUN, s->run);
		put64(p + OFF_BLOCK, s->block);
		put64(p + OFF_SEQ, s->seq);
		put32(p + OFF_WRITER, s->writer);
		put32(p + OFF_SECTOR, (uint32_t)i);
		put32(p + OFF_BSIZE, (uint32_t)block_size);
		put32(p + OFF_ZERO, 0);
		put64(p + OFF_SUM, checksum_words(p, DUR_SECTOR, SUM_WORD));
	}
}

int dur_parse_sector(const void *sector, struct dur_stamp *out)
{
	const unsigned char *p = sector;
	if (get64(p + OFF_MAGIC) != DUR_MAGIC || get32(p + OFF_ZERO) != 0 ||
	    get64(p + OFF_SUM) != checksum_words(p, DUR_SECTOR, SUM_WORD))
		return -EBADMSG;
	out->run = get64(p + OFF_RUN);
	out->block = get64(p + OFF_BLOCK);
	out->seq = get64(p + OFF_SEQ);
	out->writer = get32(p + OFF_WRITER);
	out->sector = get32(p + OFF_SECTOR);
	out->block_size = get32(p + OFF_BSIZE);
	return 0;
}

const char *dur_class_name(enum dur_class c)
{
	static const char *const names[DUR_NCLASS] = {
		[DUR_INTACT] = "intact", [DUR_NEWER] = "newer", [DUR_TORN] = "torn",
		[DUR_LOST_OLDER] = "older", [DUR_LOST_MISSING] = "missing", [DUR_LOST_TORN] = "tornOlder",
	};
	return (unsigned)c < DUR_NCLASS ? names[c] : "?";
}

enum dur_class dur_classify(const void *buf, size_t block_size, uint64_t run, uint64_t blockno,
			    uint64_t acked, struct dur_found *f)
{
	const unsigned char *b = buf;
	memset(f, 0, sizeof(*f));
	f->sectors = (unsigned)(block_size / DUR_SECTOR);
	bool older = false; /* a sector holding less than the acknowledged version */
	for (unsigned i = 0; i < f->sectors; i++) {
		struct dur_stamp s;
		if (dur_parse_sector(b + (size_t)i * DUR_SECTOR, &s) != 0 || s.run != run ||
		    s.block != blockno || s.sector != i || s.block_size != block_size) {
			older = true; /* foreign: whatever was there before this run's versions */
			continue;
		}
		if (f->valid == 0 || s.seq < f->seq_min)
			f->seq_min = s.seq;
		if (s.seq > f->seq_max)
			f->seq_max = s.seq;
		f->valid++;
		if (s.seq < acked)
			older = true;
	}
	if (f->valid == 0)
		f->cls = DUR_LOST_MISSING;
	else if (f->valid == f->sectors && f->seq_min == f->seq_max)
		f->cls = f->seq_min == acked ? DUR_INTACT : f->seq_min > acked ? DUR_NEWER : DUR_LOST_OLDER;
	else
		f->cls = older && acked > 0 ? DUR_LOST_TORN : DUR_TORN;
	/* Nothing was promised for a block never acknowledged: "missing" just means no write landed. */
	return f->cls;
}

/* ---- protocol and log lines ---- */

size_t dur_put_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* Strict decimal u64 of the first len bytes: no sign, no leading zero (but "0"). */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
	if (len == 0 || len > 20 || (len > 1 && s[0] == '0'))
		return -EINVAL;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

void dur_run_hex(uint64_t run, char buf[17])
{
	snprintf(buf, 17, "%016llx", (unsigned long long)run);
}

int dur_run_parse(const char *hex, uint64_t *run)
{
	if (strlen(hex) != 16)
		return -EINVAL;
	uint64_t v = 0;
	for (int i = 0; i < 16; i++) {
		char c = hex[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;
		if (d == 16)
			return -EINVAL;
		v = v << 4 | d;
	}
	*run = v;
	return 0;
}

int dur_record_parse(const char *line, bool with_writer, struct dur_record *r)
{
	if ((line[0] != 'A' && line[0] != 'I') || line[1] != ' ')
		return -EINVAL;
	r->kind = line[0];
	r->writer = 0;
	uint64_t v[3];
	int want = with_writer ? 3 : 2;
	const char *p = line + 2;
	for (int i = 0; i < want; i++) {
		size_t len = strcspn(p, " ");
		bool last = i == want - 1;
		if ((last && p[len] != '\0') || (!last && p[len] != ' ') || parse_u64(p, len, &v[i]) != 0)
			return -EINVAL;
		p += len + (last ? 0 : 1);
	}
	if (with_writer) {
		if (v[0] > UINT32_MAX)
			return -EINVAL;
		r->writer = (uint32_t)v[0];
	}
	r->block = v[want - 2];
	r->seq = v[want - 1];
	return r->seq >= 1 ? 0 : -EINVAL;
}

/* Copy s into out with ' ', '%', '=' and control bytes as %XX. -ENOSPC if it does not fit. */
static int escape(char *out, size_t len, const char *s)
{
	size_t n = 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= ' ' || c == '%' || c == '=' || c == 0x7f) {
			if (n + 3 >= len)
				return -ENOSPC;
			n += (size_t)snprintf(out + n, len - n, "%%%02X", c);
		} else {
			if (n + 1 >= len)
				return -ENOSPC;
			out[n++] = (char)c;
		}
	}
	if (n >= len)
		return -ENOSPC;
	out[n] = '\0';
	return 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Undo escape() for len bytes of s into out. -EINVAL on a bad escape or a control byte (NUL included), -ENOSPC. */
static int unescape(char *out, size_t outlen, const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '%') {
			if (i + 2 >= len)
				return -EINVAL;
			int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = (char)(hi << 4 | lo);
			i += 2;
		}
		/* A peer's name reaches logs and terminals: no NUL, newline, ESC or other control byte. */
		if ((unsigned char)c < 0x20 || c == 0x7f)
			return -EINVAL;
		if (n + 1 >= outlen)
			return -ENOSPC;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

int dur_hello_format(char *buf, size_t len, const struct dur_run_info *r)
{
	char host[3 * sizeof(r->host)], target[3 * sizeof(r->target)], op[3 * sizeof(r->op)], run[17];
	if (escape(host, sizeof(host), r->host) || escape(target, sizeof(target), r->target) ||
	    escape(op, sizeof(op), r->op))
		return -ENOSPC;
	dur_run_hex(r->run, run);
	int n = snprintf(buf, len,
			 "HELLO iobench-durability %d run=%s writer=%u writers=%u blocksize=%u blocks=%llu "
			 "op=%s host=%s target=%s start=%lld",
			 DUR_PROTO_VERSION, run, r->writer, r->writers, r->block_size,
			 (unsigned long long)r->blocks, op, host, target, (long long)r->start);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

int dur_hello_parse(const char *line, struct dur_run_info *r)
{
	static const char prefix[] = "HELLO iobench-durability ";
	memset(r, 0, sizeof(*r));
	if (strncmp(line, prefix, sizeof(prefix) - 1) != 0)
		return -EINVAL;
	const char *p = line + sizeof(prefix) - 1;
	size_t len = strcspn(p, " ");
	uint64_t v;
	if (parse_u64(p, len, &v) != 0 || v != DUR_PROTO_VERSION)
		return -EINVAL;
	p += len;
	enum { F_RUN = 1, F_WRITER = 2, F_WRITERS = 4, F_BS = 8, F_BLOCKS = 16, F_OP = 32, F_HOST = 64,
	       F_TARGET = 128, F_START = 256, F_ALL = 511 };
	unsigned seen = 0;
	while (*p == ' ') {
		p++;
		len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);
		if (!eq)
			return -EINVAL;
		size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
		const char *val = eq + 1;
		char tmp[32];
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(p, k, klen) == 0)
		int rc = 0;
		unsigned bit = 0;
		if (KEY("run")) {
			bit = F_RUN;
			rc = vlen == 16 ? (memcpy(tmp, val, 16), tmp[16] = '\0', dur_run_parse(tmp, &r->run)) : -EINVAL;
		} else if (KEY("writer") || KEY("writers") || KEY("blocksize") || KEY("blocks")) {
			rc = parse_u64(val, vlen, &v);
			if (KEY("blocks")) {
				bit = F_BLOCKS;
				r->blocks = v;
			} else if (v > UINT32_MAX) {
				rc = -EINVAL;
			} else if (KEY("writer")) {
				bit = F_WRITER;
				r->writer = (uint32_t)v;
			} else if (KEY("writers")) {
				bit = F_WRITERS;
				r->writers = (uint32_t)v;
			} else {
				bit = F_BS;
				r->block_size = (uint32_t)v;
			}
		} else if (KEY("start")) {
			bit = F_START;
			bool neg = vlen > 0 && val[0] == '-';
			rc = parse_u64(val + neg, vlen - neg, &v);
			if (rc == 0 && v > INT64_MAX)
				rc = -EINVAL;
			r->start = neg ? -(int64_t)v : (int64_t)v;
		} else if (KEY("op")) {
			bit = F_OP;
			rc = unescape(r->op, sizeof(r->op), val, vlen);
		} else if (KEY("host")) {
			bit = F_HOST;
			rc = unescape(r->host, sizeof(r->host), val, vlen);
		} else if (KEY("target")) {
			bit = F_TARGET;
			rc = unescape(r->target, sizeof(r->target), val, vlen);
		}
#undef KEY
		/* Unknown keys are skipped: a newer writer may say more. */
		if (rc != 0 || (seen & bit))
			return -EINVAL;
		seen |= bit;
		p += len;
	}
	if (*p != '\0' || seen != F_ALL)
		return -EINVAL;
	if (r->writers == 0 || r->writer >= r->writers || r->block_size < DUR_SECTOR ||
	    r->block_size % DUR_SECTOR != 0 || r->blocks < r->writers || r->target[0] == '\0')
		return -EINVAL;
	return 0;
}

/* ---- per-block promises ---- */

static uint64_t hash_block(uint64_t b)
{
	b ^= b >> 33;
	b *= 0xff51afd7ed558ccdULL;
	b ^= b >> 33;
	return b;
}

static int map_grow(struct dur_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	struct dur_block *slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].block)
			continue;
		size_t j = hash_block(m->slots[i].block - 1) & (cap - 1);
		while (slots[j].block)
			j = (j + 1) & (cap - 1);
		slots[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int dur_map_note(struct dur_map *m, const struct dur_record *r)
{
	if (r->block == UINT64_MAX)
		return -EINVAL;
	if ((m->n + 1) * 4 > m->cap * 3 && map_grow(m) != 0)
		return -ENOMEM;
	size_t j = hash_block(r->block) & (m->cap - 1);
	while (m->slots[j].block && m->slots[j].block != r->block + 1)
		j = (j + 1) & (m->cap - 1);
	struct dur_block *e = &m->slots[j];
	if (!e->block) {
		e->block = r->block + 1;
		m->n++;
	}
	uint64_t *field = r->kind == 'A' ? &e->acked : &e->intended;
	if (r->seq > *field)
		*field = r->seq;
	return 0;
}

static int cmp_block(const void *a, const void *b)
{
	uint64_t x = ((const struct dur_block *)a)->block, y = ((const struct dur_block *)b)->block;
	return x < y ? -1 : x > y;
}

struct dur_block *dur_map_sorted(const struct dur_map *m, size_t *n)
{
	*n = 0;
	if (m->n == 0)
		return NULL;
	struct dur_block *out = malloc(m->n * sizeof(*out));
	if (!out)
		return NULL;
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].block)
			continue;
		out[*n] = m->slots[i];
		out[*n].block--;
		(*n)++;
	}
	qsort(out, *n, sizeof(*out), cmp_block);
	return out;
}

void dur_map_free(struct dur_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

size_t dur_text_escape(char *out, size_t len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	if (len == 0)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[5];
		size_t k = 0;
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			e[k++] = (char)c;
		} else if (c == '\\') {
			e[k++] = '\\';
			e[k++] = '\\';
		} else {
			e[k++] = '\\';
			e[k++] = 'x';
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
		}
		if (n + k >= len)
			break;
		memcpy(out + n, e, k);
		n += k;
	}
	out[n] = '\0';
	return n;
}
