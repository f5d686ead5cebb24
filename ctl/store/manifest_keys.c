/* The MANIFEST's keys, one row each (ctl/store/manifest_keys.h), and how a row's value is read,
 * written by its rows; ctl/store/manifest.c reads and checks a value by its row. */
#include "store/manifest_keys.h"
#include "base/host.h"

#include <stdio.h>
#include <string.h>

#define AT(field) offsetof(struct manifest, field)
/* A Mesa release without a drivers line has Vulkan and OpenCL; pack writes the line anyway. */
#define DRIVERS_ABSENT "vulkan,opencl"

const struct manifest_key manifest_keys[] = {
	{.name = "format", .type = MANIFEST_FORMAT, .kinds = MANIFEST_FOR_ALL, .required = 1,
	 .at = AT(format), .pack = {.fallback = "1"}},
	{.name = "version", .type = MANIFEST_VERSION, .kinds = MANIFEST_FOR_ALL, .required = 1,
	 .at = AT(version),
	 .pack = {"--version", "V", "the release's version, like 2026.10.06; required"}},
	{.name = "arch", .type = MANIFEST_WORD, .extra = "_-", .kinds = MANIFEST_FOR_ALL,
	 .required = 1, .at = AT(arch),
	 .pack = {"--arch", "A", "its architecture (default: this machine's)", .fallback_of = host_arch}},
	{.name = "kind", .type = MANIFEST_KIND, .kinds = MANIFEST_FOR_ALL, .at = AT(kind),
	 .pack = {"--kind", "mesa|cts", "what the release carries: Mesa's drivers (default) or the CTS's binaries",
		  .choices = "mesa|cts"}},
	{.name = "commit", .type = MANIFEST_TEXT, .kinds = MANIFEST_FOR_MESA, .at = AT(commit),
	 .pack = {"--commit", "C", "the port's Mesa commit"}},
	{.name = "base", .type = MANIFEST_TEXT, .kinds = MANIFEST_FOR_MESA, .at = AT(base),
	 .pack = {"--base", "B", "the upstream Mesa commit it is based on"}},
	{.name = "mesa_version", .type = MANIFEST_TEXT, .kinds = MANIFEST_FOR_MESA,
	 .at = AT(mesa_version), .pack = {"--mesa-version", "M", "Mesa's own version, like 26.3.0-devel"}},
	/* always written by pack for Mesa: the helper's channel refuses a MANIFEST without it */
	{.name = "drivers", .type = MANIFEST_DRIVERS, .kinds = MANIFEST_FOR_MESA,
	 .absent = DRIVERS_ABSENT, .at = AT(drivers),
	 .pack = {"--drivers", "LIST", "vulkan,opencl,gl (default vulkan,opencl)", .fallback = DRIVERS_ABSENT}},
	{.name = "vulkan_lib", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "vulkan", .absent = "lib/libvulkan_freedreno.so", .at = AT(vulkan_lib),
	 .pack = {"--vulkan-lib", "PATH", "the Vulkan driver in the tree (lib/libvulkan_freedreno.so)"}},
	{.name = "vulkan_api", .type = MANIFEST_WORD, .extra = ".", .max = 20,
	 .kinds = MANIFEST_FOR_MESA, .driver = "vulkan", .absent = "1.4.0", .at = AT(vulkan_api),
	 .pack = {"--vulkan-api", "X.Y.Z", "the api_version of the ICD file"}},
	{.name = "vulkan_driver_id", .type = MANIFEST_NUMBER, .max = 100000,
	 .kinds = MANIFEST_FOR_MESA, .driver = "vulkan", .at = AT(vulkan_driver_id),
	 .pack = {"--vulkan-driver-id", "N", "the VkDriverId the smoke test expects"}},
	{.name = "opencl_lib", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "opencl", .absent = "lib/libRusticlOpenCL.so.1", .at = AT(opencl_lib),
	 .pack = {"--opencl-lib", "PATH", "the OpenCL driver in the tree (lib/libRusticlOpenCL.so.1)"}},
	{.name = "rusticl_enable", .type = MANIFEST_WORD, .extra = "_,-:",
	 .kinds = MANIFEST_FOR_MESA, .driver = "opencl", .absent = "freedreno", .at = AT(rusticl_enable),
	 .pack = {"--rusticl-enable", "DRIVER", "RUSTICL_ENABLE's value (freedreno)"}},
	{.name = "ld_library_path", .type = MANIFEST_LIB_ITSELF, .kinds = MANIFEST_FOR_MESA,
	 .at = AT(ld_library_path),
	 .pack = {"--ld-library-path", "lib", "the release needs LD_LIBRARY_PATH=its lib/"}},
	{.name = "min_glibc", .type = MANIFEST_WORD, .extra = ".", .kinds = MANIFEST_FOR_ALL,
	 .at = AT(min_glibc), .pack = {"--min-glibc", "X.Y", "the glibc the release needs at least"}},
	{.name = "gl_lib_dir", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA, .driver = "gl",
	 .absent = "lib/gl", .at = AT(gl_lib_dir), .pack = {"--gl-lib-dir", "PATH", "GL's folder, found by soname (lib/gl)"}},
	{.name = "egl_vendor_lib", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "gl", .absent = "libEGL_mesa.so.0", .absent_in = "gl_lib_dir", .at = AT(egl_vendor_lib),
	 .pack = {"--egl-vendor-lib", "PATH", "glvnd's EGL vendor library (lib/gl/libEGL_mesa.so.0)"}},
	{.name = "glx_vendor_lib", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "gl", .at = AT(glx_vendor_lib),
	 .pack = {"--glx-vendor-lib", "PATH", "glvnd's GLX vendor library, when there is one"}},
	{.name = "gbm_lib", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA, .driver = "gl",
	 .absent = "libgbm.so.1", .absent_in = "gl_lib_dir", .at = AT(gbm_lib), .pack = {"--gbm-lib", "PATH", "GBM (lib/gl/libgbm.so.1)"}},
	{.name = "gl_drivers_dir", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "gl", .absent = "dri", .absent_in = "gl_lib_dir", .at = AT(gl_drivers_dir),
	 .pack = {"--gl-drivers-dir", "PATH", "the DRI drivers' folder (lib/gl/dri)"}},
	{.name = "gbm_backends_dir", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_MESA,
	 .driver = "gl", .at = AT(gbm_backends_dir),
	 .pack = {"--gbm-backends-dir", "PATH", "GBM's backends' folder, when there is one"}},
	{.name = "gallium_drivers", .type = MANIFEST_NAME_LIST, .kinds = MANIFEST_FOR_MESA,
	 .driver = "gl", .absent = "freedreno", .at = AT(gallium_drivers),
	 .pack = {"--gallium-drivers", "LIST", "the gallium drivers built, hardware first (freedreno,zink)"}},
	{.name = "deqp_vk", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_CTS, .at = AT(deqp_vk),
	 .pack = {"--deqp-vk", "PATH", "CTS: dEQP-VK's binary in the tree (lib/deqp-vk/deqp-vk)"}},
	{.name = "opencl_cts_dir", .type = MANIFEST_LIB_PATH, .kinds = MANIFEST_FOR_CTS,
	 .at = AT(opencl_cts_dir),
	 .pack = {"--opencl-cts-dir", "PATH", "CTS: OpenCL-CTS's folder (lib/opencl-cts)"}},
	{.name = "vk_gl_cts", .type = MANIFEST_WORD, .extra = "._-", .kinds = MANIFEST_FOR_CTS,
	 .at = AT(vk_gl_cts), .pack = {"--vk-gl-cts", "TAG", "CTS: the VK-GL-CTS tag it was built from"}},
	{.name = "opencl_cts", .type = MANIFEST_WORD, .extra = "._-", .kinds = MANIFEST_FOR_CTS,
	 .at = AT(opencl_cts), .pack = {"--opencl-cts", "TAG", "CTS: the OpenCL-CTS tag it was built from"}},
};
_Static_assert(sizeof manifest_keys / sizeof *manifest_keys == MANIFEST_KEY_COUNT,
	       "MANIFEST_KEY_COUNT is the number of rows of manifest_keys");

