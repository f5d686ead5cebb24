/* The store's paths, built here only (ctl/store/store.h, docs/design.md §3). */
#include "store/store.h"
#include "store/manifest.h"
#include "base/alloc.h"

#include <stdarg.h>
#include <stdlib.h>

char *store_path(const struct store *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *rel = xvasprintf(fmt, ap);
	va_end(ap);
	char *p = path_join(s->root, rel);
	free(rel);
	return p;
}

/* The one place that spells a version's directory (docs/design.md §3). */
char *store_version_rel(const char *version)
{
	return version ? xasprintf(STORE_VERSIONS "/%s", version) : NULL;
}

char *store_version_dir(const struct store *s, const char *version)
{
	char *rel = store_version_rel(version);
	char *p = path_join(s->root, rel);
	free(rel);
	return p;
}

int store_load_manifest(const struct store *s, const char *version, struct manifest *m,
			struct tb_error *e)
{
	char *dir = store_version_dir(s, version);
	int rc = manifest_load(dir, m, e);
	free(dir);
	return rc;
}

char *store_manifest_path(const struct store *s, const char *version)
{
	char *dir = store_version_dir(s, version);
	char *p = path_join(dir, "MANIFEST");
	free(dir);
	return p;
}

char *store_env_path_as(const struct store *s, const char *version, const char *suffix)
{
	return store_path(s, STORE_ENV_DIR "/%s%s", version ? version : STORE_CURRENT, suffix);
}

char *store_env_path(const struct store *s, const char *version)
{
	return version ? store_path(s, STORE_ENV_DIR "/%s" STORE_ENV_SUFFIX, version) : store_path(s, STORE_CURRENT_ENV);
}

char *store_icd_dir(const struct store *s, const char *version)
{
	return version ? store_path(s, STORE_ICD_VERSIONS "/%s", version) : store_path(s, STORE_ICD_DIR);
}

char *store_smoke_file(const struct store *s, const char *version)
{
	return store_path(s, STORE_SMOKE_DIR "/%s" STORE_SMOKE_SUFFIX, version);
}
