/* Placeholder until the report command lands; it fails loudly rather than pretend. */
#include "cli/cli.h"
#include "core/log.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("report: not implemented yet");
	return EXIT_RUNTIME;
}
