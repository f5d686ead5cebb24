#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run): freedreno's noop DRM shim pretends to
# be the tablet's Adreno 840 (FD_GPU_ID=840, chip id 0x44050A31; build-recipes/tablet-build
# adds it to the shim's table, build-recipes/shim-adreno840.patch). Debian's own Turnip,
# trixie-backports' 26.1.6 on the tablet, reports it through `distro`, and the tablet stand-in
# packed from that Turnip (build-recipes/stand-in --turnip) reports it through `run`, loaded
# from the store (the dynamic linker's trace says which libvulkan_freedreno.so ran).
# GL on the 840: a surfaceless EGL program (tests/tools/egl-draw) reports freedreno's renderer
# from Debian's GL through `distro` and, given a tablet release with GL (TABLET), from the
# release's GL through `run`; where GL cannot start on the shim the check says why, in the
# words of Mesa and the shim. The shim runs no draw, so the pixels do not count.
# Environment: TB_BIN (the aarch64 programs), SHIM (the shim's directory), REL (the tablet
# stand-in's directory), W (a work directory), FD_GPU_ID (default 840), TABLET (a tablet
# release's directory; its GL is checked when it has one), EGL_DRAW (the aarch64 egl-draw;
# default TB_BIN/../tests/tools/egl-draw).
set -u
: "${TB_BIN:?}" "${SHIM:?}" "${REL:?}" "${W:?}"
CTL=$TB_BIN/tb323fu-ctl
MESA=$TB_BIN/tb323fu-mesa
STORE=$W/store840
T=$W/adreno840
mkdir -p "$T"
export TB323FU_MESA_CONFIG=$T/mesa.conf
: >"$TB323FU_MESA_CONFIG"
unset VK_DRIVER_FILES VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
gpu=${FD_GPU_ID:-840}
shim=$SHIM/libfreedreno_noop_drm_shim.so
SYSLIB=/usr/lib/aarch64-linux-gnu
mesa=$(dpkg-query -W -f '${Version}' mesa-vulkan-drivers)
# Mesa 26 names its 8xx parts as the device table does ("Adreno (TM) 840"); older Turnips and
# other parts carry a "Turnip " prefix ("Turnip Adreno (TM) 660").
device="(Turnip )?Adreno \(TM\) $gpu"

# on_shim NAME CMD…: CMD with the shim as the Adreno; its output in T/NAME, the shim's and
# Turnip's complaints in T/NAME.err, the libraries it loaded (real paths) in T/NAME.loaded.
on_shim() {
	out=$T/$1
	shift
	rm -f "$out".ld.*
	FD_GPU_ID=$gpu LD_PRELOAD=$shim LD_DEBUG=files LD_DEBUG_OUTPUT="$out.ld" "$@" >"$out" 2>"$out.err"
	rc=$?
	cat "$out".ld.* 2>/dev/null | sed -n 's/.*calling init: //p' |
		while read -r p; do readlink -f "$p"; done | sort -u >"$out.loaded"
	return $rc
}
# complaints NAME: what the shim and Turnip said, for a device that is not there
complaints() { grep -vE 'VkLayer_|DISPLAY|XDG_RUNTIME_DIR' "$T/$1.err" | sort -u | head -n 12; }
turnip_of() { grep -E '/libvulkan_freedreno\.so$' "$T/$1.loaded"; }

check "the shim is there ($shim)" test -f "$shim"
echo "#   the distribution's Mesa: $mesa"
if on_shim distro "$MESA" --store "$STORE" distro vulkaninfo --summary; then
	ok "distro vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)"
else
	not_ok "distro vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)" "$(complaints distro)"
fi
grep -E 'deviceName|driverID|driverInfo' "$T/distro" | sed 's/^/#   distro: /'
if grep -qE "deviceName *= *$device\$" "$T/distro"; then
	ok "…Debian's Turnip $mesa reports the Adreno (TM) $gpu"
else
	not_ok "…Debian's Turnip $mesa reports the Adreno (TM) $gpu" "$(complaints distro)"
fi
check "…the Turnip that ran is Debian's ($(turnip_of distro))" test "$(turnip_of distro)" = "$SYSLIB/libvulkan_freedreno.so"

tarball=$(ls "$REL"/tb323fu-mesa-*-aarch64.tar.* 2>/dev/null | head -n 1)
if "$CTL" --store "$STORE" mesa install-local "$tarball" --sums "$REL/SHA256SUMS" --no-smoke >"$T/out" 2>"$T/err"; then
	ok "install-local of the tablet stand-in (Debian's Turnip $mesa, ELF-checked)"
else
	not_ok "install-local of the tablet stand-in" "$(tail -n 8 "$T/err")"
fi
V=$(sed -n 's/^version=//p' "$STORE/current/MANIFEST" 2>/dev/null)
echo "#   packed $(stat -c %s "$tarball") bytes, unpacked $(du -sb "$STORE/versions/$V" 2>/dev/null | cut -f1) bytes"
REAL=$(cd "$STORE" && pwd -P)
if on_shim run "$MESA" --store "$STORE" run vulkaninfo --summary; then
	ok "run vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)"
