/*
 * Rendering of dbrig's libvirt XML. The templates hold the layout a lab may
 * want to change (devices, features, NIC models); this file holds the rules
 * that must not drift: disk order, SCSI addressing per controller model,
 * serials, the MAC, the metadata that marks a domain as dbrig's.
 */
#include "target/libvirt/vmxml.h"

#include "core/escape.h"
#include "core/fileio.h"
#include "core/log.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "target/target.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const controller_names[] = {
	[VMC_VIRTIO_SCSI] = "virtio-scsi",
	[VMC_LSISAS1068] = "lsisas1068",
	[VMC_LSISAS1078] = "lsisas1078",
	[VMC_LSILOGIC] = "lsilogic",
};

const char *vm_controller_name(enum vm_controller c)
{
	switch (c) {
	case VMC_VIRTIO_SCSI:
	case VMC_LSISAS1068:
	case VMC_LSISAS1078:
	case VMC_LSILOGIC:
		return controller_names[c];
	}
	return "?";
}

int vm_controller_parse(const char *s, enum vm_controller *out)
{
	for (size_t i = 0; i < sizeof(controller_names) / sizeof(controller_names[0]); i++) {
		if (!strcmp(s, controller_names[i])) {
			*out = (enum vm_controller)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *vm_disk_role_name(enum vm_disk_role r)
{
	switch (r) {
	case VMD_BOOT:
		return "boot";
	case VMD_PREBUILT:
		return "prebuilt";
	case VMD_UNDERTEST:
		return "undertest";
	case VMD_SEED:
		return "seed";
	}
	return "?";
}

/*
 * Emulated LSI HBAs take few LUNs per target (QEMU's mptsas1068 only 0-1,
 * which breaks a third disk at unit 2), so there every disk gets its own
 * target at LUN 0, as on a real SAS HBA. virtio-scsi and megasas take LUNs.
 */
static bool target_per_disk(enum vm_controller c)
{
	switch (c) {
	case VMC_LSISAS1068:
	case VMC_LSILOGIC:
		return true;
	case VMC_VIRTIO_SCSI:
	case VMC_LSISAS1078:
		return false;
	}
	return true;
}

void vm_mac(const char *campaign, unsigned index, char out[18])
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)campaign; *p; p++)
		h = (h ^ *p) * 16777619u;
	snprintf(out, 18, "52:54:00:%02x:%02x:%02x", (unsigned)(h & 0xff), (index >> 8) & 0xff, index & 0xff);
}

static const char *const iotune_keys[] = {
	"total_bytes_sec", "read_bytes_sec", "write_bytes_sec", "total_iops_sec", "read_iops_sec", "write_iops_sec",
};

static uint64_t *iotune_field(struct vm_iotune *t, size_t i)
{
	uint64_t *f[] = {&t->total_bytes_sec, &t->read_bytes_sec, &t->write_bytes_sec,
			 &t->total_iops_sec,  &t->read_iops_sec,  &t->write_iops_sec};
	return f[i];
}

