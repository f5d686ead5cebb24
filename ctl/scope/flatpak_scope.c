/* What the flatpak commands share (ctl/scope/flatpak_scope.h). */
#include "scope/flatpak_scope.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "common/flatpakname.h"
#include "common/version_name.h"
#include "common/storelayout.h"
#include "common/envvars.h"
#include "base/fs.h"
#include "flatpak/session.h"

#include <stdlib.h>
#include <string.h>

char *version_meant(const struct store *s, const char *word, struct outcome *o)
{
	if (word && strcmp(word, "current")) {
		if (!version_name_ok(word)) {
			cli_usage(o, "\"%.80s\" is not a Mesa version (like 2026.10.06) nor current", word);
			return NULL;
		}
		return cli_pick_version(s, word, o);
	}
	return cli_pick_version(s, NULL, o);
}

json_object *export_json(const struct flatpak_export *x)
{
	json_object *j = json_object_new_object();
	json_object_object_add(j, "name", json_object_new_string(x->name));
	json_object_object_add(j, "extension", json_object_new_string(x->path));
	json_object_object_add(j, "version", json_object_new_string(x->version));
	json_object_object_add(j, "branch", json_object_new_string(x->branch));
	json_object_object_add(j, "scope", json_object_new_string(x->user ? "user" : "system"));
	json_object_object_add(j, "store", json_object_new_string(x->store));
	return j;
}

void flatpak_summary(const struct store *s, json_object *arr, struct strbuf *lines,
		     struct strbuf *gone)
{
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, 0, &n);
	for (size_t i = 0; i < n; i++) {
		if (arr)
			json_object_array_add(arr, export_json(&v[i]));
		const char *scope = v[i].user ? "user" : "system";
		sb_appendf(lines, "%sMesa %s as %s.%s for %s//%s (%s)", lines->len ? "\n" : "", v[i].version,
			   FLATPAK_GL_POINT, v[i].name, FLATPAK_RUNTIME, v[i].branch, scope);
		if (!store_has_version(s, v[i].version))
			sb_appendf(gone, "the Flatpak extension %s.%s (%s) is of Mesa %s, which is no longer installed: tb323fu-ctl mesa flatpak unexport %s%s\n",
				   FLATPAK_GL_POINT, v[i].name, scope, v[i].version, v[i].version,
				   v[i].user ? " --user" : "");
	}
	flatpak_exports_free(v, n);
}

char *flatpak_app_note(const struct store *s, const char *original, const char *choice, int user)
{
	if (!original || !strstr(original, "/exports/share/applications/") || !strcmp(choice, "distro"))
		return NULL;
	char *v = strcmp(choice, "current") ? xstrdup(choice) : store_current(s);
	if (!v)
		return NULL;
	char *note = flatpak_version_exported(s->root, v) ? NULL
			   : xasprintf("; it is a Flatpak application: export Mesa %s for it first (tb323fu-ctl mesa flatpak export %s%s), until then it starts on its runtime's Mesa",
				       v, v, user ? " --user" : "");
	free(v);
	return note;
}

void flatpak_session_summary(const struct store *s, struct strbuf *sb, int *ours)
{
	*ours = 0;
	char *conf = store_path(s, STORE_ENV_CONF), *fconf = store_path(s, STORE_FLATPAK_CONF);
	char *env = read_small_file_nofollow(conf, 64 * 1024, NULL);
	char *fp = read_small_file_nofollow(fconf, 64 * 1024, NULL);
	char *cur = store_current(s);
	char name[128];
	int on = env && *env;
	int named = cur && flatpak_export_name(cur, name, sizeof name);
	char *want = named ? xasprintf("%s=%s:%s\n", FLATPAK_GL_DRIVERS_VAR, name, FLATPAK_GL_DEFAULT) : NULL;
	sb_append(sb, "Flatpak applications started from the session: ");
	if (on && want && fp && !strcmp(fp, want)) {
		*ours = 1;
		char *gl = store_path(s, STORE_CURRENT_GL_ENV);
		sb_appendf(sb, "Mesa %s's extension (%s)%s beside their runtime's own (%s/%s gives %s; "
			       "the installation's override keeps %s out of the sandbox)",
			   cur, name, path_exists(gl) ? ", its GL too," : "", s->root, STORE_FLATPAK_CONF,
			   FLATPAK_GL_DRIVERS_VAR, ENV_OCL_ICD_VENDORS);
		free(gl);
	} else if (on && cur) {
		sb_appendf(sb, "their runtime's Mesa: Mesa %s is not exported to Flatpak (tb323fu-ctl mesa flatpak export, then tb323fu-ctl mesa on)",
			   cur);
	} else {
		sb_append(sb, "their runtime's Mesa (the session is off)");
	}
	free(want);
	free(cur);
	free(env);
	free(fp);
	free(conf);
	free(fconf);
}
