/* From an unpacked tree to what programs load: ICD files, env files, links, trial, smoke. */
#include "activate.h"
#include "manifest.h"
#include "state.h"
#include "suite_piglit.h"

#include <errno.h>
#include <stdio.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where one selection's files go and where its libraries are reached from. */
struct selection {
	const char *lib_base; /* <root>/versions/<v> or <root>/current */
	const char *icd_json; /* the Vulkan ICD manifest */
	const char *ocl_dir;  /* the OpenCL vendors directory */
	const char *env_path;
	int ld_library_path;
};

static int write_icd_json(const char *path, const char *lib, const char *api, struct tb_error *e)
{
	json_object *root = json_object_new_object();
	json_object *icd = json_object_new_object();
	json_object_object_add(root, "file_format_version", json_object_new_string("1.0.0"));
	json_object_object_add(icd, "library_path", json_object_new_string(lib));
	json_object_object_add(icd, "api_version", json_object_new_string(api));
	json_object_object_add(root, "ICD", icd);
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	char *with_nl = xasprintf("%s\n", text);
	int rc = atomic_write_file(path, with_nl, strlen(with_nl), 0644, e);
	free(with_nl);
	json_object_put(root);
	return rc;
}

static void remove_file(const char *path)
{
	if (unlink(path) != 0 && errno != ENOENT)
		return;
}

static int write_selection(struct store *s, const struct manifest *m, const struct selection *sel,
			   struct tb_error *e)
{
	struct strbuf env = {0};
	int rc = TB_OK;
	if (m->has_vulkan) {
		char *lib = path_join(sel->lib_base, m->vulkan_lib);
		rc = write_icd_json(sel->icd_json, lib, m->vulkan_api, e);
		free(lib);
		sb_appendf(&env, "VK_DRIVER_FILES=%s\nVK_ICD_FILENAMES=%s\n", sel->icd_json, sel->icd_json);
	} else {
		remove_file(sel->icd_json);
	}
	char *icd = path_join(sel->ocl_dir, "rusticl.icd");
	if (!rc && m->has_opencl) {
		rc = mkdir_p(sel->ocl_dir, 0755, e);
		char *line = xasprintf("%s/%s\n", sel->lib_base, m->opencl_lib);
		if (!rc)
			rc = atomic_write_file(icd, line, strlen(line), 0644, e);
		free(line);
		sb_appendf(&env, "OCL_ICD_VENDORS=%s\nRUSTICL_ENABLE=%s\n", sel->ocl_dir, m->rusticl_enable);
	} else if (!m->has_opencl) {
		remove_file(icd);
	}
	free(icd);
	if (sel->ld_library_path)
		sb_appendf(&env, "LD_LIBRARY_PATH=%s/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", sel->lib_base);
	if (!rc)
		rc = atomic_write_file(sel->env_path, env.buf ? env.buf : "", env.len, 0644, e);
	sb_free(&env);
	return rc;
}

int envfiles_write_version(struct store *s, const char *version, int ld_library_path,
			   struct tb_error *e)
{
	char *tree = store_path(s, "versions/%s", version);
	struct manifest m;
	int rc = manifest_load(tree, &m, e);
	if (rc) {
		free(tree);
		return rc;
	}
	char *icd_dir = store_path(s, "icd/versions/%s", version);
	char *icd_json = path_join(icd_dir, "turnip.json");
	char *ocl_dir = path_join(icd_dir, "opencl");
	char *env_path = store_path(s, "env/%s.env", version);
	rc = mkdir_p(icd_dir, 0755, e);
	struct selection sel = {tree, icd_json, ocl_dir, env_path, ld_library_path};
	if (!rc)
		rc = write_selection(s, &m, &sel, e);
	manifest_free(&m);
	free(tree);
	free(icd_dir);
	free(icd_json);
	free(ocl_dir);
	free(env_path);
	return rc;
}

/* Whether a version's env file asks for LD_LIBRARY_PATH (decided at unpack time). */
static int version_needs_ld_library_path(const struct store *s, const char *version)
{
	char *p = store_path(s, "env/%s.env", version);
	char *text = read_small_file(p, 64 * 1024, NULL);
	free(p);
	int yes = text && (!strncmp(text, "LD_LIBRARY_PATH=", 16) || strstr(text, "\nLD_LIBRARY_PATH="));
	free(text);
	return yes;
}

int envfiles_write_current(struct store *s, struct tb_error *e)
{
	char *cur = store_current(s);
	char *icd_json = store_path(s, "icd/turnip.json");
	char *ocl_dir = store_path(s, "icd/opencl");
	char *env_path = store_path(s, "env/current.env");
	char *env_conf = store_path(s, "env.conf");
	int rc = TB_OK;
	if (cur) {
		char *tree = store_path(s, "versions/%s", cur);
		char *base = store_path(s, "current");
		struct manifest m;
		rc = manifest_load(tree, &m, e);
		if (!rc) {
			struct selection sel = {base, icd_json, ocl_dir, env_path,
						version_needs_ld_library_path(s, cur)};
			rc = write_selection(s, &m, &sel, e);
			manifest_free(&m);
		}
		free(tree);
		free(base);
	} else {
		char *icd = path_join(ocl_dir, "rusticl.icd");
		remove_file(icd_json);
		remove_file(icd);
		remove_file(env_path);
		free(icd);
	}
	if (!rc) {
		struct state st;
		state_load(s, &st);
		char *text = cur && st.enabled ? read_small_file(env_path, 64 * 1024, NULL) : NULL;
		rc = atomic_write_file(env_conf, text ? text : "", text ? strlen(text) : 0, 0644, e);
		free(text);
		state_free(&st);
	}
	free(cur);
	free(icd_json);
	free(ocl_dir);
	free(env_path);
	free(env_conf);
	return rc;
}