int vm_iotune_parse(const char *s, struct vm_iotune *out, const char **why)
{
	struct vm_iotune t = {0};
	char *copy = xstrdup(s), *save = NULL;
	int ret = -EINVAL;
	bool any = false;

	*why = "expected key=value pairs separated by commas, keys total_bytes_sec, read_bytes_sec, write_bytes_sec, "
	       "total_iops_sec, read_iops_sec, write_iops_sec";
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		size_t k = sizeof(iotune_keys) / sizeof(iotune_keys[0]);
		uint64_t v = 0;
		int64_t iv;

		if (!eq)
			goto out;
		*eq = '\0';
		for (size_t i = 0; i < sizeof(iotune_keys) / sizeof(iotune_keys[0]); i++)
			if (!strcmp(tok, iotune_keys[i]))
				k = i;
		if (k == sizeof(iotune_keys) / sizeof(iotune_keys[0]))
			goto out;
		if (strstr(tok, "bytes")) {
			if (parse_size_bytes(eq + 1, &v, NULL) < 0) {
				*why = "expected a byte rate such as 8M for a *_bytes_sec key";
				goto out;
			}
		} else {
			if (parse_int64(eq + 1, 1, INT64_MAX, &iv) < 0) {
				*why = "expected a positive integer for a *_iops_sec key";
				goto out;
			}
			v = (uint64_t)iv;
		}
		if (!v) {
			*why = "expected a limit above 0";
			goto out;
		}
		*iotune_field(&t, k) = v;
		any = true;
	}
	if (!any)
		goto out;
	/* libvirt refuses total_* together with read_* or write_* of the same kind. */
	if ((t.total_bytes_sec && (t.read_bytes_sec || t.write_bytes_sec)) ||
	    (t.total_iops_sec && (t.read_iops_sec || t.write_iops_sec))) {
		*why = "expected total_* or read_*/write_* of a kind, not both";
		goto out;
	}
	*out = t;
	*why = NULL;
	ret = 0;
out:
	free(copy);
	return ret;
}

/* ---- the template engine ---- */

struct render {
	const char *what;
	const char *base; /* whole template, for line positions in messages */
	const struct vm_var *vars;
	size_t nvars;
};

static unsigned line_of(const struct render *r, const char *p)
{
	unsigned n = 1;

	for (const char *q = r->base; q < p; q++)
		n += *q == '\n';
	return n;
}

static int lookup(const struct render *r, const char *name, size_t len, const char *at, const char **out)
{
	for (size_t i = 0; i < r->nvars; i++) {
		if (strlen(r->vars[i].name) == len && !memcmp(r->vars[i].name, name, len)) {
			*out = r->vars[i].value ? r->vars[i].value : "";
			return 0;
		}
	}
	log_error("%s: line %u: unknown variable {{%.*s}} (expected one dbrig fills in; see vm-templates/README.md)",
		  r->what, line_of(r, at), (int)len, name);
	return -EINVAL;
}

/* A tag: p at "{{"; fills sigil, name, len and the end (after "}}"). */
static int tag(const struct render *r, const char *p, const char *end, char *sigil, const char **name, size_t *len,
	       const char **after)
{
	const char *close = p + 2;

	while (close + 1 < end && !(close[0] == '}' && close[1] == '}'))
		close++;
	if (close + 1 >= end) {
		log_error("%s: line %u: unclosed {{ (expected {{name}})", r->what, line_of(r, p));
		return -EINVAL;
	}
	*sigil = strchr("#^/&", p[2]) && p[2] ? p[2] : '\0';
	*name = p + 2 + (*sigil ? 1 : 0);
	*len = (size_t)(close - *name);
	*after = close + 2;
	if (!*len) {
		log_error("%s: line %u: empty tag (expected {{name}})", r->what, line_of(r, p));
		return -EINVAL;
	}
	return 0;
}

/* Only whitespace between the line's start and the tag, and a newline after it. */
static bool standalone(const struct render *r, const char *start, const char *after, const char *end,
		       const char **line_start)
{
	const char *q = start;

	while (q > r->base && (q[-1] == ' ' || q[-1] == '\t'))
		q--;
	*line_start = q;
	return (q == r->base || q[-1] == '\n') && (after == end || *after == '\n');
}

