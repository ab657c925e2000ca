#include "core/driveid.h"

#include "core/fileio.h"
#include "core/proc.h"
#include "core/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copy `s` trimmed of leading and trailing white space into out[n]. */
static void trimcpy(char *out, size_t n, const char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	if (len >= n)
		len = n - 1;
	memcpy(out, s, len);
	out[len] = '\0';
}

/* The trimmed first line of a sysfs file into out[n]; false when missing or empty. */
static bool sysfs_str(const char *dir, const char *name, char *out, size_t n)
{
	char path[512], *text = NULL;
	size_t len = 0;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_file(path, &text, &len) == 0) {
		char *nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		trimcpy(out, n, text);
		ok = *out != '\0';
	}
	free(text);
	return ok;
}

static uint64_t sysfs_u64(const char *dir, const char *name)
{
	char b[64];

	return sysfs_str(dir, name, b, sizeof(b)) ? strtoull(b, NULL, 10) : 0;
}

int driveid_read_sysfs(const char *sys_block, const char *dev, struct drive_id *id, struct strbuf *err)
{
	char dir[512], sub[600];
	struct stat st;

	memset(id, 0, sizeof(*id));
	trimcpy(id->dev, sizeof(id->dev), dev);
	snprintf(dir, sizeof(dir), "%s/%s", sys_block, dev);
	if (stat(dir, &st) < 0) {
		strbuf_addf(err, "%s: %s (expected a block device's sysfs folder)", dir, strerror(errno));
		return -ENOENT;
	}
	snprintf(sub, sizeof(sub), "%s/device", dir);
	sysfs_str(sub, "model", id->model, sizeof(id->model));
	sysfs_str(sub, "serial", id->serial, sizeof(id->serial));
	if (!sysfs_str(sub, "firmware_rev", id->firmware, sizeof(id->firmware)))
		sysfs_str(sub, "rev", id->firmware, sizeof(id->firmware));
	id->size_bytes = sysfs_u64(dir, "size") * 512;
	snprintf(sub, sizeof(sub), "%s/queue", dir);
	id->logical_block = (unsigned)sysfs_u64(sub, "logical_block_size");
	id->physical_block = (unsigned)sysfs_u64(sub, "physical_block_size");
	return 0;
}

static json_t *load(const char *text, const char *what, struct strbuf *err)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);

	if (!root || !json_is_object(root)) {
		strbuf_addf(err, "%s output: %s (expected a JSON object)", what, root ? "not an object" : je.text);
		json_decref(root);
		return NULL;
	}
	return root;
}

static void take_str(json_t *o, const char *key, char *out, size_t n)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v) && *json_string_value(v)) {
		char t[256];
		trimcpy(t, sizeof(t), json_string_value(v));
		if (*t)
			trimcpy(out, n, t);
	}
}

static bool get_u64(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return true;
	}
	if (json_is_real(v) && json_real_value(v) >= 0) {
		*out = (uint64_t)json_real_value(v);
		return true;
	}
	return false;
}

int driveid_parse_nvme_id_ctrl(const char *json, struct drive_id *id, struct strbuf *err)
{
	json_t *root = load(json, "nvme id-ctrl", err);
	uint64_t cap;

	if (!root)
		return -EINVAL;
	take_str(root, "mn", id->model, sizeof(id->model));
	take_str(root, "sn", id->serial, sizeof(id->serial));
	take_str(root, "fr", id->firmware, sizeof(id->firmware));
	if (get_u64(root, "tnvmcap", &cap) && cap)
		id->size_bytes = cap;
	json_decref(root);
	return 0;
}

