/*
 * What a campaign reads back while its drivers run, through the same strict
 * readers as `dbrig report`: the newest interval of each journal (a line that
 * does not read is skipped: the driver may be writing it) and the sample
 * phase of a finished result.
 */
#include "result/tail.h"

#include "core/fileio.h"
#include "core/jsonr.h"
#include "core/log.h"
#include "result/model.h"
#include "result/read.h"
#include "result/result.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	struct strbuf err;
	struct jsonr jr = {.file = "journal", .err = &err};
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *type;
	unsigned n = 0;

	if (!json_is_object(o)) {
		json_decref(o);
		return 0;
	}
	strbuf_init(&err, 0);
	type = jsonr_str(&jr, o, "", "type", JSONR_REQUIRED, "");
	if (!strcmp(type, "interval")) {
		const char *ph = jsonr_str(&jr, o, "", "phase", JSONR_REQUIRED, "?");
		double t = jsonr_num(&jr, o, "", "t", JSONR_REQUIRED, 0, 0);
		double phase_t = jsonr_num(&jr, o, "", "phase_t", JSONR_OPTIONAL, 0, 0);
		double tps = jsonr_num(&jr, o, "", "tps", JSONR_REQUIRED, 0, 0);
		if (!jr.failed) {
			snprintf(jt->phase, sizeof(jt->phase), "%s", ph);
			jt->t = t;
			jt->phase_t = phase_t;
			jt->tps = tps;
			jt->intervals++;
			n = 1;
		}
	} else if (!strcmp(type, "end")) {
		jt->ended = true;
	}
	strbuf_release(&err);
	json_decref(o);
	return n;
}

unsigned journal_poll(const char *path, struct journal_tail *jt)
{
	/* open_for_read: a FIFO planted as a journal is never waited on. */
	struct stat st;
	int fd = open_for_read(path, &st);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	char buf[65536];
	size_t got;
	unsigned n = 0;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
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
	struct strbuf err;
	struct run *r = NULL;
	char *text = NULL;
	int ret;

	ret = read_file(path, &text, NULL);
	if (ret < 0)
		return ret == -ENOENT ? -ENOENT : ret;
	strbuf_init(&err, 0);
	ret = results_parse_result(path, text, &r, &err);
	if (ret != 0) {
		if (ret > 0)
			log_error("%s: not a dbrig result (expected \"schema\": \"" RESULT_MAJOR "\")", path);
		else
			log_error("%s", err.buf);
		ret = -EINVAL;
		goto out;
	}
	snprintf(out->status, sizeof(out->status), "%s", run_status_name(r->status));
	if (!r->sample.present) {
		log_error("%s: .phases.sample has no tps and latency_ms.avg (expected a run that reached its sample phase)",
			  path);
		ret = -EINVAL;
		goto out;
	}
	out->tps = r->sample.tps;
	out->avg_ms = r->sample.lat_avg_ms;
	out->p99_ms = r->sample.has_p99 && !r->sample.p99_from_hist ? r->sample.p99_ms : -1;
out:
	run_free(r);
	free(text);
	strbuf_release(&err);
	return ret;
}
