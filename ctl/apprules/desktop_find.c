/* Where the desktop finds entries, and which one an application names (ctl/apprules/desktop_find.h,
 * docs/design.md §16). */
#include "apprules/desktop_find.h"
#include "apprules/desktop_entry.h"
#include "flatpak/runtime.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "base/text.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct dirlist {
	char **v;
	size_t n;
};

static void dirlist_add(struct dirlist *d, char *dir)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i], dir)) {
			free(dir);
			return;
		}
	d->v = xrealloc(d->v, (d->n + 1) * sizeof *d->v);
	d->v[d->n++] = dir;
}

static void dirlist_free(struct dirlist *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
}

/* The applications directories in the desktop's order: the user's first (a user rule's own
 * directory), then $XDG_DATA_DIRS (default /usr/local/share:/usr/share). */
static void search_dirs(const struct app_scope *sc, struct dirlist *d)
{
	memset(d, 0, sizeof *d);
	if (sc->user)
		dirlist_add(d, xstrdup(sc->apps_dir));
	const char *dirs = getenv("XDG_DATA_DIRS");
	if (!dirs || !*dirs)
		dirs = "/usr/local/share:/usr/share";
	for (const char *p = dirs; *p;) {
		size_t n = strcspn(p, ":");
		if (n && p[0] == '/') /* a relative entry is ignored, as the spec says */
			dirlist_add(d, xasprintf("%.*s/applications", (int)n, p));
		p += n;
		p += *p == ':';
	}
	/* Flatpak applications (docs/design.md §17): the entries the installations export, the
	 * user's (user rules only) and the system's, unless XDG_DATA_DIRS has them already; the
	 * launcher gives `flatpak run` the version's GL extension */
	for (int user = sc->user; user >= 0; user--) {
		char *inst = flatpak_installation_dir(user);
		char *apps = inst ? xasprintf("%s/exports/share/applications", inst) : NULL;
		if (apps)
			dirlist_add(d, apps); /* once: dirlist_add drops one already listed */
		free(inst);
	}
}

/* The paths an ID can have in one directory: ID itself, or one level of subdirectory for
 * its first dashes ("kde-foo.desktop" is kde/foo.desktop). */
static char *find_in_dir(const char *dir, const char *id, int skip_ours)
{
	char *path = path_join(dir, id);
	for (const char *dash = id;; dash++) {
		struct stat st;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			GKeyFile *kf = skip_ours ? read_entry(path, 0, DESKTOP_MAX_BYTES) : NULL;
			int ours = kf && is_ours(kf);
			if (kf)
				g_key_file_free(kf);
			if (!ours)
				return path;
		}
		free(path);
		dash = strchr(dash, '-');
		if (!dash)
			return NULL;
		path = xasprintf("%s/%.*s/%s", dir, (int)(dash - id), id, dash + 1);
	}
}

char *desktop_original(const struct app_scope *sc, const char *id)
{
	struct dirlist d;
	search_dirs(sc, &d);
	char *found = NULL;
	for (size_t i = 0; i < d.n && !found; i++)
		found = find_in_dir(d.v[i], id, 1);
	dirlist_free(&d);
	return found;
}

struct candidates {
	struct strbuf list;
	size_t n;
	char *id;
};

static int app_entry_named(GKeyFile *kf, const char *id, const char *name)
{
	gchar *type = g_key_file_get_value(kf, DE, "Type", NULL);
	gchar *shown = g_key_file_get_string(kf, DE, "Name", NULL);
	int app = type && !strcmp(type, "Application") && !g_key_file_get_boolean(kf, DE, "Hidden", NULL);
	/* the ID's last part: "darktable" for org.darktable.darktable.desktop */
	size_t n = strlen(id) - strlen(".desktop");
	const char *last = id;
	for (size_t i = 0; i < n; i++)
		if (id[i] == '.')
			last = id + i + 1;
	size_t lastn = (size_t)(id + n - last);
	int match = app && ((shown && !strcasecmp(shown, name)) ||
			    (strlen(name) == lastn && !strncasecmp(last, name, lastn)));
	g_free(type);
	g_free(shown);
	return match;
}

