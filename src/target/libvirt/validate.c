/* The libvirt target's settings and their static checks (no libvirt calls: they run for --plan too). */
#include "target/libvirt/libvirt.h"

#include "db/engine.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct target_option libvirt_options[] = {
	{"hosts", TOPT_STRMAP, "{\"default\": \"qemu:///system\"}", 0, 0,
	 "hypervisor hosts by name: libvirt URIs (qemu:///system, qemu+ssh://host/system, test:///default); "
	 "a drive's \"host\" picks one, the first is the default"},
	{"allow_ext_transport", TOPT_BOOL, "false", 0, 0,
	 "accept host URIs that run a program the URI names: the ext transport (qemu+ext://...?command=) and the "
	 "command= / netcat= parameters of the ssh transports"},
	{"network", TOPT_STRING, "default", 0, 0, "libvirt network of the VMs' NIC (endpoint \"guest\")"},
	{"endpoint", TOPT_STRING, "guest", 0, 0,
	 "how drivers reach a VM's database: \"guest\" (the VM's address on its network) or \"forward\" "
	 "(a port forwarded to 127.0.0.1 by QEMU user networking)"},
	{"forward_base_port", TOPT_UINT, "33400", 1024, 65000, "first host port with endpoint \"forward\" (one per VM)"},
	{"forward_backend", TOPT_STRING, "slirp", 0, 0,
	 "user networking with endpoint \"forward\": slirp (QEMU hostfwd via <qemu:commandline>) or passt (<portForward>, libvirt 9.2 or later)"},
	{"template", TOPT_STRING, "sysbench", 0, 0, "domain template in vm-templates/: sysbench or sqlserver"},
	{"templates", TOPT_STRING, NULL, 0, 0,
	 "folder of the domain, pool, volume and cloud-init templates (default: vm-templates/ in dbrig's data "
	 "folder, <prefix>/share/dbrig or $DBRIG_DATA_DIR)"},
	{"base_image", TOPT_STRING, NULL, 0, 0, "boot disk base image (qcow2) the boot volumes are made from"},
	{"boot_mode", TOPT_STRING, "overlay", 0, 0,
	 "boot volume from base_image: overlay (qcow2 backed by it) or copy (a full clone; base_image must be a volume)"},
	{"boot_size", TOPT_SIZE, "92G", 0, 0, "boot volume size"},
	{"prebuilt_size", TOPT_SIZE, "447G", 0, 0, "pre-built (golden copy) volume size"},
	{"under_test_size", TOPT_SIZE, "270G", 0, 0, "under-test volume size"},
	{"disk_format", TOPT_STRING, "raw", 0, 0, "volume format of pre-built and under-test: raw or qcow2"},
	{"allocation", TOPT_STRING, "full", 0, 0,
	 "pre-built and under-test volumes: full (preallocated at creation: thick disks) or sparse (allocated as the "
	 "guest writes)"},
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
	{"allow_shared_device", TOPT_BOOL, "false", 0, 0,
	 "let drives share a block device, or sit on the root file system's (a warning instead of a refusal)"},
	{"create_pools", TOPT_BOOL, "false", 0, 0, "create a dir pool on a drive's path when none exists"},
	{"cloud_init", TOPT_BOOL, "true", 0, 0, "attach a cloud-init NoCloud seed ISO (cidata) to every VM"},
	{"ssh_key", TOPT_STRING, NULL, 0, 0, "SSH public key cloud-init installs for the guest's default user"},
	{"guest_packages", TOPT_STRING, "install", 0, 0,
	 "what cloud-init does about the engine and guest agent packages: install (apt update and install them) "
	 "or preinstalled (the base image has them: no package step, no mirror needed)"},
	{"guest_apt_key", TOPT_STRING, NULL, 0, 0,
	 "with guest_packages install and an engine from a vendor repository (sqlserver): the absolute path, on the "
	 "driver host, of the vendor's ASCII-armored apt signing key; the user-data then adds the vendor's apt sources "
	 "with it and the packages' EULA answers (unset: the base image must carry the vendor's repository)"},
	{"db_user", TOPT_STRING, "dbrig", 0, 0, "database user the guest setup creates for the driver"},
	{"db_password", TOPT_STRING, NULL, 0, 0,
	 "its password (12 to 128 letters, digits and ._+-=@%:,~); unset: generated for the campaign and kept 0600 in "
	 "<output>/.<campaign>.libvirt/" LV_CREDENTIALS},
	{"db_password_file", TOPT_STRING, NULL, 0, 0,
	 "instead of db_password: the absolute path of a file on the driver host, written by you (mode 0600 or "
	 "stricter), whose one line is the password (db_password's grammar); with \"cloud_init\": false the password "
	 "of the login the image holds"},
	{"db_client", TOPT_STRING, NULL, 0, 0,
	 "the address (a.b.c.d) or network (a.b.c.d/n) the drivers connect from, as the guests see them: the only "
	 "host the driver's user may log in from; unset: each guest's default gateway (where QEMU user networking's "
	 "forwarded connections and the KVM host on a libvirt NAT network come from)"},
	{"db_port", TOPT_UINT, NULL, 1, 65535,
	 "database port in the guest; unset: the engine's default port (3306 for the MySQL family, 1433 for sqlserver)"},
	{"sqlserver_encrypt", TOPT_STRING, NULL, 0, 0,
	 "SQL Server: the drivers' Encrypt= (yes, mandatory, no, optional or strict); unset: the ODBC driver's default"},
	{"sqlserver_trust_server_certificate", TOPT_BOOL, NULL, 0, 0,
	 "SQL Server: the drivers' TrustServerCertificate= (true accepts any server certificate); unset: the ODBC "
	 "driver's default (Driver 18: the certificate is verified)"},
	{"odbc_driver", TOPT_STRING, NULL, 0, 0,
	 "sqlserver: the ODBC driver the drivers on this host load, by its name in odbcinst.ini: a name holding "
	 "FreeTDS (e.g. \"FreeTDS\", Debian's tdsodbc) gets FreeTDS's connection string (Server=host;Port=port;"
	 "TDS_Version=7.4, Encryption= from sqlserver_encrypt), any other msodbcsql's (Server=tcp:host,port); unset: "
	 "\"ODBC Driver 18 for SQL Server\""},
	{"sqlserver_data_size", TOPT_SIZE, NULL, 0, 0,
	 "SQL Server: the size the guest setup creates the workload's data file with (pre-sized, then growing by "
	 "1 GB); unset: SQL Server's default (8 MB, growing)"},
	{"sqlserver_log_size", TOPT_SIZE, NULL, 0, 0,
	 "SQL Server: the size the guest setup creates the workload's log file with; unset: SQL Server's default"},
	{"sqlserver_recovery", TOPT_STRING, NULL, 0, 0,
	 "SQL Server: the recovery model the guest setup sets on the workload's database at every boot: simple, "
	 "full or bulk_logged; unset: simple"},
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

