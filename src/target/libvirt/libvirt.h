/*
 * What the libvirt target's files share (only src/target/libvirt/ includes
 * this).
 *
 *   libvirt.c   the ops: hosts, create, destroy and rollback, restore,
 *               status
 *   golden.c    the golden copy: build_golden, clone_golden, verify
 *   storage.c   pools and volumes (creation, seed upload, clones, removal)
 *   domain.c    domains (ownership: metadata with the campaign's identity;
 *               volumes as their disks; definition, stop/start, readiness,
 *               endpoint)
 *   sizing.c    --plan's sizing and preflight's refusals (paths, /dev/kvm, free
 *               space, shared block devices), and whether another machine's
 *               guest network is reachable from here
 *   stream.c    a volume copied between hosts (download and upload streams)
 *   telemetry.c what the sampler reads: VM disks and vCPUs, hosts' node stats
 *   seed.c      the cloud-init seed's variables (engine packages, server
 *               options, the driver's user, client address and password,
 *               generated per campaign)
 * vir* calls happen in these eight files only.
 *   identity.c  the campaign's own files beside its results folder; its
 *               identity file
 *   validate.c  the options table and libvirt_validate (no libvirt calls):
 *               the grammars of everything that reaches a guest or a URI
 *   vmxml.c     domain, pool and volume rendering from vm-templates/, and
 *               the seed's user-data and meta-data as JSON
 */
#ifndef DBRIG_TARGET_LIBVIRT_LIBVIRT_H
#define DBRIG_TARGET_LIBVIRT_LIBVIRT_H

#include "target/libvirt/vmxml.h"
#include "target/target.h"

#include <libvirt/libvirt.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct target_env;
struct strbuf;

struct lv_host {
	const char *name, *uri;
	virConnectPtr conn;
	unsigned ncpus; /* virNodeGetInfo's, once the sampler asked (0: not yet or not known) */
};

struct lv_drive {
	struct lv_host *host;
	char *pool;        /* resolved or to be created */
	bool pool_ours;    /* named dbrig-<campaign>-<drive>: dbrig creates and removes it */
	bool pool_exists;
	bool pool_created; /* by this process */
	bool has_iotune;
	struct vm_iotune iotune;
	unsigned destroyed; /* instances destroyed, to drop the pool with the last */
};

struct lv_inst {
	char *dom;
	char *vol[VM_DISKS];
	bool dom_created, vol_created[VM_DISKS]; /* by this process */
	unsigned fwd_port;
	char addr[INET6_ADDRSTRLEN];
	const char *why; /* why the domain with this name is not this campaign's (lv_lookup_dom) */
	char odbc_options[80]; /* SQL Server: Encrypt= / TrustServerCertificate= as configured, or "" */
	virDomainPtr tel_dom;  /* the domain the sampler reads (telemetry op), or NULL */
};

/*
 * One counter of virDomainBlockStatsFlags' answer. The QEMU driver hands them
 * out as signed long longs (VIR_TYPED_PARAM_LLONG), other drivers may use
 * unsigned ones, and virTypedParamsGetULLong refuses a parameter of the other
 * type (the VM disk's telemetry read 0 on QEMU because of it): either type is
 * read; a missing or negative (unsupported) counter is 0.
 */
uint64_t lv_block_stat(virTypedParameterPtr params, int n, const char *name);
/* telemetry.c: the target's telemetry, guest_read and host_read ops */
int libvirt_telemetry(struct target *t, struct target_instance *inst, struct target_telemetry *out);
int libvirt_guest_read(struct target *t, struct target_instance *const *insts, size_t n, struct sysstat_guest *out);
int libvirt_host_read(struct target *t, size_t host, struct sysstat_node *out);

struct lv {
	struct lv_host *hosts;
	size_t nhosts;
	struct lv_drive *drives;
	bool dry_run, connected;
	const char *tmpl_dir, *template;
	char *tmpl_owned; /* tmpl_dir when it is the data folder's vm-templates/ (no "templates" setting) */
	enum vm_controller controller;
	enum vm_nic nic;
	struct target_instance *insts; /* from preflight */
	size_t ninsts;
	char *password; /* db_password, or the campaign's generated one once loaded */
	char *id;       /* the campaign's identity (LV_IDENTITY), or NULL before its first provision */
	bool id_created, pw_created; /* this process wrote LV_IDENTITY / LV_CREDENTIALS (a rollback removes them) */
};

