/* CSV: report-groups.csv (one row per drive x run group) and report-instances.csv. */
#include "report/writer.h"

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

static const char *little_csv(enum little_state s)
{
	switch (s) {
	case LITTLE_OK:
		return "ok";
	case LITTLE_WARN:
		return "warning";
	case LITTLE_NA:
		return "n/a";
	}
	return "?";
}

static void groups_csv(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "campaign,run_group,drive,all_drives,drives,workload,test,vm_count,params,repetitions,"
			"instances,complete_runs,status,tps_sum,tps_sum_rep_min,tps_sum_rep_max,tps_instance_min,"
			"tps_instance_max,avg_latency_ms_mean_of_instances,avg_latency_ms_pooled,"
			"p99_ms_mean_of_instance_p99s,p99_ms_pooled,max_latency_ms,transactions,retried,reconnects,fatal,"
			"threads_sum,little_predicted_ms,little_deviation_pct,little_check,tpmc,"
			"pre_tps_sum,pre_avg_latency_ms_mean_of_instances,pre_p99_ms_mean_of_instance_p99s,"
			"published_matches\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct agg_group *g = &rep->groups[i];
		double tmin = 0, tmax = 0, maxms = 0, pre_tps = 0, pre_avg = 0, pre_p99 = 0, tpmc = 0;
		size_t npre_p99 = 0;
		unsigned long long tx = 0, retried = 0, reconn = 0, fatal = 0;
		size_t ninst = 0, npre = 0;
		long long threads = 0;
		bool pooled = g->nreps > 0, has_tpmc = false;
		struct strbuf refs;

		for (size_t k = 0; k < g->nreps; k++) {
			const struct agg_fig *f = &g->reps[k].sample;
			if (k == 0 || f->tps_min < tmin)
				tmin = f->tps_min;
			if (k == 0 || f->tps_max > tmax)
				tmax = f->tps_max;
			if (f->max_ms > maxms)
				maxms = f->max_ms;
			ninst += g->reps[k].n;
			tx += f->transactions;
			retried += f->retried;
			reconn += f->reconnects;
			fatal += f->fatal;
			threads += f->threads_sum;
			pooled &= f->has_pooled_p99;
			has_tpmc |= f->has_tpmc;
			tpmc += f->tpmc / (double)g->nreps;
			if (g->reps[k].pre.n) {
				npre++;
				pre_tps += g->reps[k].pre.tps_sum;
				pre_avg += g->reps[k].pre.avg_ms_mean;
			}
			if (g->reps[k].pre.n_p99) {
				npre_p99++;
				pre_p99 += g->reps[k].pre.p99_mean_of_instances_ms;
			}
		}
		field(sb, g->campaign, true);
		field(sb, g->run_group, false);
		field(sb, g->drive, false);
		field(sb, g->all_drives ? "yes" : "no", false);
		fint(sb, (long long)g->ndrives);
		field(sb, g->kind, false);
		field(sb, g->test, false);
		fint(sb, (long long)g->vm_count);
		field(sb, g->params, false);
		fint(sb, (long long)g->nreps);
		fint(sb, (long long)ninst);
		fint(sb, (long long)g->n_complete);
		field(sb, g->incomplete ? "incomplete" : "complete", false);
		fnum(sb, g->tps.mean, 3);
		fnum(sb, g->tps.min, 3);
		fnum(sb, g->tps.max, 3);
		fnum(sb, tmin, 3);
		fnum(sb, tmax, 3);
		fnum(sb, g->avg_ms_mean.mean, 3);
		fnum(sb, g->avg_ms_pooled.mean, 3);
		fopt(sb, g->has_p99_mean, g->p99_mean.mean);
		fopt(sb, pooled, g->p99_pooled.mean);
		fnum(sb, maxms, 3);
		fint(sb, (long long)tx);
		fint(sb, (long long)retried);
		fint(sb, (long long)reconn);
		fint(sb, (long long)fatal);
		fint(sb, threads);
		fnum(sb, g->nreps ? g->reps[0].sample.little_pred_ms : 0, 3);
		fnum(sb, 100.0 * g->little_dev, 2);
		field(sb, little_csv(g->little), false);
		fopt(sb, has_tpmc, tpmc);
		fopt(sb, npre > 0, npre ? pre_tps / (double)npre : 0);
		fopt(sb, npre > 0, npre ? pre_avg / (double)npre : 0);
		fopt(sb, npre_p99 > 0, npre_p99 ? pre_p99 / (double)npre_p99 : 0);
		strbuf_init(&refs, 0);
		for (size_t k = 0; k < g->nrefs; k++)
			strbuf_addf(&refs, "%s%s:%s", k ? ";" : "", g->refs[k]->review->file, g->refs[k]->label);
		field(sb, refs.buf, false);
		strbuf_release(&refs);
		strbuf_addc(sb, '\n');
	}
}

