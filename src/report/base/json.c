/*
 * SPDX-License-Identifier: Apache-2.0
 * report/base/json.c - a strict JSON parser into a flat, reusable array of
 * values (see report_json.h). Its rules are jansson's (json_loadb with no
 * flags), checked against jansson by tests/fuzz/fuzz_json.c.
 */
#include "report/base/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jansson's JSON_PARSER_MAX_DEPTH. */
#define MAX_DEPTH 2048

void jv_doc_init(struct jv_doc *d)
{
	memset(d, 0, sizeof(*d));
}

void jv_doc_free(struct jv_doc *d)
{
	free(d->v);
	free(d->str);
	free(d->stack);
	memset(d, 0, sizeof(*d));
}

/* One parse: where it is in the text and in the doc's arrays. */
struct parser {
	struct jv_doc *d;
	const char *p, *end;
	char *s;        /* next free byte of d->str */
	size_t depth;
};

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* A new value of type t at the end of the array; NULL when memory ran out. */
static struct jv *push(struct parser *ps, uint8_t t)
{
	struct jv_doc *d = ps->d;
	if (d->nv == d->cap && !grow((void **)&d->v, &d->cap, d->nv + 1, sizeof(*d->v)))
		return NULL;
	struct jv *v = &d->v[d->nv++];
	v->type = t;
	v->skip = 1;
	v->n = 0;
	return v;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Four hex digits at p (jansson wants exactly four); -1 when they are not. */
static long hex4(const char *p, const char *end)
{
	if (end - p < 4)
		return -1;
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

static char *utf8_put(char *s, long c)
{
	if (c < 0x80) {
		*s++ = (char)c;
	} else if (c < 0x800) {
		*s++ = (char)(0xC0 | (c >> 6));
		*s++ = (char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		*s++ = (char)(0xE0 | (c >> 12));
		*s++ = (char)(0x80 | ((c >> 6) & 0x3F));
		*s++ = (char)(0x80 | (c & 0x3F));
	} else {
		*s++ = (char)(0xF0 | (c >> 18));
		*s++ = (char)(0x80 | ((c >> 12) & 0x3F));
		*s++ = (char)(0x80 | ((c >> 6) & 0x3F));
		*s++ = (char)(0x80 | (c & 0x3F));
	}
	return s;
}

/*
 * Length of the UTF-8 sequence at p, as jansson checks one (no overlong
 * forms, no surrogates, nothing above U+10FFFF); 0 when it is not one.
 */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t n;
	long v;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		v = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		v = c & 0x07;
	} else {
		return 0;
	}
	if ((size_t)(end - p) < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3F);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
		return 0;
	return n;
}

/* A \u escape at p (just after the backslash and 'u'), into ps->s. False: jansson refuses it. */
static bool unicode_escape(struct parser *ps)
{
	long c = hex4(ps->p, ps->end);
	if (c < 0)
		return false;
	ps->p += 4;
	if (c >= 0xD800 && c <= 0xDBFF) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return false;
		long lo = hex4(ps->p + 2, ps->end);
		if (lo < 0xDC00 || lo > 0xDFFF)
			return false;
		ps->p += 6;
		c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	} else if (c >= 0xDC00 && c <= 0xDFFF) {
		return false;
	} else if (c == 0) {
		return false; /* jansson: \u0000 is not allowed without JSON_ALLOW_NUL */
	}
	ps->s = utf8_put(ps->s, c);
	return true;
}

