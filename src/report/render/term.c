/* report/render/term.c - text for a terminal: what data holds, shown without control sequences. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render/term.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/*
 * The length of the character at s (n bytes left), and whether it may be
 * shown; a byte that starts no valid character is 1 byte, not shown.
 */
static size_t char_at(const unsigned char *s, size_t n, bool *shown)
{
	unsigned char b = s[0];
	*shown = false;
	if (b < 0x20 || b == 0x7f)
		return 1;
	if (b < 0x80) {
		*shown = true;
		return 1;
	}
	size_t len;
	uint32_t cp, min;
	if (b >= 0xc2 && b <= 0xdf) {
		len = 2, cp = b & 0x1f, min = 0x80;
	} else if (b >= 0xe0 && b <= 0xef) {
		len = 3, cp = b & 0x0f, min = 0x800;
	} else if (b >= 0xf0 && b <= 0xf4) {
		len = 4, cp = b & 0x07, min = 0x10000;
	} else {
		return 1;
	}
	if (len > n)
		return 1;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 1;
	/* C1 controls, and the overrides that reorder what a terminal shows */
	*shown = !(cp <= 0x9f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069));
	return len;
}

/*
 * Where cleaned text goes: a FILE, or a buffer of len bytes (used of them
 * filled, cut at a character's start); n counts all of it, as snprintf would.
 */
struct sink {
	FILE *out;
	char *buf;
	size_t len, used, n;
	bool full; /* the buffer is full: nothing more goes in */
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (k->out) {
		fwrite(s, 1, n, k->out);
	} else if (!k->full && k->len > 0) {
		size_t room = k->len - 1 - k->used, c = n;
		if (c > room) {
			/* what fits, cut where a character starts */
			c = room;
			while (c > 0 && ((unsigned char)s[c] & 0xc0) == 0x80)
				c--;
			k->full = true;
		}
		memcpy(k->buf + k->used, s, c);
		k->used += c;
	}
	k->n += n;
}

/* The first n bytes of s (up to its NUL), cleaned, into k. */
static void put_clean(struct sink *k, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n && p[i]) {
		bool shown;
		size_t left = strnlen(s + i, n - i);
		size_t c = char_at(p + i, left, &shown);
		put(k, shown ? s + i : "?", shown ? c : 1);
		i += c;
	}
}

static void sink_end(struct sink *k)
{
	if (!k->out && k->len > 0)
		k->buf[k->used] = '\0';
}

char *term_clean(char *dst, size_t len, const char *s)
{
	if (len == 0)
		return dst;
	if (!s)
		s = "";
	/* in place is safe: each character becomes itself or one '?' */
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0;
	while (i < n) {
		bool shown;
		size_t c = char_at(p + i, n - i, &shown);
		size_t w = shown ? c : 1;
		if (o + w >= len)
			break;
		if (shown)
			memmove(dst + o, s + i, c);
		else
			dst[o] = '?';
		o += w;
		i += c;
	}
	dst[o] = '\0';
	return dst;
}

void term_write(FILE *out, const char *s, size_t n)
{
	struct sink k = { .out = out };
	if (s)
		put_clean(&k, s, n);
}

void term_puts(FILE *out, const char *s)
{
	if (s)
		term_write(out, s, strlen(s));
}

/* One conversion, formatted as printf does, into k. */
__attribute__((format(printf, 2, 3)))
static void emit(struct sink *k, const char *spec, ...)
{
	char small[256], *text = small;
	va_list ap;
	va_start(ap, spec);
	int n = vsnprintf(small, sizeof(small), spec, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (!text)
			return;
		va_start(ap, spec);
		vsnprintf(text, (size_t)n + 1, spec, ap);
		va_end(ap);
	}
	put(k, text, (size_t)n);
	if (text != small)
		free(text);
}

/* A %s argument: cleaned (at most prec bytes of it read when prec >= 0), then padded to width. */
static void emit_string(struct sink *k, const char *s, bool left, int width, int prec)
{
	if (!s)
		s = "(null)";
	size_t n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
	struct sink clean = { .buf = malloc(n + 1), .len = n + 1 };
	if (!clean.buf)
		return;
	put_clean(&clean, s, n);
	sink_end(&clean);
	size_t w = clean.used, pad = width > 0 && (size_t)width > w ? (size_t)width - w : 0;
	for (size_t i = 0; !left && i < pad; i++)
		put(k, " ", 1);
	put(k, clean.buf, w);
	for (size_t i = 0; left && i < pad; i++)
		put(k, " ", 1);
	free(clean.buf);
}

