/*
 * SPDX-License-Identifier: Apache-2.0
 * cli/price.h - a price list read for a command (--prices FILE of report
 * and price), and `iobench price` (cmd_price in cli/commands.h).
 */
#ifndef IOBENCH_CLI_PRICE_H
#define IOBENCH_CLI_PRICE_H

#include "report/base/price.h"

/*
 * Read and check the price list at path (a UTF-8 byte-order mark skipped)
 * into *out (free it with price_free). 0, or EXIT_USAGE with the one line
 * said (diag_usage): not readable, not JSON, or a figure no price is,
 * named by file and key ("p.json: instances.m5.large: ...").
 */
int cli_load_prices(const char *path, struct price_list **out);

#endif
