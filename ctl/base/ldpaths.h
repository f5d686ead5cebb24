/* The directories the dynamic linker searches for a library by name on this system:
 * /etc/ld.so.conf with its include globs, then the defaults (multiarch dirs, /lib, /usr/lib). */
#ifndef TB_LDPATHS_H
#define TB_LDPATHS_H

#include <stddef.h>

/* The system's library directories, in search order and without duplicates, for the machine
 * named arch (uname -m style). conf is the ld.so.conf to read (NULL: /etc/ld.so.conf); a
 * missing file only leaves the defaults. Only existing directories are listed. Free with
 * ld_paths_free. */
char **ld_system_dirs(const char *conf, const char *arch, size_t *n);
void ld_paths_free(char **dirs, size_t n);

/* The Debian multiarch tuple of arch ("x86_64" → "x86_64-linux-gnu"), or NULL. */
const char *ld_multiarch_tuple(const char *arch);

#endif
