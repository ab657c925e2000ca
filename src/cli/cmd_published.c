/* dbrig published [--dir DIR]: list (and validate) the published references. */
#include "cli/cli.h"

#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "report/published.h"
#include "report/writer.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct published_cfg {
	const char *dir;
	bool help;
};

static const struct opt_def published_opts[] = {
	{.name = "dir", .kind = OPT_STRING, .offset = offsetof(struct published_cfg, dir),
	 .def = DBRIG_SOURCE_DIR "/reports/published",
	 .help = "folder of published reference files (schema: reports/published/README.md)",
	 .group = "Options"},
	{.name = "help", .kind = OPT_BOOL, .offset = offsetof(struct published_cfg, help),
	 .help = "show this help", .group = "Options"},
};
#define NOPTS (sizeof(published_opts) / sizeof(published_opts[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig published [--dir=DIR]\n\n"
		   "List the published review numbers reports are compared with. Every file is\n"
		   "validated; the first error names the file, the JSON path and what was expected.\n");
	opt_help(f, published_opts, NOPTS);
	fprintf(f, "\nExit status: 0 listed, 1 a file is unreadable or invalid, 2 usage error.\n");
}

int cmd_published(int argc, char **argv)
{
	struct published_cfg cfg = {0};
	struct pub_set *pub = NULL;
	struct strbuf err;
	const char *pos[1];
	int npos = 0, ret = EXIT_USAGE;

	strbuf_init(&err, 0);
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			ret = 0;
			goto out;
		}
		/* "--dir DIR" as well as "--dir=DIR". */
		if (!strcmp(argv[a], "--dir") && a + 1 < argc) {
			cfg.dir = argv[++a];
			continue;
		}
	}
	if (!cfg.dir) {
		if (opt_parse(published_opts, NOPTS, &cfg, argc, argv, pos, 0, &npos, NULL) < 0)
			goto out;
	} else if (argc != 3) {
		log_error("published: unexpected arguments (expected: dbrig published [--dir DIR]; see --help)");
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (published_load_dir(cfg.dir, &pub, &err) < 0) {
		log_error("%s", err.buf);
		goto out;
	}
	printf("%-34s %-24s %-16s %-9s %4s %6s %10s %8s %8s\n", "file", "drive", "configuration", "workload", "VMs",
	       "drives", "TPS", "avg ms", "p99 ms");
	for (size_t i = 0; i < pub->n; i++) {
		const struct pub_review *rv = &pub->reviews[i];
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			char tps[32], p99[32];

			report_fmt_num(tps, sizeof(tps), p->tps, 2);
			if (p->has_p99)
				snprintf(p99, sizeof(p99), "%.2f", p->p99_ms);
			else
				snprintf(p99, sizeof(p99), "-");
			printf("%-34s %-24s %-16s %-9s %4lld %6lld %10s %8.2f %8s\n", rv->file, rv->drive, p->label, p->kind,
			       (long long)p->vm_count, (long long)p->drives, tps, p->avg_ms, p99);
		}
		printf("  platform: %s\n  source:   %s, %s%s%s%s%s\n", rv->platform, rv->publisher, rv->title,
		       *rv->date ? " (" : "", rv->date, *rv->date ? ")" : "", "");
		if (*rv->url)
			printf("  url:      %s\n", rv->url);
		for (size_t k = 0; k < rv->nresults; k++)
			printf("  method (%s): %s\n", rv->results[k].label, rv->results[k].method);
	}
	ret = 0;
out:
	pub_set_free(pub);
	strbuf_release(&err);
	return ret;
}
