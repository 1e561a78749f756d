/* test_fileio.c - whole transfers, first lines and whole replacements on real files: what comes short, what fails. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "check.h"
#include "lib/clock.h"
#include "lib/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/iobench-fileio-XXXXXX";

/* A fresh file in the test folder, opened read-write; its path goes to path. */
static int fresh(const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", tmpdir, name);
	return open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

TEST(write_full_writes_every_byte_and_appends_with_o_append)
{
	char path[256], buf[100000], back[100010];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + i % 26);
	int fd = fresh("w", path, sizeof(path));
	CHECK(fd >= 0);
	CHECK(write_full(fd, buf, sizeof(buf)) == 0);
	close(fd);
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(write_full(fd, "tail", 4) == 0);
	close(fd);
	fd = open(path, O_RDONLY);
	CHECK(pread_full(fd, back, sizeof(back), 0) == (ssize_t)sizeof(buf) + 4);
	CHECK(memcmp(back, buf, sizeof(buf)) == 0);
	CHECK(memcmp(back + sizeof(buf), "tail", 4) == 0);
	close(fd);
}

TEST(write_full_fails_with_the_errno_of_the_write)
{
	char path[256];
	int fd = fresh("ro", path, sizeof(path));
	close(fd);
	fd = open(path, O_RDONLY);
	CHECK(write_full(fd, "x", 1) == -EBADF);
	close(fd);
	int p[2];
	CHECK(pipe(p) == 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	CHECK(write_full(p[1], "x", 1) == -EPIPE);
	close(p[1]);
}

TEST(pwrite_full_writes_at_the_offset_and_leaves_the_file_offset)
{
	char path[256], back[8] = "";
	int fd = fresh("pw", path, sizeof(path));
	CHECK(pwrite_full(fd, "1234", 4, 4096) == 0);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0);
	struct stat st;
	CHECK(fstat(fd, &st) == 0 && st.st_size == 4100);
	CHECK(pread_full(fd, back, 4, 4096) == 4);
	CHECK(memcmp(back, "1234", 4) == 0);
	/* The hole before it reads as zeros, whole. */
	CHECK(pread_full(fd, back, 4, 100) == 4);
	CHECK(memcmp(back, "\0\0\0\0", 4) == 0);
	close(fd);
}

TEST(pread_full_returns_what_there_is_before_the_end_of_the_file)
{
	char path[256], back[64];
	int fd = fresh("short", path, sizeof(path));
	CHECK(write_full(fd, "0123456789", 10) == 0);
	/* Asked for 64 at offset 4: the 6 bytes up to the end, not an error. */
	CHECK(pread_full(fd, back, sizeof(back), 4) == 6);
	CHECK(memcmp(back, "456789", 6) == 0);
	CHECK(pread_full(fd, back, sizeof(back), 10) == 0);
	CHECK(pread_full(fd, back, sizeof(back), 1000) == 0);
	CHECK(pread_full(fd, back, 0, 0) == 0);
	close(fd);
}

TEST(pread_full_fails_with_an_errno_not_a_count)
{
	char back[4];
	int p[2];
	CHECK(pipe(p) == 0);
	CHECK(pread_full(p[0], back, sizeof(back), 0) == -ESPIPE);
	close(p[0]);
	close(p[1]);
	char path[256];
	int fd = fresh("wo", path, sizeof(path));
	close(fd);
	fd = open(path, O_WRONLY);
	CHECK(pread_full(fd, back, sizeof(back), 0) == -EBADF);
	close(fd);
}

/* Entries of the test folder whose name starts with prefix. */
static int count_named(const char *prefix)
{
	DIR *d = opendir(tmpdir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return n;
}

/* The whole of a small file, "" when it cannot be read. */
static const char *contents(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? pread_full(fd, buf, sizeof(buf) - 1, 0) : 0;
	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

TEST(replace_atomically_replaces_the_file_and_leaves_no_temporary)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/page", tmpdir);
	CHECK(replace_atomically(path, "one\n", 4, 0644) == 0);
	CHECK(strcmp(contents(path), "one\n") == 0);
	struct stat before, after;
	CHECK(stat(path, &before) == 0);
	CHECK(replace_atomically(path, "two", 3, 0644) == 0);
	CHECK(strcmp(contents(path), "two") == 0);
	CHECK(stat(path, &after) == 0);
	/* A new file took the name; the old one was never written in place. */
	CHECK(before.st_ino != after.st_ino);
	CHECK(count_named("page.partial.") == 0);
}

TEST(the_new_file_has_the_mode_less_the_umask)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/mode", tmpdir);
	mode_t old = umask(027);
	CHECK(replace_atomically(path, "x", 1, 0644) == 0);
	umask(old);
	struct stat st;
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
}

