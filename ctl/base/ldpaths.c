#include "base/ldpaths.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/fs.h"

/* Includes nest; a loop of includes must end somewhere. */
#define LD_CONF_MAX_DEPTH 8
#define LD_CONF_MAX_BYTES (1 << 20)

struct dir_list {
	char **dirs;
	size_t n, cap;
};

static void add_dir(struct dir_list *l, const char *dir)
{
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len == 0 || dir[0] != '/')
		return; /* ld.so ignores relative entries */
	char *d = xmalloc(len + 1);
	memcpy(d, dir, len);
	d[len] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->dirs[i], d) == 0) {
			free(d);
			return;
		}
	}
	if (!is_directory(d)) {
		free(d);
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->dirs = xrealloc(l->dirs, l->cap * sizeof *l->dirs);
	}
	l->dirs[l->n++] = d;
}

static void read_conf(struct dir_list *l, const char *path, int depth);

/* An include pattern is relative to the directory of the file that names it. */
static void read_include(struct dir_list *l, const char *conf, const char *pattern, int depth)
{
	char *full;
	if (pattern[0] == '/') {
		full = xstrdup(pattern);
	} else {
		const char *slash = strrchr(conf, '/');
		int dirlen = slash ? (int)(slash - conf) : 1;
		full = xasprintf("%.*s/%s", dirlen, slash ? conf : ".", pattern);
	}
	glob_t g;
	if (glob(full, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			read_conf(l, g.gl_pathv[i], depth + 1);
	}
	globfree(&g);
	free(full);
}

static void read_conf(struct dir_list *l, const char *path, int depth)
{
	if (depth > LD_CONF_MAX_DEPTH)
		return;
	size_t len;
	char *text = read_small_file(path, LD_CONF_MAX_BYTES, &len);
	if (!text)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		/* Entries are separated by blanks, commas or colons, like ldconfig reads them. */
		char *word_save = NULL;
		char *word = strtok_r(line, " \t\r,:", &word_save);
		if (!word)
			continue;
		if (strcmp(word, "include") == 0) {
			for (char *p = strtok_r(NULL, " \t\r", &word_save); p;
			     p = strtok_r(NULL, " \t\r", &word_save))
				read_include(l, path, p, depth);
			continue;
		}
		if (strcmp(word, "hwcap") == 0)
			continue;
		for (; word; word = strtok_r(NULL, " \t\r,:", &word_save)) {
			/* Old "dir=TYPE" entries name a directory too. */
			char *eq = strchr(word, '=');
			if (eq)
				*eq = '\0';
			add_dir(l, word);
		}
	}
	free(text);
}

const char *ld_multiarch_tuple(const char *arch)
{
	static const struct {
		const char *arch, *tuple;
	} tuples[] = {
		{"x86_64", "x86_64-linux-gnu"},
		{"aarch64", "aarch64-linux-gnu"},
		{"i386", "i386-linux-gnu"},
		{"i686", "i386-linux-gnu"},
		{"armv7l", "arm-linux-gnueabihf"},
		{"armv8l", "arm-linux-gnueabihf"},
		{"riscv64", "riscv64-linux-gnu"},
		{"ppc64le", "powerpc64le-linux-gnu"},
		{"s390x", "s390x-linux-gnu"},
		{"loongarch64", "loongarch64-linux-gnu"},
	};
	for (size_t i = 0; arch && i < sizeof tuples / sizeof tuples[0]; i++) {
		if (strcmp(arch, tuples[i].arch) == 0)
			return tuples[i].tuple;
	}
	return NULL;
}

char **ld_system_dirs(const char *conf, const char *arch, size_t *n)
{
	struct dir_list l = {0};
	read_conf(&l, conf ? conf : "/etc/ld.so.conf", 0);
	/* The defaults the dynamic linker searches after its cache. */
	const char *tuple = ld_multiarch_tuple(arch);
	if (tuple) {
		char *a = xasprintf("/lib/%s", tuple), *b = xasprintf("/usr/lib/%s", tuple);
		add_dir(&l, a);
		add_dir(&l, b);
		free(a);
		free(b);
	}
	if (arch && strstr(arch, "64")) {
		add_dir(&l, "/lib64");
		add_dir(&l, "/usr/lib64");
	}
	add_dir(&l, "/lib");
	add_dir(&l, "/usr/lib");
	*n = l.n;
	return l.dirs;
}

void ld_paths_free(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}
