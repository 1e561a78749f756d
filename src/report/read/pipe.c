/*
 * SPDX-License-Identifier: Apache-2.0
 * report/read/pipe.c - documents read on worker threads, added in input order.
 *
 * The caller fills batches (a few hundred documents of one file, or a MiB
 * of text) and hands each over whole; workers take any batch handed over
 * and read it; the caller adds batches strictly oldest first, waiting for
 * the oldest when all slots are taken. One mutex and two condition
 * variables, touched once per batch, not per line.
 */
#include "report/read/pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report/base/alloc.h"
#include "report/base/json.h"
#include "report/read/line.h"
#include "report/store/warn.h"

/* A batch is handed over at this many documents, or this much text. */
#define BATCH_DOCS 256
#define BATCH_TEXT (1u << 20)

struct item {
	unsigned long lineno;
	size_t off, len;      /* its text in the batch: the document, or the message */
	bool is_msg, skipped;
	struct rep_line line; /* what the document adds, once read */
};

enum batch_state { SLOT_FREE, SLOT_FILLING, SLOT_QUEUED, SLOT_READING, SLOT_READ };

struct batch {
	enum batch_state state;
	char *name, *host;    /* the file's */
	char *labels;         /* its layout's labels, or NULL */
	bool explicit_file;
	bool heat;            /* keep the time buckets' histograms (db->keep_heat) */
	char *text;
	size_t len, cap;
	struct item *items;
	size_t n, cap_items;
};

struct rep_pipe {
	struct rep_db *db;
	unsigned nthreads;
	pthread_t *threads;
	pthread_mutex_t lock;
	pthread_cond_t work;  /* a batch was queued, or stop */
	pthread_cond_t done;  /* a batch was read */
	bool stop;
	struct batch *ring;   /* slots; head is the oldest not yet added */
	size_t nring, head, count;
	struct batch *fill;   /* the batch being filled (the caller's alone), or NULL */
	char *name, *host;    /* the current file */
	char *labels;         /* its layout's labels, or NULL */
	bool explicit_file;
	struct jv_doc doc;    /* the caller's, when there are no threads */
};

static void read_batch(struct batch *b, struct jv_doc *doc)
{
	for (size_t i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];
		if (!it->is_msg)
			rep_line_read(&it->line, doc, b->text + it->off, it->len, b->host, b->labels,
				      b->explicit_file, b->heat);
	}
}

static void *worker(void *arg)
{
	struct rep_pipe *p = arg;
	struct jv_doc doc;
	jv_doc_init(&doc);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct batch *b = NULL;
		for (size_t k = 0; k < p->count && !b; k++) {
			struct batch *c = &p->ring[(p->head + k) % p->nring];
			if (c->state == SLOT_QUEUED)
				b = c;
		}
		if (!b) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->work, &p->lock);
			continue;
		}
		b->state = SLOT_READING;
		pthread_mutex_unlock(&p->lock);
		read_batch(b, &doc);
		pthread_mutex_lock(&p->lock);
		b->state = SLOT_READ;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	jv_doc_free(&doc);
	return NULL;
}

struct rep_pipe *rep_pipe_new(struct rep_db *db, unsigned jobs)
{
	struct rep_pipe *p = rep_calloc(1, sizeof(*p));
	p->db = db;
	jv_doc_init(&p->doc);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	/* Enough slots that the workers always find one while the oldest is added. */
	p->nring = jobs > 1 ? 2 * (size_t)jobs + 2 : 1;
	p->ring = rep_calloc(p->nring, sizeof(*p->ring));
	if (jobs > 1) {
		p->threads = rep_calloc(jobs, sizeof(*p->threads));
		for (unsigned i = 0; i < jobs; i++)
			if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) == 0)
				p->nthreads++;
		/* No thread at all: read on the caller's, as with --jobs 1. */
	}
	return p;
}

/* Add the oldest batch (read) to the store, messages and all, and free its slot. */
static void add_oldest(struct rep_pipe *p)
{
	struct batch *b = &p->ring[p->head];
	for (size_t i = 0; i < b->n; i++) {
		struct item *it = &b->items[i];
		if (it->is_msg) {
			rep_warn(p->db, "%s:%lu: %s", b->name, it->lineno, b->text + it->off);
			p->db->skipped += it->skipped;
		} else {
			rep_line_add(p->db, &it->line, b->name, it->lineno);
			rep_line_free(&it->line);
		}
	}
	b->n = 0;
	b->len = 0;
	free(b->name);
	free(b->host);
	free(b->labels);
	b->name = b->host = b->labels = NULL;
	/* The workers look at the ring under the lock. */
	pthread_mutex_lock(&p->lock);
	b->state = SLOT_FREE;
	p->head = (p->head + 1) % p->nring;
	p->count--;
	pthread_mutex_unlock(&p->lock);
}

