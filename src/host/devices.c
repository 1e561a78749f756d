/* devices.c - the block device stack under a target, and its /proc/diskstats readings. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/devices.h"
#include "host/mounts.h"
#include "host/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* The note says the first thing missing; later ones are of the same kind. */
static void note(struct device_tree *tree, const char *fmt, const char *arg)
{
	if (!tree->note[0])
		snprintf(tree->note, sizeof(tree->note), fmt, arg);
}

/* A device's kind, from what its sysfs folder holds. */
static const char *device_type(const char *dir, const char *name)
{
	if (exists(dir, "partition"))
		return "partition";
	if (exists(dir, "md"))
		return "md";
	if (exists(dir, "dm"))
		return "dm";
	if (exists(dir, "loop") || strncmp(name, "loop", 4) == 0)
		return "loop";
	return "disk";
}

/* "MAJ:MIN" in the file dir/rel/dev. */
static bool dev_at(const char *dir, const char *rel, dev_t *dev)
{
	char path[PATH_MAX], line[32];
	unsigned ma, mi;
	snprintf(path, sizeof(path), "%s/%s/dev", dir, rel);
	target_read_value(path, line, sizeof(line));
	if (sscanf(line, "%u:%u", &ma, &mi) != 2)
		return false;
	*dev = makedev(ma, mi);
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(struct device_tree *tree, dev_t dev, const char *role, int above, int depth);

/* The devices an md or dm device (or any other holder) is built on, by name. */
static void walk_slaves(struct device_tree *tree, const char *dir, int self, int depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/slaves", dir);
	DIR *d = opendir(path);
	if (!d) {
		if (errno != ENOENT)
			note(tree, "cannot list the members of %s; the devices under it are missing", tree->nodes[self].name);
		return;
	}
	char *names[DEVICES_MAX];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < DEVICES_MAX)
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)) != NULL)
			n++;
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++) {
		dev_t member;
		snprintf(path, sizeof(path), "slaves/%s", names[i]);
		if (dev_at(dir, path, &member))
			walk(tree, member, "member", self, depth + 1);
		free(names[i]);
	}
}

/* What sysfs says of the device in dir (its realpath), into node. */
static void describe(struct device_node *node, const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX];
	snprintf(path, sizeof(path), "%s/size", dir);
	target_read_value(path, line, sizeof(line));
	node->size = strtoull(line, NULL, 10) * 512;
	/* A partition has no queue/ of its own: its disk's. */
	snprintf(path, sizeof(path), strcmp(node->type, "partition") == 0 ? "%s/../queue/rotational"
			 : "%s/queue/rotational", dir);
	target_read_value(path, line, sizeof(line));
	node->rotational = line[0] ? line[0] == '1' : -1;
	if (strcmp(node->type, "partition") != 0) {
		/* virtio-blk keeps its serial at the top, NVMe and SCSI under device/. */
		snprintf(path, sizeof(path), "%s/serial", dir);
		target_read_value(path, node->serial, sizeof(node->serial));
		if (!node->serial[0]) {
			snprintf(path, sizeof(path), "%s/device/serial", dir);
			target_read_value(path, node->serial, sizeof(node->serial));
		}
		snprintf(path, sizeof(path), "%s/device/model", dir);
		target_read_value(path, node->model, sizeof(node->model));
	}
	if (strcmp(node->type, "md") == 0) {
		snprintf(path, sizeof(path), "%s/md/level", dir);
		target_read_value(path, node->raid_level, sizeof(node->raid_level));
	} else if (strcmp(node->type, "dm") == 0) {
		snprintf(path, sizeof(path), "%s/dm/name", dir);
		target_read_value(path, node->dm_name, sizeof(node->dm_name));
	} else if (strcmp(node->type, "loop") == 0) {
		snprintf(path, sizeof(path), "%s/loop/backing_file", dir);
		target_read_path_value(path, line, sizeof(line));
		node->backing_file = strdup(line);
	}
}

