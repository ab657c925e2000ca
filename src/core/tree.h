/*
 * Folder trees of the local target: copy (reflink where the filesystem can),
 * remove, and the marker that says dbrig created a folder. A tree is removed
 * only when its top folder carries the marker, so dbrig never deletes what it
 * did not create.
 */
#ifndef DBRIG_CORE_TREE_H
#define DBRIG_CORE_TREE_H

#include <stdbool.h>

#define TREE_MARKER ".dbrig-created"

/* Create `path` (parents too) and mark it, unless it exists; 0 or -errno. */
int tree_make_marked(const char *path, const char *what) __attribute__((warn_unused_result));
bool tree_is_marked(const char *path);
/* Remove a marked tree; -EPERM when `path` exists without the marker; 0 when absent. */
int tree_remove_marked(const char *path) __attribute__((warn_unused_result));
/* Remove `name` inside the marked folder `dir` (0 when absent). */
int tree_remove_child(const char *dir, const char *name) __attribute__((warn_unused_result));
/*
 * Copy the tree `src` to `dst` (which must not exist): FICLONE per file,
 * falling back to a plain copy; every file is fdatasync'ed so the copy's
 * write-back does not spill into the measured run. *reflinked tells whether
 * every file was cloned.
 */
int tree_copy(const char *src, const char *dst, bool *reflinked) __attribute__((warn_unused_result));

#endif