/* Hand the filling batch over: to the workers, or read it here when there are none. */
static void hand_over(struct rep_pipe *p)
{
	struct batch *b = p->fill;
	if (!b)
		return;
	p->fill = NULL;
	if (!p->nthreads) {
		read_batch(b, &p->doc);
		b->state = SLOT_READ;
		add_oldest(p);
		return;
	}
	pthread_mutex_lock(&p->lock);
	b->state = SLOT_QUEUED;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

/*
 * With p->lock held: add what is read, oldest first (the lock is let go
 * while each batch is added). all: until every batch is added (waiting for
 * the readers); else until the oldest is still being read and a slot is
 * free (waiting only while every slot is taken).
 */
static void add_ready(struct rep_pipe *p, bool all)
{
	while (p->count && (all || p->ring[p->head].state == SLOT_READ || p->count == p->nring)) {
		if (p->ring[p->head].state != SLOT_READ) {
			pthread_cond_wait(&p->done, &p->lock);
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		add_oldest(p);
		pthread_mutex_lock(&p->lock);
	}
}

/* The batch being filled, after handing over a full one; a new slot (waiting for the oldest) if none. */
static struct batch *filling(struct rep_pipe *p)
{
	if (p->fill) {
		if (p->fill->n < BATCH_DOCS && p->fill->len < BATCH_TEXT)
			return p->fill;
		hand_over(p);
	}
	pthread_mutex_lock(&p->lock);
	add_ready(p, false);
	struct batch *b = &p->ring[(p->head + p->count) % p->nring];
	p->count++;
	b->state = SLOT_FILLING;
	pthread_mutex_unlock(&p->lock);
	b->name = rep_strdup(p->name);
	b->host = rep_strdup(p->host);
	b->labels = p->labels ? rep_strdup(p->labels) : NULL;
	b->explicit_file = p->explicit_file;
	b->heat = p->db->keep_heat;
	p->fill = b;
	return b;
}

void rep_pipe_file(struct rep_pipe *p, const char *name, const char *host, const char *labels, bool explicit_file)
{
	/* A batch holds one file's documents: the next ones start a new batch. */
	hand_over(p);
	free(p->name);
	free(p->host);
	free(p->labels);
	p->name = rep_strdup(name);
	p->host = rep_strdup(host);
	p->labels = labels ? rep_strdup(labels) : NULL;
	p->explicit_file = explicit_file;
}

/* A new item of b with text[0..len) copied (and NUL-terminated). */
static struct item *item_add(struct batch *b, unsigned long lineno, const char *text, size_t len)
{
	if (b->n == b->cap_items) {
		b->cap_items = b->cap_items ? b->cap_items * 2 : 64;
		b->items = rep_realloc(b->items, b->cap_items * sizeof(*b->items));
	}
	if (b->len + len + 1 > b->cap) {
		b->cap = (b->len + len + 1) * 2;
		b->text = rep_realloc(b->text, b->cap);
	}
	struct item *it = &b->items[b->n++];
	memset(it, 0, sizeof(*it));
	it->lineno = lineno;
	it->off = b->len;
	it->len = len;
	memcpy(b->text + b->len, text, len);
	b->text[b->len + len] = '\0';
	b->len += len + 1;
	return it;
}

void rep_pipe_doc(struct rep_pipe *p, unsigned long lineno, const char *text, size_t len)
{
	item_add(filling(p), lineno, text, len);
}

void rep_pipe_msg(struct rep_pipe *p, unsigned long lineno, const char *msg, bool skipped)
{
	struct item *it = item_add(filling(p), lineno, msg, strlen(msg));
	it->is_msg = true;
	it->skipped = skipped;
}

void rep_pipe_sync(struct rep_pipe *p)
{
	hand_over(p);
	pthread_mutex_lock(&p->lock);
	add_ready(p, true);
	pthread_mutex_unlock(&p->lock);
}

void rep_pipe_free(struct rep_pipe *p)
{
	if (!p)
		return;
	rep_pipe_sync(p);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	for (size_t i = 0; i < p->nring; i++) {
		free(p->ring[i].text);
		free(p->ring[i].items);
	}
	free(p->ring);
	free(p->threads);
	free(p->name);
	free(p->host);
	free(p->labels);
	jv_doc_free(&p->doc);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	free(p);
}
