/*
 * Little's law for a published row (docs/reading-reports.md, "Published
 * figures and Little's law"). With threads_per_vm the row is a closed loop:
 * every thread always has one transaction in flight, so
 *   vm_count x threads_per_vm / tps = the average latency,
 * checked against the published avg_latency_ms, first within the published
 * rounding (half a unit of the last digit of the latency, at least 2
 * decimals, widened by what half a unit of the TPS's last digit moves the
 * quotient), then within LITTLE_TOLERANCE (report/aggregate.h), as dbrig's
 * own runs are. With users_per_vm (TPC-C users that key and think) it is
 * not a closed loop; the law then gives each user's mean cycle
 *   vm_count x users_per_vm / tps  (response + keying + think time)
 * and the transactions in flight per VM, tps / vm_count x avg latency.
 */
#ifndef DBRIG_REPORT_PUB_LITTLE_H
#define DBRIG_REPORT_PUB_LITTLE_H

#include "core/strbuf.h"
#include "report/published.h"

#include <stdint.h>

enum pub_little_kind {
	PUB_LITTLE_UNKNOWN, /* neither threads_per_vm nor users_per_vm published */
	PUB_LITTLE_CLOSED,  /* threads_per_vm: a closed loop */
	PUB_LITTLE_THINK,   /* users_per_vm: think times, not a closed loop */
};

enum pub_little_check {
	PUB_LITTLE_ROUNDING,  /* closed: agrees within the published rounding */
	PUB_LITTLE_TOLERANCE, /* closed: beyond the rounding, within LITTLE_TOLERANCE */
	PUB_LITTLE_OFF,       /* closed: more than LITTLE_TOLERANCE off */
	PUB_LITTLE_NA,        /* not a closed loop, or nothing to check */
};

struct pub_little {
	enum pub_little_kind kind;
	enum pub_little_check check;
	int64_t clients;          /* vm_count x (threads or users) per VM */
	int lat_decimals;         /* of the published average latency, at least 2 */
	double rounding_ms;       /* closed: the published rounding, in ms */
	double implied_ms;        /* closed: 1000 x clients / tps */
	double deviation;         /* closed: (implied - published) / published, as for runs */
	double cycle_s;           /* think: clients / tps */
	double in_flight_per_vm;  /* think: tps / vm_count x avg latency */
};

void pub_little(const struct pub_result *p, struct pub_little *out);
/* A table cell: "yes, within the rounding: 8.80 ms (-0.02%)", "think times:
 * 4.75 s cycle, 35.5 in flight per VM", "n/a: ..." (plain text). */
void pub_little_cell(const struct pub_result *p, const struct pub_little *l, struct strbuf *sb);
/* The arithmetic and the verdict in one sentence (plain text). */
void pub_little_explain(const struct pub_result *p, const struct pub_little *l, struct strbuf *sb);
/* "within_rounding", "within_tolerance", "off", "n/a". */
const char *pub_little_check_name(enum pub_little_check c);

#endif
