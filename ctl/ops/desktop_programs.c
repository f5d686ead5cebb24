/* The programs of the desktop's application entries. */
#include "ops/desktop_programs.h"
#include "ops/desktop_entry.h"
#include "base/alloc.h"
#include "base/fs.h"

#include <dirent.h>
#include <glib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DESKTOP_PROGRAMS_MAX 4096

/* The program an Exec value starts: its first word, past `env` and VAR=value words. */
static char *exec_program(const char *exec)
{
	gchar **argv = NULL;
	gint argc = 0;
	if (!g_shell_parse_argv(exec, &argc, &argv, NULL))
		return NULL;
	gint i = 0;
	if (i < argc && (!strcmp(argv[i], "env") || !strcmp(argv[i], "/usr/bin/env")))
		for (i++; i < argc && strchr(argv[i], '=') && argv[i][0] != '-'; i++)
			;
	char *found = NULL;
	if (i < argc && argv[i][0]) {
		gchar *p = argv[i][0] == '/' ? g_strdup(argv[i]) : g_find_program_in_path(argv[i]);
		char real[PATH_MAX];
		if (p && realpath(p, real))
			found = xstrdup(real);
		g_free(p);
	}
	g_strfreev(argv);
	return found;
}

static int known(const struct desktop_programs *d, const char *id)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].id, id))
			return 1;
	return 0;
}

static void consider(struct desktop_programs *d, const char *path, const char *id)
{
	struct stat st;
	if (d->n >= DESKTOP_PROGRAMS_MAX || known(d, id) || stat(path, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > DESKTOP_MAX_BYTES)
		return;
	GKeyFile *kf = g_key_file_new();
	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL)) {
		g_key_file_free(kf);
		return;
	}
	gchar *type = g_key_file_get_string(kf, G_KEY_FILE_DESKTOP_GROUP, "Type", NULL);
	gchar *mark = g_key_file_get_string(kf, G_KEY_FILE_DESKTOP_GROUP, "X-TB323FU-Mesa-Override", NULL);
	gchar *exec = g_key_file_get_string(kf, G_KEY_FILE_DESKTOP_GROUP, "Exec", NULL);
	gchar *name = g_key_file_get_locale_string(kf, G_KEY_FILE_DESKTOP_GROUP, "Name", NULL, NULL);
	if (type && !strcmp(type, "Application") && !(mark && !strcmp(mark, OVERRIDE_MARK)) && exec) {
		d->v = xrealloc(d->v, (d->n + 1) * sizeof *d->v);
		struct desktop_program *p = &d->v[d->n++];
		p->id = xstrdup(id);
		p->entry = xstrdup(path);
		p->program = exec_program(exec);
		p->name = xstrdup(name ? name : id);
	}
	g_free(type);
	g_free(mark);
	g_free(exec);
	g_free(name);
	g_key_file_free(kf);
}

static void scan_dir(struct desktop_programs *d, const char *dir, const char *prefix, int depth)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		char *path = path_join(dir, de->d_name);
		size_t n = strlen(de->d_name);
		if (n > 8 && !strcmp(de->d_name + n - 8, ".desktop")) {
			char *id = xasprintf("%s%s", prefix, de->d_name);
			consider(d, path, id);
			free(id);
		} else if (depth > 0 && is_directory(path)) {
			char *sub = xasprintf("%s%s-", prefix, de->d_name);
			scan_dir(d, path, sub, depth - 1);
			free(sub);
		}
		free(path);
	}
	closedir(dh);
}

void desktop_programs_scan(const struct app_scope *sc, struct desktop_programs *d)
{
	memset(d, 0, sizeof *d);
	(void)sc;
	const char *dirs = getenv("XDG_DATA_DIRS");
	if (!dirs || !*dirs)
		dirs = "/usr/local/share:/usr/share";
	for (const char *p = dirs; *p;) {
		size_t n = strcspn(p, ":");
		if (n && p[0] == '/') {
			char *dir = xasprintf("%.*s/applications", (int)n, p);
			scan_dir(d, dir, "", 1);
			free(dir);
		}
		p += n;
		p += *p == ':';
	}
}

void desktop_programs_free(struct desktop_programs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].id);
		free(d->v[i].entry);
		free(d->v[i].program);
		free(d->v[i].name);
	}
	free(d->v);
	memset(d, 0, sizeof *d);
}

const struct desktop_program *desktop_program_of(const struct desktop_programs *d, const char *exe,
						 const char *comm)
{
	const struct desktop_program *hit = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const char *prog = d->v[i].program;
		if (!prog)
			continue;
		const char *base = strrchr(prog, '/');
		base = base ? base + 1 : prog;
		int match = exe ? !strcmp(prog, exe)
				: comm && *comm && !strncmp(base, comm, strlen(comm)) &&
					  (strlen(comm) >= 15 || !base[strlen(comm)]);
		if (!match)
			continue;
		if (hit)
			return NULL;
		hit = &d->v[i];
	}
	return hit;
}
