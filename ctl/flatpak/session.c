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
#include "base/strbuf.h"
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

/* The edit is made on the file's lines, GKeyFile deciding what is whose: only whole lines of
 * ours go in (our keys with their marked comment at the end of [Environment], our names at
 * the end of [Context]'s unset-environment, a group of ours at the end of the file) and only
 * those come out, so every byte of someone else's stays where it was and `on` then `off`
 * gives the file back as it was (GKeyFile's own writer would move blank lines and line ends). */
struct lines {
	char **v; /* each with its line end; the last may have none */
	size_t n;
};

static void lines_split(const char *text, size_t len, struct lines *l)
{
	l->v = NULL;
	l->n = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
		l->v[l->n++] = xasprintf("%.*s", (int)(end - at), text + at);
		at = end;
	}
}

static char *lines_join(const struct lines *l, size_t *len)
{
	struct strbuf sb = {0};
	sb_append(&sb, "");
	for (size_t i = 0; i < l->n; i++)
		sb_append(&sb, l->v[i]);
	*len = sb.len;
	return sb.buf;
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* line (taken) put before index at; the line before it ended first. */
static void lines_insert(struct lines *l, size_t at, char *line)
{
	if (at > 0 && !strchr(l->v[at - 1], '\n')) {
		char *ended = xasprintf("%s\n", l->v[at - 1]);
		free(l->v[at - 1]);
		l->v[at - 1] = ended;
	}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
	l->v[at] = line;
	l->n++;
}

static void lines_remove(struct lines *l, size_t at)
{
	free(l->v[at]);
	memmove(&l->v[at], &l->v[at + 1], (l->n - at - 1) * sizeof *l->v);
	l->n--;
}

/* The line's length without its end. */
static size_t content_len(const char *line)
{
	return strcspn(line, "\r\n");
}

static int blank(const char *line)
{
	return strspn(line, " \t\r\n") == strlen(line);
}

static int blank_text(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", text[i]))
			return 0;
	return 1;
}

static int group_line(const char *line, const char *group)
{
	if (line[0] != '[')
		return 0;
	size_t n = content_len(line), g = group ? strlen(group) : 0;
	return !group || (n == g + 2 && !strncmp(line + 1, group, g) && line[g + 1] == ']');
}

static int key_line(const char *line, const char *key)
{
	size_t k = strlen(key);
	if (strncmp(line, key, k))
		return 0;
	const char *rest = line + k + strspn(line + k, " \t");
	return *rest == '=';
}

/* The first [group]'s header (-1: none) and the end of its lines (*end). */
static long group_find(const struct lines *l, const char *group, size_t *end)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!group_line(l->v[i], group))
			continue;
		size_t j = i + 1;
		while (j < l->n && !group_line(l->v[j], NULL))
			j++;
		*end = j;
		return (long)i;
	}
	*end = l->n;
	return -1;
}

/* Where a line goes at the end of the group (header h, lines to end): after its last line
 * that is not blank. */
static size_t group_tail(const struct lines *l, long h, size_t end)
{
	while (end > (size_t)h + 1 && blank(l->v[end - 1]))
		end--;
	return end;
}

/* The group's line for key, or -1. */
static long key_find(const struct lines *l, long h, size_t end, const char *key)
{
	for (size_t i = (size_t)h + 1; h >= 0 && i < end; i++)
		if (key_line(l->v[i], key))
			return (long)i;
	return -1;
}

/* lines (taken) at the end of [group], made at the end of the file when there is none. */
static void group_add(struct lines *l, const char *group, char **add, size_t n_add, int apart)
{
	size_t end;
	long h = group_find(l, group, &end);
	size_t at = h >= 0 ? group_tail(l, h, end) : l->n;
	if (h < 0) {
		if (apart && l->n)
			lines_insert(l, at++, xstrdup("\n"));
		lines_insert(l, at++, xasprintf("[%s]\n", group));
	}
	for (size_t i = 0; i < n_add; i++)
		lines_insert(l, at++, add[i]);
}

/* [group] goes when nothing but blank lines is left in it. */
static void group_drop_if_empty(struct lines *l, const char *group)
{
	size_t end;
	long h = group_find(l, group, &end);
	if (h < 0)
		return;
	for (size_t i = (size_t)h + 1; i < end; i++)
		if (!blank(l->v[i]))
			return;
	for (size_t i = end; i > (size_t)h; i--)
		lines_remove(l, i - 1);
}

/* unset-environment's value with name put at its end (on) or taken out; apart: a group made
 * for it is set apart by a blank line (in a file of ours alone). */
