/*
 * dbrig tpcc's console output (cli/tpcc_run.c runs the command and calls
 * these): what a run prints as it goes and at the end of each phase.
 */
#include "cli/tpcc_text.h"

#include "cli/tpcc_conn.h"
#include "core/version.h"
#include "db/db.h"
#include "result/result.h"
#include "stats/hist.h"
#include "workload/tpcc/tpcc.h"

#include <stdio.h>

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/* "<lead>p95<sep>12.34" per requested percentile. */
static void print_pcts(const struct tpcc_text *t, const struct hist *h, const char *lead, const char *sep)
{
	char key[32];

	for (unsigned i = 0; i < t->npct; i++) {
		percentile_key(t->pct[i], key, sizeof(key));
		printf("%sp%s%s%.2f", lead, key, sep, ms(hist_value_at_percentile(h, t->pct[i])));
	}
}

/* The New-Orders tpmC counts: committed ones, and with --tpmc-include-rollbacks
 * those ended by their intended rollback too. */
static uint64_t tpmc_new_orders(const struct tpcc_text *t, const struct span_stats *s)
{
	return s->type_count[TT_NEW_ORDER] + (t->tpmc_rollbacks ? s->type_count[TT_NEW_ORDER_ROLLBACK] : 0);
}

void tpcc_text_banner(const struct tpcc_text *t, unsigned warehouses, unsigned terminals, unsigned connections,
		      const char *delays, double factor, const char *dialect)
{
	if (t->per_terminal)
		printf("dbrig %s tpcc: %u warehouses, %u terminals with a session each, delays %s (factor %.4f), dialect %s, "
		       "%s\n",
		       DBRIG_VERSION, warehouses, terminals, delays, factor, dialect, t->mode);
	else
		printf("dbrig %s tpcc: %u warehouses, %u terminals over %u connections, delays %s (factor %.4f), dialect %s, "
		       "%s\n",
		       DBRIG_VERSION, warehouses, terminals, connections, delays, factor, dialect, t->mode);
	fflush(stdout);
}

void tpcc_text_connected(unsigned sessions, double seconds, unsigned concurrency)
{
	printf("connected %u session%s in %.1fs (at most %u at a time)\n", sessions, sessions == 1 ? "" : "s", seconds,
	       concurrency);
	fflush(stdout);
}

void tpcc_text_closed(unsigned sessions, double seconds)
{
	if (seconds >= 1.0)
		printf("closed %u sessions in %.1fs\n", sessions, seconds);
}

void tpcc_text_phase_start(enum phase_kind p, double planned)
{
	printf("%s phase: %.0fs\n", phase_name(p), planned);
	fflush(stdout);
}

void tpcc_text_interval(const struct tpcc_text *t, const struct interval_report *ir)
{
	const struct span_stats *s = ir->s;

	printf("[ %.0fs ] %s tps: %.2f tpmC: %.1f lat (ms) avg: %.2f", ir->t, phase_name(ir->phase),
	       (double)s->c.events / ir->seconds, (double)tpmc_new_orders(t, s) * 60.0 / ir->seconds,
	       hist_mean(s->lat) / 1e6);
	print_pcts(t, s->lat, " ", ": ");
	printf(" rollbacks/s: %.2f err/s: %.2f reconn/s: %.2f\n", (double)s->c.rollbacks / ir->seconds,
	       (double)s->c.errors / ir->seconds, (double)s->c.reconnects / ir->seconds);
	fflush(stdout);
}

