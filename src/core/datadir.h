/*
 * Where dbrig's data is: vm-templates/, reports/published/ and sql/.
 *
 * An installed dbrig (`cmake --install`, any prefix) finds them in
 * <prefix>/share/dbrig, <prefix> being the folder above the one that holds
 * the running binary, so an installed tree can be moved as a whole. A build
 * tree's binary finds <build>/share/dbrig, which CMake links to the sources.
 * DBRIG_DATA_DIR, when set and not empty, overrides both. No source path is
 * compiled in.
 */
#ifndef DBRIG_CORE_DATADIR_H
#define DBRIG_CORE_DATADIR_H

#include <stddef.h>

/* The data folder of the binary at `exe` (the first of <exe's folder>/../share/dbrig
 * and <exe's folder>/share/dbrig that is a folder; the first when neither is),
 * into out; -1 when it does not fit. */
int datadir_of(const char *exe, char *out, size_t outlen);
/* The running binary's data folder (DBRIG_DATA_DIR, else datadir_of(/proc/self/exe)),
 * worked out once; "" when /proc/self/exe cannot be read. */
const char *datadir(void);
/* datadir()/rel, newly allocated (the caller frees it). */
char *datadir_path(const char *rel);

#endif