TEST(the_temporary_file_is_named_beside_the_path)
{
	char path[256], tmp[300], want[300];
	snprintf(path, sizeof(path), "%s/data", tmpdir);
	int fd = replace_open(path, 0, 0644, tmp, sizeof(tmp));
	CHECK(fd >= 0);
	snprintf(want, sizeof(want), "%s.partial.", path);
	CHECK(strncmp(tmp, want, strlen(want)) == 0 && strlen(tmp) == strlen(want) + 6);
	replace_abort(fd, tmp);
	CHECK(access(tmp, F_OK) != 0 && count_named("data") == 0);
	fd = replace_open(path, REPLACE_HIDDEN, 0644, tmp, sizeof(tmp));
	snprintf(want, sizeof(want), "%s/.data.", tmpdir);
	CHECK(fd >= 0 && strncmp(tmp, want, strlen(want)) == 0 && strlen(tmp) == strlen(want) + 6);
	/* Two at once get two names. */
	char tmp2[300];
	int fd2 = replace_open(path, REPLACE_HIDDEN, 0644, tmp2, sizeof(tmp2));
	CHECK(fd2 >= 0 && strcmp(tmp, tmp2) != 0);
	replace_abort(fd, tmp);
	replace_abort(fd2, tmp2);
	CHECK(count_named(".data.") == 0);
	CHECK(replace_open(path, 0, 0644, tmp, strlen(path) + 10) == -ENAMETOOLONG);
}

TEST(noreplace_keeps_a_file_that_exists_and_removes_the_temporary)
{
	char path[256], tmp[300];
	snprintf(path, sizeof(path), "%s/kept", tmpdir);
	CHECK(replace_atomically(path, "old", 3, 0644) == 0);
	int fd = replace_open(path, 0, 0644, tmp, sizeof(tmp));
	CHECK(write_full(fd, "new", 3) == 0);
	CHECK(replace_commit(fd, tmp, path, REPLACE_NOREPLACE) == -EEXIST);
	CHECK(strcmp(contents(path), "old") == 0);
	CHECK(count_named("kept.partial.") == 0);
	unlink(path);
	fd = replace_open(path, 0, 0644, tmp, sizeof(tmp));
	CHECK(write_full(fd, "new", 3) == 0);
	CHECK(replace_commit(fd, tmp, path, REPLACE_NOREPLACE) == 0);
	CHECK(strcmp(contents(path), "new") == 0);
}

TEST(a_link_at_the_path_is_replaced_not_followed)
{
	char path[256], target[256];
	snprintf(path, sizeof(path), "%s/link", tmpdir);
	snprintf(target, sizeof(target), "%s/secret", tmpdir);
	CHECK(replace_atomically(target, "secret", 6, 0600) == 0);
	CHECK(symlink(target, path) == 0);
	CHECK(replace_atomically(path, "page", 4, 0644) == 0);
	struct stat st;
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
	CHECK(strcmp(contents(target), "secret") == 0);
}

TEST(a_folder_that_is_missing_fails_with_enoent)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/no/such", tmpdir);
	CHECK(replace_atomically(path, "x", 1, 0644) == -ENOENT);
}

/* A file in the test folder holding text; its path goes to path. */
static void make_file(const char *name, const char *text, char *path, size_t len)
{
	int fd = fresh(name, path, len);
	write_full(fd, text, strlen(text));
	close(fd);
}

