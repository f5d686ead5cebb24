#!/bin/sh
# tests/run: slow
# Flatpak applications get the store's Mesa (docs/design.md §17), with the real flatpak and
# bwrap and the fixtures of tests/flatpak-lib.sh: a minimal org.freedesktop.Platform runtime
# made here from this system's files declaring the GL extension point as the freedesktop
# runtime does, its own Mesa as org.freedesktop.Platform.GL.default, a tiny application on
# it, installed from a file:// remote into private installations under $T. Inside the sandbox
# vulkaninfo and clinfo run on the store's build (a release without GL; flatpak_gl.sh exports
# one with GL) after `flatpak export` and `app set`, and on the runtime's own after `app set
# … distro` and `unset`, each shown by the library the dynamic linker mapped
# (LD_DEBUG=files). An export for a branch whose glibc is older than the release needs is
# refused. Skipped where flatpak cannot make its namespaces.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/flatpak-lib.sh"

V=2026.10.06
NAME=tb323fu-mesa-2026_10_06
EXT=$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.$NAME/$ARCH/24.08

# a release without GL (flatpak_gl.sh exports one with GL)
REL=$(standin "$V" --no-gl) || { not_ok "a stand-in release"; done_testing; exit 1; }
expect_exit 0 "the stand-in release installs" ctl mesa install-local "$REL" --no-smoke

fp_build || { done_testing; exit 1; }
ok "the runtime, its GL.default and the application build and install"

# mapped LOG: the Vulkan and OpenCL drivers the dynamic linker mapped in the sandbox
# (LD_DEBUG=files lines), one path a line.
mapped() {
	sed -n 's#.*file=\(/[^ ]*\(vulkan_lvp\|Rusticl\)[^ ]*\) .*generating link map.*#\1#p' "$1" | sort -u
}
OURS="/usr/lib/$ML/GL/$NAME/lib"

# --- before: the runtime's own Mesa ---
inside before-vk flatpak run --user "$APP" vulkaninfo --summary
check "before: vulkaninfo in the sandbox maps the runtime's lavapipe" \
	test "$(mapped "$T/before-vk")" = "$THEIRS/libvulkan_lvp.so"
echo "# before: $(grep -m1 deviceName "$T/before-vk" | sed 's/^[[:space:]]*//'); mapped $(mapped "$T/before-vk")"
inside unexported-vk mesa run flatpak run --user "$APP" vulkaninfo --summary
check "run flatpak run of a version not exported says so" grep -q \
	"^tb323fu-mesa: Mesa $V is not exported to Flatpak (tb323fu-ctl --store $STORE mesa flatpak export $V); the application runs on its runtime's Mesa" \
	"$T/unexported-vk"
check "…and the application gets the runtime's own Mesa" test "$(mapped "$T/unexported-vk")" = "$THEIRS/libvulkan_lvp.so"

# --- the ABI check: a branch that cannot take the version refuses the whole export ---
expect_exit 4 "export to every branch is refused when one cannot take the version" \
	ctl --json mesa flatpak export --user
check "nothing was written into any installation" \
	sh -c "! find '$FLATPAK_USER_DIR' '$FLATPAK_SYSTEM_DIR' -path '*/extension/*' | grep -q ."
expect_exit 4 "export to a branch whose glibc is older than the release needs is refused" \
	ctl --json mesa flatpak export --user --branch old
reason_is glibc-too-old
json_strict "$T/out" 'd["message"]' >"$T/msg"
check "one sentence names the branch, the library, the glibc it needs and the branch's" grep -q "^Mesa $V cannot be exported for org.freedesktop.Platform//old: lib/libRusticlOpenCL.so.* needs glibc 2\.[0-9]* (GLIBC_2\.[0-9.]*), org.freedesktop.Platform//old has 2.17" "$T/msg"
echo "# refused: $(cat "$T/msg")"

