/*
 * dbrig sysbench [options] TEST COMMAND — a drop-in for sysbench 1.0.20 with
 * its OLTP tests: the same options, statements, output, messages and exit
 * statuses, plus a precondition phase, several percentiles, a result file and
 * an interval journal.
 *
 * Inside this command sysbench 1.0.20's conventions win over dbrig's: every
 * message goes to stdout with sysbench's prefixes (FATAL:, WARNING:) and
 * wording, --verbosity gates them as sysbench does, and every mistake exits 1.
 * The order of checks is sysbench's (sysbench.c main()): general options and
 * their values, then --help / --version, then the values sysbench's init()
 * checks, then the banner, then the test, its options and the command. Only
 * messages about dbrig's own additions (--result, --journal,
 * --mysql-password-file) keep dbrig's "dbrig: ..." form on stderr.
 *
 * This file reads the command line: the option table and --help,
 * --config-file, the test and the command, and calls the checks and the
 * command in sysbench's order; cli/sysbench_run.c checks the values, connects
 * and runs the command (cli/sysbench_int.h is what they share).
 */
#include "cli/cli.h"
#include "cli/common_opts.h"
#include "cli/sysbench_int.h"
#include "cli/sysbench_text.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "db/db.h"
#include "result/result.h"
#include "workload/registry.h"
#include "workload/sysbench/sysbench.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define O(f) offsetof(struct sb_cli, f)
/* Help sections, in sysbench's order; TEST is the oltp_*.lua options (shown
 * by `TEST help`), DBRIG what dbrig adds. */
#define GEN "General options"
#define RND "Pseudo-Random Numbers Generator options"
#define LOGO "Log options"
#define DBO "General database options"
#define MY "mysql options"
#define TEST "test"
#define DBRIG "dbrig options (not in sysbench 1.0.20)"
#define UMAX 1000000000LL
/* How sysbench's help shows an option's value (opt_def.flags, the caller's
 * bits): from the kind unless one of these says otherwise. */
#define M_LIST DB_OPT_LIST                 /* =[LIST,...] (the driver's rows say so with db.h's bits) */
#define M_SIZE (OPT_CALLER_FLAGS << 1)     /* =SIZE */
#define M_FILENAME (OPT_CALLER_FLAGS << 2) /* =FILENAME */
#define M_FILE DB_OPT_FILE                 /* =FILE */
#define M_DURATION (OPT_CALLER_FLAGS << 4) /* =DURATION (dbrig's own) */
#define M_ONOFF DB_OPT_ONOFF               /* [=on|off], shown as sysbench's boolean */

