/* The per-application rule files (ctl/apprules/rules.h, docs/design.md §16): parsed strictly, like
 * the state file, so that damage is seen rather than read as "no rules". */
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "base/text.h"
#include "common/storelayout.h"
#include "common/version_name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_APPS_DIR "/usr/local/share/applications"
/* Where the system's override entries go instead (tests, other layouts). */
#define APPS_DIR_VAR "TB323FU_MESA_APPS_DIR"

void app_scope_system(struct app_scope *sc, const struct store *s)
{
	memset(sc, 0, sizeof *sc);
	const char *dir = getenv(APPS_DIR_VAR);
	sc->rules_file = path_join(s->root, STORE_APP_RULES);
	sc->apps_dir = xstrdup(dir && *dir ? dir : DEFAULT_APPS_DIR);
}

/* $VAR when it is an absolute path (the XDG rule: a relative one is ignored), else ~/fallback. */
static char *xdg_dir(const char *var, const char *fallback)
{
	const char *v = getenv(var);
	if (v && v[0] == '/')
		return xstrdup(v);
	const char *home = getenv("HOME");
	if (!home || home[0] != '/')
		return NULL;
	return path_join(home, fallback);
}

int app_scope_user(struct app_scope *sc, struct tb_error *e)
{
	memset(sc, 0, sizeof *sc);
	char *config = xdg_dir("XDG_CONFIG_HOME", ".config");
	char *data = xdg_dir("XDG_DATA_HOME", ".local/share");
	if (!config || !data) {
		free(config);
		free(data);
		return tb_fail(e, TB_R_FAILED,
			       "your own rules need a home directory: set HOME (or XDG_CONFIG_HOME and XDG_DATA_HOME)");
	}
	sc->user = 1;
	sc->rules_file = xasprintf("%s/tb323fu/mesa-apps", config);
	sc->lock_file = xasprintf("%s/tb323fu/.mesa-apps.lock", config);
	sc->apps_dir = path_join(data, "applications");
	free(config);
	free(data);
	return 0;
}

void app_scope_free(struct app_scope *sc)
{
	free(sc->rules_file);
	free(sc->lock_file);
	free(sc->apps_dir);
	memset(sc, 0, sizeof *sc);
}

int app_id_ok(const char *id)
{
	static const char suffix[] = ".desktop";
	size_t n = strlen(id), k = sizeof suffix - 1;
	return n > k && n <= APP_ID_MAX && id[0] != '.' && !strcmp(id + n - k, suffix) &&
	       strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+-") == n;
}

int app_choice_ok(const char *choice)
{
	return !strcmp(choice, "current") || !strcmp(choice, "distro") || version_name_ok(choice);
}

int app_gl_ok(const char *choice, const char *gl)
{
	return strcmp(choice, "distro") && (!strcmp(gl, "native") || !strcmp(gl, "zink") || !strcmp(gl, "distro"));
}

void apprules_free(struct app_rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].id);
		free(r->v[i].choice);
		free(r->v[i].gl);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}

const struct app_rule *apprules_find(const struct app_rules *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id))
			return &r->v[i];
	return NULL;
}

void apprules_set(struct app_rules *r, const char *id, const char *choice)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id)) {
			free(r->v[i].choice);
			free(r->v[i].gl);
			r->v[i].choice = xstrdup(choice);
			r->v[i].gl = NULL;
			return;
		}
	r->v = xrealloc(r->v, (r->n + 1) * sizeof *r->v);
	r->v[r->n].id = xstrdup(id);
	r->v[r->n].choice = xstrdup(choice);
	r->v[r->n].gl = NULL;
	r->n++;
}

void apprules_set_gl(struct app_rules *r, const char *id, const char *gl)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id)) {
			free(r->v[i].gl);
			r->v[i].gl = gl ? xstrdup(gl) : NULL;
		}
}

int apprules_unset(struct app_rules *r, const char *id)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].id, id)) {
			free(r->v[i].id);
			free(r->v[i].choice);
			free(r->v[i].gl);
			memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof *r->v);
			r->n--;
			return 1;
		}
	return 0;
}

