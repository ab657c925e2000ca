/* One function per command (git's builtin table); each lives in src/cli/cmd_<name>.c. */
#ifndef DBRIG_CLI_CLI_H
#define DBRIG_CLI_CLI_H

struct command {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;
};

int cmd_sysbench(int argc, char **argv);
int cmd_tpcc(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_published(int argc, char **argv);
int cmd_provision(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_teardown(int argc, char **argv);

/* --percentile (sysbench, tpcc): "95" or "50,95,99", numbers from 0 to 100, at
 * most CLI_MAX_PERCENTILES; 0 disables percentiles (is skipped). Returns 0, or
 * -1 after logging the error line. */
#define CLI_MAX_PERCENTILES 8
int cli_parse_percentiles(const char *s, double out[CLI_MAX_PERCENTILES], unsigned *n)
	__attribute__((warn_unused_result));

/* The first line of a password file (--mysql-password-file and the like; `opt`
 * names the option in messages), with a warning when the file is readable by
 * group or others. NULL after one error line. */
char *cli_read_password_file(const char *opt, const char *path);

/* The command table, NULL-terminated (for help and tests). */
extern const struct command dbrig_commands[];

#endif
