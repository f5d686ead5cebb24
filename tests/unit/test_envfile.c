/* The launcher's env-file reader, store paths and /proc/PID/maps reading. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/envfile.h"
#include "launcher/launcher.h"
#include "launcher/procmaps.h"
#include "common/storepath.h"
#include "tmpdir.h"

static struct env_list list;
static struct env_problem why;

/* Parses a copy of text (the parser writes into it); returns the parser's result. */
static int parse(const char *text)
{
	static char buf[ENVFILE_MAX_BYTES + 1];
	size_t n = strlen(text);
	assert_true(n < sizeof buf);
	memcpy(buf, text, n + 1);
	why.line = 99;
	why.what = NULL;
	return envfile_parse(buf, n, &list, &why);
}

static const char version_file[] =
	"VK_DRIVER_FILES=/var/lib/tb323fu/mesa/icd/versions/2026.10.06/turnip.json\n"
	"VK_ICD_FILENAMES=/var/lib/tb323fu/mesa/icd/versions/2026.10.06/turnip.json\n"
	"OCL_ICD_VENDORS=/var/lib/tb323fu/mesa/icd/versions/2026.10.06/opencl\n"
	"RUSTICL_ENABLE=llvmpipe\n"
	"LD_LIBRARY_PATH=/var/lib/tb323fu/mesa/versions/2026.10.06/lib"
	"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n";

static void reads_a_version_file(void **state)
{
	assert_int_equal(parse(version_file), 0);
	assert_int_equal(list.count, 5);
	assert_string_equal(list.vars[0].name, "VK_DRIVER_FILES");
	assert_string_equal(list.vars[0].value,
			    "/var/lib/tb323fu/mesa/icd/versions/2026.10.06/turnip.json");
	assert_false(list.vars[0].prepend);
	assert_string_equal(list.vars[3].name, "RUSTICL_ENABLE");
	assert_string_equal(list.vars[3].value, "llvmpipe");
	assert_string_equal(list.vars[4].name, "LD_LIBRARY_PATH");
	assert_string_equal(list.vars[4].value, "/var/lib/tb323fu/mesa/versions/2026.10.06/lib");
	assert_true(list.vars[4].prepend);
	assert_int_equal(list.vars[4].line, 5);
}

static void skips_comments_and_blank_lines(void **state)
{
	assert_int_equal(parse("# written by tb323fu-ctl\n\nA=1\n\n#B=2\nC=x=y"), 0);
	assert_int_equal(list.count, 2);
	assert_string_equal(list.vars[0].name, "A");
	assert_int_equal(list.vars[0].line, 3);
	/* The last line needs no newline; '=' inside a value is plain text. */
	assert_string_equal(list.vars[1].name, "C");
	assert_string_equal(list.vars[1].value, "x=y");
}

static void reads_empty_files_and_empty_values(void **state)
{
	assert_int_equal(parse(""), 0);
	assert_int_equal(list.count, 0);
	assert_int_equal(parse("\n\n"), 0);
	assert_int_equal(list.count, 0);
	assert_int_equal(parse("EMPTY=\n"), 0);
	assert_int_equal(list.count, 1);
	assert_string_equal(list.vars[0].value, "");
}

static void refused(const char *text, unsigned line)
{
	assert_int_equal(parse(text), -1);
	assert_int_equal(why.line, line);
	assert_non_null(why.what);
}

static void refuses_what_sh_or_environment_d_would_read_otherwise(void **state)
{
	refused("JUST A LINE\n", 1);
	refused("A=1\n1A=2\n", 2);
	refused("=value\n", 1);
	refused(" A=1\n", 1);
	refused("A B=1\n", 1);
	refused("export A=1\n", 1);
	refused("A=two words\n", 1);
	refused("A=trailing \n", 1);
	refused("A=tab\there\n", 1);
	refused("A=\"quoted\"\n", 1);
	refused("A='quoted'\n", 1);
	refused("A=back\\slash\n", 1);
	refused("A=$HOME/x\n", 1);
	refused("A=${HOME}\n", 1);
	refused("A=`id`\n", 1);
	refused("A=x;id\n", 1);
	refused("A=x|y\n", 1);
	refused("A=~/lib\n", 1);
	refused("PATH=/a:~/b\n", 1);
	refused("A=*\n", 1);
	refused("A=x\r\n", 1);
	refused("A=1\nB=2\r\n", 2);
	refused("A=\x01\n", 1);
}

