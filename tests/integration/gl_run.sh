#!/bin/sh
# GL through the launcher (docs/design.md §6): a surfaceless EGL program that draws
# (tests/tools/egl-draw) maps the store's GL under `run` and `run --gl native`, the store's GL
# on Zink over the store's Vulkan driver under `run --gl zink`, and the distribution's under
# `run --gl distro` and `distro`, each with every pixel right; with a GBM device, GBM's backend
# too. A version without GL is run as before, and --gl asks for what it has not in a clear
# sentence. The parts named are those of the Mesa the stand-in was packed from: Debian 12's
# (Mesa 22.3) or Debian 13's (Mesa 25.0).
. "$TB_TOP/tests/lib.sh"

V1=2026.11.01
V2=2026.11.02
DRAW=$TB_BUILD/tests/tools/egl-draw
if [ ! -x "$DRAW" ]; then # built by `make unit-tests`; a run of this test alone builds its own
	DRAW=$T/egl-draw
	# shellcheck disable=SC2046 # the words pkg-config prints
	cc -o "$DRAW" "$TB_TOP/tests/tools/egl-draw.c" $(pkg-config --cflags --libs egl glesv2) ||
		{ not_ok "build tests/tools/egl-draw.c (libegl-dev, libgles-dev)"; done_testing; exit 1; }