static void instances_csv(struct strbuf *sb, const struct report *rep)
{
	strbuf_adds(sb, "path,journal,campaign,run_group,drive,instance,vm_count,repetition,workload,test,params,"
			"status,from_journal,sample_seconds,threads,transactions,tps,avg_latency_ms,p99_ms,max_latency_ms,"
			"retried,reconnects,fatal,little_predicted_ms,little_deviation_pct,little_check,"
			"pre_seconds,pre_tps,pre_avg_latency_ms,pre_p99_ms\n");
	for (size_t i = 0; i < rep->runs->n; i++) {
		const struct run *r = rep->runs->runs[i];
		const struct phase_stat *p = &r->sample, *q = &r->pre;
		double pred = 0, dev = 0;
		enum little_state st = LITTLE_NA;

		field(sb, r->path, true);
		field(sb, r->journal ? r->journal : "", false);
		field(sb, r->campaign, false);
		field(sb, r->run_group, false);
		field(sb, r->drive, false);
		field(sb, r->instance, false);
		fint(sb, (long long)r->vm_count);
		fint(sb, (long long)r->repetition);
		field(sb, r->kind, false);
		field(sb, r->test, false);
		field(sb, r->params, false);
		field(sb, run_is_complete(r) ? "complete" :
			  r->status == RESULT_RUN_COMPLETE ? "sample-incomplete" : run_status_name(r->status), false);
		field(sb, r->from_journal ? "yes" : "no", false);
		if (p->present) {
			st = little_check((double)p->threads, p->tps, p->lat_avg_ms, r->open_loop, &pred, &dev);
			fnum(sb, p->seconds, 3);
			fint(sb, (long long)p->threads);
			fint(sb, (long long)p->transactions);
			fnum(sb, p->tps, 3);
			fnum(sb, p->lat_avg_ms, 3);
			fopt(sb, p->has_p99, p->p99_ms);
			fnum(sb, p->lat_max_ms, 3);
			fint(sb, (long long)p->err_ignored);
			fint(sb, (long long)p->err_reconnects);
			fint(sb, (long long)p->err_fatal);
			fnum(sb, pred, 3);
			fnum(sb, 100.0 * dev, 2);
			field(sb, little_csv(st), false);
		} else {
			strbuf_adds(sb, ",,,,,,,,,,,,,");
		}
		if (q->present) {
			fnum(sb, q->seconds, 3);
			fnum(sb, q->tps, 3);
			fnum(sb, q->lat_avg_ms, 3);
			fopt(sb, q->has_p99, q->p99_ms);
		} else {
			strbuf_adds(sb, ",,,,");
		}
		strbuf_addc(sb, '\n');
	}
}

static int csv_render(const struct report *rep, struct report_files *out)
{
	groups_csv(report_files_add(out, "report-groups.csv"), rep);
	instances_csv(report_files_add(out, "report-instances.csv"), rep);
	return 0;
}

const struct report_writer_ops report_csv_ops = {
	.name = "csv",
	.summary = "report-groups.csv (drive x run group) and report-instances.csv (instance)",
	.render = csv_render,
};