/* The general options, up to the driver's rows (the mysql driver's table, db/mysql/ops.c). */
static const struct opt_def sb_rows_a[] = {
	{"threads", NULL, OPT_UINT, O(threads), "1", "number of threads to use", 0, 100000, GEN, 0},
	{"events", NULL, OPT_U64, O(events), "0", "limit for total number of events", 0, INT64_MAX, GEN, 0},
	{"time", NULL, OPT_DURATION, O(time_ns), "10", "limit for total execution time in seconds", 0, 0, GEN, 0},
	{"forced-shutdown", NULL, OPT_STRING, O(forced_shutdown), "off",
	 "number of seconds to wait after the --time limit before forcing shutdown, or 'off' to disable", 0, 0, GEN, 0},
	{"thread-stack-size", NULL, OPT_STRING, O(thread_stack_size), "64K", "size of stack per thread", 0, 0, GEN, M_SIZE},
	{"rate", NULL, OPT_U64, O(rate), "0", "average transactions rate. 0 for unlimited rate", 0, INT64_MAX, GEN, 0},
	{"report-interval", NULL, OPT_DURATION, O(report_interval_ns), "0",
	 "periodically report intermediate statistics with a specified interval in seconds. 0 disables intermediate "
	 "reports",
	 0, 0, GEN, OPT_WHOLE_SECONDS},
	{"report-checkpoints", NULL, OPT_STRING, O(report_checkpoints), "",
	 "dump full statistics and reset all counters at specified points in time. The argument is a list of "
	 "comma-separated values representing the amount of time in seconds elapsed from start of test when report "
	 "checkpoint(s) must be performed. Report checkpoints are off by default.",
	 0, 0, GEN, M_LIST},
	{"debug", NULL, OPT_BOOL, O(debug), "off", "print more debugging info", 0, 0, GEN, 0},
	{"validate", NULL, OPT_BOOL, O(validate), "off", "perform validation checks where possible", 0, 0, GEN, 0},
	{"help", NULL, OPT_BOOL, O(help), "off", "print help and exit", 0, 0, GEN, 0},
	{"version", NULL, OPT_BOOL, O(version), "off", "print version and exit", 0, 0, GEN, 0},
	{"config-file", NULL, OPT_STRING, O(config_file), NULL, "File containing command line options", 0, 0, GEN, M_FILENAME},
	{"tx-rate", NULL, OPT_U64, O(tx_rate), "0", "deprecated alias for --rate", 0, INT64_MAX, GEN, 0},
	{"max-requests", NULL, OPT_U64, O(max_requests), "0", "deprecated alias for --events", 0, INT64_MAX, GEN, 0},
	{"max-time", NULL, OPT_DURATION, O(max_time_ns), "0", "deprecated alias for --time", 0, 0, GEN, 0},
	{"num-threads", NULL, OPT_UINT, O(num_threads), "1", "deprecated alias for --threads", 0, 100000, GEN, 0},
	{"rand-type", NULL, OPT_STRING, O(rand_type), "special",
	 "random numbers distribution {uniform,gaussian,special,pareto}", 0, 0, RND, 0},
	{"rand-spec-iter", NULL, OPT_UINT, O(rand_spec_iter), "12", "number of iterations used for numbers generation", 1,
	 1000, RND, 0},
	{"rand-spec-pct", NULL, OPT_DOUBLE, O(rand_spec_pct), "1",
	 "percentage of values to be treated as 'special' (for special distribution)", 0, 0, RND, 0},
	{"rand-spec-res", NULL, OPT_DOUBLE, O(rand_spec_res), "75",
	 "percentage of 'special' values to use (for special distribution)", 0, 0, RND, 0},
	{"rand-seed", NULL, OPT_U64, O(rand_seed), "0",
	 "seed for random number generator. When 0, the current time is used as a RNG seed.", 0, INT64_MAX, RND, 0},
	{"rand-pareto-h", NULL, OPT_DOUBLE, O(rand_pareto_h), "0.2", "parameter h for pareto distribution", 0, 0, RND, 0},
	{"verbosity", NULL, OPT_UINT, O(verbosity), "3", "verbosity level {5 - debug, 0 - only critical messages}", 0,
	 UMAX, LOGO, 0},
	{"percentile", NULL, OPT_STRING, O(percentile), "95",
	 "percentile to calculate in latency statistics (1-100). Use the special value of 0 to disable percentile "
	 "calculations",
	 0, 0, LOGO, 0},
	{"histogram", NULL, OPT_BOOL, O(histogram), "off", "print latency histogram in report", 0, 0, LOGO, 0},
	{"db-driver", NULL, OPT_STRING, O(db_driver), "mysql",
	 "specifies database driver to use ('help' to get list of available drivers)", 0, 0, DBO, 0},
	{"db-ps-mode", NULL, OPT_STRING, O(db_ps_mode), "auto", "prepared statements usage mode {auto, disable}", 0, 0, DBO, 0},
	{"db-debug", NULL, OPT_BOOL, O(db_debug), "off", "print database-specific debug information", 0, 0, DBO, 0},
};

