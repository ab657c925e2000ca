/* Placeholder until the published command lands; it fails loudly rather than pretend. */
#include "cli/cli.h"
#include "core/log.h"

int cmd_published(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("published: not implemented yet");
	return EXIT_RUNTIME;
}