static int render_range(const struct render *r, const char *p, const char *end, struct strbuf *out)
{
	while (p < end) {
		const char *open = strstr(p, "{{");
		const char *name, *after, *val, *ls;
		size_t len;
		char sigil;
		int ret;

		if (!open || open >= end) {
			strbuf_add(out, p, (size_t)(end - p));
			break;
		}
		strbuf_add(out, p, (size_t)(open - p));
		if ((ret = tag(r, open, end, &sigil, &name, &len, &after)) < 0)
			return ret;
		if ((ret = lookup(r, name, len, open, &val)) < 0)
			return ret;
		if (sigil == '\0' || sigil == '&') {
			if (sigil == '&')
				strbuf_adds(out, val);
			else
				escape_xml(out, val);
			p = after;
			continue;
		}
		if (sigil == '/') {
			log_error("%s: line %u: {{/%.*s}} closes no block", r->what, line_of(r, open), (int)len, name);
			return -EINVAL;
		}
		/* A block: find its {{/name}} at the same depth. */
		const char *inner = after, *q = after, *cstart = NULL, *cafter = NULL;
		unsigned depth = 1;
		if (standalone(r, open, after, end, &ls)) {
			out->len -= (size_t)(open - ls);
			out->buf[out->len] = '\0';
			inner = after < end ? after + 1 : after;
			q = inner;
		}
		while (depth) {
			const char *t = strstr(q, "{{"), *n2, *a2;
			size_t l2;
			char s2;
			if (!t || t >= end) {
				log_error("%s: line %u: {{%c%.*s}} is not closed (expected {{/%.*s}})", r->what,
					  line_of(r, open), sigil, (int)len, name, (int)len, name);
				return -EINVAL;
			}
			if ((ret = tag(r, t, end, &s2, &n2, &l2, &a2)) < 0)
				return ret;
			if (l2 == len && !memcmp(n2, name, len)) {
				if (s2 == '#' || s2 == '^')
					depth++;
				else if (s2 == '/' && !--depth) {
					cstart = t;
					cafter = a2;
				}
			}
			q = a2;
		}
		const char *inner_end = cstart;
		if (standalone(r, cstart, cafter, end, &ls)) {
			inner_end = ls;
			cafter = cafter < end ? cafter + 1 : cafter;
		}
		if ((sigil == '#') == (*val != '\0') && (ret = render_range(r, inner, inner_end, out)) < 0)
			return ret;
		p = cafter;
	}
	return 0;
}

int vm_template_render(const char *what, const char *tmpl, const struct vm_var *vars, size_t nvars,
		       struct strbuf *out)
{
	struct render r = {.what = what, .base = tmpl, .vars = vars, .nvars = nvars};

	return render_range(&r, tmpl, tmpl + strlen(tmpl), out);
}

static int read_template(const char *dir, const char *file, struct strbuf *out)
{
	struct strbuf path;
	char *text = NULL;
	size_t len;
	int ret;

	strbuf_init(&path, 0);
	strbuf_addf(&path, "%s/%s", dir, file);
	if ((ret = read_file(path.buf, &text, &len)) < 0)
		log_error("%s: cannot read the VM template: %s (expected it in the target's \"templates\" folder)",
			  path.buf, strerror(-ret));
	else
		strbuf_add(out, text, len);
	free(text);
	strbuf_release(&path);
	return ret;
}

static int render_file(const char *dir, const char *file, const struct vm_var *vars, size_t nvars,
		       struct strbuf *out)
{
	struct strbuf path, text;
	int ret;

	strbuf_init(&path, 0);
	strbuf_init(&text, 0);
	strbuf_addf(&path, "%s/%s", dir, file);
	if ((ret = read_template(dir, file, &text)) == 0)
		ret = vm_template_render(path.buf, text.buf, vars, nvars, out);
	strbuf_release(&path);
	strbuf_release(&text);
	return ret;
}

/* ---- domain, pool, volume ---- */

