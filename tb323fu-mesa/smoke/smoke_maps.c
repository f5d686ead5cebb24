/* Which driver libraries are really mapped into this process: the proof that the loaders
 * picked the store's copy and not the distribution's. */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smoke/smoke_maps.h"

struct names {
	char **v;
	int n, cap;
};

static void names_add(struct names *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v)
			abort();
	}
	l->v[l->n] = strdup(s);
	if (!l->v[l->n])
		abort();
	l->n++;
}

/* Adds path unless the list holds it already (one file mapped under two names). */
static void names_add_once(struct names *l, const char *path)
{
	for (int j = 0; j < l->n; j++)
		if (strcmp(l->v[j], path) == 0)
			return;
	names_add(l, path);
}

/* Frees the mapped objects' names and hands the found paths to out. */
static void names_finish(struct names *objects, struct names *found, struct smoke_libs *out)
{
	for (int i = 0; i < objects->n; i++)
		free(objects->v[i]);
	free(objects->v);
	out->paths = found->v;
	out->n = found->n;
}

static int collect_object(struct dl_phdr_info *info, size_t size, void *data)
{
	if (info->dlpi_name && info->dlpi_name[0])
		names_add(data, info->dlpi_name);
	return 0;
}

char *smoke_library_of(const void *addr)
{
	Dl_info info;
	if (!addr || !dladdr(addr, &info) || !info.dli_fname)
		return NULL;
	return realpath(info.dli_fname, NULL);
}

void smoke_mapped_drivers(const char *symbol, struct smoke_libs *out)
{
	struct names objects = {0};
	struct names found = {0};
	/* Names first, dlopen afterwards: the loader's lock is held inside the iteration. */
	dl_iterate_phdr(collect_object, &objects);
	for (int i = 0; i < objects.n; i++) {
		void *h = dlopen(objects.v[i], RTLD_LAZY | RTLD_NOLOAD);
		if (!h)
			continue;
		/* dlsym also searches the object's dependencies: count the object only when the
		 * symbol is its own definition. */
		char *owner = smoke_library_of(dlsym(h, symbol));
		char *self = realpath(objects.v[i], NULL);
		if (owner && self && strcmp(owner, self) == 0)
			names_add_once(&found, self);
		free(owner);
		free(self);
		dlclose(h);
	}
	names_finish(&objects, &found, out);
}

void smoke_mapped_named(int (*want)(const char *name), struct smoke_libs *out)
{
	struct names objects = {0};
	struct names found = {0};
	dl_iterate_phdr(collect_object, &objects);
	for (int i = 0; i < objects.n; i++) {
		const char *base = strrchr(objects.v[i], '/');
		char *self = want(base ? base + 1 : objects.v[i]) ? realpath(objects.v[i], NULL) : NULL;
		if (self)
			names_add_once(&found, self);
		free(self);
	}
	names_finish(&objects, &found, out);
}

void smoke_libs_free(struct smoke_libs *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
}

int smoke_check_drivers(const char *kind, const struct smoke_libs *libs, const char *expected,
			struct smoke_result *r)
{
	if (libs->n == 0) {
		smoke_set(r, SMOKE_FAIL, "no %s driver library is mapped into the process", kind);
		return -1;
	}
	if (!expected) {
		if (libs->n == 1)
			return 0;
		smoke_set(r, SMOKE_FAIL, "%d %s driver libraries are mapped (%s, %s…)", libs->n, kind,
			  libs->paths[0], libs->paths[1]);
		return -1;
	}
	/* The loader may have opened the library through current/ or the version's real
	 * directory: compare real paths. */
	char *want = realpath(expected, NULL);
	if (!want) {
		smoke_set(r, SMOKE_FAIL, "the release's %s driver %s does not exist", kind, expected);
		return -1;
	}
	int seen = 0;
	const char *other = NULL;
	for (int i = 0; i < libs->n; i++) {
		if (strcmp(libs->paths[i], want) == 0)
			seen = 1;
		else if (!other)
			other = libs->paths[i];
	}
	int rc = 0;
	if (!seen) {
		smoke_set(r, SMOKE_FAIL, "the %s driver mapped is %s, not the release's %s", kind,
			  libs->paths[0], want);
		rc = -1;
	} else if (other) {
		smoke_set(r, SMOKE_FAIL, "another %s driver is mapped besides the release's: %s",
			  kind, other);
		rc = -1;
	}
	free(want);
	return rc;
}