static void understands_only_the_library_path_expansion(void **state)
{
	/* The form belongs to LD_LIBRARY_PATH alone and needs a directory. */
	refused("PATH=/x${PATH:+:$PATH}\n", 1);
	refused("VK_DRIVER_FILES=/x${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", 1);
	refused("LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", 1);
	refused("LD_LIBRARY_PATH=/x${LD_LIBRARY_PATH:-:$LD_LIBRARY_PATH}\n", 1);
	refused("LD_LIBRARY_PATH=/x${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n", 1);
	refused("LD_LIBRARY_PATH=/x$LD_LIBRARY_PATH\n", 1);
	/* Without the suffix it is a plain assignment. */
	assert_int_equal(parse("LD_LIBRARY_PATH=/x:/y\n"), 0);
	assert_false(list.vars[0].prepend);
	assert_string_equal(list.vars[0].value, "/x:/y");
}

static void refuses_nul_bytes_and_too_many_lines(void **state)
{
	char text[] = "A=1\nB=2\n";
	text[5] = '\0';
	char buf[sizeof text];
	memcpy(buf, text, sizeof text);
	assert_int_equal(envfile_parse(buf, sizeof text - 1, &list, &why), -1);
	assert_int_equal(why.line, 0);

	static char many[ENVFILE_MAX_BYTES];
	size_t len = 0;
	for (int i = 0; i <= ENVFILE_MAX_VARS; i++)
		len += (size_t)sprintf(many + len, "V%d=%d\n", i, i);
	refused(many, ENVFILE_MAX_VARS + 1);
	many[len - strlen("V64=64\n")] = '\0';
	assert_int_equal(parse(many), 0);
	assert_int_equal(list.count, ENVFILE_MAX_VARS);
}

static void later_lines_win(void **state)
{
	assert_int_equal(parse("A=1\nB=2\nA=3\n"), 0);
	assert_string_equal(env_list_find(&list, "A")->value, "3");
	assert_string_equal(env_list_find(&list, "B")->value, "2");
	assert_null(env_list_find(&list, "C"));
}

static void applies_the_prepend_form_as_sh_does(void **state)
{
	char out[64];
	struct env_var plain = {.name = "A", .value = "/new", .prepend = 0};
	struct env_var front = {.name = "LD_LIBRARY_PATH", .value = "/new", .prepend = 1};
	assert_int_equal(env_var_apply(&plain, "/old", out, sizeof out), 4);
	assert_string_equal(out, "/new");
	assert_int_equal(env_var_apply(&front, NULL, out, sizeof out), 4);
	assert_string_equal(out, "/new");
	assert_int_equal(env_var_apply(&front, "", out, sizeof out), 4);
	assert_string_equal(out, "/new");
	assert_int_equal(env_var_apply(&front, "/old:/older", out, sizeof out), 16);
	assert_string_equal(out, "/new:/old:/older");
	assert_int_equal(env_var_apply(&front, "/old", out, 9), -1);
	assert_int_equal(env_var_apply(&front, "/old", out, 10), 9);
}

static char *tmpdir;

