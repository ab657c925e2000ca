/* Placeholder until the sysbench command lands; it fails loudly rather than pretend. */
#include "cli/cli.h"
#include "core/log.h"

int cmd_sysbench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	log_error("sysbench: not implemented yet");
	return EXIT_RUNTIME;
}
