/* engine.c - the table of engines. */
#include "engines/engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct engine_ops *const engines[] = {
	&engine_sync_ops,
	&engine_libaio_ops,
#ifdef HAVE_LIBURING
	&engine_io_uring_ops,
#endif
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *engine_names(void)
{
	static char names[128];
	if (names[0] == '\0') {
		size_t len = 0;
		for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
						engines[i]->name);
	}
	return names;
}

const char *engine_missing_reason(const char *name)
{
#ifndef HAVE_LIBURING
	if (strcmp(name, "io_uring") == 0)
		return "this iobench was built without liburing; install liburing-dev and rerun ./configure && make";
#endif
	(void)name;
	return NULL;
}

int engine_fdatasync(int fd)
{
	int rc;
	do
		rc = fdatasync(fd);
	while (rc != 0 && errno == EINTR);
	return rc == 0 ? 0 : -errno;
}

bool engine_settle(struct io_req *r, long res)
{
	if (res > 0 && r->kind != IO_FDATASYNC && r->xfer_done + (size_t)res < r->len) {
		r->xfer_done += (size_t)res;
		return true;
	}
	if (res < 0)
		r->result = res;
	else if (r->kind != IO_FDATASYNC && res == 0)
		r->result = -EIO; /* end of file inside the target: never a full transfer */
	else
		r->result = r->kind == IO_FDATASYNC ? 0 : (int64_t)r->len;
	return false;
}
