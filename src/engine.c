/* engine.c - the table of engines. */
#include "engine.h"

#include <string.h>

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
#ifdef HAVE_LIBURING
	return "sync, libaio, io_uring";
#else
	return "sync, libaio";
#endif
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
