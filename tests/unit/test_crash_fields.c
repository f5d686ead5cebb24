/* The readers of crash evidence (docs/design.md §18): the kernel's lines as this machine and
 * the kernel's format strings write them, maps and environment blobs as systemd-coredump
 * records them, the desktop's application units. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "crash/fields.h"

static int kline(const char *s, struct crash_kline *k)
{
	return crash_kernel_line(s, strlen(s), k);
}

static void test_kernel_lines(void **state)
{
	struct crash_kline k;
	/* recorded here (tests/fixtures/crashes/store-lvp.kernel.txt) */
	assert_int_equal(kline("crash-in-driver[21065]: segfault at 8 ip 00007f9b522cb5ff sp 00007ffd8908b3e0 error 4 in libvulkan_lvp.so[cb5ff,7f9b52253000+317000] likely on CPU 1 (core 1, socket 0)", &k), 1);
	assert_int_equal(k.kind, KLINE_SEGFAULT);
	assert_string_equal(k.comm, "crash-in-driver");
	assert_int_equal(k.pid, 21065);
	assert_string_equal(k.object, "libvulkan_lvp.so");
	/* arm64's, from arch/arm64/kernel/traps.c's format */
	assert_int_equal(kline("vkcube[812]: unhandled exception: DABT (lower EL), ESR 0x0000000092000006, level 2 translation fault in libvulkan_freedreno.so[ffff9c210000+4b0000]", &k), 1);
	assert_int_equal(k.kind, KLINE_EXCEPTION);
	assert_string_equal(k.object, "libvulkan_freedreno.so");
	/* msm's GPU hang, from drivers/gpu/drm/msm/msm_gpu.c's format */
	assert_int_equal(kline("msm_dpu ae01000.display-controller: [drm:recover_worker] *ERROR* 6.3.0.2: offending task: vkcube (/usr/bin/vkcube --wsi wayland)", &k), 1);
	assert_int_equal(k.kind, KLINE_GPU_HANG);
	assert_string_equal(k.comm, "vkcube");
	assert_string_equal(k.cmdline, "/usr/bin/vkcube --wsi wayland");
	assert_int_equal(kline("*** gpu fault: ttbr0=000000010a4e0000 iova=0000000100000000 dir=READ type=TRANSLATION source=CP (0,0,0,1)", &k), 1);
	assert_int_equal(k.kind, KLINE_GPU_FAULT);
	/* not a fault */
	assert_int_equal(kline("EXT4-fs (vda): mounted filesystem", &k), 0);
	assert_int_equal(kline("x[12]: something else", &k), 0);
	assert_int_equal(kline("[12]: segfault at 0", &k), 0);
}

static void test_maps(void **state)
{
	const char *maps =
		"55d0-55d1 r-xp 00001000 fe:00 1 /opt/x/bin/app\n"
		"7f00-7f01 r-xp 00053000 fe:00 2 /usr/lib/x86_64-linux-gnu/libvulkan_radeon.so\n"
		"7f01-7f02 r-xp 00000000 fe:00 3 /s/versions/../../etc/2026.10.07/lib/x.so\n"
		"7f02-7f03 r-xp 00053000 fe:00 4 /s/versions/2026.10.07/lib/libvulkan_lvp.so (deleted)\n"
		"7f03-7f04 rw-p 00000000 00:00 0\n";
	char v[80];
	int other = 0;
	assert_int_equal(crash_maps_version(maps, strlen(maps), "/s/versions/", v, sizeof v, &other), 1);
	assert_string_equal(v, "2026.10.07");
	assert_int_equal(other, 1);
	const char *forged = "7f01-7f02 r-xp 00000000 fe:00 3 /s/versions/../2026.10.07/lib/x.so\n"
			     "7f01-7f02 r-xp 00000000 fe:00 3 /s/versionsX/2026.10.07/lib/x.so\n"
			     "7f01-7f02 r-xp 00000000 fe:00 3 /s/versions/-bad/lib/x.so\n";
	assert_int_equal(crash_maps_version(forged, strlen(forged), "/s/versions/", v, sizeof v, &other), 0);
	assert_int_equal(other, 0);
	/* the system's GL is a driver of the system's too; glvnd's loaders and GBM are not drivers */
	static const char *const gl[] = {"libgallium-25.0.7-1.so", "libEGL_mesa.so.0.0.0", "libGLX_mesa.so.0", "swrast_dri.so"};
	for (size_t i = 0; i < sizeof gl / sizeof *gl; i++) {
		char line[200];
		snprintf(line, sizeof line, "7f00-7f01 r-xp 00000000 fe:00 2 /usr/lib/x86_64-linux-gnu/%s\n", gl[i]);
		assert_int_equal(crash_maps_version(line, strlen(line), "/s/versions/", v, sizeof v, &other), 0);
		assert_int_equal(other, 1);
	}
	const char *loaders = "7f00-7f01 r-xp 00000000 fe:00 2 /usr/lib/x86_64-linux-gnu/libEGL.so.1.1.0\n"
			      "7f00-7f01 r-xp 00000000 fe:00 2 /usr/lib/x86_64-linux-gnu/libgbm.so.1.0.0\n";
	assert_int_equal(crash_maps_version(loaders, strlen(loaders), "/s/versions/", v, sizeof v, &other), 0);
	assert_int_equal(other, 0);
}