/* sysbench's own rows of its "mysql options" (after the driver's), the test's, and dbrig's first additions. */
static const struct opt_def sb_rows_b[] = {
	{"mysql-debug", NULL, OPT_BOOL, O(mysql_debug), "off", "trace all client library calls", 0, 0, MY, 0},
	{"mysql-ignore-errors", NULL, OPT_STRING, O(mysql_ignore_errors), "1213,1020,1205",
	 "list of errors to ignore, or \"all\"", 0, 0, MY, M_LIST},
	{"mysql-dry-run", NULL, OPT_BOOL, O(mysql_dry_run), "off",
	 "Dry run, pretend that all MySQL client API calls are successful without executing them", 0, 0, MY, 0},
	/* oltp_common.lua's options (`TEST help` sorts them by name, as sysbench does). */
	{"tables", NULL, OPT_UINT, O(tables), "1", "Number of tables", WL_SB_TABLES_MIN, WL_SB_TABLES_MAX, TEST, 0},
	/* 0 rows: an oltp_insert run into empty tables (a campaign needs WL_SB_TABLE_SIZE_MIN). */
	{"table-size", NULL, OPT_UINT, O(table_size), "10000", "Number of rows per table", 0, WL_SB_TABLE_SIZE_MAX, TEST,
	 0},
	{"range-size", NULL, OPT_UINT, O(range_size), "100", "Range size for range SELECT queries", 1, UMAX, TEST, 0},
	{"point-selects", NULL, OPT_UINT, O(point_selects), "10", "Number of point SELECT queries per transaction", 0,
	 10000, TEST, 0},
	{"simple-ranges", NULL, OPT_UINT, O(simple_ranges), "1", "Number of simple range SELECT queries per transaction",
	 0, 10000, TEST, 0},
	{"sum-ranges", NULL, OPT_UINT, O(sum_ranges), "1", "Number of SELECT SUM() queries per transaction", 0, 10000, TEST, 0},
	{"order-ranges", NULL, OPT_UINT, O(order_ranges), "1", "Number of SELECT ORDER BY queries per transaction", 0,
	 10000, TEST, 0},
	{"distinct-ranges", NULL, OPT_UINT, O(distinct_ranges), "1", "Number of SELECT DISTINCT queries per transaction",
	 0, 10000, TEST, 0},
	{"index-updates", NULL, OPT_UINT, O(index_updates), "1", "Number of UPDATE index queries per transaction", 0,
	 10000, TEST, 0},
	{"non-index-updates", NULL, OPT_UINT, O(non_index_updates), "1",
	 "Number of UPDATE non-index queries per transaction", 0, 10000, TEST, 0},
	{"delete-inserts", NULL, OPT_UINT, O(delete_inserts), "1", "Number of DELETE/INSERT combinations per transaction",
	 0, 10000, TEST, 0},
	{"range-selects", NULL, OPT_BOOL, O(range_selects), "on", "Enable/disable all range SELECT queries", 0, 0, TEST, 0},
	{"auto-inc", NULL, OPT_BOOL, O(auto_inc), "on",
	 "Use AUTO_INCREMENT column as Primary Key (for MySQL), or its alternatives in other DBMS. When disabled, use "
	 "client-generated IDs",
	 0, 0, TEST, 0},
	{"skip-trx", NULL, OPT_BOOL, O(skip_trx), "off",
	 "Don't start explicit transactions and execute all queries in the AUTOCOMMIT mode", 0, 0, TEST, 0},
	{"secondary", NULL, OPT_BOOL, O(secondary), "off", "Use a secondary index in place of the PRIMARY KEY", 0, 0, TEST, 0},
	{"create-secondary", NULL, OPT_BOOL, O(create_secondary), "on",
	 "Create a secondary index in addition to the PRIMARY KEY", 0, 0, TEST, 0},
	{"mysql-storage-engine", NULL, OPT_STRING, O(mysql_storage_engine), "innodb", "Storage engine, if MySQL is used",
	 0, 0, TEST, 0},
	{"pgsql-variant", NULL, OPT_STRING, O(pgsql_variant), NULL,
	 "Use this PostgreSQL variant when running with the PostgreSQL driver. The only currently supported variant is "
	 "'redshift'. When enabled, create_secondary is automatically disabled, and delete_inserts is set to 0",
	 0, 0, TEST, 0},
	/* What dbrig adds. */
	{"precondition", "warmup-time", OPT_DURATION, O(precondition_ns), "0",
	 "precondition phase before the sample (--time), also as --warmup-time; statistics are reset between them, "
	 "both are kept in the result; durations take units (90s, 15m, 2h)",
	 0, 0, DBRIG, M_DURATION},
	CLI_RUN_RECORD_ROWS(struct sb_cli, run, DBRIG),
};

/* dbrig's additions after the driver's (its DB_OPT_DBRIG rows). */
static const struct opt_def sb_rows_c[] = {
	{"rand-zipfian-exp", NULL, OPT_DOUBLE, O(rand_zipfian_exp), "0.8",
	 "shape parameter (exponent) of --rand-type=zipfian (sysbench master's)", 0, 0, DBRIG, 0},
	CLI_RUN_IDENTITY_ROWS(struct sb_cli, run, DBRIG),
};
#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

/* sysbench 1.0.20's words for rows of the mysql driver's table (whose own
 * help lines are dbrig tpcc's), in its "mysql options" and dbrig's section. */
