/* target.c - probe files and block devices; refuse unsafe writes. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "host/target.h"
#include "host/mounts.h"
#include "lib/fileio.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Strip the blanks around a sysfs value in place (NVMe pads its serial with spaces). */
static void trim(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	size_t lead = strspn(s, " \t");
	memmove(s, s + lead, n - lead + 1);
}

void target_read_value(const char *path, char *buf, size_t len)
{
	read_first_line(path, buf, len);
	trim(buf);
}

void target_read_path_value(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	ssize_t n = pread_full(fd, buf, len - 1, 0);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	/* the kernel ends it with one newline; any other is the file name's */
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
}

/* "mq-deadline [none]" -> "none" */
static void selected_scheduler(const char *line, char *out, size_t len)
{
	const char *open = strchr(line, '[');
	const char *close = open ? strchr(open, ']') : NULL;
	if (open && close && (size_t)(close - open) < len) {
		memcpy(out, open + 1, (size_t)(close - open - 1));
		out[close - open - 1] = '\0';
	} else {
		snprintf(out, len, "%s", line);
	}
}

/* Kernel name of the disk holding dev (a partition's parent, else dev's own name); "" if unknown. */
static void disk_of(dev_t dev, char *name, size_t len)
{
	char base[80], path[96], real[PATH_MAX];
	name[0] = '\0';
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	snprintf(path, sizeof(path), "%s/partition", base);
	if (access(path, F_OK) == 0)
		snprintf(base + strlen(base), sizeof(base) - strlen(base), "/..");
	if (!realpath(base, real))
		return;
	const char *slash = strrchr(real, '/');
	snprintf(name, len, "%s", slash ? slash + 1 : real);
}

/* Devices whose blocks are RAM: zram, brd's RAM disks (ram0...). */
static const char *memory_device_kind(const char *disk)
{
	if (strncmp(disk, "zram", 4) == 0)
		return "zram";
	if (strncmp(disk, "ram", 3) == 0 && disk[3] >= '0' && disk[3] <= '9')
		return "a RAM disk";
	return NULL;
}

/*
 * Fill device, device_size, serial, model, root_device, memory, rotational,
 * scheduler, raid_level from /sys/dev/block/MAJ:MIN.
 */
static void probe_block_sysfs(dev_t dev, struct target_info *t)
{
	char base[64], path[PATH_MAX], real[PATH_MAX], line[PATH_MAX];
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(base, real))
		return;
	const char *name = strrchr(real, '/');
	snprintf(t->device, sizeof(t->device), "%s", name ? name + 1 : real);
	snprintf(path, sizeof(path), "%s/size", base);
	target_read_value(path, line, sizeof(line));
	t->device_size = strtoull(line, NULL, 10) * 512;

	/* A partition has no queue/ of its own: use its disk's. */
	snprintf(path, sizeof(path), "%s/queue/rotational", base);
	if (access(path, R_OK) != 0)
		snprintf(base + strlen(base), sizeof(base) - strlen(base), "/..");
	snprintf(path, sizeof(path), "%s/queue/rotational", base);
	target_read_value(path, line, sizeof(line));
	t->rotational = line[0] ? (line[0] == '1') : -1;
	snprintf(path, sizeof(path), "%s/queue/scheduler", base);
	target_read_value(path, line, sizeof(line));
	selected_scheduler(line, t->scheduler, sizeof(t->scheduler));
	snprintf(path, sizeof(path), "%s/queue/io_poll", base);
	target_read_value(path, line, sizeof(line));
	t->io_poll = line[0] ? (line[0] == '1') : -1;
	snprintf(path, sizeof(path), "%s/md/level", base);
	target_read_value(path, t->raid_level, sizeof(t->raid_level));
	/* virtio-blk keeps it in serial, NVMe and SCSI under device/ (EBS on Nitro: "vol0123..."). */
	snprintf(path, sizeof(path), "%s/serial", base);
	target_read_value(path, line, sizeof(line));
	if (!line[0]) {
		snprintf(path, sizeof(path), "%s/device/serial", base);
		target_read_value(path, line, sizeof(line));
	}
	snprintf(t->serial, sizeof(t->serial), "%s", line);
	/* SCSI, ATA and NVMe (the controller's, under device/) pad it with spaces; md, dm, loop have none. */
	snprintf(path, sizeof(path), "%s/device/model", base);
	target_read_value(path, line, sizeof(line));
	snprintf(t->model, sizeof(t->model), "%s", line);

	char disk[64], root_disk[64];
	struct stat root;
	disk_of(dev, disk, sizeof(disk));
	root_disk[0] = '\0';
	if (stat("/", &root) == 0 && major(root.st_dev) != 0)
		disk_of(root.st_dev, root_disk, sizeof(root_disk));
	t->root_device = disk[0] && strcmp(disk, root_disk) == 0;

	const char *kind = memory_device_kind(disk);
	if (kind) {
		t->memory = true;
		snprintf(t->memory_kind, sizeof(t->memory_kind), "%s", kind);
		return;
	}
	/* A loop device is as much a disk as the file behind it. */
	snprintf(path, sizeof(path), "%s/loop/backing_file", base);
	target_read_path_value(path, line, sizeof(line));
	char fs[16], mnt[8];
	if (line[0] == '/' && target_path_in_memory(line, fs, sizeof(fs), mnt, sizeof(mnt))) {
		t->memory = true;
		snprintf(t->memory_kind, sizeof(t->memory_kind), "a loop device over %s", fs);
	}
}