# A version whose driver is C++ (it needs GLIBCXX_3.4.21 and newer of libstdc++.so.6): the
# cxx branch's libstdc++ lacks them.
CXXS=$T/cxx-stage
mkdir -p "$CXXS/lib"
cat >"$T/cxxdrv.cpp" <<'END'
#include <string>
std::string tb_name(const char *s) { return std::string(s) + "!"; }
extern "C" void *vk_icdGetInstanceProcAddr(void *i, const char *n) { (void)i; return tb_name(n).size() ? nullptr : nullptr; }
extern "C" int clIcdGetPlatformIDsKHR(unsigned n, void *p, unsigned *np) { (void)n; (void)p; (void)np; return 0; }
END
g++ -shared -fPIC -o "$CXXS/lib/libcxxdrv.so" "$T/cxxdrv.cpp" && chmod 644 "$CXXS/lib/libcxxdrv.so" &&
	"$CTL" mesa pack --stage "$CXXS" --version 2026.11.01 --drivers vulkan --vulkan-lib lib/libcxxdrv.so \
		"$T/cxx-rel" >/dev/null &&
	ctl mesa install-local "$T/cxx-rel"/tb323fu-mesa-2026.11.01-*.tar.* --no-smoke >/dev/null
check "a version whose driver is C++ installs" test -d "$STORE/versions/2026.11.01"
expect_exit 4 "its export to a branch whose libstdc++ is too old is refused" \
	ctl --json mesa flatpak export 2026.11.01 --user --branch cxx
reason_is abi-mismatch
json_strict "$T/out" 'd["message"]' >"$T/msg"
check "one sentence names the branch, the library and the symbol version it lacks" \
	grep -q "^Mesa 2026.11.01 cannot be exported for org.freedesktop.Platform//cxx: lib/libcxxdrv.so needs \(GLIBCXX\|CXXABI\)_[0-9.]* of libstdc++.so.6, which org.freedesktop.Platform//cxx's libstdc++.so.6 does not define" "$T/msg"
echo "# refused: $(cat "$T/msg")"
expect_exit 0 "the same version exports to 24.08" ctl mesa flatpak export 2026.11.01 --user --branch 24.08
expect_exit 0 "…and is unexported again" ctl mesa flatpak unexport 2026.11.01 --user
expect_exit 0 "rollback makes Mesa $V current again" ctl mesa rollback
expect_exit 1 "a branch that is not installed is named" ctl --json mesa flatpak export --user --branch 23.08
reason_is no-runtime

# --- export for 24.08 ---
store_before=$(store_digest)
t0=$(date +%s%N)
expect_exit 0 "flatpak export --user --branch 24.08" ctl --json mesa flatpak export --user --branch 24.08
t1=$(date +%s%N)
cp "$T/out" "$T/export.json"
check "the export is where flatpak looks for an unmanaged extension" test -f "$EXT/tb323fu-mesa.export"
check "…with our marker" grep -q "Mark=tb323fu-mesa-toolchain-program" "$EXT/tb323fu-mesa.export"
check "its ICD file names the library where the sandbox mounts it" \
	grep -q "\"library_path\": *\"$OURS/libvulkan_lvp.so\"" "$EXT/vulkan/icd.d/$NAME.json"
check "its OpenCL vendor file too" grep -qx "$OURS/libRusticlOpenCL.so.1" "$EXT/OpenCL/vendors/$NAME.icd"
check "the store is as it was" test "$(store_digest)" = "$store_before"
linked=$(json_strict "$T/export.json" 'd["linked"]')
copied=$(json_strict "$T/export.json" 'd["copied"]')
bytes=$(json_strict "$T/export.json" 'd["bytes"]')
check "the files are hard links into the store's tree (same file system)" test "$linked" -gt 0 -a "$copied" -eq 0
echo "# export: $(((t1 - t0) / 1000000)) ms, $bytes bytes of files, $linked hard links, $copied copies; du of the export: $(du -sb "$EXT" | cut -f1) bytes (-l: $(du -sbl "$EXT" | cut -f1))"
expect_exit 0 "flatpak list --json" ctl --json mesa flatpak list
check "…lists it with its name, branch and scope" test "$(json_strict "$T/out" '" ".join(x["name"] + "/" + x["branch"] + "/" + x["scope"] for x in d["exports"])')" = "$NAME/24.08/user"
expect_exit 0 "exporting again replaces our own export" ctl mesa flatpak export --user --branch 24.08
"$CTL" --store "$T/store2" mesa install-local "$REL" --no-smoke >/dev/null
expect_exit 1 "another store's export of the same version is not replaced" \
	"$CTL" --store "$T/store2" --json mesa flatpak export --user --branch 24.08
