/*
 * lv_stream_vol, the relay of a volume between two hosts, with libvirt's
 * stream calls replaced (the linker's --wrap, tests/CMakeLists.txt): a
 * source volume of a few MiB that a download stream hands out in pieces of
 * varying size, an upload stream that takes part of what it is given at a
 * time, and breaks of either half-way. libvirt's test driver has no
 * virStorageVolDownload; the QEMU end-to-end test streams for real.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <libvirt/libvirt.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "target/libvirt/libvirt.h"

#define SRC_BYTES (3u * (1u << 20) + 12345u)

static struct {
	unsigned char *src, *dst;
	size_t sent, got;      /* bytes the download handed out, the upload took */
	size_t break_recv_at;  /* the download fails once this much was handed out (0: never) */
	size_t break_send_at;  /* the upload fails once it holds this much (0: never) */
	size_t send_max;       /* the upload takes at most this much per call */
	int finished, aborted, freed, streams;
	int download_fails;
} w;

/* Stand-ins: the connections, volumes and streams are these addresses. */
static char conn_a, conn_b, vol_src, vol_dst, st_in, st_out;

virConnectPtr __wrap_virStorageVolGetConnect(virStorageVolPtr vol);
virStreamPtr __wrap_virStreamNew(virConnectPtr conn, unsigned int flags);
int __wrap_virStorageVolDownload(virStorageVolPtr vol, virStreamPtr st, unsigned long long offset,
				 unsigned long long length, unsigned int flags);
int __wrap_virStorageVolUpload(virStorageVolPtr vol, virStreamPtr st, unsigned long long offset,
			       unsigned long long length, unsigned int flags);
int __wrap_virStreamRecv(virStreamPtr st, char *data, size_t nbytes);
int __wrap_virStreamSend(virStreamPtr st, const char *data, size_t nbytes);
int __wrap_virStreamFinish(virStreamPtr st);
int __wrap_virStreamAbort(virStreamPtr st);
int __wrap_virStreamFree(virStreamPtr st);

virConnectPtr __wrap_virStorageVolGetConnect(virStorageVolPtr vol)
{
	return (virConnectPtr)(void *)((char *)(void *)vol == &vol_src ? &conn_a : &conn_b);
}

virStreamPtr __wrap_virStreamNew(virConnectPtr conn, unsigned int flags)
{
	(void)flags;
	w.streams++;
	return (virStreamPtr)(void *)((char *)(void *)conn == &conn_a ? &st_in : &st_out);
}

int __wrap_virStorageVolDownload(virStorageVolPtr vol, virStreamPtr st, unsigned long long offset,
				 unsigned long long length, unsigned int flags)
{
	assert_ptr_equal(vol, &vol_src);
	assert_ptr_equal(st, &st_in);
	assert_true(offset == 0 && length == 0 && flags == 0);
	return w.download_fails ? -1 : 0;
}

int __wrap_virStorageVolUpload(virStorageVolPtr vol, virStreamPtr st, unsigned long long offset,
			       unsigned long long length, unsigned int flags)
{
	assert_ptr_equal(vol, &vol_dst);
	assert_ptr_equal(st, &st_out);
	assert_true(offset == 0 && length == 0 && flags == 0);
	return 0;
}

int __wrap_virStreamRecv(virStreamPtr st, char *data, size_t nbytes)
{
	/* pieces of 300,000 bytes and less, as a remote stream's messages arrive */
	size_t n = SRC_BYTES - w.sent < 300000 ? SRC_BYTES - w.sent : 300000;

	assert_ptr_equal(st, &st_in);
	if (w.break_recv_at && w.sent >= w.break_recv_at)
		return -1;
	if (n > nbytes)
		n = nbytes;
	memcpy(data, w.src + w.sent, n);
	w.sent += n;
	return (int)n;
}

int __wrap_virStreamSend(virStreamPtr st, const char *data, size_t nbytes)
{
	size_t n = w.send_max && nbytes > w.send_max ? w.send_max : nbytes;

	assert_ptr_equal(st, &st_out);
	if (w.break_send_at && w.got >= w.break_send_at)
		return -1;
	assert_true(w.got + n <= SRC_BYTES);
	memcpy(w.dst + w.got, data, n);
	w.got += n;
	return (int)n;
}

