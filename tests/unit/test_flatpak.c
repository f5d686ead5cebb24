/* The Flatpak parts that read text or make names (docs/design.md §17): a version's
 * extension name, a path inside a sandbox read back, a runtime's metadata, our marker and the
 * global override the session's starts get. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/flatpakname.h"
#include "flatpak/export.h"
#include "flatpak/runtime.h"
#include "flatpak/session.h"
#include "base/error.h"

static void test_names(void **state)
{
	(void)state;
	char n[64];
	assert_true(flatpak_export_name("2026.10.06", n, sizeof n));
	assert_string_equal(n, "tb323fu-mesa-2026_10_06");
	assert_true(flatpak_export_name("2026.10.06-rc1", n, sizeof n));
	assert_string_equal(n, "tb323fu-mesa-2026_10_06-rc1");
	assert_false(flatpak_export_name("2026.10.06+local", n, sizeof n)); /* no '+' in a name */
	assert_false(flatpak_export_name("", n, sizeof n));
	assert_false(flatpak_export_name("2026.10.06", n, 16)); /* does not fit */
}

static void test_paths(void **state)
{
	(void)state;
	char v[64];
	assert_int_equal(flatpak_path_extension("/usr/lib/x86_64-linux-gnu/GL/tb323fu-mesa-2026_10_06/lib/libvulkan_lvp.so", v, sizeof v), 1);
	assert_string_equal(v, "2026.10.06");
	assert_int_equal(flatpak_path_extension("/usr/lib/aarch64-linux-gnu/GL/default/lib/libvulkan_freedreno.so", v, sizeof v), 2);
	assert_string_equal(v, "default");
	assert_int_equal(flatpak_path_extension("/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so", v, sizeof v), 0);
	assert_int_equal(flatpak_path_extension("/usr/lib/x86_64-linux-gnu/GL/", v, sizeof v), 0);
	assert_int_equal(flatpak_path_extension("/var/lib/tb323fu/mesa/versions/1/lib/x.so", v, sizeof v), 0);
}

static int meta(const char *text, struct flatpak_runtime *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	r->branch = "24.08";
	memset(e, 0, sizeof *e);
	return flatpak_metadata_read("metadata", text, strlen(text), r, e);
}

static void test_metadata(void **state)
{
	(void)state;
	struct flatpak_runtime r;
	struct tb_error e;
	assert_int_equal(meta("[Extension org.freedesktop.Platform.GL]\nversions= 24.08 ;1.4\n"
			      "directory=lib/aarch64-linux-gnu/GL\nsubdirectories=true\n", &r, &e), TB_OK);
	assert_string_equal(r.gl_dir, "lib/aarch64-linux-gnu/GL");
	assert_string_equal(r.gl_version, "24.08");
	free(r.gl_dir);
	free(r.gl_version);
	/* version= alone, and none at all: the branch */
	assert_int_equal(meta("[Extension org.freedesktop.Platform.GL]\nversion=1.4\ndirectory=lib/GL\nsubdirectories=true\n", &r, &e), TB_OK);
	assert_string_equal(r.gl_version, "1.4");
	free(r.gl_dir);
	free(r.gl_version);
	/* refused: no point, no subdirectories, a directory that climbs out, binary, not a key file */
	assert_int_not_equal(meta("[Runtime]\nname=x\n", &r, &e), TB_OK);
	assert_non_null(strstr(e.msg, "declares no org.freedesktop.Platform.GL extension point"));
	assert_int_not_equal(meta("[Extension org.freedesktop.Platform.GL]\ndirectory=lib/GL\n", &r, &e), TB_OK);
	assert_int_not_equal(meta("[Extension org.freedesktop.Platform.GL]\ndirectory=../../etc\nsubdirectories=true\n", &r, &e), TB_OK);
	assert_int_not_equal(meta("[Extension org.freedesktop.Platform.GL]\ndirectory=/etc\nsubdirectories=true\n", &r, &e), TB_OK);
	assert_int_not_equal(meta("no group at all\n", &r, &e), TB_OK);
	assert_int_not_equal(flatpak_metadata_read("metadata", "[a]\0b", 5, &r, &e), TB_OK);
	assert_null(r.gl_dir);
}

static void test_marker(void **state)
{
	(void)state;
	const char *ours = "[TB323FU Mesa Export]\nMark=tb323fu-mesa-toolchain-program\nVersion=2026.10.06\nBranch=24.08\nStore=/s\n";
	struct flatpak_export x = {0};
	assert_true(flatpak_marker_read(ours, strlen(ours), &x));
	assert_string_equal(x.version, "2026.10.06");
	assert_string_equal(x.branch, "24.08");
	assert_string_equal(x.store, "/s");
	free(x.version);
	free(x.branch);
	free(x.store);
	memset(&x, 0, sizeof x);
	const char *other = "[TB323FU Mesa Export]\nMark=someone-else\nVersion=1\nBranch=2\nStore=/s\n";
	assert_false(flatpak_marker_read(other, strlen(other), &x));
	const char *half = "[TB323FU Mesa Export]\nMark=tb323fu-mesa-toolchain-program\nVersion=1\n";
	assert_false(flatpak_marker_read(half, strlen(half), &x));
	assert_null(x.version);
}