/* Record dev and, below it, what it is built on. */
static void walk(struct device_tree *tree, dev_t dev, const char *role, int above, int depth)
{
	for (size_t i = 0; i < tree->n; i++)
		if (tree->nodes[i].major == major(dev) && tree->nodes[i].minor == minor(dev))
			return;
	if (depth > DEVICES_MAX_DEPTH || tree->n >= DEVICES_MAX) {
		note(tree, "%s", "the stack is deeper or wider than iobench follows; the devices below are missing");
		return;
	}
	int self = (int)tree->n++;
	struct device_node *node = &tree->nodes[self];
	node->major = major(dev);
	node->minor = minor(dev);
	node->role = role;
	node->above = above;
	node->rotational = -1;
	char base[64], dir[PATH_MAX];
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", node->major, node->minor);
	if (!realpath(base, dir)) {
		snprintf(node->name, sizeof(node->name), "%u:%u", node->major, node->minor);
		node->type = "disk";
		note(tree, "cannot read %s (sysfs not mounted, or not readable); only the device number is known", base);
		return;
	}
	const char *slash = strrchr(dir, '/');
	snprintf(node->name, sizeof(node->name), "%s", slash ? slash + 1 : dir);
	node->type = device_type(dir, node->name);
	describe(node, dir);
	/* A loop device's backing file lives on another stack: that one is not this run's. */
	if (strcmp(node->type, "loop") == 0)
		return;
	if (strcmp(node->type, "partition") == 0) {
		dev_t disk;
		if (dev_at(dir, "..", &disk))
			walk(tree, disk, "disk", self, depth + 1);
		return;
	}
	walk_slaves(tree, dir, self, depth);
}

struct source_search {
	const char *mount_point;
	dev_t *dev;
	bool found;
	char untrusted[256]; /* a block device a nodev mount (tmpfs) names as its source */
};

static bool source_at(const struct mount_entry *m, void *arg)
{
	struct source_search *q = arg;
	struct stat st;
	if (strcmp(m->point, q->mount_point) != 0)
		return false;
	/* the last mount there is the one in use */
	q->found = false;
	q->untrusted[0] = '\0';
	if (stat(m->source, &st) != 0 || !S_ISBLK(st.st_mode))
		return false;
	if (!mounts_fs_on_device(m->fstype)) {
		snprintf(q->untrusted, sizeof(q->untrusted), "%.200s", m->source);
		return false;
	}
	*q->dev = st.st_rdev;
	q->found = true;
	return false;
}

/*
 * A filesystem with an anonymous device number (btrfs): its mount's source,
 * when that is a block device and the filesystem's type lives on one (a
 * tmpfs mounted with source /dev/vda is not on vda). untrusted gets a block
 * device source that was not believed ("" when none).
 */
static bool mount_source(const char *mount_point, dev_t *dev, char *untrusted, size_t len)
{
	struct source_search q = { .mount_point = mount_point, .dev = dev };
	mounts_each(source_at, &q);
	snprintf(untrusted, len, "%s", q.untrusted);
	return q.found;
}

int devices_resolve(const struct target_info *t, struct device_tree *tree)
{
	memset(tree, 0, sizeof(*tree));
	dev_t dev = t->is_block ? (dev_t)t->st_rdev : (dev_t)t->st_dev;
	char untrusted[256] = "";
	if (!t->is_block && major(dev) == 0 &&
	    !(t->mount_point[0] && mount_source(t->mount_point, &dev, untrusted, sizeof(untrusted)))) {
		const char *fs = t->fstype[0] ? t->fstype : "the filesystem";
		if (untrusted[0]) {
			char why[512];
			snprintf(why, sizeof(why), "%s has no block device of its own (its mount names %s as its source; "
				 "%s does not live on a device)", fs, untrusted, fs);
			note(tree, "%s", why);
		} else
			note(tree, "%s has no block device of its own", fs);
		return 0;
	}
	tree->nodes = calloc(DEVICES_MAX, sizeof(*tree->nodes));
	if (!tree->nodes) {
		note(tree, "%s", "out of memory for the device list");
		return -ENOMEM;
	}
	walk(tree, dev, "target", -1, 0);
	return 0;
}

void devices_tree_free(struct device_tree *tree)
{
	for (size_t i = 0; tree->nodes && i < tree->n; i++)
		free(tree->nodes[i].backing_file);
	free(tree->nodes);
	tree->nodes = NULL;
	tree->n = 0;
}

size_t devices_parse(const char *text, const struct device_tree *tree, struct device_counters *out)
{
	size_t found = 0;
	for (size_t i = 0; i < tree->n; i++)
		out[i] = (struct device_counters){ 0 };
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;
		unsigned long ma = strtoul(p, &end, 10), mi = strtoul(end, &end, 10);
		size_t i = 0;
		while (i < tree->n && (tree->nodes[i].major != ma || tree->nodes[i].minor != mi))
			i++;
		if (i == tree->n)
			continue;
		end += strspn(end, " ");
		end += strcspn(end, " \n"); /* the name */
		/* reads, merged, sectors, ms; writes, merged, sectors, ms; in flight, io_ticks, time_in_queue */
		uint64_t f[11];
		int nf = 0;
		for (; nf < 11; nf++) {
			end += strspn(end, " \t");
			if (*end < '0' || *end > '9')
				break; /* a short line: not a device's */
			f[nf] = strtoull(end, &end, 10);
		}
		if (nf < 11)
			continue;
		out[i] = (struct device_counters){
			.reads = f[0], .read_sectors = f[2], .read_ms = f[3],
			.writes = f[4], .write_sectors = f[6], .write_ms = f[7],
			.busy_ms = f[9], .queue_ms = f[10], .seen = true,
		};
		found++;
	}
	return found;
}

