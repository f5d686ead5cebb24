/* Reading /proc/PID/maps for driver libraries (see procmaps.h). */
#include "launcher/procmaps.h"

#include <string.h>

/* File name prefixes of ICD driver libraries (never the loaders). Mesa names its Vulkan
 * drivers libvulkan_<driver>.so; the OpenCL ones are listed one by one. */
static const char *const vulkan_prefixes[] = {"libvulkan_", "amdvlk"};
static const char *const opencl_prefixes[] = {
	"libRusticlOpenCL.so", "libMesaOpenCL.so", "libpocl.so",  "libnvidia-opencl.so",
	"libamdocl",	       "libigdrcl.so",	   "libintelocl", "libcl_powervr",
};

static const char *const gl_prefixes[] = {"libEGL_", "libGLX_", "libgbm.so", "libglapi.so", "libgallium"};
static const char *const gl_suffixes[] = {"_dri.so", "_gbm.so"};

static int has_suffix(const char *s, const char *const *suffixes, size_t n)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(suffixes[i]);
		if (len > k && strcmp(s + len - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

static int has_prefix(const char *s, const char *const *prefixes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(s, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

enum gpu_api driver_api_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (has_prefix(base, vulkan_prefixes, sizeof vulkan_prefixes / sizeof *vulkan_prefixes))
		return GPU_API_VULKAN;
	if (has_prefix(base, opencl_prefixes, sizeof opencl_prefixes / sizeof *opencl_prefixes))
		return GPU_API_OPENCL;
	if (has_prefix(base, gl_prefixes, sizeof gl_prefixes / sizeof *gl_prefixes) ||
	    has_suffix(base, gl_suffixes, sizeof gl_suffixes / sizeof *gl_suffixes))
		return GPU_API_GL;
	return GPU_API_NONE;
}

const char *gpu_api_name(enum gpu_api api)
{
	return api == GPU_API_VULKAN ? "vulkan" : api == GPU_API_OPENCL ? "opencl" : api == GPU_API_GL ? "gl" : "none";
}

int procmaps_line_path(const char *line, size_t n, const char **path, size_t *len,
		       int *deleted, unsigned long *inode)
{
	size_t i = 0;
	*inode = 0;
	/* Five fields separated by single spaces, then padding before the path. */
	for (int field = 0; field < 5; field++) {
		if (i >= n || line[i] == ' ')
			return 0;
		for (; i < n && line[i] != ' '; i++)
			if (field == 4 && line[i] >= '0' && line[i] <= '9')
				*inode = *inode * 10 + (unsigned long)(line[i] - '0');
		if (i >= n)
			return 0;
		i++;
	}
	while (i < n && line[i] == ' ')
		i++;
	if (i >= n || line[i] != '/')
		return 0;
	static const char suffix[] = " (deleted)";
	size_t plen = n - i, slen = sizeof suffix - 1;
	*deleted = plen > slen && memcmp(line + n - slen, suffix, slen) == 0;
	if (*deleted)
		plen -= slen;
	*path = line + i;
	*len = plen;
	return 1;
}

void procmaps_drivers(const char *text, size_t n, struct mapped_drivers *out)
{
	out->count = 0;
	out->truncated = 0;
	const char *p = text, *end = text + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *path;
		size_t plen;
		int deleted;
		unsigned long inode;
		if (procmaps_line_path(p, (size_t)(eol - p), &path, &plen, &deleted, &inode) &&
		    plen < PROCMAPS_PATH_MAX && !memchr(path, '\0', plen)) {
			char name[PROCMAPS_PATH_MAX];
			memcpy(name, path, plen);
			name[plen] = '\0';
			enum gpu_api api = driver_api_of(name);
			int seen = 0;
			for (size_t k = 0; k < out->count && !seen; k++)
				seen = strcmp(out->d[k].path, name) == 0;
			if (api != GPU_API_NONE && !seen) {
				if (out->count == PROCMAPS_MAX_DRIVERS) {
					out->truncated = 1;
				} else {
					struct mapped_driver *d = &out->d[out->count++];
					d->api = api;
					d->deleted = deleted;
					d->inode = inode;
					memcpy(d->path, name, plen + 1);
				}
			}
		}
		p = eol + 1;
	}
}