unsigned lv_db_port(const struct target_env *env)
{
	const struct target_setting *s = target_setting(env, "db_port");

	return s->set ? (unsigned)s->num : env->engine->port;
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

bool lv_safe_word(const char *s)
{
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-=@%:,~", *s))
			return false;
	return true;
}

/* ---- host URIs ---- */

static bool span_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return true;
}

#define URI_PATH_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~/+,=@-"

/*
 * One extra parameter of a remote URI (libvirt passes unknown ones on to the
 * driver): NULL when dbrig accepts it, else why not. Nothing here makes
 * libvirt run a program of the URI's choosing, except command= and netcat=,
 * which only `allow` (allow_ext_transport) accepts.
 */
static const char *uri_param_why(const char *k, size_t kn, const char *v, size_t vn, bool allow)
{
	static const char *const paths[] = {"socket", "keyfile", "known_hosts", "pkipath", NULL};
	static const char *const progs[] = {"command", "netcat", NULL};
	static const struct {
		const char *key, *values;
	} choices[] = {
		{"mode", " auto direct legacy "},
		{"proxy", " auto netcat native "},
		{"no_tty", " 0 1 "},
		{"known_hosts_verify", " normal auto "},
	};
	static char why[96]; /* validation is single-threaded */
	char key[32];

	if (kn >= sizeof(key))
		return "is not a parameter dbrig accepts (expected socket, keyfile, known_hosts, pkipath, mode, proxy, "
		       "no_tty, known_hosts_verify, sshauth or tls_priority)";
	memcpy(key, k, kn);
	key[kn] = '\0';
	for (const char *const *p = paths; *p; p++)
		if (!strcmp(key, *p))
			return vn > 1 && v[0] == '/' && span_of(v, vn, URI_PATH_CHARS) ? NULL
			       : "expected an absolute path of letters, digits and ._~/+,=@-";
	for (const char *const *p = progs; *p; p++)
		if (!strcmp(key, *p))
			return !allow ? "runs a program the URI names (set \"allow_ext_transport\": true to allow it)"
			       : vn && span_of(v, vn, URI_PATH_CHARS) ? NULL
			       : "expected a program path of letters, digits and ._~/+,=@-";
	for (size_t i = 0; i < sizeof(choices) / sizeof(choices[0]); i++) {
		if (strcmp(key, choices[i].key))
			continue;
		for (const char *c = strstr(choices[i].values, " "); c && c[1]; c = strchr(c + 1, ' '))
			if (!strncmp(c + 1, v, vn) && c[1 + vn] == ' ')
				return NULL;
		if (!strcmp(key, "known_hosts_verify"))
			return "expected normal or auto (ignore turns the host key check off)";
		snprintf(why, sizeof(why), "expected one of:%.*s", (int)strlen(choices[i].values) - 1, choices[i].values);
		return why;
	}
	if (!strcmp(key, "sshauth"))
		return vn && span_of(v, vn, "abcdefghijklmnopqrstuvwxyz-,") ? NULL
		       : "expected a comma-separated list of agent, privkey, password, keyboard-interactive";
	if (!strcmp(key, "tls_priority"))
		return vn && span_of(v, vn, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:+._-") ? NULL
		       : "expected a GnuTLS priority string of letters, digits and :+._-";
	if (!strcmp(key, "no_verify"))
		return "turns the server certificate / host key check off (expected it unset)";
	if (!strcmp(key, "name"))
		return "hands the remote daemon another URI (expected it unset)";
	return "is not a parameter dbrig accepts (expected socket, keyfile, known_hosts, pkipath, mode, proxy, no_tty, "
	       "known_hosts_verify, sshauth or tls_priority)";
}

/*
 * libvirt URIs dbrig connects to: driver qemu or test, transport none, unix,
 * ssh, libssh, libssh2, tls or tcp (ext only with allow_ext_transport), and
 * only the extra parameters uri_param_why accepts. 0, or -EINVAL with the
 * message printed naming `jpath`.
 */
static int check_uri(const struct target_env *env, const char *jpath, const char *uri, bool allow_ext)
{
	static const char *const drivers[] = {"qemu", "test", NULL};
	static const char *const transports[] = {"", "+unix", "+ssh", "+libssh", "+libssh2", "+tls", "+tcp", "+ext", NULL};
	const char *sep = strstr(uri, "://"), *auth, *path, *q;
	size_t dn = 0;
	bool ok = false;

	for (const char *const *d = drivers; sep && *d && !ok; d++) {
		dn = strlen(*d);
		if (strncmp(uri, *d, dn))
			continue;
		for (const char *const *t = transports; *t && !ok; t++)
			ok = (size_t)(sep - uri) == dn + strlen(*t) && !strncmp(uri + dn, *t, strlen(*t));
	}
	if (!ok) {
		target_env_error(env, jpath, "\"%s\" is not a libvirt URI dbrig connects to (expected qemu or test, "
				      "optionally +unix, +ssh, +libssh, +libssh2, +tls or +tcp, e.g. qemu:///system or "
				      "qemu+ssh://host/system)", uri);
		return -EINVAL;
	}
	if (!strncmp(uri + dn, "+ext", 4) && !allow_ext) {
		target_env_error(env, jpath, "\"%s\" uses the ext transport, which runs the program its command= "
				      "names (expected another transport, or \"allow_ext_transport\": true in .target)", uri);
		return -EINVAL;
	}
	auth = sep + 3;
	path = auth + strcspn(auth, "/?#");
	q = path + strcspn(path, "?#");
	if (!span_of(auth, (size_t)(path - auth), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~@:[]-") ||
	    *path != '/' || !span_of(path, (size_t)(q - path), URI_PATH_CHARS) || *q == '#') {
		target_env_error(env, jpath, "\"%s\" is not a libvirt URI dbrig connects to (expected "
				      "driver[+transport]://[user@][host[:port]]/path[?key=value&...], host and path of "
				      "letters, digits and ._~/+,=@-)", uri);
		return -EINVAL;
	}
	for (const char *p = *q ? q + 1 : q; *p;) {
		size_t n = strcspn(p, "&"), kn = strcspn(p, "=&");
		const char *why = kn < n ? uri_param_why(p, kn, p + kn + 1, n - kn - 1, allow_ext)
					 : "expected key=value";
		if (why) {
			target_env_error(env, jpath, "\"%s\": parameter \"%.*s\" %s", uri, (int)n, p, why);
			return -EINVAL;
		}
		p += n + (p[n] == '&');
	}
	return 0;
}

/* A value for a message: quoted, at most 60 characters, bytes outside printable ASCII as \xNN. */
static void show_str(const char *s, struct strbuf *sb)
{
	size_t n = 0;

	strbuf_addc(sb, '"');
	for (; *s && n < 60; s++, n++) {
		if (*s >= ' ' && *s <= '~' && *s != '"' && *s != '\\')
			strbuf_addc(sb, *s);
		else
			strbuf_addf(sb, "\\x%02x", (unsigned)(unsigned char)*s);
	}
	strbuf_adds(sb, *s ? "...\"" : "\"");
}

/*
 * db_client as the guest's SQL wants it: "a.b.c.d", or "a.b.c.d/n" as
 * "a.b.c.d/m.m.m.m" (the netmask form MariaDB and MySQL both match). 0, or
 * -EINVAL when s is neither or a network's host bits are set. out may be NULL.
 */
int lv_client_host(const char *s, char *out, size_t n)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t an = slash ? (size_t)(slash - s) : strlen(s);
	struct in_addr a, m;
	int64_t bits = 32;

	if (an >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, s, an);
	addr[an] = '\0';
	if (inet_pton(AF_INET, addr, &a) != 1 || (slash && parse_int64(slash + 1, 0, 32, &bits) < 0))
		return -EINVAL;
	m.s_addr = htonl(bits ? ~UINT32_C(0) << (32 - bits) : 0);
	if ((a.s_addr & ~m.s_addr) != 0)
		return -EINVAL;
	if (out && slash) {
		char mask[INET_ADDRSTRLEN];
		inet_ntop(AF_INET, &m, mask, sizeof(mask));
		snprintf(out, n, "%s/%s", addr, mask);
	} else if (out) {
		snprintf(out, n, "%s", addr);
	}
	return 0;
}

/* "<jpath>: "<value>" <why>", the value shown by show_str; -EINVAL. */
static int bad_value(const struct target_env *env, const char *jpath, const char *value, const char *why)
{
	struct strbuf v;

	strbuf_init(&v, 0);
	show_str(value, &v);
	target_env_error(env, jpath, "%s %s", v.buf, why);
	strbuf_release(&v);
	return -EINVAL;
}

/* One authorized_keys line: (ssh-|ecdsa-|sk-)[A-Za-z0-9@.+-]+ [A-Za-z0-9+/=]+( [ -~]*)?, nothing else. */
static bool ssh_key_ok(const char *s)
{
	size_t t = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@.+-"), b;

	if (strncmp(s, "ssh-", 4) && strncmp(s, "ecdsa-", 6) && strncmp(s, "sk-", 3))
		return false;
	if (s[t] != ' ')
		return false;
	s += t + 1;
	b = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=");
	if (!b || (s[b] && s[b] != ' '))
		return false;
	for (s += b; *s; s++)
		if (*s < ' ' || *s > '~')
			return false;
	return true;
}

/* .target.odbc_driver: an ODBC engine's, a name that fits in Driver={…}; with
 * FreeTDS the TLS settings it can honour (FreeTDS 1.3 has no TDS 8.0 for
 * strict, and verifies no certificate from the connection string). */
static int check_odbc_driver(const struct target_env *env, const char *s)
{
	const struct target_setting *trust = target_setting(env, "sqlserver_trust_server_certificate");
	const char *enc = lv_setting_str(env, "sqlserver_encrypt");

	if (!env->engine->odbc_connect) {
		target_env_error(env, ".target.odbc_driver", "\"%s\": %s connects through libmysqlclient, not ODBC "
				 "(expected it unset)", s, env->engine->name);
		return -EINVAL;
	}
	if (!*s || strlen(s) > 100 || strpbrk(s, "{};=")) {
		target_env_error(env, ".target.odbc_driver", "\"%s\" is not an ODBC driver name (expected its name in "
				 "odbcinst.ini, 1 to 100 characters without { } ; =, e.g. FreeTDS)", s);
		return -EINVAL;
	}
	if (!db_odbc_driver_freetds(s))
		return 0;
	if (enc && !strcmp(enc, "strict")) {
		target_env_error(env, ".target.sqlserver_encrypt", "\"strict\" with FreeTDS (expected yes, mandatory, no "
				 "or optional: FreeTDS 1.3 has no TDS 8.0)");
		return -EINVAL;
	}
	if (trust->set && !trust->num) {
		target_env_error(env, ".target.sqlserver_trust_server_certificate", "false with FreeTDS (expected true: "
				 "FreeTDS verifies no server certificate from the connection string)");
		return -EINVAL;
	}
	return 0;
}

/* The host of a libvirt URI, without user@ and :port, into out ("" for qemu:///system). */
static void uri_host(const char *uri, char *out, size_t n)
{
	const char *auth = strstr(uri, "://"), *end, *at;
	size_t len;

	out[0] = '\0';
	if (!auth)
		return;
	auth += 3;
	end = auth + strcspn(auth, "/?#");
	at = memchr(auth, '@', (size_t)(end - auth));
	if (at)
		auth = at + 1;
	if (*auth == '[') { /* [v6]:port */
		const char *close = memchr(auth, ']', (size_t)(end - auth));
		len = close ? (size_t)(close - auth) + 1 : (size_t)(end - auth);
	} else {
		const char *colon = memchr(auth, ':', (size_t)(end - auth));
		len = (size_t)((colon ? colon : end) - auth);
	}
	snprintf(out, n, "%.*s", (int)len, auth);
}

bool lv_uri_is_this_machine(const char *uri)
{
	char h[256];

	uri_host(uri, h, sizeof(h));
	return !h[0] || !strcmp(h, "localhost") || !strncmp(h, "127.", 4) || !strcmp(h, "[::1]");
}

/*
 * The drivers run here and reach each VM at its endpoint. A host that is another
 * machine: with endpoint "forward" its VMs' ports are forwarded on that machine's
 * 127.0.0.1, which nothing here reaches (short of tunnels); with "guest" they are
 * reached on its libvirt network, which must be routed or bridged to this machine
 * (--plan and preflight read that network: sizing.c's lv_warn_guest_reach). One line
 * per such host, for --plan too.
 */
static void warn_unreachable(const struct target_env *env)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	bool forward = !strcmp(lv_setting_str(env, "endpoint"), "forward");

	for (size_t h = 0; h < hosts->nmap; h++) {
		bool used = false;

		for (size_t d = 0; d < env->ndrives && !used; d++)
			used = env->drives[d].host ? !strcmp(env->drives[d].host, hosts->map[h].key) : h == 0;
		if (!used || lv_uri_is_this_machine(hosts->map[h].value))
			continue;
		if (forward)
			log_warn("%s: .target.hosts.%s: \"%s\" is another machine, and endpoint \"forward\" puts its VMs' "
				 "database ports on that machine's 127.0.0.1, which the drivers here cannot reach (expected "
				 "endpoint \"guest\" on a network routed to this machine, or tunnels of those ports: "
				 "docs/libvirt.md, \"Reaching guests on other hosts\")",
				 env->file, hosts->map[h].key, hosts->map[h].value);
	}
}

