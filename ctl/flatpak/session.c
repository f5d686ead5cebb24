/* The session's Flatpak starts (docs/design.md §17, "From the session"). flatpak passes the
 * session's OCL_ICD_VENDORS into the sandbox, where its path of this system leaves ocl-icd
 * without any vendor, and so the session's GL's LIBGL_DRIVERS_PATH and GBM_BACKENDS_PATH,
 * which leave Mesa and GBM there without a driver; an override's empty value makes flatpak
 * unset each there, and that is right whatever is mounted: the loaders then read the folders
 * flatpak merges the active GL extensions' files into. */
#include "flatpak/session.h"
#include "flatpak/export.h"
#include "flatpak/runtime.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "common/envvars.h"
#include "common/flatpakname.h"
#include "common/ident.h"

#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* flatpak's own override files are small; a bigger one is not edited. */
#define OVERRIDE_MAX (256 * 1024)
#define OVERRIDE_GROUP "Environment"
/* flatpak ≥ 1.14's list of what it unsets inside (`flatpak override --unset-env` writes it
 * beside the empty value, which older ones read as unset). */
#define CONTEXT_GROUP "Context"
#define UNSET_KEY "unset-environment"
/* The session's variables whose values are paths of this system, ours to unset inside. */
static const char *const host_paths[] = {ENV_OCL_ICD_VENDORS, ENV_LIBGL_DRIVERS_PATH, ENV_GBM_BACKENDS_PATH};
#define HOST_PATHS (sizeof host_paths / sizeof *host_paths)

char *flatpak_session_drivers(const struct store *s, const char *version)
{
	char name[128];
	if (!version || !flatpak_export_name(version, name, sizeof name))
		return NULL;
	return flatpak_version_exported(s->root, version) ? xasprintf("%s:%s", name, FLATPAK_GL_DEFAULT)
							     : NULL;
}

char *flatpak_override_path(int user)
{
	char *dir = flatpak_installation_dir(user);
	if (!dir)
		return NULL;
	char *p = xasprintf("%s/overrides/global", dir);
	free(dir);
	return p;
}

/* text (len bytes, NULL: no file) as a GKeyFile; NULL when it is not one. */
static GKeyFile *parse(const char *text, size_t len)
{
	GKeyFile *kf = g_key_file_new();
	if (text && (memchr(text, 0, len) ||
		     !g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS, NULL))) {
		g_key_file_free(kf);
		return NULL;
	}
	return kf;
}

/* The override file's text, *missing 1 when there is none; NULL when it cannot be read
 * (too big, a link, unreadable). */
static char *load(const char *path, size_t *len, int *missing)
{
	errno = 0;
	char *text = read_small_file_nofollow(path, OVERRIDE_MAX, len);
	*missing = !text && errno == ENOENT;
	return text;
}

/* name in [Environment]: 0 none, 1 ours (our mark in its comment), -1 someone else's. */
static int key_state(GKeyFile *kf, const char *name)
{
	if (!g_key_file_has_key(kf, OVERRIDE_GROUP, name, NULL))
		return 0;
	char *c = g_key_file_get_comment(kf, OVERRIDE_GROUP, name, NULL);
	int ours = c && strstr(c, TB_IDENT_MARK);
	g_free(c);
	return ours ? 1 : -1;
}

static int state_of(GKeyFile *kf)
{
	return key_state(kf, ENV_OCL_ICD_VENDORS);
}

int flatpak_session_override_state(int user)
{
	char *path = flatpak_override_path(user);
	size_t len = 0;
	int missing = 0, st = 0;
	char *text = path ? load(path, &len, &missing) : NULL;
	GKeyFile *kf = text ? parse(text, len) : NULL;
	if (kf) {
		st = state_of(kf);
		g_key_file_free(kf);
	}
	free(text);
	free(path);
	return st;
}

/* A group left without keys goes. */
static void drop_if_empty(GKeyFile *kf, const char *group)
{
	gsize left = 0;
	g_strfreev(g_key_file_get_keys(kf, group, &left, NULL));
	if (!left)
		g_key_file_remove_group(kf, group, NULL);
}