int driveid_parse_smartctl(const char *json, struct drive_id *id, struct drive_health *h, struct strbuf *err)
{
	json_t *root = load(json, "smartctl", err), *o;
	uint64_t v;

	memset(h, 0, sizeof(*h));
	if (!root)
		return -EINVAL;
	take_str(root, "model_name", id->model, sizeof(id->model));
	take_str(root, "serial_number", id->serial, sizeof(id->serial));
	take_str(root, "firmware_version", id->firmware, sizeof(id->firmware));
	if (get_u64(json_object_get(root, "user_capacity"), "bytes", &v) && v)
		id->size_bytes = v;
	if (get_u64(root, "logical_block_size", &v) && v)
		id->logical_block = (unsigned)v;
	if (get_u64(root, "physical_block_size", &v) && v)
		id->physical_block = (unsigned)v;
	o = json_object_get(json_object_get(root, "smart_status"), "passed");
	if (json_is_boolean(o)) {
		h->has_passed = true;
		h->passed = json_is_true(o);
	}
	if (get_u64(json_object_get(root, "temperature"), "current", &v)) {
		h->has_temp = true;
		h->temp_c = (int)v;
	}
	o = json_object_get(root, "nvme_smart_health_information_log");
	if (json_is_object(o)) {
		if (get_u64(o, "percentage_used", &v)) {
			h->has_wear = true;
			h->wear_pct = (int)v;
		}
		if (get_u64(o, "data_units_written", &v)) {
			h->has_written = true;
			h->written_bytes = v * 512000ULL; /* NVMe: units of 1000 512-byte blocks */
		}
		if (!h->has_temp && get_u64(o, "temperature", &v)) {
			h->has_temp = true;
			h->temp_c = (int)v;
		}
	}
	o = json_object_get(json_object_get(root, "ata_smart_attributes"), "table");
	if (json_is_array(o)) {
		size_t i;
		json_t *a;

		json_array_foreach(o, i, a) {
			json_int_t aid = json_integer_value(json_object_get(a, "id"));
			if (aid == 241 && get_u64(json_object_get(a, "raw"), "value", &v)) {
				h->has_written = true;
				h->written_bytes = v * (id->logical_block ? id->logical_block : 512);
			}
		}
	}
	json_decref(root);
	return 0;
}

bool drive_health_written_delta(const struct drive_health *before, const struct drive_health *after, int64_t *delta)
{
	if (!before->has_written || !after->has_written)
		return false;
	*delta = (int64_t)(after->written_bytes - before->written_bytes);
	return true;
}

bool drive_health_wear_delta(const struct drive_health *before, const struct drive_health *after, int *delta)
{
	if (!before->has_wear || !after->has_wear)
		return false;
	*delta = after->wear_pct - before->wear_pct;
	return true;
}

/* Runs `prog args... /dev/<dev>` and returns its stdout, or NULL. */
static char *tool_json(const char *prog, const char *a1, const char *a2, const char *a3, const char *dev)
{
	char *path = proc_find_program(prog, NULL), devpath[96];
	struct strbuf out;
	int status = 0;

	if (!path)
		return NULL;
	snprintf(devpath, sizeof(devpath), "/dev/%s", dev);
	{
		char *const argv[] = {path, (char *)a1, (char *)a2, (char *)a3, devpath, NULL};
		struct proc_spec ps = {.argv = argv, .log_path = "/dev/null", .capture = true};

		strbuf_init(&out, 0);
		/* smartctl's exit status is a bit mask of findings: the JSON is what counts. */
		if (proc_run(&ps, &out, &status) < 0 || !out.len) {
			strbuf_release(&out);
			free(path);
			return NULL;
		}
	}
	free(path);
	return strbuf_detach(&out);
}

void driveid_probe(const char *dev, struct drive_id *id, struct drive_health *h)
{
	struct strbuf err;
	char *j;

	strbuf_init(&err, 0);
	memset(h, 0, sizeof(*h));
	if (driveid_read_sysfs("/sys/block", dev, id, &err) < 0) {
		memset(id, 0, sizeof(*id));
		trimcpy(id->dev, sizeof(id->dev), dev);
	}
	if (!strncmp(dev, "nvme", 4) && (j = tool_json("nvme", "id-ctrl", "-o", "json", dev))) {
		if (driveid_parse_nvme_id_ctrl(j, id, &err) < 0)
			strbuf_reset(&err);
		free(j);
	}
	if ((j = tool_json("smartctl", "-j", "-a", "-H", dev))) {
		struct drive_health t;
		if (driveid_parse_smartctl(j, id, &t, &err) == 0)
			*h = t;
		free(j);
	}
	strbuf_release(&err);
}

