/* prepare.c - a command's target probed, created, sized and checked for writing. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/prepare.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/diag.h"
#include "lib/err.h"
#include "lib/units.h"
#include "measure/create.h"
#include "results/output.h"

/* target_probe()'s -errno as the message and exit code a user sees. */
static int probe_failed(const struct prepare *p, int rc)
{
	if (rc == -ENOENT)
		return diag_fail("%s: does not exist; %s", p->path, p->missing);
	if (rc == -EISDIR)
		return diag_usage("%s: is a directory; give a file or block device (e.g. %s/%s)", p->path, p->path,
				  p->example);
	if (rc == -EINVAL)
		return diag_usage("%s: not a regular file or block device (a FIFO, socket or character device holds no data "
				  "to measure); give a file on a disk's filesystem or a block device", p->path);
	if (rc == -ENOTSUP)
		return diag_usage("%s: a file of the kernel's %s interface, not data (writing it changes the system); "
				  "give a file on a disk's filesystem, or a block device", p->path, target_kernel_fs(p->path));
	if (rc == -EACCES)
		return diag_fail("%s: permission denied; run as a user who can use it (sudo for devices)", p->path);
	return diag_fail("%s: %s", p->path, strerror(-rc));
}

/* --size: create the target, then probe it again. */
static int create_target(const struct prepare *p, struct target_info *t)
{
	char err[ERR_MAX], human[32];
	struct create_opts co = { .status = !p->quiet && isatty(STDERR_FILENO) ? diag_status_kept : NULL,
				  .stop_signals = p->sigs, .seed = p->create_seed };
	units_format_size(human, sizeof(human), p->create_size);
	diag_progress(p->quiet, "creating %s (%s of random data)", p->path, human);
	int rc = create_file(p->path, p->create_size, &co, err, sizeof(err));
	if (rc == -EINTR)
		return diag_interrupted("%s", err);
	if (rc < 0)
		return diag_fail("%s", err);
	if (p->created)
		*p->created = true;
	rc = target_probe(p->path, t);
	return rc < 0 ? probe_failed(p, rc) : 0;
}

int prepare_target(const struct prepare *p, struct target_info *t)
{
	int rc = target_probe(p->path, t);
	if (rc == -ENOENT && p->create_size) {
		rc = create_target(p, t);
		if (rc != 0)
			return rc;
	} else if (rc < 0) {
		return probe_failed(p, rc);
	}
	return 0;
}

int prepare_size(const struct prepare *p, const struct target_info *t, uint64_t *span)
{
	if (p->create_size && t->size < p->create_size) {
		char human[32], need[32];
		units_format_size(human, sizeof(human), t->size);
		units_format_size(need, sizeof(need), p->create_size);
		if (t->is_block)
			return diag_fail("%s: is a block device of %s, smaller than --size %s; a device cannot be "
					 "grown: use a smaller --size, or drop it", p->path, human, need);
		return diag_fail("%s: is %s, smaller than --size %s; remove it or recreate it with 'iobench create --force'",
				 p->path, human, need);
	}
	if (*span > t->size) {
		char human[32];
		units_format_size(human, sizeof(human), t->size);
		return diag_usage("--span is larger than %s (%s); use a span up to its size", p->path, human);
	}
	if (*span == 0)
		*span = t->size;
	return 0;
}

int prepare_write(const struct prepare *p, const struct target_info *t)
{
	char err[ERR_MAX];
	if (t->is_block && !p->force && target_write_refusal(t, err, sizeof(err)) == -EBUSY)
		return diag_fail("%s %s; %s would destroy it (use --force to write anyway)", p->path, err, p->writer);
	if (access(p->path, W_OK) != 0) {
		/* No user or sudo can write there: the filesystem is the obstacle. */
		if (errno == EROFS)
			return diag_fail("%s: on a read-only filesystem (%s); remount it read-write (mount -o remount,rw) "
					 "or put the target on a writable one", p->path,
					 t->mount_point[0] ? t->mount_point : "its mount");
		return diag_fail("%s: not writable (%s); write ops need write access: use a file you own, or sudo",
				 p->path, strerror(errno));
	}
	return 0;
}

/* Do two outputs name one file (one path, or one inode under two names; /dev/null twice is fine)? */
static bool same_file(const char *x, const char *y)
{
	if (strcmp(x, "-") == 0 || strcmp(y, "-") == 0)
		return false;
	struct stat sx, sy;
	if (stat(x, &sx) == 0 && stat(y, &sy) == 0)
		return !S_ISCHR(sx.st_mode) && sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
	/* Not there yet: the same name in the same folder (./o.jsonl is o.jsonl). */
	char dx[PATH_MAX], dy[PATH_MAX];
	const char *bx = strrchr(x, '/'), *by = strrchr(y, '/');
	snprintf(dx, sizeof(dx), "%.*s", bx ? (int)(bx - x) + 1 : 1, bx ? x : ".");
	snprintf(dy, sizeof(dy), "%.*s", by ? (int)(by - y) + 1 : 1, by ? y : ".");
	if (stat(dx, &sx) != 0 || stat(dy, &sy) != 0)
		return strcmp(x, y) == 0;
	return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino && strcmp(bx ? bx + 1 : x, by ? by + 1 : y) == 0;
}

int prepare_outputs(const struct target_info *t, const struct prepare_output *o, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!o[i].path)
			continue;
		int rc = output_check_path(o[i].path, t);
		if (rc == -EEXIST)
			return diag_usage("%s %s is the target itself; write results to another file", o[i].option,
					  o[i].path);
		if (rc == -EISDIR)
			return diag_usage("%s %s: is a directory; give a file name", o[i].option, o[i].path);
		if (rc == -EINVAL && !o[i].replaced)
			return diag_usage("%s %s: not a regular file (a FIFO, socket or block device); give a file%s",
					  o[i].option, o[i].path, o[i].stdout_ok ? ", or '-' for stdout" : "");
		for (size_t k = 0; k < i; k++)
			if (o[k].path && same_file(o[k].path, o[i].path))
				return diag_usage("%s and %s name the same file (%s); give each its own", o[k].option,
						  o[i].option, o[i].path);
	}
	return 0;
}
