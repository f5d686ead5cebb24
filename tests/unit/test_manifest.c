/* The MANIFEST parser, the path and version rules, SHA256SUMS and the configuration file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <stdlib.h>

#include "base/config.h"
#include "store/manifest.h"
#include "release/sums.h"
#include "base/error.h"
#include "base/alloc.h"

#define SHA_A "a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

static int parse(const char *text, struct manifest *m, struct tb_error *e)
{
	tb_error_clear(e);
	return manifest_parse(text, strlen(text), m, e);
}

static void test_defaults_and_keys(void **state)
{
	struct manifest m;
	struct tb_error e = {0};
	const char *text = "format=1\nversion=2026.10.06\narch=aarch64\nfuture_key=whatever\n"
			   "file " SHA_A " 755 12 lib/libvulkan_freedreno.so\n"
			   "file " SHA_A " 644 3 lib/libRusticlOpenCL.so.1.0.0\n"
			   "link lib/libRusticlOpenCL.so.1 libRusticlOpenCL.so.1.0.0\n";
	assert_int_equal(parse(text, &m, &e), TB_OK);
	assert_string_equal(m.version, "2026.10.06");
	assert_true(m.has_vulkan && m.has_opencl);
	assert_string_equal(m.vulkan_lib, "lib/libvulkan_freedreno.so");
	assert_string_equal(m.vulkan_api, "1.4.0");
	assert_string_equal(m.opencl_lib, "lib/libRusticlOpenCL.so.1");
	assert_string_equal(m.rusticl_enable, "freedreno");
	assert_int_equal(m.vulkan_driver_id, -1);
	assert_null(m.ld_library_path);
	assert_int_equal(m.n_files, 2);
	const struct manifest_file *f = manifest_find_file(&m, "lib/libvulkan_freedreno.so");
	assert_non_null(f);
	assert_int_equal(f->mode, 0755);
	assert_int_equal(f->size, 12);
	assert_non_null(manifest_find_link(&m, "lib/libRusticlOpenCL.so.1"));
	char *again = manifest_format(&m);
	struct manifest m2;
	assert_int_equal(parse(again, &m2, &e), TB_OK);
	assert_int_equal(m2.n_files, 2);
	manifest_free(&m2);
	free(again);
	manifest_free(&m);
}

static void test_optional_keys(void **state)
{
	struct manifest m;
	struct tb_error e = {0};
	const char *text = "format=1\nversion=1.2\narch=x86_64\ndrivers=opencl\nopencl_lib=lib/libcl.so\n"
			   "rusticl_enable=llvmpipe\nld_library_path=lib\nmin_glibc=2.36\nvulkan_driver_id=13\n"
			   "file " SHA_A " 644 1 lib/libcl.so\n";
	assert_int_equal(parse(text, &m, &e), TB_OK);
	assert_false(m.has_vulkan);
	assert_true(m.has_opencl);
	assert_string_equal(m.ld_library_path, "lib");
	assert_string_equal(m.min_glibc, "2.36");
	assert_int_equal(m.vulkan_driver_id, 13);
	manifest_free(&m);
}

static void test_refusals(void **state)
{
	static const char *const bad[] = {
		"format=2\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\n",
		"format=1\nversion=1/2\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\n",
		"format=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\n",
		"format=1\nversion=1\ndrivers=none\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 600 1 lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 etc/passwd\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/../x\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 /lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib//a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\nfile " SHA_A " 644 1 lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\nfile " SHA_A " 644 1 lib/a/b\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\nlink lib/b ../../etc/passwd\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\nlink lib/b missing\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a\nlink lib/a a\n",
		"format=1\nversion=1\narch=x\ndrivers=vulkan\nfile " SHA_A " 644 1 lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nld_library_path=/usr/lib\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile nothex 644 1 lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 -1 lib/a\n",
		"format=1\nversion=1\narch=x\ndrivers=none\nfile " SHA_A " 644 1 lib/a b\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct manifest m;
		struct tb_error e = {0};
		int rc = parse(bad[i], &m, &e);
		if (rc != TB_EVERIFY)
			fail_msg("case %zu accepted: %s", i, bad[i]);
		assert_true(e.msg[0] != '\0');
	}
}

static void test_paths(void **state)
{
	assert_true(release_path_is_safe("lib/libvulkan_freedreno.so"));
	assert_true(release_path_is_safe("share/vulkan/icd.d/x@y+z-1.json"));
	assert_false(release_path_is_safe("lib"));
	assert_false(release_path_is_safe("bin/x"));
	assert_false(release_path_is_safe("lib/./x"));
	assert_false(release_path_is_safe("lib/x/"));
	assert_false(release_path_is_safe("lib/x y"));
	assert_false(release_path_is_safe("lib/x\ny"));
	char longc[120];
	memset(longc, 'a', sizeof longc);
	memcpy(longc, "lib/", 4);
	longc[105] = '\0';
	assert_false(release_path_is_safe(longc));
	assert_true(link_target_is_safe("lib/a/b", "../c"));
	assert_false(link_target_is_safe("lib/a", "../../x"));
	assert_false(link_target_is_safe("lib/a", "/usr/lib/x"));
	assert_false(link_target_is_safe("lib/a", "../etc/x"));
}

static void test_versions(void **state)
{
	assert_true(version_name_ok("2026.10.06"));
	assert_true(version_name_ok("2026.10.06.2"));
	assert_true(version_name_ok("1.0-rc1+git"));
	assert_false(version_name_ok(""));
	assert_false(version_name_ok("v2026"));
	assert_false(version_name_ok("2026/10"));
	assert_false(version_name_ok("2026\n10"));
	assert_false(version_name_ok("1234567890123456789012345678901234567890123456789012345678901234567890"));
	assert_true(version_compare("2026.10.06", "2026.10.07") < 0);
	assert_true(version_compare("2026.10.06.2", "2026.10.06") > 0);
	assert_true(version_compare("2026.9.30", "2026.10.1") < 0);
	assert_true(version_compare("2026.010.1", "2026.10.1") == 0);
	assert_true(version_compare("1.0rc", "1.0") > 0);
	assert_true(version_compare("1.a", "1.b") < 0);
}

static void test_sums(void **state)
{
	char hex[65];
	struct tb_error e = {0};
	const char *text = SHA_A "  other.tar.gz\n" SHA_A " *tb.tar.gz\n";
	assert_int_equal(sums_lookup_text(text, strlen(text), "tb.tar.gz", hex, &e), TB_OK);
	assert_string_equal(hex, SHA_A);
	tb_error_clear(&e);
	assert_int_equal(sums_lookup_text(text, strlen(text), "missing.tar.gz", hex, &e), TB_EVERIFY);
	tb_error_clear(&e);
	assert_int_equal(sums_lookup_text("garbage\n", 8, "x", hex, &e), TB_EVERIFY);
}

static void test_config(void **state)
{
	struct config c;
	struct tb_error e = {0};
	config_defaults(&c);
	assert_int_equal(c.max_tries, 2);
	assert_int_equal(c.keep_versions, 2);
	assert_string_equal(c.api_url, "https://api.github.com");
	const char *text = "# comment\nsource = github:me/port # trailing\nchannel = testing\n"
			   "require_signature = true\npublic_key = RWabc\npublic_key = RWdef\n"
			   "api_url = http://127.0.0.1:8080/\nstall_timeout = 3\n\n";
	assert_int_equal(config_parse(&c, text, "test.conf", &e), TB_OK);
	assert_string_equal(c.owner, "me");
	assert_string_equal(c.repo, "port");
	assert_string_equal(c.channel, "testing");
	assert_true(c.require_signature);
	assert_int_equal(c.n_public_keys, 2);
	assert_string_equal(c.api_url, "http://127.0.0.1:8080");
	assert_int_equal(c.stall_timeout, 3);
	assert_int_equal(config_parse(&c, "a\nchannel = nightly\n", "test.conf", &e), TB_EUSAGE);
	assert_non_null(strstr(e.msg, "test.conf line 1"));
	tb_error_clear(&e);
	assert_int_equal(config_parse(&c, "\nchannel = nightly\n", "test.conf", &e), TB_EUSAGE);
	assert_non_null(strstr(e.msg, "line 2"));
	tb_error_clear(&e);
	assert_int_equal(config_parse(&c, "colour = blue\n", "test.conf", &e), TB_EUSAGE);
	assert_non_null(strstr(e.msg, "unknown key"));
	config_free(&c);
}

/* Every known value is capped, so the env files and sentences a release makes stay small. */
static void test_value_caps(void **state)
{
	static const char *const keys[] = {"commit", "base", "mesa_version", "drivers",
					   "rusticl_enable", "arch", "min_glibc", "gallium_drivers",
					   "gl_lib_dir"};
	char *big = malloc(MANIFEST_VALUE_MAX + 2);
	memset(big, 'a', MANIFEST_VALUE_MAX + 1);
	big[MANIFEST_VALUE_MAX + 1] = '\0';
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		struct manifest m;
		struct tb_error e = {0};
		char *text = xasprintf("format=1\nversion=1.2\narch=x86_64\ndrivers=opencl\n"
				       "opencl_lib=lib/libcl.so\n%s=%s\nfile " SHA_A " 644 1 lib/libcl.so\n",
				       keys[i], big);
		assert_int_equal(parse(text, &m, &e), TB_EVERIFY);
		assert_non_null(strstr(e.msg, "more than the 256 a MANIFEST value may have"));
		assert_string_equal(tb_error_reason(&e), "manifest-invalid");
		/* One byte less is fine (where the value's characters are). */
		if (!strcmp(keys[i], "rusticl_enable") || !strcmp(keys[i], "mesa_version")) {
			big[MANIFEST_VALUE_MAX] = '\0';
			free(text);
			text = xasprintf("format=1\nversion=1.2\narch=x86_64\ndrivers=opencl\n"
					 "opencl_lib=lib/libcl.so\n%s=%s\nfile " SHA_A " 644 1 lib/libcl.so\n",
					 keys[i], big);
			assert_int_equal(parse(text, &m, &e), TB_OK);
			manifest_free(&m);
			big[MANIFEST_VALUE_MAX] = 'a';
		}
		free(text);
	}
	free(big);
}

