/*
 * Every registry of dbrig, walked: db drivers, engines, workloads, targets,
 * the local target's engines, report writers, commands. Each entry has a unique name, is found by it,
 * and fills every op its kind requires (optional ops are named as such in
 * the vtable's header). A new backend that forgets an op fails here, not at
 * run time. (Not a mirror of one src/ file: it spans all the registries.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/features.h"
#include "db/db.h"
#include "db/engine.h"
#include "report/writer.h"
#include "target/local/local.h"
#include "target/target.h"
#include "workload/registry.h"
#include "workload/workload.h"

static void test_db_drivers(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct db_driver_ops *const *d = db_drivers; *d; d++, n++) {
		const struct db_driver_ops *o = *d;
		assert_non_null(o->name);
		assert_non_null(o->describe);
		assert_non_null(o->connect);
		assert_non_null(o->disconnect);
		assert_non_null(o->server_version);
		assert_non_null(o->query);
		assert_non_null(o->prepare);
		assert_non_null(o->execute);
		assert_non_null(o->fetch);
		assert_non_null(o->begin);
		assert_non_null(o->commit);
		assert_non_null(o->rollback);
		/* The non-blocking forms come as a set, or not at all. */
		bool nb = o->execute_start || o->query_start || o->cont || o->fd;
		if (nb) {
			assert_non_null(o->execute_start);
			assert_non_null(o->query_start);
			assert_non_null(o->cont);
			assert_non_null(o->fd);
			assert_non_null(o->timeout_ms);
		}
		/* A driver that does not connect by a string describes host and port, and then speaks one dialect. */
		if (!o->uses_dsn)
			assert_non_null(o->dialect);
		assert_ptr_equal(db_driver_find(o->name), o);
		for (const struct db_driver_ops *const *e = d + 1; *e; e++)
			assert_string_not_equal(o->name, (*e)->name);
		/* Its options: each named with its prefix (what a campaign config may
		 * not set), under a --help heading, inside its blob, which fits the
		 * slot a command gives it. */
		assert_true(o->options_size <= DB_OPTIONS_MAX);
		assert_true(!o->n_options == !o->options);
		for (size_t i = 0; i < o->n_options; i++) {
			const struct opt_def *r = &o->options[i];
			size_t size = r->kind == OPT_STRING ? sizeof(const char *)
				      : r->kind == OPT_BOOL ? sizeof(bool)
				      : r->kind == OPT_UINT ? sizeof(unsigned)
							    : sizeof(uint64_t);
			assert_non_null(o->option_prefix);
			assert_int_equal(strncmp(r->name, o->option_prefix, strlen(o->option_prefix)), 0);
			assert_true(db_driver_option(r->name));
			assert_non_null(r->group);
			assert_non_null(r->help);
			assert_true(r->offset + size <= o->options_size);
		}
	}
	assert_int_equal(n, 2 + DBRIG_HAVE_ODBC); /* mysql, null and (when built in) odbc */
	assert_null(db_driver_find("pgsql"));
}

static void test_engines(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct db_engine *const *e = db_engines; *e; e++, n++) {
		const struct db_engine *x = *e;
		const struct db_driver_ops *drv = db_driver_find(x->db_driver);
		assert_non_null(x->name);
		assert_non_null(x->guest_packages);
		if (!drv) {
			/* only the driver of a backend this build leaves out may be missing */
			assert_non_null(features_left_out(x->db_driver));
			continue;
		}
		assert_non_null(x->client);
		assert_true(x->port > 0);
		/* ODBC engines build a connection string and name their driver; the others connect by host/port. */
		assert_int_equal(drv->uses_dsn, x->odbc_connect != NULL);
		assert_int_equal(x->odbc_driver != NULL, x->odbc_connect != NULL);
		/* The libmysqlclient driver reaches exactly the MySQL-protocol engines. */
		assert_int_equal(x->protocol == DB_PROTO_MYSQL, !drv->uses_dsn);
		assert_ptr_equal(db_engine_find(x->name), x);
		for (const struct db_engine *const *f = e + 1; *f; f++)
			assert_string_not_equal(x->name, (*f)->name);
	}
	assert_int_equal(n, 5);
	assert_null(db_engine_find("oracle"));
}