static void unset_line(struct lines *l, const char *name, int on, int apart)
{
	size_t end;
	long h = group_find(l, CONTEXT_GROUP, &end);
	long k = key_find(l, h, end, UNSET_KEY);
	if (k < 0) {
		if (on) {
			char *add = xasprintf(UNSET_KEY "=%s;\n", name);
			group_add(l, CONTEXT_GROUP, &add, 1, apart);
		}
		return;
	}
	char *line = l->v[k];
	size_t n = content_len(line);
	const char *eol = line + n, *value = strchr(line, '=') + 1;
	struct strbuf sb = {0};
	sb_appendf(&sb, "%.*s", (int)(value - line), line);
	int kept = 0;
	for (const char *t = value; t < eol;) {
		size_t len = strcspn(t, ";\r\n");
		if (t + len > eol)
			len = (size_t)(eol - t);
		int ours = len == strlen(name) && !strncmp(t, name, len);
		if (!(ours && !on) && len) {
			sb_appendf(&sb, "%.*s;", (int)len, t);
			kept++;
		}
		t += len + (t + len < eol);
	}
	if (on) {
		sb_appendf(&sb, "%s;", name);
		kept++;
	}
	sb_append(&sb, eol);
	free(l->v[k]);
	l->v[k] = sb.buf;
	if (!kept) {
		lines_remove(l, (size_t)k);
		group_drop_if_empty(l, CONTEXT_GROUP);
	}
}

/* Our key name and the marked comment lines right above it go. */
static void key_remove(struct lines *l, const char *name)
{
	size_t end;
	long h = group_find(l, OVERRIDE_GROUP, &end);
	long k = key_find(l, h, end, name);
	if (k < 0)
		return;
	lines_remove(l, (size_t)k);
	while (k - 1 > h && l->v[k - 1][0] == '#' && strstr(l->v[k - 1], TB_IDENT_MARK))
		lines_remove(l, (size_t)--k);
}

/* unset-environment's names as GKeyFile reads them include name. */
static int unset_has(GKeyFile *kf, const char *name)
{
	char **list = g_key_file_get_string_list(kf, CONTEXT_GROUP, UNSET_KEY, NULL, NULL);
	int has = 0;
	for (size_t i = 0; list && list[i]; i++)
		has |= !strcmp(list[i], name);
	g_strfreev(list);
	return has;
}

/* Whether each key added (added[i] for host_paths[i]) reads as ours in text: a file we write
 * must be ours to take out again. */
static int ours_again(const char *text, size_t len, const int *added)
{
	GKeyFile *kf = parse(text, len);
	if (!kf)
		return 0;
	int ok = 1;
	for (size_t i = 0; i < HOST_PATHS && ok; i++)
		ok = !added[i] || key_state(kf, host_paths[i]) == 1;
	g_key_file_free(kf);
	return ok;
}

char *flatpak_override_edit(const char *text, size_t len, int on, size_t *out_len)
{
	GKeyFile *kf = parse(text, len);
	if (!kf)
		return NULL;
	struct lines l;
	lines_split(text ? text : "", text ? len : 0, &l);
	int changed = 0;
	char *add[2 * HOST_PATHS];
	size_t n_add = 0;
	int added[HOST_PATHS] = {0};
	for (size_t i = 0; i < HOST_PATHS; i++) {
		const char *name = host_paths[i];
		int st = key_state(kf, name);
		if (on && st == 0) {
			added[i] = 1;
			add[n_add++] = xasprintf("# %s: the session's %s is a path of the host\n", TB_IDENT_MARK, name);
			add[n_add++] = xasprintf("%s=\n", name);
		} else if (!on && st == 1) {
			key_remove(&l, name);
			if (unset_has(kf, name))
				unset_line(&l, name, 0, 0);
			changed = 1;
		}
	}
	if (n_add) {
		/* a group of ours goes right after the last line (a blank line between would not
		 * come out again whole), but in a file of ours alone */
		int alone = !text || blank_text(text, len);
		group_add(&l, OVERRIDE_GROUP, add, n_add, alone);
		for (size_t i = 0; i < HOST_PATHS; i++)
			if (key_state(kf, host_paths[i]) == 0 && !unset_has(kf, host_paths[i]))
				unset_line(&l, host_paths[i], 1, alone);
		changed = 1;
	}
	if (!on)
		group_drop_if_empty(&l, OVERRIDE_GROUP);
	g_key_file_free(kf);
	char *out = NULL;
	if (changed) {
		out = lines_join(&l, out_len);
		if (blank(out)) /* nothing but ours was there */
			out[*out_len = 0] = '\0';
	}
	lines_free(&l);
	if (out && on && !ours_again(out, *out_len, added)) {
		/* a file whose lines GKeyFile reads otherwise than we split them (carriage returns
		 * among them): written, our keys could not be told from another's and taken out again,
		 * so it is left as it was */
		free(out);
		out = NULL;
	}
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