static const struct cli_row_override sb_mysql_words[] = {
	{"mysql-ssl", NULL, "use SSL connections, if available in the client library"},
	{"mysql-password-file", NULL,
	 "read the MySQL password from this file (first line); MYSQL_PWD is read too; a password given with "
	 "--mysql-password is blanked from the process's argv"},
	{"mysql-ssl-ca", NULL,
	 "the CA that signed the MySQL server's certificate (PEM). --mysql-ssl also takes MySQL's modes: required "
	 "(encrypted, the server not checked), verify_ca (its certificate chains to --mysql-ssl-ca), verify_identity "
	 "(verify_ca, and the certificate names the host); on is sysbench 1.0's (required, with client-key.pem, "
	 "client-cert.pem, cacert.pem from the current directory if present)"},
	{"mysql-ssl-cert", NULL, "client certificate (PEM), for a server that asks for one (with --mysql-ssl-key)"},
	{"mysql-ssl-key", NULL, "client key (PEM)"},
};

/* The whole table: sb_rows_a, the mysql driver's sysbench rows, sb_rows_b,
 * the driver's dbrig rows, sb_rows_c (so each --help section keeps
 * sysbench's order). Built once by sb_table(). */
#define SB_MAX_OPTS 128
static struct opt_def sb_opts_table[SB_MAX_OPTS];
static size_t sb_nopts;
#define NOPTS sb_nopts

static void sb_table(struct cli_driver_opts *my)
{
	const struct db_driver_ops *drv = db_driver_find("mysql");
	size_t slot = offsetof(struct sb_cli, my), nw = NROWS(sb_mysql_words);

	sb_nopts = 0;
	memcpy(sb_opts_table, sb_rows_a, sizeof(sb_rows_a));
	sb_nopts = NROWS(sb_rows_a);
	cli_add_driver_rows(sb_opts_table, &sb_nopts, SB_MAX_OPTS, drv, my, slot, false, 0, sb_mysql_words, nw, NULL);
	memcpy(sb_opts_table + sb_nopts, sb_rows_b, sizeof(sb_rows_b));
	sb_nopts += NROWS(sb_rows_b);
	cli_add_driver_rows(sb_opts_table, &sb_nopts, SB_MAX_OPTS, drv, my, slot, true, 0, sb_mysql_words, nw, DBRIG);
	memcpy(sb_opts_table + sb_nopts, sb_rows_c, sizeof(sb_rows_c));
	sb_nopts += NROWS(sb_rows_c);
}

static const char *metavar(const struct opt_def *d)
{
	if (d->flags & M_LIST)
		return "=[LIST,...]";
	if (d->flags & M_SIZE)
		return "=SIZE";
	if (d->flags & M_FILENAME)
		return "=FILENAME";
	if (d->flags & M_FILE)
		return "=FILE";
	if (d->flags & M_DURATION)
		return "=DURATION";
	if (d->flags & M_ONOFF)
		return "[=on|off]";
	switch (d->kind) {
	case OPT_BOOL:
		return "[=on|off]";
	case OPT_STRING:
		return "=STRING";
	case OPT_UINT:
	case OPT_U64:
	case OPT_DOUBLE:
	case OPT_DURATION:
		return "=N";
	}
	return "=N";
}

static size_t opt_index(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (!strcmp(sb_opts_table[i].name, name))
			return i;
	abort(); /* a name missing from the table is a bug here */
}

/* --- help, as sysbench prints it --- */

/* One section in sb_print_options()'s layout: names padded to the longest
 * name + format, then the description and the default in brackets. `lua`
 * spells names with underscores, sorted, as oltp_*.lua options print. */