static int make_tmpdir(void **state)
{
	tmpdir = test_mkdtemp("test_envfile");
	return tmpdir ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	int rc = system(cmd);
	free(tmpdir);
	return rc == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void reads_whole_files_up_to_the_limit(void **state)
{
	char path[128], buf[16];
	snprintf(path, sizeof path, "%s/f", tmpdir);
	assert_int_equal(envfile_read(path, buf, sizeof buf), -ENOENT);
	write_file(path, "0123456789abcde", 15); /* exactly cap - 1 */
	assert_int_equal(envfile_read(path, buf, sizeof buf), 15);
	assert_string_equal(buf, "0123456789abcde");
	write_file(path, "0123456789abcdef", 16);
	assert_int_equal(envfile_read(path, buf, sizeof buf), -E2BIG);
	write_file(path, "", 0);
	assert_int_equal(envfile_read(path, buf, sizeof buf), 0);
	assert_string_equal(buf, "");
	assert_int_equal(envfile_read(tmpdir, buf, sizeof buf), -EISDIR);
}

static struct launch_env loaded;

static void loads_current_or_a_version_with_clear_refusals(void **state)
{
	char dir[128], path[160];
	snprintf(dir, sizeof dir, "%s/store", tmpdir);
	/* Nothing installed: the store, or its env/ directory, does not exist. */
	assert_int_equal(launch_env_load(&loaded, dir, NULL), TB_EFAIL);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	assert_int_equal(launch_env_load(&loaded, dir, "../etc/passwd"), TB_EUSAGE);
	assert_int_equal(launch_env_load(&loaded, dir, "x1"), TB_EUSAGE);

	snprintf(path, sizeof path, "mkdir -p '%s/env'", dir);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof path, "%s/env/current.env", dir);
	write_file(path, version_file, strlen(version_file));
	/* an env file whose tree is gone selects nothing: refused */
	assert_int_equal(launch_env_load(&loaded, dir, NULL), TB_EFAIL);
	char tree[512];
	snprintf(tree, sizeof tree, "mkdir -p '%s/versions/2026.10.06' && touch '%s/versions/2026.10.06/MANIFEST' && ln -sfn versions/2026.10.06 '%s/current'",
		 dir, dir, dir);
	assert_int_equal(system(tree), 0);
	assert_int_equal(launch_env_load(&loaded, dir, NULL), 0);
	assert_int_equal(loaded.list.count, 5);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	snprintf(path, sizeof path, "%s/env/2026.10.06.env", dir);
	write_file(path, "A=1\nB=$x\n", 9);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	/* Only the variables a release selects: anything else (LD_PRELOAD, PATH) refuses the file. */
	write_file(path, "A=1\n", 4);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	write_file(path, "RUSTICL_ENABLE=1\nLD_PRELOAD=/x.so\n", 34);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	write_file(path, "RUSTICL_ENABLE=1\n", 17);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), 0);
	assert_string_equal(loaded.list.vars[0].value, "1");
	/* A FIFO in its place fails at once instead of waiting for a writer. */
	unlink(path);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(launch_env_load(&loaded, dir, "2026.10.06"), TB_EFAIL);
	unlink(path);
}

static void run_clears_and_applies_the_environment(void **state)
{
	char dir[128], other[160], ld[512];
	snprintf(dir, sizeof dir, "%s/store", tmpdir);
	snprintf(other, sizeof other, "%s/store2/lib", tmpdir);
	snprintf(ld, sizeof ld, "%s/current/lib:/opt/x:%s:%s/versions/1/lib", dir, other, dir);
	setenv("LD_LIBRARY_PATH", ld, 1);
	setenv("VK_ICD_FILENAMES", "/elsewhere.json", 1);
	setenv("KEEP", "yes", 1);
	assert_int_equal(parse(version_file), 0);
	assert_int_equal(launch_env_clean(dir, NULL), 0);
	snprintf(ld, sizeof ld, "/opt/x:%s", other);
	assert_string_equal(getenv("LD_LIBRARY_PATH"), ld);
	assert_null(getenv("VK_ICD_FILENAMES"));
	assert_string_equal(getenv("KEEP"), "yes");

	assert_int_equal(launch_env_apply(&list), 0);
	assert_string_equal(getenv("RUSTICL_ENABLE"), "llvmpipe");
	snprintf(ld, sizeof ld, "/var/lib/tb323fu/mesa/versions/2026.10.06/lib:/opt/x:%s", other);
	assert_string_equal(getenv("LD_LIBRARY_PATH"), ld);

	/* Only store directories: the variable goes away instead of becoming empty. */
	snprintf(ld, sizeof ld, "%s/current/lib", dir);
	setenv("LD_LIBRARY_PATH", ld, 1);
	assert_int_equal(parse("EXTRA=1\n"), 0);
	setenv("EXTRA", "2", 1);
	assert_int_equal(launch_env_clean(dir, &list), 0);
	assert_null(getenv("LD_LIBRARY_PATH"));
	assert_null(getenv("EXTRA"));
	unsetenv("KEEP");
}

static void checks_version_names(void **state)
{
	assert_true(version_name_ok("2026.10.06"));
	assert_true(version_name_ok("2026.10.06.2"));
	assert_true(version_name_ok("1+git_a-b"));
	assert_true(version_name_ok("1234567890123456789012345678901234567890123456789012345678901234"));
	assert_false(version_name_ok("12345678901234567890123456789012345678901234567890123456789012345"));
	assert_false(version_name_ok(""));
	assert_false(version_name_ok("v1"));
	assert_false(version_name_ok(".1"));
	assert_false(version_name_ok("1/../x"));
	assert_false(version_name_ok("1 2"));
	assert_false(version_name_ok("1:2"));
}

