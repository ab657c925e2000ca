/*
 * Targets: where the databases of a campaign run (fio's ioengine_ops, for
 * database hosts).
 *
 * A target turns the campaign's drives into database instances. Every
 * instance has three kinds of storage on its drive:
 *   boot       - what the instance needs to exist (a VM's system disk; for the
 *                local target its config, socket, logs and temporary files)
 *   prebuilt   - the golden copy of the loaded database: loaded once per
 *                campaign and cloned to every drive (or loaded per drive)
 *   under-test - the database the run uses, restored from prebuilt before
 *                every run so every run starts from the same bytes
 *
 * Life cycle, driven by src/campaign/ (steps.c, run.c):
 *   validate (static, from the config) -> init -> preflight (the machine:
 *   binaries, ports, writable drives; nothing is changed) -> create every
 *   instance (rollback when one fails) -> build_golden on one drive and
 *   clone_golden to the others (or build_golden on every drive) -> for
 *   every run: stop, restore, start, endpoint, verify -> ... -> stop ->
 *   destroy (unless kept) -> cleanup.
 *
 * What a target knows of the campaign is `struct target_env`: names, drives,
 * the engine and its server settings, its own settings. It owns instances,
 * endpoints, storage, start/stop and the restore of bytes; what goes into the
 * database is the campaign's: build_golden and verify call the loader
 * (`env->loader`, campaign/golden.c) over an endpoint, whatever the
 * workload.
 *
 * The core owns `struct target` and `struct target_instance`; a backend owns
 * their `priv`. Every op returns 0 or a negative errno and prints its own
 * message (log_error) naming the instance and what went wrong; -EINVAL from
 * validate or preflight means a configuration error (exit 2), anything else a
 * runtime failure (exit 1). Ops must not touch anything outside the
 * campaign's own folders, volumes or domains, and never remove what dbrig did
 * not create.
 *
 * Backend settings come from the config's "target" object; each backend
 * lists them in `options` (target/settings.c validates them by type and fills
 * defaults; configs/README.md documents them) and reads them back with
 * target_setting().
 */
#ifndef DBRIG_TARGET_TARGET_H
#define DBRIG_TARGET_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct db_engine;
struct jsonr;
struct json_t;
struct strbuf;
struct sysstat_guest;
struct sysstat_node;

enum target_opt_type {
	TOPT_STRING,   /* JSON string */
	TOPT_UINT,     /* JSON integer within [min, max] */
	TOPT_SIZE,     /* "24G" or an integer number of bytes */
	TOPT_DURATION, /* "30s" or an integer number of seconds */
	TOPT_BOOL,     /* true / false */
	TOPT_STRMAP,   /* object of strings, e.g. {"host1": "qemu+ssh://h1/system"} */
};

struct target_option {
	const char *name;
	enum target_opt_type type;
	const char *def;  /* default as text (parsed like config text), NULL = unset */
	uint64_t min, max; /* TOPT_UINT only */
	const char *help;
};

struct target_kv {
	char *key;
	char *value;
};

/* One validated setting, parallel to ops->options. */
struct target_setting {
	bool set;          /* given in the config or by default */
	char *str;         /* TOPT_STRING */
	uint64_t num;      /* TOPT_UINT, TOPT_SIZE (bytes), TOPT_DURATION (ns), TOPT_BOOL (0/1) */
	struct target_kv *map; /* TOPT_STRMAP */
	size_t nmap;
};

/* Where a driver connects. Strings are owned by the instance. */
struct target_endpoint {
	const char *host;     /* "127.0.0.1", a guest address, or NULL with socket */
	unsigned port;        /* 0 with socket only */
	const char *socket;   /* unix socket on this machine, or NULL */
	const char *user;
	const char *password; /* handed to drivers through MYSQL_PWD only; never argv, logs or files */
	const char *database;
	/*
	 * ODBC engines (postgresql, sqlserver): the driver's name in odbcinst.ini
	 * (or a path to its library), and the folder holding that odbcinst.ini,
	 * exported to drivers as ODBCSYSINI; NULL for the machine's defaults.
	 */
	const char *odbc_driver;
	const char *odbc_sysini;
	/* Further connection-string attributes the target's settings give, e.g.
	 * "Encrypt=strict;TrustServerCertificate=no" (validated values), or NULL. */
	const char *odbc_options;
};