static void print_section(const char *group, bool lua)
{
	size_t idx[NOPTS], n = 0, maxlen = 0;

	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *d = &sb_opts_table[i];
		if (strcmp(d->group, group))
			continue;
		idx[n++] = i;
		if (strlen(d->name) + strlen(metavar(d)) > maxlen)
			maxlen = strlen(d->name) + strlen(metavar(d));
	}
	if (lua) {
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0; j--) {
				char a[64], b[64];
				snprintf(a, sizeof(a), "%s", sb_opts_table[idx[j - 1]].name);
				snprintf(b, sizeof(b), "%s", sb_opts_table[idx[j]].name);
				for (char *p = a; *p; p++)
					*p = *p == '-' ? '_' : *p;
				for (char *p = b; *p; p++)
					*p = *p == '-' ? '_' : *p;
				if (strcmp(a, b) <= 0)
					break;
				size_t t = idx[j];
				idx[j] = idx[j - 1];
				idx[j - 1] = t;
			}
	}
	for (size_t k = 0; k < n; k++) {
		const struct opt_def *d = &sb_opts_table[idx[k]];
		char name[64];
		snprintf(name, sizeof(name), "%s", d->name);
		if (lua)
			for (char *p = name; *p; p++)
				*p = *p == '-' ? '_' : *p;
		printf("  --%s%-*s%s", name, (int)(maxlen - strlen(name) + 1), metavar(d), d->help);
		if (d->def)
			printf(" [%s]", d->def);
		printf("\n");
	}
	printf("\n");
}

static void usage(void)
{
	printf("Usage:\n");
	printf("  dbrig sysbench [options]... [testname] [command]\n\n");
	printf("Commands implemented by most tests: prepare run cleanup help\n\n");
	printf("General options:\n");
	print_section(GEN, false);
	printf("Pseudo-Random Numbers Generator options:\n");
	print_section(RND, false);
	printf("Log options:\n");
	/* sysbench prints the logger's two handlers as two blocks. */
	printf("  --verbosity=N verbosity level {5 - debug, 0 - only critical messages} [3]\n\n");
	printf("  --percentile=N       percentile to calculate in latency statistics (1-100). Use the special value of "
	       "0 to disable percentile calculations [95]\n");
	printf("  --histogram[=on|off] print latency histogram in report [off]\n\n");
	printf("General database options:\n\n");
	print_section(DBO, false);
	printf("\n");
	printf("Compiled-in database drivers:\n");
	printf("  mysql - MySQL driver\n\n");
	printf("mysql options:\n");
	print_section(MY, false);
	printf("%s:\n", DBRIG);
	print_section(DBRIG, false);
	printf("  Also: --percentile takes a list (50,95,99: interval lines show the first) and decimals (99.9);\n"
	       "  --time, --report-interval and --precondition take units (30 = seconds, 90s, 15m, 2h, 1h30m);\n"
	       "  --rand-type=zipfian. Exit status: 0 success, 1 any failure or interrupted run (as sysbench).\n"
	       "  Command check (dbrig's): prints the database's fingerprint, its row counts and CHECKSUM TABLE of\n"
	       "  every table, what a campaign compares restores with. Command ping (dbrig's): connects as --mysql-user\n"
	       "  to --mysql-db and exits 0, or 1 with the server's error (a campaign's readiness probe).\n\n");
	printf("Tests (sysbench 1.0.20's oltp_*.lua, built in; a path to one, such as\n"
	       "/usr/share/sysbench/oltp_read_write.lua, names the same test):\n");
	for (int t = 0; t < SB_TEST_COUNT; t++)
		printf("  %s\n", sb_test_name((enum sb_test)t));
	printf("\n");
	printf("Compiled-in tests:\n\n");
	printf("See 'dbrig sysbench <testname> help' for a list of options for each test.\n\n");
}

/* --- the command line --- */

/* Hide a password given on the command line from ps (what mysql(1) does). */
static void scrub_argv(int argc, char **argv)
{
	const struct opt_def *pw = &sb_opts_table[opt_index("mysql-password")];

	for (int i = 1; i < argc; i++) {
		char *eq;
		if (strncmp(argv[i], "--mysql", 7) || !(eq = strchr(argv[i], '=')))
			continue;
		if (opt_name_matches(pw, argv[i] + 2, (size_t)(eq - argv[i] - 2)))
			memset(eq + 1, 'x', strlen(eq + 1));
	}
}

/* --config-file=FILE: sysbench reads "name=value" lines (a value may be
 * quoted; '#' starts a comment; lines without '=' are skipped) as if they
 * stood on the command line where --config-file does. Returns a new argv
 * (the strings it adds are in *owned), or NULL after a message. */