/* A declared link whose path is also a directory of files is a refusal, not "File exists". */
static void test_link_directory_conflict(void **state)
{
	struct manifest m;
	struct tb_error e = {0};
	const char *text = "format=1\nversion=1.2\narch=x86_64\ndrivers=opencl\nopencl_lib=lib/libcl.so\n"
			   "file " SHA_A " 644 1 lib/libcl.so\nfile " SHA_A " 644 1 lib/d/x.so\n"
			   "link lib/d libcl.so\n";
	assert_int_equal(parse(text, &m, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lists lib/d both as a link and a directory"));
	text = "format=1\nversion=1.2\narch=x86_64\ndrivers=opencl\nopencl_lib=lib/libcl.so\n"
	       "file " SHA_A " 644 1 lib/libcl.so\nlink lib/d libcl.so\nlink lib/d/e ../libcl.so\n";
	assert_int_equal(parse(text, &m, &e), TB_EVERIFY);
}

/* A release with GL: the files its loaders need, found where the keys (or their defaults) say. */
#define GL_HEAD "format=1\nversion=1.2\narch=x86_64\n"
#define GL_FILES                                                                              \
	"file " SHA_A " 644 1 lib/libvulkan_lvp.so\n"                                         \
	"file " SHA_A " 644 1 lib/gl/libEGL_mesa.so.0\nfile " SHA_A " 644 1 lib/gl/libgbm.so.1\n" \
	"file " SHA_A " 644 1 lib/gl/libGLX_mesa.so.0\nfile " SHA_A " 644 1 lib/gl/dri/swrast_dri.so\n" \
	"link lib/gl/dri/zink_dri.so swrast_dri.so\n"

static void test_gl_keys(void **state)
{
	struct manifest m;
	struct tb_error e = {0};
	/* gl alone: the defaults */
	assert_int_equal(parse(GL_HEAD "drivers=gl\n" GL_FILES, &m, &e), TB_OK);
	assert_true(m.has_gl);
	assert_false(m.has_vulkan || m.has_opencl);
	assert_string_equal(m.gl_lib_dir, "lib/gl");
	assert_string_equal(m.egl_vendor_lib, "lib/gl/libEGL_mesa.so.0");
	assert_string_equal(m.gbm_lib, "lib/gl/libgbm.so.1");
	assert_string_equal(m.gl_drivers_dir, "lib/gl/dri");
	assert_string_equal(m.gallium_drivers, "freedreno");
	assert_null(m.glx_vendor_lib);
	assert_null(m.gbm_backends_dir);
	assert_false(manifest_gl_software(&m));
	manifest_free(&m);
	/* everything named, as the stand-in names it */
	const char *text = GL_HEAD "drivers=vulkan,gl\nvulkan_lib=lib/libvulkan_lvp.so\n"
			   "glx_vendor_lib=lib/gl/libGLX_mesa.so.0\ngbm_backends_dir=lib/gl/dri\n"
			   "gallium_drivers=llvmpipe,zink\n" GL_FILES;
	assert_int_equal(parse(text, &m, &e), TB_OK);
	assert_true(manifest_has_gallium(&m, "zink"));
	assert_true(manifest_has_gallium(&m, "llvmpipe"));
	assert_false(manifest_has_gallium(&m, "llvm"));
	assert_true(manifest_gl_software(&m));
	char glx[32];
	manifest_glx_vendor(&m, glx, sizeof glx);
	assert_string_equal(glx, "mesa");
	char *again = manifest_format(&m);
	assert_non_null(strstr(again, "gallium_drivers=llvmpipe,zink\n"));
	assert_non_null(strstr(again, "glx_vendor_lib=lib/gl/libGLX_mesa.so.0\n"));
	struct manifest m2;
	assert_int_equal(parse(again, &m2, &e), TB_OK);
	assert_string_equal(m2.gbm_backends_dir, "lib/gl/dri");
	manifest_free(&m2);
	free(again);
	manifest_free(&m);
	/* Mesa 25's layout: the gallium drivers are in libgallium, its *_dri.so stubs (or none) */
	const char *const mesa25 = GL_HEAD "drivers=vulkan,gl\nvulkan_lib=lib/libvulkan_lvp.so\n"
				   "gbm_backends_dir=lib/gl/gbm\ngallium_drivers=llvmpipe,zink\n"
				   "file " SHA_A " 644 1 lib/libvulkan_lvp.so\n"
				   "file " SHA_A " 644 1 lib/gl/gbm/dri_gbm.so\n"
				   "file " SHA_A " 644 1 lib/gl/libEGL_mesa.so.0\nfile " SHA_A " 644 1 lib/gl/libgbm.so.1\n"
				   "file " SHA_A " 644 1 lib/gl/libgallium-25.0.7-2.so\n";
	assert_int_equal(parse(mesa25, &m, &e), TB_OK);
	assert_true(manifest_has_gallium(&m, "zink"));
	manifest_free(&m);
	/* …and as a link to its file, beside libdril's stubs */
	text = GL_HEAD "drivers=vulkan,gl\nvulkan_lib=lib/libvulkan_lvp.so\ngallium_drivers=llvmpipe,zink\n"
	       "file " SHA_A " 644 1 lib/libvulkan_lvp.so\nfile " SHA_A " 644 1 lib/gl/dri/libdril_dri.so\n"
	       "link lib/gl/dri/swrast_dri.so libdril_dri.so\n"
	       "file " SHA_A " 644 1 lib/gl/libEGL_mesa.so.0\nfile " SHA_A " 644 1 lib/gl/libgbm.so.1\n"
	       "file " SHA_A " 644 1 lib/gl/x/libgallium-25.so\nlink lib/gl/libgallium-25.so x/libgallium-25.so\n";
	assert_int_equal(parse(text, &m, &e), TB_OK);
	manifest_free(&m);
	/* a libgallium elsewhere is not Mesa 25's layout: the DRI drivers are needed */
	text = GL_HEAD "drivers=vulkan,gl\nvulkan_lib=lib/libvulkan_lvp.so\ngallium_drivers=llvmpipe\n"
	       "file " SHA_A " 644 1 lib/libvulkan_lvp.so\nfile " SHA_A " 644 1 lib/gl/dri/libgallium-25.so\n"
	       "file " SHA_A " 644 1 lib/gl/libEGL_mesa.so.0\nfile " SHA_A " 644 1 lib/gl/libgbm.so.1\n";
	assert_int_equal(parse(text, &m, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "gallium_drivers name llvmpipe but the release does not contain lib/gl/dri/swrast_dri.so"));
	/* a release without gl is as before: its GL keys are checked as paths, not required */
	assert_int_equal(parse(GL_HEAD "drivers=vulkan\nvulkan_lib=lib/libvulkan_lvp.so\n"
				       "gl_lib_dir=lib/nothing\n" GL_FILES, &m, &e), TB_OK);
	assert_false(m.has_gl);
	assert_false(manifest_has_gallium(&m, "freedreno"));
	manifest_free(&m);
}

/* Hostile or broken GL keys are refused with the key's name. */
static void test_gl_refusals(void **state)
{
	static const char *const bad[][2] = {
		{"drivers=gl\ngl_lib_dir=lib\n", "gl_lib_dir must be a path under lib/"},
		{"drivers=gl\ngl_lib_dir=/usr/lib\n", "gl_lib_dir must be a path under lib/"},
		{"drivers=gl\negl_vendor_lib=lib/gl/../../../etc/passwd\n", "egl_vendor_lib must be a path under lib/"},
		{"drivers=gl\ngl_drivers_dir=lib/gl/dri;rm\n", "gl_drivers_dir must be a path under lib/"},
		{"drivers=gl\ngbm_backends_dir=share/x\n", "gbm_backends_dir must be a path under lib/"},
		{"drivers=gl\ngallium_drivers=zink;id\n", "gallium_drivers must be driver names"},
		{"drivers=gl\ngallium_drivers=zink,,llvmpipe\n", "gallium_drivers must be driver names"},
		{"drivers=gl\ngallium_drivers=Zink\n", "gallium_drivers must be driver names"},
		{"drivers=gl\negl_vendor_lib=lib/libvulkan_lvp.so\n", "egl_vendor_lib lib/libvulkan_lvp.so is not in gl_lib_dir lib/gl"},
		{"drivers=gl\ngbm_lib=lib/gl/dri/swrast_dri.so\n", "gbm_lib lib/gl/dri/swrast_dri.so is not in gl_lib_dir"},
		{"drivers=gl\negl_vendor_lib=lib/gl/libEGL_other.so.0\n", "names the GL library lib/gl/libEGL_other.so.0"},
		{"drivers=gl\nglx_vendor_lib=lib/gl/libgbm.so.1\n", "is not named libGLX_<vendor>.so.0"},
		{"drivers=gl\ngl_drivers_dir=lib/gl/none\n", "gl_drivers_dir lib/gl/none holds nothing"},
		{"drivers=gl\ngbm_backends_dir=lib/gl/gbm\n", "gbm_backends_dir lib/gl/gbm holds nothing"},
		{"drivers=gl\ngallium_drivers=zink\n", "zink, which runs on the release's Vulkan driver"},
		{"drivers=vulkan,gl\nvulkan_lib=lib/libvulkan_lvp.so\ngallium_drivers=softpipe\n"
		 "gl_drivers_dir=lib/gl\n", "does not contain lib/gl/swrast_dri.so"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct manifest m;
		struct tb_error e = {0};
		char *text = xasprintf(GL_HEAD "%s" GL_FILES, bad[i][0]);
		if (parse(text, &m, &e) != TB_EVERIFY)
			fail_msg("case %zu accepted: %s", i, bad[i][0]);
		if (!strstr(e.msg, bad[i][1]))
			fail_msg("case %zu: \"%s\" does not say \"%s\"", i, e.msg, bad[i][1]);
		assert_string_equal(tb_error_reason(&e), "manifest-invalid");
		free(text);
	}
}

/* A CTS release (kind=cts): its suites' keys, no drivers, and what it must hold. */
static void test_cts_kind(void **state)
{
	(void)state;
	struct manifest m;
	struct tb_error e = {0};
	const char *head = "format=1\nversion=2026.12.03\narch=aarch64\nkind=cts\n";
	char *text = xasprintf("%sdeqp_vk=lib/deqp-vk/deqp-vk\nopencl_cts_dir=lib/opencl-cts\n"
			       "vk_gl_cts=vulkan-cts-1.4.6.1\nopencl_cts=v2026-07-09-00\n"
			       "file " SHA_A " 755 9 lib/deqp-vk/deqp-vk\n"
			       "file " SHA_A " 644 9 lib/deqp-vk/caselists/info.txt\n"
			       "file " SHA_A " 755 9 lib/opencl-cts/basic/test_basic\n", head);
	assert_int_equal(parse(text, &m, &e), TB_OK);
	assert_int_equal(m.kind, MANIFEST_CTS);
	assert_false(m.has_vulkan || m.has_opencl || m.has_gl);
	assert_null(m.drivers);
	assert_string_equal(m.deqp_vk, "lib/deqp-vk/deqp-vk");
	assert_string_equal(m.opencl_cts_dir, "lib/opencl-cts");
	char *again = manifest_format(&m);
	struct manifest m2;
	assert_int_equal(parse(again, &m2, &e), TB_OK);
	assert_int_equal(m2.kind, MANIFEST_CTS);
	assert_string_equal(m2.vk_gl_cts, "vulkan-cts-1.4.6.1");
	manifest_free(&m2);
	free(again);
	manifest_free(&m);
	free(text);

	const char *const bad[] = {
		/* drivers in a CTS release */
		"drivers=vulkan\ndeqp_vk=lib/d\nfile " SHA_A " 755 1 lib/d\n",
		/* neither suite */
		"file " SHA_A " 755 1 lib/d\n",
		/* the binary named is not in it, or not executable */
		"deqp_vk=lib/d\nfile " SHA_A " 755 1 lib/e\n",
		"deqp_vk=lib/d\nfile " SHA_A " 644 1 lib/d\n",
		/* an empty OpenCL-CTS folder, a path outside lib/ */
		"opencl_cts_dir=lib/o\nfile " SHA_A " 755 1 lib/p/test_x\n",
		"deqp_vk=share/d\nfile " SHA_A " 755 1 share/d\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *t = xasprintf("%s%s", head, bad[i]);
		assert_int_equal(parse(t, &m, &e), TB_EVERIFY);
		free(t);
	}
	assert_int_equal(parse("format=1\nversion=1\narch=x86_64\nkind=firmware\n", &m, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "update tb323fu-mesa"));
	/* kind=mesa is a Mesa release as without the key */
	assert_int_equal(parse("format=1\nversion=1\narch=x86_64\nkind=mesa\n"
			       "file " SHA_A " 755 1 lib/libvulkan_freedreno.so\n"
			       "file " SHA_A " 755 1 lib/libRusticlOpenCL.so.1\n", &m, &e), TB_OK);
	assert_int_equal(m.kind, MANIFEST_MESA);
	assert_true(m.has_vulkan);
	manifest_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_keys), cmocka_unit_test(test_optional_keys),
		cmocka_unit_test(test_refusals),          cmocka_unit_test(test_paths),
		cmocka_unit_test(test_versions),          cmocka_unit_test(test_sums),
		cmocka_unit_test(test_config),            cmocka_unit_test(test_value_caps),
		cmocka_unit_test(test_link_directory_conflict), cmocka_unit_test(test_gl_keys),
		cmocka_unit_test(test_gl_refusals),       cmocka_unit_test(test_cts_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