/* The settings that take one of a few words. */
static int check_choices(const struct target_env *env)
{
	static const char *const endpoints[] = {"guest", "forward", NULL};
	static const char *const backends[] = {"passt", "slirp", NULL};
	static const char *const templates[] = {"sysbench", "sqlserver", NULL};
	static const char *const formats[] = {"raw", "qcow2", NULL};
	static const char *const allocations[] = {"full", "sparse", NULL};
	static const char *const controllers[] = {"virtio-scsi", "lsisas1068", "lsisas1078", "lsilogic", NULL};
	static const char *const boot_modes[] = {"overlay", "copy", NULL};
	static const char *const caches[] = {"none", "directsync", "writeback", "writethrough", NULL};
	static const char *const types[] = {"kvm", "qemu", NULL};
	static const char *const package_modes[] = {"install", "preinstalled", NULL};
	static const char *const recovery_models[] = {"simple", "full", "bulk_logged", NULL};
	static const char *const encrypt_modes[] = {"yes", "mandatory", "no", "optional", "strict", NULL};

	if (check_choice(env, "endpoint", "an endpoint style", endpoints) < 0 ||
	    check_choice(env, "forward_backend", "a user networking backend", backends) < 0 ||
	    check_choice(env, "template", "a VM template", templates) < 0 ||
	    check_choice(env, "disk_format", "a volume format", formats) < 0 ||
	    check_choice(env, "allocation", "a volume allocation", allocations) < 0 ||
	    check_choice(env, "controller", "a disk controller", controllers) < 0 ||
	    check_choice(env, "boot_mode", "a boot volume mode", boot_modes) < 0 ||
	    check_choice(env, "disk_cache", "a disk cache mode", caches) < 0 ||
	    check_choice(env, "domain_type", "a domain type", types) < 0 ||
	    check_choice(env, "guest_packages", "a guest package mode", package_modes) < 0 ||
	    (lv_setting_str(env, "sqlserver_recovery") &&
	     check_choice(env, "sqlserver_recovery", "a recovery model", recovery_models) < 0) ||
	    (lv_setting_str(env, "sqlserver_encrypt") &&
	     check_choice(env, "sqlserver_encrypt", "an ODBC Encrypt mode", encrypt_modes) < 0))
		return -EINVAL;
	return 0;
}

