#include "store/cts.h"
#include "store/layout.h"
#include "store/manifest.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/fs.h"
#include "base/testhook.h"
#include "common/version_name.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *store_cts_current(const struct store *s)
{
	char *link = store_path(s, STORE_CTS_CURRENT);
	char target[NAME_MAX + 1];
	ssize_t n = readlink(link, target, sizeof target - 1);
	free(link);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	/* the link is ours: a bare version's name, nothing else is taken */
	return version_name_ok(target) ? xstrdup(target) : NULL;
}

int store_cts_set_current(struct store *s, const char *version, struct tb_error *e)
{
	char *link = store_path(s, STORE_CTS_CURRENT);
	int rc = TB_OK;
	if (!version) {
		if (unlink(link) != 0 && errno != ENOENT)
			rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", link);
	} else {
		rc = atomic_symlink(version, link, e);
	}
	free(link);
	return rc;
}

int store_cts_remove(struct store *s, const char *version, struct tb_error *e)
{
	char *current = store_cts_current(s);
	int rc = current && !strcmp(current, version) ? store_cts_set_current(s, NULL, e) : TB_OK;
	free(current);
	char *tree = store_path(s, STORE_CTS "/%s", version);
	char *doomed = store_path(s, STORE_CTS "/.%s" STORE_REMOVING_SUFFIX, version);
	/* One rename takes the tree away whole; a kill after it leaves a leftover the next
	 * writer removes (store_lock). */
	if (!rc && rename(tree, doomed) != 0 && errno != ENOENT)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot remove %s", tree);
	if (!rc) {
		testhook_pause("removing");
		remove_tree(doomed);
	}
	free(tree);
	free(doomed);
	return rc;
}

/* cts/<v>, a folder of the store's own (a link planted there is refused: store/layout.h). */
static char *cts_tree(const struct store *s, const char *version, struct tb_error *e)
{
	char *rel = xasprintf(STORE_CTS "/%s", version);
	char *root = store_reach_dir(s, rel, 0, e);
	free(rel);
	return root;
}

char *store_cts_suite_path(const struct store *s, enum cts_suite which)
{
	char *version = store_cts_current(s);
	if (!version)
		return NULL;
	struct tb_error ignored = {0};
	char *root = cts_tree(s, version, &ignored);
	free(version);
	struct manifest m;
	char *path = NULL;
	if (root && manifest_load(root, &m, &ignored) == TB_OK) {
		const char *rel = which == CTS_DEQP_VK ? m.deqp_vk : m.opencl_cts_dir;
		if (m.kind == MANIFEST_CTS && rel)
			path = path_join(root, rel);
		manifest_free(&m);
	}
	free(root);
	return path;
}

int store_cts_facts(const struct store *s, const char *version, struct cts_facts *f,
		    struct tb_error *e)
{
	memset(f, 0, sizeof *f);
	char *root = cts_tree(s, version, e);
	struct manifest m;
	int rc = root ? manifest_load(root, &m, e) : e->code;
	free(root);
	if (rc)
		return rc;
	f->version = xstrdup(version);
	f->deqp_vk = m.deqp_vk != NULL;
	size_t dir_len = m.opencl_cts_dir ? strlen(m.opencl_cts_dir) : 0;
	for (size_t i = 0; i < m.n_files; i++) {
		const char *p = m.files[i].path, *base = strrchr(p, '/');
		f->bytes += m.files[i].size;
		if (dir_len && !strncmp(p, m.opencl_cts_dir, dir_len) && p[dir_len] == '/' &&
		    m.files[i].mode == 0755 && base && !strncmp(base + 1, "test_", 5))
			f->opencl_binaries++;
	}
	f->vk_gl_cts = xstrdup(m.vk_gl_cts ? m.vk_gl_cts : "");
	f->opencl_cts = xstrdup(m.opencl_cts ? m.opencl_cts : "");
	manifest_free(&m);
	return TB_OK;
}

void cts_facts_free(struct cts_facts *f)
{
	free(f->version);
	free(f->vk_gl_cts);
	free(f->opencl_cts);
	memset(f, 0, sizeof *f);
}