static json_t *health_json(const struct drive_health *h)
{
	json_t *o = json_object();

	json_object_set_new(o, "smart_passed", h->has_passed ? json_boolean(h->passed) : json_null());
	json_object_set_new(o, "temperature_c", h->has_temp ? json_integer(h->temp_c) : json_null());
	json_object_set_new(o, "media_wear_pct", h->has_wear ? json_integer(h->wear_pct) : json_null());
	json_object_set_new(o, "data_written_bytes", h->has_written ? json_integer((json_int_t)h->written_bytes)
								      : json_null());
	return o;
}

static json_t *str_or_null(const char *s)
{
	return *s ? json_string(s) : json_null();
}

json_t *driveid_to_json(const struct drive_id *id, const struct drive_health *before,
			const struct drive_health *after)
{
	json_t *o = json_object(), *ch = json_object();
	int64_t dw;
	int dwear;

	json_object_set_new(o, "dev", json_string(id->dev));
	json_object_set_new(o, "model", str_or_null(id->model));
	json_object_set_new(o, "serial", str_or_null(id->serial));
	json_object_set_new(o, "firmware", str_or_null(id->firmware));
	json_object_set_new(o, "capacity_bytes", id->size_bytes ? json_integer((json_int_t)id->size_bytes) : json_null());
	json_object_set_new(o, "logical_block_size", id->logical_block ? json_integer(id->logical_block) : json_null());
	json_object_set_new(o, "physical_block_size", id->physical_block ? json_integer(id->physical_block) : json_null());
	json_object_set_new(o, "before", health_json(before));
	json_object_set_new(o, "after", health_json(after));
	json_object_set_new(ch, "data_written_bytes", drive_health_written_delta(before, after, &dw) ? json_integer(dw)
												      : json_null());
	json_object_set_new(ch, "media_wear_pct", drive_health_wear_delta(before, after, &dwear) ? json_integer(dwear)
												    : json_null());
	json_object_set_new(ch, "temperature_c", before->has_temp && after->has_temp
							 ? json_integer(after->temp_c - before->temp_c) : json_null());
	json_object_set_new(o, "change", ch);
	return o;
}

void hostid_read(const char *proc_dir, struct host_id *h)
{
	char path[512], *text = NULL, *p;
	size_t len = 0;
	struct utsname u;
	long n;

	memset(h, 0, sizeof(*h));
	snprintf(path, sizeof(path), "%s/cpuinfo", proc_dir);
	if (read_file(path, &text, &len) == 0 && (p = strstr(text, "model name"))) {
		char *colon = strchr(p, ':'), *nl;
		if (colon) {
			nl = strchr(colon, '\n');
			if (nl)
				*nl = '\0';
			trimcpy(h->cpu_model, sizeof(h->cpu_model), colon + 1);
		}
	}
	free(text);
	text = NULL;
	snprintf(path, sizeof(path), "%s/meminfo", proc_dir);
	if (read_file(path, &text, &len) == 0 && (p = strstr(text, "MemTotal:")))
		h->ram_bytes = strtoull(p + 9, NULL, 10) * 1024; /* kB */
	free(text);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	h->cpus = n > 0 ? (unsigned)n : 0;
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s", u.sysname, u.release);
}

json_t *hostid_to_json(const struct host_id *h)
{
	json_t *o = json_object();

	json_object_set_new(o, "cpu_model", str_or_null(h->cpu_model));
	json_object_set_new(o, "cpus", h->cpus ? json_integer(h->cpus) : json_null());
	json_object_set_new(o, "ram_bytes", h->ram_bytes ? json_integer((json_int_t)h->ram_bytes) : json_null());
	json_object_set_new(o, "kernel", str_or_null(h->kernel));
	return o;
}