/* The guest template must be the one that sets the engine up (sysbench: the MySQL family). */
static int check_template(const struct target_env *env)
{
	if (!env->engine->guest_template) {
		target_env_error(env, ".engine.kind", "\"%s\": no VM template of the libvirt target sets it up (expected an "
				 "engine with a guest template: mariadb, percona or mysql with \"template\": \"sysbench\", "
				 "sqlserver with \"template\": \"sqlserver\"; or the local target)", env->engine->name);
		return -EINVAL;
	}
	if (strcmp(lv_setting_str(env, "template"), env->engine->guest_template)) {
		target_env_error(env, ".target.template", "\"%s\" does not set up %s (expected \"%s\")",
				 lv_setting_str(env, "template"), env->engine->name, env->engine->guest_template);
		return -EINVAL;
	}
	return 0;
}

/* The database login dbrig creates in the guest. */
static int check_login(const struct target_env *env)
{
	const char *s, *f;

	s = lv_setting_str(env, "db_user");
	if (!*s || strlen(s) > 32 || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(s))
		return bad_value(env, ".target.db_user", s,
				 "is not a database user name dbrig creates (expected 1 to 32 letters, digits or _)");
	/* No default password: a known one, granted to '%', would open every guest's database. */
	if ((s = lv_setting_str(env, "db_password")) && (!lv_safe_word(s) || strlen(s) < 12 || strlen(s) > 128)) {
		target_env_error(env, ".target.db_password",
				      "is not a password dbrig hands to the guest (expected 12 to 128 letters, digits and "
				      "._+-=@%%:,~; or leave it unset and dbrig generates one for the campaign)");
		return -EINVAL;
	}
	if ((f = lv_setting_str(env, "db_password_file"))) {
		if (s)
			return bad_value(env, ".target.db_password_file", f, "is set beside .target.db_password (expected "
					 "one of the two)");
		if (f[0] != '/')
			return bad_value(env, ".target.db_password_file", f, "is not an absolute path (expected the path "
					 "of the file holding the password on the driver host)");
	}
	if (!s && !f && !lv_setting_num(env, "cloud_init")) {
		target_env_error(env, ".target.db_password", "missing (expected the password of the login the "
				      "image holds, here or in .target.db_password_file: with \"cloud_init\": false no "
				      "generated one reaches the guest)");
		return -EINVAL;
	}
	return 0;
}

