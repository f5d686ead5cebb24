/* Programs run from a path the tool was given or configured: only from where no one else
 * can change them. */
#ifndef TB_TRUSTED_PATH_H
#define TB_TRUSTED_PATH_H

#include "base/error.h"

/* TB_OK when the program at path, and every folder on the way to it (through every symbolic
 * link on the way, each link's own folder included), belongs to root (or, when this process
 * is not root, to root or to its user) and is writable by its owner alone; a folder writable
 * by others with the sticky bit (/tmp) is passed, as its entries still belong to whoever made
 * them; not as root, writable by the caller's own private group too (Debian's umask 002,
 * the group named as the user with no one else in it). This is the rule sudo and the dynamic
 * linker apply to what they run or load. Else one
 * sentence naming what (such as "the OpenCL-CTS binary"), the path, the part at fault and the
 * fix: TB_EFAIL, reason "failed". */
int trusted_program_path(const char *path, const char *what, struct tb_error *e);

#endif
