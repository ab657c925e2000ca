/* What dbrig sysbench and dbrig tpcc share: --percentile, passwords, the run identity. */
#include "cli/common_opts.h"

#include "core/fileio.h"
#include "core/log.h"
#include "db/db.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "result/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_parse_percentiles_quiet(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
{
	char *copy = xstrdup(s);
	char *save = NULL;
	int ret = 0;

	*n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		double v;
		if (parse_double(tok, &v) < 0 || v < 0 || v > 100 || *n >= RESULT_MAX_PERCENTILES) {
			ret = -1;
			break;
		}
		if (v == 0) /* sysbench: 0 disables percentiles */
			continue;
		out[(*n)++] = v;
	}
	free(copy);
	return ret;
}

int cli_parse_percentiles(const char *s, double out[RESULT_MAX_PERCENTILES], unsigned *n)
{
	int ret = cli_parse_percentiles_quiet(s, out, n);

	if (ret < 0)
		log_error("--percentile: \"%s\" is not valid (expected numbers from 0 to 100, comma-separated, e.g. 95 or "
			  "50,95,99)",
			  s);
	return ret;
}

char *cli_read_password_file(const char *opt, const char *path)
{
	struct stat st;
	char *text = NULL, *pw;
	int ret;

	/* read_file: a FIFO is never waited on, a device never read, the size bounded. */
	ret = stat(path, &st) < 0 ? -errno : read_file(path, &text, NULL);
	if (ret < 0) {
		log_error_dbrig("--%s: \"%s\": %s%s", opt, path, read_file_strerror(ret),
				ret == -EINVAL || ret == -EFBIG ? " (expected a file holding the password on its first line)" : "");
		return NULL;
	}
	if (st.st_mode & (S_IRGRP | S_IROTH))
		log_warn_dbrig("--%s: \"%s\" is readable by group or others (chmod 600 it)", opt, path);
	text[strcspn(text, "\r\n")] = '\0';
	pw = xstrdup(text);
	explicit_bzero(text, strlen(text));
	free(text);
	return pw;
}

int cli_password(const char *given, const char *file_opt, const char *file, const char *env, char **out)
{
	*out = NULL;
	if (given)
		*out = xstrdup(given);
	else if (file)
		return (*out = cli_read_password_file(file_opt, file)) ? 0 : -1;
	else if (getenv(env))
		*out = xstrdup(getenv(env));
	return 0;
}

void cli_password_free(char *password)
{
	if (!password)
		return;
	memset(password, 0, strlen(password));
	free(password);
}

void cli_run_identity(const struct cli_run_opts *o, struct run_identity *id)
{
	id->campaign = o->run_campaign;
	id->run_group = o->run_group;
	id->drive = o->run_drive;
	id->instance = o->run_instance;
	id->vm_count = o->run_vm_count;
	id->repetition = o->run_repetition;
	id->steady_window = o->run_steady_window;
	id->golden = o->run_golden;
	id->run_id = o->run_id;
	id->run_started = o->run_started;
	id->storage = o->run_storage;
}

void cli_add_driver_rows(struct opt_def *defs, size_t *n, size_t cap, const struct db_driver_ops *d,
			 struct cli_driver_opts *slot, size_t slot_offset, bool dbrig, unsigned drop,
			 const struct cli_row_override *ov, size_t nov, const char *dbrig_group)
{
	if (d->options_size > sizeof(slot->blob))
		abort(); /* the driver's blob does not fit DB_OPTIONS_MAX */
	slot->drv = d;
	for (size_t i = 0; i < d->n_options; i++) {
		struct opt_def row = d->options[i];
		if (!(row.flags & DB_OPT_DBRIG) != !dbrig || (row.flags & drop))
			continue;
		if (*n == cap)
			abort(); /* the command's table is too small for its drivers' rows */
		row.offset += slot_offset + offsetof(struct cli_driver_opts, blob);
		for (size_t k = 0; k < nov; k++) {
			if (strcmp(ov[k].name, row.name))
				continue;
			if (ov[k].def)
				row.def = ov[k].def;
			if (ov[k].help)
				row.help = ov[k].help;
		}
		if ((row.flags & DB_OPT_DBRIG) && dbrig_group)
			row.group = dbrig_group;
		defs[(*n)++] = row;
	}
}
