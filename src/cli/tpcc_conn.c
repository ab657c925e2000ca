/* dbrig tpcc's connections: --connections, the connection-wait lines, the pool warning. */
#include "cli/tpcc_conn.h"

#include "core/log.h"
#include "core/units.h"
#include "stats/hist.h"

#include <stdint.h>
#include <string.h>

int tpcc_conn_parse(const char *arg, unsigned *connections, bool *per_terminal)
{
	int64_t n;

	*per_terminal = false;
	if (!strcmp(arg, "terminals")) {
		*per_terminal = true;
		*connections = 0;
		return 0;
	}
	if (parse_int64(arg, 1, TPCC_MAX_CONNECTIONS, &n) < 0) {
		log_error("--connections: \"%s\" is not valid (expected an integer from 1 to %d, or terminals: one session "
			  "per terminal)",
			  arg, TPCC_MAX_CONNECTIONS);
		return -1;
	}
	*connections = (unsigned)n;
	return 0;
}

static double ms(double ns)
{
	return ns / 1e6;
}

void tpcc_conn_print(FILE *f, const struct phase_report *pr, const char *const *type_names, unsigned ntypes,
		     bool per_terminal)
{
	const struct span_stats *s = pr->s;
	const struct hist *w = s->wait;
	const char *sep = "";

	if (!pr->pools)
		return;
	fprintf(f, "    connection wait (ms, submit to pickup): avg %.2f, p90 %.2f, p99 %.2f, max %.2f; service avg %.2f\n",
		ms(hist_mean(w)), ms((double)hist_value_at_percentile(w, 90)), ms((double)hist_value_at_percentile(w, 99)),
		ms((double)w->max), ms(hist_mean(s->lat) - hist_mean(w)));
	fprintf(f, "    wait avg ms by type:");
	for (unsigned t = 0; t < ntypes && t < RUNNER_MAX_TYPES; t++) {
		uint64_t n = s->type_count[t];
		fprintf(f, "%s %s %.2f", sep, type_names[t], n ? ms((double)s->type_wait_ns[t] / (double)n) : 0);
		sep = ",";
	}
	fprintf(f, "\n");
	if (per_terminal)
		fprintf(f, "    terminals waited for their own session (a deferred Delivery in flight) %.1f%% of the phase\n",
			100 * pr->queued_share);
	else
		fprintf(f, "    terminals queued for a connection %.1f%% of the phase (per pool; %u pool%s)\n",
			100 * pr->queued_share, pr->pools, pr->pools == 1 ? "" : "s");
}

void tpcc_conn_warn(const struct phase_report *pr, unsigned connections)
{
	if (pr->phase != PHASE_SAMPLE || !pr->pool_capped)
		return;
	log_warn("--connections=%u: terminals queued for a connection %.1f%% of the sample (more than %.0f%%): the pool, "
		 "not the server, capped the queue depth; raise --connections (above TPS x service time) or use "
		 "--connections=terminals",
		 connections, 100 * pr->queued_share, 100 * RUNNER_POOL_CAPPED_SHARE);
}