fi
R1=$(standin $V1) && R2=$(standin $V2 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null || not_ok "install $V1"
REAL=$(cd "$STORE" && pwd -P)
SYS=/usr/lib/$(gcc -print-multiarch) # where the stand-in took its GL from

# maps: the GL libraries the last draw mapped (its map= lines)
maps() { sed -n 's/^map=//p' "$T/out"; }
# all_in DIR NAME…: a library whose file name starts with each NAME is mapped, and only from
# under DIR
all_in() {
	_dir=$1
	shift
	for _n; do
		maps | awk -v n="$_n" -v d="$_dir/" '{ f = $0; sub(".*/", "", f) }
			index(f, n) == 1 { seen = 1; if (index($0, d) != 1) other = 1 }
			END { exit !(seen && !other) }' || return 1
	done
}
# The layout of the stand-in's Mesa: from Mesa 25 on, every gallium driver is in one
# libgallium-<version>.so that the EGL vendor library needs by soname (its dri/*_dri.so are
# stubs of libdril that nothing here maps) and GBM's backend is gbm/dri_gbm.so (found through
# GBM_BACKENDS_PATH); before it, llvmpipe is the DRI driver swrast_dri.so beside libglapi, which
# is GBM's backend too (found through LIBGL_DRIVERS_PATH).
GALLIUM=$(cd "$REAL/versions/$V1/lib/gl" && ls libgallium-*.so 2>/dev/null)
if [ -n "$GALLIUM" ]; then
	GL_PARTS="libEGL_mesa.so.0 libgbm.so.1 libgallium-"
	GBM_BACKEND=dri_gbm.so
	WHICH_GL="libEGL_mesa.so.0.0.0 libgbm.so.1.0.0 $GALLIUM dri_gbm.so"
else
	GL_PARTS="libEGL_mesa.so.0 libgbm.so.1 libglapi.so.0 swrast_dri.so"
	GBM_BACKEND=swrast_dri.so
	WHICH_GL="libEGL_mesa.so.0.0.0 libgbm.so.1.0.0 libglapi.so.0.0.0 swrast_dri.so"
fi
pixels_right() { grep -qx 'pixels=4096/4096' "$T/out"; }

# --- run: the version's own GL ---
expect_exit 0 "run: the surfaceless EGL program draws" mesa run "$DRAW"
check "run: every pixel is right" pixels_right
check "run: the renderer is the release's llvmpipe" grep -q '^renderer=llvmpipe' "$T/out"
check "run: EGL vendor, GBM and the gallium driver ($GL_PARTS) are the store's $V1" \
	all_in "$REAL/versions/$V1/lib/gl" $GL_PARTS
check "run: no GL library of the system's Mesa is mapped" \
	sh -c "! grep -q '^map=$SYS/\(libEGL_mesa\|libgbm\|libglapi\|libgallium\|dri/\|gbm/\)' '$T/out'"
expect_exit 0 "run: a GBM device too" mesa run "$DRAW" --gbm
check "run: GBM and its backend ($GBM_BACKEND) are the store's" all_in "$REAL/versions/$V1/lib/gl" libgbm.so.1 $GBM_BACKEND
expect_exit 0 "run --gl native: draws" mesa run --gl native "$DRAW"
check "run --gl native: every pixel is right" pixels_right
check "run --gl native: the store's GL" all_in "$REAL/versions/$V1/lib/gl" $GL_PARTS
run_cmd mesa run printenv
check "run sets what GL's loaders need: the EGL vendor file by its absolute path, the DRI drivers, GLX's vendor" \
	sh -c "grep -qx '__EGL_VENDOR_LIBRARY_FILENAMES=$STORE/icd/egl_vendor.json' '$T/out' &&
		grep -qx 'LIBGL_DRIVERS_PATH=$STORE/current/lib/gl/dri' '$T/out' &&
		grep -qx '__GLX_VENDOR_LIBRARY_NAME=mesa' '$T/out' &&
		grep -q '^LD_LIBRARY_PATH=$STORE/current/lib/gl\$' '$T/out'"
[ -z "$GALLIUM" ] ||
	check "run sets GBM's backends' folder (Mesa 25's gbm/dri_gbm.so)" grep -qx "GBM_BACKENDS_PATH=$STORE/current/lib/gl/gbm" "$T/out"
check "the EGL vendor file names the store's library by its absolute path" \
	grep -q "\"library_path\":\"$STORE/current/lib/gl/libEGL_mesa.so.0\"" "$STORE/icd/egl_vendor.json"
check "run sets neither Zink's choice nor software rendering" \
	sh -c "! grep -q '^\(MESA_LOADER_DRIVER_OVERRIDE\|LIBGL_ALWAYS_SOFTWARE\)=' '$T/out'"
check "run --version: the version's own files" \
	sh -c "'$MESA' --store '$STORE' run --version $V1 printenv LIBGL_DRIVERS_PATH | grep -qx '$STORE/versions/$V1/lib/gl/dri'"
check "the caller's LD_LIBRARY_PATH stays after GL's folder" \
	sh -c "LD_LIBRARY_PATH=/opt/mine '$MESA' --store '$STORE' run printenv LD_LIBRARY_PATH | grep -qx '$STORE/current/lib/gl:/opt/mine'"

# --- run --gl zink: GL on Zink over the store's Vulkan driver ---
expect_exit 0 "run --gl zink: draws" mesa run --gl zink "$DRAW"
check "run --gl zink: every pixel is right" pixels_right
check "run --gl zink: the renderer is Zink" grep -q '^renderer=zink' "$T/out"
check "run --gl zink: the store's GL and the store's Vulkan driver under it" \
	all_in "$REAL/versions/$V1/lib" $GL_PARTS libvulkan_lvp.so

# --- run --gl distro and distro: the distribution's GL ---
expect_exit 0 "run --gl distro: draws" mesa run --gl distro "$DRAW"
check "run --gl distro: every pixel is right" pixels_right
check "run --gl distro: the distribution's EGL vendor, GBM and gallium driver" all_in "$SYS" $GL_PARTS
expect_exit 0 "run --gl distro: a GBM device too" mesa run --gl distro "$DRAW" --gbm
check "run --gl distro: GBM and its backend are the distribution's" all_in "$SYS" libgbm.so.1 $GBM_BACKEND
check "run --gl distro: nothing of the store's GL" sh -c "! grep -q '^map=$REAL/' '$T/out'"
run_cmd mesa run --gl distro printenv
check "run --gl distro: Vulkan and OpenCL still come from the store" \
	sh -c "grep -qx 'VK_DRIVER_FILES=$STORE/icd/turnip.json' '$T/out' && grep -qx 'OCL_ICD_VENDORS=$STORE/icd/opencl' '$T/out'"
check "run --gl distro: no GL variable of the store's" \
	sh -c "! grep -q '^\(__EGL_VENDOR_LIBRARY_FILENAMES\|LIBGL_DRIVERS_PATH\|__GLX_VENDOR_LIBRARY_NAME\|LD_LIBRARY_PATH\)=' '$T/out'"
expect_exit 0 "distro: draws" mesa distro "$DRAW"
check "distro: every pixel is right" pixels_right
check "distro: the distribution's GL" all_in "$SYS" $GL_PARTS
check "distro: nothing of the store's" sh -c "! grep -q '^map=$REAL/' '$T/out'"
# a session that carried the store's GL (on --gl) gives it to neither
inherit() {
	__EGL_VENDOR_LIBRARY_FILENAMES="$STORE/icd/egl_vendor.json" LIBGL_DRIVERS_PATH="$STORE/current/lib/gl/dri" \
		LD_LIBRARY_PATH="$STORE/current/lib/gl" "$@"
}
expect_exit 0 "run --gl distro under inherited GL variables of the store's (a session's): draws" \
	inherit "$MESA" --store "$STORE" run --gl distro "$DRAW"
check "…on the distribution's GL" all_in "$SYS" $GL_PARTS
expect_exit 0 "distro under them: draws" inherit "$MESA" --store "$STORE" distro "$DRAW"
check "…on the distribution's GL" all_in "$SYS" $GL_PARTS

# --- which --pid names the GL libraries a process mapped, the store's or the system's ---
# hold CMD…: starts CMD egl-draw --hold in the background and waits until it has drawn (its
# lines go through a FIFO; one that dies early ends the wait with EOF)
hold() {
	rm -f "$T/drawn"
	mkfifo "$T/drawn"
	"$@" "$DRAW" --gbm --hold >"$T/drawn" 2>"$T/hold.err" &
	holder=$!
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $holder"
	while read -r line; do [ "$line" = ready ] && return 0; done <"$T/drawn"
	return 1
}
stop() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
gl_of() { mesa which --pid "$holder" --json | json "$1"; }
check "a GL program started by run" hold "$MESA" --store "$STORE" run
# as Python prints the sorted list of those names
which_gl=$(printf '%s\n' $WHICH_GL | LC_ALL=C sort | sed "s/.*/'&'/" | paste -sd, | sed 's/,/, /g')
check "which --pid: its EGL vendor, GBM and its backend, the gallium driver are GL libraries of the store's $V1" \
	test "$(gl_of 'sorted(set((x["origin"], x["version"]) for x in d["drivers"] if x["api"] == "gl")), sorted(x["path"].rsplit("/", 1)[1] for x in d["drivers"] if x["api"] == "gl")')" = \
	"([('store', '$V1')], [$which_gl])"
expect_exit 0 "which --pid (human)" mesa which --pid $holder
check "…says each is the store's Mesa $V1" \
	grep -qx "GL library $REAL/versions/$V1/lib/gl/libEGL_mesa.so.0.0.0: the store's Mesa $V1" "$T/out"
stop $holder
check "a GL program started by run --gl distro" hold "$MESA" --store "$STORE" run --gl distro
check "which --pid: its GL libraries are the system's" \
	test "$(gl_of 'sorted(set(x["origin"] for x in d["drivers"] if x["api"] == "gl")), "'"$SYS/libEGL_mesa.so.0.0.0"'" in [x["path"] for x in d["drivers"]]')" = "(['system'], True)"
stop $holder
check "a GL program started by distro" hold "$MESA" --store "$STORE" distro
expect_exit 0 "which --pid (human)" mesa which --pid $holder
check "…says its EGL vendor is the distribution's" \
	grep -qx "GL library $SYS/libEGL_mesa.so.0.0.0: the distribution's Mesa" "$T/out"
stop $holder

# --- which and env say the GL a run gives, as --gl chooses ---
expect_exit 0 "which" mesa which
check "which: the version's own gallium driver, its EGL vendor file, drivers, GLX vendor and GL's folder" \
	sh -c "grep -qx \"GL: Mesa $V1's own gallium driver\" '$T/out' &&
		grep -qx 'EGL vendor file $REAL/icd/egl_vendor.json' '$T/out' &&
		grep -qx 'GL driver directory $STORE/current/lib/gl/dri' '$T/out' &&
		grep -qx 'GLX vendor mesa' '$T/out' &&
		grep -qx 'GL library directory $STORE/current/lib/gl (before the inherited LD_LIBRARY_PATH)' '$T/out'"
expect_exit 0 "which --gl zink" mesa which --gl zink
check "…says Zink over the version's Vulkan driver, with software rendering (lavapipe)" \
	grep -qx "GL: Mesa $V1's, on Zink over its Vulkan driver (software rendering asked for)" "$T/out"
expect_exit 0 "which --gl distro" mesa which --gl distro
check "…says the distribution's GL and no GL file of the store's" \
	sh -c "grep -qx \"GL: the distribution's (--gl distro); the drivers above are the store's\" '$T/out' &&
		! grep -q '^\(EGL vendor file\|GL driver directory\|GL library directory\)' '$T/out'"
check "which --json: gl's mode, file and folders" \
	test "$(mesa which --json | json 'd["gl"]["mode"], d["gl"]["file"], d["gl"]["egl_vendor_files"], d["gl"]["drivers_dir"], d["gl"]["glx_vendor"], d["gl"]["software"]')" = \
	"('native', '$REAL/env/current.gl', ['$REAL/icd/egl_vendor.json'], '$STORE/current/lib/gl/dri', 'mesa', False)"
check "which --gl zink --json: zink, its file, software rendering" \
	test "$(mesa which --gl zink --json | json 'd["gl"]["mode"], d["gl"]["file"], d["gl"]["software"]')" = \
	"('zink', '$REAL/env/current.zink', True)"
check "which --gl distro --json: distro, no file, no folder" \
	test "$(mesa which --gl=distro --json | json 'd["gl"]["mode"], d["gl"]["file"], d["gl"]["egl_vendor_files"], d["gl"]["ld_library_path"]')" = \
	"('distro', '', [], [])"
expect_exit 2 "which --pid with --gl" mesa which --pid $$ --gl zink
check "…says a process has already loaded its GL" grep -q "which takes --pid or --gl, not both" "$T/err"
expect_exit 2 "which --gl with another word" mesa which --gl vulkan
check "…names the three" grep -q "^tb323fu-mesa: --gl is native, zink or distro, not 'vulkan'" "$T/err"
expect_exit 0 "env --gl zink" mesa env --gl zink
check "…prints Zink's override and software rendering after GL's lines" \
	sh -c "tail -n 2 '$T/out' | tr '\\n' ' ' | grep -qx 'export MESA_LOADER_DRIVER_OVERRIDE=zink export LIBGL_ALWAYS_SOFTWARE=1 '"
expect_exit 0 "env --gl distro" mesa env --gl distro
check "…prints no GL variable" sh -c "! grep -q 'EGL\|LIBGL\|GLX\|/lib/gl' '$T/out'"
check "env --gl zink --json names the Zink file" \
	test "$(mesa env --gl zink --json | json 'd["gl_file"], d["env"]["MESA_LOADER_DRIVER_OVERRIDE"]')" = "('$REAL/env/current.zink', 'zink')"

# --- the session: GL only where asked for (docs/design.md §6) ---
ctl mesa on >/dev/null 2>&1 || not_ok "on"
check "on: env.conf selects Vulkan and OpenCL but none of GL" \
	sh -c "grep -q '^VK_DRIVER_FILES=' '$STORE/env.conf' && ! grep -q 'EGL\|LIBGL\|GBM\|GLX\|/lib/gl' '$STORE/env.conf'"
ctl mesa off >/dev/null 2>&1 || not_ok "off"

# --- usage ---
expect_exit 2 "run --gl with another word" mesa run --gl vulkan true
check "…names the three" grep -q "^tb323fu-mesa: --gl is native, zink or distro, not 'vulkan'" "$T/err"
expect_exit 2 "run --gl without a word" mesa run --gl
expect_exit 2 "distro --gl" mesa distro --gl zink true
check "…says distro gives the whole distribution" grep -q "distro takes no --gl" "$T/err"
expect_exit 0 "run --gl=zink takes the = form" mesa run --gl=zink printenv MESA_LOADER_DRIVER_OVERRIDE
check "…and Zink is chosen" test "$(cat "$T/out")" = zink
check "run --gl zink asks for software rendering on a software release (lavapipe)" \
	test "$(mesa run --gl zink printenv LIBGL_ALWAYS_SOFTWARE)" = 1

# --- a version without GL ---
ctl mesa install-local "$R2" --no-smoke >/dev/null || not_ok "install $V2"
check "a version without GL has no GL files" sh -c "! ls '$STORE/env/$V2.gl' '$STORE/env/$V2.zink' '$STORE/icd/versions/$V2/egl_vendor.json' 2>/dev/null"
check "…and current's GL files are gone with it" sh -c "! ls '$STORE/env/current.gl' '$STORE/env/current.zink' '$STORE/icd/egl_vendor.json' 2>/dev/null"
expect_exit 0 "run of a version without GL: the program draws on the distribution's GL" mesa run "$DRAW"
check "…every pixel right, the distribution's GL" sh -c "grep -qx 'pixels=4096/4096' '$T/out' && grep -q '^map=$SYS/libEGL_mesa' '$T/out'"
expect_exit 1 "run --gl native of a version without GL" mesa run --gl native true
check "…says it carries no GL" grep -qx "tb323fu-mesa: Mesa $V2 carries no GL (its release's drivers do not name gl): run it without --gl, or with --gl distro" "$T/err"
expect_exit 1 "run --gl zink of a version without GL" mesa run --gl zink true
expect_exit 0 "which of a version without GL" mesa which
check "…says the distribution's GL" grep -qx "GL: the distribution's (Mesa $V2 carries no GL)" "$T/out"
expect_exit 1 "which --gl zink of a version without GL" mesa which --gl zink
check "…says it carries no GL and what to ask instead" grep -qx "tb323fu-mesa: Mesa $V2 carries no GL (its release's drivers do not name gl): ask again without --gl, or with --gl distro" "$T/err"
expect_exit 1 "env --gl native of a version without GL" mesa env --gl native
expect_exit 0 "run --gl distro of a version without GL" mesa run --gl distro true
expect_exit 0 "run --version of the previous version with GL still draws on its GL" mesa run --version $V1 "$DRAW"
check "…from versions/$V1" all_in "$REAL/versions/$V1/lib/gl" $GL_PARTS

# --- a damaged GL env file is refused, none of it applied ---
cp "$STORE/env/$V1.gl" "$T/gl.saved"
echo "LD_PRELOAD=/tmp/evil.so" >>"$STORE/env/$V1.gl"
expect_exit 1 "a GL env file that sets LD_PRELOAD" mesa run --version $V1 true
check "…is refused as damaged" \
	grep -q "$V1.gl line $(($(wc -l <"$T/gl.saved") + 1)) sets LD_PRELOAD, which is not one of the variables of GL" "$T/err"
cp "$T/gl.saved" "$STORE/env/$V1.gl"

# --- with a release that asks for its lib/ on LD_LIBRARY_PATH too: GL's folder first ---
V3=2026.11.03
R3=$(standin $V3 --ld-library-path lib) && ctl mesa install-local "$R3" --no-smoke >/dev/null || not_ok "install $V3"
check "GL's folder, then the release's lib/, then the caller's" \
	test "$(LD_LIBRARY_PATH=/opt/a mesa run --version $V3 printenv LD_LIBRARY_PATH)" = "$REAL/versions/$V3/lib/gl:$REAL/versions/$V3/lib:/opt/a"
check "env --json: GL's folder and the release's lib/ joined, and GL's file named" \
	test "$(mesa env --version $V3 --json | json 'd["env"]["LD_LIBRARY_PATH"], d["gl_file"]')" = \
	"('$REAL/versions/$V3/lib/gl:$REAL/versions/$V3/lib', '$STORE/env/$V3.gl')"
check "env for sh: the same library path as a run's" \
	test "$(mesa env --version $V3 >"$T/env.sh" && LD_LIBRARY_PATH=/opt/a sh -c ". '$T/env.sh'; printenv LD_LIBRARY_PATH")" = \
	"$REAL/versions/$V3/lib/gl:$REAL/versions/$V3/lib:/opt/a"
check "run --gl distro: the release's lib/ alone" \
	test "$(LD_LIBRARY_PATH=/opt/a mesa run --version $V3 --gl distro printenv LD_LIBRARY_PATH)" = "$REAL/versions/$V3/lib:/opt/a"

# --- its files go with it: installing $V3 pruned $V1 (keep_versions = 2) ---
check "$V1 was pruned" test ! -e "$STORE/versions/$V1"
check "…and its GL files went with it" \
	sh -c "! ls '$STORE/env/$V1.gl' '$STORE/env/$V1.zink' '$STORE/icd/versions/$V1' 2>/dev/null"

done_testing
