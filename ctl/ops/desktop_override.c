/* Override desktop entries (ctl/ops/desktop_override.h, docs/design.md §16). */
#include "ops/desktop_override.h"
#include "ops/flatpak_runtime.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/strbuf.h"
#include "base/text.h"

#include <dirent.h>
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define DE "Desktop Entry"
#define KEY_MARK "X-TB323FU-Mesa-Override"
#define KEY_RULE "X-TB323FU-Mesa-Rule"
#define KEY_ORIGINAL "X-TB323FU-Mesa-Original"
#define KEY_ORIGINAL_SHA "X-TB323FU-Mesa-Original-SHA256"
#define ACTION_GROUP "Desktop Action " OVERRIDE_ACTION
/* Ours is the original plus a prefix on each Exec and a few keys. */
#define OVERRIDE_MAX_BYTES (2 * DESKTOP_MAX_BYTES)

/* Characters that need neither quoting nor escaping in an Exec value (the Desktop Entry
 * spec's reserved characters, `%` and the string escapes are all outside it). */
#define EXEC_PLAIN "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-"

static GKeyFile *load_entry(const char *text, size_t len)
{
	GKeyFile *kf = g_key_file_new();
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_COMMENTS | G_KEY_FILE_KEEP_TRANSLATIONS,
				       NULL)) {
		g_key_file_free(kf);
		return NULL;
	}
	return kf;
}

static int is_ours(GKeyFile *kf)
{
	gchar *mark = g_key_file_get_value(kf, DE, KEY_MARK, NULL);
	int ours = mark && !strcmp(mark, OVERRIDE_MARK);
	g_free(mark);
	return ours;
}

/* A file of ours, read without following a link at its own name when nofollow. */
static GKeyFile *read_entry(const char *path, int nofollow, size_t max)
{
	size_t len = 0;
	char *text = nofollow ? read_small_file_nofollow(path, max, &len) : read_small_file(path, max, &len);
	if (!text)
		return NULL;
	GKeyFile *kf = memchr(text, '\0', len) || !g_utf8_validate(text, (gssize)len, NULL)
			       ? NULL : load_entry(text, len);
	free(text);
	return kf;
}

/* --- where the desktop finds entries --- */

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
	/* --- Flatpak applications (docs/design.md §17): the entries the installations export,
	 * the user's (user rules only) and the system's, where a session's XDG_DATA_DIRS has
	 * them already; the launcher gives `flatpak run` the version's GL extension --- */
	for (int user = sc->user; user >= 0; user--) {
		char *inst = flatpak_installation_dir(user);
		char *apps = inst ? xasprintf("%s/exports/share/applications", inst) : NULL;
		int listed = 0;
		for (size_t i = 0; apps && i < d->n && !listed; i++)
			listed = !strcmp(d->v[i], apps);
		if (apps && !listed)
			dirlist_add(d, apps);
		else
			free(apps);
		free(inst);
	}
	/* --- end Flatpak --- */
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

/* --- resolving a name --- */

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

static void scan_dir(const char *dir, const char *prefix, int depth, GHashTable *seen,
		     struct candidates *c, const char *name)
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
			scan_dir(path, sub, 1, seen, c, name);
			free(sub);
		} else if (there && S_ISREG(st.st_mode) && app_id_ok(id)) {
			consider(c, seen, path, id, name);
		}
		free(id);
		free(path);
	}
	closedir(dh);
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
	struct dirlist d;
	search_dirs(sc, &d);
	struct candidates c = {0};
	sb_append(&c.list, "");
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (size_t i = 0; i < d.n; i++)
		scan_dir(d.v[i], "", 0, seen, &c, app);
	g_hash_table_destroy(seen);
	dirlist_free(&d);
	int rc = 0;
	char *asked = term_text(app, 0);
	if (c.n == 1)
		*id_out = c.id, c.id = NULL;
	else if (c.n == 0)
		rc = tb_fail_why(e, TB_EFAIL, "app-not-found",
				 "no installed application has the desktop file ID or the name \"%.200s\"; give the ID of its entry (the file name in /usr/share/applications, like org.example.App.desktop)",
				 asked);
	else
		rc = tb_fail_why(e, TB_EFAIL, "app-ambiguous",
				 "\"%.200s\" names %zu applications: %.600s%s; give one of their desktop file IDs",
				 asked, c.n, c.list.buf, c.n > 10 ? ", …" : "");
	free(asked);
	free(c.id);
	sb_free(&c.list);
	return rc;
}

