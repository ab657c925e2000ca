/*
 * Markdown report, the sections behind the tables a review would print:
 * Little's law per repetition, the repetitions' spread, TPC-C, the
 * precondition, per drive, the instances, the superseded attempts, the
 * grouping keys and the published references. md_out.c writes the page and
 * the cells (report/md_int.h).
 */
#include "report/md_int.h"
#include "report/writer.h"

#include "report/pub_little.h"
#include "workload/registry.h"

#include <string.h>

void md_little_table(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "Σ threads", "TPS (sum)",
		"Σ threads / TPS ms", "pooled avg latency ms", "deviation", "check", NULL};

	strbuf_adds(sb, "## Little's law check\n\n"
			"In a closed loop every thread always has one transaction in flight, so "
			"Σ threads / TPS must equal the average latency. More than 5% off is a measurement "
			"warning. Not applicable (n/a) to rate-limited or think-time runs.\n\n");
	md_header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			report_md_cell(sb, g->label);
			md_cellf(sb, "%lld", (long long)g->reps[k].repetition);
			md_cellf(sb, "%lld", (long long)f->threads_sum);
			md_celln(sb, f->tps_sum, 2);
			md_celln(sb, f->little_pred_ms, 2);
			md_celln(sb, f->avg_ms_pooled, 2);
			md_cellf(sb, "%+.1f%%", 100.0 * f->little_dev);
			md_little_cell(sb, f->little, f->little_dev);
			md_endrow(sb);
		}
	}
	strbuf_addc(sb, '\n');
}

static void ci_cells(struct strbuf *sb, const struct spread *s)
{
	md_celln(sb, s->mean, 2);
	md_celln(sb, s->ci.sd, 2);
	md_range_cell(sb, s->ci.lo, s->ci.hi);
	md_range_cell(sb, s->min, s->max);
}

void md_repetitions(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetitions", "TPS mean", "sd", "95% CI",
		"min–max", "avg latency ms (mean of instances) mean", "sd", "95% CI", "min–max",
		"p99 ms (mean of instance p99s) mean", "sd", "95% CI", "min–max", NULL};
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= rep->groups[i].nreps > 1;
	if (!any)
		return;
	strbuf_adds(sb, "## Repetitions\n\nEach repetition is aggregated on its own; mean, sample standard deviation "
			"(sd), the 95% confidence interval of the mean (Student's t with n − 1 degrees of freedom) and "
			"the spread are taken over the repetitions' figures.\n\n");
	md_header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (g->nreps < 2)
			continue;
		report_md_cell(sb, g->label);
		md_cellf(sb, "%zu", g->nreps);
		ci_cells(sb, &g->tps);
		ci_cells(sb, &g->avg_ms_mean);
		if (g->has_p99_mean)
			ci_cells(sb, &g->p99_mean);
		else
			for (int k = 0; k < 4; k++)
				report_md_cell(sb, "–");
		md_endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

/* One drive over every run group (VM count). */
void md_per_drive(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	strbuf_adds(sb, "## Per drive\n\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *d = &rep->groups[i];
		bool first = true;

		if (d->all_drives)
			continue;
		for (size_t j = 0; j < i; j++)
			first &= rep->groups[j].all_drives || strcmp(rep->groups[j].drive, d->drive);
		if (!first)
			continue;
		strbuf_addf(sb, "### Drive %s\n\n", d->drive);
		report_table_drive(rep, d->drive, &t);
		md_table(sb, &t);
		report_table_release(&t);
		for (size_t r = 0; r < rep->runs->n; r++) {
			if (!strcmp(rep->runs->runs[r]->drive, d->drive) && rep->runs->runs[r]->drive_stack) {
				strbuf_addf(sb, "Block devices: %s\n\n", rep->runs->runs[r]->drive_stack);
				break;
			}
		}
		struct strbuf src;
		strbuf_init(&src, 0);
		if (report_tel_sources_text(rep, d->drive, &src))
			strbuf_addf(sb, "Telemetry sources: %s\n\n", src.buf);
		strbuf_release(&src);
	}
}

void md_tpcc(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "type", "count",
		"avg latency ms (pooled)", "p99 ms (mean of instance p99s)", "max ms", NULL};
	bool any = false;

	for (size_t i = 0; i < rep->ngroups; i++)
		any |= workload_tpm_type(rep->groups[i].kind) != NULL;
	if (!any)
		return;
	strbuf_adds(sb, "## TPC-C\n\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (!workload_tpm_type(g->kind))
			continue;
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			char b[32];
			report_fmt_num(b, sizeof(b), f->tpmc, 1);
			strbuf_addf(sb, "- %s, repetition %lld: tpmC %s (New-Orders per minute, summed over instances)\n",
				    g->label, (long long)g->reps[k].repetition, f->has_tpmc ? b : "n/a");
		}
	}
	strbuf_addc(sb, '\n');
	md_header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		if (!workload_tpm_type(g->kind))
			continue;
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			for (size_t t = 0; t < f->ntypes; t++) {
				report_md_cell(sb, g->label);
				md_cellf(sb, "%lld", (long long)g->reps[k].repetition);
				report_md_cell(sb, f->types[t].name);
				md_cellf(sb, "%llu", (unsigned long long)f->types[t].count);
				md_celln(sb, f->types[t].avg_ms, 2);
				md_celln(sb, f->types[t].p99_mean_of_instances_ms, 2);
				md_celln(sb, f->types[t].max_ms, 2);
				md_endrow(sb);
			}
		}
	}
	strbuf_addc(sb, '\n');
}

