/* A release from a staged tree: its files and links read into a MANIFEST's lists, and the
 * tarball (MANIFEST first, then tree/) written reproducibly: entries sorted by path, owner
 * root:root (0:0), every time the caller's (SOURCE_DATE_EPOCH), the compressor's settings fixed. */
#ifndef TB_PACKWRITER_H
#define TB_PACKWRITER_H

#include <stddef.h>
#include <stdint.h>

#include "store/manifest.h"
#include "base/error.h"

struct pack_tree {
	struct manifest m; /* files and links only */
	int keep_links;    /* links stay links; otherwise each is stored as a copy of its target */
	size_t cap_files, cap_links;
	char **dirs;
	size_t n_dirs, cap_dirs;
};

/* Adds stage/rel (a directory; missing is empty) and all below it. */
int pack_tree_walk(const char *stage, const char *rel, struct pack_tree *st, struct tb_error *e);
/* Sorts the directories, files and links by path, for a tarball that is the same from the same
 * tree. */
void pack_tree_sort(struct pack_tree *st);
void pack_tree_free(struct pack_tree *st);

/* Writes path (through the atomic writer of base/fs.h, renamed when complete) with the MANIFEST text and the tree's
 * entries, compressed as compress says (gz, zst or xz), every entry's time mtime (seconds since
 * the epoch); hex gets its SHA-256. */
int pack_write_tarball(const struct pack_tree *st, const char *stage, const char *text,
		       const char *path, const char *compress, int64_t mtime, char hex[65],
		       struct tb_error *e);

#endif