void vm_render_metadata(const struct vm_spec *s, struct strbuf *out)
{
	strbuf_adds(out, "<" VM_METADATA_KEY ":vm xmlns:" VM_METADATA_KEY "='" VM_METADATA_NS "'>\n");
	strbuf_adds(out, "      <" VM_METADATA_KEY ":campaign>");
	escape_xml(out, s->campaign);
	strbuf_adds(out, "</" VM_METADATA_KEY ":campaign>\n      <" VM_METADATA_KEY ":drive>");
	escape_xml(out, s->drive);
	strbuf_adds(out, "</" VM_METADATA_KEY ":drive>\n      <" VM_METADATA_KEY ":instance>");
	escape_xml(out, s->instance);
	strbuf_adds(out, "</" VM_METADATA_KEY ":instance>\n");
	if (s->id) {
		strbuf_adds(out, "      <" VM_METADATA_KEY ":id>");
		escape_xml(out, s->id);
		strbuf_adds(out, "</" VM_METADATA_KEY ":id>\n");
	}
	if (s->golden) {
		strbuf_adds(out, "      <" VM_METADATA_KEY ":golden>");
		escape_xml(out, s->golden);
		strbuf_adds(out, "</" VM_METADATA_KEY ":golden>\n");
	}
	strbuf_adds(out, "    </" VM_METADATA_KEY ":vm>");
}

static void iotune_xml(const struct vm_iotune *t, struct strbuf *out)
{
	struct vm_iotune c = *t;

	for (size_t i = 0; i < sizeof(iotune_keys) / sizeof(iotune_keys[0]); i++) {
		uint64_t v = *iotune_field(&c, i);
		if (!v)
			continue;
		if (!out->len)
			strbuf_adds(out, "\n      <iotune>\n");
		strbuf_addf(out, "        <%s>%" PRIu64 "</%s>\n", iotune_keys[i], v, iotune_keys[i]);
	}
	if (out->len)
		strbuf_adds(out, "      </iotune>");
}

int vm_render_domain(const char *dir, const char *template_name, const struct vm_spec *s, struct strbuf *out)
{
	char num[VM_DISKS][2][16], vcpus[16], mem[32], fwd[16], gport[16];
	struct strbuf meta, iot, file;
	int ret;

	strbuf_init(&meta, 0);
	strbuf_init(&iot, 0);
	strbuf_init(&file, 0);
	vm_render_metadata(s, &meta);
	if (s->iotune)
		iotune_xml(s->iotune, &iot);
	for (int d = 0; d < VM_DISKS; d++) {
		snprintf(num[d][0], sizeof(num[d][0]), "%d", target_per_disk(s->controller) ? d : 0);
		snprintf(num[d][1], sizeof(num[d][1]), "%d", target_per_disk(s->controller) ? 0 : d);
	}
	snprintf(vcpus, sizeof(vcpus), "%u", s->vcpus);
	snprintf(mem, sizeof(mem), "%" PRIu64, s->memory_kib);
	snprintf(fwd, sizeof(fwd), "%u", s->fwd_port);
	snprintf(gport, sizeof(gport), "%u", s->guest_port);
	const struct vm_var vars[] = {
		{"name", s->name},
		{"campaign", s->campaign},
		{"drive", s->drive},
		{"instance", s->instance},
		{"metadata", meta.buf},
		{"domain_type", s->domain_type},
		{"vcpus", vcpus},
		{"memory_kib", mem},
		{"controller", vm_controller_name(s->controller)},
		{"pool", s->pool},
		{"cache", s->cache},
		{"boot_vol", s->vol[VMD_BOOT]},
		{"boot_format", s->vol_format[VMD_BOOT]},
		{"boot_target", num[VMD_BOOT][0]},
		{"boot_unit", num[VMD_BOOT][1]},
		{"prebuilt_vol", s->vol[VMD_PREBUILT]},
		{"prebuilt_format", s->vol_format[VMD_PREBUILT]},
		{"prebuilt_target", num[VMD_PREBUILT][0]},
		{"prebuilt_unit", num[VMD_PREBUILT][1]},
		{"undertest_vol", s->vol[VMD_UNDERTEST]},
		{"undertest_format", s->vol_format[VMD_UNDERTEST]},
		{"undertest_target", num[VMD_UNDERTEST][0]},
		{"undertest_unit", num[VMD_UNDERTEST][1]},
		{"undertest_iotune", iot.buf},
		{"seed_vol", s->vol[VMD_SEED]},
		{"seed_target", num[VMD_SEED][0]},
		{"seed_unit", num[VMD_SEED][1]},
		{"nic_network", s->nic == VMNIC_NETWORK ? "1" : NULL},
		{"nic_passt", s->nic == VMNIC_PASST ? "1" : NULL},
		{"nic_slirp", s->nic == VMNIC_SLIRP ? "1" : NULL},
		{"network", s->network},
		{"mac", s->mac},
		{"fwd_port", fwd},
		{"guest_port", gport},
		{"kernel", s->kernel},
		{"initrd", s->initrd},
		{"cmdline", s->cmdline},
	};
	strbuf_addf(&file, "%s-domain.xml", template_name);
	ret = render_file(dir, file.buf, vars, sizeof(vars) / sizeof(vars[0]), out);
	strbuf_release(&meta);
	strbuf_release(&iot);
	strbuf_release(&file);
	return ret;
}

