/* The distribution's side of a suite, cached by what it depends on, and a suite's comparison
 * recorded. */
#include "gputest/suite_cache.h"
#include "gputest/side.h"

#include <dirent.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/hash.h"
#include "store/jsonfile.h"
#include "base/jsontext.h"
#include "base/ldpaths.h"
#include "gputest/smoke_run.h"
#include "gputest/suite_compare.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "store/manifest.h"
#include "store/layout.h"
#include "store/store.h"

#define RESULTS_MAX_BYTES ((size_t)256 << 20)
#define VENDORS_DIR "/etc/OpenCL/vendors"

static void hash_file_identity(struct sha256_stream *h, const char *path)
{
	char *real = realpath(path, NULL);
	struct stat st;
	char line[PATH_MAX + 100];
	if (real && stat(real, &st) == 0)
		snprintf(line, sizeof line, "%s %lld %lld.%09ld\n", real, (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	else
		snprintf(line, sizeof line, "%s missing\n", path);
	sha256_add(h, line, strlen(line));
	free(real);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *suite_system_library(const char *name)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	struct utsname u;
	size_t n = 0;
	char **dirs = uname(&u) == 0 ? ld_system_dirs(NULL, u.machine, &n) : NULL;
	char *found = NULL;
	for (size_t i = 0; i < n && !found; i++) {
		char *p = path_join(dirs[i], name);
		if (path_exists(p))
			found = p;
		else
			free(p);
	}
	ld_paths_free(dirs, n);
	return found;
}

/* A library named in a vendor file, found the way the dynamic linker finds it. */
static void hash_library(struct sha256_stream *h, const char *name)
{
	char *path = suite_system_library(name);
	if (path)
		hash_file_identity(h, path);
	free(path);
}

/* Each vendor file of the system's ICD loader and the library it names: a new distribution
 * Mesa changes one of them. */
static void hash_vendors(struct sha256_stream *h)
{
	DIR *d = opendir(VENDORS_DIR);
	if (!d)
		return;
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *de; (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (len > 4 && !strcmp(de->d_name + len - 4, ".icd")) {
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(VENDORS_DIR, names[i]);
		size_t len;
		char *text = read_small_file(path, 4096, &len);
		sha256_add(h, names[i], strlen(names[i]) + 1);
		if (text) {
			text[strcspn(text, "\r\n")] = '\0';
			sha256_add(h, text, strlen(text) + 1);
			hash_library(h, text);
		}
		free(text);
		free(path);
		free(names[i]);
	}
	free(names);
}

char *recipe_cache_dir(const char *recipe)
{
	const char *cache = getenv("TB_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct utsname u;
	const char *machine = uname(&u) == 0 ? u.machine : "unknown";
	if (cache && *cache)
		return xasprintf("%s/%s/%s", cache, recipe, machine);
	if (xdg && *xdg)
		return xasprintf("%s/tb323fu-mesa/%s/%s", xdg, recipe, machine);
	return xasprintf("%s/.cache/tb323fu-mesa/%s/%s", home && *home ? home : "/root", recipe, machine);
}

char *suite_cache_path(const struct store *s, const char *suite, const char *const parts[],
		       size_t n_parts, const char *const programs[], size_t n_programs)
{
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, suite, strlen(suite) + 1);
	sha256_add(h, SIDE_ALIKE_ENV, sizeof SIDE_ALIKE_ENV); /* results of sides run otherwise differ */
	for (size_t i = 0; i < n_parts; i++)
		sha256_add(h, parts[i] ? parts[i] : "", strlen(parts[i] ? parts[i] : "") + 1);
	for (size_t i = 0; i < n_programs; i++)
		hash_file_identity(h, programs[i]);
	hash_vendors(h);
	char hex[SHA256_HEX_LEN + 1];
	sha256_end(h, hex);
	/* reached as the layout says: a link or a file planted at cache/suites or at the file
	 * is no cache (nothing is read through it, and the write skips it) */
	char *rel = xasprintf(STORE_SUITES_CACHE "/%s-distribution-%.16s.json", suite, hex);
	struct tb_error ignored = {0};
	char *path = store_reach_file(s, rel, 0, &ignored);
	free(rel);
	return path;
}

json_object *suite_cache_read(const char *path)
{
	if (!path)
		return NULL;
	json_object *o = json_file_read_object(path, RESULTS_MAX_BYTES), *tests;
	json_object *out = NULL;
	if (o && json_object_object_get_ex(o, "tests", &tests) &&
	    json_object_is_type(tests, json_type_object))
		out = json_object_get(tests);
	json_object_put(o);
	return out;
}

void suite_cache_write(const struct store *s, const char *path, const char *suite,
		       json_object *tests)
{
	size_t root = strlen(s->root);
	if (!path || strncmp(path, s->root, root) || path[root] != '/')
		return;
	struct tb_error ignored = {0};
	char *reached = store_reach_file(s, path + root + 1, 1, &ignored);
	if (!reached)
		return;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "suite", json_object_new_string(suite));
	json_object_object_add(o, "tests", json_object_get(tests));
	const char *text = json_out(o, JSON_C_TO_STRING_PLAIN);
	atomic_write_file(reached, text, strlen(text), 0644, &ignored);
	json_object_put(o);
	free(reached);
}

static const char *progress_status(const char *result)
{
	if (suite_result_passes(result))
		return "pass";
	return !strcmp(result, "skip") ? "skip" : "fail";
}

void suite_partial(json_object *extra, const char *fmt, ...)
{
	json_object *list;
	if (!json_object_object_get_ex(extra, "partial", &list)) {
		list = json_object_new_array();
		json_object_object_add(extra, "partial", list);
	}
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	json_object_array_add(list, json_object_new_string(what));
	free(what);
}

int suite_record(struct store *s, const char *version, const char *suite,
		 json_object *store_map, json_object *distro_map, json_object *expected,
		 json_object *extra, const struct tb_progress *p, struct suite_outcome *out,
		 json_object **result, struct tb_error *e)
{
	json_object *cmp = suite_compare(store_map, distro_map);
	if (expected)
		suite_apply_expected(cmp, expected);
	if (extra) {
		json_object_object_foreach(extra, key, val)
			json_object_object_add(cmp, key, json_object_get(val));
	}
	json_object *tests, *list, *partial;
	if (!json_object_object_get_ex(cmp, "partial", &partial)) {
		partial = json_object_new_array();
		json_object_object_add(cmp, "partial", partial);
	}
	out->partial = json_object_array_length(partial) > 0;
	out->ran[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(partial); i++)
		snprintf(out->ran + strlen(out->ran), sizeof out->ran - strlen(out->ran), "%s%s", i ? "; " : "",
			 json_object_get_string(json_object_array_get_idx(partial, i)));
	json_object_object_get_ex(cmp, "tests", &tests);
	out->tests = json_object_get_int(tests);
	out->regressions = suite_regressions(cmp, out->names, sizeof out->names);
	json_object_object_get_ex(cmp, "results", &list);
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *t = json_object_array_get_idx(list, i), *v;
		json_object_object_get_ex(t, "name", &v);
		char *label = xasprintf("%s:%s", suite, json_object_get_string(v));
		json_object_object_get_ex(t, "store", &v);
		progress_test(p, label, progress_status(json_object_get_string(v)));
		free(label);
	}
	int rc = smoke_record_set(s, version, "suites", suite, json_object_get(cmp), e);
	if (result)
		*result = cmp;
	else
		json_object_put(cmp);
	return rc;
}

int suite_opencl_begin(struct store *s, const char *version, const char *suite,
		       struct suite_outcome *out, struct json_object **result, struct manifest *m,
		       struct tb_error *e)
{
	memset(out, 0, sizeof *out);
	if (result)
		*result = NULL;
	int rc = store_load_manifest(s, version, m, e);
	if (rc)
		return rc;
	if (!m->has_opencl) {
		manifest_free(m);
		return tb_fail(e, TB_R_FAILED, "Mesa %s ships no OpenCL driver: %s has nothing to test",
			       version, suite);
	}
	return TB_OK;
}