/*
 * What the campaign's sampler (campaign/sampler.h) reads for a running
 * instance, from the optional op `telemetry`. Strings are owned by the
 * instance and stay valid until it is released.
 */
struct target_telemetry {
	const char *drive_path;  /* a folder on this machine on the instance's drive: its block devices are
				    sampled (local: the data directory; libvirt: the pool's folder when the
				    pool is on this machine); NULL: none */
	pid_t server_pid;        /* the database server's process on this machine; 0: none */
	bool guest;              /* guest_read gives the instance's VM counters */
	const char *guest_disk;  /* the VM's under-test disk ("sdc"), with guest */
	bool node;               /* host_read gives the instance's hypervisor host: */
	size_t host;             /* that host's index for host_read */
	const char *host_name;   /* its name in the config */
	bool host_here;          /* it is this machine */
};

/* A drive of the campaign. */
struct target_drive {
	char *name;
	char *path;  /* directory on the drive (local; libvirt dir pool), or NULL */
	char *pool;  /* existing storage pool (libvirt), or NULL */
	char *host;  /* libvirt host name from the target's hosts, or NULL */
	char *model; /* published model name for reports, or NULL */
};

/*
 * What goes into the database, the campaign's part (campaign/golden.c): the
 * target calls these with an endpoint of a running server whose database
 * (env->database) and driver user exist. Each returns 0 or a negative errno
 * after one message naming `what`; `log` receives the child's output.
 */
struct target_loader {
	void *arg;
	/* What a complete golden copy holds for this campaign (workload, test, scale), one line. */
	void (*identity)(void *arg, struct strbuf *out);
	/* Load the workload's tables. */
	int (*load)(void *arg, const char *what, const struct target_endpoint *ep, const char *log)
		__attribute__((warn_unused_result));
	/* The database's fingerprint, one line that a restored copy must reproduce. */
	int (*fingerprint)(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
			   struct strbuf *fp) __attribute__((warn_unused_result));
	/* The readiness probe: the driver's user logs into the database as the drivers will. 0 when
	 * it can; -EAGAIN when not (yet), `why` (appended to) saying what the driver said. */
	int (*ready)(void *arg, const char *what, const struct target_endpoint *ep, const char *log,
		     struct strbuf *why) __attribute__((warn_unused_result));
};

/* The campaign as a target sees it. Everything is borrowed from the caller. */
struct target_env {
	const char *file;                /* the campaign file, for messages */
	const char *name;                /* the campaign's name: folders, pools, domains carry it */
	const struct target_drive *drives;
	size_t ndrives;
	const unsigned *instances;       /* per drive: how many instances it holds */
	const struct db_engine *engine;  /* db/engine.h */
	uint64_t buffer_pool;            /* bytes */
	const struct target_kv *server_options; /* engine options, e.g. innodb_flush_log_at_trx_commit */
	size_t nserver_options;
	unsigned threads;                /* connections per instance */
	bool mysql_only;                 /* the workload speaks the MySQL protocol only (sysbench) */
	const char *database;            /* the workload's database: the driver user gets it */
	const char *log_dir;             /* <output>/<campaign>: where a target may keep its logs and files */
	const struct target_ops *target;
	const struct target_setting *settings; /* parallel to target->options */
	const struct target_loader *loader;    /* NULL: validate and --dry-run only */
	/* The drive whose golden copy build_golden loads and clone_golden copies to every other
	 * drive; -1: every drive's own build_golden loads it. */
	long golden_source;
	/* What one loaded data directory of the campaign holds, in bytes: the workload's rows x
	 * their size on disk, estimated (campaign/plan.h plan_data_bytes); a target sizes its
	 * drives with it. 0: not estimated. */
	uint64_t data_bytes;
	/* Non-zero once dbrig was told to stop (a campaign's SIGINT/SIGTERM/SIGHUP): a
	 * target's long waits give up then. NULL: nothing stops them early. */
	const volatile sig_atomic_t *stop;
};

struct target_instance {
	char *name;        /* "vm1": unique per drive */
	size_t drive;      /* index into env->drives */
	unsigned index;    /* 0-based, unique in the campaign (port and MAC offsets) */
	bool created;
	bool running;
	void *priv;
};