/* probe_mount()'s search: the longest mount point that prefixes real (the last of equals: it covers the others). */
struct mount_search {
	const char *real;
	size_t best;
	char *fstype, *mount;
	size_t fslen, mntlen;
};

static bool closer_mount(const struct mount_entry *m, void *arg)
{
	struct mount_search *q = arg;
	size_t n = strlen(m->point);
	bool prefix = strcmp(m->point, "/") == 0 ||
		      (strncmp(q->real, m->point, n) == 0 && (q->real[n] == '/' || q->real[n] == '\0'));
	if (prefix && n >= q->best) {
		q->best = n;
		snprintf(q->fstype, q->fslen, "%s", m->fstype);
		snprintf(q->mount, q->mntlen, "%s", m->point);
	}
	return false;
}

/* Find the mount holding real (longest mount point that prefixes it): its fstype and mount point. */
static void probe_mount(const char *real, char *fstype, size_t fslen, char *mount, size_t mntlen)
{
	struct mount_search q = { .real = real, .fstype = fstype, .fslen = fslen, .mount = mount, .mntlen = mntlen };
	mounts_each(closer_mount, &q);
}

static void probe_dio(const char *path, struct target_info *t)
{
#ifdef STATX_DIOALIGN
	struct statx sx;
	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN)) {
		t->dio_offset_align = sx.stx_dio_offset_align;
		t->dio_mem_align = sx.stx_dio_mem_align;
	}
#else
	(void)path;
	(void)t;
#endif
}

bool target_path_in_memory(const char *path, char *kind, size_t klen, char *mnt, size_t mlen)
{
	struct statfs sf;
	struct stat st;
	if (statfs(path, &sf) != 0 || stat(path, &st) != 0)
		return false;
	const char *what = (unsigned long)sf.f_type == (unsigned long)TMPFS_MAGIC ? "tmpfs"
			   : (unsigned long)sf.f_type == (unsigned long)RAMFS_MAGIC ? "ramfs" : NULL;
	char disk[64] = "";
	if (!what && major(st.st_dev) != 0) {
		disk_of(st.st_dev, disk, sizeof(disk));
		what = memory_device_kind(disk);
	}
	if (!what)
		return false;
	snprintf(kind, klen, "%s", what);
	char real[PATH_MAX], fs[64] = "";
	mnt[0] = '\0';
	if (realpath(path, real))
		probe_mount(real, fs, sizeof(fs), mnt, mlen);
	return true;
}