static void test_workloads(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct workload_desc *const *w = workloads; *w; w++, n++) {
		const struct workload_desc *d = *w;
		const struct workload_ops *o = d->ops;
		assert_non_null(d->name);
		assert_non_null(d->display);
		assert_non_null(d->summary);
		assert_non_null(d->database);
		assert_non_null(d->connections_option);
		assert_non_null(d->scale_option);
		/* Either an open-loop rate option or a word on how it paces itself (config.c's message). */
		assert_true((d->rate_option != NULL) != (d->pacing != NULL));
		assert_non_null(d->prepare);
		assert_non_null(d->cleanup);
		assert_non_null(d->check);
		/* A workload with tests is sysbench-like: MySQL only; the one-test ones run on every engine. */
		assert_int_equal(d->mysql_only, d->tests != NULL);
		assert_non_null(o);
		assert_non_null(o->session_open);
		assert_non_null(o->session_close);
		assert_non_null(o->next);
		assert_non_null(o->restart);
		assert_non_null(o->txn_type);
		/* Terminals come as a set (runner.c refuses a partial one). */
		if (o->term_size || o->term_init || o->term_next || o->bind_term) {
			assert_true(o->term_size > 0);
			assert_non_null(o->term_init);
			assert_non_null(o->term_next);
			assert_non_null(o->bind_term);
		}
		if (d->tests) {
			assert_non_null(d->tests[0]);
			assert_true(workload_has_test(d, d->tests[0]));
		} else {
			assert_true(workload_has_test(d, d->name));
		}
		assert_false(workload_has_test(d, "no-such-test"));
		/* What campaign/, report/ and result/ ask of it instead of its name. */
		assert_non_null(d->title);
		assert_non_null(d->default_test);
		assert_true(workload_has_test(d, d->default_test));
		assert_non_null(d->scale_params);
		assert_non_null(d->scale_params[0]);
		assert_non_null(d->golden_keys);
		assert_non_null(d->golden_keys[0]);
		for (const char *const *k = d->golden_keys; *k; k++)
			assert_non_null(workload_scale_opt(d, *k)); /* campaign_scale_value reads the option's value */
		assert_non_null(workload_scale_opt(d, d->scale_option));
		/* A campaign keeps its scale options' values in an array of WL_MAX_SCALE_OPTS, each
		 * starting at its default (within its range), and estimates the data from data_scale. */
		size_t nscale = 0;
		for (const struct workload_scale_opt *so = d->scale_opts; so->name; so++, nscale++)
			assert_true((so->dflt >= so->min || (so->dflt == 0 && d->users_param &&
							   !strcmp(so->name, d->users_param))) && so->dflt <= so->max);
		assert_true(nscale >= 1 && nscale <= WL_MAX_SCALE_OPTS);
		assert_non_null(d->data_scale);
		assert_true(d->data_unit_bytes > 0);
		for (const char *f = d->data_scale, *star; f; f = star ? star + 1 : NULL) {
			char part[64];
			star = strchr(f, '*');
			snprintf(part, sizeof(part), "%.*s", star ? (int)(star - f) : (int)strlen(f), f);
			assert_non_null(workload_scale_opt(d, part));
		}
		if (d->users_param)
			assert_true(workload_scale_opt(d, d->users_param) && d->users_per_scale > 0);
		assert_non_null(d->golden_load_text);
		assert_non_null(d->golden_size_text);
		assert_non_null(d->plan_text);
		assert_ptr_equal(workload_tpm_type(d->name), d->tpm_type);
		assert_true(workload_scale_param(d->name, d->scale_params[0]));
		assert_int_equal(workload_has_users(d->name), d->users_param != NULL);
		assert_ptr_equal(workload_find(d->name), d);
		for (const struct workload_desc *const *v = w + 1; *v; v++)
			assert_string_not_equal(d->name, (*v)->name);
	}
	assert_int_equal(n, 2);
	assert_null(workload_find("ycsb"));
	assert_null(workload_tpm_type("ycsb"));
	assert_false(workload_scale_param("ycsb", "tables"));
	assert_false(workload_has_users("ycsb"));
}

