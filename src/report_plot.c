/* report_plot.c - gnuplot scripts, data and rendering for `iobench report --plot`. */
#include "report_plot.h"

int rep_plot(const struct rep_db *db, const struct rep_opts *o,
	     const struct table tables[SEC_COUNT], const char *dir)
{
	(void)db; (void)o; (void)tables; (void)dir;
	return -1;
}