static void test_environ(void **state)
{
	const char blob[] = "PATH=/bin\nVK_DRIVER_FILES=/s/icd/turnip.json\0VK_ICD=x\nHOME=/h";
	char v[64];
	assert_int_equal(crash_environ_get(blob, sizeof blob - 1, "VK_DRIVER_FILES", v, sizeof v), 1);
	assert_string_equal(v, "/s/icd/turnip.json");
	assert_int_equal(crash_environ_get(blob, sizeof blob - 1, "VK_ICD", v, sizeof v), 1);
	assert_string_equal(v, "x");
	assert_int_equal(crash_environ_get(blob, sizeof blob - 1, "HOME", v, 2), 0);
	assert_int_equal(crash_environ_get(blob, sizeof blob - 1, "VK", v, sizeof v), 0);
}

static void test_cgroup_units(void **state)
{
	char id[300];
	const char *a = "/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.darktable.darktable-4242.scope";
	assert_int_equal(crash_cgroup_app(a, strlen(a), id, sizeof id), 1);
	assert_string_equal(id, "org.darktable.darktable.desktop");
	const char *b = "/user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal@a1b2.service";
	assert_int_equal(crash_cgroup_app(b, strlen(b), id, sizeof id), 1);
	assert_string_equal(id, "org.gnome.Terminal.desktop");
	const char *c = "/app.slice/app-flatpak-com.valvesoftware.Steam\\x2dbeta-77.scope";
	assert_int_equal(crash_cgroup_app(c, strlen(c), id, sizeof id), 1);
	assert_string_equal(id, "com.valvesoftware.Steam-beta.desktop");
	const char *d = "/system.slice/cron.service", *e = "/app.slice/app-gnome-\\x2e\\x2e-1.scope", *f = "/";
	assert_int_equal(crash_cgroup_app(d, strlen(d), id, sizeof id), 0);
	assert_int_equal(crash_cgroup_app(e, strlen(e), id, sizeof id), 0);
	assert_int_equal(crash_cgroup_app(f, strlen(f), id, sizeof id), 0);
}

static int trusted(const char *transport, const char *unit, const char *comm, const char *exe,
		   const char *uid, const char *cuid, long *got)
{
	struct crash_trust t = {
		.transport = transport, .transport_len = transport ? strlen(transport) : 0,
		.unit = unit, .unit_len = unit ? strlen(unit) : 0,
		.comm = comm, .comm_len = comm ? strlen(comm) : 0,
		.exe = exe, .exe_len = exe ? strlen(exe) : 0,
		.uid = uid, .uid_len = uid ? strlen(uid) : 0,
		.coredump_uid = cuid, .coredump_uid_len = cuid ? strlen(cuid) : 0,
	};
	return crash_coredump_trusted(&t, got);
}

/* What systemd-coredump's own entry carries (journald's fields from its service), and each
 * field a sender without that service could give instead */
static void test_coredump_trust(void **state)
{
	(void)state;
	const char *U = "systemd-coredump@3-4121-1000.service", *C = "systemd-coredum", *E = "/usr/lib/systemd/systemd-coredump";
	long uid = -1;
	assert_int_equal(trusted("journal", U, C, E, "1000", "1000", &uid), 1);
	assert_int_equal(uid, 1000);
	/* root's crash, sent as root; a system account's, sent as systemd-coredump's own user */
	assert_int_equal(trusted("journal", U, C, E, "0", "0", &uid), 1);
	assert_int_equal(uid, 0);
	assert_int_equal(trusted("journal", U, C, E, "997", "105", &uid), 1);
	/* one of _COMM and _EXE is enough when the other is not there */
	assert_int_equal(trusted("journal", U, NULL, E, "1000", "1000", &uid), 1);
	assert_int_equal(trusted("journal", U, C, NULL, "1000", "1000", &uid), 1);
	/* not systemd-coredump's */
	assert_int_equal(trusted("stdout", U, C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("syslog", U, C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", NULL, C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", "user@1000.service", C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", "systemd-coredump@.service", C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", "systemd-coredump@x.scope", C, E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", U, "logger", E, "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", U, C, "/usr/bin/logger", "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", U, C, "systemd-coredump", "1000", "1000", &uid), 0);
	assert_int_equal(trusted("journal", U, NULL, NULL, "1000", "1000", &uid), 0);
	/* a user's entry claiming root's crash or another user's */
	assert_int_equal(trusted("journal", U, C, E, "1000", "0", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", "1001", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", NULL, &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, NULL, "1000", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", "-1", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", "01000", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", "99999999999", &uid), 0);
	assert_int_equal(trusted("journal", U, C, E, "1000", "4294967295", &uid), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_maps),
		cmocka_unit_test(test_environ),
		cmocka_unit_test(test_cgroup_units),
		cmocka_unit_test(test_coredump_trust),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
