/* The files that select a version for the loaders: ICD manifests and env files
 * (docs/design.md §3). */
#ifndef TB_ENVFILES_H
#define TB_ENVFILES_H

#include "store/store.h"
#include "store/txn.h"
#include "store/state.h"
#include "base/error.h"

struct manifest;
/* Writes icd/versions/<v>/…, env/<v>.env for the version of m (its tree is, or is about to
 * be, versions/<v>); ld_library_path: the release needs its lib/ on LD_LIBRARY_PATH
 * (MANIFEST or ELF check). */
int envfiles_write_version(struct store *s, const struct manifest *m, int ld_library_path,
			   struct tb_error *e);
/* Prepares in t icd/turnip.json, icd/opencl/rusticl.icd and env/current.env for version as
 * current (through current/; their removal when version is NULL), env/current.gl and
 * env/current.zink, and env.conf (a copy of env/current.env when enabled, followed by
 * env/current.gl's or env/current.zink's lines when gl asks for them and the version has
 * them; else empty), and flatpak.conf: FLATPAK_GL_DRIVERS=<drivers> when enabled and
 * flatpak_drivers is not NULL (the ops layer decides it: current's export), else empty. */
int envfiles_stage_current(struct store *s, const char *version, int enabled, enum session_gl gl,
			   const char *flatpak_drivers, struct txn *t, struct tb_error *e);

/* A Vulkan ICD manifest naming lib (an absolute path) with api_version api, allocated. */
char *envfiles_icd_json(const char *lib, const char *api);
/* glvnd's EGL vendor file naming lib (an absolute path), allocated. */
char *envfiles_egl_vendor_json(const char *lib);

#endif
