/* Files and directories as the store needs them: made whole or not at all, never through a
 * planted link, never waiting on a FIFO. */
#ifndef TB_FS_H
#define TB_FS_H

#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"

/* mkdir -p with the given mode for the directories it creates. */
int mkdir_p(const char *path, mode_t mode, struct tb_error *e);
/* rm -rf that never follows symbolic links; a missing path is fine. */
int remove_tree(const char *path);
int path_exists(const char *path);
int is_directory(const char *path);

/* Writes a temporary in the same directory, fsyncs it, renames it over path, fsyncs the
 * directory: readers see the old or the new content, never a half one. */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
		      struct tb_error *e);
/* Replaces (or creates) the symbolic link path -> target by rename. */
int atomic_symlink(const char *target, const char *path, struct tb_error *e);
int fsync_dir(const char *dir);

/* A new private directory $TMPDIR/NAME.XXXXXX (else under /tmp), allocated; NULL with a
 * sentence ("cannot create a temporary directory for WHAT", reason failed) when it cannot be
 * made. The caller removes it (remove_tree) and frees the path. */
char *temp_dir_make(const char *name, const char *what, struct tb_error *e);

/* Reads a whole small regular file (at most max bytes, NUL-terminated); NULL with errno set
 * on failure: E2BIG when larger than max, ESPIPE when it is not a regular file (a FIFO, a
 * device: never waited on, never read). tb_fail_errno words both for people. */
char *read_small_file(const char *path, size_t max, size_t *len_out);
/* The same for a file of the store that is only ever replaced by rename: a symbolic link
 * there was planted and is not followed (ELOOP). */
char *read_small_file_nofollow(const char *path, size_t max, size_t *len_out);

#endif
