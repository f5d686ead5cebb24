/* From an installed tree to what the loaders read: ICD manifests and env files. */
#include "store/envfiles.h"
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
}

static void rendered_free(struct rendered *r)
{
	free(r->icd_json);
	free(r->ocl_icd);
	sb_free(&r->env);
}

/* Writes path with text, or removes it (text NULL). */
static int put(const char *path, const char *text, struct tb_error *e)
{
	if (text)
		return atomic_write_file(path, text, strlen(text), 0644, e);
	if (unlink(path) != 0 && errno != ENOENT)
		return tb_fail_errno(e, TB_R_FAILED, "cannot remove %s", path);
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
	struct rendered r;
	render(m, tree, icd_dir, ld_library_path, &r);
	int rc = mkdir_p(ocl_dir, 0755, e);
	if (!rc)
		rc = put(icd_json, r.icd_json, e);
	if (!rc)
		rc = put(ocl_icd, r.ocl_icd, e);
	if (!rc)
		rc = put(env_path, r.env.buf, e);
	rendered_free(&r);
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

int envfiles_stage_current(struct store *s, const char *version, int enabled,
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
		rc = stage(t, STORE_CURRENT_ENV, version ? r.env.buf : NULL, e);
	if (!rc)
		rc = stage(t, STORE_ENV_CONF, version && enabled ? r.env.buf : "", e);
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