/* The options go into the guest's my.cnf, quoted: pasted into the root setup
 * script, a value could run commands as root. */
static int check_server_options(const struct target_env *env)
{
	char jp[160];

	for (size_t i = 0; i < env->nserver_options; i++) {
		const char *k = env->server_options[i].key, *v = env->server_options[i].value;
		/* SQL Server has no my.cnf: the guest setup applies the options it
		 * knows with sp_configure, and the rest are refused, not ignored. */
		if (env->engine->protocol == DB_PROTO_TDS) {
			snprintf(jp, sizeof(jp), ".engine.server_options.%s", k);
			if (strcmp(k, "max_server_memory_mb")) {
				target_env_error(env, jp, "is not an option the SQL Server guest setup applies (there is "
						 "no my.cnf; expected only max_server_memory_mb, set with sp_configure 'max "
						 "server memory (MB)')");
				return -EINVAL;
			}
			if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9 || atol(v) < 128)
				return bad_value(env, jp, v, "is not a memory size in MB (expected an integer 128..999999999)");
			continue;
		}
		if (vm_option_value_ok(v))
			continue;
		snprintf(jp, sizeof(jp), ".engine.server_options.%s", env->server_options[i].key);
		return bad_value(env, jp, env->server_options[i].value,
				 "holds a quote, backquote, backslash, $ or a character outside printable ASCII (expected "
				 "a value for the guest's server config)");
	}
	return 0;
}