reason_is not-ours
check "…the sentence names the store it belongs to" grep -q "is the export of the store $(cd "$STORE" && pwd -P)" "$T/err"
expect_exit 0 "status" ctl mesa status
check "…says what Flatpak applications can use" grep -q "^Mesa $V as org.freedesktop.Platform.GL.$NAME for org.freedesktop.Platform//24.08 (user)" "$T/out"
ctl --json mesa doctor >"$T/out" 2>"$T/err"
check "doctor's JSON lists the export" test "$(json_strict "$T/out" '" ".join(x["name"] + "/" + x["scope"] for x in d["flatpak_exports"])')" = "$NAME/user"
# an export of ours whose version left the store by other means is a doctor problem
STALE=$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_09_01/$ARCH/24.08
mkdir -p "$STALE"
sed 's/^Version=.*/Version=2026.09.01/' "$EXT/tb323fu-mesa.export" >"$STALE/tb323fu-mesa.export"
expect_exit 1 "doctor names an export whose version is gone" ctl mesa doctor
check "…with the command that removes it" grep -q "problem: the Flatpak extension .*tb323fu-mesa-2026_09_01 (user) is of Mesa 2026.09.01, which is no longer installed: tb323fu-ctl --store $STORE mesa flatpak unexport 2026.09.01 --user" "$T/out"
expect_exit 0 "flatpak unexport of a version the store no longer has" ctl mesa flatpak unexport 2026.09.01 --user
check "…removed it and the folders above it" test ! -e "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_09_01"

# --- one start with the store's build: tb323fu-mesa run flatpak run ---
inside run-vk mesa run flatpak run --user "$APP" vulkaninfo --summary
check "run flatpak run: vulkaninfo maps the store's lavapipe from the extension, and no other" \
	test "$(mapped "$T/run-vk")" = "$OURS/libvulkan_lvp.so"
check "…and reports its device" grep -q "deviceName *= llvmpipe" "$T/run-vk"
inside run-cl mesa run flatpak run --user "$APP" clinfo
check "run flatpak run: clinfo maps the store's rusticl from the extension, and no other" \
	test "$(mapped "$T/run-cl")" = "$OURS/libRusticlOpenCL.so.1"
check "…and reports rusticl's device" grep -q "Device Name *llvmpipe" "$T/run-cl"
echo "# run: $(grep -m1 deviceName "$T/run-vk" | sed 's/^[[:space:]]*//'); mapped $(mapped "$T/run-vk") $(mapped "$T/run-cl")"
# which --pid of a sandboxed process: its maps name the extension's files
mkfifo "$T/hold.in"
mesa run flatpak run --user "$APP" hold <"$T/hold.in" >"$T/hold.out" 2>"$T/hold.err" &
hold_job=$!
exec 7>"$T/hold.in"
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $hold_job"
if wait_until 60 grep -q '^ready' "$T/hold.out"; then
	# flatpak ps names the sandbox's first processes (bwrap); hold runs somewhere below them
	tops=$(flatpak ps --columns=application,child-pid | awk -v a="$APP" '$1 == a { print $2 }')
	child=
	while [ -n "$tops" ] && [ -z "$child" ]; do
		for p in $tops; do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = hold ] && child=$p; done
		tops=$(for p in $tops; do ps -o pid= --ppid "$p"; done)
	done
	expect_exit 0 "which --pid of the sandboxed process" mesa which --pid "$child"
	check "…says the store's Mesa from its Flatpak extension" \
		grep -q "Vulkan driver $OURS/libvulkan_lvp.so: the store's Mesa $V (its Flatpak extension)" "$T/out"
	echo "# which --pid: $(cat "$T/out")"
	expect_exit 0 "which --json --pid" mesa which --json --pid "$child"
	check "…origin store, version $V" test "$(json_strict "$T/out" 'd["drivers"][0]["origin"] + " " + d["drivers"][0]["version"]')" = "store $V"
else
	not_ok "the sandboxed process is ready" "$(cat "$T/hold.out" "$T/hold.err")"
fi
exec 7>&-
wait "$hold_job"

inside distro-vk mesa distro flatpak run --user "$APP" vulkaninfo --summary
check "distro flatpak run: the runtime's own lavapipe" test "$(mapped "$T/distro-vk")" = "$THEIRS/libvulkan_lvp.so"