/* The string at ps->p (on its opening quote) as a new JV_STRING. */
static bool parse_string(struct parser *ps)
{
	struct jv *v = push(ps, JV_STRING);
	if (!v)
		return false;
	char *start = ps->s;
	const char *p = ps->p + 1, *end = ps->end;
	for (;;) {
		/* The common case: a run of plain printable ASCII. */
		const char *q = p;
		while (q < end && (unsigned char)*q >= 0x20 && (unsigned char)*q < 0x80 && *q != '"' && *q != '\\')
			q++;
		memcpy(ps->s, p, (size_t)(q - p));
		ps->s += q - p;
		p = q;
		if (p >= end)
			return false;
		unsigned char c = (unsigned char)*p;
		if (c == '"') {
			p++;
			break;
		}
		if (c < 0x20)
			return false;
		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)p, (const unsigned char *)end);
			if (!n)
				return false;
			memcpy(ps->s, p, n);
			ps->s += n;
			p += n;
			continue;
		}
		/* A backslash. */
		if (end - p < 2)
			return false;
		char e = p[1];
		p += 2;
		switch (e) {
		case '"': *ps->s++ = '"'; break;
		case '\\': *ps->s++ = '\\'; break;
		case '/': *ps->s++ = '/'; break;
		case 'b': *ps->s++ = '\b'; break;
		case 'f': *ps->s++ = '\f'; break;
		case 'n': *ps->s++ = '\n'; break;
		case 'r': *ps->s++ = '\r'; break;
		case 't': *ps->s++ = '\t'; break;
		case 'u':
			ps->p = p;
			if (!unicode_escape(ps))
				return false;
			p = ps->p;
			break;
		default:
			return false;
		}
	}
	*ps->s++ = '\0';
	v = &ps->d->v[ps->d->nv - 1]; /* the array did not move since push(), but say so plainly */
	v->u.s = start;
	v->n = (uint32_t)(ps->s - start - 1);
	ps->p = p;
	return true;
}

/*
 * jansson's lexer reads one character past a number or a literal and puts
 * it back; a NUL byte put back is lost, so jansson reads "[1\0,2]" as
 * [1, 2]. The report never passes NUL bytes (such lines are binary data),
 * but the two parsers agree on every input all the same.
 */
static const char *skip_nul_after_token(const char *p, const char *end)
{
	return p < end && *p == '\0' ? p + 1 : p;
}

