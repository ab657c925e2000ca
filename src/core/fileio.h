/*
 * Files that must never be left half-written: results, state, reports.
 * atomic_write_file writes to "<path>.tmp.<pid>" in the same folder, fsyncs it,
 * renames it over `path` and fsyncs the folder. On any failure the temporary
 * file is removed, `path` is untouched, and -errno is returned.
 */
#ifndef DBRIG_CORE_FILEIO_H
#define DBRIG_CORE_FILEIO_H

#include <stddef.h>

int atomic_write_file(const char *path, const void *data, size_t len) __attribute__((warn_unused_result));
/* Read a whole file (NUL-terminated). Returns 0 or -errno. */
int read_file(const char *path, char **out, size_t *len) __attribute__((warn_unused_result));
/* mkdir -p; returns 0 or -errno. */
int mkdir_p(const char *path, unsigned mode) __attribute__((warn_unused_result));

#endif
