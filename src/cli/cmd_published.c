/* dbrig published [--dir DIR] [--protocol SPEC]: list (and validate) the published references, or rank
 * those of one protocol (report/leaderboard.h). */
#include "cli/cli.h"

#include "core/datadir.h"
#include "core/log.h"
#include "core/opt.h"
#include "core/strbuf.h"
#include "report/leaderboard.h"
#include "report/pub_little.h"
#include "report/published.h"
#include "report/writer.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct published_cfg {
	const char *dir;
	const char *protocol;
	bool help;
};

static const struct opt_def published_opts[] = {
	{.name = "dir", .kind = OPT_STRING, .offset = offsetof(struct published_cfg, dir),
	 .help = "folder of published reference files (schema: reports/published/README.md; default: "
		 "reports/published/ in dbrig's data folder, <prefix>/share/dbrig or $DBRIG_DATA_DIR)",
	 .group = "Options"},
	{.name = "protocol", .kind = OPT_STRING, .offset = offsetof(struct published_cfg, protocol),
	 .help = "rank the rows of one protocol instead of listing: workload=sysbench|tpcc,vms=N and optionally "
		 "test=NAME, threads=N (closed loop) or users=N (think times), tables=N, table_size=N, warehouses=N",
	 .group = "Options"},
	{.name = "help", .kind = OPT_BOOL, .offset = offsetof(struct published_cfg, help),
	 .help = "show this help", .group = "Options"},
};
#define NOPTS (sizeof(published_opts) / sizeof(published_opts[0]))

static void usage(FILE *f)
{
	fprintf(f, "Usage: dbrig published [--dir=DIR] [--protocol=SPEC]\n\n"
		   "List the published review numbers reports are compared with, and whether each row\n"
		   "obeys Little's law: VMs x threads / TPS against the published average latency for a\n"
		   "closed loop, each user's mean cycle and the transactions in flight for TPC-C users\n"
		   "with think times (docs/reading-reports.md). Every file is validated; the first error\n"
		   "names the file, the JSON path and what was expected.\n\n"
		   "With --protocol, only the rows that state that protocol, ranked by TPS and by p99\n"
		   "(under think times by average latency: the users' think times set the TPS), and the\n"
		   "nearest rows of another protocol with the fields that differ, e.g.\n"
		   "  dbrig published --protocol workload=sysbench,vms=1,threads=32,tables=100,table_size=10000000\n"
		   "  dbrig published --protocol workload=tpcc,vms=4,users=15000\n");
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

/* One review's lines: a row per ranked result, then its drive, platform, source, url, methods and unranked rows. */
static void print_review(const struct pub_review *rv, struct strbuf *text)
{
	bool cut_file = false;

	for (size_t k = 0; k < rv->nresults; k++) {
		const struct pub_result *p = &rv->results[k];
		struct pub_little l;
		char tps[32], p99[32];

		pub_little(p, &l);
		strbuf_reset(text);
		pub_little_cell(p, &l, text);
		report_fmt_num(tps, sizeof(tps), p->tps, 2);
		if (p->has_p99)
			snprintf(p99, sizeof(p99), "%.2f", p->p99_ms);
		else
			snprintf(p99, sizeof(p99), "-");
		cut_file |= put_col(rv->file, 34);
		putchar(' ');
		put_col(p->x.drive, 24);
		putchar(' ');
		put_col(p->label, 16);
		putchar(' ');
		put_col(p->kind, 9);
		printf(" %4lld %6lld %10s %8.2f %8s  %s\n", (long long)p->vm_count, (long long)p->drives, tps,
		       p->avg_ms, p99, text->buf);
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
		strbuf_reset(text);
		pub_little_explain(p, &l, text);
		printf("  Little's law (%s, %s): %s\n", p->label, p->kind, text->buf);
		if (p->x.drive_own || *p->x.era || p->x.machine_translated || *p->x.quote)
			printf("  row (%s, %s): %s%s%s%s%s%s%s%s\n", p->label, p->kind, p->x.drive,
			       *p->x.drive_details ? " (" : "", p->x.drive_details, *p->x.drive_details ? ")" : "",
			       *p->x.era ? "; " : "", p->x.era, p->x.machine_translated ? "; machine-translated" : "",
			       *p->x.quote ? "; quoted: " : "");
		if (*p->x.quote)
			printf("    \"%s\"\n", p->x.quote);
	}
	for (size_t k = 0; k < rv->nincomplete; k++) {
		const struct pub_incomplete *p = &rv->incomplete[k];

		printf("  not ranked (%s, %s): %s: %s%s%s", p->label, p->kind, p->x.drive, p->missing,
		       p->x.machine_translated ? "; machine-translated" : "", p->has_avg ? "; average latency " : "");
		if (p->has_avg)
			printf("%.2f ms", p->avg_ms);
		if (p->users_per_vm && p->vm_count && p->has_avg)
			printf("; no TPS, so Little's law gives no cycle time");
		putchar('\n');
	}
}

int cmd_published(int argc, char **argv)
{
	struct published_cfg cfg = {0};
	char *dir_owned = NULL;
	struct pub_set *pub = NULL;
	struct strbuf err, text;
	struct lb_proto want;
	const char *pos[1];
	char **av = NULL;
	int ac = 0, npos = 0, ret = EXIT_USAGE;

	strbuf_init(&err, 0);
	strbuf_init(&text, 0);
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			ret = 0;
			goto out;
		}
	}
	/* "--dir DIR" and "--protocol SPEC" as well as "--dir=DIR": joined before opt_parse. */
	av = xcalloc((size_t)argc + 1, sizeof(*av));
	for (int a = 0; a < argc; a++) {
		if ((!strcmp(argv[a], "--dir") || !strcmp(argv[a], "--protocol")) && a + 1 < argc) {
			struct strbuf j;

			strbuf_init(&j, 0);
			strbuf_addf(&j, "%s=%s", argv[a], argv[a + 1]);
			av[ac++] = strbuf_detach(&j);
			a++;
			continue;
		}
		av[ac++] = xstrdup(argv[a]);
	}
	if (opt_parse(published_opts, NOPTS, &cfg, ac, av, pos, 0, &npos, NULL) < 0)
		goto out;
	if (cfg.protocol && lb_proto_parse(cfg.protocol, &want, &err) < 0) {
		log_error("published: %s", err.buf);
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (!cfg.dir)
		cfg.dir = dir_owned = datadir_path("reports/published");
	if (published_load_dir(cfg.dir, &pub, &err) < 0) {
		log_error("%s", err.buf);
		goto out;
	}
	if (cfg.protocol) {
		struct lb_board b;

		lb_build(pub, &want, NULL, 0, &b);
		lb_text(&b, &text);
		fputs(text.buf, stdout);
		lb_release(&b);
		ret = 0;
		goto out;
	}
	printf("%-34s %-24s %-16s %-9s %4s %6s %10s %8s %8s  %s\n", "file", "drive", "configuration", "workload", "VMs",
	       "drives", "TPS", "avg ms", "p99 ms", "Little's law: VMs x threads / TPS");
	for (size_t i = 0; i < pub->n; i++)
		print_review(&pub->reviews[i], &text);
	ret = 0;
out:
	for (int a = 0; a < ac; a++)
		free(av[a]);
	free(av);
	free(dir_owned);
	pub_set_free(pub);
	strbuf_release(&err);
	strbuf_release(&text);
	return ret;
}
