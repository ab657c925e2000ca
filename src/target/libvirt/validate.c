/* The libvirt target's settings and their static checks (no libvirt calls: they run for --plan too). */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const struct target_option libvirt_options[] = {
	{"hosts", TOPT_STRMAP, "{\"default\": \"qemu:///system\"}", 0, 0,
	 "hypervisor hosts by name: libvirt URIs (qemu:///system, qemu+ssh://host/system, test:///default); "
	 "a drive's \"host\" picks one, the first is the default"},
	{"network", TOPT_STRING, "default", 0, 0, "libvirt network of the VMs' NIC (endpoint \"guest\")"},
	{"endpoint", TOPT_STRING, "guest", 0, 0,
	 "how drivers reach a VM's database: \"guest\" (the VM's address on its network) or \"forward\" "
	 "(a port forwarded to 127.0.0.1 by QEMU user networking)"},
	{"forward_base_port", TOPT_UINT, "33400", 1024, 65000, "first host port with endpoint \"forward\" (one per VM)"},
	{"forward_backend", TOPT_STRING, "slirp", 0, 0,
	 "user networking with endpoint \"forward\": slirp (QEMU hostfwd via <qemu:commandline>) or passt (<portForward>, libvirt 9.2 or later)"},
	{"template", TOPT_STRING, "sysbench", 0, 0, "domain template in vm-templates/: sysbench or sqlserver"},
	{"templates", TOPT_STRING, DBRIG_SOURCE_DIR "/vm-templates", 0, 0,
	 "folder of the domain, pool, volume and cloud-init templates"},
	{"base_image", TOPT_STRING, NULL, 0, 0, "boot disk base image (qcow2) the boot volumes are made from"},
	{"boot_mode", TOPT_STRING, "overlay", 0, 0,
	 "boot volume from base_image: overlay (qcow2 backed by it) or copy (a full clone; base_image must be a volume)"},
	{"boot_size", TOPT_SIZE, "92G", 0, 0, "boot volume size"},
	{"prebuilt_size", TOPT_SIZE, "447G", 0, 0, "pre-built (golden copy) volume size"},
	{"under_test_size", TOPT_SIZE, "270G", 0, 0, "under-test volume size"},
	{"disk_format", TOPT_STRING, "raw", 0, 0, "volume format of pre-built and under-test: raw or qcow2"},
	{"disk_cache", TOPT_STRING, "none", 0, 0,
	 "QEMU cache mode of the disks: none (O_DIRECT, the drive is measured, not host RAM), directsync or writeback"},
	{"vcpus", TOPT_UINT, "8", 1, 1024, "vCPUs per VM"},
	{"memory", TOPT_SIZE, "60G", 0, 0, "memory per VM"},
	{"controller", TOPT_STRING, "virtio-scsi", 0, 0,
	 "disk controller: virtio-scsi, lsisas1068 (the published \"LSI Logic SAS\"), lsisas1078 or lsilogic"},
	{"domain_type", TOPT_STRING, "kvm", 0, 0, "libvirt domain type: kvm, or qemu (TCG emulation, no /dev/kvm)"},
	{"kernel", TOPT_STRING, NULL, 0, 0, "direct kernel boot: kernel path on the host (with initrd and cmdline)"},
	{"initrd", TOPT_STRING, NULL, 0, 0, "direct kernel boot: initrd path on the host"},
	{"cmdline", TOPT_STRING, "root=LABEL=root ro console=ttyS0 net.ifnames=0", 0, 0,
	 "direct kernel boot: kernel command line"},
	{"iotune", TOPT_STRMAP, NULL, 0, 0,
	 "per drive name, <iotune> limits of its VMs' under-test disks, e.g. \"total_iops_sec=200,write_bytes_sec=16M\""},
	{"create_pools", TOPT_BOOL, "false", 0, 0, "create a dir pool on a drive's path when none exists"},
	{"cloud_init", TOPT_BOOL, "true", 0, 0, "attach a cloud-init NoCloud seed ISO (cidata) to every VM"},
	{"ssh_key", TOPT_STRING, NULL, 0, 0, "SSH public key cloud-init installs for the guest's default user"},
	{"guest_packages", TOPT_STRING, "install", 0, 0,
	 "what cloud-init does about the engine and guest agent packages: install (apt update and install them) "
	 "or preinstalled (the base image has them: no package step, no mirror needed)"},
	{"db_user", TOPT_STRING, "dbrig", 0, 0, "database user the guest setup creates for the driver"},
	{"db_password", TOPT_STRING, "dbrig", 0, 0, "its password (letters, digits and ._+-=@%:,~ only)"},
	{"db_port", TOPT_UINT, "3306", 1, 65535, "database port in the guest"},
	{"wait_database", TOPT_BOOL, "true", 0, 0,
	 "readiness includes the database accepting a TCP connection (false: the VM's address only)"},
	{"ready_timeout", TOPT_DURATION, "10m", 0, 0, "how long a VM may take to boot and accept database connections"},
	{"stop_timeout", TOPT_DURATION, "3m", 0, 0, "how long a clean shutdown may take before the VM is powered off"},
	{NULL, TOPT_STRING, NULL, 0, 0, NULL},
};

