/*
 * A drive's identity and health as the system reports them, for the result's
 * test bed: what was measured, and what the run did to it.
 *
 * Identity from sysfs (/sys/block/<dev>: device/model, device/serial,
 * device/firmware_rev (device/rev for SCSI), queue/logical_block_size,
 * queue/physical_block_size and size in 512-byte sectors), then completed or
 * corrected by `nvme id-ctrl -o json` (mn, sn, fr, tnvmcap) and `smartctl -j`
 * (model_name, serial_number, firmware_version, user_capacity.bytes,
 * logical_block_size, physical_block_size) where those tools are installed.
 * Strings are trimmed (NVMe pads them with spaces).
 *
 * Health from `smartctl -j -a`: smart_status.passed, temperature.current (°C),
 * for NVMe the health log's percentage_used (media wear, %) and
 * data_units_written (units of 512,000 bytes), for ATA attribute 241
 * Total_LBAs_Written (logical blocks). A field the tool does not report stays
 * unset (has_* false): nothing is guessed.
 */
#ifndef DBRIG_CORE_DRIVEID_H
#define DBRIG_CORE_DRIVEID_H

#include <stdbool.h>
#include <stdint.h>

struct strbuf;
typedef struct json_t json_t;

struct drive_id {
	char dev[64];             /* kernel name, "nvme0n1" */
	char model[128], serial[128], firmware[64];
	uint64_t size_bytes;      /* 0: not known */
	unsigned logical_block, physical_block; /* bytes; 0: not known */
};

struct drive_health {
	bool has_passed;
	bool passed;              /* SMART overall health */
	bool has_temp;
	int temp_c;
	bool has_wear;
	int wear_pct;             /* NVMe percentage_used: the share of rated endurance used */
	bool has_written;
	uint64_t written_bytes;   /* host writes over the drive's life */
};

/* Identity from `sys_block` (normally "/sys/block") for device `dev`.
 * 0, or -ENOENT when `sys_block`/`dev` does not exist (message in err). */
int driveid_read_sysfs(const char *sys_block, const char *dev, struct drive_id *id, struct strbuf *err)
	__attribute__((warn_unused_result));

/* `nvme id-ctrl -o json` output: fills model, serial, firmware, size. 0 or -EINVAL (message in err). */
int driveid_parse_nvme_id_ctrl(const char *json, struct drive_id *id, struct strbuf *err)
	__attribute__((warn_unused_result));

/* `smartctl -j [-a]` output: fills identity fields it reports and the health. 0 or -EINVAL. */
int driveid_parse_smartctl(const char *json, struct drive_id *id, struct drive_health *h, struct strbuf *err)
	__attribute__((warn_unused_result));

/* after - before of the written bytes, wear and temperature; false when either lacks it. */
bool drive_health_written_delta(const struct drive_health *before, const struct drive_health *after,
				int64_t *delta);
bool drive_health_wear_delta(const struct drive_health *before, const struct drive_health *after, int *delta);

/* The host: CPU model (/proc/cpuinfo "model name"), online CPUs, RAM (/proc/meminfo MemTotal), kernel (uname). */
struct host_id {
	char cpu_model[128];
	unsigned cpus;
	uint64_t ram_bytes;
	char kernel[160];          /* "Linux 6.1.0-27-amd64" */
};

/* Reads `proc_dir`/cpuinfo and /meminfo (normally "/proc") and uname; fields not found stay empty or 0. */
void hostid_read(const char *proc_dir, struct host_id *h);
json_t *hostid_to_json(const struct host_id *h);

/*
 * Identity and health of /dev/<dev> now: sysfs under /sys/block, then
 * `nvme id-ctrl -o json` and `smartctl -j -a` when installed (each may fail:
 * a loop device or a VM's disk has no SMART; what they report is kept).
 */
void driveid_probe(const char *dev, struct drive_id *id, struct drive_health *h);

/* The result's test-bed record of one drive: identity, health before and
 * after the run, and the change (after - before) where both have a figure. */
json_t *driveid_to_json(const struct drive_id *id, const struct drive_health *before,
			const struct drive_health *after);

#endif
