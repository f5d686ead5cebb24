/* From an installed tree to what the loaders read: ICD manifests and env files. */
#include "store/envfiles.h"
#include "store/layout.h"
#include "base/jsontext.h"
#include "store/manifest.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "common/envfile.h"
#include "common/envvars.h"
#include "common/flatpakname.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What one selection's files say (NULL: the driver is absent, the file goes). */
struct rendered {
	char *icd_json;
	char *ocl_icd;
	struct strbuf env;
	/* GL (docs/design.md §6): glvnd's EGL vendor file, and the variables of GL on the
	 * release's own gallium driver and on Zink (buf NULL: none) */
	char *egl_vendor;
	struct strbuf gl_env, zink_env;
};

char *envfiles_icd_json(const char *lib, const char *api)
{
	json_object *root = json_object_new_object();
	json_object *icd = json_object_new_object();
	json_object_object_add(root, "file_format_version", json_object_new_string("1.0.0"));
	json_object_object_add(icd, "library_path", json_object_new_string(lib));
	json_object_object_add(icd, "api_version", json_object_new_string(api));
	json_object_object_add(root, "ICD", icd);
	char *text = xasprintf("%s\n", json_out(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return text;
}

char *envfiles_egl_vendor_json(const char *lib)
{
	json_object *root = json_object_new_object();
	json_object *icd = json_object_new_object();
	json_object_object_add(root, "file_format_version", json_object_new_string("1.0.0"));
	json_object_object_add(icd, "library_path", json_object_new_string(lib));
	json_object_object_add(root, "ICD", icd);
	char *text = xasprintf("%s\n", json_out(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return text;
}

/* What GL's loaders need to take the release's GL, measured on Mesa 22.3 and 25.0 with glvnd:
 * GL's folder on the library path (libgbm, libglapi or libgallium are found by soname), the
 * EGL vendor by its file, the DRI drivers' folder, GBM's backends', and the GLX vendor by its
 * name (GLX takes no path); on Zink, the loader's override, and software rendering asked for
 * when the release's GL is software alone, its Vulkan driver lavapipe (Zink refuses a CPU
 * device otherwise). */
static void render_gl(const struct manifest *m, const char *lib_base, const char *icd_dir,
		      struct rendered *r)
{
	char *lib = path_join(lib_base, m->egl_vendor_lib);
	r->egl_vendor = envfiles_egl_vendor_json(lib);
	free(lib);
	struct strbuf *sb = &r->gl_env;
	sb_appendf(sb, "%s=%s/%s%s\n", ENV_LD_LIBRARY_PATH, lib_base, m->gl_lib_dir, ENVFILE_LD_SUFFIX);
	sb_appendf(sb, "%s=%s/%s\n", ENV_EGL_VENDOR_FILES, icd_dir, STORE_EGL_VENDOR_NAME);
	sb_appendf(sb, "%s=%s/%s\n", ENV_LIBGL_DRIVERS_PATH, lib_base, m->gl_drivers_dir);
	if (m->gbm_backends_dir)
		sb_appendf(sb, "%s=%s/%s\n", ENV_GBM_BACKENDS_PATH, lib_base, m->gbm_backends_dir);
	char glx[MANIFEST_VALUE_MAX + 1];
	manifest_glx_vendor(m, glx, sizeof glx);
	if (*glx)
		sb_appendf(sb, "%s=%s\n", ENV_GLX_VENDOR_NAME, glx);
	if (!manifest_has_gallium(m, "zink"))
		return;
	sb_append(&r->zink_env, sb->buf);
	sb_appendf(&r->zink_env, "%s=zink\n", ENV_LOADER_DRIVER_OVERRIDE);
	if (manifest_gl_software(m))
		sb_appendf(&r->zink_env, "%s=1\n", ENV_LIBGL_ALWAYS_SOFTWARE);
}

/* lib_base: where the libraries are reached (versions/<v> or current); icd_dir: where the
 * selection's ICD files live. */
static void render(const struct manifest *m, const char *lib_base, const char *icd_dir,
		   int ld_library_path, struct rendered *r)
{
	memset(r, 0, sizeof *r);
	if (m->has_vulkan) {
		char *lib = path_join(lib_base, m->vulkan_lib);
		r->icd_json = envfiles_icd_json(lib, m->vulkan_api);
		free(lib);
		sb_appendf(&r->env, "%s=%s/%s\n", ENV_VK_DRIVER_FILES, icd_dir, STORE_VULKAN_ICD_NAME);
		sb_appendf(&r->env, "%s=%s/%s\n", ENV_VK_ICD_FILENAMES, icd_dir, STORE_VULKAN_ICD_NAME);
	}
	if (m->has_opencl) {
		r->ocl_icd = xasprintf("%s/%s\n", lib_base, m->opencl_lib);
		sb_appendf(&r->env, "%s=%s/%s\n", ENV_OCL_ICD_VENDORS, icd_dir, STORE_OPENCL_SUBDIR);
		sb_appendf(&r->env, "%s=%s\n", ENV_RUSTICL_ENABLE, m->rusticl_enable);
	}
	if (ld_library_path)
		sb_appendf(&r->env, "%s=%s/lib%s\n", ENV_LD_LIBRARY_PATH, lib_base, ENVFILE_LD_SUFFIX);
	if (!r->env.buf)
		sb_append(&r->env, "");
	if (m->has_gl)
		render_gl(m, lib_base, icd_dir, r);
}

static void rendered_free(struct rendered *r)
{
	free(r->icd_json);
	free(r->ocl_icd);
	sb_free(&r->env);
	free(r->egl_vendor);
	sb_free(&r->gl_env);
	sb_free(&r->zink_env);
}

/* Writes path with text, or removes it (text NULL). */
static int put(const char *path, const char *text, struct tb_error *e)
{
	if (text)
		return atomic_write_file(path, text, strlen(text), 0644, e);
	if (unlink(path) != 0 && errno != ENOENT)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", path);
	return TB_OK;
}

int envfiles_write_version(struct store *s, const struct manifest *m, int ld_library_path,
			   struct tb_error *e)
{
	char *tree = store_version_dir(s, m->version);
	char *icd_dir = store_icd_dir(s, m->version);
	char *ocl_dir = path_join(icd_dir, STORE_OPENCL_SUBDIR);
	char *icd_json = path_join(icd_dir, STORE_VULKAN_ICD_NAME);
	char *ocl_icd = path_join(ocl_dir, STORE_OPENCL_ICD_NAME);
	char *env_path = store_env_path(s, m->version);
	char *egl = path_join(icd_dir, STORE_EGL_VENDOR_NAME);
	char *gl_env = store_env_path_as(s, m->version, STORE_GL_SUFFIX);
	char *zink_env = store_env_path_as(s, m->version, STORE_ZINK_SUFFIX);
	struct rendered r;
	render(m, tree, icd_dir, ld_library_path, &r);
	/* icd/versions/<v>/opencl/, made as the layout says: never through a link */
	char *ocl_rel = xasprintf(STORE_ICD_VERSIONS "/%s/" STORE_OPENCL_SUBDIR, m->version);
	char *ocl_reached = store_reach_dir(s, ocl_rel, 1, e);
	int rc = ocl_reached ? TB_OK : e->code;
	free(ocl_rel);
	free(ocl_reached);
	if (!rc)
		rc = put(icd_json, r.icd_json, e);
	if (!rc)
		rc = put(ocl_icd, r.ocl_icd, e);
	if (!rc)
		rc = put(egl, r.egl_vendor, e);
	if (!rc)
		rc = put(gl_env, r.gl_env.buf, e);
	if (!rc)
		rc = put(zink_env, r.zink_env.buf, e);
	if (!rc) /* last: a version's files are complete once its env file is there */
		rc = put(env_path, r.env.buf, e);
	rendered_free(&r);
	free(egl);
	free(gl_env);
	free(zink_env);
	free(tree);
	free(icd_dir);
	free(ocl_dir);
	free(icd_json);
	free(ocl_icd);
	free(env_path);
	return rc;
}

/* Whether a version's env file asks for LD_LIBRARY_PATH (decided when it was unpacked). */
static int version_needs_ld_library_path(const struct store *s, const char *version)
{
	char *p = store_env_path(s, version);
	char *text = read_small_file(p, 64 * 1024, NULL);
	free(p);
	int yes = text && (!strncmp(text, ENV_LD_LIBRARY_PATH "=", strlen(ENV_LD_LIBRARY_PATH "=")) ||
			   strstr(text, "\n" ENV_LD_LIBRARY_PATH "="));
	free(text);
	return yes;
}

static int stage(struct txn *t, const char *rel, const char *text, struct tb_error *e)
{
	if (!text) {
		txn_remove(t, rel);
		return TB_OK;
	}
	return txn_put_file(t, rel, text, strlen(text), e);
}

/* env.conf's text: current's variables, then the GL the session asked for when the version
 * has it (its LD_LIBRARY_PATH line after the release's, so GL's folder comes first, as in
 * a run). */
static char *session_text(const struct rendered *r, enum session_gl gl)
{
	const char *extra = gl == SESSION_GL_NATIVE ? r->gl_env.buf : gl == SESSION_GL_ZINK ? r->zink_env.buf : NULL;
	return xasprintf("%s%s", r->env.buf ? r->env.buf : "", extra ? extra : "");
}

int envfiles_stage_current(struct store *s, const char *version, int enabled, enum session_gl gl,
			   const char *flatpak_drivers, struct txn *t, struct tb_error *e)
{
	struct rendered r = {0};
	int rc = TB_OK;
	if (version) {
		char *tree = store_version_dir(s, version);
		char *base = store_path(s, STORE_CURRENT);
		char *icd_dir = store_icd_dir(s, NULL);
		struct manifest m;
		rc = manifest_load(tree, &m, e);
		if (!rc) {
			render(&m, base, icd_dir, version_needs_ld_library_path(s, version), &r);
			manifest_free(&m);
		}
		free(tree);
		free(base);
		free(icd_dir);
	}
	if (!rc)
		rc = stage(t, STORE_CURRENT_VULKAN_ICD, r.icd_json, e);
	if (!rc)
		rc = stage(t, STORE_CURRENT_OPENCL_ICD, r.ocl_icd, e);
	if (!rc)
		rc = stage(t, STORE_CURRENT_EGL_VENDOR, r.egl_vendor, e);
	if (!rc)
		rc = stage(t, STORE_CURRENT_GL_ENV, r.gl_env.buf, e);
	if (!rc)
		rc = stage(t, STORE_CURRENT_ZINK_ENV, r.zink_env.buf, e);
	if (!rc)
		rc = stage(t, STORE_CURRENT_ENV, version ? r.env.buf : NULL, e);
	if (!rc) {
		char *session = version && enabled ? session_text(&r, gl) : xstrdup("");
		rc = stage(t, STORE_ENV_CONF, session, e);
		free(session);
	}
	if (!rc) {
		char *fp = version && enabled && flatpak_drivers
				   ? xasprintf("%s=%s\n", FLATPAK_GL_DRIVERS_VAR, flatpak_drivers)
				   : xstrdup("");
		rc = stage(t, STORE_FLATPAK_CONF, fp, e);
		free(fp);
	}
	rendered_free(&r);
	return rc;
}