/* An entry the desktop would show under id (ours are skipped: the original behind them
 * counts), matched against name. */
static void consider(struct candidates *c, GHashTable *seen, const char *path, const char *id,
		     const char *name)
{
	if (g_hash_table_contains(seen, id))
		return; /* a directory earlier in the order has it */
	GKeyFile *kf = read_entry(path, 0, DESKTOP_MAX_BYTES);
	if (!kf)
		return;
	if (!is_ours(kf))
		g_hash_table_add(seen, g_strdup(id));
	if (!is_ours(kf) && app_entry_named(kf, id, name)) {
		gchar *name_value = g_key_file_get_string(kf, DE, "Name", NULL);
		/* the Name as read has its escapes decoded (\n is a newline): shown escaped, so the
		 * sentence stays one line whatever an entry holds */
		char *shown = term_text(name_value ? name_value : "", 0);
		if (c->n < 10)
			sb_appendf(&c->list, "%s%s (%s)", c->n ? ", " : "", id, shown);
		c->n++;
		free(c->id);
		c->id = xstrdup(id);
		free(shown);
		g_free(name_value);
	}
	g_key_file_free(kf);
}

/* Each entry of dir (and, at depth 0, of its subdirectories, whose names join the ID with
 * '-' as the specification says) with a valid ID, handed to fn. */
static void walk_dir(const char *dir, const char *prefix, int depth, desktop_entry_fn fn, void *ctx)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		char *path = path_join(dir, de->d_name);
		char *id = xasprintf("%s%s", prefix, de->d_name);
		struct stat st;
		int there = stat(path, &st) == 0;
		if (there && S_ISDIR(st.st_mode) && depth == 0) {
			char *sub = xasprintf("%s-", id);
			walk_dir(path, sub, 1, fn, ctx);
			free(sub);
		} else if (there && S_ISREG(st.st_mode) && app_id_ok(id)) {
			fn(ctx, path, id);
		}
		free(id);
		free(path);
	}
	closedir(dh);
}

void desktop_each_entry(const struct app_scope *sc, desktop_entry_fn fn, void *ctx)
{
	struct dirlist d;
	search_dirs(sc, &d);
	for (size_t i = 0; i < d.n; i++)
		walk_dir(d.v[i], "", 0, fn, ctx);
	dirlist_free(&d);
}

/* desktop_resolve's walk: the entries that bear the name asked for. */
struct resolving {
	struct candidates c;
	GHashTable *seen;
	const char *name;
};

static void resolve_one(void *ctx, const char *path, const char *id)
{
	struct resolving *r = ctx;
	consider(&r->c, r->seen, path, id, r->name);
}

int desktop_resolve(const struct app_scope *sc, const char *app, char **id_out, struct tb_error *e)
{
	size_t n = strlen(app);
	char *id = n > 8 && !strcmp(app + n - 8, ".desktop") ? xstrdup(app) : xasprintf("%s.desktop", app);
	char *orig = app_id_ok(id) ? desktop_original(sc, id) : NULL;
	if (orig) {
		free(orig);
		*id_out = id;
		return 0;
	}
	free(id);
	struct resolving r = {.seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
			      .name = app};
	sb_append(&r.c.list, "");
	desktop_each_entry(sc, resolve_one, &r);
	g_hash_table_destroy(r.seen);
	struct candidates c = r.c;
	int rc = 0;
	char *asked = term_text(app, 0);
	if (c.n == 1)
		*id_out = c.id, c.id = NULL;
	else if (c.n == 0)
		rc = tb_fail(e, TB_R_APP_NOT_FOUND,
			     "no installed application has the desktop file ID or the name \"%.200s\"; give the ID of its entry (the file name in /usr/share/applications, like org.example.App.desktop)",
			     asked);
	else
		rc = tb_fail(e, TB_R_APP_AMBIGUOUS,
			     "\"%.200s\" names %zu applications: %.600s%s; give one of their desktop file IDs",
			     asked, c.n, c.list.buf, c.n > 10 ? ", …" : "");
	free(asked);
	free(c.id);
	sb_free(&c.list);
	return rc;
}
