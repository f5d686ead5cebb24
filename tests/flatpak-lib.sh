# shellcheck shell=sh
# Sourced by the Flatpak tests (tests/integration/flatpak*.sh) after tests/lib.sh: the real
# flatpak and bwrap with installations of the test's own, and the fixtures they share
# (docs/design.md §17). fp_build makes a minimal org.freedesktop.Platform runtime from this
# system's files (its glibc, the Vulkan loader, ocl-icd, glvnd, vulkaninfo, clinfo) declaring
# the GL extension point as the freedesktop runtime does, with the runtime's own Mesa as
# org.freedesktop.Platform.GL.default (the host's lavapipe, rusticl and GL: EGL vendor, GBM,
# glapi, llvmpipe), two branches that cannot take a release (old: a libc.so.6 that defines
# nothing after GLIBC_2.17; cxx: a libstdc++.so.6 that defines nothing after GLIBCXX_3.4),
# and a tiny application on it (probe, hold, egl-draw), exported to local repositories (the
# runtimes' made once a run, fp_repo) and installed from file:// remotes. Skipped, and counted so, where flatpak cannot make its
# namespaces.

for _p in flatpak bwrap vulkaninfo clinfo ldd cc pkg-config; do
	command -v "$_p" >/dev/null || { skip "Flatpak applications" "$_p is not installed (ci/packages/check.txt; make check installs it)"; done_testing; exit 0; }
done
if ! bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc true 2>/dev/null; then
	skip "Flatpak applications" "this machine forbids the namespaces bwrap needs"
	done_testing
	exit 0
fi

# The machine's own installations are never touched: every flatpak command and ours find
# theirs under $T.
REAL_HOME=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}
# shellcheck disable=SC2034 # for the scripts that source this
real_before=$(ls -la /var/lib/flatpak/extension "$REAL_HOME/.local/share/flatpak/extension" 2>&1)
export FLATPAK_USER_DIR="$T/fp-user" FLATPAK_SYSTEM_DIR="$T/fp-system" HOME="$T/home"
export XDG_DATA_HOME="$T/home/.local/share" XDG_CONFIG_HOME="$T/home/.config" XDG_RUNTIME_DIR="$T/run"
export XDG_DATA_DIRS="$FLATPAK_USER_DIR/exports/share:/usr/share"
export TB323FU_MESA_APPS_DIR="$T/apps"
unset FLATPAK_GL_DRIVERS VK_LOADER_DRIVERS_SELECT LD_DEBUG
mkdir -p "$HOME" "$FLATPAK_SYSTEM_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR"

ML=$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)
SYS=/usr/lib/$ML
ARCH=$(flatpak --default-arch)
APP=org.tb323fu.Probe
# Where the sandbox mounts the runtime's own Mesa
# shellcheck disable=SC2034 # for the scripts that source this
THEIRS="/usr/lib/$ML/GL/default/lib"

