/* engine.c - the table of engines. */
#include "engine.h"

#include <string.h>

static const struct engine_ops *const engines[] = {
	&engine_sync_ops,
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
	return "sync";
}
