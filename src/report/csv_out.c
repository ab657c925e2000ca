/* CSV: report-groups.csv (one row per drive x run group), report-instances.csv and
 * report-compare.csv (neighbouring drives of a run group): the CSV columns of report/tables.c's
 * tables, rendered cell by cell (csv_table, csv_cell). */
#include "report/writer.h"
#include "report/tables.h"

#include <stdio.h>
#include <string.h>

static void field(struct strbuf *sb, const char *s, bool first)
{
	if (!first)
		strbuf_addc(sb, ',');
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addc(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addc(sb, '"');
		strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '"');
}

static void fnum(struct strbuf *sb, double v, int decimals)
{
	strbuf_addf(sb, ",%.*f", decimals, v);
}

static void fint(struct strbuf *sb, long long v)
{
	strbuf_addf(sb, ",%lld", v);
}

static void fopt(struct strbuf *sb, bool has, double v)
{
	if (has)
		fnum(sb, v, 3);
	else
		strbuf_addc(sb, ',');
}

/* sd and 95% CI over repetitions; empty with one repetition. */
static void ci_fields(struct strbuf *sb, const struct spread *s)
{
	if (!s->ci.has_ci) {
		strbuf_adds(sb, ",,,");
		return;
	}
	fnum(sb, s->ci.sd, 3);
	fnum(sb, s->ci.lo, 3);
	fnum(sb, s->ci.hi, 3);
}

static void steady_fields(struct strbuf *sb, enum steady_state st, const struct steady_result *r)
{
	field(sb, steady_state_key(st), false);
	fint(sb, r ? (long long)r->rounds : 0);
	if (r && r->state != STEADY_NA) {
		fnum(sb, 100 * r->excursion, 2);
		fnum(sb, 100 * r->slope_excursion, 2);
	} else {
		strbuf_adds(sb, ",,");
	}
}

/* The sample telemetry behind the bottleneck; empty without telemetry. */
static void verdict_fields(struct strbuf *sb, bool has, const struct verdict_in *in, const struct verdict *v,
			   const struct tel_dev *d)
{
	if (!has) {
		strbuf_adds(sb, ",,,,,,,,,,,,,");
		return;
	}
	field(sb, bottleneck_name(v->bottleneck), false);
	fopt(sb, in->has_host_cpu, 100 * in->host_cpu_busy);
	fopt(sb, in->has_guest_cpu, 100 * in->guest_cpu_busy);
	fopt(sb, in->has_driver_cpu, v->driver.per_loop);
	field(sb, !in->has_driver_cpu && !in->has_conn_wait ? "" : v->driver.saturated ? "yes" : "no", false);
	field(sb, d ? d->name : "", false);
	fopt(sb, d != NULL, d ? d->r_iops : 0);
	fopt(sb, d != NULL, d ? d->w_iops : 0);
	fopt(sb, d != NULL, d ? d->r_mbps : 0);
	fopt(sb, d != NULL, d ? d->w_mbps : 0);
	fopt(sb, d != NULL, d ? d->await_ms : 0);
	fopt(sb, d != NULL, d ? d->queue_depth : 0);
	fopt(sb, d && d->has_util, d ? 100 * d->util : 0);
}

/* Welch's p, empty when there is no test. */
static void welch_p(struct strbuf *sb, const struct ci_welch *w)
{
	if (w->valid)
		strbuf_addf(sb, ",%.6g", w->p);
	else
		strbuf_addc(sb, ',');
}

/* ratio, its CI, Welch's p and yes/no/n/a of one latency figure (empty when absent). */
static void cmp_latency_csv(struct strbuf *sb, bool has, const struct ci_ratio *r, const struct ci_welch *w)
{
	if (!has) {
		strbuf_adds(sb, ",,,,,");
		return;
	}
	fnum(sb, r->ratio, 4);
	fopt(sb, r->valid, r->lo);
	fopt(sb, r->valid, r->hi);
	welch_p(sb, w);
	field(sb, rt_significant_key(w), false);
}

/* As many empty fields as column col has ("a,b,c": three). */
static void empty_fields(struct strbuf *sb, const struct rt_col *col)
{
	strbuf_addc(sb, ',');
	for (const char *s = col->csv; *s; s++)
		if (*s == ',')
			strbuf_addc(sb, ',');
}

/* One cell of a table built by report/tables.c, as column col's CSV fields (each after a comma but
 * the row's first, which is text). */
