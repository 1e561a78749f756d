/* result.c - freeing what a run measured. */
/* SPDX-License-Identifier: Apache-2.0 */
#include "results/result.h"

#include <stdlib.h>

void run_result_free(struct run_result *res)
{
	for (size_t i = 0; res->ops && i < res->nops; i++) {
		free(res->ops[i].buckets);
		free(res->ops[i].kind_buckets[0]);
		free(res->ops[i].kind_buckets[1]);
		free(res->ops[i].steady);
	}
	free(res->ops);
	res->ops = NULL;
	res->nops = 0;
	devices_log_free(&res->devices);
}
