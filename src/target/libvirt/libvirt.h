/*
 * What the libvirt target's files share (only src/target/libvirt/ includes
 * this).
 *
 *   libvirt.c   the ops: hosts, create, destroy and rollback, restore,
 *               golden copy, status
 *   storage.c   pools and volumes (creation, seed upload, clones, removal)
 *   domain.c    domains (ownership, definition, stop/start, readiness,
 *               endpoint)
 * vir* calls happen in these three files only.
 *   validate.c  the options table and libvirt_validate (no libvirt calls)
 *   seed.c      the cloud-init seed's variables (engine packages, server
 *               options, the driver's user)
 *   vmxml.c     domain, pool, volume and seed rendering from vm-templates/
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

struct target_env;
struct strbuf;

struct lv_host {
	const char *name, *uri;
	virConnectPtr conn;
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
};

struct lv {
	struct lv_host *hosts;
	size_t nhosts;
	struct lv_drive *drives;
	bool dry_run, connected;
	const char *tmpl_dir, *template;
	enum vm_controller controller;
	enum vm_nic nic;
	struct target_instance *insts; /* from preflight */
	size_t ninsts;
};

/* validate.c */
extern const struct target_option libvirt_options[];
/* The setting `name` of the config's target: its string (NULL when unset), or its number. */
const char *lv_setting_str(const struct target_env *env, const char *name);
uint64_t lv_setting_num(const struct target_env *env, const char *name);
int libvirt_validate(const struct target_env *env) __attribute__((warn_unused_result));

/* libvirt.c: the instance's names (domain, volumes) and forward port, made on first use. */
struct lv_inst *lv_inst_priv(struct target *t, struct target_instance *inst);

/* libvirt.c */
void lv_vir_fail(const char *what, const char *call); /* "<what>: <call>: <libvirt's last error>" */
void lv_what(const struct target *t, const struct target_instance *inst, char *buf, size_t n); /* "drive/vmN" */
virConnectPtr lv_conn(struct target *t, size_t drive);
void lv_dry_print(const char *host, const char *action, const char *name, const char *xml);

/* storage.c */
virStorageVolPtr lv_lookup_vol(struct target *t, size_t drive, const char *name, int *err);
int lv_resolve_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
int lv_ensure_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
uint64_t lv_vol_size(const struct target_env *env, int role);
int lv_create_volume(struct target *t, struct target_instance *inst, virStoragePoolPtr pool, int role)
	__attribute__((warn_unused_result));
int lv_delete_vol(struct target *t, size_t drive, const char *name, const char *what) __attribute__((warn_unused_result));
int lv_remove_pool(struct target *t, size_t d) __attribute__((warn_unused_result));
/* dst <- clone of src (both in the drive's pool); dst is removed first. */
int lv_clone_vol(struct target *t, struct target_instance *inst, int dst_role, const char *src_name)
	__attribute__((warn_unused_result));

/* domain.c */
/* 1 ours (campaign, drive, instance match; *golden its fingerprint when asked), 0 not ours, <0 error. */
int lv_owned(virDomainPtr dom, const struct target *t, const struct target_instance *inst, char **golden);
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

/* seed.c: user-data, meta-data and dbrig-setup.sh of inst (mask: the password as ********). */
int lv_render_seed(struct target *t, struct target_instance *inst, bool mask, struct strbuf *ud, struct strbuf *md,
		   struct strbuf *sh) __attribute__((warn_unused_result));

#endif
