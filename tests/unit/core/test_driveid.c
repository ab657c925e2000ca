/* Unit tests of core/driveid.c: identity from a fake sysfs tree, recorded `nvme id-ctrl -o json` and `smartctl -j` outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/driveid.h"
#include "core/fileio.h"
#include "core/strbuf.h"

static const char *fixture(const char *rel)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/tests/fixtures/driveid/%s",
		 getenv("DBRIG_SOURCE_DIR") ? getenv("DBRIG_SOURCE_DIR") : DBRIG_SOURCE_DIR, rel);
	return path;
}

static char *slurp(const char *rel)
{
	char *text = NULL;
	size_t len = 0;

	assert_int_equal(read_file(fixture(rel), &text, &len), 0);
	return text;
}

static void test_sysfs_nvme(void **state)
{
	struct drive_id id;
	struct strbuf err;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(driveid_read_sysfs(fixture("sys/block"), "nvme0n1", &id, &err), 0);
	assert_string_equal(id.dev, "nvme0n1");
	assert_string_equal(id.model, "SAMSUNG MZWLO3T8HCLS-00A07"); /* padding trimmed */
	assert_string_equal(id.serial, "S6UNNA0T500123");
	assert_string_equal(id.firmware, "GDC7102Q");
	assert_true(id.size_bytes == 7501476528ULL * 512);
	assert_int_equal(id.logical_block, 512);
	assert_int_equal(id.physical_block, 4096);
	/* SCSI: the firmware is device/rev, no serial file. */
	assert_int_equal(driveid_read_sysfs(fixture("sys/block"), "sda", &id, &err), 0);
	assert_string_equal(id.model, "Samsung SSD 870");
	assert_string_equal(id.firmware, "SVT02B6Q");
	assert_string_equal(id.serial, "");
	assert_int_equal(driveid_read_sysfs(fixture("sys/block"), "nvme9n9", &id, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "nvme9n9"));
	strbuf_release(&err);
}

static void test_nvme_id_ctrl(void **state)
{
	struct drive_id id = {0};
	struct strbuf err;
	char *j = slurp("nvme-id-ctrl.json");

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(driveid_parse_nvme_id_ctrl(j, &id, &err), 0);
	assert_string_equal(id.model, "SAMSUNG MZWLO3T8HCLS-00A07");
	assert_string_equal(id.serial, "S6UNNA0T500123");
	assert_string_equal(id.firmware, "GDC7102Q");
	assert_true(id.size_bytes == 3840755982336ULL);
	assert_int_equal(driveid_parse_nvme_id_ctrl("[1]", &id, &err), -EINVAL);
	assert_int_equal(driveid_parse_nvme_id_ctrl("not json", &id, &err), -EINVAL);
	free(j);
	strbuf_release(&err);
}

/* NVMe before and after a run: health, temperature, wear and data written, and their change. */
static void test_smartctl_nvme_delta(void **state)
{
	struct drive_id id = {0};
	struct drive_health before, after;
	struct strbuf err;
	char *b = slurp("smartctl-nvme-before.json"), *a = slurp("smartctl-nvme-after.json");
	int64_t dw;
	int dwear;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(driveid_parse_smartctl(b, &id, &before, &err), 0);
	assert_int_equal(driveid_parse_smartctl(a, &id, &after, &err), 0);
	assert_string_equal(id.model, "SAMSUNG MZWLO3T8HCLS-00A07");
	assert_true(id.size_bytes == 3840755982336ULL);
	assert_int_equal(id.logical_block, 512);
	assert_true(before.has_passed && before.passed);
	assert_true(before.has_temp);
	assert_int_equal(before.temp_c, 38);
	assert_int_equal(after.temp_c, 51);
	assert_true(before.has_wear);
	assert_int_equal(before.wear_pct, 2);
	assert_true(before.has_written);
	assert_true(before.written_bytes == 2000000ULL * 512000);
	/* The run wrote 500,000 data units of 512,000 bytes: a positive delta, after minus before. */
	assert_true(drive_health_written_delta(&before, &after, &dw));
	assert_true(dw == 500000LL * 512000);
	assert_true(drive_health_wear_delta(&before, &after, &dwear));
	assert_int_equal(dwear, 1);
	/* Nothing guessed when one side lacks the figure. */
	before.has_written = false;
	assert_false(drive_health_written_delta(&before, &after, &dw));
	free(a);
	free(b);
	strbuf_release(&err);
}

