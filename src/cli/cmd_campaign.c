/* Placeholder until the campaign command lands; it fails loudly rather than pretend. */
#include "cli/cli.h"
#include "core/log.h"

int cmd_campaign(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("campaign: not implemented yet");
	return EXIT_RUNTIME;
}