/* Each drive's host is one of .target.hosts; each of .target.iotune names a drive. */
static int check_drives(const struct target_env *env)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	const struct target_setting *iot = target_setting(env, "iotune");
	const char *why;
	char jp[160];

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
	return 0;
}

/* SQL Server's files and recovery model: set by its guest setup only; both files on the under-test disk. */
static int check_sqlserver_files(const struct target_env *env)
{
	static const char *const mssql[] = {"sqlserver_data_size", "sqlserver_log_size", "sqlserver_recovery", NULL};
	uint64_t files = lv_setting_num(env, "sqlserver_data_size") + lv_setting_num(env, "sqlserver_log_size");
	char jp[160];

	for (size_t i = 0; mssql[i]; i++)
		if (env->engine->protocol != DB_PROTO_TDS && target_setting(env, mssql[i])->set) {
			snprintf(jp, sizeof(jp), ".target.%s", mssql[i]);
			target_env_error(env, jp, "is set for .engine.kind \"%s\" (expected it with sqlserver only: "
					 "its guest setup sizes the files and sets the recovery model)", env->engine->name);
			return -EINVAL;
		} else if (target_setting(env, mssql[i])->set && !lv_setting_num(env, "cloud_init")) {
			snprintf(jp, sizeof(jp), ".target.%s", mssql[i]);
			target_env_error(env, jp, "is set with \"cloud_init\": false, so no seed carries it to the guest "
					 "(expected it unset, and the value in the image's own setup.conf: "
					 "vm-templates/windows-sqlserver.md)");
			return -EINVAL;
		}
	for (size_t i = 0; i < 2; i++) {
		const struct target_setting *z = target_setting(env, mssql[i]);
		if (z->set && z->num < (UINT64_C(8) << 20)) {
			snprintf(jp, sizeof(jp), ".target.%s", mssql[i]);
			target_env_error(env, jp, "%" PRIu64 " bytes is below SQL Server's smallest file (expected 8M "
					 "or more)", z->num);
			return -EINVAL;
		}
	}
	if (files >= lv_setting_num(env, "under_test_size")) {
		target_env_error(env, ".target.sqlserver_data_size", "with .target.sqlserver_log_size, %" PRIu64
				 " bytes do not fit on the under-test volume of %" PRIu64 " bytes (expected their sum "
				 "below under_test_size)", files, lv_setting_num(env, "under_test_size"));
		return -EINVAL;
	}
	return 0;
}

