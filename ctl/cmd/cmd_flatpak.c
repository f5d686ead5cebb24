/* flatpak export|list|unexport: a store's version as a Flatpak GL extension
 * (docs/design.md §17). The rules are in ops/flatpak_export.c; these parse, call, report. */
#include "cli/cli.h"
#include "ops/flatpak_export.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "common/flatpakname.h"
#include "common/version_name.h"

#include <stdlib.h>
#include <string.h>

/* VERSION, `current` or nothing (current): the version meant, allocated, or NULL with the
 * failure in o. */
static char *version_meant(const struct store *s, const char *word, struct outcome *o)
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

static json_object *export_json(const struct flatpak_export *x)
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

COMMAND(flatpak_export)
{
	(void)c;
	const struct opts_flatpak *a = opts;
	char *v = version_meant(s, a->version, o);
	if (!v)
		return o->code;
	struct flatpak_export *done;
	size_t n;
	struct tb_error e = {0};
	int rc = flatpak_export(s, v, a->branch, a->user, &done, &n, &e);
	json_object *arr = json_object_new_array();
	struct strbuf said = {0};
	uint64_t bytes = 0;
	unsigned linked = 0, copied = 0;
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			json_object_array_add(arr, export_json(&done[i]));
		bytes += done[i].bytes;
		linked += done[i].linked;
		copied += done[i].copied;
		sb_appendf(&said, "%s%s", i ? ", " : "", done[i].branch);
	}
	if (rc) {
		json_object_put(arr);
		outcome_fail(o, &e);
	} else {
		outcome_str(o, "version", v);
		outcome_str(o, "name", n ? done[0].name : "");
		json_object_object_add(o->fields, "exports", arr);
		outcome_int(o, "bytes", (int64_t)bytes);
		outcome_int(o, "linked", linked);
		outcome_int(o, "copied", copied);
		outcome_say(o, "Mesa %s exported as the Flatpak extension %s.%s for %s//%s (%s); start an application with it: tb323fu-ctl mesa app set APP %s, or tb323fu-mesa run flatpak run APP",
			    v, FLATPAK_GL_POINT, done[0].name, FLATPAK_RUNTIME, said.buf,
			    a->user ? "your installation" : "the system's installation", v);
	}
	sb_free(&said);
	flatpak_exports_free(done, n);
	free(v);
	return rc;
}

COMMAND(flatpak_list)
{
	(void)c;
	const struct opts_flatpak *a = opts;
	size_t n;
	struct flatpak_export *v = flatpak_exports_list(s->root, a->user, &n);
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0};
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(arr, export_json(&v[i]));
		sb_appendf(&lines, "%s%s.%s  Mesa %s  %s//%s  %s", i ? "\n" : "", FLATPAK_GL_POINT,
			   v[i].name, v[i].version, FLATPAK_RUNTIME, v[i].branch,
			   v[i].user ? "user" : "system");
	}
	if (!o->fields)
		outcome_str(o, "store", s->root);
	json_object_object_add(o->fields, "exports", arr);
	outcome_say(o, "%s", n ? lines.buf : "no version of this store is exported to Flatpak");
	sb_free(&lines);
	flatpak_exports_free(v, n);
	return TB_OK;
}

COMMAND(flatpak_unexport)
{
	(void)c;
	const struct opts_flatpak *a = opts;
	char *v = NULL;
	if (a->version) {
		if (strcmp(a->version, "current") && !version_name_ok(a->version))
			return cli_usage(o, "\"%.80s\" is not a Mesa version (like 2026.10.06) nor current", a->version);
		/* a version that is gone from the store may still have its export */
		v = strcmp(a->version, "current") ? xstrdup(a->version) : store_current(s);
		if (!v) {
			struct tb_error e = {0};
			tb_fail_why(&e, TB_EFAIL, "not-installed", "there is no current version to unexport");
			return outcome_fail(o, &e);
		}
	}
	size_t removed = 0;
	struct tb_error e = {0};
	int rc = flatpak_unexport(s, v, a->branch, a->user, &removed, &e);
	if (rc) {
		outcome_fail(o, &e);
	} else {
		outcome_int(o, "removed", (int64_t)removed);
		outcome_str(o, "version", v ? v : "");
		if (removed)
			outcome_say(o, "%zu Flatpak extension%s of %s removed from %s", removed,
				    removed == 1 ? "" : "s", v ? v : "this store", a->user ? "your installation" : "the system's installation");
		else
			outcome_say(o, "no Flatpak extension of %s in %s; nothing was changed", v ? v : "this store",
				    a->user ? "your installation" : "the system's installation");
	}
	free(v);
	return rc;
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
	size_t n;
	struct flatpak_export *x = flatpak_exports_list(s->root, 0, &n);
	int found = 0;
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(x[i].version, v);
	flatpak_exports_free(x, n);
	char *note = found ? NULL
			   : xasprintf("; it is a Flatpak application: export Mesa %s for it first (tb323fu-ctl mesa flatpak export %s%s), until then it starts on its runtime's Mesa",
				       v, v, user ? " --user" : "");
	free(v);
	return note;
}
