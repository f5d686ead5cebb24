#!/bin/sh
# tests/run: slow
# A version's GL in its Flatpak export (docs/design.md §17), with the real flatpak and bwrap
# and the fixtures of tests/flatpak-lib.sh (the runtime's GL.default carries this system's
# GL). A surfaceless EGL program in the sandbox (tests/tools/egl-draw) draws every pixel right
# on the runtime's GL before the export, and after it on the export's: its EGL vendor, GBM,
# glapi and DRI driver mapped from the extension, ahead of `default`'s of the same names; on
# Zink over the export's lavapipe with --gl zink; on the runtime's GL with --gl distro,
# distro and a rule's --gl distro. `which --pid` names the sandboxed program's GL libraries by
# the extension. A release without GL exports as before (and its applications keep the
# runtime's GL), and a GL library a branch cannot run is refused naming it. A start from a
# session with the version's GL (on --gl native) draws on the export's GL, the session's paths
# of this system kept out by the override. What the sandbox is given is measured and said (the
# TAP comments).
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/flatpak-lib.sh"

V=2026.11.01  # with GL (gl_run.sh's stand-ins)
V2=2026.11.02 # without
NAME=tb323fu-mesa-2026_11_01
NAME2=tb323fu-mesa-2026_11_02
EXT=$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.$NAME/$ARCH/24.08
EXT2=$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.$NAME2/$ARCH/24.08
echo "keep_versions = 5" >"$TB323FU_MESA_CONFIG"
R1=$(standin $V) && R2=$(standin $V2 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R2" --no-smoke >/dev/null && ctl mesa install-local "$R1" --no-smoke >/dev/null ||
	not_ok "install $V2 then $V"
fp_build || { done_testing; exit 1; }
ok "the runtime, its GL.default and the application build and install"

GL="/usr/lib/$ML/GL"
OURS="$GL/$NAME/lib"
GL_PARTS="libEGL_mesa.so.0 libgbm.so.1 libglapi.so.0 swrast_dri.so"
# maps LOG: the GL libraries egl-draw mapped (its map= lines)
maps() { sed -n 's/^map=//p' "$T/$1"; }
# all_in LOG DIR NAME…: a library whose file name starts with each NAME is mapped, and only
# from under DIR
all_in() {
	_log=$1
	_dir=$2
	shift 2
	for _n; do
		maps "$_log" | awk -v n="$_n" -v d="$_dir/" '{ f = $0; sub(".*/", "", f) }
			index(f, n) == 1 { seen = 1; if (index($0, d) != 1) other = 1 }
			END { exit !(seen && !other) }' || return 1
	done
}
drew() { grep -qx 'pixels=4096/4096' "$T/$1"; }
# draw LOG CMD…: CMD (which starts flatpak run … egl-draw), its output in $T/LOG
draw() {
	_log=$1
	shift
	"$@" >"$T/$_log" 2>&1
}

# --- before the export: the runtime's own GL ---
draw before flatpak run --user "$APP" egl-draw
check "before: a surfaceless EGL program in the sandbox draws every pixel right" drew before
check "…on the runtime's GL: EGL vendor, GBM, glapi and DRI driver of its GL.default" all_in before "$THEIRS" $GL_PARTS
echo "# before: $(sed -n 's/^renderer=//p' "$T/before"), $(maps before | grep -c "^$GL/") GL libraries from $GL/"

# --- export of a version with GL ---
expect_exit 0 "flatpak export --user --branch 24.08 of a version with GL" \
	ctl --json mesa flatpak export "$V" --user --branch 24.08
check "…says it carries its GL (JSON gl)" test "$(field 'd["gl"]')" = True
check "…and in its sentence" grep -q "with its GL, which the sandbox takes before its runtime's own" "$T/out"
check "its EGL vendor file is where GL extensions have it, named as Mesa names its own" \
	test -f "$EXT/glvnd/egl_vendor.d/50_mesa.json"
check "…naming the vendor library where the sandbox mounts it" \
	test "$(json_strict "$EXT/glvnd/egl_vendor.d/50_mesa.json" 'd["ICD"]["library_path"]')" = "$OURS/gl/libEGL_mesa.so.0"
check "GL's libraries are on the extension's lib/, by their names" sh -c \
	"for l in libEGL_mesa.so.0 libgbm.so.1 libglapi.so.0 libGLX_mesa.so.0; do [ \"\$(readlink '$EXT/lib/'\$l)\" = gl/\$l ] || exit 1; done"
check "lib/dri is its DRI drivers' folder" test "$(readlink "$EXT/lib/dri")" = gl/dri
check "…and no lib/gbm (the release has no GBM backends)" test ! -e "$EXT/lib/gbm"
check "its files are the store's (hard links)" \
	test "$(stat -c %i "$EXT/lib/gl/libEGL_mesa.so.0.0.0")" = "$(stat -c %i "$STORE/versions/$V/lib/gl/libEGL_mesa.so.0.0.0")"

# --- what the sandbox is given (measured) ---
probe_sh() {
	"$@" flatpak run --user --command=sh "$APP" -c '
	for v in __EGL_VENDOR_LIBRARY_DIRS __EGL_VENDOR_LIBRARY_FILENAMES LIBGL_DRIVERS_PATH GBM_BACKENDS_PATH LD_LIBRARY_PATH; do
		eval "echo $v=\${$v-unset}"
	done
	for f in /run/flatpak/ld.so.conf.d/*; do echo "ld: $(cat "$f")"; done
	echo "egl: $(readlink "$0/glvnd/egl_vendor.d/50_mesa.json")"
	echo "dri: $(readlink "$0/lib/dri/swrast_dri.so")"' "$GL"
}
probe_sh env FLATPAK_GL_DRIVERS="$NAME:default" >"$T/probe" 2>&1
sed 's/^/# in the sandbox with both: /' "$T/probe"
check "flatpak sets none of glvnd's, Mesa's or GBM's folder variables there" \
	test "$(grep -c '^\(__EGL_VENDOR_LIBRARY_DIRS\|__EGL_VENDOR_LIBRARY_FILENAMES\|LIBGL_DRIVERS_PATH\|GBM_BACKENDS_PATH\)=unset$' "$T/probe")" = 4
check "its linker configuration has the export's lib/ before default's" \
	test "$(sed -n 's/^ld: //p' "$T/probe" | tr '\n' ' ')" = "$GL/$NAME/lib $GL/default/lib "
check "the EGL vendor file and the DRI driver flatpak merges are the export's" \
	test "$(sed -n 's/^\(egl\|dri\): //p' "$T/probe" | tr '\n' ' ')" = \
	"$GL/$NAME/glvnd/egl_vendor.d/50_mesa.json $GL/$NAME/lib/dri/swrast_dri.so "

# --- one start: tb323fu-mesa run flatpak run ---
draw run-gl mesa run flatpak run --user "$APP" egl-draw
check "run flatpak run: draws every pixel right" drew run-gl
check "…on the release's llvmpipe" grep -q '^renderer=llvmpipe' "$T/run-gl"
check "…its EGL vendor, GBM, glapi and DRI driver the export's, none of default's" all_in run-gl "$OURS/gl" $GL_PARTS
echo "# run: $(maps run-gl | grep "^$GL/" | tr '\n' ' ')"
draw run-native mesa run --gl native flatpak run --user "$APP" egl-draw
check "run --gl native flatpak run: draws every pixel right" drew run-native
check "…on the export's GL" all_in run-native "$OURS/gl" $GL_PARTS
draw run-zink mesa run --gl zink flatpak run --user "$APP" egl-draw
check "run --gl zink flatpak run: draws every pixel right" drew run-zink
check "…on Zink" grep -q '^renderer=zink' "$T/run-zink"
check "…the export's GL over the export's lavapipe" all_in run-zink "$OURS" $GL_PARTS libvulkan_lvp.so
draw run-distro mesa run --gl distro flatpak run --user "$APP" egl-draw
check "run --gl distro flatpak run: draws every pixel right" drew run-distro
check "…on the runtime's GL, though the export is mounted" all_in run-distro "$THEIRS" $GL_PARTS
mesa run --gl distro flatpak run --user --command=sh "$APP" -c 'echo "$VK_LOADER_DRIVERS_SELECT $FLATPAK_ID"' >"$T/out" 2>&1
check "…while Vulkan is still the version's" test "$(cat "$T/out")" = "$NAME.json $APP"
draw distro mesa distro flatpak run --user "$APP" egl-draw
check "distro flatpak run: draws every pixel right" drew distro
check "…on the runtime's whole Mesa, its GL" all_in distro "$THEIRS" $GL_PARTS
# what the session gives (flatpak.conf's FLATPAK_GL_DRIVERS)
draw session env FLATPAK_GL_DRIVERS="$NAME:default" flatpak run --user "$APP" egl-draw
check "FLATPAK_GL_DRIVERS=$NAME:default, as the session gives it: the export's GL" all_in session "$OURS/gl" $GL_PARTS

# --- the session with the version's GL (on --gl native): its paths of this system stay out ---
expect_exit 0 "on --gl native, current exported" ctl mesa on --gl native
check "env.conf gives this system's programs the version's GL, LIBGL_DRIVERS_PATH a path of this system" \
	grep -q "^LIBGL_DRIVERS_PATH=/" "$STORE/env.conf"
check "…flatpak.conf names current's extension" test "$(cat "$STORE/flatpak.conf")" = "FLATPAK_GL_DRIVERS=$NAME:default"
check "the user's override unsets LIBGL_DRIVERS_PATH and GBM_BACKENDS_PATH inside" sh -c \
	"grep -qx 'LIBGL_DRIVERS_PATH=' '$FLATPAK_USER_DIR/overrides/global' && grep -qx 'GBM_BACKENDS_PATH=' '$FLATPAK_USER_DIR/overrides/global'"
# (the application may read $T, where the store is: not for these starts, as an application
# that may not read the store)
session on-gl flatpak run --user --nofilesystem="$T" "$APP" egl-draw
check "a start from that session draws every pixel right" drew on-gl
check "…on the export's GL" all_in on-gl "$OURS/gl" $GL_PARTS
# what the override keeps out (measured): flatpak passes the session's LIBGL_DRIVERS_PATH,
# where Mesa then looks for its driver alone
mv "$FLATPAK_USER_DIR/overrides/global" "$T/override"
session on-gl-bare flatpak run --user --nofilesystem="$T" "$APP" egl-draw
check "without the override the session's LIBGL_DRIVERS_PATH reaches the sandbox, and EGL finds no driver" \
	sh -c "! grep -q '^pixels=' '$T/on-gl-bare' && grep -q 'search paths $STORE' '$T/on-gl-bare'"
echo "# without the override: $(grep -m1 'MESA-LOADER' "$T/on-gl-bare")"
mv "$T/override" "$FLATPAK_USER_DIR/overrides/global"
expect_exit 0 "status while on" ctl mesa status
check "…says the session's Flatpak starts get the version's GL too" \
	grep -q "^Flatpak applications started from the session: Mesa $V's extension ($NAME), its GL too, beside their runtime's own" "$T/out"
expect_exit 0 "off" ctl mesa off
check "…our keys left the override" sh -c "! grep -qs 'LIBGL_DRIVERS_PATH\|tb323fu-mesa' '$FLATPAK_USER_DIR/overrides/global'"

# --- which --pid of a sandboxed GL program ---
rm -f "$T/drawn"
mkfifo "$T/drawn"
mesa run flatpak run --user "$APP" egl-draw --hold >"$T/drawn" 2>"$T/hold.err" &
holder=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $holder"
ready=
while read -r line; do [ "$line" = ready ] && { ready=1; break; }; done <"$T/drawn"
child=
if [ -n "$ready" ]; then
	# flatpak ps names the sandbox's first processes (bwrap); egl-draw runs below them
	tops=$(flatpak ps --columns=application,child-pid | awk -v a="$APP" '$1 == a { print $2 }')
	while [ -n "$tops" ] && [ -z "$child" ]; do
		for p in $tops; do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = egl-draw ] && child=$p; done
		tops=$(for p in $tops; do ps -o pid= --ppid "$p"; done)
	done
fi
if [ -n "$child" ]; then
	expect_exit 0 "which --pid of the sandboxed GL program" mesa which --pid "$child"
	check "…names its EGL vendor the store's Mesa from its Flatpak extension" \
		grep -qx "GL library $OURS/gl/libEGL_mesa.so.0.0.0: the store's Mesa $V (its Flatpak extension)" "$T/out"
	echo "# which --pid: $(grep 'GL library' "$T/out" | tr '\n' ' ')"
	expect_exit 0 "which --json --pid" mesa which --json --pid "$child"
	check "…every GL library: origin store, version $V, from the extension" \
		test "$(field 'sorted(set((x["origin"], x["version"], x["path"].startswith("'"$OURS"'/gl/")) for x in d["drivers"] if x["api"] == "gl")), sorted(x["path"].rsplit("/", 1)[1] for x in d["drivers"] if x["api"] == "gl")')" = \
		"([('store', '$V', True)], ['libEGL_mesa.so.0.0.0', 'libgbm.so.1.0.0', 'libglapi.so.0.0.0', 'swrast_dri.so'])"
	kill "$child"
else
	not_ok "the sandboxed GL program is ready" "$(cat "$T/hold.err")"
fi
wait "$holder" 2>/dev/null

# --- one application's GL: app set … --gl ---
ENTRY=$XDG_DATA_HOME/applications/$APP.desktop
expect_exit 0 "app set --user on the Flatpak application, current --gl distro" \
	ctl mesa app set --user "$APP" current --gl distro
start_entry "$ENTRY" set-distro egl-draw
check "…started from its entry, it draws every pixel right" drew set-distro
check "…on the runtime's GL" all_in set-distro "$THEIRS" $GL_PARTS
expect_exit 0 "app set --user … current" ctl mesa app set --user "$APP" current
start_entry "$ENTRY" set-current egl-draw
check "…draws every pixel right" drew set-current
check "…on the export's GL" all_in set-current "$OURS/gl" $GL_PARTS
expect_exit 0 "app unset --user" ctl mesa app unset --user "$APP"

# --- a release without GL exports as before ---
expect_exit 0 "flatpak export of a version without GL" ctl --json mesa flatpak export "$V2" --user --branch 24.08
check "…JSON gl false" test "$(field 'd["gl"]')" = False
check "…no GL in the sentence" sh -c "! grep -q 'with its GL' '$T/out'"
# its MANIFEST's files and links, the two loader files and the marker: nothing else
awk '$1 == "file" { print $5 } $1 == "link" { print $2 }' "$STORE/versions/$V2/MANIFEST" >"$T/want"
printf '%s\n' "vulkan/icd.d/$NAME2.json" "OpenCL/vendors/$NAME2.icd" tb323fu-mesa.export >>"$T/want"
(cd "$EXT2" && find . ! -type d | sed 's|^\./||') | sort >"$T/have"
sort -o "$T/want" "$T/want"
check "…holds its files, its Vulkan and OpenCL loader files and the marker, nothing of GL" cmp -s "$T/want" "$T/have"

draw nogl mesa run --version "$V2" flatpak run --user "$APP" egl-draw
check "run flatpak run of it: draws every pixel right" drew nogl
check "…on the runtime's GL" all_in nogl "$THEIRS" $GL_PARTS

# --- the ABI check covers GL's libraries ---
# A release whose Vulkan driver needs nothing of glibc, whose EGL vendor library needs glibc
# 2.34 (dlopen's version) and whose GBM needs libX11.so.6: the old branch has glibc 2.17, the
# cxx branch no libX11.
S=$T/tiny-gl
mkdir -p "$S/lib/gl/dri"
printf 'void *vk_icdGetInstanceProcAddr(void *i, const char *n) { (void)i; (void)n; return 0; }\n' >"$T/vk.c"
printf '#include <dlfcn.h>\nint __egl_Main(void) { return dlopen("libgbm.so.1", RTLD_NOW) != 0; }\n' >"$T/egl.c"
printf 'extern void *XOpenDisplay(const char *);\nvoid *gbm_create_device(int fd) { (void)fd; return XOpenDisplay(0); }\n' >"$T/gbm.c"
printf 'int tb_dri(void) { return 0; }\n' >"$T/dri.c"
if cc -shared -fPIC -nostdlib -o "$S/lib/libtinyvk.so" "$T/vk.c" &&
	cc -shared -fPIC -Wl,-soname,libEGL_mesa.so.0 -o "$S/lib/gl/libEGL_mesa.so.0" "$T/egl.c" &&
	cc -shared -fPIC -nostdlib -Wl,-soname,libgbm.so.1 -o "$S/lib/gl/libgbm.so.1" "$T/gbm.c" -lX11 &&
	cc -shared -fPIC -nostdlib -o "$S/lib/gl/dri/swrast_dri.so" "$T/dri.c" &&
	chmod 644 "$S/lib/libtinyvk.so" "$S/lib/gl/"*.so* "$S/lib/gl/dri/swrast_dri.so" &&
	"$CTL" mesa pack --stage "$S" --version 2026.11.05 --drivers vulkan,gl --vulkan-lib lib/libtinyvk.so \
		--gallium-drivers llvmpipe "$T/tiny-rel" >"$T/pack.log" 2>&1 &&
	ctl mesa install-local "$T/tiny-rel"/tb323fu-mesa-2026.11.05-*.tar.* --no-smoke >>"$T/pack.log" 2>&1; then
	ok "a release whose GL needs glibc 2.34 and libX11 installs"
else
	not_ok "a release whose GL needs glibc 2.34 and libX11 installs" "$(tail -n 5 "$T/pack.log")"
fi
expect_exit 4 "its export to a branch whose glibc is older than its GL needs is refused" \
	ctl --json mesa flatpak export 2026.11.05 --user --branch old
reason_is glibc-too-old
field 'd["message"]' >"$T/msg"
check "…one sentence naming the branch, the GL library, the glibc it needs and the branch's" grep -q \
	"^Mesa 2026.11.05 cannot be exported for org.freedesktop.Platform//old: lib/gl/libEGL_mesa.so.0 needs glibc 2.34 (GLIBC_2.34), org.freedesktop.Platform//old has 2.17" "$T/msg"
echo "# refused: $(cat "$T/msg")"
expect_exit 4 "its export to a branch without a library its GL needs is refused" \
	ctl --json mesa flatpak export 2026.11.05 --user --branch cxx
reason_is library-unresolved
field 'd["message"]' >"$T/msg"
check "…naming the GL library and the library it needs" grep -q \
	"^Mesa 2026.11.05 cannot be exported for org.freedesktop.Platform//cxx: lib/gl/libgbm.so.1 needs libX11.so.6, which org.freedesktop.Platform//cxx does not have" "$T/msg"
echo "# refused: $(cat "$T/msg")"
check "nothing of it was written" test ! -e "$FLATPAK_USER_DIR/extension/org.freedesktop.Platform.GL.tb323fu-mesa-2026_11_05"
expect_exit 0 "it exports to 24.08, whose glibc and libX11 it finds" ctl mesa flatpak export 2026.11.05 --user --branch 24.08

expect_exit 0 "flatpak unexport --user" ctl mesa flatpak unexport --user
fp_done
done_testing
