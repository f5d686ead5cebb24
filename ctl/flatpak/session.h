/* What a Flatpak application started from the session gets (docs/design.md §17, "From the
 * session"): the session's flatpak.conf names current's extension (FLATPAK_GL_DRIVERS), and
 * each installation's global override keeps the store's OCL_ICD_VENDORS, a path of this
 * system that means nothing inside, out of the sandbox. */
#ifndef TB_FLATPAK_SESSION_H
#define TB_FLATPAK_SESSION_H
#include "store/store.h"

/* flatpak.conf's FLATPAK_GL_DRIVERS while on: "<name>:default" when the user's or the
 * system's installation has this store's export of version; else NULL. Allocated. */
char *flatpak_session_drivers(const struct store *s, const char *version);
/* Our keys in <installation>/overrides/global (a GKeyFile, flatpak's own; every other group,
 * key and comment kept) of the user's and the system's installation, each that exists and
 * this process may write: on, [Environment] OCL_ICD_VENDORS=, LIBGL_DRIVERS_PATH= and
 * GBM_BACKENDS_PATH= (the session's paths of this system) and their names in [Context]
 * unset-environment, as `flatpak override --unset-env` writes them (flatpak unsets them
 * inside), each marked as ours; off, ours removed (a key someone else wrote is left alone,
 * and not put in). Best effort:
 * the override is right in either state, so a failure changes nothing else. A link where
 * an installation's overrides/ folder belongs is never written through: its path goes into
 * linked (n bytes, ", " between; "" when none) for the command's warning. */
void flatpak_session_override(int on, char *linked, size_t n);
/* The override's text (len bytes; NULL: there is none) with our keys put in (on) or taken
 * out: the new text (allocated, *out_len its length), or NULL when nothing changes (ours are
 * there already, or are not; someone else's keys; not a key file). */
char *flatpak_override_edit(const char *text, size_t len, int on, size_t *out_len);
/* Whether the installation's global override holds our key: 1 ours, 0 none, -1 someone
 * else's OCL_ICD_VENDORS. */
int flatpak_session_override_state(int user);
/* The installation's override file (allocated; NULL without a home). */
char *flatpak_override_path(int user);

#endif
