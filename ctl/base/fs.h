/* Files and directories as the store needs them: made whole or not at all, never through a
 * planted link, never waiting on a FIFO. */
#ifndef TB_FS_H
#define TB_FS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/error.h"

/* mkdir -p with the given mode for the directories it creates. */
int mkdir_p(const char *path, mode_t mode, struct tb_error *e);
/* mkdir -p of rel below base (base itself is taken as it is): each level is opened without
 * following a link (O_NOFOLLOW|O_DIRECTORY) and made when missing, so nothing is ever created
 * through a link planted at one of them. A link (or a file) at a level is refused before
 * anything is made (reason not-ours: we did not put it there): "LEVEL is a symbolic link where a folder of ours belongs;
 * remove it (rm LEVEL) and run the command again". */
int mkdir_below(const char *base, const char *rel, mode_t mode, struct tb_error *e);
/* rm -rf that never follows symbolic links; a missing path is fine. */
int remove_tree(const char *path);
int path_exists(const char *path);
int is_directory(const char *path);

/* Writes a temporary in the same directory, fsyncs it, renames it over path, fsyncs the
 * directory: readers see the old or the new content, never a half one. */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
		      struct tb_error *e);
/* A file written as a stream and put in place whole: a fresh temporary of an unpredictable
 * name beside path (.<name>.tmp.XXXXXX, made with O_CREAT|O_EXCL|O_NOFOLLOW, so nothing planted
 * in the folder is ever written through), renamed over path by atomic_out_commit. Every
 * command's writes go through it or through atomic_write_file, which uses it. */
struct atomic_out {
	int fd;
	char *tmp, *path;
	mode_t mode;
};
/* Opens the temporary; fills o (fd >= 0) or fails with "cannot write PATH". */
int atomic_out_open(struct atomic_out *o, const char *path, mode_t mode, struct tb_error *e);
/* Writes len bytes to the temporary. */
int atomic_out_write(struct atomic_out *o, const void *data, size_t len, struct tb_error *e);
/* Sets the mode, fsyncs (when sync), renames over path, fsyncs the folder; on failure the
 * temporary is removed. Frees o either way. */
int atomic_out_commit(struct atomic_out *o, int sync, struct tb_error *e);
/* Removes the temporary and frees o (safe on an o that failed to open). */
void atomic_out_abort(struct atomic_out *o);

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
/* fopen(path, "re") for a file read a line at a time, taken only when it is a regular file:
 * opened without waiting (O_NONBLOCK, so a FIFO's open returns at once), fstat'ed, then read
 * blocking. NULL with errno set on failure, ESPIPE for a FIFO or a device, EISDIR for a
 * folder (tb_fail_errno words both for people). */
FILE *fopen_regular(const char *path);
/* The same for a file of the store that is only ever replaced by rename: a symbolic link
 * there was planted and is not followed (ELOOP). */
char *read_small_file_nofollow(const char *path, size_t max, size_t *len_out);

#endif
