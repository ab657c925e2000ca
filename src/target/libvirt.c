/*
 * The libvirt target: VMs on KVM hosts, one storage pool per drive.
 *
 * This file holds its settings and their validation so the shipped
 * full-scale configs load, plan and document themselves today; provisioning
 * through the libvirt API is issue 6 and replaces the ops below, which refuse
 * to run rather than pretend. It will be the only file that calls vir*.
 */
#include "target/target.h"

#include "campaign/config.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct target_option libvirt_options[] = {
	{"hosts", TOPT_STRMAP, "{\"default\": \"qemu:///system\"}", 0, 0,
	 "hypervisor hosts by name: libvirt URIs (qemu:///system, qemu+ssh://host/system, test:///default); "
	 "a drive's \"host\" picks one, the first is the default"},
	{"network", TOPT_STRING, "default", 0, 0, "libvirt network of the VMs' NIC (endpoint \"guest\")"},
	{"endpoint", TOPT_STRING, "guest", 0, 0,
	 "how drivers reach a VM's database: \"guest\" (the VM's address on its network) or \"forward\" "
	 "(a port forwarded to 127.0.0.1 by QEMU user networking)"},
	{"forward_base_port", TOPT_UINT, "33400", 1024, 65000, "first host port with endpoint \"forward\" (one per VM)"},
	{"template", TOPT_STRING, "sysbench", 0, 0, "domain template in vm-templates/: sysbench or sqlserver"},
	{"base_image", TOPT_STRING, NULL, 0, 0, "boot disk base image (qcow2) the boot volumes are made from"},
	{"boot_size", TOPT_SIZE, "92G", 0, 0, "boot volume size"},
	{"prebuilt_size", TOPT_SIZE, "447G", 0, 0, "pre-built (golden copy) volume size"},
	{"under_test_size", TOPT_SIZE, "270G", 0, 0, "under-test volume size"},
	{"disk_format", TOPT_STRING, "raw", 0, 0, "volume format of pre-built and under-test: raw or qcow2"},
	{"vcpus", TOPT_UINT, "8", 1, 1024, "vCPUs per VM"},
	{"memory", TOPT_SIZE, "60G", 0, 0, "memory per VM"},
	{"controller", TOPT_STRING, "virtio-scsi", 0, 0,
	 "disk controller: virtio-scsi, lsisas1068 (the published \"LSI Logic SAS\"), lsisas1078 or lsilogic"},
	{"create_pools", TOPT_BOOL, "false", 0, 0, "create a dir pool on a drive's path when none exists"},
	{"ready_timeout", TOPT_DURATION, "10m", 0, 0, "how long a VM may take to boot and accept database connections"},
	{NULL, TOPT_STRING, NULL, 0, 0, NULL},
};

static bool one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

static int libvirt_validate(const struct campaign_config *cfg)
{
	static const char *const endpoints[] = {"guest", "forward", NULL};
	static const char *const templates[] = {"sysbench", "sqlserver", NULL};
	static const char *const formats[] = {"raw", "qcow2", NULL};
	static const char *const controllers[] = {"virtio-scsi", "lsisas1068", "lsisas1078", "lsilogic", NULL};
	const struct target_setting *hosts = target_setting(cfg, "hosts");
	const char *s;

	s = target_setting(cfg, "endpoint")->str;
	if (!one_of(s, endpoints)) {
		campaign_config_error(cfg, ".target.endpoint", "\"%s\" is not an endpoint style (expected guest or forward)", s);
		return -EINVAL;
	}
	s = target_setting(cfg, "template")->str;
	if (!one_of(s, templates)) {
		campaign_config_error(cfg, ".target.template", "\"%s\" is not a VM template (expected sysbench or sqlserver)", s);
		return -EINVAL;
	}
	s = target_setting(cfg, "disk_format")->str;
	if (!one_of(s, formats)) {
		campaign_config_error(cfg, ".target.disk_format", "\"%s\" is not a volume format (expected raw or qcow2)", s);
		return -EINVAL;
	}
	s = target_setting(cfg, "controller")->str;
	if (!one_of(s, controllers)) {
		campaign_config_error(cfg, ".target.controller",
				      "\"%s\" is not a disk controller (expected virtio-scsi, lsisas1068, lsisas1078 or lsilogic)", s);
		return -EINVAL;
	}
	for (size_t d = 0; d < cfg->ndrives; d++) {
		bool found = !cfg->drives[d].host;
		char jp[64];

		for (size_t h = 0; h < hosts->nmap && !found; h++)
			found = !strcmp(hosts->map[h].key, cfg->drives[d].host);
		if (!found) {
			struct strbuf sb;
			strbuf_init(&sb, 0);
			for (size_t h = 0; h < hosts->nmap; h++)
				strbuf_addf(&sb, "%s%s", h ? ", " : "", hosts->map[h].key);
			snprintf(jp, sizeof(jp), ".drives[%zu].host", d);
			campaign_config_error(cfg, jp, "\"%s\" is not a host of .target.hosts (expected one of: %s)",
					      cfg->drives[d].host, sb.buf);
			strbuf_release(&sb);
			return -EINVAL;
		}
	}
	return 0;
}

static int not_yet(void)
{
	log_error("the libvirt target cannot provision VMs yet (issue 6); run this campaign's plan with --plan, "
		  "or use \"target\": {\"kind\": \"local\"}");
	return -ENOTSUP;
}

static int libvirt_init(struct target *t)
{
	t->priv = NULL;
	return 0;
}

static int libvirt_preflight(struct target *t, struct target_instance *insts, size_t n)
{
	(void)t;
	(void)insts;
	(void)n;
	return not_yet();
}

static int libvirt_inst(struct target *t, struct target_instance *inst)
{
	(void)t;
	(void)inst;
	return not_yet();
}

static int libvirt_golden(struct target *t, size_t drive, struct strbuf *fp)
{
	(void)t;
	(void)drive;
	(void)fp;
	return not_yet();
}

static int libvirt_endpoint(struct target *t, struct target_instance *inst, struct target_endpoint *ep)
{
	(void)t;
	(void)inst;
	(void)ep;
	return not_yet();
}

static int libvirt_verify(struct target *t, struct target_instance *inst, struct strbuf *fp)
{
	(void)t;
	(void)inst;
	(void)fp;
	return -ENOTSUP;
}

static int libvirt_stop(struct target *t, struct target_instance *inst)
{
	(void)t;
	(void)inst;
	return 0;
}

static void libvirt_release(struct target *t, struct target_instance *inst)
{
	(void)t;
	inst->priv = NULL;
}

static void libvirt_cleanup(struct target *t)
{
	t->priv = NULL;
}

const struct target_ops target_libvirt_ops = {
	.name = "libvirt",
	.summary = "VMs through libvirt (qemu:///system, qemu+ssh://host/system), one storage pool per drive",
	.options = libvirt_options,
	.init = libvirt_init,
	.validate = libvirt_validate,
	.preflight = libvirt_preflight,
	.create = libvirt_inst,
	.build_golden = libvirt_golden,
	.restore = libvirt_inst,
	.start = libvirt_inst,
	.endpoint = libvirt_endpoint,
	.verify = libvirt_verify,
	.stop = libvirt_stop,
	.destroy = libvirt_stop,
	.release = libvirt_release,
	.cleanup = libvirt_cleanup,
};