/* The vendor key for the engine's apt source, which cloud-init adds. */
static int check_apt_key(const struct target_env *env)
{
	const char *s;

	if ((s = lv_setting_str(env, "guest_apt_key"))) {
		if (!env->engine->guest_apt_sources)
			return bad_value(env, ".target.guest_apt_key", s, "is set, but dbrig adds no vendor apt source for "
					 "this engine (expected it unset; .engine.kind sqlserver has one)");
		if (strcmp(lv_setting_str(env, "guest_packages"), "install") || !lv_setting_num(env, "cloud_init"))
			return bad_value(env, ".target.guest_apt_key", s, "is set, but cloud-init installs nothing "
					 "(expected it unset with \"guest_packages\": \"preinstalled\" or \"cloud_init\": false)");
		if (s[0] != '/')
			return bad_value(env, ".target.guest_apt_key", s, "is not an absolute path (expected the path of the "
					 "vendor's ASCII-armored key on the driver host)");
	}
	return 0;
}

/* Settings that are not errors but may not work as asked: one warning each. */
static void warn_known_limits(const struct target_env *env)
{
	const char *s;

	/* cloud-init installs the engine from the apt sources the image has: Debian's archive
	 * carries MariaDB only. Not an error: the user's image may have the vendor's repository. */
	if (env->engine->guest_repo && !strcmp(lv_setting_str(env, "guest_packages"), "install") &&
	    (s = lv_setting_str(env, "guest_apt_key")))
		log_warn("%s: .engine.kind \"%s\": the guests install %s from %s, which Debian's archive does not "
			 "carry: the user-data adds its apt sources and EULA answers (an Ubuntu 22.04 base image), signed by "
			 "the key provision reads from %s, which must hold %s first (docs/libvirt.md)",
			 env->file, env->engine->name, env->engine->guest_packages, env->engine->guest_repo, s,
			 env->engine->guest_apt_key_url);
	else if (env->engine->guest_repo && !strcmp(lv_setting_str(env, "guest_packages"), "install"))
		log_warn("%s: .engine.kind \"%s\" with .target.guest_packages \"install\": the guests install %s, "
			 "which Debian's archive does not carry; the base image needs %s, or the engine installed "
			 "and \"guest_packages\": \"preinstalled\" (docs/quickstart-libvirt.md)",
			 env->file, env->engine->name, env->engine->guest_packages, env->engine->guest_repo);
	/* Known QEMU/Linux limit, not an error: Windows guests see mptsas1068 disks. */
	if (!strcmp(lv_setting_str(env, "controller"), "lsisas1068") && !strcmp(lv_setting_str(env, "template"), "sysbench"))
		log_warn("%s: .target.controller: lsisas1068 with the Linux (sysbench) template: Linux guests (6.1) do "
			 "not see disks behind QEMU's mptsas1068, so the VMs will not boot or find their database disk; "
			 "use virtio-scsi, lsisas1078 or lsilogic (see docs/libvirt.md)", env->file);
}