/* b - a; the kernel's ms counters are 32 bits wide in places and wrap. */
static uint64_t delta(uint64_t a, uint64_t b)
{
	if (b >= a)
		return b - a;
	return a < (1ULL << 32) && b < (1ULL << 32) ? b + (1ULL << 32) - a : 0;
}

bool devices_stats(const struct device_counters *a, const struct device_counters *b, double seconds,
		   struct device_stats *out)
{
	if (!a->seen || !b->seen || !(seconds > 0))
		return false;
	uint64_t reads = delta(a->reads, b->reads), writes = delta(a->writes, b->writes);
	double ms = seconds * 1000;
	*out = (struct device_stats){
		.seconds = seconds,
		.reads = reads,
		.writes = writes,
		.reads_per_s = (double)reads / seconds,
		.writes_per_s = (double)writes / seconds,
		.read_mb_per_s = (double)delta(a->read_sectors, b->read_sectors) * 512 / 1e6 / seconds,
		.write_mb_per_s = (double)delta(a->write_sectors, b->write_sectors) * 512 / 1e6 / seconds,
		.read_await_ms = reads ? (double)delta(a->read_ms, b->read_ms) / (double)reads : NAN,
		.write_await_ms = writes ? (double)delta(a->write_ms, b->write_ms) / (double)writes : NAN,
		.util_pct = (double)delta(a->busy_ms, b->busy_ms) / ms * 100,
		.queue_size = (double)delta(a->queue_ms, b->queue_ms) / ms,
	};
	return true;
}

int devices_log_init(struct device_log *log, const struct device_tree *tree, size_t slots)
{
	*log = (struct device_log){ .tree = tree, .path = "/proc/diskstats" };
	if (tree->n == 0)
		return 0;
	log->at_ns = calloc(slots, sizeof(*log->at_ns));
	log->counters = calloc(slots * tree->n, sizeof(*log->counters));
	log->buflen = 16384;
	log->buf = malloc(log->buflen);
	if (!log->at_ns || !log->counters || !log->buf) {
		devices_log_free(log);
		log->err = -ENOMEM;
		return -ENOMEM;
	}
	log->slots = slots;
	return 0;
}

/* The whole file into log->buf (grown as needed), NUL-terminated. 0 or -errno. */
static int read_diskstats(struct device_log *log)
{
	int fd = open(log->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = 0;
	for (;;) {
		if (len + 1 >= log->buflen) {
			char *bigger = realloc(log->buf, log->buflen * 2);
			if (!bigger) {
				close(fd);
				return -ENOMEM;
			}
			log->buf = bigger;
			log->buflen *= 2;
		}
		ssize_t n = read(fd, log->buf + len, log->buflen - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	log->buf[len] = '\0';
	return 0;
}

void devices_log_take(struct device_log *log, size_t k, uint64_t now_ns)
{
	if (k >= log->slots || log->err)
		return;
	int rc = read_diskstats(log);
	if (rc < 0) {
		log->err = rc;
		return;
	}
	devices_parse(log->buf, log->tree, &log->counters[k * log->tree->n]);
	if (k == 0)
		log->t0_ns = now_ns;
	log->at_ns[k] = now_ns;
	if (k + 1 > log->used)
		log->used = k + 1;
}

void devices_log_reset(struct device_log *log)
{
	if (log->at_ns)
		memset(log->at_ns, 0, log->slots * sizeof(*log->at_ns));
	log->used = 0;
}

void devices_log_end(struct device_log *log, uint64_t now_ns)
{
	devices_log_take(log, log->used, now_ns);
}

bool devices_log_stats(const struct device_log *log, size_t i, size_t a, size_t b, struct device_stats *out)
{
	if (a >= log->used || b >= log->used || !log->at_ns[a] || !log->at_ns[b] || i >= log->tree->n)
		return false;
	size_t n = log->tree->n;
	double seconds = (double)(log->at_ns[b] - log->at_ns[a]) / 1e9;
	return devices_stats(&log->counters[a * n + i], &log->counters[b * n + i], seconds, out);
}

void devices_log_free(struct device_log *log)
{
	free(log->at_ns);
	free(log->counters);
	free(log->buf);
	log->at_ns = NULL;
	log->counters = NULL;
	log->buf = NULL;
	log->slots = log->used = 0;
}
