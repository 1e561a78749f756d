/* test_fileio.c - whole transfers on real files: what comes short, what fails. */
#include "check.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
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

int main(void)
{
	if (!mkdtemp(tmpdir))
		return 1;
	RUN(write_full_writes_every_byte_and_appends_with_o_append);
	RUN(write_full_fails_with_the_errno_of_the_write);
	RUN(pwrite_full_writes_at_the_offset_and_leaves_the_file_offset);
	RUN(pread_full_returns_what_there_is_before_the_end_of_the_file);
	RUN(pread_full_fails_with_an_errno_not_a_count);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return check_summary("test_fileio");
}