int __wrap_virStreamFinish(virStreamPtr st)
{
	(void)st;
	w.finished++;
	return 0;
}

int __wrap_virStreamAbort(virStreamPtr st)
{
	(void)st;
	w.aborted++;
	return 0;
}

int __wrap_virStreamFree(virStreamPtr st)
{
	(void)st;
	w.freed++;
	return 0;
}

static int setup(void **state)
{
	(void)state;
	free(w.src);
	free(w.dst);
	memset(&w, 0, sizeof(w));
	w.src = malloc(SRC_BYTES);
	w.dst = calloc(1, SRC_BYTES);
	assert_non_null(w.src);
	assert_non_null(w.dst);
	for (size_t i = 0; i < SRC_BYTES; i++)
		w.src[i] = (unsigned char)(i * 2654435761u >> 13);
	return 0;
}

static int stream(uint64_t *copied)
{
	return lv_stream_vol((virStorageVolPtr)(void *)&vol_src, (virStorageVolPtr)(void *)&vol_dst, SRC_BYTES, 0,
			     "db/vm1", copied);
}

/* Every byte, in order, through short reads and short writes; both streams finished, none aborted. */
static void test_whole_volume(void **state)
{
	uint64_t copied = 0;

	(void)state;
	w.send_max = 70000;
	assert_int_equal(stream(&copied), 0);
	assert_int_equal(copied, SRC_BYTES);
	assert_int_equal(w.got, SRC_BYTES);
	assert_memory_equal(w.src, w.dst, SRC_BYTES);
	assert_int_equal(w.streams, 2);
	assert_int_equal(w.finished, 2);
	assert_int_equal(w.aborted, 0);
	assert_int_equal(w.freed, 2);
}

/* The download breaks half-way: an error, both streams aborted (never finished), what was relayed counted. */
static void test_download_breaks(void **state)
{
	uint64_t copied = 0;

	(void)state;
	w.break_recv_at = 1500000;
	assert_int_equal(stream(&copied), -EIO);
	assert_true(copied >= 1500000 && copied < SRC_BYTES);
	assert_int_equal(w.got, copied);
	assert_int_equal(w.finished, 0);
	assert_int_equal(w.aborted, 2);
	assert_int_equal(w.freed, 2);
}

/* The upload breaks half-way: the same. */
static void test_upload_breaks(void **state)
{
	uint64_t copied = 0;

	(void)state;
	w.break_send_at = 2000000;
	assert_int_equal(stream(&copied), -EIO);
	assert_true(copied < SRC_BYTES);
	assert_int_equal(w.finished, 0);
	assert_int_equal(w.aborted, 2);
	assert_int_equal(w.freed, 2);
}

/* The download cannot start: the upload never opened, nothing aborted but nothing finished. */
static void test_download_refused(void **state)
{
	uint64_t copied = 1;

	(void)state;
	w.download_fails = 1;
	assert_int_equal(stream(&copied), -EIO);
	assert_int_equal(copied, 0);
	assert_int_equal(w.got, 0);
	assert_int_equal(w.finished, 0);
	assert_int_equal(w.aborted, 0);
	assert_int_equal(w.freed, 2);
}

/* The progress line: bytes, share, rate, time left; and the final one. */
static void test_progress_line(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb, 0);
	lv_stream_progress("db/vm1", 512ull << 20, 1024ull << 20, 5.0, &sb);
	assert_string_equal(sb.buf, "db/vm1: streamed 512.0 of 1024.0 MiB (50%), 107.4 MB/s, 5 s left");
	strbuf_reset(&sb);
	lv_stream_progress("db/vm1", 1024ull << 20, 1024ull << 20, 10.0, &sb);
	assert_string_equal(sb.buf, "db/vm1: streamed 1024.0 MiB in 10.0 s, 107.4 MB/s");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_whole_volume, setup),
		cmocka_unit_test_setup(test_download_breaks, setup),
		cmocka_unit_test_setup(test_upload_breaks, setup),
		cmocka_unit_test_setup(test_download_refused, setup),
		cmocka_unit_test_setup(test_progress_line, setup),
	};
	int rc;

	/* (libvirt's error of the thread, which the failure lines print, needs it) */
	assert_int_equal(virInitialize(), 0);
	rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(w.src);
	free(w.dst);
	return rc;
}