/* --- building ours --- */

static char *prefix_of(const struct override_spec *spec, const char *choice)
{
	const char *store = spec->store ? " --store " : "", *root = spec->store ? spec->store : "";
	if (!strcmp(choice, "distro"))
		return xasprintf("%s%s%s distro --", spec->launcher, store, root);
	if (!strcmp(choice, "current"))
		return xasprintf("%s%s%s run --", spec->launcher, store, root);
	return xasprintf("%s%s%s run --version %s --", spec->launcher, store, root, choice);
}

/* Exec=PREFIX ORIGINAL: the original value as it was written, escapes, quotes and field
 * codes included, so that it means for the launcher what it meant for the desktop. */
static void wrap_exec(GKeyFile *kf, const char *group, const char *prefix, const char *raw)
{
	char *wrapped = xasprintf("%s %s", prefix, raw);
	g_key_file_set_value(kf, group, "Exec", wrapped);
	free(wrapped);
}

static int has_exec(GKeyFile *kf, const char *group)
{
	gchar *raw = g_key_file_get_value(kf, group, "Exec", NULL);
	int yes = raw && raw[strspn(raw, " \t")];
	g_free(raw);
	return yes;
}

/* Every action's Exec wrapped; an action without one (D-Bus activation only, which would not
 * carry the rule) is left out; ours added last. */
static void wrap_actions(GKeyFile *kf, const char *prefix)
{
	gsize n = 0;
	gchar **acts = g_key_file_get_string_list(kf, DE, "Actions", &n, NULL);
	GPtrArray *kept = g_ptr_array_new();
	for (gsize i = 0; acts && i < n; i++) {
		/* Actions=a;a; names one action: its Exec is wrapped once */
		int again = 0;
		for (guint k = 0; k < kept->len && !again; k++)
			again = !strcmp(kept->pdata[k], acts[i]);
		if (again)
			continue;
		char *group = xasprintf("Desktop Action %s", acts[i]);
		if (strcmp(acts[i], OVERRIDE_ACTION) && has_exec(kf, group)) {
			gchar *raw = g_key_file_get_value(kf, group, "Exec", NULL);
			wrap_exec(kf, group, prefix, raw);
			g_free(raw);
			g_ptr_array_add(kept, acts[i]);
		} else {
			g_key_file_remove_group(kf, group, NULL);
		}
		free(group);
	}
	g_ptr_array_add(kept, (gpointer)OVERRIDE_ACTION);
	g_key_file_set_string_list(kf, DE, "Actions", (const gchar *const *)kept->pdata, kept->len);
	g_ptr_array_free(kept, TRUE);
	g_strfreev(acts);
}

/* A key written twice in a group: GLib reads the last value, but keeps and writes both, and
 * cannot remove the other, which a reader could take for the one we did not wrap. */
static int repeats_a_key(GKeyFile *kf)
{
	int repeated = 0;
	gchar **groups = g_key_file_get_groups(kf, NULL);
	for (gchar **g = groups; g && *g && !repeated; g++) {
		gchar **keys = g_key_file_get_keys(kf, *g, NULL, NULL);
		GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
		for (gchar **k = keys; k && *k && !repeated; k++)
			repeated = !g_hash_table_add(seen, *k);
		g_hash_table_destroy(seen);
		g_strfreev(keys);
	}
	g_strfreev(groups);
	return repeated;
}

/* Control characters are not allowed in a desktop entry's values; GLib would write some of
 * them back other than it read them (a carriage return at a line's end). */
static int has_control(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];
		if ((ch < 0x20 && ch != '\t' && ch != '\n' && !(ch == '\r' && i + 1 < len && text[i + 1] == '\n')) ||
		    ch == 0x7f)
			return 1;
	}
	return 0;
}