const char *target_kernel_fs(const char *path)
{
	static const struct {
		long magic;
		const char *name;
	} kernel_fs[] = {
		{ PROC_SUPER_MAGIC, "procfs" }, { SYSFS_MAGIC, "sysfs" }, { DEBUGFS_MAGIC, "debugfs" },
		{ TRACEFS_MAGIC, "tracefs" }, { CGROUP_SUPER_MAGIC, "cgroupfs" }, { CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ SECURITYFS_MAGIC, "securityfs" }, { SELINUX_MAGIC, "selinuxfs" }, { SMACK_MAGIC, "smackfs" },
		{ EFIVARFS_MAGIC, "efivarfs" }, { PSTOREFS_MAGIC, "pstore" }, { BPF_FS_MAGIC, "bpf" },
		{ BINFMTFS_MAGIC, "binfmt_misc" }, { NSFS_MAGIC, "nsfs" },
		{ 0x62656570, "configfs" }, { 0x65735543, "fusectl" },
	};
	struct statfs sf;
	if (statfs(path, &sf) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(kernel_fs) / sizeof(kernel_fs[0]); i++)
		if ((unsigned long)sf.f_type == (unsigned long)kernel_fs[i].magic)
			return kernel_fs[i].name;
	return NULL;
}

int target_probe(const char *path, struct target_info *t)
{
	memset(t, 0, sizeof(*t));
	t->rotational = -1;
	t->io_poll = -1;
	snprintf(t->path, sizeof(t->path), "%s", path);
	struct stat st;
	if (stat(path, &st) != 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	t->st_dev = st.st_dev;
	t->st_ino = st.st_ino;
	t->st_rdev = st.st_rdev;
	t->loop_autoclear = -1;
	probe_dio(path, t);
	if (S_ISBLK(st.st_mode)) {
		t->is_block = true;
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		uint64_t bytes = 0;
		int ssz = 0;
		int rc = ioctl(fd, BLKGETSIZE64, &bytes) == 0 ? 0 : -errno;
		if (rc == 0 && t->dio_offset_align == 0 && ioctl(fd, BLKSSZGET, &ssz) == 0 && ssz > 0)
			t->dio_offset_align = (unsigned)ssz;
		close(fd);
		if (rc)
			return rc;
		t->size = bytes;
		t->allocated = bytes;
		probe_block_sysfs(st.st_rdev, t);
		char p[96], line[16];
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/loop/autoclear", major(st.st_rdev), minor(st.st_rdev));
		target_read_value(p, line, sizeof(line));
		if (line[0])
			t->loop_autoclear = line[0] == '1';
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	/* /proc, /sys, efivarfs...: a write there changes the kernel (or firmware), a read measures nothing. */
	if (target_kernel_fs(path))
		return -ENOTSUP;
	t->size = (uint64_t)st.st_size;
	t->allocated = (uint64_t)st.st_blocks * 512;
	char real[PATH_MAX];
	if (realpath(path, real))
		probe_mount(real, t->fstype, sizeof(t->fstype), t->mount_point, sizeof(t->mount_point));
	if (major(st.st_dev) != 0)
		probe_block_sysfs(st.st_dev, t);
	char kind[16], mnt[8];
	if (!t->memory && target_path_in_memory(path, kind, sizeof(kind), mnt, sizeof(mnt))) {
		t->memory = true;
		snprintf(t->memory_kind, sizeof(t->memory_kind), "%s", kind);
	}
	return 0;
}

/*
 * Magic bytes at an offset from the start of the device: a second look after
 * libblkid's, for remains it no longer names (a GPT header with a bad
 * checksum, an md superblock missing its body) that still say "data here".
 */
static const struct {
	uint64_t offset;
	const char *magic;
	size_t len;
	const char *name;
} signatures[] = {
	{ 0x438, "\x53\xef", 2, "an ext2/3/4 filesystem" },
	{ 0, "XFSB", 4, "an xfs filesystem" },
	{ 0x10040, "_BHRfS_M", 8, "a btrfs filesystem" },
	{ 0, "\xfc\x4e\x2b\xa9", 4, "an md RAID superblock (1.1)" },
	{ 4096, "\xfc\x4e\x2b\xa9", 4, "an md RAID superblock (1.2)" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS header" },
	{ 0x218, "LVM2 001", 8, "an LVM physical volume" },
	{ 4086, "SWAPSPACE2", 10, "swap space" },
	{ 3, "NTFS    ", 8, "an NTFS filesystem" },
	{ 0x52, "FAT32   ", 8, "a FAT32 filesystem" },
	{ 0x36, "FAT", 3, "a FAT filesystem" },
	{ 0x8001, "CD001", 5, "an ISO 9660 filesystem" },
	{ 512, "EFI PART", 8, "a GPT partition table" },
	{ 510, "\x55\xaa", 2, "an MBR partition table or boot sector" },
};

static bool magic_at(int fd, uint64_t offset, const char *magic, size_t len)
{
	char buf[16];
	if (len > sizeof(buf))
		return false;
	return pread_full(fd, buf, len, (off_t)offset) == (ssize_t)len && memcmp(buf, magic, len) == 0;
}

static const char *known_magic(int fd, uint64_t size)
{
	for (size_t i = 0; i < sizeof(signatures) / sizeof(signatures[0]); i++)
		if (signatures[i].offset + signatures[i].len <= size &&
		    magic_at(fd, signatures[i].offset, signatures[i].magic, signatures[i].len))
			return signatures[i].name;
	/* md 0.90 sits 64 KiB from the end (rounded down to 64 KiB); 1.0 8 KiB from the end. */
	static const char md_magic[] = "\xfc\x4e\x2b\xa9";
	if (size >= 131072 && magic_at(fd, (size & ~(uint64_t)65535) - 65536, md_magic, 4))
		return "an md RAID superblock (0.90)";
	if (size >= 8192 && magic_at(fd, (size - 8192) & ~(uint64_t)4095, md_magic, 4))
		return "an md RAID superblock (1.0)";
	return NULL;
}

/* What blkid(8) itself finds there: every superblock and partition table it knows. */
static int blkid_signature(int fd, char *name, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	int rc = -EIO;
	if (blkid_probe_set_device(pr, fd, 0, 0) != 0)
		goto out;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	int found = blkid_do_safeprobe(pr);
	const char *type = NULL, *usage = NULL;
	if (found == 1) {
		rc = 0;
	} else if (found == -2) {
		snprintf(name, len, "several signatures (blkid: ambivalent probe)");
		rc = 1;
	} else if (found == 0 && blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
		snprintf(name, len, "a partition table (blkid: PTTYPE=%s)", type);
		rc = 1;
	} else if (found == 0 && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		const char *what = !usage ? "a signature" : strcmp(usage, "filesystem") == 0 ? "a filesystem"
			: strcmp(usage, "raid") == 0 ? "a RAID or volume-manager member"
			: strcmp(usage, "crypto") == 0 ? "an encrypted volume" : "a signature";
		snprintf(name, len, "%s (blkid: TYPE=%s)", what, type);
		rc = 1;
	} else if (found == 0) {
		snprintf(name, len, "a signature blkid cannot name");
		rc = 1;
	}
out:
	blkid_free_probe(pr);
	return rc;
}

int target_signature(int fd, uint64_t size, char *name, size_t len)
{
	int rc = blkid_signature(fd, name, len);
	if (rc != 0)
		return rc;
	const char *magic = known_magic(fd, size);
	if (!magic)
		return 0;
	snprintf(name, len, "%s", magic);
	return 1;
}

/* The device and its partitions (the kernel's view in sysfs, whatever the table on disk says now). */
static size_t device_and_parts(dev_t dev, dev_t *out, size_t max)
{
	size_t n = 0;
	out[n++] = dev;
	char base[64], path[PATH_MAX], line[64];
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	DIR *d = opendir(base);
	if (!d)
		return n;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", base, e->d_name);
		if (access(path, F_OK) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", base, e->d_name);
		target_read_value(path, line, sizeof(line));
		unsigned ma, mi;
		if (sscanf(line, "%u:%u", &ma, &mi) == 2)
			out[n++] = makedev(ma, mi);
	}
	closedir(d);
	return n;
}

/* Non-empty /sys/dev/block/M:m/holders means md or dm sits on the device. */
static bool first_holder(dev_t dev, char *name, size_t len)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(dev), minor(dev));
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	bool found = false;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(name, len, "%s", e->d_name);
		found = true;
		break;
	}
	closedir(d);
	return found;
}

