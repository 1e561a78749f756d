/*
 * SPDX-License-Identifier: Apache-2.0
 * json-cost - why the report keeps two JSON models: the same result lines
 * parsed by the report's own reader (report/json.c, jv_parse: one flat
 * array reused line after line) and by jansson (json_loadb: a tree of
 * allocations, freed after each line), and what a line's non-string facts
 * cost written as text: through a jansson value and provision_text() (as
 * the report did) or straight from the parsed value (jv_dumps, as it does).
 * Each pass reads every line of FILE; the passes alternate, A B A B, and
 * the best of ROUNDS of each is printed with the ratio.
 *
 * usage: json-cost FILE [ROUNDS]
 * build: make build/report.a build/host.a build/lib.a && cc -O2 -std=gnu11 -D_GNU_SOURCE -Isrc \
 *            -o json-cost bench/json-cost.c build/report.a build/host.a build/lib.a -ljansson -lm
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/provision.h"
#include "report/base/json.h"

struct lines {
	char **p;
	size_t *len, n, bytes;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int load(const char *path, struct lines *l)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0, room = 0;
	ssize_t n;
	memset(l, 0, sizeof(*l));
	while ((n = getline(&line, &cap, f)) > 0) {
		if (l->n == room) {
			room = room ? room * 2 : 1024;
			l->p = realloc(l->p, room * sizeof(*l->p));
			l->len = realloc(l->len, room * sizeof(*l->len));
			if (!l->p || !l->len)
				return -1;
		}
		l->p[l->n] = strndup(line, (size_t)n);
		l->len[l->n++] = (size_t)n;
		l->bytes += (size_t)n;
	}
	free(line);
	fclose(f);
	return l->n ? 0 : -1;
}

/* Every line with jv_parse; returns a checksum (values seen), so nothing is optimised away. */
static size_t pass_jv(const struct lines *l, struct jv_doc *d)
{
	size_t sum = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct jv *root = jv_parse(d, l->p[i], l->len[i]);
		sum += root ? root->skip : 0;
	}
	return sum;
}

/* Every line with json_loadb, freed after it. */
static size_t pass_jansson(const struct lines *l)
{
	size_t sum = 0;
	for (size_t i = 0; i < l->n; i++) {
		json_t *root = json_loadb(l->p[i], l->len[i], 0, NULL);
		sum += json_object_size(root);
		json_decref(root);
	}
	return sum;
}

/* The non-string members of each line's labels and provision as text; old: through jansson, as the report did. */
static size_t pass_facts(const struct lines *l, struct jv_doc *d, bool old)
{
	static const char *const objs[] = { "labels", "provision", "notes" };
	size_t sum = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct jv *root = jv_parse(d, l->p[i], l->len[i]);
		for (size_t k = 0; root && k < sizeof(objs) / sizeof(objs[0]); k++) {
			const char *key;
			const struct jv *v;
			jv_object_foreach(jv_object_get(root, objs[k]), key, v) {
				if (jv_is_string(v))
					continue;
				char *t = NULL, buf[PROVISION_REAL_LEN];
				if (old) {
					json_t *j = jv_to_json(v);
					t = j ? provision_text(j) : NULL;
					json_decref(j);
				} else if (v->type == JV_REAL) {
					provision_real_text(v->u.d, buf);
					t = strdup(buf);
				} else {
					t = jv_dumps(v);
				}
				sum += t ? strlen(t) : 0;
				free(t);
			}
		}
	}
	return sum;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: json-cost FILE [ROUNDS]\n");
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	struct lines l;
	if (rounds <= 0 || load(argv[1], &l) != 0) {
		fprintf(stderr, "json-cost: %s: no lines read; give a file of JSON lines and a positive ROUNDS\n", argv[1]);
		return 1;
	}
	struct jv_doc d;
	jv_doc_init(&d);
	double best[4] = { 1e300, 1e300, 1e300, 1e300 };
	size_t sums[4] = { 0 };
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < 4; k++) {
			double t0 = now();
			sums[k] = k == 0 ? pass_jv(&l, &d) : k == 1 ? pass_jansson(&l) : pass_facts(&l, &d, k == 3);
			double t = now() - t0;
			if (t < best[k])
				best[k] = t;
		}
	}
	if (sums[2] != sums[3])
		fprintf(stderr, "json-cost: the two fact texts differ in length (%zu vs %zu bytes)\n", sums[2], sums[3]);
	printf("%zu lines, %.1f MB, best of %d rounds (cpu time)\n", l.n, (double)l.bytes / 1e6, rounds);
	printf("parse, jv_parse (report/json.c)   %8.3f s  %7.2f us a line  %7.1f MB/s\n", best[0],
	       best[0] / (double)l.n * 1e6, (double)l.bytes / 1e6 / best[0]);
	printf("parse, json_loadb (jansson)       %8.3f s  %7.2f us a line  %7.1f MB/s   jansson / jv %.2fx\n", best[1],
	       best[1] / (double)l.n * 1e6, (double)l.bytes / 1e6 / best[1], best[1] / best[0]);
	printf("parse + facts as text, jv_dumps   %8.3f s  %7.2f us a line\n", best[2], best[2] / (double)l.n * 1e6);
	printf("parse + facts as text, jansson    %8.3f s  %7.2f us a line   jansson / jv %.2fx (facts alone %.2fx)\n",
	       best[3], best[3] / (double)l.n * 1e6, best[3] / best[2],
	       best[2] > best[0] ? (best[3] - best[0]) / (best[2] - best[0]) : 0);
	jv_doc_free(&d);
	return 0;
}
