/* The ELF checks on small trees of fixture libraries (tests/fixtures/elf, built by the test),
 * on this host and on made-up hosts (older glibc, no system libraries). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "release/elfcheck.h"
#include "release/elffacts.h"
#include "base/ldpaths.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/host.h"

static char fixtures[256]; /* built fixture libraries */
static char scratch[512];  /* trees of one test */

/* Runs a shell command (printf format); the test fails when it does. */
static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *cmd = NULL;
	if (vasprintf(&cmd, fmt, ap) < 0)
		fail_msg("out of memory");
	va_end(ap);
	int rc = system(cmd);
	if (rc != 0)
		fail_msg("command failed (%d): %s", rc, cmd);
	free(cmd);
}

static int build_fixtures(void **state)
{
	const char *top = getenv("TB_TOP");
	snprintf(fixtures, sizeof fixtures, "%s/tb-elf-fixtures.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fixtures))
		return -1;
	char *cmd = xasprintf("sh '%s/tests/fixtures/elf/build.sh' '%s'", top ? top : ".", fixtures);
	int rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

static int remove_fixtures(void **state)
{
	remove_tree(fixtures);
	return 0;
}

static int new_scratch(void **state)
{
	snprintf(scratch, sizeof scratch, "%s/tree.XXXXXX", fixtures);
	return mkdtemp(scratch) ? 0 : -1;
}

static int drop_scratch(void **state)
{
	remove_tree(scratch);
	return 0;
}

/* Copies a fixture into the tree as rel (lib/…). */
static void put(const char *fixture, const char *rel)
{
	run("mkdir -p \"$(dirname '%s/%s')\" && cp '%s/%s' '%s/%s'", scratch, rel, fixtures, fixture,
	    scratch, rel);
}

static void write_text(const char *rel, const char *text)
{
	run("mkdir -p \"$(dirname '%s/%s')\"", scratch, rel);
	char *path = path_join(scratch, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static int check_here(const struct manifest *m, struct elf_report *r, struct tb_error *e)
{
	tb_error_clear(e);
	return elf_check_tree(scratch, m, r, e);
}

/* A host like this one but with another glibc, or without system libraries. */
static int check_on(const char *glibc, int no_system_libs, const struct manifest *m,
		    struct elf_report *r, struct tb_error *e)
{
	struct elf_host h;
	assert_int_equal(elf_host_detect(&h, e), TB_OK);
	if (glibc)
		snprintf(h.glibc, sizeof h.glibc, "%s", glibc);
	size_t saved = h.n_lib_dirs;
	if (no_system_libs)
		h.n_lib_dirs = 0;
	tb_error_clear(e);
	int rc = elf_check_tree_on_host(scratch, m, &h, r, e);
	h.n_lib_dirs = saved;
	elf_host_free(&h);
	return rc;
}

static void test_runpath_origin_reaches_shipped_dependency(void **state)
{
	put("libtbuser-runpath.so", "lib/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	put("libtbrandom.so", "lib/libtbrandom.so");
	write_text("MANIFEST", "format=1\n");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_OK);
	assert_int_equal(r.needs_ld_library_path, 0);
	assert_true(r.glibc_floor[0] != '\0'); /* every library needs some glibc */
}

static void test_without_runpath_needs_ld_library_path(void **state)
{
	put("libtbuser-plain.so", "lib/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_OK);
	assert_int_equal(r.needs_ld_library_path, 1);
}

static void test_runpath_does_not_reach_other_directory(void **state)
{
	/* RUNPATH $ORIGIN of lib/sub/ does not reach lib/: LD_LIBRARY_PATH is needed. */
	put("libtbuser-runpath.so", "lib/sub/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_OK);
	assert_int_equal(r.needs_ld_library_path, 1);
}

static void test_runpath_leaving_the_tree_is_not_followed(void **state)
{
	/* $ORIGIN/../../outside from <tree>/lib reaches a directory beside the tree: a release
	 * must not count on what lies around wherever it is unpacked, nor let it be searched. */
	put("libtbuser-escape.so", "lib/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	run("mkdir -p '%s/outside' && cp '%s/libtbdep.so.1' '%s/outside/'", fixtures, fixtures,
	    fixtures);
	struct elf_report r;
	struct tb_error e = {0};
	int rc = check_here(NULL, &r, &e);
	run("rm -rf '%s/outside'", fixtures);
	assert_int_equal(rc, TB_EVERIFY);
	assert_string_equal(tb_error_reason(&e), "runpath-unsafe");
	assert_non_null(strstr(e.msg, "lib/libtbuser.so has the RUNPATH entry \"$ORIGIN/../../outside\""));
}

static void test_runpath_from_working_directory_is_refused(void **state)
{
	/* "hijack" is taken from the working directory of whatever program loads the library. */
	put("libtbuser-hijack.so", "lib/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	assert_string_equal(tb_error_reason(&e), "runpath-unsafe");
	assert_non_null(strstr(e.msg, "lib/libtbuser.so has the RUNPATH entry \"hijack\""));
}

static void test_rpath_outside_system_dirs_is_refused(void **state)
{
	put("libtbuser-abs.so", "lib/libtbuser.so");
	put("libtbdep.so.1", "lib/libtbdep.so.1");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "has the RPATH entry \"/opt/tb-elsewhere/lib\""));
}

static void test_missing_soname_is_refused_by_name(void **state)
{
	put("libtbuser-runpath.so", "lib/libtbuser.so");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg,
			       "lib/libtbuser.so needs libtbdep.so.1, which this system does not have"));
}

static void test_system_libraries_resolve(void **state)
{
	/* libc.so.6 comes from the system; without system directories it is missing. */
	put("libtbrandom.so", "lib/libtbrandom.so");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_OK);
	assert_int_equal(check_on(NULL, 1, NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "needs libc.so.6, which this system does not have"));
}

static void test_foreign_architecture_is_refused(void **state)
{
	char *probe = path_join(fixtures, "libtbarm64.so");
	int have = access(probe, R_OK) == 0;
	free(probe);
	if (!have)
		skip();
	put("libtbplain.so", "lib/libtbplain.so");
	put("libtbarm64.so", "lib/libfoo.so");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	if (strcmp(host_arch(), "x86_64") == 0)
		assert_non_null(strstr(e.msg, "lib/libfoo.so is built for aarch64, this system is x86_64"));
	else
		assert_non_null(strstr(e.msg, "lib/libfoo.so is built for"));
}

static void test_glibc_floor_against_host(void **state)
{
	put("libtbrandom.so", "lib/libtbrandom.so");
	struct elf_report r;
	struct tb_error e = {0};
	/* getrandom is GLIBC_2.25: a host with 2.41 takes it and learns the floor. */
	assert_int_equal(check_on("2.41", 0, NULL, &r, &e), TB_OK);
	assert_string_equal(r.glibc_floor, "2.25");
	assert_int_equal(check_on("2.25", 0, NULL, &r, &e), TB_OK);
	/* An older glibc is refused, naming both versions. */
	assert_int_equal(check_on("2.24", 0, NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/libtbrandom.so needs glibc 2.25 (GLIBC_2.25), "
				      "this system has 2.24"));
}

static void test_future_glibc_is_refused_on_this_host(void **state)
{
	put("libtbfuture.so", "lib/libtbfuture.so");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "needs glibc 2.99 (GLIBC_2.99)"));
}

