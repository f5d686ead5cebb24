/* A private temporary directory for a unit test or a fuzz target, under $TMPDIR (which
 * tests/run points at a directory of its own and checks is empty at the end), else /tmp.
 * Returns a malloc'd path; the caller removes the tree (remove_tree) and frees the path. */
#ifndef TB_TESTS_TMPDIR_H
#define TB_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static inline char *test_mkdtemp(const char *name)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char *path = NULL;
	if (asprintf(&path, "%s/%s.XXXXXX", base, name) < 0)
		return NULL;
	if (!mkdtemp(path)) {
		free(path);
		return NULL;
	}
	return path;
}

#endif
