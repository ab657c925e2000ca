/*
 * Files that must never be left half-written: results, state, reports.
 * atomic_write_file writes to a new "<path>.tmp.<random>" in the same folder,
 * created exclusively (O_EXCL | O_NOFOLLOW: nothing planted there is ever
 * followed or reused), fsyncs it, renames it over `path` and fsyncs the
 * folder. On any failure before the rename the temporary file is removed,
 * `path` is untouched, and -errno is returned; once renamed the call returns
 * 0 (a folder that cannot be synced is a warning: the new file is in place).
 *
 * Output paths are regular files or new names, nothing else: a `path` that
 * is a symbolic link (-ELOOP), or a FIFO, device, socket or folder (-EINVAL),
 * is refused before anything is written, so that neither a link nor a device
 * node (--result=/dev/null as root) is ever replaced or followed.
 * write_file_strerror says which in words.
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
/*
 * The one way to open a file dbrig appends to or rewrites in place (journals,
 * the Delivery log's temporary file): created with `mode` if missing, never
 * through a symbolic link (O_NOFOLLOW: -ELOOP), never a FIFO, device or
 * folder (-EINVAL, checked before the open and again on the open fd, and a
 * FIFO is never waited on). WRITE_TRUNC empties an existing file once it is
 * known to be a regular one; WRITE_APPEND keeps it and appends. Returns the
 * fd (O_CLOEXEC) or -errno.
 */
enum write_how { WRITE_TRUNC, WRITE_APPEND };
int open_for_write(const char *path, enum write_how how, unsigned mode) __attribute__((warn_unused_result));
/* Whether `path` may be written by either: 0 (nothing there, or a regular file), -ELOOP or -EINVAL as above. */
int output_path_check(const char *path) __attribute__((warn_unused_result));
/* The -errno of atomic_write_file or open_for_write in words ("a symbolic link (expected …)"). */
const char *write_file_strerror(int err);

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
/* The one way to open a file dbrig reads: the fd (O_CLOEXEC, its fstat in
 * *st) of a regular file, else -EINVAL (never waiting on a FIFO) or -errno. */
struct stat;
int open_for_read(const char *path, struct stat *st) __attribute__((warn_unused_result));
const char *read_file_strerror(int err);
/* mkdir -p; returns 0 or -errno. */
int mkdir_p(const char *path, unsigned mode) __attribute__((warn_unused_result));

#endif