static char **expand_config_file(int *argc, char **argv, char ***owned, size_t *nowned)
{
	char **out = xcalloc((size_t)*argc + 1, sizeof(*out));
	int n = 0;

	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i];
		const char *file = NULL;
		if (i > 0 && (!strncmp(a, "--config-file=", 14) || !strncmp(a, "--config_file=", 14)))
			file = a + 14;
		if (!file) {
			out[n++] = argv[i];
			continue;
		}
		/* read_file: a FIFO would hang fgets, /dev/zero spin it forever. */
		char *text = NULL, *next;
		int rf = read_file(file, &text, NULL);
		if (rf == -EINVAL || rf == -EFBIG) {
			log_error("%s: %s (expected a file of name=value lines)", file, read_file_strerror(rf));
			free(out);
			return NULL;
		}
		if (rf < 0) {
			fprintf(stderr, "%s: %s\n", file, strerror(-rf));
			continue;
		}
		for (char *line = text; line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			char *eq = strchr(line, '='), *name = line, *val, *end;
			if (!eq)
				continue;
			*eq = '\0';
			while (*name == ' ' || *name == '\t')
				name++;
			end = name + strlen(name);
			while (end > name && (end[-1] == ' ' || end[-1] == '\t'))
				*--end = '\0';
			val = eq + 1;
			val[strcspn(val, "\r\n")] = '\0';
			while (*val == ' ' || *val == '\t')
				val++;
			if (*val == '\'' || *val == '"') {
				char q = *val++;
				char *close = strchr(val, q);
				if (!close) {
					fprintf(stderr, "unexpected EOL in %s\n", file);
					free(text);
					free(out);
					return NULL;
				}
				*close = '\0';
			} else {
				val[strcspn(val, "#")] = '\0';
				end = val + strlen(val);
				while (end > val && (end[-1] == ' ' || end[-1] == '\t'))
					*--end = '\0';
			}
			if (!*name)
				continue;
			struct strbuf sb;
			strbuf_init(&sb, 64);
			strbuf_addf(&sb, "--%s=%s", name, val);
			*owned = xrealloc(*owned, (*nowned + 1) * sizeof(**owned));
			(*owned)[(*nowned)++] = strbuf_detach(&sb);
			out = xrealloc(out, ((size_t)*argc + *nowned + 1) * sizeof(*out));
			out[n++] = (*owned)[*nowned - 1];
		}
		free(text);
	}
	out[n] = NULL;
	*argc = n;
	return out;
}

/* A test named as sysbench names it: "oltp_read_write", or a path to the
 * script ("/usr/share/sysbench/oltp_read_write.lua"). */
static int parse_test(const char *arg, enum sb_test *t)
{
	const char *base = strrchr(arg, '/');
	char name[64];
	size_t len;

	base = base ? base + 1 : arg;
	len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".lua"))
		len -= 4;
	if (len >= sizeof(name))
		return -EINVAL;
	memcpy(name, base, len);
	name[len] = '\0';
	return sb_test_parse(name, t);
}

/* sysbench's wording for a bad value of one of its own (C-level) options;
 * a test's option is reported later, as the Lua option parser does. */
static void bad_option_value(const struct opt_problem *pb)
{
	fprintf(stderr, "Invalid value for the '%s' option: '%s'\n", pb->def->name, pb->value ? pb->value : "");
}

/* --- the command --- */

/* sysbench stops at a bad value of one of its own options and at a third
 * word before anything else; an unknown option or a bad value of a test's
 * option is only reported once the test is known (*pb says which). 0, or -1
 * after one message. */
static int parse_args(struct sb_cli *c, int argc, char **args, const char **pos, int *npos, bool *seen,
		      struct opt_problem *pb)
{
	if (opt_parse_collect(sb_opts_table, NOPTS, c, argc, args, pos, 2, npos, seen, pb) < 0) {
		switch (pb->kind) {
		case OPT_PB_EXTRA_ARG:
			fprintf(stderr, "Unrecognized command line argument: %s\n", pb->arg);
			return -1;
		case OPT_PB_BAD_VALUE:
		case OPT_PB_NO_VALUE:
			if (strcmp(pb->def->group, TEST)) {
				bad_option_value(pb);
				return -1;
			}
			break;
		case OPT_PB_UNKNOWN:
		case OPT_PB_NONE:
			break;
		}
	}
	return 0;
}

/* The test and the command, in sysbench's order once the banner is out (and
 * then the option parse_args left to report); `TEST help` prints the test's
 * options. 0 with *testp and *cmdp set, 1 when the help is printed, -1 after
 * one message. */