static int format(struct sink *k, const char *fmt, va_list ap)
{
	va_list args;
	va_copy(args, ap);
	const char *p = fmt;
	while (*p) {
		const char *pct = strchr(p, '%');
		if (!pct) {
			put(k, p, strlen(p));
			break;
		}
		put(k, p, (size_t)(pct - p));
		p = pct + 1;
		if (*p == '%') {
			put(k, "%", 1);
			p++;
			continue;
		}
		/* the conversion, with any '*' replaced by its number */
		char spec[64] = "%";
		size_t o = 1;
		bool left = false;
		int width = -1, prec = -1;
		while (*p && strchr("-+ #0'", *p)) {
			left |= *p == '-';
			if (o < sizeof(spec) - 24)
				spec[o++] = *p;
			p++;
		}
		if (*p == '*') {
			width = va_arg(args, int);
			if (width < 0) {
				left = true;
				width = -width;
				spec[o++] = '-';
			}
			o += (size_t)snprintf(spec + o, sizeof(spec) - o, "%d", width);
			p++;
		} else {
			width = 0;
			while (*p >= '0' && *p <= '9') {
				width = width * 10 + (*p - '0');
				if (o < sizeof(spec) - 24)
					spec[o++] = *p;
				p++;
			}
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				prec = va_arg(args, int);
				p++;
			} else {
				prec = 0;
				while (*p >= '0' && *p <= '9')
					prec = prec * 10 + (*p++ - '0');
			}
			if (prec >= 0)
				o += (size_t)snprintf(spec + o, sizeof(spec) - o, ".%d", prec);
		}
		char len[3] = "";
		size_t nl = 0;
		while (*p && strchr("hljztLq", *p) && nl < 2)
			len[nl++] = *p++;
		len[nl] = '\0';
		memcpy(spec + o, len, nl);
		o += nl;
		char conv = *p ? *p++ : '\0';
		spec[o++] = conv;
		spec[o] = '\0';
		bool h = strcmp(len, "h") == 0, hh = strcmp(len, "hh") == 0, l = strcmp(len, "l") == 0;
		bool ll = strcmp(len, "ll") == 0 || strcmp(len, "q") == 0, j = strcmp(len, "j") == 0;
		bool z = strcmp(len, "z") == 0, t = strcmp(len, "t") == 0, L = strcmp(len, "L") == 0;
		switch (conv) {
		case 's':
			emit_string(k, va_arg(args, const char *), left, width, prec);
			break;
		case 'c': {
			int c = va_arg(args, int);
			char one[2] = { (char)c, '\0' };
			emit_string(k, one, left, width, -1);
			break;
		}
		case 'd':
		case 'i':
			if (l)
				emit(k, spec, va_arg(args, long));
			else if (ll)
				emit(k, spec, va_arg(args, long long));
			else if (j)
				emit(k, spec, va_arg(args, intmax_t));
			else if (z)
				emit(k, spec, va_arg(args, ssize_t));
			else if (t)
				emit(k, spec, va_arg(args, ptrdiff_t));
			else if (h || hh || !len[0])
				emit(k, spec, va_arg(args, int));
			else
				goto bad;
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			if (l)
				emit(k, spec, va_arg(args, unsigned long));
			else if (ll)
				emit(k, spec, va_arg(args, unsigned long long));
			else if (j)
				emit(k, spec, va_arg(args, uintmax_t));
			else if (z)
				emit(k, spec, va_arg(args, size_t));
			else if (t)
				emit(k, spec, va_arg(args, ptrdiff_t));
			else if (h || hh || !len[0])
				emit(k, spec, va_arg(args, unsigned int));
			else
				goto bad;
			break;
		case 'f':
		case 'F':
		case 'e':
		case 'E':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			if (L)
				emit(k, spec, va_arg(args, long double));
			else if (!len[0] || l)
				emit(k, spec, va_arg(args, double));
			else
				goto bad;
			break;
		case 'p':
			emit(k, spec, va_arg(args, void *));
			break;
		default:
			goto bad;
		}
	}
	va_end(args);
	return k->n > INT32_MAX ? -1 : (int)k->n;
bad:
	va_end(args);
	return -1;
}

int term_vsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	struct sink k = { .buf = buf, .len = len };
	int n = format(&k, fmt, ap);
	sink_end(&k);
	return n;
}

int term_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = term_vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

int term_vfprintf(FILE *out, const char *fmt, va_list ap)
{
	struct sink k = { .out = out };
	return format(&k, fmt, ap);
}

int term_printf(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = term_vfprintf(out, fmt, ap);
	va_end(ap);
	return n;
}