static void test_override(void **state)
{
	(void)state;
	size_t n = 0;
	/* none there: ours alone */
	char *on = flatpak_override_edit(NULL, 0, 1, &n);
	assert_non_null(on);
	assert_non_null(strstr(on, "\nOCL_ICD_VENDORS=\n"));
	assert_non_null(strstr(on, "\nLIBGL_DRIVERS_PATH=\n"));
	assert_non_null(strstr(on, "\nGBM_BACKENDS_PATH=\n"));
	assert_non_null(strstr(on, "unset-environment=OCL_ICD_VENDORS;LIBGL_DRIVERS_PATH;GBM_BACKENDS_PATH;"));
	assert_non_null(strstr(on, "tb323fu-mesa-toolchain-program"));
	assert_null(flatpak_override_edit(on, strlen(on), 1, &n)); /* already there */
	char *off = flatpak_override_edit(on, strlen(on), 0, &n);
	assert_non_null(off);
	assert_null(strstr(off, "OCL_ICD_VENDORS"));
	assert_null(strstr(off, "LIBGL_DRIVERS_PATH"));
	assert_null(strstr(off, "tb323fu-mesa"));
	free(on);
	free(off);
	/* someone else's groups, keys and unset names stay, in their order */
	const char *theirs = "# mine\n[Context]\nshared=network;\nunset-environment=FOO;\n\n[Environment]\nBAR=1\n";
	on = flatpak_override_edit(theirs, strlen(theirs), 1, &n);
	assert_non_null(on);
	assert_non_null(strstr(on, "# mine"));
	assert_non_null(strstr(on, "shared=network;"));
	assert_non_null(strstr(on, "unset-environment=FOO;OCL_ICD_VENDORS;"));
	assert_non_null(strstr(on, "BAR=1"));
	off = flatpak_override_edit(on, strlen(on), 0, &n);
	assert_non_null(off);
	assert_non_null(strstr(off, "unset-environment=FOO;\n"));
	assert_non_null(strstr(off, "BAR=1"));
	assert_null(strstr(off, "OCL_ICD_VENDORS"));
	free(on);
	free(off);
	/* an OCL_ICD_VENDORS someone else set is theirs: never changed, never taken; the other
	 * keys are ours to put in and take out */
	const char *set = "[Environment]\nOCL_ICD_VENDORS=/usr/lib/x/GL/y/OpenCL/vendors\n";
	on = flatpak_override_edit(set, strlen(set), 1, &n);
	assert_non_null(on);
	assert_non_null(strstr(on, "OCL_ICD_VENDORS=/usr/lib/x/GL/y/OpenCL/vendors\n"));
	assert_non_null(strstr(on, "\nLIBGL_DRIVERS_PATH=\n"));
	assert_non_null(strstr(on, "unset-environment=LIBGL_DRIVERS_PATH;GBM_BACKENDS_PATH;"));
	assert_null(flatpak_override_edit(on, strlen(on), 1, &n));
	off = flatpak_override_edit(on, strlen(on), 0, &n);
	assert_non_null(off);
	assert_non_null(strstr(off, "OCL_ICD_VENDORS=/usr/lib/x/GL/y/OpenCL/vendors\n"));
	assert_null(strstr(off, "LIBGL_DRIVERS_PATH"));
	assert_null(strstr(off, "unset-environment"));
	free(on);
	free(off);
	assert_null(flatpak_override_edit(set, strlen(set), 0, &n));
	/* on then off gives every file back byte for byte: someone else's OCL_ICD_VENDORS,
	 * blank lines, comments at a group's end, other groups after ours, CRLF line ends */
	static const char *const round_trip[] = {
		"[Environment]\nOCL_ICD_VENDORS=/usr/lib/x/OpenCL/vendors\n",
		"[Environment]\nOCL_ICD_VENDORS=/x\n\n",
		"# mine\n[Context]\nshared=network;\nunset-environment=FOO;\n\n[Environment]\nBAR=1\n",
		"[Session Bus Policy]\norg.x=talk\n\n[Environment]\nOCL_ICD_VENDORS=/x\n# tail\n",
		"[Environment]\nOCL_ICD_VENDORS=/x\n[Context]\nshared=ipc;\n",
		"[Environment]\r\nOCL_ICD_VENDORS=/x\r\n\r\n[Context]\r\nunset-environment=A;B;\r\n",
		"\n\n[Context]\nfilesystems=home;\n",
	};
	for (size_t i = 0; i < sizeof round_trip / sizeof *round_trip; i++) {
		const char *t = round_trip[i];
		on = flatpak_override_edit(t, strlen(t), 1, &n);
		assert_non_null(on);
		assert_null(flatpak_override_edit(on, n, 1, &n)); /* already there */
		off = flatpak_override_edit(on, strlen(on), 0, &n);
		assert_non_null(off);
		assert_string_equal(off, t);
		assert_int_equal(n, strlen(t));
		free(on);
		free(off);
	}
	/* a file of ours alone: off leaves nothing */
	on = flatpak_override_edit(NULL, 0, 1, &n);
	off = flatpak_override_edit(on, strlen(on), 0, &n);
	assert_int_equal(n, 0);
	free(on);
	free(off);
	/* not a key file, or a NUL inside: left alone */
	assert_null(flatpak_override_edit("not a key file", 14, 1, &n));
	assert_null(flatpak_override_edit("[Environment]\nA=\0\n", 18, 1, &n));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_metadata),
		cmocka_unit_test(test_marker),
		cmocka_unit_test(test_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
