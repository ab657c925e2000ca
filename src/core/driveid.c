#include "core/driveid.h"

#include "core/fileio.h"
#include "core/strbuf.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
