/* mounts.c - /proc/self/mountinfo, a line at a time (see mounts.h). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/mounts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Undo mountinfo's octal escapes ("\040" for space) in place. */
static void unescape(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*out++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS */
static bool parse(const char *line, struct mount_entry *m)
{
	const char *dash = strstr(line, " - ");
	m->super[0] = '\0';
	if (!dash || sscanf(line, "%*s %*s %u:%u %4095s %4095s", &m->major, &m->minor, m->root, m->point) != 4 ||
	    sscanf(dash + 3, "%63s %4095s %1023s", m->fstype, m->source, m->super) < 2)
		return false;
	unescape(m->root);
	unescape(m->point);
	unescape(m->source);
	return true;
}

bool mounts_each(bool (*each)(const struct mount_entry *m, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	struct mount_entry *m = malloc(sizeof(*m));
	char *line = NULL;
	size_t cap = 0;
	bool done = false;
	while (m && !done && getline(&line, &cap, f) >= 0)
		done = parse(line, m) && each(m, arg);
	free(line);
	free(m);
	fclose(f);
	return done;
}

bool mounts_fs_on_device(const char *fstype)
{
	/* "fuse.sshfs" is fuse's: the part before the dot is what /proc/filesystems lists. */
	size_t n = strcspn(fstype, ".");
	FILE *f = fopen("/proc/filesystems", "re");
	if (!f || n == 0)
		return f ? (fclose(f), false) : false;
	char line[256];
	bool on_device = false;
	while (fgets(line, sizeof(line), f)) {
		/* "nodev\ttmpfs\n" or "\text4\n" */
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		char *name = tab + 1;
		name[strcspn(name, "\n")] = '\0';
		if (strlen(name) == n && strncmp(name, fstype, n) == 0) {
			on_device = strncmp(line, "nodev", 5) != 0;
			break;
		}
	}
	fclose(f);
	return on_device;
}