struct target {
	const struct target_ops *ops;
	const struct target_env *env;
	bool dry_run;          /* create/destroy print what they would do and change nothing */
	/* The command makes or starts instances (provision, restore, campaign): preflight also
	 * checks what they need (images, free space, devices); status and teardown skip that. */
	bool will_boot;
	void *priv;
};

/*
 * build_golden loads through env->loader and fills `fingerprint` with the
 * loader's fingerprint of the loaded copy; verify() reproduces it on a
 * freshly restored instance.
 */
struct target_ops {
	const char *name;
	const char *summary;
	const struct target_option *options; /* terminated by {NULL} */

	int (*init)(struct target *t) __attribute__((warn_unused_result));
	/* Static checks of the campaign for this backend; messages name the JSON path (target_env_error). */
	int (*validate)(const struct target_env *env) __attribute__((warn_unused_result));
	/* --plan: what the campaign needs of the machine (disk, RAM, CPUs) against what it has,
	 * lines indented under the plan's header; changes nothing. NULL: nothing to say. */
	void (*plan)(const struct target_env *env, FILE *out);
	/* The under-test storage as every result records it (run.storage), e.g. "format=raw
	 * allocation=full". NULL: the target has no such choice. */
	void (*storage)(const struct target_env *env, struct strbuf *out);
	/* The machine is able to run the campaign; changes nothing. */
	int (*preflight)(struct target *t, struct target_instance *insts, size_t n) __attribute__((warn_unused_result));
	/* Provision an instance's boot storage (idempotent: reuses what this campaign created). */
	int (*create)(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
	/* Load the golden database once for the drive: 0 when loaded; 1 when a complete copy stored with the
	 * loader's identity (what it holds) was reused; a copy of other content is loaded again. */
	int (*build_golden)(struct target *t, size_t drive, struct strbuf *fingerprint) __attribute__((warn_unused_result));
	/*
	 * Drive `to`'s golden copy <- drive `from`'s, complete (build_golden, whose
	 * fingerprint is `expect`) and not in use. `fingerprint` gets the copy's
	 * own fingerprint through the loader, and the copy is marked complete only
	 * when it equals `expect` (the caller names the drive when it does not);
	 * `how` says in a word how the bytes went ("reflink", "copy", "volume
	 * clone"). A copy already complete with `expect` is kept ("already
	 * complete"). Every backend has it ("golden": "once" is the default);
	 * one that cannot clone between two drives fails with one line naming why.
	 */
	int (*clone_golden)(struct target *t, size_t from, size_t to, const char *expect, struct strbuf *fingerprint,
			    const char **how) __attribute__((warn_unused_result));
	/* under-test <- prebuilt; the instance is stopped. */
	int (*restore)(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
	/* Start the database and wait until it accepts connections. */
	int (*start)(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
	int (*endpoint)(struct target *t, struct target_instance *inst, struct target_endpoint *ep) __attribute__((warn_unused_result));
	/* Same text as build_golden's fingerprint for the running instance; -ENOTSUP if the backend cannot tell. */
	int (*verify)(struct target *t, struct target_instance *inst, struct strbuf *fingerprint) __attribute__((warn_unused_result));
	/* Clean shutdown; a stopped instance is fine. */
	int (*stop)(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
	/* Remove what create made (and the golden copy with the last instance of a drive): TARGET_REMOVED,
	 * TARGET_ABSENT (nothing of this campaign was there), TARGET_KEPT (something with the instance's
	 * names was left alone, each named in a warning), or a negative errno. */
	int (*destroy)(struct target *t, struct target_instance *inst) __attribute__((warn_unused_result));
	/*
	 * Optional (NULL when a backend has nothing to add), for the provision /
	 * status / restore / teardown commands:
	 * status appends one line about the instance (exists, running, storage,
	 * endpoint, database ready) and returns 0 when it is ready to run, 1 when
	 * it is not (yet), or a negative errno;
	 * rollback removes what this process's create() calls made, newest first,
	 * and nothing else (a provision that failed half-way).
	 */
	int (*status)(struct target *t, struct target_instance *inst, struct strbuf *line) __attribute__((warn_unused_result));
	int (*rollback)(struct target *t, struct target_instance *insts, size_t n) __attribute__((warn_unused_result));
	/*
	 * Optional, for the campaign's sampler: what to sample for a started
	 * instance (0 or -errno), and the counters of the VMs of instances with
	 * `guest` (out[i] for insts[i]; a VM that does not answer leaves out[i]
	 * zeroed; 0 or -errno). guest_read runs in the sampler's thread while the
	 * campaign's thread only waits for the drivers.
	 */
	int (*telemetry)(struct target *t, struct target_instance *inst, struct target_telemetry *out)
		__attribute__((warn_unused_result));
	int (*guest_read)(struct target *t, struct target_instance *const *insts, size_t n, struct sysstat_guest *out)
		__attribute__((warn_unused_result));
	/* Optional, with `node`: host `host`'s CPU and memory (what it does not give stays zeroed; 0 or -errno),
	 * in the sampler's thread as guest_read. */
	int (*host_read)(struct target *t, size_t host, struct sysstat_node *out) __attribute__((warn_unused_result));
	/* Free inst->priv; changes nothing outside this process. */
	void (*release)(struct target *t, struct target_instance *inst);
	/*
	 * Optional: what names drive d's storage for the campaign lock
	 * (campaign/lock.c), when it is not a folder of this machine: libvirt
	 * appends "<host URI> pool <pool>". NULL: the drive's path is its root
	 * (the local target), locked on the drive itself.
	 */
	void (*lock_key)(const struct target_env *env, size_t drive, struct strbuf *key);
	void (*cleanup)(struct target *t);
};

enum { TARGET_REMOVED = 0, TARGET_ABSENT = 1, TARGET_KEPT = 2 };

/* The registry: every backend, NULL-terminated. */
extern const struct target_ops *const target_backends[];

const struct target_ops *target_find(const char *name);
/* "local, libvirt" for messages. */
void target_names(struct strbuf *sb);
/* --- target/settings.c --- */

/* The validated setting `name`; aborts on a name the backend does not list. */
const struct target_setting *target_setting(const struct target_env *env, const char *name);
const char *target_opt_type_name(enum target_opt_type t);
/*
 * Read the config's "target" object for `ops` (the "kind" key included):
 * every key one of ops->options, each value of its type, defaults filled.
 * *out is parallel to ops->options (free with target_settings_free).
 * Returns 0 or -EINVAL after one message ("<file>: .target.<key>: …").
 */
int target_settings_read(struct jsonr *jr, const struct target_ops *ops, struct json_t *obj,
			 struct target_setting **out) __attribute__((warn_unused_result));
void target_settings_free(const struct target_ops *ops, struct target_setting *s);
/* One message in the config's style: "dbrig: <file>: <jpath>: <text>". */
void target_env_error(const struct target_env *env, const char *jpath, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --- target/devices.c --- */

/*
 * Two drives on one block device, or a drive on the root file system's device (the
 * whole-disk devices under the paths, core/blockdev.h): one line each and -EINVAL at the
 * first; with `allow` ("allow_shared_device": true) a warning each instead, and 0. Only
 * drives with a path and instances are looked at, and of those only the ones `here` says
 * are on this machine (NULL: all); a path that does not exist yet through its nearest
 * existing parent; a path without a block device (tmpfs) is not looked at.
 */
int target_check_devices(const struct target_env *env, bool allow, bool (*here)(const struct target_env *env, size_t d))
	__attribute__((warn_unused_result));
/* The bytes an unprivileged user may still write under `path` (statvfs f_bavail x f_frsize),
 * through its nearest existing parent: 0, or -errno. */
int target_path_free(const char *path, uint64_t *out) __attribute__((warn_unused_result));

/* --- target/probe.c --- */

/*
 * Does a MySQL-protocol server answer on host:port? 0 when it sends its
 * greeting (protocol 10) within timeout_ms; with `error_ok`, an error packet
 * (0xff: "host not allowed", "too many connections") from a live server
 * counts too. Otherwise -EAGAIN (or -EINVAL for a host that is not an IPv4
 * address) and, when `why` is set, one clause saying what was seen.
 */
int target_probe_mysql(const char *host, unsigned port, unsigned timeout_ms, bool error_ok, struct strbuf *why);

#endif
