#include "store/manifest.h"
#include "store/manifest_keys.h"
#include "base/hash.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/text.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_path_char(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '@' || c == '+' || c == '-';
}

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

int version_compare(const char *a, const char *b)
{
	while (*a || *b) {
		size_t la = strcspn(a, "."), lb = strcspn(b, ".");
		if (!*a)
			return -1; /* 2026.10.06 < 2026.10.06.2 */
		if (!*b)
			return 1;
		int c;
		if (all_digits(a, la) && all_digits(b, lb)) {
			const char *pa = a, *pb = b;
			size_t na = la, nb = lb;
			while (na > 1 && *pa == '0')
				pa++, na--;
			while (nb > 1 && *pb == '0')
				pb++, nb--;
			c = na != nb ? (na < nb ? -1 : 1) : memcmp(pa, pb, na);
		} else {
			c = memcmp(a, b, la < lb ? la : lb);
			if (!c && la != lb)
				c = la < lb ? -1 : 1;
		}
		if (c)
			return c < 0 ? -1 : 1;
		a += la;
		b += lb;
		if (*a == '.')
			a++;
		if (*b == '.')
			b++;
	}
	return 0;
}

int release_path_is_safe(const char *path)
{
	size_t total = strlen(path);
	if (total == 0 || total > 255)
		return 0;
	if (strncmp(path, "lib/", 4) && strncmp(path, "share/", 6))
		return 0;
	const char *p = path;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n == 0 || n > 100)
			return 0;
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (!is_path_char(p[i]))
				return 0;
		p += n;
		if (*p == '/') {
			p++;
			if (!*p)
				return 0; /* trailing slash */
		}
	}
	return 1;
}

/* Resolves target relative to the directory of link_path; NULL when it leaves the tree. */
static char *resolve_link(const char *link_path, const char *target)
{
	if (!*target || target[0] == '/' || strlen(target) > 255)
		return NULL;
	char *out = xmalloc(strlen(link_path) + strlen(target) + 2);
	strcpy(out, link_path);
	char *slash = strrchr(out, '/');
	if (!slash) {
		free(out);
		return NULL;
	}
	*slash = '\0';
	const char *p = target;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* "a//b" and "./" are harmless but not needed: refuse to keep it simple */
			free(out);
			return NULL;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *up = strrchr(out, '/');
			if (!up) { /* would leave the tree */
				free(out);
				return NULL;
			}
			*up = '\0';
		} else {
			for (size_t i = 0; i < n; i++)
				if (!is_path_char(p[i])) {
					free(out);
					return NULL;
				}
			size_t len = strlen(out);
			out[len] = '/';
			memcpy(out + len + 1, p, n);
			out[len + 1 + n] = '\0';
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return out;
}

int link_target_is_safe(const char *link_path, const char *target)
{
	char *r = resolve_link(link_path, target);
	int ok = r && release_path_is_safe(r);
	free(r);
	return ok;
}

static void entry_free(struct manifest *m)
{
	for (size_t i = 0; i < m->n_files; i++)
		free(m->files[i].path);
	for (size_t i = 0; i < m->n_links; i++) {
		free(m->links[i].path);
		free(m->links[i].target);
	}
	free(m->files);
	free(m->links);
}

void manifest_free(struct manifest *m)
{
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (k->type != MANIFEST_FORMAT && k->type != MANIFEST_KIND && k->type != MANIFEST_NUMBER)
			free(*(char **)((char *)m + k->at));
	}
	entry_free(m);
	memset(m, 0, sizeof *m);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct manifest_file *)a)->path, ((const struct manifest_file *)b)->path);
}

static int cmp_link(const void *a, const void *b)
{
	return strcmp(((const struct manifest_link *)a)->path, ((const struct manifest_link *)b)->path);
}

