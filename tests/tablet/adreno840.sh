#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run): freedreno's noop DRM shim pretends to
# be the tablet's Adreno 840 (FD_GPU_ID=840, chip id 0x44050A31; build-recipes/tablet-build
# adds it to the shim's table). Debian's own Turnip, trixie-backports' 26.1.6 on the tablet,
# reports it through `distro`, and the tablet stand-in packed from that Turnip
# (build-recipes/stand-in --turnip) reports it through `run`, loaded from the store.
# Environment: TB_BIN (the aarch64 programs), SHIM (the shim's directory), REL (the tablet
# stand-in's directory), W (a work directory), FD_GPU_ID (default 840).
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
mesa=$(dpkg-query -W -f '${Version}' mesa-vulkan-drivers)
name="Turnip Adreno (TM) $gpu"
# on_shim OUT CMD…: CMD with the shim as the Adreno, stdout to OUT, the loader's trace to OUT.err
on_shim() {
	out=$1
	shift
	FD_GPU_ID=$gpu LD_PRELOAD=$shim VK_LOADER_DEBUG=driver "$@" >"$out" 2>"$out.err"
}
# what_failed OUT: the shim's and Turnip's complaints, when a device is missing
what_failed() { grep -iE 'unknown|unsupported|fail|error|MESA|TU:' "$1.err" | sort -u | head -n 12; }

check "the shim is there ($shim)" test -f "$shim"
echo "#   the distribution's Mesa: $mesa"
if on_shim "$T/distro" "$MESA" --store "$STORE" distro vulkaninfo --summary; then
	ok "distro vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)"
else
	not_ok "distro vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)" "$(what_failed "$T/distro")"
fi
grep -E 'deviceName|driverID|driverInfo' "$T/distro" | sed 's/^/#   distro: /'
if grep -q "deviceName *= *$name\$" "$T/distro"; then
	ok "…Debian's Turnip $mesa reports $name"
else
	not_ok "…Debian's Turnip $mesa reports $name" "$(what_failed "$T/distro")"
fi
check "…loaded from the distribution" grep -q '/usr/lib/aarch64-linux-gnu/libvulkan_freedreno.so' "$T/distro.err"

tarball=$(ls "$REL"/tb323fu-mesa-*-aarch64.tar.* 2>/dev/null | head -n 1)
if "$CTL" --store "$STORE" mesa install-local "$tarball" --sums "$REL/SHA256SUMS" --no-smoke >"$T/out" 2>"$T/err"; then
	ok "install-local of the tablet stand-in (Debian's Turnip $mesa, ELF-checked)"
else
	not_ok "install-local of the tablet stand-in" "$(tail -n 8 "$T/err")"
fi
REAL=$(cd "$STORE" && pwd -P)
if on_shim "$T/run" "$MESA" --store "$STORE" run vulkaninfo --summary; then
	ok "run vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)"
else
	not_ok "run vulkaninfo --summary on the shim (FD_GPU_ID=$gpu)" "$(what_failed "$T/run")"
fi
grep -E 'deviceName|driverID|driverInfo' "$T/run" | sed 's/^/#   run: /'
check "…reports $name" grep -q "deviceName *= *$name\$" "$T/run"
check "…loaded from the store's libvulkan_freedreno.so" grep -q "$REAL/.*libvulkan_freedreno.so" "$T/run.err"
check "…and not Debian's" sh -c "! grep -q '/usr/lib/aarch64-linux-gnu/libvulkan_freedreno.so' '$T/run.err'"
echo "1..$n"
