#include "cli/cli.h"
#include "core/features.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/version.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig COMMAND [options]\n\n"
		   "dbrig measures storage drives by the database performance they deliver.\n\n"
		   "Commands:\n");
	for (const struct command *c = dbrig_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nRun 'dbrig COMMAND --help' for the options of a command.\n"
		   "Exit status: 0 success, 1 runtime failure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		struct strbuf b;

		strbuf_init(&b, 0);
		features_list(&b);
		printf("dbrig %s\noptional backends: %s\n", DBRIG_VERSION, b.len ? b.buf : "none");
		strbuf_release(&b);
		return 0;
	}
	for (const struct command *c = dbrig_commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	{
		char names[512];
		size_t n = 0;
		names[0] = '\0';
		for (const struct command *c = dbrig_commands; c->name && n < sizeof(names); c++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "", c->name);
		log_error("unknown command \"%s\" (expected one of: %s; see dbrig --help)", argv[1], names);
	}
	return EXIT_USAGE;
}
