/* The store's layout as one table (docs/design.md §3) and the one way every command reaches a
 * path of it: from the root, a level at a time, never through a link (openat with
 * O_NOFOLLOW, as systemd's chase() walks a tree). A link, a file or a FIFO where the layout
 * says a folder stands, or anything but a file (or the link a rename replaces) where it says
 * a file stands, is refused (reason damaged, naming the part and what to do); a folder the
 * layout lets be missing is made when the caller asks. */
#ifndef TB_STORE_LAYOUT_H
#define TB_STORE_LAYOUT_H

#include <stddef.h>

#include "base/error.h"

struct store;

/* What may stand at a part (or'ed). */
enum part_kind { PART_DIR = 1, PART_FILE = 2, PART_LINK = 4 };

struct store_part {
	const char *path;    /* relative to the root; "*" stands for one name (fnmatch) */
	int kind;            /* what may stand there */
	const char *made_by; /* who makes it when it is missing (docs/design.md §3) */
};
/* Every path of the store, the more particular before the more general. */
extern const struct store_part store_layout[];
extern const size_t store_layout_count;

/* The row of the layout rel (relative to the root) is, NULL when none. */
const struct store_part *store_part_find(const char *rel);
/* "a folder", "a file", "a symbolic link", "a special file" (a FIFO, a device, a socket). */
const char *part_kind_name(int kind);
/* The refusal of a part that is not of the kinds in want (reason damaged). */
int store_part_refuse(const char *root, const char *rel, int have, int want, struct tb_error *e);

/* The folder rel of the layout, reached from the root without following a link: every level
 * must be a folder. With make, a missing level is made (0755); without, a missing folder is
 * no failure (its path comes back all the same, for a reader to find nothing there).
 * Returns the path (free it), NULL with e set when refused. */
char *store_reach_dir(const struct store *s, const char *rel, int make, struct tb_error *e);
/* A file of the layout: its folder reached as store_reach_dir does (made with make_dir), the
 * file absent or of a kind its row allows (a regular file; a link only at the files a commit
 * replaces by rename, which never writes through it). Returns the path (free it), NULL with e
 * set when refused. */
char *store_reach_file(const struct store *s, const char *rel, int make_dir, struct tb_error *e);

#endif
