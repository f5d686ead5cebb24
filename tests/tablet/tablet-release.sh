#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run): the tablet release that
# build-recipes/tablet-build made installs with the ELF check against Debian 13's libraries
# (every DT_NEEDED resolved, glibc floor within Debian 13's), and with freedreno's noop DRM
# shim (an Adreno the shim pretends to be; it accepts every submission without running it)
# `run vulkaninfo --summary` reports a Turnip device loaded from the store, and the smoke tests
# that need no results from the GPU (vk.loader, vk.driver) pass. A release with GL names glvnd
# vendors of its own (not mesa), and a surfaceless EGL program (tests/tools/egl-draw) run
# through `run` on the shim gets freedreno's renderer from the store's GL (the pixels are not
# checked: the shim runs nothing).
# With API (the fake GitHub the release was published to, keys in W/keys), `update` installs it
# from there with the signature required.
# Environment: TB_BIN (the aarch64 programs), TABLET (the release's directory; its build's
# shim in TABLET/../shim), W (a work directory), FD_GPU_ID (default 660), API, EGL_DRAW (the
# aarch64 egl-draw; default TB_BIN/../tests/tools/egl-draw, make CROSS=aarch64 builds it).
set -u
: "${TB_BIN:?}" "${TABLET:?}" "${W:?}"
CTL=$TB_BIN/tb323fu-ctl
MESA=$TB_BIN/tb323fu-mesa
STORE=$W/tablet-store
T=$W/tablet
mkdir -p "$T"
export TB323FU_MESA_CONFIG=$T/mesa.conf
: >"$TB323FU_MESA_CONFIG"
export TB323FU_MESA_SMOKE_TIMEOUT=${TB323FU_MESA_SMOKE_TIMEOUT:-900}
unset VK_DRIVER_FILES VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
tarball=$(ls "$TABLET"/tb323fu-mesa-*-aarch64.tar.* 2>/dev/null | head -n 1)
shim=$(cd "$TABLET/../shim" 2>/dev/null && pwd -P)/libfreedreno_noop_drm_shim.so
gpu=${FD_GPU_ID:-660}

check "an aarch64 tablet release is there ($tarball)" test -f "$tarball"
echo "#   packed $(stat -c %s "$tarball") bytes"
start=$(date +%s)
if "$CTL" --store "$STORE" mesa install-local "$tarball" --sums "$TABLET/SHA256SUMS" --no-smoke >"$T/out" 2>"$T/err"; then
	ok "install-local: verified, unpacked and ELF-checked against Debian 13's arm64 libraries ($(($(date +%s) - start)) s)"
else
	not_ok "install-local of the tablet release" "$(tail -n 8 "$T/err")"
fi
cat "$T/out"
V=$(sed -n 's/^version=//p' "$STORE/current/MANIFEST" 2>/dev/null)
echo "#   unpacked $(du -sb "$STORE/versions/$V" 2>/dev/null | cut -f1) bytes"
sed -n 's/^\(arch\|mesa_version\|min_glibc\|drivers\|vulkan_api\)=/#   MANIFEST \1=/p' "$STORE/current/MANIFEST" 2>/dev/null
floor=$(sed -n 's/^min_glibc=//p' "$STORE/current/MANIFEST" 2>/dev/null)
check "its glibc floor ($floor) is within Debian 13's ($(ldd --version | sed -n '1s/.* //p'))" \
	sh -c "[ -n '$floor' ] && [ \"\$(printf '%s\n%s\n' '$floor' 2.41 | sort -t. -k1,1n -k2,2n | tail -n 1)\" = 2.41 ]"
"$CTL" --store "$STORE" mesa doctor >"$T/doctor" 2>&1
grep -i glibc "$T/doctor" | sed 's/^/#   doctor: /'

check "freedreno's noop DRM shim for aarch64 is there" test -f "$shim"
REAL=$(cd "$STORE" && pwd -P)
if FD_GPU_ID=$gpu LD_PRELOAD=$shim VK_LOADER_DEBUG=driver "$MESA" --store "$STORE" run vulkaninfo --summary \
	>"$T/vk" 2>"$T/vk.loader"; then
	ok "run vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)"
else
	not_ok "run vulkaninfo --summary on the shim" "$(tail -n 8 "$T/vk.loader")"
fi
sed -n '/^Devices:/,$p' "$T/vk" | sed 's/^/#   /'
check "…a Turnip device (driverID MESA_TURNIP)" grep -q 'driverID *= *DRIVER_ID_MESA_TURNIP' "$T/vk"
check "…loaded from the store's libvulkan_freedreno.so" grep -q "$REAL/.*libvulkan_freedreno.so" "$T/vk.loader"

if FD_GPU_ID=$gpu LD_PRELOAD=$shim "$CTL" --store "$STORE" mesa smoke --tests vk.loader,vk.driver >"$T/out" 2>"$T/err"; then
	ok "smoke --tests vk.loader,vk.driver passes on the shim"
else
	not_ok "smoke --tests vk.loader,vk.driver on the shim" "$(tail -n 8 "$T/out" "$T/err")"
