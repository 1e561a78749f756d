/* units.c - sizes, counts and durations as text. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	char suffix;
	unsigned shift;
} size_units[] = {
	{ 'k', 10 }, { 'm', 20 }, { 'g', 30 }, { 't', 40 }, { 'p', 50 },
};

static const char signature_units[] = "_KMGTP";

int units_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	if (text == NULL || !isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int units_parse_size(const char *text, uint64_t *out)
{
	if (text == NULL || !isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	unsigned shift = 0;
	if (*end != '\0') {
		char c = (char)tolower((unsigned char)*end);
		size_t i;
		for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++)
			if (size_units[i].suffix == c)
				break;
		if (i < sizeof(size_units) / sizeof(size_units[0])) {
			shift = size_units[i].shift;
			end++;
			if (strcasecmp(end, "ib") == 0)
				end += 2;
		}
		if (strcasecmp(end, "b") == 0)
			end++;
		if (*end != '\0')
			return -EINVAL;
	}
	if (shift && v > (UINT64_MAX >> 1) >> shift)
		return -ERANGE;
	if (v << shift > (uint64_t)INT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

static size_t digits_at(const char *p)
{
	size_t n = 0;
	while (isdigit((unsigned char)p[n]))
		n++;
	return n;
}

int units_parse_decimal(const char *text, double *out, const char **end)
{
	if (text == NULL)
		return -EINVAL;
	size_t n = digits_at(text), mantissa = n;
	if (text[n] == '.') {
		size_t f = digits_at(text + n + 1);
		mantissa += f;
		n += 1 + f;
	}
	if (mantissa == 0)
		return -EINVAL;
	if (text[n] == 'e' || text[n] == 'E') {
		size_t sign = text[n + 1] == '+' || text[n + 1] == '-';
		size_t x = digits_at(text + n + 1 + sign);
		if (x > 0)
			n += 1 + sign + x;
	}
	/* strtod on a copy of just that span: it would read "0x10" as hex. */
	char buf[128];
	if (n >= sizeof(buf))
		return -ERANGE;
	memcpy(buf, text, n);
	buf[n] = '\0';
	errno = 0;
	double v = strtod(buf, NULL);
	if (errno == ERANGE || isinf(v) || (v == 0 && strspn(buf, "0.") < strcspn(buf, "eE")))
		return -ERANGE;
	*out = v;
	if (end)
		*end = text + n;
	return 0;
}

int units_parse_duration(const char *text, uint64_t *out_ns)
{
	const char *end;
	double v;
	int rc = units_parse_decimal(text, &v, &end);
	if (rc < 0)
		return rc;
	double scale = 1;
	if (strcmp(end, "s") == 0 || *end == '\0')
		scale = 1;
	else if (strcmp(end, "ms") == 0)
		scale = 1e-3;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		scale = 60;
	else if (strcmp(end, "h") == 0)
		scale = 3600;
	else if (strcmp(end, "d") == 0)
		scale = 86400;
	else
		return -EINVAL;
	double ns = v * scale * 1e9;
	if (!(ns >= 1e6) || ns > 100.0 * 86400 * 1e9)
		return -ERANGE;
	*out_ns = (uint64_t)llround(ns);
	return 0;
}

double units_duration_ns(const char *unit)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "\xce\xbcs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].unit) == 0)
			return units[i].ns;
	return 0;
}

int units_parse_latency(const char *text, double *out_ns)
{
	const char *end;
	double v;
	int rc = units_parse_decimal(text, &v, &end);
	if (rc < 0)
		return rc;
	if (*end == '\0')
		return -EDOM;
	double unit = units_duration_ns(end);
	if (!(unit > 0))
		return -EINVAL;
	double ns = v * unit;
	if (!(ns <= 3600e9))
		return -ERANGE;
	*out_ns = ns;
	return 0;
}

int units_parse_percent(const char *text, double *out)
{
	const char *end;
	double v;
	int rc = units_parse_decimal(text, &v, &end);
	if (rc < 0)
		return rc;
	if (*end != '\0' && strcmp(end, "%") != 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int units_format_signature_size(char *buf, size_t len, uint64_t bytes)
{
	for (int i = (int)strlen(signature_units) - 1; i > 0; i--) {
		uint64_t unit = 1ULL << (10 * i);
		if (bytes != 0 && bytes % unit == 0)
			return snprintf(buf, len, "%llu%c",
					(unsigned long long)(bytes / unit), signature_units[i]);
	}
	return snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

int units_format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t i = 0;
	while (i + 1 < sizeof(names) / sizeof(names[0]) && bytes >> (10 * (i + 1)) > 0)
		i++;
	if (i == 0)
		return snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	/* Rounded down, never up: 4,095 bytes are "3.99 KiB", not the "4.00 KiB" of a whole page. */
	unsigned __int128 hundredths = (unsigned __int128)bytes * 100 >> (10 * i);
	return snprintf(buf, len, "%llu.%02llu %s", (unsigned long long)(hundredths / 100),
			(unsigned long long)(hundredths % 100), names[i]);
}

int units_format_ns(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *name;
	} steps[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (ns >= steps[i].scale || i + 1 == sizeof(steps) / sizeof(steps[0])) {
			double v = ns / steps[i].scale;
			int prec = v >= 100 ? 0 : v >= 10 ? 1 : 2;
			return snprintf(buf, len, "%.*f%s", prec, v, steps[i].name);
		}
	}
	return 0;
}