static void test_smartctl_ata(void **state)
{
	struct drive_id id = {0};
	struct drive_health h;
	struct strbuf err;
	char *j = slurp("smartctl-ata.json");

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(driveid_parse_smartctl(j, &id, &h, &err), 0);
	assert_string_equal(id.model, "Samsung SSD 870 EVO 1TB");
	assert_string_equal(id.serial, "S625NJ0R123456");
	assert_int_equal(id.physical_block, 512);
	assert_true(h.has_passed);
	assert_false(h.passed);
	assert_int_equal(h.temp_c, 29);
	assert_false(h.has_wear); /* no NVMe percentage_used: not guessed from a vendor attribute */
	assert_true(h.has_written);
	assert_true(h.written_bytes == 1000000000ULL * 512);
	free(j);
	strbuf_release(&err);
}

/* The result's record: identity, before, after and the change with its sign (after - before). */
static void test_to_json(void **state)
{
	struct drive_id id = {0};
	struct drive_health before, after;
	struct strbuf err;
	char *b = slurp("smartctl-nvme-before.json"), *a = slurp("smartctl-nvme-after.json");
	json_t *o;

	(void)state;
	strbuf_init(&err, 0);
	assert_int_equal(driveid_read_sysfs(fixture("sys/block"), "nvme0n1", &id, &err), 0);
	assert_int_equal(driveid_parse_smartctl(b, &id, &before, &err), 0);
	assert_int_equal(driveid_parse_smartctl(a, &id, &after, &err), 0);
	o = driveid_to_json(&id, &before, &after);
	assert_string_equal(json_string_value(json_object_get(o, "model")), "SAMSUNG MZWLO3T8HCLS-00A07");
	assert_int_equal(json_integer_value(json_object_get(o, "physical_block_size")), 4096);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "before"), "temperature_c")), 38);
	assert_true(json_object_get(json_object_get(o, "before"), "smart_passed") == json_true());
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "change"), "data_written_bytes")),
			 500000LL * 512000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "change"), "media_wear_pct")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "change"), "temperature_c")), 13);
	json_decref(o);
	/* Without SMART (a loop device): nulls, never zeros. */
	memset(&before, 0, sizeof(before));
	o = driveid_to_json(&id, &before, &before);
	assert_true(json_is_null(json_object_get(json_object_get(o, "change"), "data_written_bytes")));
	assert_true(json_is_null(json_object_get(json_object_get(o, "after"), "media_wear_pct")));
	json_decref(o);
	free(a);
	free(b);
	strbuf_release(&err);
}

static void test_host(void **state)
{
	struct host_id h;
	json_t *o;
	char dir[1024];

	(void)state;
	snprintf(dir, sizeof(dir), "%s", fixture("proc"));
	hostid_read(dir, &h);
	assert_string_equal(h.cpu_model, "AMD EPYC 9454 48-Core Processor");
	assert_true(h.ram_bytes == 792466004ULL * 1024);
	assert_true(h.cpus > 0);
	assert_non_null(strstr(h.kernel, "Linux"));
	o = hostid_to_json(&h);
	assert_string_equal(json_string_value(json_object_get(o, "cpu_model")), "AMD EPYC 9454 48-Core Processor");
	json_decref(o);
	hostid_read("/nonexistent", &h);
	assert_string_equal(h.cpu_model, "");
	assert_true(h.ram_bytes == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_nvme),
		cmocka_unit_test(test_nvme_id_ctrl),
		cmocka_unit_test(test_smartctl_nvme_delta),
		cmocka_unit_test(test_smartctl_ata),
		cmocka_unit_test(test_to_json),
		cmocka_unit_test(test_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
