/* Our entry made from an original: every Exec prefixed by the launcher, the marks that say it
 * is ours (ctl/apprules/override_entry.h, docs/design.md §16). The Exec values are only ever
 * prefixed, never parsed. */
#include "apprules/override_entry.h"
#include "apprules/desktop_entry.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/hash.h"
#include "base/strbuf.h"
#include "base/text.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* Characters that need neither quoting nor escaping in an Exec value (the Desktop Entry
 * spec's reserved characters, `%` and the string escapes are all outside it). */
#define EXEC_PLAIN "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-"

static char *prefix_of(const struct override_spec *spec, const char *choice, const char *gl)
{
	const char *store = spec->store ? " --store " : "", *root = spec->store ? spec->store : "";
	if (!strcmp(choice, "distro"))
		return xasprintf("%s%s%s distro --", spec->launcher, store, root);
	const char *gl_opt = gl ? " --gl " : "", *gl_word = gl ? gl : "";
	if (!strcmp(choice, "current"))
		return xasprintf("%s%s%s run%s%s --", spec->launcher, store, root, gl_opt, gl_word);
	return xasprintf("%s%s%s run%s%s --version %s --", spec->launcher, store, root, gl_opt, gl_word, choice);
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
		return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s is over 1 MiB; no rule was set", orig_path);
	if (memchr(text, '\0', len) || !g_utf8_validate(text, (gssize)len, NULL) ||
	    !g_utf8_validate(orig_path, -1, NULL))
		return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s is not UTF-8 text, as desktop entries must be; no rule was set", orig_path);
	if (has_control(text, len))
		return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s has a control character, which desktop entries may not have; no rule was set", orig_path);
	if (strspn(spec->launcher, EXEC_PLAIN) != strlen(spec->launcher) || spec->launcher[0] != '/' ||
	    (spec->store && strspn(spec->store, EXEC_PLAIN) != strlen(spec->store)))
		return tb_fail(e, TB_R_FAILED, "the launcher %s or the store %s has characters an Exec line would have to quote; install them under a plain path",
			       spec->launcher, spec->store ? spec->store : "");
	GKeyFile *kf = load_entry(text, len);
	if (!kf)
		return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s is not a desktop entry GLib can read; no rule was set", orig_path);
	const char *why = unusable(kf);
	if (why) {
		g_key_file_free(kf);
		return tb_fail(e, TB_R_FILE_INVALID, "the desktop entry %s %s; no rule was set", orig_path, why);
	}
	int distro = !strcmp(spec->choice, "distro");
	char *prefix = prefix_of(spec, spec->choice, spec->gl), *other = prefix_of(spec, distro ? "current" : "distro", NULL);
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
	if (spec->gl)
		g_key_file_set_value(kf, DE, KEY_GL, spec->gl);
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
		return tb_fail(e, TB_R_FILE_INVALID,
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
