/* Counts a program's own realpath() and mkdir() calls, for the tests that prove how often a
 * command resolves and makes its store (tests/integration/store_resolved_once.sh): loaded with
 * LD_PRELOAD, each call is written as "realpath PATH" or "mkdir PATH" to the file named by
 * TB_CALLS_LOG, then handed to the C library's own, so the program runs as it always does. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>

static void note(const char *call, const char *path)
{
	const char *log = getenv("TB_CALLS_LOG");
	FILE *f = log && *log ? fopen(log, "ae") : NULL;
	if (!f)
		return;
	fprintf(f, "%s %s\n", call, path ? path : "(null)");
	fclose(f);
}

char *realpath(const char *path, char *resolved)
{
	char *(*libc)(const char *, char *) = (char *(*)(const char *, char *))dlsym(RTLD_NEXT, "realpath");
	note("realpath", path);
	return libc(path, resolved);
}

int mkdir(const char *path, mode_t mode)
{
	int (*libc)(const char *, mode_t) = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	note("mkdir", path);
	return libc(path, mode);
}
