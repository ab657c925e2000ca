/* dbrig published [--dir DIR]: list (and validate) the published references. */
#include "cli/cli.h"

#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "report/pub_little.h"
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
		   "List the published review numbers reports are compared with, and whether each row\n"
		   "obeys Little's law: VMs x threads / TPS against the published average latency for a\n"
		   "closed loop, each user's mean cycle and the transactions in flight for TPC-C users\n"
		   "with think times (docs/reading-reports.md). Every file is validated; the first error\n"
		   "names the file, the JSON path and what was expected.\n");
	opt_help(f, published_opts, NOPTS);
	fprintf(f, "\nExit status: 0 listed, 1 a file is unreadable or invalid, 2 usage error.\n");
}

/* `s` in exactly `width` columns (UTF-8 characters): padded, or cut with "..."
 * (the full text is printed below the table row). Returns true when cut. */
static bool put_col(const char *s, size_t width)
{
	size_t chars = 0, cut = 0;

	for (const char *c = s; *c; c++)
		chars += ((unsigned char)*c & 0xc0) != 0x80;
	if (chars <= width) {
		fputs(s, stdout);
		printf("%*s", (int)(width - chars), "");
		return false;
	}
	for (chars = 0; s[cut]; cut++) {
		if (((unsigned char)s[cut] & 0xc0) != 0x80 && ++chars > width - 3)
			break;
	}
	printf("%.*s...", (int)cut, s);
	return true;
}

int cmd_published(int argc, char **argv)
{
	struct published_cfg cfg = {0};
	struct pub_set *pub = NULL;
	struct strbuf err, text;
	const char *pos[1];
	int npos = 0, ret = EXIT_USAGE;

	strbuf_init(&err, 0);
	strbuf_init(&text, 0);
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
	printf("%-34s %-24s %-16s %-9s %4s %6s %10s %8s %8s  %s\n", "file", "drive", "configuration", "workload", "VMs",
	       "drives", "TPS", "avg ms", "p99 ms", "Little's law: VMs x threads / TPS");
	for (size_t i = 0; i < pub->n; i++) {
		const struct pub_review *rv = &pub->reviews[i];
		bool cut_file = false;

		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct pub_little l;
			char tps[32], p99[32];

			pub_little(p, &l);
			strbuf_reset(&text);
			pub_little_cell(p, &l, &text);
			report_fmt_num(tps, sizeof(tps), p->tps, 2);
			if (p->has_p99)
				snprintf(p99, sizeof(p99), "%.2f", p->p99_ms);
			else
				snprintf(p99, sizeof(p99), "-");
			cut_file |= put_col(rv->file, 34);
			putchar(' ');
			put_col(rv->drive, 24);
			putchar(' ');
			put_col(p->label, 16);
			putchar(' ');
			put_col(p->kind, 9);
			printf(" %4lld %6lld %10s %8.2f %8s  %s\n", (long long)p->vm_count, (long long)p->drives, tps,
			       p->avg_ms, p99, text.buf);
		}
		if (cut_file)
			printf("  file:     %s\n", rv->file);
		printf("  drive:    %s%s%s\n", rv->drive, *rv->drive_details ? ": " : "", rv->drive_details);
		printf("  platform: %s\n  source:   %s, %s%s%s%s\n", rv->platform, rv->publisher, rv->title,
		       *rv->date ? " (" : "", rv->date, *rv->date ? ")" : "");
		if (*rv->url)
			printf("  url:      %s\n", rv->url);
		for (size_t k = 0; k < rv->nresults; k++) {
			const struct pub_result *p = &rv->results[k];
			struct pub_little l;

			printf("  method (%s, %s): %s\n", p->label, p->kind, p->method);
			pub_little(p, &l);
			strbuf_reset(&text);
			pub_little_explain(p, &l, &text);
			printf("  Little's law (%s, %s): %s\n", p->label, p->kind, text.buf);
		}
	}
	ret = 0;
out:
	pub_set_free(pub);
	strbuf_release(&err);
	strbuf_release(&text);
	return ret;
}
