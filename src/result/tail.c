#include "result/tail.h"

#include "core/log.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

void journal_tail_init(struct journal_tail *jt)
{
	memset(jt, 0, sizeof(*jt));
	strbuf_init(&jt->partial, 0);
}

void journal_tail_release(struct journal_tail *jt)
{
	strbuf_release(&jt->partial);
}

static unsigned take_line(struct journal_tail *jt, const char *line, size_t len)
{
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *type = json_string_value(json_object_get(o, "type"));
	unsigned n = 0;

	if (type && !strcmp(type, "interval")) {
		const char *ph = json_string_value(json_object_get(o, "phase"));
		snprintf(jt->phase, sizeof(jt->phase), "%s", ph ? ph : "?");
		jt->t = json_number_value(json_object_get(o, "t"));
		jt->phase_t = json_number_value(json_object_get(o, "phase_t"));
		jt->tps = json_number_value(json_object_get(o, "tps"));
		jt->intervals++;
		n = 1;
	} else if (type && !strcmp(type, "end")) {
		jt->ended = true;
	}
	json_decref(o);
	return n;
}

unsigned journal_poll(const char *path, struct journal_tail *jt)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t got;
	unsigned n = 0;

	if (!f)
		return 0;
	if (fseek(f, jt->off, SEEK_SET) < 0) {
		fclose(f);
		return 0;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
		jt->off += (long)got;
		for (size_t i = 0; i < got; i++) {
			if (buf[i] != '\n') {
				strbuf_addc(&jt->partial, buf[i]);
				continue;
			}
			n += take_line(jt, jt->partial.buf, jt->partial.len);
			strbuf_reset(&jt->partial);
		}
	}
	fclose(f);
	return n;
}

int result_read_summary(const char *path, struct result_summary *out)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr), *sample, *lat, *p99;
	int ret = -EINVAL;

	if (!root) {
		FILE *f = fopen(path, "r");
		if (!f)
			return -ENOENT;
		fclose(f);
		log_error("%s: line %d: %s (expected a dbrig result)", path, jerr.line, jerr.text);
		return -EINVAL;
	}
	snprintf(out->status, sizeof(out->status), "%s",
		 json_is_string(json_object_get(root, "status")) ? json_string_value(json_object_get(root, "status")) : "?");
	sample = json_object_get(json_object_get(root, "phases"), "sample");
	lat = json_object_get(sample, "latency_ms");
	if (!json_is_object(sample) || !json_is_number(json_object_get(sample, "tps")) ||
	    !json_is_number(json_object_get(lat, "avg"))) {
		log_error("%s: .phases.sample has no tps and latency_ms.avg (expected a run that reached its sample phase)",
			  path);
		goto out;
	}
	out->tps = json_number_value(json_object_get(sample, "tps"));
	out->avg_ms = json_number_value(json_object_get(lat, "avg"));
	p99 = json_object_get(json_object_get(lat, "percentiles"), "99");
	out->p99_ms = json_is_number(p99) ? json_number_value(p99) : -1;
	ret = 0;
out:
	json_decref(root);
	return ret;
}
