/* Finding flatpak's installations and the runtime branches in them (flatpak/runtime.h);
 * a runtime's metadata is read with GLib's GKeyFile. */
#include "flatpak/runtime.h"

#include <dirent.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/fs.h"
#include "base/host.h"
#include "common/flatpakname.h"

#define GL_GROUP "Extension " FLATPAK_GL_POINT
/* Branches of one runtime: more than a machine ever has installed. */
#define BRANCHES_MAX 64

char *flatpak_installation_dir(int user)
{
	const char *v = getenv(user ? "FLATPAK_USER_DIR" : "FLATPAK_SYSTEM_DIR");
	if (v && *v)
		return xstrdup(v);
	if (!user)
		return xstrdup("/var/lib/flatpak");
	const char *data = getenv("XDG_DATA_HOME");
	if (data && data[0] == '/')
		return path_join(data, "flatpak");
	const char *home = getenv("HOME");
	return home && home[0] == '/' ? xasprintf("%s/.local/share/flatpak", home) : NULL;
}

const char *flatpak_arch(void)
{
	const char *a = host_arch();
	if (!strcmp(a, "arm64"))
		return "aarch64";
	if (a[0] == 'i' && a[1] && !strcmp(a + 2, "86"))
		return "i386";
	return a;
}

/* A relative path of plain components ([A-Za-z0-9._+-], no . or ..): what a sandbox path
 * is built from and a file written into an ICD may carry. */
static int plain_relative(const char *p)
{
	if (!*p || *p == '/' || strlen(p) > 255)
		return 0;
	for (const char *c = p; *c;) {
		size_t n = strcspn(c, "/");
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", c[i]))
				return 0;
		c += n;
		c += *c == '/';
	}
	return 1;
}

/* A flatpak branch or version: [A-Za-z0-9._-], not empty. */
static int plain_word(const char *w)
{
	if (!w || !*w || strlen(w) > 64)
		return 0;
	return strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(w) &&
	       w[0] != '.';
}

/* The first entry of a ';'-separated list ("24.08;24.08-extra;1.4"), spaces trimmed. */
static char *first_entry(const char *list)
{
	list += strspn(list, " ");
	size_t n = strcspn(list, ";");
	while (n && list[n - 1] == ' ')
		n--;
	char *out = xmalloc(n + 1);
	memcpy(out, list, n);
	out[n] = '\0';
	return out;
}

int flatpak_metadata_read(const char *what, const char *text, size_t len,
			  struct flatpak_runtime *r, struct tb_error *e)
{
	if (len > FLATPAK_METADATA_MAX || memchr(text, '\0', len))
		return tb_fail(e, TB_R_FILE_INVALID, "%s is not a runtime's metadata (too big or binary)", what);
	GKeyFile *kf = g_key_file_new();
	int rc = TB_OK;
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, NULL)) {
		rc = tb_fail(e, TB_R_FILE_INVALID, "%s cannot be read as a key file", what);
		goto out;
	}
	gchar *dir = g_key_file_get_string(kf, GL_GROUP, "directory", NULL);
	gchar *vers = g_key_file_get_string(kf, GL_GROUP, "versions", NULL);
	if (!vers)
		vers = g_key_file_get_string(kf, GL_GROUP, "version", NULL);
	gboolean subdirs = g_key_file_get_boolean(kf, GL_GROUP, "subdirectories", NULL);
	if (!dir || !subdirs)
		rc = tb_fail(e, TB_R_FILE_INVALID,
			     "%s declares no %s extension point with subdirectories (its [%s] group); it takes no GL driver of ours",
			     what, FLATPAK_GL_POINT, GL_GROUP);
	else if (!plain_relative(dir))
		rc = tb_fail(e, TB_R_FILE_INVALID, "%s gives the GL extension point an unusual directory \"%.100s\"",
			     what, dir);
	if (!rc) {
		char *first = vers ? first_entry(vers) : NULL;
		if (first && !plain_word(first)) {
			free(first);
			first = NULL;
		}
		free(r->gl_dir);
		free(r->gl_version);
		r->gl_dir = xstrdup(dir);
		r->gl_version = first ? first : xstrdup(r->branch ? r->branch : "");
	}
	g_free(dir);
	g_free(vers);
out:
	g_key_file_free(kf);
	return rc;
}

static int by_branch(const struct flatpak_runtime *v, size_t n, const char *branch)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].branch, branch))
			return 1;
	return 0;
}

static void runtime_clear(struct flatpak_runtime *r)
{
	free(r->branch);
	free(r->arch);
	free(r->files);
	free(r->gl_dir);
	free(r->gl_version);
}

/* The branches of one installation, added to v. */
static void find_in(int user, struct flatpak_runtime **v, size_t *n)
{
	char *inst = flatpak_installation_dir(user);
	if (!inst)
		return;
	const char *arch = flatpak_arch();
	char *base = xasprintf("%s/runtime/%s/%s", inst, FLATPAK_RUNTIME, arch);
	struct dirent **names = NULL;
	int k = scandir(base, &names, NULL, alphasort);
	for (int i = 0; i < k; i++) {
		const char *b = names[i]->d_name;
		if (*n < BRANCHES_MAX && plain_word(b) && !by_branch(*v, *n, b)) {
			struct flatpak_runtime r = {.branch = xstrdup(b), .arch = xstrdup(arch), .user = user};
			r.files = xasprintf("%s/%s/active/files", base, b);
			char *meta = xasprintf("%s/%s/active/metadata", base, b);
			size_t len = 0;
			char *text = read_small_file(meta, FLATPAK_METADATA_MAX + 1, &len);
			struct tb_error ignored = {0};
			if (text && is_directory(r.files) &&
			    flatpak_metadata_read(meta, text, len, &r, &ignored) == TB_OK) {
				*v = xrealloc(*v, (*n + 1) * sizeof **v);
				(*v)[(*n)++] = r;
			} else {
				runtime_clear(&r);
			}
			free(text);
			free(meta);
		}
		free(names[i]);
	}
	free(names);
	free(base);
	free(inst);
}

struct flatpak_runtime *flatpak_runtimes_find(size_t *n)
{
	struct flatpak_runtime *v = NULL;
	*n = 0;
	find_in(1, &v, n);
	find_in(0, &v, n);
	return v;
}

void flatpak_runtimes_free(struct flatpak_runtime *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		runtime_clear(&v[i]);
	free(v);
}