/* The reason an original cannot carry a rule, or NULL. */
static const char *unusable(GKeyFile *kf)
{
	if (!g_key_file_has_group(kf, DE))
		return "has no [Desktop Entry] group";
	gchar *type = g_key_file_get_value(kf, DE, "Type", NULL);
	int app = type && !strcmp(type, "Application");
	g_free(type);
	if (!app)
		return "is not an application's (Type=Application)";
	if (g_key_file_get_boolean(kf, DE, "Hidden", NULL))
		return "is hidden (Hidden=true: it counts as deleted)";
	if (!has_exec(kf, DE))
		return "has no Exec to start it with (D-Bus activation alone cannot carry the rule)";
	if (is_ours(kf))
		return "is already one of ours";
	if (repeats_a_key(kf))
		return "has a key twice in one group (desktop-file-validate refuses it too)";
	return NULL;
}

int override_build(const char *text, size_t len, const char *orig_path, const char *orig_sha,
		   const char *id, const struct override_spec *spec, char **out, size_t *out_len,
		   struct tb_error *e)
{
	if (len > DESKTOP_MAX_BYTES)
		return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s is over 1 MiB; no rule was set", orig_path);
	if (memchr(text, '\0', len) || !g_utf8_validate(text, (gssize)len, NULL) ||
	    !g_utf8_validate(orig_path, -1, NULL))
		return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s is not UTF-8 text, as desktop entries must be; no rule was set", orig_path);
	if (has_control(text, len))
		return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s has a control character, which desktop entries may not have; no rule was set", orig_path);
	if (strspn(spec->launcher, EXEC_PLAIN) != strlen(spec->launcher) || spec->launcher[0] != '/' ||
	    (spec->store && strspn(spec->store, EXEC_PLAIN) != strlen(spec->store)))
		return tb_fail_why(e, TB_EFAIL, "failed", "the launcher %s or the store %s has characters an Exec line would have to quote; install them under a plain path",
				   spec->launcher, spec->store ? spec->store : "");
	GKeyFile *kf = load_entry(text, len);
	if (!kf)
		return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s is not a desktop entry GLib can read; no rule was set", orig_path);
	const char *why = unusable(kf);
	if (why) {
		g_key_file_free(kf);
		return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s %s; no rule was set", orig_path, why);
	}
	int distro = !strcmp(spec->choice, "distro");
	char *prefix = prefix_of(spec, spec->choice), *other = prefix_of(spec, distro ? "current" : "distro");
	gchar *raw = g_key_file_get_value(kf, DE, "Exec", NULL);
	wrap_exec(kf, DE, prefix, raw);
	wrap_actions(kf, prefix);
	/* Started through D-Bus, the entry's Exec (and so the rule) would not be used. */
	g_key_file_remove_key(kf, DE, "DBusActivatable", NULL);
	g_key_file_set_value(kf, ACTION_GROUP, "Name", distro ? "Launch with the store's Mesa"
							      : "Launch with the distribution's Mesa");
	wrap_exec(kf, ACTION_GROUP, other, raw);
	g_key_file_set_value(kf, DE, KEY_MARK, OVERRIDE_MARK);
	g_key_file_set_value(kf, DE, KEY_RULE, spec->choice);
	g_key_file_set_string(kf, DE, KEY_ORIGINAL, orig_path);
	g_key_file_set_value(kf, DE, KEY_ORIGINAL_SHA, orig_sha);
	char *comment = xasprintf(" %s: written by `tb323fu-ctl mesa app set %s`, removed by `app unset`; made from %s",
				  OVERRIDE_MARK, id, orig_path);
	g_key_file_set_comment(kf, NULL, NULL, comment, NULL);
	free(comment);
	gsize n = 0;
	gchar *data = g_key_file_to_data(kf, &n, NULL);
	/* What we write must read back as ours (app list, unset, refresh read no further than
	 * OVERRIDE_MAX_BYTES): an original of tens of thousands of actions, each Exec wrapped,
	 * would give one that is not, and is then left behind for ever. */
	if (n > OVERRIDE_MAX_BYTES) {
		g_free(data);
		g_free(raw);
		free(prefix);
		free(other);
		g_key_file_free(kf);
		return tb_fail_why(e, TB_EFAIL, "failed",
				   "the desktop entry %s would make an entry of ours of %zu bytes (each of its "
				   "actions wrapped), more than the %d MiB this tool reads back; no rule was set "
				   "(start it with `tb323fu-mesa run` instead)",
				   orig_path, (size_t)n, OVERRIDE_MAX_BYTES >> 20);
	}
	*out = xmalloc(n + 1);
	memcpy(*out, data, n + 1);
	*out_len = n;
	g_free(data);
	g_free(raw);
	free(prefix);
	free(other);
	g_key_file_free(kf);
	return 0;
}