int release_remove(struct store *s, const char *version, struct tb_error *e)
{
	char *env = store_path(s, "env/%s.env", version);
	char *icd = store_path(s, "icd/versions/%s", version);
	char *smoke = store_path(s, "smoke/%s.json", version);
	char *tree = store_path(s, "versions/%s", version);
	char *doomed = store_path(s, "versions/.%s.rm.tmp", version);
	int rc = TB_OK;
	/* The launcher stops offering it first; the tree disappears with one rename. */
	remove_file(env);
	remove_tree(icd);
	remove_file(smoke);
	if (rename(tree, doomed) != 0 && errno != ENOENT)
		rc = tb_fail_errno(e, TB_EFAIL, "cannot remove %s", tree);
	else
		remove_tree(doomed);
	free(env);
	free(icd);
	free(smoke);
	free(tree);
	free(doomed);
	return rc;
}

/* Keeps at most keep versions: current, previous, versions newer than current (downloaded,
 * waiting), then the newest of the rest. */
static void prune_versions(struct store *s, int keep)
{
	size_t n;
	char **list = store_versions(s, &n);
	char *cur = store_current(s), *prev = store_previous(s);
	size_t kept = n;
	for (size_t i = n; i-- > 0 && kept > (size_t)keep;) {
		const char *v = list[i]; /* oldest first from the end */
		if ((cur && !strcmp(v, cur)) || (prev && !strcmp(v, prev)))
			continue;
		if (cur && version_compare(v, cur) > 0)
			continue;
		struct tb_error ignored = {0};
		if (release_remove(s, v, &ignored) == TB_OK)
			kept--;
	}
	free(cur);
	free(prev);
	store_free_list(list, n);
}

static int set_links(struct store *s, const char *cur, const char *prev, struct tb_error *e)
{
	/* previous first: a crash between the two leaves both pointing at the old current */
	int rc = store_set_link(s, "previous", prev, e);
	if (!rc)
		rc = store_set_link(s, "current", cur, e);
	if (!rc)
		rc = envfiles_write_current(s, e);
	return rc;
}

int release_activate(struct store *s, const char *version, const struct activate_opts *o,
		     struct smoke_outcome *smoke, struct tb_error *e)
{
	memset(smoke, 0, sizeof *smoke);
	progress_step(o->progress, "installing");
	if (!store_has_version(s, version))
		return tb_fail_why(e, TB_EFAIL, "not-installed", "Mesa %s is not downloaded (tb323fu-ctl mesa download %s)", version, version);
	char *old_cur = store_current(s), *old_prev = store_previous(s);
	struct state st, saved;
	state_load(s, &st);
	state_load(s, &saved);
	int same = old_cur && !strcmp(old_cur, version);
	int rc = set_links(s, version, same ? old_prev : old_cur, e);
	if (!rc && !same && st.enabled) {
		/* a new version switched on for everyone starts a trial */
		state_set(&st.trial, version);
		st.tries = 0;
		st.max = o->cfg->max_tries;
	}
	if (!rc) {
		state_set_failed(&st, NULL, NULL, NULL);
		rc = state_save(s, &st, e);
	}
	if (!rc && o->run_smoke) {
		struct tb_error smoke_err = {0};
		int src = smoke_run_version(s, version, o->progress, smoke, &smoke_err);
		/* mesa.conf's smoke_suite: a tier after the smoke tests, failing the same way */
		if (!src && !smoke->failed)
			src = suite_after_install(s, version, o->cfg, o->progress, &smoke_err);
		if (src || smoke->failed) {
			const char *why = src ? smoke_err.msg : smoke->first_failure;
			/* back to what was current; for a re-install of current, to previous */
			const char *back = same ? old_prev : old_cur;
			struct tb_error ignored = {0};
			set_links(s, back, same ? NULL : old_prev, &ignored);
			state_set_failed(&saved, version, src ? tb_error_reason(&smoke_err) : "smoke-failed", why);
			if (saved.trial && !strcmp(saved.trial, version)) {
				state_set(&saved.trial, NULL);
				saved.tries = 0;
			}
			state_save(s, &saved, &ignored);
			envfiles_write_current(s, &ignored);
			if (!back)
				rc = tb_fail_why(e, TB_ESMOKE, "smoke-failed", "Mesa %s failed its smoke test (%s) and was switched off; no store version is current (look with `tb323fu-ctl mesa smoke %s`)",
					     version, why, version);
			else
				rc = tb_fail_why(e, TB_ESMOKE, "smoke-failed", "Mesa %s failed its smoke test (%s); Mesa %s is current again (look with `tb323fu-ctl mesa smoke %s`)",
					     version, why, back, version);
			if (src && smoke_err.reason && !strcmp(smoke_err.reason, "suite-regression"))
				e->reason = smoke_err.reason;
		}
	}
	if (!rc)
		prune_versions(s, o->cfg->keep_versions);
	state_free(&st);
	state_free(&saved);
	free(old_cur);
	free(old_prev);
	return rc;
}
