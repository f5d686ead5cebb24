#include "base/programs.h"
#include "base/alloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *beside_self(const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	char *p = path_join(self, name);
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

static char *if_executable(char *p)
{
	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *find_smoke_program(void)
{
	const char *env = getenv("TB323FU_MESA_SMOKE");
	if (env && *env)
		return if_executable(xstrdup(env));
	char *p = beside_self("tb323fu-mesa-smoke");
	return p ? p : if_executable(xstrdup(TB_PREFIX "/libexec/tb323fu-mesa/tb323fu-mesa-smoke"));
}

char *find_launcher_program(void)
{
	char *p = beside_self("tb323fu-mesa");
	return p ? p : if_executable(xstrdup(TB_PREFIX "/bin/tb323fu-mesa"));
}

char *find_program(const char *name, const char *env)
{
	const char *over = env ? getenv(env) : NULL;
	if (over && *over)
		name = over;
	if (strchr(name, '/'))
		return if_executable(xstrdup(name));
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		char *dir = n ? xasprintf("%.*s", (int)n, p) : xstrdup(".");
		char *found = if_executable(path_join(dir, name));
		free(dir);
		if (found)
			return found;
		p += n;
		if (*p == ':')
			p++;
	}
	return NULL;
}