/* In <output>/.<campaign>.libvirt/, beside the results folder (lv_campaign_file): the drivers'
 * generated password (0600), and the campaign's identity, which every domain it provisions carries
 * in its metadata. */
#define LV_CREDENTIALS ".libvirt-credentials"
#define LV_IDENTITY ".libvirt-identity"

/* seed.c: the name of a domain of one of the campaign's instances that exists, or NULL. */
const char *lv_any_domain(struct target *t);

/* validate.c */
extern const struct target_option libvirt_options[];
/* The setting `name` of the config's target: its string (NULL when unset), or its number. */
const char *lv_setting_str(const struct target_env *env, const char *name);
uint64_t lv_setting_num(const struct target_env *env, const char *name);
/* The guest's database port: .target.db_port, else the engine's default (db/engine.h). */
unsigned lv_db_port(const struct target_env *env);
int libvirt_validate(const struct target_env *env) __attribute__((warn_unused_result));
/* Letters, digits and ._+-=@%:,~ only (db_password's grammar). */
bool lv_safe_word(const char *s);
/* db_client as the guest's SQL wants it ("a.b.c.d" or "a.b.c.d/m.m.m.m" into out, which may be NULL): 0 or -EINVAL. */
int lv_client_host(const char *s, char *out, size_t n) __attribute__((warn_unused_result));
/* Does a libvirt URI name this machine (no host, localhost, 127.x, [::1])? */
bool lv_uri_is_this_machine(const char *uri);

/* libvirt.c: the instance's names (domain, volumes) and forward port, made on first use. */
struct lv_inst *lv_inst_priv(struct target *t, struct target_instance *inst);

/* identity.c: <output>/.<campaign>.libvirt/<name>, the campaign's own files beside its results folder; writing one
 * (mode `mode`, its folder made first); the campaign's identity (lv->id; create: generate and store
 * it at the first provision; absent and not created: NULL). 0 or -errno (printed by lv_campaign_id). */
void lv_campaign_file(const struct target_env *env, const char *name, struct strbuf *sb);
/* ... its first line in *out (path: the file's path; read from <output>/<campaign>/<name>, where earlier
 * versions kept it, when it is not there): 0, -ENOENT or another -errno. */
int lv_read_campaign_file(const struct target_env *env, const char *name, struct strbuf *path, char **out)
	__attribute__((warn_unused_result));
int lv_store_campaign_file(const char *path, const char *text, mode_t mode) __attribute__((warn_unused_result));
int lv_campaign_id(struct target *t, bool create) __attribute__((warn_unused_result));

/* libvirt.c */
void lv_vir_fail(const char *what, const char *call); /* "<what>: <call>: <libvirt's last error>" */
void lv_what(const struct target *t, const struct target_instance *inst, char *buf, size_t n); /* "drive/vmN" */
virConnectPtr lv_conn(struct target *t, size_t drive);
void lv_dry_print(const char *host, const char *action, const char *name, const char *xml);

/* golden.c: the ops build_golden, clone_golden and verify (libvirt.c's ops table names them). */
int libvirt_golden(struct target *t, size_t drive, struct strbuf *fp);
int libvirt_verify(struct target *t, struct target_instance *inst, struct strbuf *fp);
int libvirt_clone_golden(struct target *t, size_t from, size_t to, const char *expect, struct strbuf *fp,
			 const char **how);

/* storage.c */
virStorageVolPtr lv_lookup_vol(struct target *t, size_t drive, const char *name, int *err);
/* The pool of the host whose target path is `path` (free with virStoragePoolFree), or NULL. */
virStoragePoolPtr lv_pool_on_path(virConnectPtr conn, const char *path);
int lv_resolve_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
int lv_ensure_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
uint64_t lv_vol_size(const struct target_env *env, int role);
uint64_t lv_vol_allocation(const struct target_env *env, int role);
/* sizing.c */
bool lv_uri_local(const char *uri);
uint64_t lv_vm_capacity(const struct target_env *env);
void libvirt_plan(const struct target_env *env, FILE *out);
void libvirt_storage(const struct target_env *env, struct strbuf *out);
/* Before connecting: base_image, kernel, initrd, /dev/kvm, shared block devices; after the
 * pools are resolved: free space. 0, or -errno with one line printed. */