/* One `ID=CHOICE` or `ID=CHOICE gl=GL` line; -1 when it is not one a writer writes. */
static int take_line(struct app_rules *r, char *line)
{
	char *eq = strchr(line, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	const char *id = line, *choice = eq + 1, *gl = NULL;
	char *space = strchr(eq + 1, ' ');
	if (space) {
		*space = '\0';
		if (strncmp(space + 1, "gl=", 3) || !app_gl_ok(choice, space + 4))
			return -1;
		gl = space + 4;
	}
	if (!app_id_ok(id) || !app_choice_ok(choice) || apprules_find(r, id) ||
	    r->n >= APPRULES_MAX_RULES)
		return -1;
	apprules_set(r, id, choice);
	apprules_set_gl(r, id, gl);
	return 0;
}

int apprules_parse(const char *text, size_t len, struct app_rules *r)
{
	memset(r, 0, sizeof *r);
	char *copy = text_copy_checked(text, len, APPRULES_MAX_BYTES);
	if (!copy)
		return -1;
	int bad = 0;
	char *cursor = copy, *line;
	while (!bad && (line = next_line(&cursor)))
		bad = *line && take_line(r, line);
	free(copy);
	if (bad)
		apprules_free(r);
	return bad ? -1 : 0;
}

void apprules_format(const struct app_rules *r, struct strbuf *sb)
{
	sb_append(sb, "");
	for (size_t i = 0; i < r->n; i++)
		sb_appendf(sb, "%s=%s%s%s\n", r->v[i].id, r->v[i].choice, r->v[i].gl ? " gl=" : "",
			   r->v[i].gl ? r->v[i].gl : "");
}

int apprules_load(const struct app_scope *sc, struct app_rules *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	size_t len = 0;
	char *text = read_small_file_nofollow(sc->rules_file, APPRULES_MAX_BYTES, &len);
	if (!text) {
		if (errno == ENOENT)
			return 0;
		if (errno == ELOOP || errno == E2BIG || errno == ESPIPE)
			return 1;
		/* a file the caller may not open is not damage: said as a permission problem */
		if ((errno == EACCES || errno == EPERM) && sc->user)
			return tb_fail(e, TB_R_PERMISSION,
				       "you may not read your rule file %s (written by a command run with sudo?); nothing was changed: give it back with `sudo chown %u %s`",
				       sc->rules_file, (unsigned)geteuid(), sc->rules_file),
			       -1;
		if (errno == EACCES || errno == EPERM)
			return tb_fail(e, TB_R_PERMISSION,
				       "you may not read the system's rule file %s; nothing was changed: run the command as root (sudo)",
				       sc->rules_file),
			       -1;
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot read the rules %s", sc->rules_file), -1;
	}
	/* one owner: a user's rules are that user's file, the system's the store owner's */
	struct stat st;
	if (stat(sc->rules_file, &st) == 0 && sc->user && st.st_uid != geteuid()) {
		free(text);
		return tb_fail(e, TB_R_PERMISSION,
			       "your rule file %s belongs to another user (uid %u; written by a command run with sudo?), so it is not read and nothing was changed: give it back with `sudo chown %u %s`",
			       sc->rules_file, (unsigned)st.st_uid, (unsigned)geteuid(), sc->rules_file),
		       -1;
	}
	int rc = apprules_parse(text, len, r) ? 1 : 0;
	free(text);
	return rc;
}

int apprules_save(const struct app_scope *sc, const struct app_rules *r, struct tb_error *e)
{
	char *dir = xstrdup(sc->rules_file);
	*strrchr(dir, '/') = '\0';
	int rc = mkdir_p(dir, 0755, e);
	free(dir);
	if (rc)
		return rc;
	struct strbuf sb = {0};
	apprules_format(r, &sb);
	rc = atomic_write_file(sc->rules_file, sb.buf, sb.len, 0644, e);
	sb_free(&sb);
	return rc;
}
