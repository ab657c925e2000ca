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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_nvme),
		cmocka_unit_test(test_nvme_id_ctrl),
		cmocka_unit_test(test_smartctl_nvme_delta),
		cmocka_unit_test(test_smartctl_ata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
