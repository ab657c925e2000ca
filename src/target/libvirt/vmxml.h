/*
 * libvirt XML for dbrig's VMs, rendered from the templates in vm-templates/
 * (no libvirt calls here: src/target/libvirt/libvirt.c is the only vir* user, and
 * the rendering is unit-tested against golden files on its own).
 *
 * Templates use a small mustache subset:
 *   {{name}}              the variable, XML-escaped
 *   {{&name}}             the variable as is (an XML fragment this file built)
 *   {{#name}}..{{/name}}  the block when the variable is non-empty
 *   {{^name}}..{{/name}}  the block when it is empty
 * An unknown variable or an unclosed block is an error: a template never
 * renders half-filled.
 *
 * Every VM has three disks, in this order on one SCSI controller: boot,
 * prebuilt (golden copy), under-test; optionally a fourth, the cloud-init
 * NoCloud seed (a CD-ROM). Each carries a fixed serial, so a guest finds its
 * disks by /dev/disk/by-id whatever the controller: dbrig-boot,
 * dbrig-prebuilt, dbrig-undertest.
 */
#ifndef DBRIG_TARGET_LIBVIRT_VMXML_H
#define DBRIG_TARGET_LIBVIRT_VMXML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct target_kv;

enum vm_controller {
	VMC_VIRTIO_SCSI,
	VMC_LSISAS1068, /* QEMU mptsas1068: LUN 0-1 only, so one target per disk */
	VMC_LSISAS1078, /* QEMU megasas */
	VMC_LSILOGIC,   /* QEMU lsi53c895a: one target per disk as well */
};

enum vm_nic {
	VMNIC_NETWORK, /* a libvirt network: the guest's own address (labs) */
	VMNIC_PASST,   /* user networking by passt, <portForward> 127.0.0.1:port -> guest port */
	VMNIC_SLIRP,   /* QEMU SLIRP with hostfwd=tcp:127.0.0.1:port-:guest port (qemu:commandline) */
};

enum vm_disk_role {
	VMD_BOOT,
	VMD_PREBUILT,
	VMD_UNDERTEST,
	VMD_SEED,
};
#define VM_DISKS 4

/* <iotune> limits; 0 = not set. Each *_sec with its *_max equal (libvirt
 * refuses a rate above its burst maximum). */
struct vm_iotune {
	uint64_t total_bytes_sec, read_bytes_sec, write_bytes_sec;
	uint64_t total_iops_sec, read_iops_sec, write_iops_sec;
};

struct vm_spec {
	const char *name;       /* domain name */
	const char *campaign;   /* for <metadata> */
	const char *drive;
	const char *instance;
	const char *id;         /* the campaign's identity (32 hex digits) for <metadata>, or NULL */
	const char *golden;     /* drive's golden fingerprint kept in vm1's metadata, or NULL */
	const char *domain_type; /* kvm or qemu */
	unsigned vcpus;
	uint64_t memory_kib;
	enum vm_controller controller;
	const char *pool;                 /* every disk is a volume of this pool */
	const char *vol[VM_DISKS];        /* NULL seed = no seed disk */
	const char *vol_format[VM_DISKS]; /* raw, qcow2 */
	const char *cache;                /* driver cache mode, e.g. none */
	const struct vm_iotune *iotune;   /* on the under-test disk, or NULL */
	enum vm_nic nic;
	const char *network;              /* VMNIC_NETWORK */
	char mac[18];                     /* from vm_mac() */
	unsigned fwd_port, guest_port;    /* VMNIC_PASST / VMNIC_SLIRP */
	const char *kernel, *initrd, *cmdline; /* direct kernel boot when kernel is set */
};

/* The XML namespace of dbrig's <metadata> element and its prefix. */
#define VM_METADATA_NS "https://dbrig.dev/xmlns/libvirt/vm/1"
#define VM_METADATA_KEY "dbrig"

const char *vm_controller_name(enum vm_controller c);
int vm_controller_parse(const char *s, enum vm_controller *out) __attribute__((warn_unused_result));
const char *vm_disk_role_name(enum vm_disk_role r);
/* "52:54:00:hh:ii:ii": hh from the campaign name, ii the instance's campaign index. */
void vm_mac(const char *campaign, unsigned index, char out[18]);
/* "total_iops_sec=100,write_bytes_sec=8M": 0 or -EINVAL with *why set. */
int vm_iotune_parse(const char *s, struct vm_iotune *out, const char **why) __attribute__((warn_unused_result));