# copy_closure DEST FILE…: every library FILE needs (ldd) into DEST/usr, but GL's own (GBM,
# glapi, the vendor libraries), which only a GL extension carries.
copy_closure() {
	_dest=$1
	shift
	ldd "$@" 2>/dev/null | awk '/=> \// { print $3 } /^\t\// { print $1 }' | sort -u |
		while read -r l; do
			case $l in
			*/libgbm.so.* | */libglapi.so.* | */libEGL_mesa.so.* | */libGLX_mesa.so.*) ;;
			/lib64/* | /lib/ld-*) mkdir -p "$_dest/usr$(dirname "$l")" && cp -L "$l" "$_dest/usr$l" ;;
			*) cp -L "$l" "$_dest/usr/lib/$ML/" ;;
			esac
		done
}
# fp_metadata BRANCH: a runtime's metadata with the GL extension point of the freedesktop runtime.
fp_metadata() {
	cat <<EOF
[Runtime]
name=org.freedesktop.Platform
runtime=org.freedesktop.Platform/$ARCH/$1
sdk=org.freedesktop.Platform/$ARCH/$1

[Extension org.freedesktop.Platform.GL]
version=1.4
versions=$1;1.4
directory=lib/$ML/GL
subdirectories=true
no-autodownload=true
autodelete=false
add-ld-path=lib
merge-dirs=vulkan/icd.d;glvnd/egl_vendor.d;OpenCL/vendors;lib/dri;lib/d3d;lib/gbm;vulkan/explicit_layer.d;vulkan/implicit_layer.d
download-if=active-gl-driver
enable-if=active-gl-driver
autoprune-unless=active-gl-driver
EOF
}
# fp_runtime DIR: the 24.08 runtime. Its empty etc/ld.so.conf asks flatpak for one that
# includes the active extensions' lib/, and its loaders look where flatpak merges the active
# extensions' files (the freedesktop runtime's are built to look there).
fp_runtime() {
	_r=$1
	mkdir -p "$_r/files" "$_r/usr/bin" "$_r/usr/lib/$ML/GL" "$_r/usr/lib/clc" "$_r/usr/share/vulkan" \
		"$_r/usr/share/glvnd" "$_r/usr/etc/OpenCL" || return 1
	for b in vulkaninfo clinfo sh env cat ldconfig readlink; do
		cp -L "$(command -v "$b" || echo "/sbin/$b")" "$_r/usr/bin/" || return 1
	done
	copy_closure "$_r" /usr/bin/vulkaninfo /usr/bin/clinfo /bin/sh /bin/readlink "$SYS/libvulkan.so.1" \
		"$SYS/libOpenCL.so.1" "$SYS/libvulkan_lvp.so" "$SYS/libRusticlOpenCL.so.1" \
		"$T/egl-draw" "$SYS/libEGL_mesa.so.0" "$SYS/libGLX_mesa.so.0" "$SYS/dri/swrast_dri.so" || return 1
	cp -L "$SYS/libvulkan.so.1" "$SYS/libOpenCL.so.1" "$_r/usr/lib/$ML/" || return 1
	cp /usr/lib/clc/spirv*-mesa3d-.spv "$_r/usr/lib/clc/" 2>/dev/null
	: >"$_r/usr/etc/ld.so.conf"
	ln -s "/usr/lib/$ML/GL/vulkan/icd.d" "$_r/usr/share/vulkan/icd.d"
	ln -s "/usr/lib/$ML/GL/OpenCL/vendors" "$_r/usr/etc/OpenCL/vendors"
	ln -s "/usr/lib/$ML/GL/glvnd/egl_vendor.d" "$_r/usr/share/glvnd/egl_vendor.d"
	ln -s "/usr/lib/$ML/GL/lib/dri" "$_r/usr/lib/$ML/dri"
	fp_metadata 24.08 >"$_r/metadata"
}
# fp_default DIR: the runtime's own Mesa as its GL.default: lavapipe, rusticl and this
# system's GL (an extension's tree is files/; a runtime's is usr/).
fp_default() {
	_d=$1
	mkdir -p "$_d/files/lib/dri" "$_d/files/vulkan/icd.d" "$_d/files/OpenCL/vendors" \
		"$_d/files/glvnd/egl_vendor.d" || return 1
	cp -L "$SYS/libvulkan_lvp.so" "$SYS/libRusticlOpenCL.so.1" "$SYS/libEGL_mesa.so.0" "$SYS/libgbm.so.1" \
		"$SYS/libGLX_mesa.so.0" "$_d/files/lib/" || return 1
	[ ! -e "$SYS/libglapi.so.0" ] || cp -L "$SYS/libglapi.so.0" "$_d/files/lib/" || return 1
	cp -L "$SYS/dri/swrast_dri.so" "$_d/files/lib/dri/" || return 1
	printf '{"file_format_version":"1.0.0","ICD":{"library_path":"/usr/lib/%s/GL/default/lib/libvulkan_lvp.so","api_version":"1.3.0"}}\n' \
		"$ML" >"$_d/files/vulkan/icd.d/lvp_icd.json"
	echo "/usr/lib/$ML/GL/default/lib/libRusticlOpenCL.so.1" >"$_d/files/OpenCL/vendors/rusticl.icd"
	# as Mesa installs it: its vendor library by soname
	printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_mesa.so.0"}}\n' \
		>"$_d/files/glvnd/egl_vendor.d/50_mesa.json"
	printf '[Runtime]\nname=org.freedesktop.Platform.GL.default\n\n[ExtensionOf]\nref=runtime/org.freedesktop.Platform/%s/24.08\n' \
		"$ARCH" >"$_d/metadata"
}
# fp_old_branches: old, whose glibc stops at 2.17 (a libc.so.6 that defines nothing newer),
# and cxx, this system's glibc with a libstdc++.so.6 that defines nothing after GLIBCXX_3.4.
fp_old_branches() {
	O=$T/rt-old
	mkdir -p "$O/files" "$O/usr/lib/$ML/GL" || return 1
	printf 'int tb_old_a(void) { return 1; }\nint tb_old_b(void) { return 2; }\n' >"$T/oldc.c"
	printf 'GLIBC_2.2.5 { global: tb_old_a; local: *; };\nGLIBC_2.17 { global: tb_old_b; } GLIBC_2.2.5;\n' >"$T/oldc.map"
	cc -shared -fPIC -nostdlib -Wl,-soname,libc.so.6 -Wl,--version-script="$T/oldc.map" \
		-o "$O/usr/lib/$ML/libc.so.6" "$T/oldc.c" || return 1
	fp_metadata old >"$O/metadata"
	X=$T/rt-cxx
	mkdir -p "$X/files" "$X/usr/lib/$ML/GL" || return 1
	copy_closure "$X" /bin/sh && cp -L "$SYS/libm.so.6" "$SYS/libgcc_s.so.1" "$X/usr/lib/$ML/" || return 1
	printf 'int tb_cxx_a(void) { return 1; }\n' >"$T/oldcxx.c"
	printf 'GLIBCXX_3.4 { global: tb_cxx_a; local: *; };\n' >"$T/oldcxx.map"
	cc -shared -fPIC -nostdlib -Wl,-soname,libstdc++.so.6 -Wl,--version-script="$T/oldcxx.map" \
		-o "$X/usr/lib/$ML/libstdc++.so.6" "$T/oldcxx.c" || return 1
	fp_metadata cxx >"$X/metadata"
}
# fp_app DIR: the application: probe (runs its arguments), hold (a Vulkan instance kept until
# stdin ends, for which --pid) and egl-draw (tests/tools/egl-draw.c: a surfaceless EGL
# program that draws and says what it mapped), with an entry build-finish exports.
fp_app() {
	_a=$1
	flatpak build-init "$_a" "$APP" org.freedesktop.Platform org.freedesktop.Platform 24.08 || return 1
	mkdir -p "$_a/files/bin" "$_a/files/share/applications"
	printf '#!/bin/sh\nexec "$@"\n' >"$_a/files/bin/probe" && chmod 755 "$_a/files/bin/probe"
	cat >"$T/hold.c" <<'END'
#include <stdio.h>
#include <vulkan/vulkan.h>
int main(void)
{
	VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	VkInstance inst;
	uint32_t n = 0;
	if (vkCreateInstance(&ci, NULL, &inst) != VK_SUCCESS || vkEnumeratePhysicalDevices(inst, &n, NULL) != VK_SUCCESS)
		return 1;
	printf("ready %u\n", n);
	fflush(stdout);
	while (getchar() != EOF)
		;
	vkDestroyInstance(inst, NULL);
	return 0;
}
END
	cc -O -o "$_a/files/bin/hold" "$T/hold.c" -lvulkan || return 1
	cp "$T/egl-draw" "$_a/files/bin/" || return 1
	printf '[Desktop Entry]\nType=Application\nName=Probe\nExec=probe\n' >"$_a/files/share/applications/$APP.desktop"
	flatpak build-finish "$_a" --command=probe --device=dri "--filesystem=$T"
}
# fp_repo: the runtimes' repository (the 24.08 runtime, its GL.default, old and cxx), made once
# a run and shared by the Flatpak tests as the stand-in releases are (flatpak build-export of the
# runtime alone takes most of a minute): $RELEASES/flatpak-KEY/repo, KEY of this file and the
# host's files the runtime copies, built under its lock in .tmp and renamed into place whole.
# Sets fp_shared.
fp_repo() {
	# shellcheck disable=SC2046 # the paths hold no blanks
	_key=$( (cat "$TB_TOP/tests/flatpak-lib.sh" "$TB_TOP/tests/tools/egl-draw.c"
		stat -L -c '%n %s %Y' /usr/bin/vulkaninfo /usr/bin/clinfo "$SYS/libc.so.6" "$SYS/libvulkan.so.1" \
			"$SYS/libOpenCL.so.1" "$SYS/libvulkan_lvp.so" "$SYS/libRusticlOpenCL.so.1" \
			"$SYS/libEGL_mesa.so.0" "$SYS/dri/swrast_dri.so") | sha256sum | cut -c1-12)
	fp_shared=$RELEASES/flatpak-$_key
	[ -f "$fp_shared/repo/config" ] && return 0
	mkdir -p "$RELEASES" && _fp_repo_locked 9>>"$fp_shared.lock"
}
# _fp_repo_locked: builds $fp_shared holding the lock on fd 9.
_fp_repo_locked() {
	flock 9 || return 1
	[ ! -f "$fp_shared/repo/config" ] || return 0
	rm -rf "$fp_shared.tmp" "$fp_shared"
	mkdir -p "$fp_shared.tmp" &&
		fp_runtime "$T/rt" && fp_default "$T/gl-default" && fp_old_branches &&
		flatpak build-export "$fp_shared.tmp/repo" "$T/rt" 24.08 &&
		flatpak build-export "$fp_shared.tmp/repo" "$T/rt-old" old &&
		flatpak build-export "$fp_shared.tmp/repo" "$T/rt-cxx" cxx &&
		flatpak build-export "$fp_shared.tmp/repo" "$T/gl-default" 24.08 &&
		mv "$fp_shared.tmp" "$fp_shared" && rm -rf "$T/rt" "$T/gl-default" "$T/rt-old" "$T/rt-cxx" && return 0
	rm -rf "$fp_shared.tmp"
	return 1
}
# fp_build: the runtimes from fp_repo and the application (exported to $T/repo) installed
# into the user's installation; on failure, says so with the end of the log and returns 1.
fp_build() {
	{
		# shellcheck disable=SC2046 # the words pkg-config prints
		cc -O -o "$T/egl-draw" "$TB_TOP/tests/tools/egl-draw.c" $(pkg-config --cflags --libs egl glesv2) &&
			fp_repo &&
			flatpak remote-add --user --no-gpg-verify tbtest "file://$fp_shared/repo" &&
			flatpak install -y --user --noninteractive tbtest org.freedesktop.Platform//24.08 \
				org.freedesktop.Platform//old org.freedesktop.Platform//cxx \
				org.freedesktop.Platform.GL.default//24.08 &&
			fp_app "$T/app" && flatpak build-export "$T/repo" "$T/app" stable &&
			flatpak remote-add --user --no-gpg-verify tbapp "file://$T/repo" &&
			flatpak install -y --user --noninteractive tbapp "$APP"
	} >"$T/build.log" 2>&1 && return 0
	not_ok "the runtime, its GL.default and the application build and install" "$(tail -n 20 "$T/build.log")"
	return 1
}

# inside LOG CMD…: CMD with LD_DEBUG=files, all of its output in $T/LOG.
inside() {
	_log=$1
	shift
	LD_DEBUG=files "$@" >"$T/$_log" 2>&1
}
# session LOG CMD…: CMD with the session's variables as a login gives them (the profile.d
# script reads env.conf and flatpak.conf as environment.d does), LD_DEBUG=files.
session() {
	_log=$1
	shift
	env -u FLATPAK_GL_DRIVERS -u OCL_ICD_VENDORS -u RUSTICL_ENABLE -u VK_DRIVER_FILES -u VK_ICD_FILENAMES \
		TB323FU_MESA_DIR="$STORE" sh -c '. "$0" && LD_DEBUG=files exec "$@"' \
		"$TB_TOP/dist/profile.d/tb323fu-mesa.sh" "$@" >"$T/$_log" 2>&1
}
# start_entry FILE LOG ARGS…: the entry's Exec (no field codes here) with ARGS, as the desktop
# starts it, LD_DEBUG=files, its output in $T/LOG.
start_entry() {
	_exec=$(sed -n 's/^Exec=//p' "$1" | head -n 1)
	_log=$2
	shift 2
	# shellcheck disable=SC2086
	LD_DEBUG=files sh -c "exec $_exec \"\$@\"" sh "$@" >"$T/$_log" 2>&1
}
# fp_done: nothing of ours is left in any installation and the machine's own were not
# touched; the test's installations emptied.
fp_done() {
	check "no export of ours is left in any installation" \
		sh -c "! find '$FLATPAK_USER_DIR' '$FLATPAK_SYSTEM_DIR' -path '*/extension/*' | grep -q ."
	check "the machine's own installations were not touched" \
		test "$(ls -la /var/lib/flatpak/extension "$REAL_HOME/.local/share/flatpak/extension" 2>&1)" = "$real_before"
	flatpak uninstall -y --user --noninteractive --all >/dev/null 2>&1
}