int libvirt_validate(const struct target_env *env)
{
	const struct target_setting *hosts = target_setting(env, "hosts");
	const char *s;
	char jp[160];

	if (check_choices(env) < 0)
		return -EINVAL;
	for (size_t h = 0; h < hosts->nmap; h++) {
		snprintf(jp, sizeof(jp), ".target.hosts.%s", hosts->map[h].key);
		if (check_uri(env, jp, hosts->map[h].value, lv_setting_num(env, "allow_ext_transport")) < 0)
			return -EINVAL;
	}
	if (check_template(env) < 0 || check_login(env) < 0)
		return -EINVAL;
	if ((s = lv_setting_str(env, "odbc_driver")) && check_odbc_driver(env, s) < 0)
		return -EINVAL;
	if ((s = lv_setting_str(env, "db_client")) && lv_client_host(s, NULL, 0) < 0)
		return bad_value(env, ".target.db_client", s,
				 "is not an IPv4 address or network (expected a.b.c.d or a.b.c.d/n with the host bits 0)");
	if (check_server_options(env) < 0)
		return -EINVAL;
	if ((s = lv_setting_str(env, "ssh_key")) && !ssh_key_ok(s))
		return bad_value(env, ".target.ssh_key", s,
				 "is not one OpenSSH public key (expected \"TYPE BASE64 [comment]\" in printable ASCII, "
				 "TYPE ssh-*, ecdsa-* or sk-*)");
	if (lv_setting_str(env, "kernel") && !lv_setting_str(env, "initrd")) {
		target_env_error(env, ".target.initrd", "missing (expected an initrd path with \"kernel\")");
		return -EINVAL;
	}
	if (!strcmp(lv_setting_str(env, "boot_mode"), "copy") && !lv_setting_str(env, "base_image")) {
		target_env_error(env, ".target.base_image",
				      "missing (expected the image a \"copy\" boot volume is cloned from)");
		return -EINVAL;
	}
	if (check_drives(env) < 0 || check_sqlserver_files(env) < 0 || check_apt_key(env) < 0)
		return -EINVAL;
	warn_known_limits(env);
	warn_unreachable(env);
	return 0;
}
