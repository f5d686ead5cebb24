/* Our entries on disk: whose entry is there, writing ours, removing ours, the rules they
 * carry (ctl/apprules/override_files.h, docs/design.md §16). */
#include "apprules/override_files.h"
#include "apprules/desktop_entry.h"
#include "apprules/override_entry.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/strbuf.h"
#include "base/text.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int override_owner(const struct app_scope *sc, const char *id, char **orig_path,
		   char **orig_sha, char **choice, char **gl)
{
	char *path = path_join(sc->apps_dir, id);
	struct stat st;
	if (lstat(path, &st) != 0 && errno == ENOENT) {
		free(path);
		return 0;
	}
	GKeyFile *kf = read_entry(path, 1, OVERRIDE_MAX_BYTES);
	free(path);
	if (!kf)
		return 2;
	int ours = is_ours(kf);
	if (ours && orig_path)
		*orig_path = group_value(kf, KEY_ORIGINAL, 1);
	if (ours && orig_sha)
		*orig_sha = group_value(kf, KEY_ORIGINAL_SHA, 0);
	if (ours && choice)
		*choice = group_value(kf, KEY_RULE, 0);
	if (ours && gl)
		*gl = g_key_file_has_key(kf, DE, KEY_GL, NULL) ? group_value(kf, KEY_GL, 0) : NULL;
	g_key_file_free(kf);
	return ours ? 1 : 2;
}

static int refuse_foreign(const struct app_scope *sc, const char *id, struct tb_error *e)
{
	return tb_fail(e, TB_R_NOT_OURS,
		       "%s/%s is not an entry tb323fu-ctl wrote; it is left as it is (move it away to give %s a rule here)",
		       sc->apps_dir, id, id);
}

int override_plan(const struct app_scope *sc, const char *id, const char *orig_path,
		  const struct override_spec *spec, char **data, size_t *n, struct tb_error *e)
{
	*data = NULL;
	*n = 0;
	if (override_owner(sc, id, NULL, NULL, NULL, NULL) == 2)
		return refuse_foreign(sc, id, e);
	size_t len = 0;
	char *text = read_small_file(orig_path, DESKTOP_MAX_BYTES, &len);
	if (!text) {
		if (errno == E2BIG)
			return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s is over 1 MiB; no rule was set", orig_path);
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read the desktop entry %s", orig_path);
	}
	char hex[SHA256_HEX_LEN + 1];
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, text, len);
	sha256_end(h, hex);
	int rc = override_build(text, len, orig_path, hex, id, spec, data, n, e);
	free(text);
	return rc;
}

int override_write(const struct app_scope *sc, const char *id, const char *orig_path,
		   const struct override_spec *spec, struct tb_error *e)
{
	char *data = NULL;
	size_t n = 0;
	int rc = override_plan(sc, id, orig_path, spec, &data, &n, e);
	if (!rc)
		rc = mkdir_p(sc->apps_dir, 0755, e);
	if (!rc) {
		char *path = path_join(sc->apps_dir, id);
		rc = atomic_write_file(path, data, n, 0644, e);
		free(path);
	}
	free(data);
	return rc;
}

int override_remove(const struct app_scope *sc, const char *id, struct tb_error *e)
{
	int owner = override_owner(sc, id, NULL, NULL, NULL, NULL);
	if (owner == 2)
		return refuse_foreign(sc, id, e);
	if (owner == 0)
		return 0;
	char *path = path_join(sc->apps_dir, id);
	int rc = unlink(path) != 0 && errno != ENOENT
			 ? tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", path) : 0;
	free(path);
	return rc;
}

void override_recover_rules(const char *apps_dir, struct app_rules *r)
{
	DIR *dh = opendir(apps_dir);
	if (!dh)
		return;
	struct app_scope sc = {.apps_dir = (char *)apps_dir};
	struct dirent *de;
	while ((de = readdir(dh)) && r->n < APPRULES_MAX_RULES) {
		char *choice = NULL, *gl = NULL;
		if (app_id_ok(de->d_name) && override_owner(&sc, de->d_name, NULL, NULL, &choice, &gl) == 1 &&
		    choice && app_choice_ok(choice) && !apprules_find(r, de->d_name)) {
			apprules_set(r, de->d_name, choice);
			if (gl && app_gl_ok(choice, gl))
				apprules_set_gl(r, de->d_name, gl);
		}
		free(choice);
		free(gl);
	}
	closedir(dh);
}

/* The IDs of apps_dir's .desktop entries that keep says yes to (at most APPRULES_MAX_RULES). */
static size_t entries_where(const char *apps_dir, char ***ids, int (*keep)(const struct app_scope *, const char *))
{
	*ids = NULL;
	DIR *dh = opendir(apps_dir);
	if (!dh)
		return 0;
	struct app_scope sc = {.apps_dir = (char *)apps_dir};
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dh)) && n < APPRULES_MAX_RULES) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 9 || strcmp(de->d_name + len - 8, ".desktop") ||
		    !keep(&sc, de->d_name))
			continue;
		*ids = xrealloc(*ids, (n + 1) * sizeof **ids);
		(*ids)[n++] = xstrdup(de->d_name);
	}
	closedir(dh);
	return n;
}

static int ours(const struct app_scope *sc, const char *id)
{
	return override_owner(sc, id, NULL, NULL, NULL, NULL) == 1;
}

size_t override_ours_list(const char *apps_dir, char ***ids)
{
	return entries_where(apps_dir, ids, ours);
}

/* Whether a group of kf carries our mark and an Exec that starts our launcher. */
static int marked_and_launching(GKeyFile *kf)
{
	gsize n = 0;
	char **groups = g_key_file_get_groups(kf, &n);
	int mark = 0, launcher = 0;
	for (gsize i = 0; i < n; i++) {
		gchar *m = g_key_file_get_value(kf, groups[i], KEY_MARK, NULL);
		mark |= m && !strcmp(m, OVERRIDE_MARK);
		g_free(m);
		gchar *exec = g_key_file_get_value(kf, groups[i], "Exec", NULL);
		if (exec) {
			size_t first = strcspn(exec, " \t");
			char *program = g_strndup(exec, first);
			const char *base = strrchr(program, '/');
			launcher |= !strcmp(base ? base + 1 : program, "tb323fu-mesa");
			g_free(program);
		}
		g_free(exec);
	}
	g_strfreev(groups);
	return mark && launcher;
}

/* A file (not a link) marked as ours, read whatever its encoding. */
static int marked_file(const char *path)
{
	size_t len = 0;
	char *text = read_small_file_nofollow(path, OVERRIDE_MAX_BYTES, &len);
	GKeyFile *kf = text && !memchr(text, '\0', len) ? load_entry(text, len) : NULL;
	int marked = kf && marked_and_launching(kf);
	if (kf)
		g_key_file_free(kf);
	free(text);
	return marked;
}

static int marked_entry(const struct app_scope *sc, const char *id)
{
	char *path = path_join(sc->apps_dir, id);
	struct stat st;
	int marked = 0;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* a link to an entry of ours: what it reaches is a regular file, marked */
		char *target = realpath(path, NULL);
		marked = target && !lstat(target, &st) && S_ISREG(st.st_mode) && marked_file(target);
		free(target);
	} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		marked = override_owner(sc, id, NULL, NULL, NULL, NULL) != 1 && marked_file(path);
	}
	free(path);
	return marked;
}

size_t override_marked_list(const char *apps_dir, char ***ids)
{
	return entries_where(apps_dir, ids, marked_entry);
}