static void builds_store_paths(void **state)
{
	char out[64];
	assert_int_equal(store_env_file(out, sizeof out, "/s", NULL), 0);
	assert_string_equal(out, "/s/env/current.env");
	assert_int_equal(store_env_file(out, sizeof out, "/s", "2026.10.06"), 0);
	assert_string_equal(out, "/s/env/2026.10.06.env");
	assert_int_equal(store_env_file(out, 22, "/s", "2026.10.06"), 0);
	assert_int_equal(store_env_file(out, 21, "/s", "2026.10.06"), -1);

	unsetenv("TB323FU_MESA_DIR");
	assert_string_equal(store_root(NULL), STORE_DEFAULT_ROOT);
	setenv("TB323FU_MESA_DIR", "", 1);
	assert_string_equal(store_root(NULL), STORE_DEFAULT_ROOT);
	setenv("TB323FU_MESA_DIR", "/e", 1);
	assert_string_equal(store_root(NULL), "/e");
	assert_string_equal(store_root("/o"), "/o");
	unsetenv("TB323FU_MESA_DIR");
}

static void strips_store_directories_from_path_lists(void **state)
{
	char out[128];
	const char *dirs[] = {"/s", NULL, "/real/s/"};
	assert_int_equal(path_list_without("/s/current/lib:/usr/lib:/s2/lib:/real/s/versions/1/lib",
					   dirs, 3, out, sizeof out),
			 16);
	assert_string_equal(out, "/usr/lib:/s2/lib");
	/* Empty entries mean the working directory to ld.so: they stay. */
	path_list_without("/a::/s:/b", dirs, 3, out, sizeof out);
	assert_string_equal(out, "/a::/b");
	assert_int_equal(path_list_without("/s", dirs, 3, out, sizeof out), 0);
	assert_int_equal(path_list_without("/usr/lib", dirs, 3, out, 8), -1);
	assert_true(path_within("/s", "/s"));
	assert_true(path_within("/s/x", "/s/"));
	assert_false(path_within("/sx", "/s"));
	assert_true(path_within("/anything", "/"));
}

static void tells_which_version_a_path_belongs_to(void **state)
{
	char v[80];
	assert_string_equal(store_version_of("/r/versions/2026.10.06/lib/libvulkan_lvp.so", "/r", v,
					     sizeof v),
			    "2026.10.06");
	assert_string_equal(store_version_of("/r/versions/1/x", "/r/", v, sizeof v), "1");
	assert_null(store_version_of("/r/versions/2026.10.06", "/r", v, sizeof v));
	assert_null(store_version_of("/r/versions/.1.tmp/lib/x.so", "/r", v, sizeof v));
	assert_null(store_version_of("/r/current/lib/x.so", "/r", v, sizeof v));
	assert_null(store_version_of("/rr/versions/1/x.so", "/r", v, sizeof v));
	assert_null(store_version_of("/r/versions/1/x", "/r", v, 1));
}

static const char maps[] =
	"55d0c0a00000-55d0c0a02000 r--p 00000000 08:01 1234                       /usr/bin/vulkaninfo\n"
	"55d0c1a00000-55d0c1a21000 rw-p 00000000 00:00 0                          [heap]\n"
	"7f0000000000-7f0000001000 r--p 00000000 08:01 99                         /usr/lib/x86_64-linux-gnu/libvulkan.so.1.3.239\n"
	"7f0000100000-7f0000200000 r--p 00000000 08:01 100                        /s/versions/2026.10.06/lib/libvulkan_lvp.so\n"
	"7f0000200000-7f0000300000 r-xp 00100000 08:01 100                        /s/versions/2026.10.06/lib/libvulkan_lvp.so\n"
	"7f0000300000-7f0000400000 r--p 00000000 08:01 101                        /usr/lib/x86_64-linux-gnu/libOpenCL.so.1.0.0\n"
	"7f0000400000-7f0000500000 r--p 00000000 08:01 102                        /usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1.0.0 (deleted)\n"
	"7f0000500000-7f0000600000 r--p 00000000 00:00 0 \n"
	"7f0000600000-7f0000700000 r--p 00000000 08:01 103                        /opt/weird dir/libvulkan_radeon.so\n"
	"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]";