static bool is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/* Exact powers of ten as doubles: 10^0 .. 10^22. */
static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * A real's value as strtod() gives it. When its digits make an integer of
 * at most 15 digits and its power of ten is within 10^22, both are exact
 * doubles and one multiplication or division rounds the exact value
 * correctly, which is what strtod does (Clinger's fast path): the result is
 * the same, without strtod's cost. Others go to strtod. False on overflow.
 */
static bool real_value(const char *start, const char *end, uint64_t mant, int sig, long exp10, bool neg, double *out)
{
	if (sig <= 15 && exp10 >= -22 && exp10 <= 22) {
		double d = (double)mant;
		d = exp10 >= 0 ? d * pow10_exact[exp10] : d / pow10_exact[-exp10];
		*out = neg ? -d : d;
		return true;
	}
	char buf[64], *text = buf, *stop;
	size_t n = (size_t)(end - start);
	if (n >= sizeof(buf) && !(text = malloc(n + 1)))
		return false;
	memcpy(text, start, n);
	text[n] = '\0';
	errno = 0;
	double d = strtod(text, &stop);
	bool overflow = (d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE;
	if (text != buf)
		free(text);
	*out = d;
	return !overflow;
}

/* The number at ps->p: an integer (no fraction, no exponent) within int64_t, or a real that does not overflow. */
static bool parse_number(struct parser *ps)
{
	const char *p = ps->p, *end = ps->end, *start = p;
	bool neg = false, is_int = true, big = false;
	uint64_t mag = 0;   /* the integer part; then every digit, as long as there are at most 19 */
	int sig = 0;        /* significant digits in mag (leading zeros left out) */
	long exp10 = 0;     /* the real's power of ten, against mag */
	if (*p == '-') {
		neg = true;
		p++;
	}
	if (!is_digit(p, end))
		return false;
	if (*p == '0') {
		p++;
		if (is_digit(p, end))
			return false;
	} else {
		/* 19 digits always fit in 64 bits; only beyond that can it overflow. */
		for (; is_digit(p, end); p++) {
			unsigned dgt = (unsigned)(*p - '0');
			if (sig >= 19 && mag > (UINT64_MAX - dgt) / 10)
				big = true;
			else
				mag = mag * 10 + dgt;
			sig++;
		}
	}
	if (p < end && *p == '.') {
		p++;
		if (!is_digit(p, end))
			return false;
		for (; is_digit(p, end); p++) {
			if (sig < 19) {
				mag = mag * 10 + (unsigned)(*p - '0');
				sig += mag != 0;
				exp10--;
			} else {
				sig++; /* too many digits for the fast path: strtod */
			}
		}
		is_int = false;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		bool eneg = false;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (!is_digit(p, end))
			return false;
		long e = 0;
		for (; is_digit(p, end); p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		exp10 += eneg ? -e : e;
		is_int = false;
	}
	struct jv *v = push(ps, is_int ? JV_INT : JV_REAL);
	if (!v)
		return false;
	if (is_int) {
		/* jansson reads integers with strtoll: out of range is an error. */
		if (big || mag > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
			return false;
		v->u.i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	} else if (!real_value(start, p, mag, big ? 99 : sig, exp10, neg, &v->u.d)) {
		return false; /* (an integer part beyond 2^64 went to strtod: big) */
	}
	ps->p = skip_nul_after_token(p, end);
	return true;
}

static bool parse_literal(struct parser *ps)
{
	static const struct {
		const char *word;
		size_t len;
		uint8_t type;
	} lits[] = { { "true", 4, JV_TRUE }, { "false", 5, JV_FALSE }, { "null", 4, JV_NULL } };
	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		if ((size_t)(ps->end - ps->p) >= lits[i].len && memcmp(ps->p, lits[i].word, lits[i].len) == 0) {
			ps->p = skip_nul_after_token(ps->p + lits[i].len, ps->end);
			return push(ps, lits[i].type) != NULL;
		}
	}
	return false;
}

/* Open an object or array at ps->p: a new value on the stack of open containers. */
static bool open_container(struct parser *ps, uint8_t type)
{
	struct jv_doc *d = ps->d;
	if (++ps->depth > MAX_DEPTH)
		return false;
	if (!grow((void **)&d->stack, &d->stack_cap, ps->depth, sizeof(*d->stack)))
		return false;
	if (!push(ps, type))
		return false;
	d->stack[ps->depth - 1] = (uint32_t)(d->nv - 1);
	ps->p++;
	return true;
}

/* Close the innermost container: it now knows its subtree. */
static void close_container(struct parser *ps)
{
	struct jv_doc *d = ps->d;
	uint32_t at = d->stack[--ps->depth];
	d->v[at].skip = (uint32_t)(d->nv - at);
	ps->p++;
}

/* An object's key and its colon; ps->p is on the key's opening quote (or not: false). */
static bool parse_key(struct parser *ps)
{
	if (ps->p >= ps->end || *ps->p != '"' || !parse_string(ps))
		return false;
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != ':')
		return false;
	ps->p++;
	skip_ws(ps);
	return true;
}

/*
 * One value at ps->p. A container is only opened here (its members follow
 * in the main loop); *opened says so.
 */
static bool parse_value(struct parser *ps, bool *opened)
{
	*opened = false;
	if (ps->p >= ps->end)
		return false;
	/* jansson counts every value's depth, a scalar's too. */
	if (*ps->p != '{' && *ps->p != '[' && ps->depth + 1 > MAX_DEPTH)
		return false;
	switch (*ps->p) {
	case '{':
		*opened = true;
		return open_container(ps, JV_OBJECT);
	case '[':
		*opened = true;
		return open_container(ps, JV_ARRAY);
	case '"':
		return parse_string(ps);
	case 't':
	case 'f':
	case 'n':
		return parse_literal(ps);
	default:
		return (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) && parse_number(ps);
	}
}

/*
 * After '{' or '[' (first == true) or after a member: the next member, or the
 * container's end. Returns 1 when a value is to be parsed next, 0 when the
 * container closed, -1 on an error.
 */
static int next_member(struct parser *ps, bool first)
{
	struct jv *c = &ps->d->v[ps->d->stack[ps->depth - 1]];
	char close = c->type == JV_OBJECT ? '}' : ']';
	skip_ws(ps);
	if (ps->p >= ps->end)
		return -1;
	if (*ps->p == close) {
		close_container(ps);
		return 0;
	}
	if (!first) {
		if (*ps->p != ',')
			return -1;
		ps->p++;
		skip_ws(ps);
	}
	c->n++;
	if (c->type == JV_OBJECT && !parse_key(ps))
		return -1;
	return 1;
}

/*
 * In an array, after a number: the numbers that follow at once ("1,2,3" as
 * compact JSON writes a histogram's buckets), in one tight loop. Anything
 * else is left to the general loop.
 */
static bool number_run(struct parser *ps)
{
	struct jv_doc *d = ps->d;
	uint32_t at = d->stack[ps->depth - 1];
	if (d->v[at].type != JV_ARRAY)
		return true;
	while (ps->end - ps->p >= 2 && ps->p[0] == ',' && ((ps->p[1] >= '0' && ps->p[1] <= '9') || ps->p[1] == '-')) {
		ps->p++;
		d->v[at].n++;
		if (!parse_number(ps))
			return false;
	}
	return true;
}

const struct jv *jv_parse(struct jv_doc *d, const char *text, size_t len)
{
	/* Unescaped strings never outgrow their quoted text: len + 1 bytes hold them all. */
	if (!grow((void **)&d->str, &d->str_cap, len + 1, 1))
		return NULL;
	struct parser ps = { .d = d, .p = text, .end = text + len, .s = d->str };
	d->nv = 0;
	skip_ws(&ps);
	if (ps.p >= ps.end || (*ps.p != '{' && *ps.p != '['))
		return NULL;
	bool opened, first = true;
	if (!parse_value(&ps, &opened))
		return NULL;
	while (ps.depth > 0) {
		int r = next_member(&ps, first);
		if (r < 0)
			return NULL;
		if (r == 0) {
			first = false; /* a closed container is a member of the one around it */
			continue;
		}
		if (!parse_value(&ps, &opened))
			return NULL;
		first = opened;
		uint8_t t = d->v[d->nv - 1].type;
		if (!opened && (t == JV_INT || t == JV_REAL) && !number_run(&ps))
			return NULL;
	}
	skip_ws(&ps);
	return ps.p == ps.end ? d->v : NULL;
}

void jv_error(const char *text, size_t len, json_error_t *err)
{
	json_t *j = json_loadb(text, len, 0, err);
	if (j) {
		/* jansson took it: only memory can have failed here. */
		json_decref(j);
		snprintf(err->text, sizeof(err->text), "out of memory");
		err->column = 0;
	}
}

const struct jv *jv_object_get(const struct jv *obj, const char *key)
{
	if (!jv_is_object(obj))
		return NULL;
	const struct jv *m = obj + 1, *found = NULL;
	for (uint32_t i = 0; i < obj->n; i++) {
		const struct jv *val = m + 1;
		if (m->u.s[0] == key[0] && strcmp(m->u.s, key) == 0)
			found = val;
		m = val + val->skip;
	}
	return found;
}

const struct jv *jv_array_get(const struct jv *arr, size_t i)
{
	if (!jv_is_array(arr) || i >= arr->n)
		return NULL;
	const struct jv *v = arr + 1;
	while (i-- > 0)
		v += v->skip;
	return v;
}

/* True when the key of member m is also an earlier member's of obj. */
static bool seen_before(const struct jv *obj, const struct jv *m)
{
	for (const struct jv *o = obj + 1; o < m; o += 1 + o[1].skip)
		if (strcmp(o->u.s, m->u.s) == 0)
			return true;
	return false;
}

const struct jv *jv_object_next(const struct jv *obj, const struct jv *m, const char **key, const struct jv **v)
{
	if (!jv_is_object(obj))
		return NULL;
	const struct jv *end = obj + obj->skip;
	m = m ? m + 1 + m[1].skip : obj + 1;
	for (; m < end; m += 1 + m[1].skip) {
		if (seen_before(obj, m))
			continue;
		*key = m->u.s;
		/* jansson keeps a repeated key where it first came, with its last value */
		*v = jv_object_get(obj, m->u.s);
		return m;
	}
	return NULL;
}

json_t *jv_to_json(const struct jv *v)
{
	switch (v->type) {
	case JV_NULL:
		return json_null();
	case JV_FALSE:
		return json_false();
	case JV_TRUE:
		return json_true();
	case JV_INT:
		return json_integer((json_int_t)v->u.i);
	case JV_REAL:
		return json_real(v->u.d);
	case JV_STRING:
		return json_stringn_nocheck(v->u.s, v->n);
	case JV_ARRAY: {
		json_t *a = json_array();
		const struct jv *e = v + 1;
		for (uint32_t i = 0; a && i < v->n; i++, e += e->skip)
			if (json_array_append_new(a, jv_to_json(e)) != 0) {
				json_decref(a);
				return NULL;
			}
		return a;
	}
	case JV_OBJECT: {
		json_t *o = json_object();
		const struct jv *m = v + 1;
		/* In order, each set replacing an earlier one of the same key, as jansson's parser does. */
		for (uint32_t i = 0; o && i < v->n; i++, m += 1 + m[1].skip)
			if (json_object_set_new_nocheck(o, m->u.s, jv_to_json(m + 1)) != 0) {
				json_decref(o);
				return NULL;
			}
		return o;
	}
	}
	return NULL;
}

/* jv_dumps's text so far: bytes in p[0..n), room for cap; p NULL once memory ran out. */
struct dump {
	char *p;
	size_t n, cap;
};

static void put(struct dump *o, const char *s, size_t len)
{
	if (!o->p)
		return;
	if (!grow((void **)&o->p, &o->cap, o->n + len + 1, 1)) {
		free(o->p);
		o->p = NULL;
		return;
	}
	memcpy(o->p + o->n, s, len);
	o->n += len;
	o->p[o->n] = '\0';
}

/* A string as jansson's dump_string writes it without flags: UTF-8 as it is, '"', '\\' and controls escaped. */
static void put_string(struct dump *o, const char *s, size_t len)
{
	put(o, "\"", 1);
	size_t from = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		put(o, s + from, i - from);
		from = i + 1;
		char seq[8];
		const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f" :
				  c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
		if (!esc) {
			snprintf(seq, sizeof(seq), "\\u%04X", c);
			esc = seq;
		}
		put(o, esc, strlen(esc));
	}
	put(o, s + from, len - from);
	put(o, "\"", 1);
}

/* A real as jansson's jsonp_dtostr writes it at its default precision: %.17g, a ".0" when it would read as an integer, the exponent without '+' or leading zeros. */
static void put_real(struct dump *o, double d)
{
	char buf[48];
	int len = snprintf(buf, sizeof(buf), "%.17g", d);
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		memcpy(buf + len, ".0", 3);
		len += 2;
	}
	char *e = strchr(buf, 'e');
	if (e) {
		char *start = e + 1, *end = e + 2;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)(buf + len - end) + 1);
			len -= (int)(end - start);
		}
	}
	put(o, buf, (size_t)len);
}

