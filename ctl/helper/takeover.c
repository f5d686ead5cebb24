/* Completing a store made by the Open Device Helper (docs/design.md §13). */
#include "helper/takeover.h"
#include "store/layout.h"
#include "flatpak/session.h"
#include "store/envfiles.h"
#include "release/elfcheck.h"
#include "lifecycle/lifecycle.h"
#include "store/manifest.h"
#include "store/txn.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/alloc.h"
#include "common/storelayout.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdio.h>

static int is_link(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* The version's own files where a link was planted (they are written anew: the rename puts
 * our file in the link's place, its target untouched), each appended to said (n bytes,
 * ", " between) as "PATH (a link to TARGET)"; how many. */
static int planted_at_version(const struct store *s, const char *v, char *said, size_t n)
{
	char *icd = store_icd_dir(s, v);
	char *files[] = {store_env_path(s, v), path_join(icd, STORE_VULKAN_ICD_NAME),
			 xasprintf("%s/" STORE_OPENCL_SUBDIR "/" STORE_OPENCL_ICD_NAME, icd)};
	int count = 0;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char target[512];
		ssize_t k = is_link(files[i]) ? readlink(files[i], target, sizeof target - 1) : -1;
		if (k >= 0) {
			target[k] = '\0';
			size_t used = strlen(said);
			snprintf(said + used, n - used, "%s%s (a link to %.200s)", used ? ", " : "",
				 files[i] + strlen(s->root) + 1, target);
			count++;
		}
		free(files[i]);
	}
	free(icd);
	return count;
}

/* A version of ours has its env file; the helper's have none. One with a link planted at its
 * own files gets them anew. */
static int version_incomplete(const struct store *s, const char *v)
{
	char *env = store_env_path(s, v);
	char *icd = store_icd_dir(s, v);
	char *man = store_manifest_path(s, v);
	char ignored[8] = "";
	int missing = path_exists(man) && (!path_exists(env) || !is_directory(icd) ||
					   planted_at_version(s, v, ignored, sizeof ignored));
	free(env);
	free(icd);
	free(man);
	return missing;
}

int takeover_needed(const struct store *s)
{
	size_t n;
	char **list = store_versions(s, &n);
	int needed = 0;
	for (size_t i = 0; i < n; i++)
		needed += version_incomplete(s, list[i]);
	store_free_list(list, n);
	char *cur = store_current(s);
	char *env = store_env_path(s, NULL);
	char *smoke = store_path(s, STORE_SMOKE_DIR);
	/* a current whose tree is gone has no files to get; the life cycle says what to do */
	if (cur && !store_version_gone(s, cur) && (!path_exists(env) || !is_directory(smoke)))
		needed++;
	free(cur);
	free(env);
	free(smoke);
	return needed;
}

/* Whether a version needs its lib/ on LD_LIBRARY_PATH: the MANIFEST says so, or the ELF check
 * finds a library only lib/ provides (as when it was unpacked by us). */
static int needs_ld_library_path(const struct store *s, const char *v, const struct manifest *m)
{
	if (m->ld_library_path)
		return 1;
	/* the MANIFEST the caller read, not read again */
	char *tree = store_version_dir(s, v);
	struct elf_report r;
	struct tb_error ignored = {0};
	int yes = elf_check_tree(tree, m, &r, &ignored) == TB_OK && r.needs_ld_library_path;
	free(tree);
	return yes;
}

/* The session's files are left as they are when current cannot be selected: a tree that is
 * gone (off, rollback or an install repairs that), or a link the user pointed outside
 * versions/. Rewriting from "no current" would switch the session off without a word;
 * status, doctor and every life-cycle command say what is wrong instead. */
static int current_left_alone(const struct store *s, const struct lc_view *v)
{
	return v->current_gone || v->foreign;
}

static int stage_current(struct store *s, const struct lc_view *v, struct tb_error *e)
{
	struct txn t;
	txn_init(&t, s);
	char *drivers = v->st.enabled ? flatpak_session_drivers(s, v->current) : NULL;
	int rc = envfiles_stage_current(s, v->current, v->st.enabled, v->st.gl, drivers, &t, e);
	free(drivers);
	if (rc)
		txn_abort(&t);
	else
		rc = txn_commit(&t, e);
	return rc;
}

int takeover_run(struct store *s, int *done, struct tb_error *e)
{
	*done = 0;
	size_t n;
	char **list = store_versions(s, &n);
	int rc = TB_OK;
	for (size_t i = 0; !rc && i < n; i++) {
		if (!version_incomplete(s, list[i]))
			continue;
		char *tree = store_version_dir(s, list[i]);
		struct manifest m;
		struct tb_error bad = {0};
		/* A tree whose MANIFEST we cannot read stays as it is: verify names it. */
		if (manifest_load(tree, &m, &bad) == TB_OK) {
			planted_at_version(s, list[i], s->replaced, sizeof s->replaced);
			rc = envfiles_write_version(s, &m, needs_ld_library_path(s, list[i], &m), e);
			manifest_free(&m);
			if (!rc)
				(*done)++;
		}
		free(tree);
	}
	store_free_list(list, n);
	char *smoke = rc ? NULL : store_reach_dir(s, STORE_SMOKE_DIR, 1, e);
	if (!rc && !smoke)
		rc = e->code;
	free(smoke);
	/* The current ICD files, env/current.env and env.conf, from the state as it is: the
	 * helper's launcher keeps finding icd/turnip.json and icd/opencl/ through current/. */
	if (!rc) {
		struct lc_view v;
		lc_read(s, &v);
		rc = current_left_alone(s, &v) ? TB_OK : stage_current(s, &v, e);
		lc_view_free(&v);
	}
	return rc;
}
