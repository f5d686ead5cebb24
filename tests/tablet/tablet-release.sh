#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run): the tablet release that
# build-recipes/tablet-build made installs with the ELF check against Debian 13's libraries
# (every DT_NEEDED resolved, glibc floor within Debian 13's), and with freedreno's noop DRM
# shim (the Adreno the shim pretends to be: the tablet's 840 for a release of Mesa 26.2 or
# later, which knows it, else a 660; it accepts every submission without running it)
# `run vulkaninfo --summary` reports a Turnip device of that name and the release's Mesa
# version, loaded from the store, and the smoke tests that need no results from the GPU
# (vk.loader, vk.driver, and cl.platform with OpenCL) pass. The tests that check results of
# work the GPU runs (vk.compute, vk.sync, cl.kernel, gl.draw, gl.zink) cannot pass on a device
# that runs nothing: they are named as left out, and vk.compute, cl.kernel and gl.draw are run
# once to show how far they get (the compute pipeline created by the a8xx compiler, the kernel
# built, the GL context made), each failing at the values, never counted as a pass. With
# OpenCL, clinfo lists rusticl's device of that name. A release with GL names glvnd vendors of
# its own (not mesa), and a surfaceless EGL program (tests/tools/egl-draw) run through `run` on
# the shim gets freedreno's renderer from the store's GL (the pixels are not checked).
# With API (the fake GitHub the release was published to, keys in W/keys), `update` installs it
# from there with the signature required.
# Environment: TB_BIN (the aarch64 programs), TABLET (the release's directory; its build's
# shim in TABLET/../shim), W (a work directory), FD_GPU_ID (default by the release's Mesa: 840
# from 26.2 on, else 660), API, EGL_DRAW (the
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
rel_mesa=$(sed -n 's/^mesa_version=//p' "$STORE/current/MANIFEST" 2>/dev/null)
# The Adreno the shim plays: the tablet's 840 for a Mesa that knows it (26.2 and later).
case $rel_mesa in
2[0-5].* | 26.[01].*) gpu=${FD_GPU_ID:-660} ;;
*) gpu=${FD_GPU_ID:-840} ;;
esac
# Mesa 26 names its 8xx parts as its device table does ("Adreno (TM) 840"); older Turnips carry
# a "Turnip " prefix ("Turnip Adreno (TM) 660").
device="(Turnip )?Adreno \(TM\) $gpu"
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
check "…named Adreno (TM) $gpu" grep -qE "deviceName *= *$device\$" "$T/vk"
check "…of the release's Mesa $rel_mesa" grep -qE "driverInfo *= *Mesa $rel_mesa( |\$)" "$T/vk"
check "…loaded from the store's libvulkan_freedreno.so" grep -q "$REAL/.*libvulkan_freedreno.so" "$T/vk.loader"

# The smoke tests that need no work run by the GPU; the others are left out, and said so.
no_exec=vk.loader,vk.driver
grep -q '^drivers=.*opencl' "$STORE/current/MANIFEST" && no_exec=$no_exec,cl.platform
if FD_GPU_ID=$gpu LD_PRELOAD=$shim "$CTL" --store "$STORE" mesa smoke --tests "$no_exec" >"$T/out" 2>"$T/err"; then
	ok "smoke --tests $no_exec passes on the shim"
else
	not_ok "smoke --tests $no_exec on the shim" "$(tail -n 8 "$T/out" "$T/err")"
fi
sed 's/^/#   /' "$T/out"
echo "#   left out: vk.compute, vk.sync, cl.kernel, gl.draw and gl.zink check the results of work the GPU runs; the noop shim runs none, so they cannot pass here and no result of theirs is reported as one"
# how_far TEST WHAT: runs TEST once on the shim; its failure at the values, or at the wait for
# the work (the shim's noop submission: the dispatch's fence, the kernel's event), shows WHAT
# happened before (a failure at creation or at the build would name the call that failed).
how_far() {
	FD_GPU_ID=$gpu LD_PRELOAD=$shim "$CTL" --store "$STORE" --json mesa smoke --tests "$1" >"$T/far.json" 2>"$T/far.err"
	detail=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(next((t.get("detail", "") for t in r.get("tests", []) if t.get("name") == sys.argv[2]), ""))' "$T/far.json" "$1" 2>/dev/null)
	[ -n "$detail" ] || detail="no result ($(tail -n 2 "$T/far.err" | tr '\n' ' '))"
	echo "#   $1 on the shim: $detail"
	case $detail in
	*"values wrong"* | *"did not finish"* | *"pixels are right"* | "clWaitForEvents failed"* | *"event ended with status"*)
		ok "$2 ($1 fails only at the work's end or its values: the shim runs nothing)" ;;
	*) not_ok "$2 ($1 got no further than: $detail)" ;;
	esac
}
how_far vk.compute "…a compute pipeline is created: the a8xx shader compiler ran"
if grep -q '^drivers=.*opencl' "$STORE/current/MANIFEST"; then
	if FD_GPU_ID=$gpu LD_PRELOAD=$shim "$MESA" --store "$STORE" run clinfo -l >"$T/cl" 2>"$T/cl.err"; then
		ok "run clinfo -l on the shim"
	else
		not_ok "run clinfo -l on the shim" "$(tail -n 5 "$T/cl.err")"
	fi
	sed 's/^/#   /' "$T/cl"
	check "…rusticl with a freedreno device" grep -qi 'Device #0: .*\(FD\|Adreno\|freedreno\)' "$T/cl"
	check "…named for the Adreno $gpu" grep -qE "Device #0: .*(FD|Adreno \(TM\) )$gpu" "$T/cl"
	how_far cl.kernel "…an OpenCL kernel is built from source for the device and enqueued"
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
		how_far gl.draw "…a GL context is made on the store's freedreno"
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