# --- the session: on and off decide what a Flatpak start from it gets ---
# maps LOG LIB: LIB is among the drivers mapped in the sandbox
maps() { mapped "$1" | grep -qx "$2"; }
only_five() { ! grep -v '^\(VK_DRIVER_FILES\|VK_ICD_FILENAMES\|OCL_ICD_VENDORS\|RUSTICL_ENABLE\|LD_LIBRARY_PATH\)=' "$1"; }
ours_in() {
	grep -qx 'OCL_ICD_VENDORS=' "$1" && grep -qx 'LIBGL_DRIVERS_PATH=' "$1" && grep -qx 'GBM_BACKENDS_PATH=' "$1" &&
		grep -qx 'unset-environment=OCL_ICD_VENDORS;LIBGL_DRIVERS_PATH;GBM_BACKENDS_PATH;' "$1" &&
		grep -q 'tb323fu-mesa-toolchain-program' "$1"
}
none_in() { ! grep -qs 'OCL_ICD_VENDORS\|LIBGL_DRIVERS_PATH\|GBM_BACKENDS_PATH' "$1" && ! grep -qs tb323fu-mesa "$1"; }
kept_in() { grep -qx 'TB_OTHER=kept' "$1" && grep -qx 'shared=network;' "$1"; }
OVR=$FLATPAK_USER_DIR/overrides/global
SOVR=$FLATPAK_SYSTEM_DIR/overrides/global
mkdir -p "$FLATPAK_USER_DIR/overrides"
printf '[Context]\nshared=network;\n\n[Environment]\nTB_OTHER=kept\n' >"$OVR"
expect_exit 0 "on, current exported" ctl mesa on
check "flatpak.conf names current's extension beside the runtime's own" \
	test "$(cat "$STORE/flatpak.conf")" = "FLATPAK_GL_DRIVERS=$NAME:default"
check "env.conf still carries only the five variables" only_five "$STORE/env.conf"
check "the user's global override unsets OCL_ICD_VENDORS, LIBGL_DRIVERS_PATH and GBM_BACKENDS_PATH inside, marked ours" ours_in "$OVR"
check "…and keeps what was there" kept_in "$OVR"
check "the system's installation's too" ours_in "$SOVR"
GEN=/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator
if [ -x "$GEN" ]; then
	mkdir -p "$T/envd/environment.d"
	ln -s "$STORE/env.conf" "$T/envd/environment.d/60-tb323fu-mesa.conf"
	ln -s "$STORE/flatpak.conf" "$T/envd/environment.d/61-tb323fu-mesa-flatpak.conf"
	env -i PATH=/usr/bin:/bin HOME="$HOME" XDG_CONFIG_HOME="$T/envd" "$GEN" >"$T/gen"
	check "systemd's environment.d generator gives the session FLATPAK_GL_DRIVERS from the 61- link" \
		grep -qx "FLATPAK_GL_DRIVERS=$NAME:default" "$T/gen"
else
	skip "environment.d reads flatpak.conf" "systemd's environment.d generator is not installed"
fi
flatpak override --user --show >"$T/ovr-show" 2>&1
check "flatpak reads the override" grep -q '^OCL_ICD_VENDORS=$' "$T/ovr-show"
session on-vk flatpak run --user "$APP" vulkaninfo --summary
check "session on: vulkaninfo in the sandbox maps the store's lavapipe from the extension" \
	maps "$T/on-vk" "$OURS/libvulkan_lvp.so"
session on-cl flatpak run --user "$APP" clinfo
check "session on: clinfo maps the store's rusticl from the extension" maps "$T/on-cl" "$OURS/libRusticlOpenCL.so.1"
check "…and OpenCL works: rusticl's device" grep -q "Device Name *llvmpipe" "$T/on-cl"
echo "# session on: Vulkan mapped $(mapped "$T/on-vk" | tr '\n' ' '); OpenCL mapped $(mapped "$T/on-cl" | tr '\n' ' '); $(grep -m1 'Number of platforms' "$T/on-cl" | tr -s ' ')"
session on-env flatpak run --user --command=sh "$APP" -c 'echo "OCL_ICD_VENDORS=${OCL_ICD_VENDORS-unset}"'
check "…the session's OCL_ICD_VENDORS (a path of this system) does not reach the sandbox" \
	grep -qx "OCL_ICD_VENDORS=unset" "$T/on-env"