static void finds_driver_libraries_in_maps(void **state)
{
	static struct mapped_drivers found;
	procmaps_drivers(maps, strlen(maps), &found);
	assert_int_equal(found.count, 3);
	assert_int_equal(found.d[0].api, GPU_API_VULKAN);
	assert_string_equal(found.d[0].path, "/s/versions/2026.10.06/lib/libvulkan_lvp.so");
	assert_false(found.d[0].deleted);
	assert_int_equal(found.d[1].api, GPU_API_OPENCL);
	assert_string_equal(found.d[1].path,
			    "/usr/lib/x86_64-linux-gnu/libRusticlOpenCL.so.1.0.0");
	assert_true(found.d[1].deleted);
	assert_string_equal(found.d[2].path, "/opt/weird dir/libvulkan_radeon.so");
	assert_false(found.truncated);

	procmaps_drivers("", 0, &found);
	assert_int_equal(found.count, 0);
	const char *junk = "garbage\n\n/usr/lib/libvulkan_lvp.so\n";
	procmaps_drivers(junk, strlen(junk), &found);
	assert_int_equal(found.count, 0);
}

static void names_drivers_but_not_loaders(void **state)
{
	assert_int_equal(driver_api_of("/x/libvulkan_freedreno.so"), GPU_API_VULKAN);
	assert_int_equal(driver_api_of("libvulkan_lvp.so"), GPU_API_VULKAN);
	assert_int_equal(driver_api_of("/x/libvulkan.so.1"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/x/libRusticlOpenCL.so.1"), GPU_API_OPENCL);
	assert_int_equal(driver_api_of("/x/libMesaOpenCL.so.1"), GPU_API_OPENCL);
	assert_int_equal(driver_api_of("/x/libOpenCL.so.1"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/libvulkan_x/libc.so.6"), GPU_API_NONE);
	/* GL: the vendor's libraries, never glvnd's dispatchers */
	assert_int_equal(driver_api_of("/s/lib/gl/libEGL_mesa.so.0.0.0"), GPU_API_GL);
	assert_int_equal(driver_api_of("/usr/lib/libGLX_nvidia.so.0"), GPU_API_GL);
	assert_int_equal(driver_api_of("/s/lib/gl/libgbm.so.1.0.0"), GPU_API_GL);
	assert_int_equal(driver_api_of("/s/lib/gl/libglapi.so.0"), GPU_API_GL);
	assert_int_equal(driver_api_of("/s/lib/gl/libgallium-25.0.7-1.so"), GPU_API_GL);
	assert_int_equal(driver_api_of("/s/lib/gl/libgallium-25.0.7-2+deb13u1.so"), GPU_API_GL);
	assert_int_equal(driver_api_of("/s/lib/gl/dri/libdril_dri.so"), GPU_API_GL); /* Mesa 25's stub */
	assert_int_equal(driver_api_of("/s/lib/gl/dri/swrast_dri.so"), GPU_API_GL);
	assert_int_equal(driver_api_of("/usr/lib/gbm/dri_gbm.so"), GPU_API_GL);
	assert_int_equal(driver_api_of("/usr/lib/libEGL.so.1.1.0"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/usr/lib/libGLX.so.0"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/usr/lib/libGLESv2.so.2"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/usr/lib/libGLdispatch.so.0"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/usr/lib/libGL.so.1"), GPU_API_NONE);
	assert_int_equal(driver_api_of("/usr/lib/dri/x_dri.so.bak"), GPU_API_NONE);
	assert_string_equal(gpu_api_name(GPU_API_GL), "gl");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_a_version_file),
		cmocka_unit_test(skips_comments_and_blank_lines),
		cmocka_unit_test(reads_empty_files_and_empty_values),
		cmocka_unit_test(refuses_what_sh_or_environment_d_would_read_otherwise),
		cmocka_unit_test(understands_only_the_library_path_expansion),
		cmocka_unit_test(refuses_nul_bytes_and_too_many_lines),
		cmocka_unit_test(later_lines_win),
		cmocka_unit_test(applies_the_prepend_form_as_sh_does),
		cmocka_unit_test(reads_whole_files_up_to_the_limit),
		cmocka_unit_test(loads_current_or_a_version_with_clear_refusals),
		cmocka_unit_test(run_clears_and_applies_the_environment),
		cmocka_unit_test(checks_version_names),
		cmocka_unit_test(builds_store_paths),
		cmocka_unit_test(strips_store_directories_from_path_lists),
		cmocka_unit_test(tells_which_version_a_path_belongs_to),
		cmocka_unit_test(finds_driver_libraries_in_maps),
		cmocka_unit_test(names_drivers_but_not_loaders),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
