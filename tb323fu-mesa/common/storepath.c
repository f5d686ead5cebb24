/* Store paths for the launcher (see storepath.h). */
#include "common/storepath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *store_root(const char *option)
{
	if (option)
		return option;
	const char *env = getenv(STORE_ROOT_VAR);
	return env && *env ? env : STORE_DEFAULT_ROOT;
}

int path_concat(char *out, size_t cap, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = b ? strlen(b) : 0, lc = c ? strlen(c) : 0;
	if (la + lb + lc + 1 > cap)
		return -1;
	memcpy(out, a, la);
	if (lb)
		memcpy(out + la, b, lb);
	if (lc)
		memcpy(out + la + lb, c, lc);
	out[la + lb + lc] = '\0';
	return 0;
}

int store_env_file_as(char *out, size_t cap, const char *root, const char *version,
		      const char *suffix)
{
	if (path_concat(out, cap, root, "/" STORE_ENV_DIR "/", version ? version : STORE_CURRENT) != 0)
		return -1;
	size_t n = strlen(out);
	return path_concat(out + n, cap - n, suffix, NULL, NULL);
}

int store_env_file(char *out, size_t cap, const char *root, const char *version)
{
	return store_env_file_as(out, cap, root, version, STORE_ENV_SUFFIX);
}

int path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

long path_list_without(const char *value, const char *const *dirs, size_t n, char *out,
		       size_t cap)
{
	size_t len = 0;
	int first = 1;
	const char *p = value;
	for (;;) {
		const char *colon = strchr(p, ':');
		size_t elen = colon ? (size_t)(colon - p) : strlen(p);
		char entry[STORE_PATH_MAX];
		int drop = 0;
		if (elen > 0 && elen < sizeof entry) {
			memcpy(entry, p, elen);
			entry[elen] = '\0';
			for (size_t i = 0; i < n && !drop; i++)
				drop = dirs[i] && *dirs[i] && path_within(entry, dirs[i]);
		}
		if (!drop) {
			if (len + !first + elen + 1 > cap)
				return -1;
			if (!first)
				out[len++] = ':';
			memcpy(out + len, p, elen);
			len += elen;
			first = 0;
		}
		if (!colon)
			break;
		p = colon + 1;
	}
	out[len] = '\0';
	return (long)len;
}

const char *store_version_of(const char *path, const char *realroot, char *out, size_t cap)
{
	size_t n = strlen(realroot);
	while (n > 1 && realroot[n - 1] == '/')
		n--;
	if (strncmp(path, realroot, n) != 0 || strncmp(path + n, "/versions/", 10) != 0)
		return NULL;
	const char *v = path + n + 10;
	const char *slash = strchr(v, '/');
	size_t vlen = slash ? (size_t)(slash - v) : 0;
	if (vlen == 0 || vlen + 1 > cap)
		return NULL;
	memcpy(out, v, vlen);
	out[vlen] = '\0';
	return version_name_ok(out) ? out : NULL;
}

const char *store_current_version(const char *root, char *out, size_t cap)
{
	char link[STORE_PATH_MAX], target[STORE_PATH_MAX];
	if (path_concat(link, sizeof link, root, "/current", NULL) != 0)
		return NULL;
	ssize_t n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	const char *base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) + 1 > cap || !version_name_ok(base))
		return NULL;
	memcpy(out, base, strlen(base) + 1);
	return out;
}

int store_tree_gone(const char *root, const char *version)
{
	char path[STORE_PATH_MAX];
	int rc = version ? path_concat(path, sizeof path, root, "/versions/", version)
			 : path_concat(path, sizeof path, root, "/current", NULL);
	size_t n = strlen(path);
	if (rc != 0 || path_concat(path + n, sizeof path - n, "/MANIFEST", NULL, NULL) != 0)
		return 0;
	struct stat st;
	return stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}
