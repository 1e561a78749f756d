/* engine.c - the table of engines, and what callers ask of it. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "engines/engine.h"

#include <stdio.h>
#include <string.h>

/* The first row is the default engine. */
static const struct engine_ops *const engines[] = {
	&engine_sync_ops,
	&engine_libaio_ops,
	&engine_io_uring_ops,
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (!engines[i]->missing && strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine_ops *engine_default(void)
{
	return engines[0];
}

bool engine_can(const struct engine_ops *e, unsigned caps)
{
	return (e->caps & caps) == caps;
}

const struct engine_ops *engine_with(unsigned caps)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (engine_can(engines[i], caps))
			return engines[i];
	return NULL;
}

const char *engine_names(void)
{
	static char names[128];
	if (names[0] == '\0') {
		size_t len = 0;
		for (size_t i = 0; i < NENGINES; i++)
			if (!engines[i]->missing)
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "",
							engines[i]->name);
	}
	return names;
}

const char *engine_missing_reason(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i]->missing;
	return NULL;
}