const char *lv_setting_str(const struct target_env *env, const char *name)
{
	const struct target_setting *s = target_setting(env, name);

	return s->set ? s->str : NULL;
}

uint64_t lv_setting_num(const struct target_env *env, const char *name)
{
	return target_setting(env, name)->num;
}

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* "\"ide\" is not a disk controller (expected virtio-scsi, lsisas1068, lsisas1078 or lsilogic)" */
static int check_choice(const struct target_env *env, const char *name, const char *noun,
			const char *const *list)
{
	const char *s = lv_setting_str(env, name);
	struct strbuf sb, jp;

	if (one_of(s, list))
		return 0;
	strbuf_init(&sb, 0);
	strbuf_init(&jp, 0);
	for (const char *const *l = list; *l; l++)
		strbuf_addf(&sb, "%s%s", l == list ? "" : l[1] ? ", " : " or ", *l);
	strbuf_addf(&jp, ".target.%s", name);
	target_env_error(env, jp.buf, "\"%s\" is not %s (expected %s)", s, noun, sb.buf);
	strbuf_release(&sb);
	strbuf_release(&jp);
	return -EINVAL;
}

static bool safe_word(const char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-=@%:,~", *s))
			return false;
	return true;
}

int libvirt_validate(const struct target_env *env)
{
	static const char *const endpoints[] = {"guest", "forward", NULL};
	static const char *const backends[] = {"passt", "slirp", NULL};
	static const char *const templates[] = {"sysbench", "sqlserver", NULL};
	static const char *const formats[] = {"raw", "qcow2", NULL};
	static const char *const controllers[] = {"virtio-scsi", "lsisas1068", "lsisas1078", "lsilogic", NULL};
	static const char *const boot_modes[] = {"overlay", "copy", NULL};
	static const char *const caches[] = {"none", "directsync", "writeback", "writethrough", NULL};
	static const char *const types[] = {"kvm", "qemu", NULL};
	static const char *const package_modes[] = {"install", "preinstalled", NULL};
	const struct target_setting *hosts = target_setting(env, "hosts");
	const struct target_setting *iot = target_setting(env, "iotune");
	const char *s, *why;
	char jp[160];

	if (check_choice(env, "endpoint", "an endpoint style", endpoints) < 0 ||
	    check_choice(env, "forward_backend", "a user networking backend", backends) < 0 ||
	    check_choice(env, "template", "a VM template", templates) < 0 ||
	    check_choice(env, "disk_format", "a volume format", formats) < 0 ||
	    check_choice(env, "controller", "a disk controller", controllers) < 0 ||
	    check_choice(env, "boot_mode", "a boot volume mode", boot_modes) < 0 ||
	    check_choice(env, "disk_cache", "a disk cache mode", caches) < 0 ||
	    check_choice(env, "domain_type", "a domain type", types) < 0 ||
	    check_choice(env, "guest_packages", "a guest package mode", package_modes) < 0)
		return -EINVAL;
	for (size_t h = 0; h < hosts->nmap; h++) {
		if (!strstr(hosts->map[h].value, ":/")) {
			snprintf(jp, sizeof(jp), ".target.hosts.%s", hosts->map[h].key);
			target_env_error(env, jp, "\"%s\" is not a libvirt URI (expected e.g. qemu:///system or "
					      "qemu+ssh://host/system)", hosts->map[h].value);
			return -EINVAL;
		}
	}
	s = lv_setting_str(env, "db_password");
	if (!safe_word(s) || !safe_word(lv_setting_str(env, "db_user"))) {
		target_env_error(env, safe_word(s) ? ".target.db_user" : ".target.db_password",
				      "holds a character outside letters, digits and ._+-=@%%:,~ (it goes into the guest's "
				      "setup script and SQL)");
		return -EINVAL;
	}
	if ((s = lv_setting_str(env, "ssh_key")) && strpbrk(s, "\n\r'\"")) {
		target_env_error(env, ".target.ssh_key", "holds a newline or quote (expected one public key line)");
		return -EINVAL;
	}
	if (lv_setting_str(env, "kernel") && !lv_setting_str(env, "initrd")) {
		target_env_error(env, ".target.initrd", "missing (expected an initrd path with \"kernel\")");
		return -EINVAL;
	}
	if (!strcmp(lv_setting_str(env, "boot_mode"), "copy") && !lv_setting_str(env, "base_image")) {
		target_env_error(env, ".target.base_image",
				      "missing (expected the image a \"copy\" boot volume is cloned from)");
		return -EINVAL;
	}
	for (size_t d = 0; d < env->ndrives; d++) {
		bool found = !env->drives[d].host;

		for (size_t h = 0; h < hosts->nmap && !found; h++)
			found = !strcmp(hosts->map[h].key, env->drives[d].host);
		if (!found) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			for (size_t h = 0; h < hosts->nmap; h++)
				strbuf_addf(&sb, "%s%s", h ? ", " : "", hosts->map[h].key);
			snprintf(jp, sizeof(jp), ".drives[%zu].host", d);
			target_env_error(env, jp, "\"%s\" is not a host of .target.hosts (expected one of: %s)",
					      env->drives[d].host, sb.buf);
			strbuf_release(&sb);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < iot->nmap; i++) {
		bool found = false;
		struct vm_iotune t;

		for (size_t d = 0; d < env->ndrives; d++)
			found = found || !strcmp(env->drives[d].name, iot->map[i].key);
		snprintf(jp, sizeof(jp), ".target.iotune.%s", iot->map[i].key);
		if (!found) {
			target_env_error(env, jp, "\"%s\" is not a drive of .drives (expected a drive name)",
					      iot->map[i].key);
			return -EINVAL;
		}
		if (vm_iotune_parse(iot->map[i].value, &t, &why) < 0) {
			target_env_error(env, jp, "\"%s\" is not an I/O limit (%s)", iot->map[i].value, why);
			return -EINVAL;
		}
	}
	/* Known QEMU/Linux limit, not an error: Windows guests see mptsas1068 disks. */
	if (!strcmp(lv_setting_str(env, "controller"), "lsisas1068") && !strcmp(lv_setting_str(env, "template"), "sysbench"))
		log_warn("%s: .target.controller: lsisas1068 with the Linux (sysbench) template: Linux guests (6.1) do "
			 "not see disks behind QEMU's mptsas1068, so the VMs will not boot or find their database disk; "
			 "use virtio-scsi, lsisas1078 or lsilogic (see docs/libvirt.md)", env->file);
	return 0;
}