/* Render template text with name/value pairs; what names the template in errors. */
struct vm_var {
	const char *name;
	const char *value; /* NULL = empty */
};
int vm_template_render(const char *what, const char *tmpl, const struct vm_var *vars, size_t nvars,
		       struct strbuf *out) __attribute__((warn_unused_result));

/* Read <dir>/<file> and render. Errors are printed (log_error). */
int vm_render_domain(const char *dir, const char *template_name, const struct vm_spec *s, struct strbuf *out)
	__attribute__((warn_unused_result));
/* Only the <dbrig:vm> element, for virDomainSetMetadata. */
void vm_render_metadata(const struct vm_spec *s, struct strbuf *out);
int vm_render_pool(const char *dir, const char *name, const char *path, struct strbuf *out)
	__attribute__((warn_unused_result));
/* backing: qcow2 overlay's base image path, or NULL. allocation: the bytes libvirt
 * allocates at creation: capacity preallocates the whole volume (raw: fallocate;
 * qcow2: preallocation), 0 leaves it sparse. */
int vm_render_volume(const char *dir, const char *name, uint64_t capacity, uint64_t allocation, const char *format,
		     const char *backing, const char *backing_format, struct strbuf *out)
	__attribute__((warn_unused_result));



/*
 * The cloud-init NoCloud seed of one VM: the user-data and meta-data, built as
 * JSON documents (jansson; JSON is YAML to cloud-init), so no value can add a
 * field. The user-data writes (vm-templates/README.md lists it all):
 *   /usr/local/sbin/dbrig-setup.sh  <template>-setup.sh as it is (0600): no
 *                                   value is ever pasted into its code
 *   /usr/local/lib/dbrig/setup-common.sh  setup-common.sh as it is, which the
 *                                   script sources: reads and checks setup.conf
 *   /etc/dbrig/setup.conf           its parameters, name=value lines (0600)
 *   /etc/dbrig/server.cnf           sysbench: the [mysqld] options (0644)
 *   /etc/systemd/system/dbrig-setup.service
 * Every value must already be valid for its grammar (libvirt_validate checks
 * the campaign file): db_user and db_name [A-Za-z0-9_]+, db_password [A-Za-z0-9._+=@%:,~-]+,
 * db_client [0-9./]+, mac [0-9a-f:]+, option keys [a-z0-9_.-]+ and values
 * vm_option_value_ok(); vm_render_seed
 * refuses anything else (-EINVAL) rather than write it.
 */
struct vm_seed {
	const char *name;       /* domain name: the instance-id */
	const char *hostname;
	const char *packages;   /* space-separated Debian packages for user-data; NULL: none (preinstalled) */
	/* With packages: the vendor apt sources (deb lines with $KEY_FILE, NULL-terminated) and the
	 * ASCII-armored key that signs them, and debconf answers; NULL: the image's sources only. */
	const char *const *apt_sources;
	const char *apt_key;
	const char *debconf;
	const char *ssh_key;    /* or NULL */
	const char *db_user, *db_password;
	const char *db_name;   /* the workload's database: the setup creates it and grants it to db_user */
	const char *db_client; /* a.b.c.d or a.b.c.d/m.m.m.m; NULL: the guest's default gateway */
	const char *mac;       /* of the NIC dbrig gives the VM: the server listens on its address */
	unsigned db_port;
	uint64_t buffer_pool;
	const struct target_kv *options; /* engine.server_options */
	size_t noptions;
	/* SQL Server: the database's data and log files' sizes (bytes, 0: the server's default) and
	 * its recovery model (SIMPLE, FULL, BULK_LOGGED; NULL: left as the server makes it). */
	uint64_t data_size, log_size;
	const char *recovery;
};

/* db_password in what --dry-run prints (the guest's setup refuses it). */
#define VM_MASKED_PASSWORD "********"

/* A server option value dbrig writes into a my.cnf (quoted): printable ASCII except " ' ` \ $. */
bool vm_option_value_ok(const char *s);
int vm_render_seed(const char *dir, const char *template_name, const struct vm_seed *s, struct strbuf *user_data,
		   struct strbuf *meta_data) __attribute__((warn_unused_result));
#endif