else
	not_ok "run vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)" "$(complaints run)"
fi
grep -E 'deviceName|driverID|driverInfo' "$T/run" | sed 's/^/#   run: /'
check "…reports the Adreno (TM) $gpu" grep -qE "deviceName *= *$device\$" "$T/run"
check "…the one Turnip that ran is the store's ($(turnip_of run))" \
	test "$(turnip_of run)" = "$REAL/versions/$V/lib/libvulkan_freedreno.so"

# --- GL on the 840 ---
draw=${EGL_DRAW:-$TB_BIN/../tests/tools/egl-draw}
# freedreno names the GPU by its device table: FD660, and the 8xx parts as Turnip does.
gl_device="(FD|Adreno \(TM\) )$gpu"
renderer() { sed -n 's/^renderer=//p' "$T/$1"; }
egl_of() { grep -E '/libEGL_[^/]*$' "$T/$1.loaded"; }
# gl_said NAME: what egl-draw, Mesa and the shim said when GL did not start
gl_said() { grep -vE 'DISPLAY|XDG_RUNTIME_DIR' "$T/$1.err" | sort -u | head -n 12; }
if [ ! -x "$draw" ]; then
	n=$((n + 1))
	echo "ok $n # skip no aarch64 egl-draw at $draw (make CROSS=aarch64 build-aarch64/tests/tools/egl-draw)"
	echo "1..$n"
	exit 0
fi
gl_mesa=$(dpkg-query -W -f '${Version}' libegl-mesa0 2>/dev/null)
on_shim gl-distro "$MESA" --store "$STORE" distro "$draw"
echo "#   distro egl-draw exited $? (FD_GPU_ID=$gpu); $(grep -c '^map=' "$T/gl-distro") GL libraries mapped"
if grep -qE "^renderer=$gl_device\$" "$T/gl-distro"; then
	ok "…Debian's GL $gl_mesa reports the Adreno $gpu (renderer $(renderer gl-distro))"
else
	not_ok "…Debian's GL $gl_mesa reports the Adreno $gpu (renderer: $(renderer gl-distro))" "$(gl_said gl-distro)"
fi
check "…the EGL vendor that ran is Debian's ($(egl_of gl-distro))" \
	test "$(egl_of gl-distro)" = "$(readlink -f "$SYSLIB/libEGL_mesa.so.0")"

tarball=$(ls "${TABLET:-/nonexistent}"/tb323fu-mesa-*-aarch64.tar.* 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
	echo "#   no tablet release given (TABLET): the release's GL on the $gpu is not checked"
	echo "1..$n"
	exit 0
fi
GLSTORE=$W/store840gl
if ! "$CTL" --store "$GLSTORE" mesa install-local "$tarball" --sums "$TABLET/SHA256SUMS" --no-smoke >"$T/out" 2>"$T/err"; then
	not_ok "install-local of the tablet release" "$(tail -n 8 "$T/err")"
	echo "1..$n"
	exit 0
fi
GV=$(sed -n 's/^version=//p' "$GLSTORE/current/MANIFEST")
rel_mesa=$(sed -n 's/^mesa_version=//p' "$GLSTORE/current/MANIFEST")
if ! grep -q '^drivers=.*gl' "$GLSTORE/current/MANIFEST"; then
	echo "#   the tablet release $GV has no GL: the release's GL on the $gpu is not checked"
	echo "1..$n"
	exit 0
fi
GREAL=$(cd "$GLSTORE" && pwd -P)
on_shim gl-run "$MESA" --store "$GLSTORE" run "$draw"
echo "#   run egl-draw exited $? (FD_GPU_ID=$gpu), the tablet release $GV (Mesa $rel_mesa)"
if grep -qE "^renderer=$gl_device\$" "$T/gl-run"; then
	ok "…the release's GL (Mesa $rel_mesa) reports the Adreno $gpu (renderer $(renderer gl-run))"
	check "…the one EGL vendor that ran is the store's ($(egl_of gl-run))" \
		test "$(egl_of gl-run)" = "$GREAL/versions/$GV/$(sed -n 's/^egl_vendor_lib=//p' "$GLSTORE/current/MANIFEST")"
else
	# Does the release's Mesa know the GPU at all? Its own Turnip says, on the same shim.
	on_shim vk-rel "$MESA" --store "$GLSTORE" run vulkaninfo --summary
	if grep -qE "deviceName *= *$device\$" "$T/vk-rel"; then
		not_ok "…the release's GL (Mesa $rel_mesa) reports the Adreno $gpu, as its Turnip does (renderer: $(renderer gl-run))" "$(gl_said gl-run)"
	else
		n=$((n + 1))
		echo "ok $n # skip the release's Mesa $rel_mesa knows no Adreno $gpu: neither its GL nor its Turnip starts on it; they said:"
		{ gl_said gl-run; complaints vk-rel; } | sort -u | sed 's/^/#   /'
	fi
fi
echo "1..$n"