TEST(read_first_line_drops_the_line_end_and_keeps_the_rest_as_it_is)
{
	char path[256], buf[64];
	make_file("sysfs", "mq-deadline [none]\nsecond\n", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == 0 && strcmp(buf, "mq-deadline [none]") == 0);
	make_file("crlf", "  token \r\n", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == 0 && strcmp(buf, "  token ") == 0);
	make_file("noeol", "tsc", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == 0 && strcmp(buf, "tsc") == 0);
	make_file("blank", "\nafter\n", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == 0 && strcmp(buf, "") == 0);
}

TEST(read_first_line_cuts_a_long_line_to_the_buffer)
{
	char path[256], buf[5];
	make_file("long", "0123456789\n", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == 0 && strcmp(buf, "0123") == 0);
}

TEST(read_first_line_fails_with_enodata_or_the_open_errno_and_an_empty_buffer)
{
	char path[256], buf[16] = "stale";
	make_file("empty", "", path, sizeof(path));
	CHECK(read_first_line(path, buf, sizeof(buf)) == -ENODATA && buf[0] == '\0');
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	snprintf(buf, sizeof(buf), "stale");
	CHECK(read_first_line(path, buf, sizeof(buf)) == -ENOENT && buf[0] == '\0');
	CHECK(read_first_line(tmpdir, buf, sizeof(buf)) == -EISDIR && buf[0] == '\0');
}

TEST(fd_wait_times_out_waits_for_data_and_still_looks_once_after_the_deadline)
{
	int p[2];
	CHECK(pipe(p) == 0);
	int64_t t0 = clock_mono_ms();
	CHECK(fd_wait(p[0], POLLIN, t0 + 30) == -ETIMEDOUT);
	CHECK(clock_mono_ms() - t0 >= 30);
	CHECK(fd_wait(p[0], POLLIN, t0 - 1000) == -ETIMEDOUT);
	CHECK(write_full(p[1], "x", 1) == 0);
	/* Ready, with the deadline long gone: a last look still sees it. */
	CHECK(fd_wait(p[0], POLLIN, t0 - 1000) == 0);
	CHECK(fd_wait(p[1], POLLOUT, clock_mono_ms() + 1000) == 0);
	close(p[0]);
	close(p[1]);
	CHECK(fd_wait(p[0], POLLIN, clock_mono_ms() + 1000) == 0); /* POLLNVAL: the next call says */
}

TEST(path_split_names_the_folder_and_the_last_component)
{
	char dir[16];
	const char *name;
	CHECK(path_split("a/b/c.prom", dir, sizeof(dir), &name) == 0 && strcmp(dir, "a/b") == 0 && strcmp(name, "c.prom") == 0);
	CHECK(path_split("c.prom", dir, sizeof(dir), &name) == 0 && strcmp(dir, ".") == 0 && strcmp(name, "c.prom") == 0);
	CHECK(path_split("/c", dir, sizeof(dir), &name) == 0 && strcmp(dir, "/") == 0 && strcmp(name, "c") == 0);
	CHECK(path_split("/0123456789abcdef/c", dir, sizeof(dir), NULL) == -ENAMETOOLONG);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(write_full_writes_every_byte_and_appends_with_o_append);
	RUN(write_full_fails_with_the_errno_of_the_write);
	RUN(pwrite_full_writes_at_the_offset_and_leaves_the_file_offset);
	RUN(pread_full_returns_what_there_is_before_the_end_of_the_file);
	RUN(pread_full_fails_with_an_errno_not_a_count);
	RUN(read_first_line_drops_the_line_end_and_keeps_the_rest_as_it_is);
	RUN(read_first_line_cuts_a_long_line_to_the_buffer);
	RUN(read_first_line_fails_with_enodata_or_the_open_errno_and_an_empty_buffer);
	RUN(fd_wait_times_out_waits_for_data_and_still_looks_once_after_the_deadline);
	RUN(path_split_names_the_folder_and_the_last_component);
	RUN(replace_atomically_replaces_the_file_and_leaves_no_temporary);
	RUN(the_new_file_has_the_mode_less_the_umask);
	RUN(the_temporary_file_is_named_beside_the_path);
	RUN(noreplace_keeps_a_file_that_exists_and_removes_the_temporary);
	RUN(a_link_at_the_path_is_replaced_not_followed);
	RUN(a_folder_that_is_missing_fails_with_enoent);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return check_summary("test_fileio");
}