const struct manifest_key *manifest_key_find(const char *name)
{
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++)
		if (!strcmp(manifest_keys[i].name, name))
			return &manifest_keys[i];
	return NULL;
}

static const void *field_of(const struct manifest *m, const struct manifest_key *k)
{
	return (const char *)m + k->at;
}

int manifest_key_present(const struct manifest *m, const struct manifest_key *k)
{
	const void *at = field_of(m, k);
	switch (k->type) {
	case MANIFEST_FORMAT:
		return *(const int *)at == 1;
	case MANIFEST_KIND:
		return *(const enum manifest_kind *)at != MANIFEST_MESA;
	case MANIFEST_NUMBER:
		return *(const int *)at >= 0;
	default:
		return *(char *const *)at != NULL;
	}
}

const char *manifest_key_text(const struct manifest *m, const struct manifest_key *k,
			      char number[MANIFEST_NUMBER_TEXT])
{
	if (!manifest_key_present(m, k))
		return NULL;
	const void *at = field_of(m, k);
	switch (k->type) {
	case MANIFEST_FORMAT:
		return "1";
	case MANIFEST_KIND:
		return *(const enum manifest_kind *)at == MANIFEST_CTS ? "cts" : "mesa";
	case MANIFEST_NUMBER:
		snprintf(number, MANIFEST_NUMBER_TEXT, "%d", *(const int *)at);
		return number;
	default:
		return *(char *const *)at;
	}
}

void manifest_keys_write(struct strbuf *sb, const char *const value[MANIFEST_KEY_COUNT])
{
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (!value[i] || (k->type == MANIFEST_KIND && !strcmp(value[i], "mesa")))
			continue;
		sb_appendf(sb, "%s=%s\n", k->name, value[i]);
	}
}
