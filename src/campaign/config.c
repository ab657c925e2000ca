/*
 * The campaign config reader. The first invalid field stops the load with one
 * message: a config is short, and one precise line is easier to act on than a
 * cascade. Unknown fields are errors too, so a typo never silently falls back
 * to a default.
 *
 * This file reads the file and its top-level fields (name, durations,
 * repetitions, threads, sessions, rate, percentiles, output, golden), checks
 * them against each other, fills the target's view of the campaign and keeps
 * the digests of the measured fields; config_workload.c reads .workload,
 * .engine and .target, config_groups.c .drives and .run_groups
 * (config_int.h).
 */
#include "campaign/config.h"
#include "campaign/config_int.h"
#include "campaign/plan.h"

#include "core/clock.h"
#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "result/result.h"
#include "stats/steady.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool config_is_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || !isalnum((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
			return false;
	return true;
}

static void kv_free(struct target_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

/* The campaign as its target sees it (target/target.h); the loader is the caller's. */
static void fill_env(struct campaign_config *cfg)
{
	struct target_env *e = &cfg->env;
	struct strbuf sb;
	unsigned threads = cfg->threads;

	/* The servers' connection limits: the most threads a run group asks for. */
	for (size_t g = 0; g < cfg->ngroups; g++)
		if (cfg->groups[g].threads > threads)
			threads = cfg->groups[g].threads;

	cfg->drive_instances = xcalloc(cfg->ndrives + 1, sizeof(unsigned));
	for (size_t d = 0; d < cfg->ndrives; d++)
		cfg->drive_instances[d] = campaign_drive_instances(cfg, d);
	strbuf_init(&sb, 0);
	strbuf_addf(&sb, "%s/%s", cfg->output, cfg->name);
	cfg->log_dir = strbuf_detach(&sb);
	*e = (struct target_env){
		.file = cfg->file,
		.name = cfg->name,
		.drives = cfg->drives,
		.ndrives = cfg->ndrives,
		.instances = cfg->drive_instances,
		.engine = cfg->engine,
		.buffer_pool = cfg->buffer_pool,
		.server_options = cfg->server_options,
		.nserver_options = cfg->nserver_options,
		.threads = threads,
		.mysql_only = cfg->workload->mysql_only,
		.database = cfg->workload->database,
		.log_dir = cfg->log_dir,
		.target = cfg->target,
		.settings = cfg->target_settings,
		.golden_source = cfg->golden_source,
		.data_bytes = plan_data_bytes(cfg),
	};
}

static int load_percentiles(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	json_t *a = json_object_get(root, "percentiles");
	struct strbuf p;
	int ret = 0;

	if (!a) {
		cfg->npercentiles = 2;
		cfg->percentiles = xcalloc(2, sizeof(double));
		cfg->percentiles[0] = 95;
		cfg->percentiles[1] = 99;
		return 0;
	}
	/* The drivers' --percentile takes at most RESULT_MAX_PERCENTILES values. */
	if (!json_is_array(a) || !json_array_size(a) || json_array_size(a) > RESULT_MAX_PERCENTILES) {
		char what[96];
		snprintf(what, sizeof(what), "is not an array of 1..%d percentiles (expected e.g. [95, 99])",
			 RESULT_MAX_PERCENTILES);
		return jsonr_fail_value(c, ".percentiles", a, what);
	}
	cfg->npercentiles = json_array_size(a);
	cfg->percentiles = xcalloc(cfg->npercentiles, sizeof(double));
	strbuf_init(&p, 0);
	for (size_t i = 0; i < cfg->npercentiles; i++) {
		json_t *v = json_array_get(a, i);
		double x = json_is_number(v) ? json_number_value(v) : -1;

		strbuf_reset(&p);
		strbuf_addf(&p, ".percentiles[%zu]", i);
		if (!json_is_number(v) || !isfinite(x) || x <= 0 || x >= 100) {
			ret = jsonr_fail_value(c, p.buf, v, "is not a percentile (expected a number greater than 0 and less than 100)");
			break;
		}
		cfg->percentiles[i] = x;
	}
	strbuf_release(&p);
	return ret;
}

/* "sessions": "pool" (the default: the terminals share `threads`
 * connections) or "terminals" (one session per terminal, as Benchmark
 * Factory runs its virtual users: the instance's connections are its
 * terminals). tpcc only. */
static int load_sessions(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	const char *s = NULL;
	int ret;

	s = jsonr_str(c, root, "", "sessions", JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0 || !s)
		return ret;
	if (strcmp(s, "pool") && strcmp(s, "terminals"))
		return jsonr_fail_key(c, root, "", "sessions", "is not a session mode (expected pool or terminals)");
	if (!strcmp(s, "pool"))
		return 0;
	if (!cfg->workload->terminal_sessions)
		return jsonr_fail_key(c, root, "", "sessions", "is for tpcc workloads (sysbench's threads are its sessions)");
	if (jsonr_has(root, "threads")) /* a null threads failed as "null is not an integer" before */
		return jsonr_fail_key(c, root, "", "threads",
				"is set with \"sessions\": \"terminals\" (expected no threads: the connections are the "
				"terminals, workload.options.terminals or 10 per warehouse)");
	unsigned long long t = campaign_scale_value(cfg, cfg->workload->users_param);
	if (!t)
		t = (unsigned long long)cfg->workload->users_per_scale *
		    campaign_scale_value(cfg, cfg->workload->scale_option);
	if (t > 100000)
		return jsonr_failf(c, ".sessions", "\"terminals\" would open %llu sessions per instance (expected at most 100000: "
			    "fewer terminals or a pool)", t);
	cfg->threads = (unsigned)t;
	cfg->sessions_per_terminal = true;
	return 0;
}

/*
 * "golden": "once" (the default: one load on golden_drive, default the first drive
 * with instances, cloned to the others) or "per-drive" (every drive loads its own).
 */
static int load_golden(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	const char *mode, *drive;
	int ret;

	mode = jsonr_str(c, root, "", "golden", JSONR_NONEMPTY, "once");
	drive = jsonr_str(c, root, "", "golden_drive", JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if (strcmp(mode, "once") && strcmp(mode, "per-drive"))
		return jsonr_fail_key(c, root, "", "golden",
					"is not a golden mode (expected \"once\": one load cloned to every drive, "
					"or \"per-drive\")");
	cfg->golden_source = -1;
	if (!strcmp(mode, "per-drive")) {
		if (drive)
			return jsonr_fail_key(c, root, "", "golden_drive",
						"names the drive of a load cloned to the others (expected no golden_drive "
						"with \"golden\": \"per-drive\")");
		return 0;
	}
	for (size_t d = 0; d < cfg->ndrives && cfg->golden_source < 0; d++)
		if (drive ? !strcmp(drive, cfg->drives[d].name) : campaign_drive_instances(cfg, d) > 0)
			cfg->golden_source = (long)d;
	if (drive && cfg->golden_source < 0)
		return jsonr_fail_key(c, root, "", "golden_drive",
					"is not a drive of this campaign (expected the name of one of .drives)");
	if (drive && campaign_drive_instances(cfg, (size_t)cfg->golden_source) == 0)
		return jsonr_fail_key(c, root, "", "golden_drive",
					"is a drive no run group places an instance on (expected a drive with instances)");
	return 0;
}

static int load(struct jsonr *c, json_t *root, struct campaign_config *cfg)
{
	static const char *const keys[] = {
		"name", "description", "workload", "engine", "target", "drives", "run_groups", "precondition",
		"sample", "repetitions", "threads", "sessions", "rate", "report_interval", "percentiles", "output",
		"verify_restore", "keep", "telemetry", "steady_window", "golden", "golden_drive", "delivery_log", NULL,
	};
	const char *name;
	uint64_t n;
	int ret;

	if (!json_is_object(root))
		return jsonr_fail_value(c, ".", root, "is not a campaign (expected a JSON object)");
	if ((ret = jsonr_keys(c, root, "", keys)) < 0)
		return ret;
	name = jsonr_str(c, root, "", "name", JSONR_REQUIRED | JSONR_NONEMPTY, NULL);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if (!config_is_name(name))
		return jsonr_fail_key(c, root, "", "name",
				"is not a campaign name (expected up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit)");
	cfg->name = xstrdup(name);
	(void)jsonr_str(c, root, "", "description", JSONR_NONEMPTY, NULL); /* checked, not kept */
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if ((ret = config_load_workload(c, root, cfg)) < 0 || (ret = config_load_engine(c, root, cfg)) < 0 ||
	    (ret = config_load_target(c, root, cfg)) < 0 || (ret = config_load_drives(c, root, cfg)) < 0 ||
	    (ret = config_load_groups(c, root, cfg)) < 0)
		return ret;

	cfg->precondition_ns = jsonr_duration(c, root, "", "precondition", 0, 0, UINT64_C(7200) * NS_PER_SEC);
	cfg->sample_ns = jsonr_duration(c, root, "", "sample", 0, NS_PER_SEC, UINT64_C(3600) * NS_PER_SEC);
	cfg->report_interval_ns = jsonr_duration(c, root, "", "report_interval", 0, NS_PER_SEC, UINT64_C(10) * NS_PER_SEC);
	cfg->repetitions = (unsigned)jsonr_uint(c, root, "", "repetitions", 0, 1, 1000, 1);
	cfg->threads = (unsigned)jsonr_uint(c, root, "", "threads", 0, 1, 100000, 32);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if ((ret = load_sessions(c, root, cfg)) < 0)
		return ret;
	for (size_t g = 0; g < cfg->ngroups; g++) {
		if (cfg->groups[g].threads_set && cfg->sessions_per_terminal) {
			char path[48];
			snprintf(path, sizeof(path), ".run_groups[%zu].threads", cfg->groups[g].source);
			return jsonr_failf(c, path, "is set with \"sessions\": \"terminals\" (expected no threads: the "
					   "connections are the terminals)");
		}
		if (!cfg->groups[g].threads_set)
			cfg->groups[g].threads = cfg->threads;
	}
	n = jsonr_uint(c, root, "", "rate", 0, 0, 1000000000, 0);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if (n && !cfg->workload->rate_option) {
		struct strbuf sb;

		strbuf_init(&sb, 0);
		strbuf_adds(&sb, "is for ");
		for (const struct workload_desc *const *w = workloads; *w; w++)
			if ((*w)->rate_option)
				strbuf_addf(&sb, "%s%s", sb.len > 7 ? " or " : "", (*w)->name);
		strbuf_addf(&sb, " workloads (%s)", cfg->workload->pacing);
		ret = jsonr_fail_key(c, root, "", "rate", sb.buf);
		strbuf_release(&sb);
		return ret;
	}
	cfg->rate = n;
	if ((ret = load_percentiles(c, root, cfg)) < 0)
		return ret;
	cfg->output = jsonr_path(c, root, "", "output", 0, "results");
	cfg->verify_restore = jsonr_bool(c, root, "", "verify_restore", 0, false);
	cfg->keep = jsonr_bool(c, root, "", "keep", 0, false);
	cfg->telemetry = jsonr_bool(c, root, "", "telemetry", 0, true);
	cfg->delivery_log = jsonr_bool(c, root, "", "delivery_log", 0, false);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	/* The Delivery log of clause 2.7.4.2 (dbrig tpcc run --delivery-log), one per run. */
	if (cfg->delivery_log && !cfg->workload->delivery_log)
		return jsonr_fail_key(c, root, "", "delivery_log",
					"is for tpcc workloads (expected no delivery_log)");
	cfg->steady_window = (unsigned)jsonr_uint(c, root, "", "steady_window", 0, STEADY_MIN_WINDOW, 1000000,
						  STEADY_DEFAULT_WINDOW);
	if ((ret = jsonr_status(c)) < 0)
		return ret;
	if ((ret = load_golden(c, root, cfg)) < 0)
		return ret;
	fill_env(cfg);
	return cfg->target->validate(&cfg->env);
}

const char *const campaign_measured_fields[CAMPAIGN_MEASURED_FIELDS] = {
	"workload", "engine", "target", "drives", "run_groups", "precondition", "sample", "report_interval",
	"repetitions", "threads", "sessions", "rate", "percentiles", "golden",
};

/* FNV-1a 64 of the field's compact, key-sorted JSON: a change detector, not a secret. */
static void measured_digests(json_t *root, struct campaign_config *cfg)
{
	for (size_t i = 0; i < CAMPAIGN_MEASURED_FIELDS; i++) {
		json_t *v = json_object_get(root, campaign_measured_fields[i]);
		char *text = v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
		uint64_t h = UINT64_C(14695981039346656037);

		if (!text) {
			snprintf(cfg->measured[i], sizeof(cfg->measured[i]), "absent");
			continue;
		}
		for (const unsigned char *s = (const unsigned char *)text; *s; s++)
			h = (h ^ *s) * UINT64_C(1099511628211);
		/* golden_drive belongs with golden: which drive's load is cloned. */
		if (!strcmp(campaign_measured_fields[i], "golden") && json_object_get(root, "golden_drive"))
			for (const char *s = json_string_value(json_object_get(root, "golden_drive")); s && *s; s++)
				h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
		snprintf(cfg->measured[i], sizeof(cfg->measured[i]), "%016llx", (unsigned long long)h);
		free(text);
	}
}

int campaign_config_load(const char *file, struct campaign_config **out)
{
	struct campaign_config *cfg = xcalloc(1, sizeof(*cfg));
	struct jsonr c = {.file = file, .show_max = 80, .style = JSONR_IS_NOT};
	json_error_t jerr;
	json_t *root = NULL;
	char *text = NULL;
	size_t len = 0;
	int ret;

	cfg->file = xstrdup(file);
	ret = read_file(file, &text, &len);
	if (ret < 0) {
		log_error("%s: cannot read the campaign file: %s%s", file, read_file_strerror(ret),
			  ret == -EINVAL || ret == -EFBIG ? " (expected a JSON campaign file)" : "");
		/* A FIFO, a device or a huge file is a wrong argument (exit 2); a missing one a runtime error. */
		if (ret == -EFBIG)
			ret = -EINVAL;
		goto out;
	}
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		struct strbuf why;
		strbuf_init(&why, 0);
		strbuf_add_oneline(&why, jerr.text);
		log_error("%s: line %d column %d: %s (expected a JSON campaign file)", file, jerr.line, jerr.column,
			  why.buf);
		strbuf_release(&why);
		ret = -EINVAL;
		goto out;
	}
	ret = load(&c, root, cfg);
	if (ret < 0)
		goto out;
	measured_digests(root, cfg);
	*out = cfg;
	cfg = NULL;
out:
	json_decref(root);
	free(text);
	campaign_config_free(cfg);
	return ret;
}

void campaign_config_free(struct campaign_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->file);
	free(cfg->name);
	free(cfg->test);
	kv_free(cfg->wl_options, cfg->nwl_options);
	kv_free(cfg->server_options, cfg->nserver_options);
	if (cfg->target)
		target_settings_free(cfg->target, cfg->target_settings);
	free(cfg->drive_instances);
	free(cfg->log_dir);
	for (size_t i = 0; i < cfg->ndrives; i++) {
		free(cfg->drives[i].name);
		free(cfg->drives[i].path);
		free(cfg->drives[i].pool);
		free(cfg->drives[i].host);
		free(cfg->drives[i].model);
	}
	free(cfg->drives);
	for (size_t i = 0; i < cfg->ngroups; i++) {
		free(cfg->groups[i].name);
		free(cfg->groups[i].slug);
		free(cfg->groups[i].id);
		free(cfg->groups[i].place);
	}
	free(cfg->groups);
	free(cfg->percentiles);
	free(cfg->output);
	free(cfg);
}

unsigned campaign_drive_instances(const struct campaign_config *cfg, size_t d)
{
	unsigned max = 0;

	for (size_t g = 0; g < cfg->ngroups; g++)
		for (size_t i = 0; i < cfg->groups[g].nplace; i++)
			if (cfg->groups[g].place[i].drive == d && cfg->groups[g].place[i].count > max)
				max = cfg->groups[g].place[i].count;
	return max;
}

void campaign_percentiles_arg(const struct campaign_config *cfg, struct strbuf *sb)
{
	for (size_t i = 0; i < cfg->npercentiles; i++)
		strbuf_addf(sb, "%s%g", i ? "," : "", cfg->percentiles[i]);
}
