#include "report/pub_little.h"

#include "report/aggregate.h"
#include "report/writer.h"

#include <math.h>
#include <string.h>

/* Digits after the point as the file wrote the number, as far as a double
 * keeps them (7869.21 -> 2, 29086 -> 0; 8.80 reads as 8.8 -> 1). */
static int decimals_of(double v)
{
	for (int d = 0; d < 6; d++) {
		double x = v * pow(10, d);
		if (fabs(x - nearbyint(x)) <= 1e-6 * fmax(1.0, fabs(x)))
			return d;
	}
	return 6;
}

void pub_little(const struct pub_result *p, struct pub_little *out)
{
	double pred = 0, dev = 0;

	memset(out, 0, sizeof(*out));
	out->check = PUB_LITTLE_NA;
	/* Reviews publish latencies with two decimals; a JSON number drops trailing zeros.
	 * A row that states its printed digits (avg_latency_decimals) is taken at its word. */
	out->lat_decimals = decimals_of(p->avg_ms) > 2 ? decimals_of(p->avg_ms) : 2;
	if (p->x.has_lat_decimals && p->x.lat_decimals >= decimals_of(p->avg_ms))
		out->lat_decimals = p->x.lat_decimals;
	if (p->users_per_vm) {
		out->kind = PUB_LITTLE_THINK;
		out->clients = p->vm_count * p->users_per_vm;
		out->cycle_s = (double)out->clients / p->tps;
		out->in_flight_per_vm = p->tps / (double)p->vm_count * p->avg_ms / 1000.0;
		return;
	}
	if (!p->threads_per_vm)
		return;
	out->kind = PUB_LITTLE_CLOSED;
	out->clients = p->vm_count * p->threads_per_vm;
	enum little_state st = little_check((double)out->clients, p->tps, p->avg_ms, false, &pred, &dev);
	out->implied_ms = pred;
	out->deviation = dev;
	/* Both published figures are rounded: the latency by half a unit of its last
	 * digit, the TPS by half of its own, which moves clients / TPS by that share. */
	out->rounding_ms = 0.5 * pow(10, -out->lat_decimals) + pred * 0.5 * pow(10, -decimals_of(p->tps)) / p->tps;
	/* The allowance covers a printed value's rounding, so only a value printed
	 * as nonzero gets it: a latency that prints as 0.00 says nothing. */
	if (nearbyint(p->avg_ms * pow(10, out->lat_decimals)) != 0 && nearbyint(pred * pow(10, out->lat_decimals)) != 0 &&
	    fabs(pred - p->avg_ms) <= out->rounding_ms * (1 + 1e-9))
		out->check = PUB_LITTLE_ROUNDING;
	else
		switch (st) {
		case LITTLE_OK:
			out->check = PUB_LITTLE_TOLERANCE;
			break;
		case LITTLE_WARN:
		case LITTLE_NA:
			out->check = PUB_LITTLE_OFF;
			break;
		}
}

const char *pub_little_check_name(enum pub_little_check c)
{
	switch (c) {
	case PUB_LITTLE_ROUNDING:
		return "within_rounding";
	case PUB_LITTLE_TOLERANCE:
		return "within_tolerance";
	case PUB_LITTLE_OFF:
		return "off";
	case PUB_LITTLE_NA:
		return "n/a";
	}
	return "?";
}

void pub_little_cell(const struct pub_result *p, const struct pub_little *l, struct strbuf *sb)
{
	(void)p;
	switch (l->kind) {
	case PUB_LITTLE_UNKNOWN:
		strbuf_adds(sb, "n/a: threads not published");
		return;
	case PUB_LITTLE_THINK:
		strbuf_addf(sb, "think times: %.2f s cycle, %.1f in flight per VM", l->cycle_s, l->in_flight_per_vm);
		return;
	case PUB_LITTLE_CLOSED:
		break;
	}
	switch (l->check) {
	case PUB_LITTLE_ROUNDING:
		strbuf_adds(sb, "yes, within the rounding: ");
		break;
	case PUB_LITTLE_TOLERANCE:
		strbuf_addf(sb, "yes, within %.0f%%: ", 100.0 * LITTLE_TOLERANCE);
		break;
	case PUB_LITTLE_OFF:
	case PUB_LITTLE_NA:
		strbuf_adds(sb, "NO: ");
		break;
	}
	strbuf_addf(sb, "%.*f ms (%+.2f%%)", l->lat_decimals, l->implied_ms, 100.0 * l->deviation);
}

void pub_little_explain(const struct pub_result *p, const struct pub_little *l, struct strbuf *sb)
{
	char tps[32], per_vm[32], clients[32], users[32];

	report_fmt_num(tps, sizeof(tps), p->tps, decimals_of(p->tps));
	report_fmt_num(clients, sizeof(clients), (double)l->clients, 0);
	switch (l->kind) {
	case PUB_LITTLE_UNKNOWN:
		strbuf_adds(sb, "neither threads_per_vm nor users_per_vm is published: nothing to check");
		return;
	case PUB_LITTLE_THINK:
		report_fmt_num(users, sizeof(users), (double)p->users_per_vm, 0);
		report_fmt_num(per_vm, sizeof(per_vm), p->tps / (double)p->vm_count, 2);
		strbuf_addf(sb, "%s users x %lld VMs / %s TPS = %.3f s, each user's mean cycle (response + keying + "
				"think time); %s TPS per VM x %.*f ms = %.1f transactions in flight per VM: users with think "
				"times are not a closed loop, so the latency is not users / TPS",
			    users, (long long)p->vm_count, tps, l->cycle_s, per_vm, l->lat_decimals, p->avg_ms,
			    l->in_flight_per_vm);
		return;
	case PUB_LITTLE_CLOSED:
		break;
	}
	strbuf_addf(sb, "%lld VMs x %lld threads / %s TPS = %.*f ms against the published %.*f ms (%+.2f%%): ",
		    (long long)p->vm_count, (long long)p->threads_per_vm, tps, l->lat_decimals + 1, l->implied_ms,
		    l->lat_decimals, p->avg_ms, 100.0 * l->deviation);
	switch (l->check) {
	case PUB_LITTLE_ROUNDING:
		strbuf_addf(sb, "obeys Little's law within the published rounding (+/- %.4f ms)", l->rounding_ms);
		break;
	case PUB_LITTLE_TOLERANCE:
		strbuf_addf(sb, "obeys Little's law within %.0f%%, not within the published rounding (+/- %.4f ms)",
			    100.0 * LITTLE_TOLERANCE, l->rounding_ms);
		break;
	case PUB_LITTLE_OFF:
	case PUB_LITTLE_NA:
		strbuf_addf(sb, "more than %.0f%% off: these figures were not measured as a closed loop of %s threads",
			    100.0 * LITTLE_TOLERANCE, clients);
		break;
	}
}