int lv_preflight_paths(struct target *t) __attribute__((warn_unused_result));
int lv_preflight_space(struct target *t) __attribute__((warn_unused_result));
/* Two drives of one host in one storage pool (after lv_resolve_pool): one line, -EINVAL, or with
 * "allow_shared_device": true a warning each. */
int lv_preflight_pools(struct target *t) __attribute__((warn_unused_result));
/* Endpoint "guest" on another machine: whether its network's guests are out of this machine's
 * reach (true, with one clause in why); the warning line for host h (--plan and preflight). */
bool lv_net_unreachable(const char *xml, const char *routes, struct strbuf *why);
void lv_warn_guest_reach(const struct target_env *env, size_t h, virConnectPtr conn);
int lv_create_volume(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, int role)
	__attribute__((warn_unused_result));
int lv_delete_vol(struct target *t, size_t drive, const char *name, const char *what) __attribute__((warn_unused_result));
int lv_remove_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
/* dst <- clone of src (in drive src_drive's pool, on the same host); dst, a disk of this campaign's domain, is removed first. */
int lv_clone_vol(struct target *t, struct target_instance *inst, int dst_role, size_t src_drive, const char *src_name)
	__attribute__((warn_unused_result));
/* The same from a drive on another host, through lv_stream_vol; a broken stream leaves no dst. */
int lv_stream_into(struct target *t, struct target_instance *inst, int dst_role, size_t src_drive, const char *src_name)
	__attribute__((warn_unused_result));

/* stream.c */
/* How often a stream between hosts logs its progress. */
#define LV_STREAM_PROGRESS_NS (5 * 1000000000ull)
/*
 * dst's bytes <- src's, volumes of two connections (hosts): a download stream
 * of src relayed a chunk at a time into an upload stream of dst, with a
 * progress line ("<what>: streamed X of Y MiB (P%), R MB/s, S s left") every
 * progress_ns (0: none) and one at the end; total (bytes) is for the progress
 * only. 0, or -EIO with one line naming `what`: both streams are then
 * aborted and dst holds part of the data. *copied: the bytes relayed.
 */
int lv_stream_vol(virStorageVolPtr src, virStorageVolPtr dst, uint64_t total, uint64_t progress_ns, const char *what,
		  uint64_t *copied) __attribute__((warn_unused_result));
/* One progress line of lv_stream_vol into out. */
void lv_stream_progress(const char *what, uint64_t done, uint64_t total, double seconds, struct strbuf *out);

/* domain.c */
/* 1 ours (campaign, drive, instance and the campaign's identity match; *golden its fingerprint when
 * asked), 0 not ours (*why says why), <0 error. */
int lv_owned(virDomainPtr dom, const struct target *t, const struct target_instance *inst, char **golden,
	     const char **why);
/* The text of the dbrig metadata's element `name` (entities decoded), or NULL. */
char *lv_dom_meta(virDomainPtr dom, const char *name);
/* 1 when the volume is one of dom's disks, 0 not, -EIO. */
int lv_dom_uses_vol(virDomainPtr dom, const char *pool, const char *vol);
/* 0 when inst's domain is this campaign's and its volume of `role` one of the domain's disks; else printed. */
int lv_own_vol(struct target *t, struct target_instance *inst, int role) __attribute__((warn_unused_result));
int lv_lookup_dom(struct target *t, struct target_instance *inst, virDomainPtr *out, bool *foreign)
	__attribute__((warn_unused_result));
int lv_get_dom(struct target *t, struct target_instance *inst, virDomainPtr *out) __attribute__((warn_unused_result));
void lv_fill_spec(struct target *t, struct target_instance *inst, const char *golden, struct vm_spec *s);
int lv_undefine(virDomainPtr dom, const char *what) __attribute__((warn_unused_result));
int lv_dom_state(virDomainPtr dom);
int lv_probe(struct target *t, struct target_instance *inst, virDomainPtr dom, bool check_db, struct strbuf *why);
int libvirt_stop(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
int libvirt_start(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
int libvirt_endpoint(struct target *t, struct target_instance *inst, struct target_endpoint *ep)
	__attribute__((warn_unused_result));

/* seed.c: the drivers' password, *out owned by the target; create: generate and store it when there is
 * none yet. 0, -ENOENT (none, not created) or another -errno, printed. */
int lv_db_password(struct target *t, bool create, const char **out) __attribute__((warn_unused_result));
/* seed.c: user-data and meta-data of inst (mask: the password as ********). */
int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud, struct strbuf *md)
	__attribute__((warn_unused_result));

#endif