static void test_drivers_export_entry_points(void **state)
{
	put("libtbdriver.so", "lib/libvulkan_test.so");
	put("libtbdriver.so", "lib/libRusticlOpenCL.so.1");
	struct manifest m = {0};
	m.has_vulkan = 1;
	m.vulkan_lib = "lib/libvulkan_test.so";
	m.has_opencl = 1;
	m.opencl_lib = "lib/libRusticlOpenCL.so.1";
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(&m, &r, &e), TB_OK);

	/* A driver reached through a link of the tree counts too. */
	run("cd '%s/lib' && mv libvulkan_test.so libvulkan_test.so.1 && "
		      "ln -s libvulkan_test.so.1 libvulkan_test.so", scratch);
	assert_int_equal(check_here(&m, &r, &e), TB_OK);

	m.opencl_lib = "lib/libOpenCL_missing.so";
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/libOpenCL_missing.so"));
	assert_non_null(strstr(e.msg, "missing"));
}

static void test_driver_without_entry_point_is_refused(void **state)
{
	put("libtbplain.so", "lib/libvulkan_test.so");
	struct manifest m = {0};
	m.has_vulkan = 1;
	m.vulkan_lib = "lib/libvulkan_test.so";
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/libvulkan_test.so does not export vk_icdGetInstanceProcAddr"));
}