void md_precondition(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "repetition", "instances", "seconds",
		"TPS (sum)", "avg latency ms (mean of instances)", "p99 ms (mean of instance p99s)",
		"p99 ms (pooled)", NULL};

	strbuf_adds(sb, "## Precondition (not part of the result)\n\n"
			"The precondition brings the drive to steady state; its figures are shown for "
			"inspection only and never enter the tables above.\n\n");
	md_header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].pre;
			report_md_cell(sb, g->label);
			md_cellf(sb, "%lld", (long long)g->reps[k].repetition);
			md_cellf(sb, "%zu", f->n);
			if (!f->n) {
				for (int c = 0; c < 5; c++)
					report_md_cell(sb, "–");
				md_endrow(sb);
				continue;
			}
			md_cellf(sb, "%.0f", f->seconds_max);
			md_celln(sb, f->tps_sum, 2);
			md_celln(sb, f->avg_ms_mean, 2);
			md_opt_ms(sb, f->n_p99 > 0, f->p99_mean_of_instances_ms);
			md_opt_ms(sb, f->has_pooled_p99, f->p99_pooled_ms);
			md_endrow(sb);
		}
	}
	strbuf_addc(sb, '\n');
}

void md_instances(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	strbuf_adds(sb, "## Instances (sample phase)\n\n");
	report_table_instances(rep, &t);
	md_table(sb, &t);
	report_table_release(&t);
	strbuf_adds(sb, "≈: rebuilt from journal histogram buckets (no result file).\n\n");
}

/* Cut-off attempts kept by `campaign --resume`: listed, never counted above. */
void md_superseded(struct strbuf *sb, const struct report *rep)
{
	struct report_table t;

	if (!rep->runs->nsuperseded)
		return;
	strbuf_adds(sb, "## Superseded attempts\n\nCut-off attempts that `dbrig campaign --resume` kept as "
			"`<instance>.partial-<n>.*` before running them again: history, not counted in any figure "
			"above.\n\n");
	report_table_superseded(rep, &t);
	md_table(sb, &t);
	report_table_release(&t);
}

void md_keys(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"drive × run group", "campaign", "run group", "drive", "workload",
		"test", "VMs", "params", NULL};

	strbuf_adds(sb, "## Grouping keys\n\nResults are aggregated together only when every key below is equal.\n\n");
	md_header(sb, cols);
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		report_md_cell(sb, g->label);
		report_md_cell(sb, g->campaign);
		report_md_cell(sb, g->run_group);
		report_md_cell(sb, g->drive);
		report_md_cell(sb, g->kind);
		report_md_cell(sb, g->test);
		md_cellf(sb, "%lld", (long long)g->vm_count);
		md_cellf(sb, "`%s`", g->params);
		md_endrow(sb);
	}
	strbuf_addc(sb, '\n');
}

void md_references(struct strbuf *sb, const struct report *rep)
{
	static const char *const cols[] = {"file", "drive", "configuration", "workload", "VMs", "drives",
		"TPS", "avg latency ms", "p99 ms (mean of VM p99s)", "Little's law", "platform", "method", "source",
		NULL};
	struct strbuf why;

	strbuf_adds(sb, "## Published references\n\n");
	if (!rep->pub || !rep->pub->n) {
		strbuf_adds(sb, "None loaded.\n");
		return;
	}
	md_header(sb, cols);
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			report_md_cell(sb, rv->file);
			md_pub_name_cell(sb, p);
			report_md_cell(sb, p->label);
			md_cellf(sb, "%s %s", report_kind_title(p->kind), p->test);
			md_cellf(sb, "%lld", (long long)p->vm_count);
			md_cellf(sb, "%lld", (long long)p->drives);
			md_celln(sb, p->tps, 2);
			md_celln(sb, p->avg_ms, 2);
			md_opt_ms(sb, p->has_p99, p->p99_ms);
			md_pub_little(sb, p);
			report_md_cell(sb, rv->platform);
			report_md_cell(sb, p->method);
			md_cellf(sb, "%s, %s%s%s", rv->publisher, rv->title, *rv->url ? ", " : "", rv->url);
			md_endrow(sb);
		}
	}
	strbuf_adds(sb, "\nLittle's law for the published rows (docs/reading-reports.md, \"Published figures and "
			"Little's law\"):\n\n");
	strbuf_init(&why, 0);
	for (size_t i = 0; i < rep->pub->n; i++) {
		const struct pub_review *rv = &rep->pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			struct pub_little l;
			strbuf_reset(&why);
			pub_little(&rv->results[k], &l);
			pub_little_explain(&rv->results[k], &l, &why);
			strbuf_addf(sb, "- %s, %s (%s): %s.\n", rv->file, rv->results[k].label, rv->results[k].kind, why.buf);
		}
	}
	strbuf_release(&why);
}