/* The per-type table: count, mix, latencies, retries, round trips and the p90 limit (clause 5.2.5.4). */
static void print_types(const struct tpcc_text *t, const struct span_stats *s)
{
	char key[32];

	printf("    %-19s %10s %7s %10s %10s", "type", "count", "mix %", "avg ms", "p90 ms");
	for (unsigned i = 0; i < t->npct; i++) {
		char label[40];
		if (t->pct[i] == 90)
			continue;
		percentile_key(t->pct[i], key, sizeof(key));
		snprintf(label, sizeof(label), "p%s ms", key);
		printf(" %10s", label);
	}
	printf(" %10s %8s %7s  %s\n", "max ms", "retries", "rt/txn", "p90 limit");
	for (unsigned ty = 0; ty < TPCC_TYPES; ty++) {
		const struct hist *h = s->type_lat[ty];
		uint64_t n = s->type_count[ty];
		double p90 = h ? ms(hist_value_at_percentile(h, 90)) : 0;
		char limit[40] = "";
		unsigned base = ty == TT_NEW_ORDER_ROLLBACK ? TT_NEW_ORDER : ty;
		if (n)
			snprintf(limit, sizeof(limit), "%s (%.0f s)", p90 <= tpcc_p90_limit_s[base] * 1000 ? "ok" : "EXCEEDED",
				 tpcc_p90_limit_s[base]);
		printf("    %-19s %10llu %7.2f %10.2f %10.2f", tpcc_type_name((enum tpcc_type)ty), (unsigned long long)n,
		       s->c.events ? 100.0 * (double)n / (double)s->c.events : 0, h ? hist_mean(h) / 1e6 : 0, p90);
		for (unsigned i = 0; i < t->npct; i++)
			if (t->pct[i] != 90)
				printf(" %10.2f", h ? ms(hist_value_at_percentile(h, t->pct[i])) : 0);
		printf(" %10.2f %8llu %7.2f  %s\n", h && n ? ms(h->max) : 0, (unsigned long long)s->type_retries[ty],
		       n ? (double)s->type_rt[ty] / (double)n : 0, limit);
	}
}

void tpcc_text_phase(const struct tpcc_text *t, const struct phase_report *pr)
{
	const struct span_stats *s = pr->s;
	double sec = pr->seconds > 0 ? pr->seconds : 1;

	printf("\n%s phase (%.1fs%s):\n", phase_name(pr->phase), pr->seconds, pr->complete ? "" : ", cut short");
	printf("    transactions: %llu (%.2f per sec.), tpmC: %.1f (%s per minute)\n", (unsigned long long)s->c.events,
	       (double)s->c.events / sec, (double)tpmc_new_orders(t, s) * 60.0 / sec,
	       t->tpmc_rollbacks ? "New-Orders, the intended rollbacks included" : "committed New-Orders");
	printf("    intended rollbacks: %llu, retried errors: %llu", (unsigned long long)s->c.rollbacks,
	       (unsigned long long)s->c.errors);
	for (unsigned k = 0, n = 0; k < DB_RETRY_KINDS; k++)
		if (s->retry_kind[k])
			printf("%s%s %llu", n++ ? ", " : " (", db_retry_kind_name((enum db_retry_kind)k),
			       (unsigned long long)s->retry_kind[k]);
	printf("%s, reconnects: %llu\n", s->c.errors ? ")" : "", (unsigned long long)s->c.reconnects);
	printf("    round trips: %.2f per transaction (%s mode: statements, commits and rollbacks sent, retries "
	       "included)\n",
	       s->c.events ? (double)s->round_trips / (double)s->c.events : 0, t->mode);
	printf("    latency (ms, from the terminal's submit): avg %.2f", hist_mean(s->lat) / 1e6);
	print_pcts(t, s->lat, ", ", " ");
	printf(", max %.2f\n", ms(s->lat->max));
	{
		const char *names[TPCC_TYPES];
		for (unsigned ty = 0; ty < TPCC_TYPES; ty++)
			names[ty] = tpcc_type_name((enum tpcc_type)ty);
		tpcc_conn_print(stdout, pr, names, TPCC_TYPES, t->per_terminal);
	}
	print_types(t, s);
	fflush(stdout);
}

void tpcc_text_counts(unsigned long long skipped_districts, unsigned long long remote_lines,
		      unsigned long long by_name)
{
	printf("\nDelivery: %llu districts skipped (no undelivered order); New-Order remote lines: %llu; "
	       "by-name customer lookups: %llu\n",
	       skipped_districts, remote_lines, by_name);
}