/* --- ours on disk --- */

int desktop_file_sha256(const char *path, char hex[65])
{
	size_t len = 0;
	char *text = read_small_file(path, DESKTOP_MAX_BYTES, &len);
	if (!text)
		return -1;
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, text, len);
	sha256_end(h, hex);
	free(text);
	return 0;
}

static char *group_value(GKeyFile *kf, const char *key, int unescape)
{
	gchar *v = unescape ? g_key_file_get_string(kf, DE, key, NULL) : g_key_file_get_value(kf, DE, key, NULL);
	char *copy = v ? xstrdup(v) : NULL;
	g_free(v);
	return copy;
}

int override_owner(const struct app_scope *sc, const char *id, char **orig_path,
		   char **orig_sha, char **choice)
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
	g_key_file_free(kf);
	return ours ? 1 : 2;
}

static int refuse_foreign(const struct app_scope *sc, const char *id, struct tb_error *e)
{
	return tb_fail_why(e, TB_EFAIL, "not-ours",
			   "%s/%s is not an entry tb323fu-ctl wrote; it is left as it is (move it away to give %s a rule here)",
			   sc->apps_dir, id, id);
}

int override_plan(const struct app_scope *sc, const char *id, const char *orig_path,
		  const struct override_spec *spec, char **data, size_t *n, struct tb_error *e)
{
	*data = NULL;
	*n = 0;
	if (override_owner(sc, id, NULL, NULL, NULL) == 2)
		return refuse_foreign(sc, id, e);
	size_t len = 0;
	char *text = read_small_file(orig_path, DESKTOP_MAX_BYTES, &len);
	if (!text) {
		if (errno == E2BIG)
			return tb_fail_why(e, TB_EFAIL, "failed", "the desktop entry %s is over 1 MiB; no rule was set", orig_path);
		return tb_fail_errno(e, TB_EFAIL, "cannot read the desktop entry %s", orig_path);
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
	int owner = override_owner(sc, id, NULL, NULL, NULL);
	if (owner == 2)
		return refuse_foreign(sc, id, e);
	if (owner == 0)
		return 0;
	char *path = path_join(sc->apps_dir, id);
	int rc = unlink(path) != 0 && errno != ENOENT
			 ? tb_fail_errno(e, TB_EFAIL, "cannot remove %s", path) : 0;
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
		char *choice = NULL;
		if (app_id_ok(de->d_name) && override_owner(&sc, de->d_name, NULL, NULL, &choice) == 1 &&
		    choice && app_choice_ok(choice) && !apprules_find(r, de->d_name))
			apprules_set(r, de->d_name, choice);
		free(choice);
	}
	closedir(dh);
}

/* The rules of one scope as far as they can be known: the file, else (damaged) what the
 * override entries record. */
static void rules_known(const struct app_scope *sc, struct app_rules *r)
{
	struct tb_error ignored = {0};
	if (apprules_load(sc, r, &ignored) == 1)
		override_recover_rules(sc->apps_dir, r);
}

static char *pin_in(const struct app_scope *sc, const char *version, const char *whose,
		    const char *unset)
{
	struct app_rules r;
	rules_known(sc, &r);
	char *found = NULL;
	for (size_t i = 0; i < r.n && !found; i++)
		if (!strcmp(r.v[i].choice, version))
			found = xasprintf("%s rule for %s (tb323fu-ctl mesa app unset%s %s)", whose,
					  r.v[i].id, unset, r.v[i].id);
	apprules_free(&r);
	return found;
}

char *apprules_pinning(const struct store *s, const char *version)
{
	struct app_scope sc;
	app_scope_system(&sc, s);
	char *found = pin_in(&sc, version, "the system's", "");
	app_scope_free(&sc);
	struct tb_error ignored = {0};
	if (!found && app_scope_user(&sc, &ignored) == 0) {
		found = pin_in(&sc, version, "your", " --user");
		app_scope_free(&sc);
	}
	return found;
}