/* name put in (on) or taken out of [Context] unset-environment, every other name kept in
 * its order. */
static void unset_list(GKeyFile *kf, const char *name, int on)
{
	gsize n = 0;
	char **old = g_key_file_get_string_list(kf, CONTEXT_GROUP, UNSET_KEY, &n, NULL);
	const char **now = g_new0(const char *, n + 2);
	gsize k = 0;
	for (gsize i = 0; i < n; i++)
		if (strcmp(old[i], name))
			now[k++] = old[i];
	if (on)
		now[k++] = name;
	if (k)
		g_key_file_set_string_list(kf, CONTEXT_GROUP, UNSET_KEY, now, k);
	else if (old) {
		g_key_file_remove_key(kf, CONTEXT_GROUP, UNSET_KEY, NULL);
		drop_if_empty(kf, CONTEXT_GROUP);
	}
	g_free(now);
	g_strfreev(old);
}

char *flatpak_override_edit(const char *text, size_t len, int on, size_t *out_len)
{
	GKeyFile *kf = parse(text, len);
	if (!kf)
		return NULL;
	int changed = 0;
	for (size_t i = 0; i < HOST_PATHS; i++) {
		const char *name = host_paths[i];
		int st = key_state(kf, name);
		if (on && st == 0) {
			char *comment = xasprintf(" %s: the session's %s is a path of the host", TB_IDENT_MARK, name);
			g_key_file_set_string(kf, OVERRIDE_GROUP, name, "");
			g_key_file_set_comment(kf, OVERRIDE_GROUP, name, comment, NULL);
			free(comment);
			unset_list(kf, name, 1);
			changed = 1;
		} else if (!on && st == 1) {
			g_key_file_remove_comment(kf, OVERRIDE_GROUP, name, NULL);
			g_key_file_remove_key(kf, OVERRIDE_GROUP, name, NULL);
			unset_list(kf, name, 0);
			changed = 1;
		}
	}
	if (!changed) {
		g_key_file_free(kf);
		return NULL;
	}
	if (!on && g_key_file_has_group(kf, OVERRIDE_GROUP))
		drop_if_empty(kf, OVERRIDE_GROUP);
	gsize n = 0;
	char *data = g_key_file_to_data(kf, &n, NULL);
	g_key_file_free(kf);
	char *out = data ? xstrdup(data) : NULL;
	g_free(data);
	*out_len = out ? strlen(out) : 0;
	return out;
}

static void edit(int user, int on, char *linked, size_t n)
{
	char *inst = flatpak_installation_dir(user);
	if (!inst || !is_directory(inst) || access(inst, W_OK) != 0) {
		free(inst);
		return;
	}
	char *dir = xasprintf("%s/overrides", inst), *path = xasprintf("%s/global", dir);
	struct stat st;
	if (lstat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		/* planted: neither read nor written through */
		size_t used = strlen(linked);
		snprintf(linked + used, n - used, "%s%s", used ? ", " : "", dir);
		free(inst);
		free(dir);
		free(path);
		return;
	}
	size_t len = 0, out_len = 0;
	int missing = 0;
	char *text = load(path, &len, &missing);
	char *out = text || missing ? flatpak_override_edit(text, len, on, &out_len) : NULL;
	if (out && !out_len && !missing) {
		unlink(path); /* nothing but ours was there: flatpak's default again, no file left */
		rmdir(dir);   /* and its folder, when that leaves it empty */
	} else if (out && out_len && (mkdir(dir, 0755) == 0 || errno == EEXIST)) {
		struct tb_error e = {0};
		atomic_write_file(path, out, out_len, 0644, &e);
	}
	free(out);
	free(text);
	free(inst);
	free(dir);
	free(path);
}

void flatpak_session_override(int on, char *linked, size_t n)
{
	linked[0] = '\0';
	edit(1, on, linked, n);
	edit(0, on, linked, n);
}
