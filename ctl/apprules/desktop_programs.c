/* The programs of the desktop's application entries. */
#include "apprules/desktop_programs.h"
#include "apprules/desktop_entry.h"
#include "apprules/desktop_find.h"
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
	if (d->n >= DESKTOP_PROGRAMS_MAX || known(d, id))
		return;
	GKeyFile *kf = read_entry(path, 0, DESKTOP_MAX_BYTES);
	if (!kf)
		return;
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

static void consider_one(void *ctx, const char *path, const char *id)
{
	consider(ctx, path, id);
}

void desktop_programs_scan(const struct app_scope *sc, struct desktop_programs *d)
{
	memset(d, 0, sizeof *d);
	desktop_each_entry(sc, consider_one, d);
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