static int parse_words(const char *const *pos, int npos, const struct opt_problem *pb, struct sb_opts *o,
		       const char **testp, const char **cmdp)
{
	const char *test, *cmd;

	if (npos == 0) {
		log_error("no test given: dbrig sysbench runs the oltp_* tests (see dbrig sysbench --help); it cannot "
			  "read a Lua script from the standard input");
		return -1;
	}
	test = pos[0];
	if (parse_test(test, &o->test) < 0) {
		log_error("Cannot find benchmark '%s': no such built-in test, file or module", test);
		return -1;
	}
	if (pb->kind != OPT_PB_NONE) {
		fprintf(stderr, "invalid option: %s\n", pb->arg);
		return -1;
	}
	if (npos < 2) {
		log_error("%s: Command is required. Supported commands: prepare, prewarm, run, cleanup, help", test);
		return -1;
	}
	cmd = pos[1];
	if (!strcmp(cmd, "help")) {
		const char *base = strrchr(test, '/');
		printf("%s options:\n", base ? base + 1 : test);
		print_section(TEST, true);
		return 1;
	}
	/* check and ping are dbrig's own: the fingerprint a campaign compares restores with, and its
	 * readiness probe (the user logs into the database). */
	if (strcmp(cmd, "prepare") && strcmp(cmd, "prewarm") && strcmp(cmd, "run") && strcmp(cmd, "cleanup") &&
	    strcmp(cmd, "check") && strcmp(cmd, "ping")) {
		fprintf(stderr, "Unknown command: %s\n", cmd);
		return -1;
	}
	*testp = test;
	*cmdp = cmd;
	return 0;
}

int cmd_sysbench(int argc, char **argv)
{
	struct sb_cli c;
	struct sb_opts o;
	struct sb_conn k = {0};
	struct opt_problem pb;
	bool seen[SB_MAX_OPTS];
	const char *pos[2];
	int npos = 0, words;
	double pct[RESULT_MAX_PERCENTILES];
	unsigned npct = 0;
	unsigned ckpt[MAX_CHECKPOINTS], nckpt = 0;
	int ret = EXIT_RUNTIME;
	char **owned = NULL, **args;
	size_t nowned = 0;
	const char *test, *cmd;
	bool parallel;

	log_set_style(LOG_STYLE_SYSBENCH);
	args = expand_config_file(&argc, argv, &owned, &nowned);
	if (!args)
		return EXIT_RUNTIME;
	memset(&c, 0, sizeof(c));
	memset(&o, 0, sizeof(o));
	sb_table(&c.my);
	if (parse_args(&c, argc, args, pos, &npos, seen, &pb) < 0)
		goto out;
	/* Copy the password before blanking it in argv (the option points there). */
	if (seen[opt_index("mysql-password")])
		k.password = xstrdup(db_option_str(c.my.drv, c.my.blob, "mysql-password"));
	scrub_argv(argc, args);
	if (c.help) {
		usage();
		ret = 0;
		goto out;
	}
	if (c.version) {
		printf("dbrig %s (sysbench 1.0.20 compatible)\n", DBRIG_VERSION);
		ret = 0;
		goto out;
	}

	if (sb_init_checks(&c, &o, ckpt, &nckpt, pct, &npct) < 0)
		goto out;
	sb_banner();
	words = parse_words(pos, npos, &pb, &o, &test, &cmd);
	if (words > 0)
		ret = 0;
	if (words != 0)
		goto out;
	/* What the test does before it connects: the driver, then its options. */
	const char *frame = !strcmp(cmd, "cleanup") ? "cleanup"
			    : !strcmp(cmd, "run")   ? "thread_init"
						    : "sysbench.cmdline.call_command";
	parallel = c.threads > 1 && (!strcmp(cmd, "prepare") || !strcmp(cmd, "prewarm"));
	if (parallel && sb_verbose(3)) {
		printf("Initializing worker threads...\n\n");
		fflush(stdout);
	}
	if (!strcmp(cmd, "run"))
		sb_run_header(&c, pct, npct, ckpt, nckpt);
	if (sb_connection(&c, &o, test, cmd, frame, &k) < 0)
		goto out;
	if (!strcmp(cmd, "run")) {
		ret = sb_do_run(&c, &o, k.drv, &k.cp, pct, npct, ckpt, nckpt);
		goto out;
	}
	ret = sb_command(&c, &o, cmd, frame, parallel, k.drv, &k.cp);
out:
	cli_password_free(k.password);
	free(k.codes);
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(args);
	fflush(stdout);
	return ret;
}
