/*
 * Command-line options from a table (fio's struct fio_option): parsing,
 * defaults and --help all come from the same definitions.
 *
 * Syntax is sysbench's: --name=value, or --name alone for a boolean (on);
 * '-' and '_' are interchangeable in names. Booleans take on/off, true/false,
 * yes/no, 1/0. Errors are one line naming the option, the value and what was
 * expected; the caller exits 2.
 */
#ifndef DBRIG_CORE_OPT_H
#define DBRIG_CORE_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum opt_kind {
	OPT_UINT,     /* unsigned (stored as unsigned), range min..max */
	OPT_U64,      /* uint64_t, range min..max */
	OPT_DOUBLE,   /* double */
	OPT_BOOL,     /* bool */
	OPT_STRING,   /* const char * (points into argv or the default) */
	OPT_DURATION, /* uint64_t nanoseconds; a plain number is seconds */
};

#define OPT_SECRET 1u /* never echoed in errors */
#define OPT_BARE_ON 2u /* OPT_STRING that alone (--name) means "on": a sysbench boolean that grew values */
#define OPT_WHOLE_SECONDS 4u /* OPT_DURATION that must be a whole number of seconds (sysbench's integer options) */
#define OPT_CALLER_FLAGS 256u

struct opt_def {
	const char *name;
	const char *alias; /* deprecated or alternative name, or NULL */
	enum opt_kind kind;
	size_t offset;     /* into the caller's config struct */
	const char *def;   /* default as text, or NULL for none (0 / false / NULL) */
	const char *help;
	int64_t min, max;  /* OPT_UINT / OPT_U64 */
	const char *group; /* heading in --help */
	unsigned flags;    /* OPT_SECRET; bits from OPT_CALLER_FLAGS up are the caller's own */
};

/* Apply every default, then parse argv. Non-option words are returned in
 * `pos` (at most maxpos). `seen` (optional, one bool per def) records which
 * options were given. Returns 0, or -1 after printing an error. */
int opt_parse(const struct opt_def *defs, size_t ndefs, void *cfg, int argc, char **argv, const char **pos,
	      int maxpos, int *npos, bool *seen);
/* opt_parse without printing: every argument is looked at (later good ones
 * still take effect) and the first problem is described in *pb, for commands
 * that word their errors differently (dbrig sysbench, as sysbench 1.0.20). */
enum opt_pb_kind {
	OPT_PB_NONE = 0,
	OPT_PB_UNKNOWN,   /* --name matches no option */
	OPT_PB_NO_VALUE,  /* --name without =VALUE for a non-boolean */
	OPT_PB_BAD_VALUE, /* the value does not parse */
	OPT_PB_EXTRA_ARG, /* more than maxpos positional words */
};
struct opt_problem {
	enum opt_pb_kind kind;
	const struct opt_def *def; /* NO_VALUE, BAD_VALUE */
	const char *arg;           /* the argv word */
	const char *value;         /* BAD_VALUE */
	char why[256];             /* BAD_VALUE: "\"x\" is not valid (expected ...)" */
};
int opt_parse_collect(const struct opt_def *defs, size_t ndefs, void *cfg, int argc, char **argv, const char **pos,
		      int maxpos, int *npos, bool *seen, struct opt_problem *pb);
/* Set one option from text (also used for defaults); -1 after printing an error. */
int opt_set(const struct opt_def *d, void *cfg, const char *value);
void opt_help(FILE *f, const struct opt_def *defs, size_t ndefs);
/* Is the name (with '-' or '_') this option's name or alias? */
bool opt_name_matches(const struct opt_def *d, const char *name, size_t len);

#endif
