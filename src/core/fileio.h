/*
 * Files that must never be left half-written: results, state, reports.
 * atomic_write_file writes to a new "<path>.tmp.<random>" in the same folder,
 * created exclusively (O_EXCL | O_NOFOLLOW: nothing planted there is ever
 * followed or reused), fsyncs it, renames it over `path` and fsyncs the
 * folder. On any failure before the rename the temporary file is removed,
 * `path` is untouched, and -errno is returned; once renamed the call returns
 * 0 (a folder that cannot be synced is a warning: the new file is in place).
 */
#ifndef DBRIG_CORE_FILEIO_H
#define DBRIG_CORE_FILEIO_H

#include <stddef.h>

int atomic_write_file(const char *path, const void *data, size_t len) __attribute__((warn_unused_result));
/* The same with the file's mode (0644 above; 0600 for secrets), less the umask. */
int atomic_write_file_mode(const char *path, const void *data, size_t len, unsigned mode)
	__attribute__((warn_unused_result));
/*
 * Read a whole regular file (NUL-terminated) of at most READ_FILE_MAX bytes.
 * Returns 0 or -errno: -EINVAL for anything but a regular file (a FIFO is
 * never waited on, a device never read), -EFBIG beyond the bound.
 * read_file_strerror says which in words.
 */
#define READ_FILE_MAX (256u << 20)
#define READ_FILE_MAX_TEXT "256 MiB"
int read_file(const char *path, char **out, size_t *len) __attribute__((warn_unused_result));
const char *read_file_strerror(int err);
/* mkdir -p; returns 0 or -errno. */
int mkdir_p(const char *path, unsigned mode) __attribute__((warn_unused_result));

#endif