const struct manifest_file *manifest_find_file(const struct manifest *m, const char *path)
{
	struct manifest_file key = {.path = (char *)path};
	return m->n_files ? bsearch(&key, m->files, m->n_files, sizeof key, cmp_file) : NULL;
}

const struct manifest_link *manifest_find_link(const struct manifest *m, const char *path)
{
	struct manifest_link key = {.path = (char *)path};
	return m->n_links ? bsearch(&key, m->links, m->n_links, sizeof key, cmp_link) : NULL;
}

/* Splits a line into at most max fields separated by single spaces. */
static int split_fields(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	while (*p && n < max) {
		fields[n++] = p;
		char *sp = strchr(p, ' ');
		if (!sp)
			break;
		*sp = '\0';
		p = sp + 1;
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *out)
{
	if (!*s || !isdigit((unsigned char)*s) || strlen(s) > 19)
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

#define BAD(...) (rc = tb_fail(e, TB_R_MANIFEST_INVALID, __VA_ARGS__))

static int parse_entry(struct manifest *m, char *rest, int is_file, int lineno, size_t *cap_f,
		       size_t *cap_l, struct tb_error *e)
{
	int rc = TB_OK;
	char *f[6];
	if (is_file) {
		int n = split_fields(rest, f, 5);
		uint64_t size;
		if (n != 4 || !is_sha256_hex(f[0]) || (strcmp(f[1], "644") && strcmp(f[1], "755")) ||
		    parse_u64(f[2], &size)) {
			BAD("MANIFEST line %d: expected \"file <sha256> <644|755> <size> <path>\"", lineno);
			return rc;
		}
		if (!release_path_is_safe(f[3])) {
			BAD("MANIFEST line %d: unsafe path \"%.300s\"", lineno, f[3]);
			return rc;
		}
		if (m->n_files == *cap_f) {
			*cap_f = *cap_f ? *cap_f * 2 : 64;
			m->files = xrealloc(m->files, *cap_f * sizeof *m->files);
		}
		struct manifest_file *mf = &m->files[m->n_files++];
		mf->path = xstrdup(f[3]);
		memcpy(mf->sha256, f[0], 65);
		mf->mode = f[1][0] == '7' ? 0755 : 0644;
		mf->size = size;
	} else {
		int n = split_fields(rest, f, 3);
		if (n != 2) {
			BAD("MANIFEST line %d: expected \"link <path> <target>\"", lineno);
			return rc;
		}
		if (!release_path_is_safe(f[0]) || !link_target_is_safe(f[0], f[1])) {
			BAD("MANIFEST line %d: unsafe link \"%.200s\" -> \"%.200s\"", lineno, f[0], f[1]);
			return rc;
		}
		if (m->n_links == *cap_l) {
			*cap_l = *cap_l ? *cap_l * 2 : 16;
			m->links = xrealloc(m->links, *cap_l * sizeof *m->links);
		}
		struct manifest_link *ml = &m->links[m->n_links++];
		ml->path = xstrdup(f[0]);
		ml->target = xstrdup(f[1]);
	}
	return rc;
}

/* The values of the keys (ctl/store/manifest_keys.h), read and checked as their rows say. */

/* Letters, digits and the characters of extra; not empty. */
static int is_word(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* A comma-separated list of driver names: [a-z0-9_] words, none empty. */
static int is_name_list(const char *v)
{
	if (!*v || *v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		return 0;
	for (; *v; v++)
		if (!islower((unsigned char)*v) && !isdigit((unsigned char)*v) && *v != '_' && *v != ',')
			return 0;
	return 1;
}

/* has_vulkan, has_opencl and has_gl from a drivers value. */
static void set_drivers(struct manifest *m, const char *v)
{
	m->has_vulkan = m->has_opencl = m->has_gl = 0;
	char *copy = xstrdup(v), *save = NULL;
	for (char *d = strtok_r(copy, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		if (!strcmp(d, "vulkan"))
			m->has_vulkan = 1;
		else if (!strcmp(d, "opencl"))
			m->has_opencl = 1;
		else if (!strcmp(d, "gl"))
			m->has_gl = 1;
		/* unknown drivers are ignored: newer releases may carry more */
	}
	free(copy);
}

#define REFUSE(...) tb_fail(e, TB_R_MANIFEST_INVALID, __VA_ARGS__)

/* The refusal of a value its type does not take, in the sentence of that type. */
static int refuse_value(const struct manifest_key *k, const char *v, int lineno, struct tb_error *e)
{
	switch (k->type) {
	case MANIFEST_FORMAT:
		return REFUSE("MANIFEST format %.20s is not supported by this tool; update tb323fu-mesa", v);
	case MANIFEST_KIND:
		return REFUSE("MANIFEST line %d: kind \"%.40s\" is not known to this tool (mesa or cts); update tb323fu-mesa",
			      lineno, v);
	case MANIFEST_LIB_PATH:
		return REFUSE("MANIFEST line %d: %s must be a path under lib/", lineno, k->name);
	case MANIFEST_NAME_LIST:
		return REFUSE("MANIFEST line %d: %s must be driver names (a-z, 0-9, _) separated by commas, not \"%.80s\"",
			      lineno, k->name, v);
	case MANIFEST_LIB_ITSELF:
		return tb_fail(e, TB_R_RUNPATH_UNSAFE,
			       "MANIFEST line %d: %s \"%.200s\" may reach outside the release; it may only be \"lib\"",
			       lineno, k->name, v);
	default:
		return REFUSE("MANIFEST line %d: invalid %s \"%.*s\"", lineno, k->name, k->max ? 40 : 80, v);
	}
}

/* Whether v is a value of k's type; a number is kept in *number. */
static int value_ok(const struct manifest_key *k, const char *v, uint64_t *number)
{
	switch (k->type) {
	case MANIFEST_FORMAT:
		return !strcmp(v, "1");
	case MANIFEST_KIND:
		return !strcmp(v, "mesa") || !strcmp(v, "cts");
	case MANIFEST_TEXT:
	case MANIFEST_DRIVERS:
		return 1;
	case MANIFEST_VERSION:
		return version_name_ok(v);
	case MANIFEST_WORD:
		return is_word(v, k->extra) && (!k->max || strlen(v) <= k->max);
	case MANIFEST_NUMBER:
		return !parse_u64(v, number) && *number <= k->max;
	case MANIFEST_LIB_PATH:
		return release_path_is_safe(v) && !strncmp(v, "lib/", 4);
	case MANIFEST_NAME_LIST:
		return is_name_list(v);
	case MANIFEST_LIB_ITSELF:
		return !strcmp(v, "lib");
	}
	return 0;
}

int manifest_key_read(struct manifest *m, const struct manifest_key *k, const char *v,
		      int lineno, struct tb_error *e)
{
	size_t vlen = strlen(v);
	if (vlen > MANIFEST_VALUE_MAX)
		return REFUSE("MANIFEST line %d: the value of %s is %zu bytes long, more than the %d a MANIFEST value may have",
			      lineno, k->name, vlen, MANIFEST_VALUE_MAX);
	uint64_t number = 0;
	if (!value_ok(k, v, &number))
		return refuse_value(k, v, lineno, e);
	void *at = (char *)m + k->at;
	if (k->type == MANIFEST_FORMAT) {
		*(int *)at = 1;
	} else if (k->type == MANIFEST_KIND) {
		*(enum manifest_kind *)at = !strcmp(v, "cts") ? MANIFEST_CTS : MANIFEST_MESA;
	} else if (k->type == MANIFEST_NUMBER) {
		*(int *)at = (int)number;
	} else {
		free(*(char **)at);
		*(char **)at = xstrdup(v);
		if (k->type == MANIFEST_DRIVERS)
			set_drivers(m, v);
	}
	return TB_OK;
}

/* A key=value line: a key of the table, read and checked by its row; unknown keys are ignored
 * so that old tools read new releases. */
static int parse_key(struct manifest *m, const char *k, const char *v, int lineno,
		     struct tb_error *e)
{
	const struct manifest_key *key = manifest_key_find(k);
	return key ? manifest_key_read(m, key, v, lineno, e) : TB_OK;
}

/* The first of sorted paths (n entries, each a struct of stride bytes starting with its
 * path) that starts with dir + "/", or NULL. Entries under a directory are contiguous. */
static const char *first_under(const void *base, size_t n, size_t stride, const char *dir)
{
	size_t len = strlen(dir);
	char *key = xasprintf("%s/", dir);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *p = *(char *const *)((const char *)base + mid * stride);
		if (strcmp(p, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(key);
	if (lo == n)
		return NULL;
	const char *p = *(char *const *)((const char *)base + lo * stride);
	return !strncmp(p, dir, len) && p[len] == '/' ? p : NULL;
}

static int in_release(const struct manifest *m, const char *path)
{
	return manifest_find_file(m, path) || manifest_find_link(m, path);
}

int manifest_has_gallium(const struct manifest *m, const char *name)
{
	if (!m->has_gl || !m->gallium_drivers)
		return 0;
	size_t n = strlen(name);
	for (const char *p = m->gallium_drivers; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len + (p[len] == ',');
	}
	return 0;
}

int manifest_gl_software(const struct manifest *m)
{
	if (!m->has_gl || !m->gallium_drivers)
		return 0;
	static const char *const software[] = {"llvmpipe", "softpipe", "zink"};
	for (const char *p = m->gallium_drivers; *p;) {
		size_t len = strcspn(p, ",");
		int known = 0;
		for (size_t i = 0; i < sizeof software / sizeof *software; i++)
			known |= strlen(software[i]) == len && !strncmp(p, software[i], len);
		if (!known)
			return 0;
		p += len + (p[len] == ',');
	}
	return 1;
}

/* The vendor's name in libGLX_<name>.so.0, or NULL when the file is not named so. */
static const char *glx_name(const char *lib, size_t *len)
{
	const char *base = strrchr(lib, '/');
	base = base ? base + 1 : lib;
	size_t n = strlen(base);
	static const char pre[] = "libGLX_", post[] = ".so.0";
	if (n <= strlen(pre) + strlen(post) || strncmp(base, pre, strlen(pre)) ||
	    strcmp(base + n - strlen(post), post))
		return NULL;
	*len = n - strlen(pre) - strlen(post);
	return base + strlen(pre);
}

void manifest_glx_vendor(const struct manifest *m, char *out, size_t n)
{
	size_t len = 0;
	const char *name = m->has_gl && m->glx_vendor_lib ? glx_name(m->glx_vendor_lib, &len) : NULL;
	snprintf(out, n, "%.*s", name ? (int)len : 0, name ? name : "");
}

/* 1 when path is a file of dir itself (dir/name, no deeper). */
static int directly_in(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(path, dir, n) && path[n] == '/' && !strchr(path + n + 1, '/');
}

/* 1 when a libgallium-<version>.so, file or link, is directly in gl_lib_dir (Mesa 25's layout). */
static int has_libgallium(const struct manifest *m)
{
	static const char pre[] = "libgallium-", post[] = ".so";
	for (size_t i = 0; i < m->n_files + m->n_links; i++) {
		const char *p = i < m->n_files ? m->files[i].path : m->links[i - m->n_files].path;
		if (!directly_in(p, m->gl_lib_dir))
			continue;
		const char *base = strrchr(p, '/') + 1;
		size_t n = strlen(base);
		if (n > strlen(pre) + strlen(post) && !strncmp(base, pre, strlen(pre)) &&
		    !strcmp(base + n - strlen(post), post))
			return 1;
	}
	return 0;
}

/* The defaults of the rows of m's kind it has no line for, in the table's order (gl_lib_dir's
 * before those under it): the gl rows' when gl is set, the others' when it is not. */
static void fill_defaults(struct manifest *m, int gl)
{
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		int gl_row = k->driver && !strcmp(k->driver, "gl");
		if (!k->absent || gl_row != gl || !(k->kinds & MANIFEST_FOR(m->kind)) ||
		    manifest_key_present(m, k))
			continue;
		const struct manifest_key *in = k->absent_in ? manifest_key_find(k->absent_in) : NULL;
		char **field = (char **)((char *)m + k->at);
		*field = in ? xasprintf("%s/%s", *(char **)((char *)m + in->at), k->absent) : xstrdup(k->absent);
		if (k->type == MANIFEST_DRIVERS)
			set_drivers(m, *field);
	}
}

/* A release with GL: its loaders' libraries are where the launcher's variables find them. */
static int check_gl(struct manifest *m, struct tb_error *e)
{
	int rc = TB_OK;
	fill_defaults(m, 1);
	/* Found by their sonames in gl_lib_dir, which only GL puts on LD_LIBRARY_PATH: the
	 * libraries glvnd loads by name are in it and nowhere else of the release. */
	const char *const by_name[][2] = {{"egl_vendor_lib", m->egl_vendor_lib},
					  {"gbm_lib", m->gbm_lib},
					  {"glx_vendor_lib", m->glx_vendor_lib}};
	for (size_t i = 0; i < sizeof by_name / sizeof *by_name; i++) {
		const char *key = by_name[i][0], *lib = by_name[i][1];
		if (!lib)
			continue;
		if (!directly_in(lib, m->gl_lib_dir))
			return BAD("the MANIFEST's %s %s is not in gl_lib_dir %s, where the GL loaders find it by name",
				   key, lib, m->gl_lib_dir);
		if (!in_release(m, lib))
			return BAD("the MANIFEST names the GL library %s (%s) but the release does not contain it", lib, key);
	}
	size_t len;
	if (m->glx_vendor_lib && !glx_name(m->glx_vendor_lib, &len))
		return BAD("the MANIFEST's glx_vendor_lib %s is not named libGLX_<vendor>.so.0, so GLX cannot select it",
			   m->glx_vendor_lib);
	/* Mesa 25's layout links every gallium driver into one libgallium-<version>.so that the
	 * vendor libraries and GBM's backend need by soname: its *_dri.so are stubs of libdril that
	 * none of them maps (later Mesa ships none), so the DRI folder may hold nothing. Before it,
	 * each driver is the *_dri.so the loaders open by name from that folder. */
	int megadriver = has_libgallium(m);
	const char *const dirs[][2] = {{"gl_drivers_dir", megadriver ? NULL : m->gl_drivers_dir},
				       {"gbm_backends_dir", m->gbm_backends_dir}};
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (dirs[i][1] && !first_under(m->files, m->n_files, sizeof *m->files, dirs[i][1]) &&
		    !first_under(m->links, m->n_links, sizeof *m->links, dirs[i][1]))
			return BAD("the MANIFEST's %s %s holds nothing in the release", dirs[i][0], dirs[i][1]);
	/* The DRI drivers the loaders open by name for the modes the launcher offers. */
	const char *const needs[][2] = {{"zink", "zink"}, {"llvmpipe", "swrast"}, {"softpipe", "swrast"}};
	for (size_t i = 0; !megadriver && i < sizeof needs / sizeof *needs; i++) {
		if (!manifest_has_gallium(m, needs[i][0]))
			continue;
		char *dri = xasprintf("%s/%s_dri.so", m->gl_drivers_dir, needs[i][1]);
		int there = in_release(m, dri);
		if (!there)
			BAD("the MANIFEST's gallium_drivers name %s but the release does not contain %s", needs[i][0], dri);
		free(dri);
		if (!there)
			return rc;
	}
	if (manifest_has_gallium(m, "zink") && !m->has_vulkan)
		return BAD("the MANIFEST's gallium_drivers name zink, which runs on the release's Vulkan driver, but its drivers do not name vulkan");
	return rc;
}

/* A CTS release carries no drivers, and at least one of the two suites. */
static int cts_keys(struct manifest *m, struct tb_error *e)
{
	int rc = TB_OK;
	if (m->drivers || m->has_vulkan || m->has_opencl || m->has_gl)
		return BAD("the MANIFEST of a CTS release (kind=cts) names drivers; a release carries drivers or the CTS, not both");
	if (!m->deqp_vk && !m->opencl_cts_dir)
		return BAD("the MANIFEST of a CTS release names neither deqp_vk nor opencl_cts_dir");
	return rc;
}

/* After the lists are sorted: dEQP-VK's binary is an executable of the release, and
 * OpenCL-CTS's folder holds at least one. */
static int check_cts(struct manifest *m, struct tb_error *e)
{
	int rc = TB_OK;
	const struct manifest_file *deqp = m->deqp_vk ? manifest_find_file(m, m->deqp_vk) : NULL;
	if (m->deqp_vk && (!deqp || deqp->mode != 0755))
		return BAD("the MANIFEST names dEQP-VK's binary %s but the release does not contain it as an executable file",
			   m->deqp_vk);
	if (m->opencl_cts_dir && !first_under(m->files, m->n_files, sizeof *m->files, m->opencl_cts_dir))
		return BAD("the MANIFEST names OpenCL-CTS's folder %s but the release has nothing in it",
			   m->opencl_cts_dir);
	return rc;
}

static int check_whole(struct manifest *m, struct tb_error *e)
{
	int rc = TB_OK;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (!k->required || manifest_key_present(m, k))
			continue;
		if (k->type == MANIFEST_FORMAT)
			return BAD("the MANIFEST has no format=1 line");
		return BAD("the MANIFEST names no %s", k->name);
	}
	if (m->kind == MANIFEST_CTS)
		rc = cts_keys(m, e);
	else
		fill_defaults(m, 0);
	if (rc)
		return rc;
	/* qsort with a NULL array is undefined even for no elements */
	if (m->n_files)
		qsort(m->files, m->n_files, sizeof *m->files, cmp_file);
	if (m->n_links)
		qsort(m->links, m->n_links, sizeof *m->links, cmp_link);
	for (size_t i = 1; i < m->n_files; i++)
		if (!strcmp(m->files[i - 1].path, m->files[i].path))
			return BAD("the MANIFEST lists %s twice", m->files[i].path);
	for (size_t i = 0; i < m->n_links; i++) {
		if ((i && !strcmp(m->links[i - 1].path, m->links[i].path)) ||
		    manifest_find_file(m, m->links[i].path))
			return BAD("the MANIFEST lists %s twice", m->links[i].path);
		/* A link must end at a listed file: no dangling links, no loops. */
		char *r = resolve_link(m->links[i].path, m->links[i].target);
		int found = r && manifest_find_file(m, r);
		free(r);
		if (!found)
			return BAD("the MANIFEST link %s points at %s, which the release does not contain",
				   m->links[i].path, m->links[i].target);
	}
	/* A file may not stand where another entry needs a directory. */
	for (size_t i = 0; i + 1 < m->n_files; i++) {
		size_t n = strlen(m->files[i].path);
		if (!strncmp(m->files[i].path, m->files[i + 1].path, n) && m->files[i + 1].path[n] == '/')
			return BAD("the MANIFEST lists %s both as a file and a directory", m->files[i].path);
	}
	/* Nor a link where another entry needs a directory: unpacking would meet a path that
	 * is both. */
	for (size_t i = 0; i < m->n_links; i++) {
		const char *p = m->links[i].path;
		if (first_under(m->files, m->n_files, sizeof *m->files, p) ||
		    first_under(m->links, m->n_links, sizeof *m->links, p))
			return BAD("the MANIFEST lists %s both as a link and a directory", p);
	}
	if (m->has_vulkan && !manifest_find_file(m, m->vulkan_lib) && !manifest_find_link(m, m->vulkan_lib))
		return BAD("the MANIFEST names the Vulkan driver %s but the release does not contain it", m->vulkan_lib);
	if (m->has_opencl && !manifest_find_file(m, m->opencl_lib) && !manifest_find_link(m, m->opencl_lib))
		return BAD("the MANIFEST names the OpenCL driver %s but the release does not contain it", m->opencl_lib);
	if (m->has_gl)
		rc = check_gl(m, e);
	if (!rc && m->kind == MANIFEST_CTS)
		rc = check_cts(m, e);
	return rc;
}

int manifest_parse(const char *text, size_t len, struct manifest *m, struct tb_error *e)
{
	memset(m, 0, sizeof *m);
	m->vulkan_driver_id = -1;
	if (len > MANIFEST_MAX_BYTES)
		return tb_fail(e, TB_R_MANIFEST_INVALID, "the MANIFEST is larger than 1 MiB");
	if (memchr(text, '\0', len))
		return tb_fail(e, TB_R_MANIFEST_INVALID, "the MANIFEST is not a text file");
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	size_t cap_f = 0, cap_l = 0;
	int rc = TB_OK, lineno = 0;
	char *cursor = copy, *line;
	while (rc == TB_OK && (line = next_line(&cursor))) {
		lineno++;
		if (*line && line[0] != '#') {
			if (!strncmp(line, "file ", 5))
				rc = parse_entry(m, line + 5, 1, lineno, &cap_f, &cap_l, e);
			else if (!strncmp(line, "link ", 5))
				rc = parse_entry(m, line + 5, 0, lineno, &cap_f, &cap_l, e);
			else {
				char *eq = strchr(line, '=');
				if (eq) {
					*eq = '\0';
					rc = parse_key(m, line, eq + 1, lineno, e);
				}
			}
		}
	}
	free(copy);
	if (rc == TB_OK)
		rc = check_whole(m, e);
	if (rc != TB_OK)
		manifest_free(m);
	return rc;
}

int manifest_load(const char *dir, struct manifest *m, struct tb_error *e)
{
	char *path = path_join(dir, "MANIFEST");
	size_t len;
	char *text = read_small_file(path, MANIFEST_MAX_BYTES, &len);
	if (!text) {
		int r = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", path);
		free(path);
		return r;
	}
	free(path);
	int rc = manifest_parse(text, len, m, e);
	free(text);
	return rc;
}

/* Whether m's drivers name driver ("gl"); NULL names none and is always true. */
static int names_driver(const struct manifest *m, const char *driver)
{
	return !driver || (!strcmp(driver, "vulkan") && m->has_vulkan) ||
	       (!strcmp(driver, "opencl") && m->has_opencl) || (!strcmp(driver, "gl") && m->has_gl);
}

char *manifest_format(const struct manifest *m)
{
	const char *value[MANIFEST_KEY_COUNT];
	char number[MANIFEST_KEY_COUNT][MANIFEST_NUMBER_TEXT];
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++)
		value[i] = names_driver(m, manifest_keys[i].driver)
				   ? manifest_key_text(m, &manifest_keys[i], number[i])
				   : NULL;
	struct strbuf sb = {0};
	manifest_keys_write(&sb, value);
	for (size_t i = 0; i < m->n_files; i++)
		sb_appendf(&sb, "file %s %o %llu %s\n", m->files[i].sha256, m->files[i].mode,
			   (unsigned long long)m->files[i].size, m->files[i].path);
	for (size_t i = 0; i < m->n_links; i++)
		sb_appendf(&sb, "link %s %s\n", m->links[i].path, m->links[i].target);
	return sb.buf;
}