int vm_render_pool(const char *dir, const char *name, const char *path, struct strbuf *out)
{
	const struct vm_var vars[] = {{"name", name}, {"path", path}};

	return render_file(dir, "pool-dir.xml", vars, sizeof(vars) / sizeof(vars[0]), out);
}

int vm_render_volume(const char *dir, const char *name, uint64_t capacity, uint64_t allocation, const char *format,
		     const char *backing, const char *backing_format, struct strbuf *out)
{
	char cap[32], alloc[32];

	snprintf(cap, sizeof(cap), "%" PRIu64, capacity);
	snprintf(alloc, sizeof(alloc), "%" PRIu64, allocation);
	const struct vm_var vars[] = {
		{"name", name}, {"capacity", cap}, {"allocation", alloc}, {"format", format}, {"backing", backing},
		{"backing_format", backing_format},
	};
	return render_file(dir, "volume.xml", vars, sizeof(vars) / sizeof(vars[0]), out);
}

/*
 * cloud-init's user-data and meta-data are YAML; dbrig writes them as JSON
 * (a subset of YAML that cloud-init's PyYAML reads the same) through
 * jansson, so every value is one quoted, escaped scalar whatever it holds:
 * no template, nothing a value can add to the document. ASCII only
 * (JSON_ENSURE_ASCII): U+0085, U+2028 and U+2029, line breaks to YAML,
 * become \u escapes inside their string.
 */
static int dump_json(const char *what, json_t *doc, unsigned bad, const char *header, struct strbuf *out)
{
	char *text = doc && !bad ? json_dumps(doc, JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER) : NULL;

	if (!text) {
		log_error("%s: cannot build the document (a value that is not UTF-8?)", what);
		return -EINVAL;
	}
	strbuf_adds(out, header);
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	return 0;
}

/* Build steps that fail (jansson refuses a string that is not UTF-8) count in *bad. */
static void put(json_t *obj, const char *key, json_t *v, unsigned *bad)
{
	*bad += json_object_set_new(obj, key, v) < 0;
}

static void push(json_t *arr, json_t *v, unsigned *bad)
{
	*bad += json_array_append_new(arr, v) < 0;
}

static void add_file(json_t *files, const char *path, const char *mode, const struct strbuf *content, unsigned *bad)
{
	json_t *f = json_object();

	put(f, "path", json_string(path), bad);
	put(f, "permissions", json_string(mode), bad);
	put(f, "content", json_stringn(content->buf, content->len), bad);
	push(files, f, bad);
}