# a root-owned store's `on` writes the system's installation's override alone (the user's
# installation being root's): flatpak applies an installation's override to its own
# applications only
cp "$OVR" "$T/ovr-ours"
printf '[Context]\nshared=network;\n\n[Environment]\nTB_OTHER=kept\n' >"$OVR"
session on-env-sys flatpak run --user --command=sh "$APP" -c 'echo "OCL_ICD_VENDORS=${OCL_ICD_VENDORS-unset}"'
check "…but not to an application of the user's installation, which gets the session's path" \
	grep -qx "OCL_ICD_VENDORS=$(cd "$STORE" && pwd -P)/icd/opencl" "$T/on-env-sys"
expect_exit 1 "doctor names it" ctl mesa doctor
check "…with the command that gives the user's installation the override" \
	grep -q "problem: the applications of your Flatpak installation ($FLATPAK_USER_DIR) get the session's OCL_ICD_VENDORS .*: flatpak override --user --unset-env=OCL_ICD_VENDORS --unset-env=LIBGL_DRIVERS_PATH --unset-env=GBM_BACKENDS_PATH" "$T/out"
cp "$T/ovr-ours" "$OVR"
inside on-run-cl mesa run flatpak run --user "$APP" clinfo
check "run flatpak run while on: the store's rusticl alone (its --env is above the override)" \
	test "$(mapped "$T/on-run-cl")" = "$OURS/libRusticlOpenCL.so.1"
expect_exit 0 "status while on" ctl mesa status
check "…says what a Flatpak application started from the session gets" \
	grep -q "^Flatpak applications started from the session: Mesa $V's extension ($NAME) beside their runtime's own" "$T/out"
expect_exit 0 "off" ctl mesa off
check "flatpak.conf is empty" test ! -s "$STORE/flatpak.conf"
check "our key left the override" none_in "$OVR"
check "…the rest stays" kept_in "$OVR"
check "…and left the system's installation's" none_in "$SOVR"
session off-vk flatpak run --user "$APP" vulkaninfo --summary
check "session off: the runtime's own lavapipe" test "$(mapped "$T/off-vk")" = "$THEIRS/libvulkan_lvp.so"
session off-cl flatpak run --user "$APP" clinfo
check "session off: the runtime's own rusticl" test "$(mapped "$T/off-cl")" = "$THEIRS/libRusticlOpenCL.so.1"
check "…whose platform ocl-icd finds (its devices are as RUSTICL_ENABLE, which the session no longer sets)" \
	grep -q "Platform Name *rusticl" "$T/off-cl"
expect_exit 0 "status while off" ctl mesa status
check "…says the session's Flatpak starts get their runtime's Mesa" \
	grep -q "^Flatpak applications started from the session: their runtime's Mesa" "$T/out"
rm -f "$OVR"

# --- app set on the Flatpak application ---
ENTRY=$XDG_DATA_HOME/applications/$APP.desktop
expect_exit 0 "app set --user on the Flatpak application (its exported entry)" \
	ctl --json mesa app set --user "$APP" "$V"
check "…the original is the installation's exported entry" \
	test "$(json_strict "$T/out" 'd["original"]')" = "$FLATPAK_USER_DIR/exports/share/applications/$APP.desktop"
check "…its Exec starts flatpak run through the launcher" grep -q "^Exec=.*tb323fu-mesa .*run --version $V -- .*flatpak run " "$ENTRY"
start_entry "$ENTRY" set-vk vulkaninfo --summary
check "app set VERSION: vulkaninfo maps the store's lavapipe" test "$(mapped "$T/set-vk")" = "$OURS/libvulkan_lvp.so"
start_entry "$ENTRY" set-cl clinfo
check "app set VERSION: clinfo maps the store's rusticl" test "$(mapped "$T/set-cl")" = "$OURS/libRusticlOpenCL.so.1"
expect_exit 1 "remove of the pinned version is refused" ctl --json mesa remove "$V"
expect_exit 0 "app set --user … distro" ctl mesa app set --user "$APP" distro
start_entry "$ENTRY" distro-set-vk vulkaninfo --summary
check "app set distro: the runtime's own lavapipe" test "$(mapped "$T/distro-set-vk")" = "$THEIRS/libvulkan_lvp.so"
start_entry "$ENTRY" distro-set-cl clinfo
check "app set distro: the runtime's own rusticl" test "$(mapped "$T/distro-set-cl")" = "$THEIRS/libRusticlOpenCL.so.1"
expect_exit 0 "app set --user … current" ctl mesa app set --user "$APP" current
start_entry "$ENTRY" current-vk vulkaninfo --summary
check "app set current: the store's lavapipe" test "$(mapped "$T/current-vk")" = "$OURS/libvulkan_lvp.so"
expect_exit 0 "app unset --user" ctl mesa app unset --user "$APP"
check "…our entry is gone" test ! -e "$ENTRY"
start_entry "$FLATPAK_USER_DIR/exports/share/applications/$APP.desktop" unset-vk vulkaninfo --summary
check "after unset: the runtime's own lavapipe" test "$(mapped "$T/unset-vk")" = "$THEIRS/libvulkan_lvp.so"

