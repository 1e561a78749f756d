/* common.c - what the asynchronous and the synchronous engines share: settling a completion, fdatasync. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "engines/engine.h"

#include <errno.h>
#include <unistd.h>

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