static void test_targets(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct target_ops *const *t = target_backends; *t; t++, n++) {
		const struct target_ops *o = *t;
		assert_non_null(o->name);
		assert_non_null(o->summary);
		assert_non_null(o->options);
		assert_non_null(o->init);
		assert_non_null(o->validate);
		assert_non_null(o->preflight);
		assert_non_null(o->create);
		assert_non_null(o->build_golden);
		assert_non_null(o->clone_golden); /* "golden": "once", the default, needs it */
		assert_non_null(o->restore);
		assert_non_null(o->start);
		assert_non_null(o->endpoint);
		assert_non_null(o->verify);
		assert_non_null(o->stop);
		assert_non_null(o->destroy);
		assert_non_null(o->release);
		assert_non_null(o->cleanup);
		assert_ptr_equal(target_find(o->name), o);
		for (const struct target_option *opt = o->options; opt->name; opt++) {
			assert_non_null(opt->help);
			assert_true(strlen(opt->help) > 10);
			assert_string_not_equal(opt->name, "kind");
			for (const struct target_option *p = opt + 1; p->name; p++)
				assert_string_not_equal(opt->name, p->name);
		}
		for (const struct target_ops *const *u = t + 1; *u; u++)
			assert_string_not_equal(o->name, (*u)->name);
	}
	assert_int_equal(n, 1 + DBRIG_HAVE_LIBVIRT); /* local and (when built in) libvirt */
	assert_null(target_find("xen"));
}

/* The local target's engines: each a registered engine, once, with every op; ODBC registration with a name for its messages. */
static void test_local_servers(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct local_server_ops *const *o = local_servers; *o; o++, n++) {
		const struct local_server_ops *x = *o;
		assert_non_null(x->engine);
		assert_ptr_equal(db_engine_find(x->engine->name), x->engine);
		assert_ptr_equal(local_server_ops_of(x->engine), x);
		assert_non_null(x->comm);
		assert_non_null(x->installdb);
		assert_non_null(x->client);
		assert_non_null(x->pool);
		assert_true(x->stop_sig > 0);
		assert_non_null(x->longest_socket);
		assert_non_null(x->reserved);
		assert_non_null(x->find_programs);
		assert_non_null(x->socket);
		assert_non_null(x->pidfile);
		assert_non_null(x->serves_datadir);
		assert_non_null(x->install_argv);
		assert_non_null(x->start);
		assert_non_null(x->client_argv);
		assert_non_null(x->setup_sql);
		assert_int_equal(x->odbc_register != NULL, x->odbc_name != NULL);
		assert_int_equal(x->odbc_register != NULL, x->odbc_driver != NULL);
	}
	assert_true(n >= 2);
}

static void test_writers_and_commands(void **state)
{
	size_t n = 0;

	(void)state;
	for (const struct report_writer_ops *const *w = report_writers; *w; w++, n++) {
		assert_non_null((*w)->name);
		assert_non_null((*w)->summary);
		assert_non_null((*w)->render);
		assert_ptr_equal(report_writer_find((*w)->name), *w);
	}
	assert_int_equal(n, 4);
	n = 0;
	for (const struct command *c = dbrig_commands; c->name; c++, n++) {
		assert_non_null(c->fn);
		assert_non_null(c->summary);
		for (const struct command *d = c + 1; d->name; d++)
			assert_string_not_equal(c->name, d->name);
	}
	/* Every workload is a command of its own name. */
	for (const struct workload_desc *const *w = workloads; *w; w++) {
		bool found = false;
		for (const struct command *c = dbrig_commands; c->name; c++)
			found = found || !strcmp(c->name, (*w)->name);
		assert_true(found);
	}
	assert_true(n >= 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_db_drivers),
		cmocka_unit_test(test_engines),
		cmocka_unit_test(test_workloads),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_local_servers),
		cmocka_unit_test(test_writers_and_commands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