/* GL's libraries export glvnd's and GBM's entries, and find each other by name in gl_lib_dir
 * (the GL variables' LD_LIBRARY_PATH), which the rest of the release does not. */
static void test_gl_libraries(void **state)
{
	put("libtbdriver.so", "lib/gl/libEGL_mesa.so.0");
	put("libtbdriver.so", "lib/gl/libgbm.so.1");
	put("libtbdriver.so", "lib/gl/libGLX_mesa.so.0");
	put("libtbuser-plain.so", "lib/gl/dri/swrast_dri.so");
	put("libtbdep.so.1", "lib/gl/libtbdep.so.1");
	struct manifest m = {0};
	m.has_gl = 1;
	m.gl_lib_dir = "lib/gl";
	m.egl_vendor_lib = "lib/gl/libEGL_mesa.so.0";
	m.gbm_lib = "lib/gl/libgbm.so.1";
	m.glx_vendor_lib = "lib/gl/libGLX_mesa.so.0";
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(&m, &r, &e), TB_OK);
	assert_false(r.needs_ld_library_path);

	put("libtbplain.so", "lib/gl/libGLX_mesa.so.0");
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "the GLX vendor library lib/gl/libGLX_mesa.so.0 does not export __glx_Main"));
	put("libtbplain.so", "lib/gl/libEGL_mesa.so.0");
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "the EGL vendor library lib/gl/libEGL_mesa.so.0 does not export __egl_Main"));
	put("libtbdriver.so", "lib/gl/libEGL_mesa.so.0");
	put("libtbdriver.so", "lib/gl/libGLX_mesa.so.0");

	/* Outside GL's folder the same need is unresolved: nothing puts lib/gl on its path. */
	put("libtbuser-plain.so", "lib/libtbuser.so");
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/libtbuser.so needs libtbdep.so.1"));
	/* And without GL the DRI driver's need is unresolved too. */
	run("rm '%s/lib/libtbuser.so'", scratch);
	m.has_gl = 0;
	assert_int_equal(check_here(&m, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/gl/dri/swrast_dri.so needs libtbdep.so.1"));
}

static void test_other_files_are_ignored_and_damage_is_named(void **state)
{
	write_text("MANIFEST", "format=1\n");
	run("mkdir -p '%s/share/doc'", scratch);
	write_text("share/doc/README", "not an ELF file\n");
	write_text("lib/empty", "");
	struct elf_report r;
	struct tb_error e = {0};
	assert_int_equal(check_here(NULL, &r, &e), TB_OK);
	assert_string_equal(r.glibc_floor, "");

	/* The first kilobyte of a library: a header whose sections lie beyond the end. */
	run("head -c 1024 '%s/libtbplain.so' > '%s/lib/libcut.so'", fixtures, scratch);
	assert_int_equal(check_here(NULL, &r, &e), TB_EVERIFY);
	assert_non_null(strstr(e.msg, "lib/libcut.so is a damaged ELF file"));
}

static void test_facts_of_one_file(void **state)
{
	char *path = path_join(fixtures, "libtbuser-runpath.so");
	struct elf_facts f;
	struct tb_error e = {0};
	assert_int_equal(elf_read_facts_file("x", path, &f, &e), TB_OK);
	assert_true(f.is_elf);
	assert_int_equal(f.n_needed >= 1, 1);
	assert_string_equal(f.needed[0], "libtbdep.so.1");
	assert_non_null(f.runpath);
	assert_string_equal(f.runpath, "$ORIGIN");
	assert_null(f.rpath);
	elf_facts_free(&f);
	free(path);

	assert_int_equal(elf_read_facts_memory("y", "hello", 5, &f, &e), TB_OK);
	assert_false(f.is_elf);
	elf_facts_free(&f);
}

static void test_glibc_version_compare(void **state)
{
	assert_true(glibc_version_compare("2.34", "2.41") < 0);
	assert_true(glibc_version_compare("2.41", "2.34") > 0);
	assert_true(glibc_version_compare("2.9", "2.10") < 0);
	assert_true(glibc_version_compare("2.2.5", "2.2") > 0);
	assert_true(glibc_version_compare("2.36", "2.36") == 0);
	assert_true(glibc_version_compare("2.36", "2.36.0") == 0);
	assert_true(glibc_version_compare("3.0", "2.99") > 0);
}

static void test_machine_names(void **state)
{
	char buf[32];
	assert_string_equal(elf_machine_name(183, 2, buf, sizeof buf), "aarch64");
	assert_string_equal(elf_machine_name(62, 2, buf, sizeof buf), "x86_64");
	assert_string_equal(elf_machine_name(9999, 2, buf, sizeof buf), "machine 9999");
}

static void test_ld_so_conf_with_includes(void **state)
{
	/* conf: a directory, a comment, an include glob relative to the file, a loop. */
	run("mkdir -p '%s/d1' '%s/d2' '%s/d3' '%s/conf.d'", scratch, scratch, scratch,
		      scratch);
	char *conf = path_join(scratch, "ld.so.conf");
	char *text = xasprintf("# comment\n%s/d1\ninclude conf.d/*.conf\n%s/missing\n", scratch,
			       scratch);
	write_text("ld.so.conf", text);
	free(text);
	text = xasprintf("%s/d2 %s/d1\n", scratch, scratch);
	write_text("conf.d/a.conf", text);
	free(text);
	text = xasprintf("%s/d3\ninclude %s/ld.so.conf\n", scratch, scratch);
	write_text("conf.d/b.conf", text);
	free(text);

	size_t n;
	char **dirs = ld_system_dirs(conf, "x86_64", &n);
	assert_true(n >= 3);
	char *d1 = path_join(scratch, "d1"), *d2 = path_join(scratch, "d2"),
	     *d3 = path_join(scratch, "d3");
	assert_string_equal(dirs[0], d1);
	assert_string_equal(dirs[1], d2);
	assert_string_equal(dirs[2], d3);
	for (size_t i = 3; i < n; i++) {
		assert_true(strstr(dirs[i], scratch) == NULL); /* no duplicates, no missing dirs */
	}
	assert_string_equal(ld_multiarch_tuple("aarch64"), "aarch64-linux-gnu");
	ld_paths_free(dirs, n);
	free(d1);
	free(d2);
	free(d3);
	free(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_runpath_origin_reaches_shipped_dependency,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_without_runpath_needs_ld_library_path,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_runpath_does_not_reach_other_directory,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_runpath_from_working_directory_is_refused,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_rpath_outside_system_dirs_is_refused,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_runpath_leaving_the_tree_is_not_followed,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_missing_soname_is_refused_by_name, new_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_system_libraries_resolve, new_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_foreign_architecture_is_refused, new_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_glibc_floor_against_host, new_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_future_glibc_is_refused_on_this_host,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_drivers_export_entry_points, new_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_driver_without_entry_point_is_refused,
						new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_gl_libraries, new_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_other_files_are_ignored_and_damage_is_named,
						new_scratch, drop_scratch),
		cmocka_unit_test(test_facts_of_one_file),
		cmocka_unit_test(test_glibc_version_compare),
		cmocka_unit_test(test_machine_names),
		cmocka_unit_test_setup_teardown(test_ld_so_conf_with_includes, new_scratch,
						drop_scratch),
	};
	return cmocka_run_group_tests(tests, build_fixtures, remove_fixtures);
}
