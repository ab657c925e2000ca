/* The workload registry: one explicit list (workload/registry.h). */
#include "workload/registry.h"

#include "core/jsonr.h"
#include "core/strbuf.h"
#include "workload/sysbench/sysbench.h"
#include "workload/tpcc/tpcc.h"

#include <stdio.h>
#include <string.h>

static const char *const sysbench_tests[] = {
	"oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select",
	"oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete", NULL,
};

static const struct workload_scale_opt sysbench_scale[] = {
	{"tables", WL_SB_TABLES_MIN, WL_SB_TABLES_MAX, 1},
	{"table-size", WL_SB_TABLE_SIZE_MIN, WL_SB_TABLE_SIZE_MAX, 10000},
	{NULL, 0, 0, 0},
};

static const char *const sysbench_scale_keys[] = {"tables", "table-size", NULL};
static const char *const sysbench_params[] = {"tables", "table_size", NULL};

static int sysbench_prepare(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp,
			    unsigned threads, struct wl_load_stats *st)
{
	struct sb_load_stats s = {0, 0};
	int ret = sb_prepare(ctx, drv, cp, threads, &s);

	st->rows = s.rows;
	st->seconds = s.seconds;
	st->note[0] = '\0';
	return ret;
}

static int sysbench_cleanup(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp)
{
	return sb_cleanup(ctx, drv, cp);
}

static int sysbench_check(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp,
			  struct strbuf *fp)
{
	return sb_check(ctx, drv, cp, fp);
}

const struct workload_desc workload_sysbench = {
	.name = "sysbench",
	.display = "sysbench",
	.summary = "sysbench 1.0 OLTP: the sbtest tables and the oltp_* statement mixes",
	.database = "sbtest",
	.tests = sysbench_tests,
	.connections_option = "threads",
	.rate_option = "rate",
	.scale_option = "tables",
	.scale_opts = sysbench_scale,
	.ops = &sysbench_workload_ops,
	.mysql_only = true,
	.title = "sysbench OLTP",
	.default_test = "oltp_read_write",
	.scale_params = sysbench_params,
	/* 2 x 200,000 rows took 273 B a row in their .ibd files and 167 B a row of undo in ibdata1. */
	.data_scale = "tables*table-size",
	.data_unit_bytes = UINT64_C(440),
	.fingerprint_tables_rows = true,
	.golden_names_test = true,
	.golden_keys = sysbench_scale_keys,
	.golden_load_text = "{tables} table(s) of {table-size} rows into the golden copy",
	.golden_size_text = "{tables*table-size} rows ({tables} table(s) x {table-size})",
	.plan_text = "sysbench {test}: {tables} table(s) x {table-size} rows, {threads} threads per instance",
	.prepare = sysbench_prepare,
	.cleanup = sysbench_cleanup,
	.check = sysbench_check,
};

static const struct workload_scale_opt tpcc_scale[] = {
	{"warehouses", WL_TPCC_WAREHOUSES_MIN, WL_TPCC_WAREHOUSES_MAX, 1},
	{"terminals", WL_TPCC_TERMINALS_MIN, WL_TPCC_TERMINALS_MAX, 0},
	{NULL, 0, 0, 0},
};

static const char *const tpcc_scale_keys[] = {"warehouses", NULL};
static const char *const tpcc_params[] = {"warehouses", NULL};

static int tpcc_prepare_entry(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp,
			      unsigned threads, struct wl_load_stats *st)
{
	struct tpcc_ctx *x = ctx;
	struct tpcc_load_stats s;
	int ret;

	memset(&s, 0, sizeof(s));
	ret = tpcc_prepare(x->sql, x->warehouses, drv, cp, threads, x->seed, x->pad_to, &s);
	st->rows = s.rows;
	st->seconds = s.seconds;
	snprintf(st->note, sizeof(st->note), "C-load: C_LAST %u, C_ID %u, OL_I_ID %u", s.c_load.c_last, s.c_load.c_id,
		 s.c_load.ol_i_id);
	return ret;
}

