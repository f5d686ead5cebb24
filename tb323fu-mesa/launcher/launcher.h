/* The launcher's commands and what they share: loading the env file a run would use. */
#ifndef TB_LAUNCHER_H
#define TB_LAUNCHER_H

#include "common/envfile.h"
#include "common/exitcode.h"
#include "common/storepath.h"
#include "common/envvars.h"

struct launch_env {
	char path[STORE_PATH_MAX];
	const char *version; /* as asked for; NULL: current */
	char text[ENVFILE_MAX_BYTES + 1];
	struct env_list list;
};

/* Loads <root>/env/current.env or <root>/env/<version>.env. On failure prints the sentence
 * (nothing installed, version unknown or invalid, file unreadable or damaged) and returns the
 * exit code; 0 on success. */
int launch_env_load(struct launch_env *e, const char *root, const char *version);

/* Loads the GL of a run, <root>/env/<v><suffix> (suffix STORE_GL_SUFFIX: on the release's
 * own gallium driver, STORE_ZINK_SUFFIX: on Zink; docs/design.md §6): 0 when loaded, -1 when
 * the version has none (nothing said), or the exit code after saying what is wrong. */
int launch_gl_load(struct launch_env *g, const char *root, const char *version, const char *suffix);

/* --gl's word: launch_gl_mode_ok is 1 for native, zink or distro; launch_gl_mode_refused says
 * what --gl takes and returns the usage exit code. */
int launch_gl_mode_ok(const char *mode);
int launch_gl_mode_refused(const char *mode);

/* The GL of a run (docs/design.md §6) into g: the version's own (mode NULL or native), on Zink
 * (zink), or none (distro). NULL when the program keeps the GL it would have had (distro, or a
 * version without GL and no --gl), with *rc the exit status of a failure said; again is what
 * the sentence of a version without what --gl asks for tells the user to do next ("run it",
 * "ask again"). */
const struct env_list *launch_gl_select(struct launch_env *g, const char *root, const char *version,
					const char *mode, const char *again, int *rc);

/* Removes the selected variables (the store's GL's too), the keys of extra (may be NULL) and
 * the store's directories from LD_LIBRARY_PATH. Returns 0, or -1 when out of memory. */
int launch_env_clean(const char *root, const struct env_list *extra);

/* Sets the variables of the list over the current environment. Returns 0 or -1. */
int launch_env_apply(const struct env_list *list);

/* `flatpak run …` (launcher/flatpakrun.c, docs/design.md §17): 1 when argv starts so; the
 * variables that give the sandbox the version of e (its GL extension, which carries its GL
 * when it has one; gl_mode is --gl's word or NULL, gl the GL list run loaded for it or
 * NULL), 0 or the exit code said; and distro's: the runtime's own Mesa. */
int launch_is_flatpak_run(char **argv);
int launch_flatpak_env(const char *root, const struct launch_env *e, const char *gl_mode,
		       const struct env_list *gl);
void launch_flatpak_distro(void);
/* argv with the variables launch_flatpak_env gives on the command line (the sandbox's
 * OCL_ICD_VENDORS; the runtime's GL for --gl distro) as flatpak's --env= after `run` (the
 * command line is above the installation's override), or argv itself when there are none;
 * NULL when out of memory. */
char **launch_flatpak_argv(char **argv);

int cmd_env(const char *root, int argc, char **argv);
int cmd_which(const char *root, int argc, char **argv);

#endif