/* Does the path name block device dev? */
static bool names_device(const char *path, dev_t dev)
{
	struct stat st;
	return path[0] == '/' && stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

/*
 * Is dev mounted? By the mount's device number, or by its source path
 * (btrfs and others show an anonymous device number in mountinfo).
 */
struct mount_of_dev {
	dev_t dev;
	char *where;
	size_t len;
};

static bool mounts_dev(const struct mount_entry *m, void *arg)
{
	struct mount_of_dev *q = arg;
	if ((m->major != major(q->dev) || m->minor != minor(q->dev)) && !names_device(m->source, q->dev))
		return false;
	snprintf(q->where, q->len, "%s", m->point);
	return true;
}

static bool mounted_at(dev_t dev, char *where, size_t len)
{
	struct mount_of_dev q = { .dev = dev, .where = where, .len = len };
	return mounts_each(mounts_dev, &q);
}

/* Is dev active swap? */
static bool swap_on(dev_t dev)
{
	FILE *f = fopen("/proc/swaps", "r");
	if (!f)
		return false;
	char line[4096], path[PATH_MAX];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%4095s", path) == 1 && names_device(path, dev);
	fclose(f);
	return found;
}

/* Kernel name of dev ("loop0p1"), for messages. */
static void dev_name(dev_t dev, char *name, size_t len)
{
	char base[64], real[PATH_MAX];
	snprintf(base, sizeof(base), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	const char *slash = realpath(base, real) ? strrchr(real, '/') : NULL;
	if (slash)
		snprintf(name, len, "%s", slash + 1);
	else
		snprintf(name, len, "%u:%u", major(dev), minor(dev));
}

/* Is the device or one of its partitions mounted, held by md/dm, or swap? */
static int in_use(dev_t whole, char *why, size_t whylen)
{
	dev_t devs[256];
	size_t n = device_and_parts(whole, devs, sizeof(devs) / sizeof(devs[0]));
	for (size_t i = 0; i < n; i++) {
		char where[PATH_MAX], holder[64], who[80] = "is";
		if (i > 0) {
			char name[48];
			dev_name(devs[i], name, sizeof(name));
			snprintf(who, sizeof(who), "has its partition %s", name);
		}
		if (mounted_at(devs[i], where, sizeof(where))) {
			snprintf(why, whylen, "%s mounted on %s", who, where);
			return -EBUSY;
		}
		if (first_holder(devs[i], holder, sizeof(holder))) {
			snprintf(why, whylen, "%s in use by %s (RAID or device-mapper member)", who, holder);
			return -EBUSY;
		}
		if (swap_on(devs[i])) {
			snprintf(why, whylen, "%s in use as swap", who);
			return -EBUSY;
		}
	}
	return 0;
}

int target_write_refusal(const struct target_info *t, char *why, size_t whylen)
{
	if (!t->is_block)
		return 0;
	struct stat st;
	if (stat(t->path, &st) != 0)
		return -errno;
	int rc = in_use(st.st_rdev, why, whylen);
	if (rc != 0)
		return rc;
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char sig[160];
	rc = target_signature(fd, t->size, sig, sizeof(sig));
	close(fd);
	if (rc < 0) {
		snprintf(why, whylen, "cannot be probed for signatures (%s)", strerror(-rc));
		return -EBUSY;
	}
	if (rc > 0) {
		snprintf(why, whylen, "holds %s", sig);
		return -EBUSY;
	}
	return 0;
}

uint64_t target_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

bool target_still_there(const struct target_info *t)
{
	struct stat st;
	if (stat(t->path, &st) != 0 || st.st_dev != t->st_dev || st.st_ino != t->st_ino)
		return false;
	if (!t->is_block)
		return true;
	char path[96], line[64];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/size", major(st.st_rdev), minor(st.st_rdev));
	target_read_value(path, line, sizeof(line));
	if (line[0] && strtoull(line, NULL, 10) == 0)
		return false;
	if (t->loop_autoclear == 0) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/loop/autoclear", major(st.st_rdev), minor(st.st_rdev));
		target_read_value(path, line, sizeof(line));
		if (line[0] == '1' || line[0] == '\0')
			return false;
	}
	return true;
}
