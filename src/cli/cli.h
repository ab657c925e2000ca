/* One function per command (git's builtin table); each lives in src/cli/cmd_<name>.c. */
#ifndef DBRIG_CLI_CLI_H
#define DBRIG_CLI_CLI_H

/* Exit codes: only commands turn the libraries' 0 / -errno into these. */
#define EXIT_USAGE 2   /* bad flags, bad config */
#define EXIT_RUNTIME 1 /* a runtime failure, an interrupted run */

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

/* The command table, NULL-terminated (for help and tests). */
extern const struct command dbrig_commands[];

#endif