static void put_value(struct dump *o, const struct jv *v)
{
	char buf[32];
	switch (v->type) {
	case JV_NULL:
		put(o, "null", 4);
		break;
	case JV_FALSE:
		put(o, "false", 5);
		break;
	case JV_TRUE:
		put(o, "true", 4);
		break;
	case JV_INT:
		put(o, buf, (size_t)snprintf(buf, sizeof(buf), "%" PRId64, v->u.i));
		break;
	case JV_REAL:
		put_real(o, v->u.d);
		break;
	case JV_STRING:
		put_string(o, v->u.s, v->n);
		break;
	case JV_ARRAY: {
		const struct jv *e;
		size_t i;
		put(o, "[", 1);
		jv_array_foreach(v, i, e) {
			if (i)
				put(o, ",", 1);
			put_value(o, e);
		}
		put(o, "]", 1);
		break;
	}
	case JV_OBJECT: {
		const char *key;
		const struct jv *m;
		bool first = true;
		put(o, "{", 1);
		jv_object_foreach(v, key, m) {
			if (!first)
				put(o, ",", 1);
			first = false;
			put_string(o, key, strlen(key));
			put(o, ":", 1);
			put_value(o, m);
		}
		put(o, "}", 1);
		break;
	}
	}
}

char *jv_dumps(const struct jv *v)
{
	struct dump o = { .p = malloc(64), .cap = 64 };
	if (o.p)
		o.p[0] = '\0';
	put_value(&o, v);
	return o.p;
}