static void csv_cell(struct strbuf *sb, const struct rt_cell *c, const struct rt_col *col, bool first)
{
	switch (c->kind) {
	case RT_TEXT:
	case RT_NAME:
	case RT_GROUP_LINK:
	case RT_RUN_GROUP:
	case RT_BOARD_DRIVE:
		field(sb, c->text, first);
		break;
	case RT_INT:
	case RT_COUNT:
		fint(sb, c->i);
		break;
	case RT_NUM:
	case RT_BOARD_NUM:
		fopt(sb, c->has, c->a);
		break;
	case RT_FIXED:
	case RT_LATENCY:
		fnum(sb, c->a, col->csv_prec);
		break;
	case RT_SPREAD:
		if (c->has)
			fnum(sb, c->spread->mean, col->csv_prec);
		else
			strbuf_addc(sb, ',');
		break;
	case RT_CI:
		ci_fields(sb, c->spread);
		break;
	case RT_RANGE:
		fnum(sb, c->a, col->csv_prec);
		fnum(sb, c->b, col->csv_prec);
		break;
	case RT_INSTANCES:
		fint(sb, (long long)c->n);
		break;
	case RT_RUN_STATUS:
		field(sb, rt_run_status_key(c->run), false);
		field(sb, rt_yes_no(c->run->from_journal), false);
		break;
	case RT_LITTLE:
		fnum(sb, c->b, 3);
		fnum(sb, 100.0 * c->a, 2);
		field(sb, little_state_name(c->little), false);
		break;
	case RT_STEADY:
		steady_fields(sb, c->steady, c->steady_r);
		break;
	case RT_BOTTLENECK:
		verdict_fields(sb, c->has, c->vin, c->verdict, c->dev);
		break;
	case RT_RATIO:
		fnum(sb, c->ratio->ratio, col->csv_prec);
		fopt(sb, c->ratio->valid, c->ratio->lo);
		fopt(sb, c->ratio->valid, c->ratio->hi);
		break;
	case RT_WELCH:
		fopt(sb, c->welch->valid, c->welch->t);
		fopt(sb, c->welch->valid, c->welch->df);
		welch_p(sb, c->welch);
		field(sb, rt_significant_key(c->welch), false);
		break;
	case RT_LAT_RATIO:
		cmp_latency_csv(sb, c->has, c->ratio, c->welch);
		break;
	case RT_MISSING:
	case RT_SPAN:
	case RT_SPANNED:
	case RT_STATUS:
	case RT_DEVICE:
	case RT_PCT:
	case RT_HOST_CPU:
	case RT_DRIVER_CPU:
	case RT_RANKS:
		empty_fields(sb, col); /* no CSV table has them as one of its columns */
		break;
	}
}

/* A table built by report/tables.c: its CSV columns' fields, then a line per row. */
static void csv_table(struct strbuf *sb, const struct report_table *t)
{
	bool first = true;

	for (size_t c = 0; c < t->ncols; c++) {
		if (!(t->cols[c].in & RT_CSV))
			continue;
		strbuf_addf(sb, "%s%s", first ? "" : ",", t->cols[c].csv);
		first = false;
	}
	strbuf_addc(sb, '\n');
	for (size_t r = 0; r < t->nrows; r++) {
		first = true;
		for (size_t c = 0; c < t->ncols; c++) {
			if (!(t->cols[c].in & RT_CSV))
				continue;
			csv_cell(sb, rt_at(t, r, c), &t->cols[c], first);
			first = false;
		}
		strbuf_addc(sb, '\n');
	}
}

static void groups_csv(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_summary(rep, &t);
	csv_table(sb, &t);
	report_table_release(&t);
}

static void instances_csv(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_instances(rep, &t);
	csv_table(sb, &t);
	report_table_release(&t);
}

static void compare_csv(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	report_table_compare(rep, &t);
	csv_table(sb, &t);
	report_table_release(&t);
}

static int csv_render(const struct report *rep, struct report_files *out)
{
	groups_csv(report_files_add(out, "report-groups.csv"), rep);
	instances_csv(report_files_add(out, "report-instances.csv"), rep);
	compare_csv(report_files_add(out, "report-compare.csv"), rep);
	return 0;
}

const struct report_writer_ops report_csv_ops = {
	.name = "csv",
	.summary = "report-groups.csv (drive x run group), report-instances.csv (instance), report-compare.csv (drives)",
	.render = csv_render,
};