fi
sed 's/^/#   /' "$T/out"
if grep -q '^drivers=.*opencl' "$STORE/current/MANIFEST"; then
	if FD_GPU_ID=$gpu LD_PRELOAD=$shim "$MESA" --store "$STORE" run clinfo -l >"$T/cl" 2>"$T/cl.err"; then
		ok "run clinfo -l on the shim"
	else
		not_ok "run clinfo -l on the shim" "$(tail -n 5 "$T/cl.err")"
	fi
	sed 's/^/#   /' "$T/cl"
	check "…rusticl with a freedreno device" grep -qi 'Device #0: .*\(FD\|Adreno\|freedreno\)' "$T/cl"
	# LLVM, clang and the SPIR-V translator belong inside rusticl, not to the distribution.
	ldd "$STORE/current/lib/libRusticlOpenCL.so.1" >"$T/ldd" 2>&1
	check "…rusticl needs no library of the distribution's LLVM" sh -c "! grep -qi 'libLLVM' '$T/ldd'"
	grep -i 'libLLVM' "$T/ldd" | sed 's/^[[:space:]]*/#   needs /'
	# What the dynamic section asks for, for the record (readelf of the root, if it has one).
	if command -v readelf >/dev/null; then
		echo "#   rusticl's DT_NEEDED: $(readelf -d "$STORE/current/lib/libRusticlOpenCL.so.1" |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
	fi
	echo "#   rusticl is $(stat -L -c %s "$STORE/current/lib/libRusticlOpenCL.so.1") bytes"
else
	echo "#   the release has no OpenCL driver (built with --drivers vulkan): no clinfo check"
fi

if grep -q '^drivers=.*gl' "$STORE/current/MANIFEST"; then
	sed -n 's/^\(gl_lib_dir\|egl_vendor_lib\|glx_vendor_lib\|gbm_lib\|gl_drivers_dir\|gbm_backends_dir\|gallium_drivers\)=/#   MANIFEST \1=/p' \
		"$STORE/current/MANIFEST"
	egl=$(sed -n 's/^egl_vendor_lib=//p' "$STORE/current/MANIFEST")
	glx=$(sed -n 's/^glx_vendor_lib=//p' "$STORE/current/MANIFEST")
	vendor=$(basename "$glx" .so.0 | sed 's/^libGLX_//')
	# Mesa's default vendor name is the system's: the store's would be taken for it by name.
	check "…glvnd vendor libraries of its own name ($(basename "$egl"), $(basename "$glx")), not mesa's" \
		sh -c "case '$(basename "$egl") $(basename "$glx")' in *_mesa.so*|' '*|*' ') exit 1 ;; esac"
	check "…run gives GLX that vendor by name (__GLX_VENDOR_LIBRARY_NAME=$vendor)" \
		sh -c "'$MESA' --store '$STORE' run printenv __GLX_VENDOR_LIBRARY_NAME | grep -qx '$vendor'"
	echo "#   lib/gl holds $(du -sb "$STORE/current/lib/gl" | cut -f1) bytes: $(cd "$STORE/current/lib/gl" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')"
	draw=${EGL_DRAW:-$TB_BIN/../tests/tools/egl-draw}
	if [ -x "$draw" ]; then
		FD_GPU_ID=$gpu LD_PRELOAD=$shim "$MESA" --store "$STORE" run "$draw" >"$T/gl" 2>"$T/gl.err"
		echo "#   egl-draw exited $? (the shim runs no draw: its pixels do not count)"
		sed 's/^/#   /' "$T/gl"
		grep -v '^$' "$T/gl.err" | sort -u | head -n 8 | sed 's/^/#   stderr: /'
		check "run egl-draw on the shim: freedreno's renderer for the GPU $gpu" grep -q "^renderer=.*$gpu" "$T/gl"
		check "…the EGL vendor library mapped is the store's ($egl)" grep -q "^map=$REAL/.*/$egl" "$T/gl"
		# glvnd's loaders (libEGL.so.1, libGLdispatch, libGLESv2) are the system's by design.
		check "…no GL library of the system's Mesa is mapped" \
			sh -c "! grep -qE '^map=/usr/.*/(libEGL_|libGLX_|libgbm|libglapi|libgallium|dri/|gbm/)' '$T/gl'"
	else
		n=$((n + 1))
		echo "ok $n # skip no aarch64 egl-draw at $draw (make CROSS=aarch64 build-aarch64/tests/tools/egl-draw)"
	fi
else
	echo "#   the release has no GL (built without gl among its drivers): no EGL check"
fi

if [ -n "${API:-}" ]; then
	want=$(sed -n 's/^version=//p' "$STORE/current/MANIFEST" 2>/dev/null)
	cat >"$T/update.conf" <<CONF
source = github:o/r
api_url = $API
require_signature = true
keys_dir = $W/keys
CONF
	# The shim runs no submission, so the smoke tests' results could not be right.
	start=$(date +%s)
	if TB323FU_MESA_CONFIG=$T/update.conf "$CTL" --store "$W/tablet-update" mesa update --no-smoke \
		>"$T/out" 2>"$T/err"; then
		ok "update installs the published tablet release, signature required ($(($(date +%s) - start)) s)"
	else
		not_ok "update installs the published tablet release" "$(tail -n 8 "$T/out" "$T/err")"
	fi
	check "…$want is current in that store" test "$(readlink "$W/tablet-update/current" 2>/dev/null)" = "versions/$want"
fi
echo "1..$n"