static int tpcc_cleanup_entry(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp)
{
	return tpcc_cleanup(((struct tpcc_ctx *)ctx)->sql, drv, cp);
}

static int tpcc_check_entry(void *ctx, const struct db_driver_ops *drv, const struct db_conn_params *cp,
			    struct strbuf *fp)
{
	return tpcc_check(((struct tpcc_ctx *)ctx)->sql, drv, cp, fp);
}

const struct workload_desc workload_tpcc = {
	.name = "tpcc",
	.display = "TPC-C",
	.summary = "TPC-C: nine tables, five transactions, terminals with keying and think times",
	.database = "tpcc",
	.tests = NULL,
	.connections_option = "connections",
	.check_option = "check",
	.pacing = "tpcc paces its terminals with workload.options.delays",
	.scale_option = "warehouses",
	.scale_opts = tpcc_scale,
	.ops = &tpcc_workload_ops,
	.title = "TPC-C",
	.default_test = "tpcc",
	.tpm_type = "new_order",
	.scale_params = tpcc_params,
	.users_param = "terminals",
	.users_per_scale = 10, /* TPC-C: ten terminals per warehouse */
	/* 2 warehouses took 226 MiB, the item table included. */
	.data_scale = "warehouses",
	.data_unit_bytes = UINT64_C(113) << 20,
	.delivery_log = true,
	.terminal_sessions = true,
	.golden_keys = tpcc_scale_keys,
	.golden_load_text = "the TPC-C golden copy (warehouses {warehouses})",
	.golden_size_text = "{warehouses} warehouse(s)",
	.plan_text = "tpcc: {warehouses} warehouse(s), {threads} connections per instance",
	.prepare = tpcc_prepare_entry,
	.cleanup = tpcc_cleanup_entry,
	.check = tpcc_check_entry,
};

const struct workload_desc *const workloads[] = {&workload_sysbench, &workload_tpcc, NULL};

const struct workload_desc *workload_find(const char *name)
{
	for (const struct workload_desc *const *w = workloads; *w; w++)
		if (!strcmp((*w)->name, name))
			return *w;
	return NULL;
}

void workload_list(struct strbuf *sb, const char *quote, const char *sep, const char *last)
{
	for (const struct workload_desc *const *w = workloads; *w; w++)
		strbuf_addf(sb, "%s%s%s%s", w == workloads ? "" : w[1] ? sep : last, quote, (*w)->name, quote);
}

void workload_names(struct strbuf *sb)
{
	workload_list(sb, "", ", ", " or ");
}

const struct workload_scale_opt *workload_scale_opt(const struct workload_desc *wd, const char *name)
{
	for (const struct workload_scale_opt *o = wd->scale_opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

int workload_has_test(const struct workload_desc *wd, const char *test)
{
	if (!wd->tests)
		return !strcmp(test, wd->name);
	for (const char *const *t = wd->tests; *t; t++)
		if (!strcmp(*t, test))
			return 1;
	return 0;
}

const char *workload_tpm_type(const char *kind)
{
	const struct workload_desc *wd = workload_find(kind);

	return wd ? wd->tpm_type : NULL;
}

bool workload_scale_param(const char *kind, const char *key)
{
	const struct workload_desc *wd = workload_find(kind);

	for (const char *const *p = wd ? wd->scale_params : NULL; p && *p; p++)
		if (!strcmp(*p, key))
			return true;
	return false;
}

bool workload_has_users(const char *kind)
{
	const struct workload_desc *wd = workload_find(kind);

	return wd && wd->users_param;
}

void workload_kind_fail(struct jsonr *jr, const char *path, const char *key, const struct json_t *v)
{
	struct strbuf names;

	strbuf_init(&names, 0);
	workload_list(&names, "\"", ", ", " or ");
	jsonr_fail(jr, path, key, v, names.buf);
	strbuf_release(&names);
}
