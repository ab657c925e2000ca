/*
 * A volume copied from one libvirt host to another through two streams: a
 * download of the source volume (virStorageVolDownload) on its host's
 * connection, an upload into the destination volume (virStorageVolUpload) on
 * the other's, relayed here a chunk at a time. This is how a drive on another
 * host receives the golden copy (golden.c, through storage.c's
 * lv_stream_into): libvirt has no copy between hosts of its own.
 */
#include "target/libvirt/libvirt.h"

#include "core/clock.h"
#include "core/log.h"
#include "core/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>
#include <stdlib.h>
#include <string.h>

/* The relay's chunk; libvirt itself splits a stream into messages of 256 KiB. */
#define LV_STREAM_CHUNK (1u << 20)

void lv_stream_progress(const char *what, uint64_t done, uint64_t total, double seconds, struct strbuf *out)
{
	double rate = seconds > 0 ? (double)done / seconds : 0;

	if (done >= total) {
		strbuf_addf(out, "%s: streamed %.1f MiB in %.1f s, %.1f MB/s", what, (double)done / (1 << 20), seconds,
			    rate / 1e6);
		return;
	}
	strbuf_addf(out, "%s: streamed %.1f of %.1f MiB (%.0f%%), %.1f MB/s", what, (double)done / (1 << 20),
		    (double)total / (1 << 20), 100.0 * (double)done / (double)total, rate / 1e6);
	if (rate > 0)
		strbuf_addf(out, ", %.0f s left", (double)(total - done) / rate);
}

static void progress(const char *what, uint64_t done, uint64_t total, uint64_t t0)
{
	struct strbuf sb;

	strbuf_init(&sb, 0);
	lv_stream_progress(what, done, total, (double)(clock_now_ns() - t0) / 1e9, &sb);
	log_info("%s", sb.buf);
	strbuf_release(&sb);
}

int lv_stream_vol(virStorageVolPtr src, virStorageVolPtr dst, uint64_t total, uint64_t progress_ns, const char *what,
		  uint64_t *copied)
{
	virStreamPtr in = NULL, out = NULL;
	uint64_t t0 = clock_now_ns(), last = t0, done = 0;
	char *buf = NULL;
	int ret = -EIO;
	bool in_open = false, out_open = false;

	*copied = 0;
	in = virStreamNew(virStorageVolGetConnect(src), 0);
	out = virStreamNew(virStorageVolGetConnect(dst), 0);
	if (!in || !out) {
		lv_vir_fail(what, "virStreamNew");
		goto out;
	}
	/* Offset 0, length 0: the whole volume, each way. */
	if (virStorageVolDownload(src, in, 0, 0, 0) < 0) {
		lv_vir_fail(what, "virStorageVolDownload");
		goto out;
	}
	in_open = true;
	if (virStorageVolUpload(dst, out, 0, 0, 0) < 0) {
		lv_vir_fail(what, "virStorageVolUpload");
		goto out;
	}
	out_open = true;
	buf = xmalloc(LV_STREAM_CHUNK);
	for (;;) {
		int n = virStreamRecv(in, buf, LV_STREAM_CHUNK);

		if (n < 0) {
			/* -2 is "would block", which a blocking stream never says */
			lv_vir_fail(what, "virStreamRecv");
			goto out;
		}
		if (n == 0)
			break;
		for (int off = 0; off < n;) {
			int m = virStreamSend(out, buf + off, (size_t)(n - off));
			if (m <= 0) {
				lv_vir_fail(what, "virStreamSend");
				goto out;
			}
			off += m;
		}
		done += (uint64_t)n;
		if (progress_ns && clock_now_ns() - last >= progress_ns) {
			last = clock_now_ns();
			progress(what, done, total, t0);
		}
	}
	in_open = false;
	if (virStreamFinish(in) < 0) {
		lv_vir_fail(what, "virStreamFinish (download)");
		goto out;
	}
	out_open = false;
	if (virStreamFinish(out) < 0) {
		lv_vir_fail(what, "virStreamFinish (upload)");
		goto out;
	}
	progress(what, done, done, t0);
	ret = 0;
out:
	/* A broken relay ends both streams: the destination is then incomplete (the caller removes it). */
	if (in_open)
		virStreamAbort(in);
	if (out_open)
		virStreamAbort(out);
	if (in)
		virStreamFree(in);
	if (out)
		virStreamFree(out);
	free(buf);
	*copied = done;
	return ret;
}
