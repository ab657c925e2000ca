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
 * Several files that appear together or not at all (a report's md, html, csv
 * and json): atomic_set_add writes and fsyncs each one's temporary file (on
 * an error nothing of the set has changed); atomic_set_commit renames them
 * all, and if a rename fails it puts the old files back (each existing one is
 * first linked to a backup name) and removes the new ones, then returns
 * -errno with *failed_path naming the file (valid until the release).
 * atomic_set_release removes
 * whatever temporary or backup file is left. Only a crash between the renames
 * can leave a mixed set (with the backups beside it).
 */
struct atomic_set {
	size_t n;
	struct atomic_set_file {
		char *path, *tmp, *bak;
	} *v;
};
void atomic_set_init(struct atomic_set *set);
int atomic_set_add(struct atomic_set *set, const char *path, const void *data, size_t len)
	__attribute__((warn_unused_result));
int atomic_set_commit(struct atomic_set *set, const char **failed_path) __attribute__((warn_unused_result));
void atomic_set_release(struct atomic_set *set);

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