bool vm_option_value_ok(const char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~' || strchr("\"'`\\$", *s))
			return false;
	return true;
}

static bool all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

#define SEED_WORD "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

/* /etc/dbrig/setup.conf: name=value lines the setup script reads as data. */
static int setup_conf(const struct vm_seed *s, bool sqlserver, struct strbuf *out)
{
	if (!all_of(s->db_user, SEED_WORD "_") || !all_of(s->db_name, SEED_WORD "_") ||
	    (strcmp(s->db_password, VM_MASKED_PASSWORD) && !all_of(s->db_password, SEED_WORD "._+=@%:,~-")) ||
	    (s->db_client && !all_of(s->db_client, "0123456789./")) || !all_of(s->mac, "0123456789abcdef:")) {
		log_error("%s: db_user, db_name, db_password, db_client or the MAC outside its grammar; not written into the seed",
			  s->name);
		return -EINVAL;
	}
	strbuf_adds(out, "# dbrig-setup.sh's parameters, written by dbrig's user-data; read as data, never run\n");
	strbuf_addf(out, "db_user=%s\ndb_name=%s\ndb_password=%s\ndb_client=%s\nmac=%s\ndb_port=%u\nbuffer_pool=%" PRIu64 "\n",
		    s->db_user, s->db_name, s->db_password, s->db_client ? s->db_client : "", s->mac, s->db_port,
		    s->buffer_pool);
	/* SQL Server: engine.server_options.max_server_memory_mb, which the setup applies with
	 * sp_configure (validate.c refuses any other option for it). */
	if (sqlserver)
		for (size_t i = 0; i < s->noptions; i++) {
			const char *v = s->options[i].value;
			if (strcmp(s->options[i].key, "max_server_memory_mb"))
				continue;
			if (!all_of(v, "0123456789")) {
				log_error("%s: max_server_memory_mb outside its grammar; not written into the seed", s->name);
				return -EINVAL;
			}
			strbuf_addf(out, "max_server_memory_mb=%s\n", v);
		}
	/* The files pre-sized in whole MB (rounded up), the recovery model by its T-SQL name. */
	if (sqlserver) {
		if (s->recovery && strcmp(s->recovery, "SIMPLE") && strcmp(s->recovery, "FULL") &&
		    strcmp(s->recovery, "BULK_LOGGED")) {
			log_error("%s: recovery model outside its grammar; not written into the seed", s->name);
			return -EINVAL;
		}
		if (s->data_size)
			strbuf_addf(out, "data_size_mb=%" PRIu64 "\n", (s->data_size + 1048575) / 1048576);
		if (s->log_size)
			strbuf_addf(out, "log_size_mb=%" PRIu64 "\n", (s->log_size + 1048575) / 1048576);
		if (s->recovery)
			strbuf_addf(out, "recovery=%s\n", s->recovery);
	}
	return 0;
}

/*
 * /etc/dbrig/server.cnf: engine.server_options as my.cnf lines, every value
 * double-quoted (the server strips the quotes; vm_option_value_ok leaves
 * nothing inside to escape), then dbrig's own port and buffer pool, which
 * win over an option of the same name because they come later.
 */
static int server_cnf(const struct vm_seed *s, struct strbuf *out)
{
	strbuf_adds(out, "# engine.server_options, then dbrig's settings (written by dbrig's user-data)\n[mysqld]\n");
	for (size_t i = 0; i < s->noptions; i++) {
		const char *k = s->options[i].key, *v = s->options[i].value;
		if (!all_of(k, "abcdefghijklmnopqrstuvwxyz0123456789_.-") || !vm_option_value_ok(v)) {
			log_error("%s: server option %s outside its grammar; not written into the seed", s->name, k);
			return -EINVAL;
		}
		strbuf_addf(out, "%s = \"%s\"\n", k, v);
	}
	strbuf_addf(out, "port = %u\ninnodb_buffer_pool_size = %" PRIu64 "\nskip-name-resolve\n", s->db_port,
		    s->buffer_pool);
	return 0;
}

int vm_render_seed(const char *dir, const char *template_name, const struct vm_seed *s, struct strbuf *user_data,
		   struct strbuf *meta_data)
{
	struct strbuf file, setup, common, unit, conf, cnf;
	json_t *ud = NULL, *md = NULL, *files, *runcmd;
	bool sysbench = !strcmp(template_name, "sysbench");
	unsigned bad = 0;
	int ret;

	strbuf_init(&file, 0);
	strbuf_init(&setup, 0);
	strbuf_init(&common, 0);
	strbuf_init(&unit, 0);
	strbuf_init(&conf, 0);
	strbuf_init(&cnf, 0);
	strbuf_addf(&file, "%s-setup.sh", template_name);
	if ((ret = read_template(dir, file.buf, &setup)) < 0 || (ret = read_template(dir, "setup-common.sh", &common)) < 0 ||
	    (ret = read_template(dir, "dbrig-setup.service", &unit)) < 0 ||
	    (ret = setup_conf(s, !strcmp(template_name, "sqlserver"), &conf)) < 0 || (sysbench && (ret = server_cnf(s, &cnf)) < 0))
		goto out;
	/* cloud-config (in this order): the hostname, the SSH key, the packages unless the image
	 * has them, the setup script with its data files and the unit that runs it at every boot, and one runcmd
	 * that enables and starts the unit and the guest agent (one systemctl call: enable
	 * reloads systemd, so it sees the new unit; every extra reload costs seconds under TCG). */
	ud = json_object();
	put(ud, "hostname", json_string(s->hostname), &bad);
	if (s->ssh_key) {
		json_t *keys = json_array();
		push(keys, json_string(s->ssh_key), &bad);
		put(ud, "ssh_authorized_keys", keys, &bad);
	}
	if (s->packages) {
		json_t *pk = json_array();
		for (const char *p = s->packages; *p;) {
			size_t n = strcspn(p, " ");
			if (n)
				push(pk, json_stringn(p, n), &bad);
			p += n + (p[n] == ' ');
		}
		/* The vendor's sources, each with the key (cloud-init writes it and puts its path for
		 * $KEY_FILE), and the EULA answers, before the package step (apt_configure runs first). */
		if (s->apt_sources && s->apt_key) {
			json_t *apt = json_object(), *src = json_object();
			char name[32];
			for (size_t i = 0; s->apt_sources[i]; i++) {
				snprintf(name, sizeof(name), "dbrig-vendor-%zu.list", i + 1);
				put(src, name, json_pack("{ssss}", "source", s->apt_sources[i], "key", s->apt_key), &bad);
			}
			put(apt, "sources", src, &bad);
			if (s->debconf)
				put(apt, "debconf_selections", json_pack("{ss}", "dbrig", s->debconf), &bad);
			put(ud, "apt", apt, &bad);
		}
		put(ud, "package_update", json_true(), &bad);
		put(ud, "packages", pk, &bad);
	}
	/* The script and its parameters root's alone: they hold the database password. */
	files = json_array();
	add_file(files, "/usr/local/sbin/dbrig-setup.sh", "0600", &setup, &bad);
	add_file(files, "/usr/local/lib/dbrig/setup-common.sh", "0644", &common, &bad);
	add_file(files, "/etc/dbrig/setup.conf", "0600", &conf, &bad);
	if (sysbench)
		add_file(files, "/etc/dbrig/server.cnf", "0644", &cnf, &bad);
	add_file(files, "/etc/systemd/system/dbrig-setup.service", "0644", &unit, &bad);
	put(ud, "write_files", files, &bad);
	runcmd = json_array();
	push(runcmd, json_pack("[ssssss]", "systemctl", "enable", "--now", "--no-block", "qemu-guest-agent.service",
			       "dbrig-setup.service"), &bad);
	put(ud, "runcmd", runcmd, &bad);
	if ((ret = dump_json("user-data", ud, bad, "#cloud-config\n", user_data)) < 0)
		goto out;
	md = json_object();
	put(md, "instance-id", json_string(s->name), &bad);
	put(md, "local-hostname", json_string(s->hostname), &bad);
	ret = dump_json("meta-data", md, bad, "", meta_data);
out:
	json_decref(ud);
	json_decref(md);
	strbuf_release(&file);
	strbuf_release(&setup);
	strbuf_release(&common);
	strbuf_release(&unit);
	strbuf_release(&conf);
	strbuf_release(&cnf);
	return ret;
}
