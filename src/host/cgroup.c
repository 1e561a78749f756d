/* cgroup.c - the memory limit of this process's cgroup (v1 or v2), for the page-cache warning. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/cgroup.h"
#include "host/mounts.h"
#include "lib/fileio.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v1 "unlimited" is the largest page-aligned long (9223372036854771712); anything near it is no limit. */
#define NO_LIMIT (1ULL << 62)

/* True when word is one of the comma-separated items of list. */
static bool has_item(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

struct hierarchy {
	bool v2;
	char *mnt, *root;
	size_t mlen, rlen;
};

static bool is_hierarchy(const struct mount_entry *m, void *arg)
{
	struct hierarchy *h = arg;
	if (h->v2 ? strcmp(m->fstype, "cgroup2") != 0 : strcmp(m->fstype, "cgroup") != 0 || !has_item(m->super, "memory"))
		return false;
	if (strlen(m->point) >= h->mlen || strlen(m->root) >= h->rlen)
		return false;
	strcpy(h->mnt, m->point);
	strcpy(h->root, m->root);
	return true;
}

/*
 * Where the hierarchy is mounted (v2: fstype cgroup2; v1: a cgroup mount
 * with the memory controller) and which cgroup its mount root is.
 */
static bool find_mount(bool v2, char *mnt, size_t mlen, char *root, size_t rlen)
{
	struct hierarchy h = { .v2 = v2, .mnt = mnt, .root = root, .mlen = mlen, .rlen = rlen };
	return mounts_each(is_hierarchy, &h);
}

/* This process's cgroup in the hierarchy (v2: the "0::" line; v1: the line naming memory). */
static bool own_cgroup(bool v2, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		bool match = v2 ? strcmp(line, "0:") == 0 && c1[1] == '\0' : has_item(c1 + 1, "memory");
		found = match && strlen(c2 + 1) < len;
		if (found)
			strcpy(path, c2 + 1);
	}
	fclose(f);
	return found;
}

/* The limit set in one cgroup directory; 0 for none ("max", unlimited, unreadable). */
static uint64_t limit_in(const char *dir, bool v2)
{
	char path[4200], buf[64] = "";
	snprintf(path, sizeof(path), "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
	if (read_first_line(path, buf, sizeof(buf)) < 0)
		return 0;
	char *end;
	unsigned long long v = strtoull(buf, &end, 10);
	if (end == buf || v >= NO_LIMIT)
		return 0;
	return v;
}

/* The smallest limit from this process's cgroup up to the hierarchy's root; 0 for none. */
static uint64_t hierarchy_limit(bool v2)
{
	char mnt[1024], root[1024], cg[2048], dir[4096];
	if (!find_mount(v2, mnt, sizeof(mnt), root, sizeof(root)) || !own_cgroup(v2, cg, sizeof(cg)))
		return 0;
	/* A mount of a sub-tree (a container's) shows the cgroups below its root. */
	const char *rel = cg;
	size_t rl = strlen(root);
	if (strcmp(root, "/") != 0 && strncmp(cg, root, rl) == 0 && (cg[rl] == '/' || cg[rl] == '\0'))
		rel = cg + rl;
	snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel);
	size_t base = strlen(mnt);
	uint64_t best = 0;
	for (;;) {
		uint64_t v = limit_in(dir, v2);
		if (v && (!best || v < best))
			best = v;
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= base || !slash || (size_t)(slash - dir) < base)
			break;
		*slash = '\0';
	}
	return best;
}

uint64_t cgroup_memory_limit(void)
{
	uint64_t v1 = hierarchy_limit(false), v2 = hierarchy_limit(true);
	if (!v1 || (v2 && v2 < v1))
		return v2;
	return v1;
}
