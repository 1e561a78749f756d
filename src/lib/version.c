/* version.c - the release and the commit (build/gen/commit.h, made by the Makefile). */
/* SPDX-License-Identifier: Apache-2.0 */
#include "lib/version.h"

#include "commit.h"

const char iobench_version[] = IOBENCH_VERSION;
const char iobench_commit[] = IOBENCH_COMMIT;