# --- a removed version takes its export with it: remove, and the pruning after an install ---
echo "keep_versions = 5" >"$TB323FU_MESA_CONFIG"
T2=$(tiny_release 2026.10.07 "$T/tiny7") && T3=$(tiny_release 2026.10.08 "$T/tiny8") &&
	T4=$(tiny_release 2026.10.09 "$T/tiny9")
ctl mesa install-local "$T2" --no-smoke >/dev/null && ctl mesa install-local "$T3" --no-smoke >/dev/null
check "two newer versions installed" test "$(readlink "$STORE/current")" = versions/2026.10.08
expect_exit 0 "remove --dry-run of the exported version" ctl --json mesa remove "$V" --dry-run
check "…names the Flatpak extensions that would go with it (JSON)" \
	json_strict "$T/out" 'd["would_remove_flatpak"] and all(n.startswith("org.freedesktop.Platform.GL.'"$NAME"'//") and n.endswith(" (user)") for n in d["would_remove_flatpak"]) or exit(1)' >/dev/null
check "…and in its sentence" json_strict "$T/out" '"its Flatpak extensions would go with it: org.freedesktop.Platform.GL.'"$NAME"'//" in d["message"] or exit(1)' >/dev/null
check "…and removed nothing" test -e "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.$NAME"
expect_exit 0 "remove of the exported version, its rule gone" ctl --json mesa remove "$V"
check "…removed its export" test ! -e "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.$NAME"
check "…and names it" json_strict "$T/out" '"the Flatpak extensions removed with the version: org.freedesktop.Platform.GL.'"$NAME"'//" in d["message"] and len(d["flatpak_removed"]) >= 1 or exit(1)' >/dev/null
expect_exit 0 "export of a tiny version" ctl mesa flatpak export 2026.10.07 --user --branch 24.08
: >"$TB323FU_MESA_CONFIG"
expect_exit 0 "an install whose pruning removes that version" ctl --json mesa install-local "$T4" --no-smoke
check "…pruned it" test "$(json_strict "$T/out" '" ".join(d["removed"])')" = 2026.10.07
check "…and its export" test ! -e "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_07"
check "…naming it" test "$(json_strict "$T/out" 'd["flatpak_removed"]')" = "['org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_07//24.08 (user)']"

# --- the system's installation, and unexport ---
expect_exit 0 "export of current to the system's installation" ctl mesa flatpak export --branch 24.08
check "…under FLATPAK_SYSTEM_DIR" test -f "$FLATPAK_SYSTEM_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_09/$ARCH/24.08/tb323fu-mesa.export"
mesa run flatpak run --user "$APP" cat "/usr/lib/$ML/GL/tb323fu-mesa-2026_10_09/tb323fu-mesa.export" >"$T/out" 2>"$T/err"
check "…which the sandbox of an application of the user's installation mounts" grep -q "^Version=2026.10.09" "$T/out"
mkdir -p "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_08/$ARCH/24.08"
expect_exit 1 "an extension folder we did not write is not replaced" ctl --json mesa flatpak export 2026.10.08 --user --branch 24.08
reason_is not-ours
rmdir -p "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_08/$ARCH/24.08" 2>/dev/null
expect_exit 0 "flatpak unexport" ctl --json mesa flatpak unexport
check "…removed one" test "$(json_strict "$T/out" 'd["removed"]')" = 1
expect_exit 0 "app set of a Flatpak application whose version is not exported" ctl mesa app set --user "$APP" current
check "…says to export it first" grep -q "it is a Flatpak application: export Mesa 2026.10.09 for it first (tb323fu-ctl --store $STORE mesa flatpak export 2026.10.09 --user)" "$T/out"
expect_exit 0 "…and its rule goes again" ctl mesa app unset --user "$APP"
fp_done
done_testing
