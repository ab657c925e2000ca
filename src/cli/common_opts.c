/* --percentile, shared by dbrig sysbench and dbrig tpcc. */
#include "cli/cli.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <stdlib.h>
#include <string.h>

int cli_parse_percentiles(const char *s, double out[CLI_MAX_PERCENTILES], unsigned *n)
{
	char *copy = xstrdup(s);
	char *save = NULL;
	int ret = 0;

	*n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;
		if (parse_double(tok, &v) < 0 || v < 0 || v > 100 || *n >= CLI_MAX_PERCENTILES) {
			ret = -1;
			break;
		}
		if (v == 0) /* sysbench: 0 disables percentiles */
			continue;
		out[(*n)++] = v;
	}
	free(copy);
	if (ret < 0)
		log_error("--percentile: \"%s\" is not valid (expected numbers from 0 to 100, comma-separated, e.g. 95 or "
			  "50,95,99)",
			  s);
	return ret;
}
