#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run): the release published to the fake
# GitHub at $API is installed by `update` with the signature required, passes the smoke tests,
# and `run vulkaninfo --summary` / `run clinfo -l` load the store's lavapipe and rusticl while
# Debian 13's own stay installed, as the dynamic linker's trace shows.
# Environment: TB_BIN (the aarch64 programs), API, V (the published version), W (the work
# directory with keys/), TB_DISTRO_MESA (backports: the root's Mesa must be trixie-backports').
set -u
: "${TB_BIN:?}" "${API:?}" "${V:?}" "${W:?}"
CTL=$TB_BIN/tb323fu-ctl
MESA=$TB_BIN/tb323fu-mesa
STORE=$W/store
T=$W/in-root
mkdir -p "$T"
export TB323FU_MESA_CONFIG=$W/mesa.conf
unset VK_DRIVER_FILES VK_ICD_FILENAMES OCL_ICD_VENDORS RUSTICL_ENABLE
# Emulated, the smoke tests take minutes, not seconds.
export TB323FU_MESA_SMOKE_TIMEOUT=${TB323FU_MESA_SMOKE_TIMEOUT:-900}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
SYSLIB=/usr/lib/aarch64-linux-gnu

check "this is Debian 13 ($(cat /etc/debian_version)) with its arm64 Mesa" \
	sh -c 'grep -q "^13" /etc/debian_version && test -f /usr/lib/aarch64-linux-gnu/libvulkan_lvp.so'
mesa=$(dpkg-query -W -f '${Version}' mesa-vulkan-drivers 2>/dev/null)
# TB_DISTRO_MESA=backports: the tablet's Debian 13, whose Mesa comes from trixie-backports.
case ${TB_DISTRO_MESA:-trixie} in
backports) check "…its Mesa is trixie-backports' ($mesa), as on the tablet" sh -c "case '$mesa' in *~bpo13*) ;; *) exit 1 ;; esac" ;;
*) check "…its Mesa is trixie's own ($mesa)" sh -c "case '$mesa' in *~bpo*) exit 1 ;; esac" ;;
esac
check "our programs are aarch64 executables" sh -c "file -b '$CTL' 2>/dev/null | grep -q aarch64 || head -c 20 '$CTL' | od -An -tx1 | grep -q 'b7 00'"

cat >"$TB323FU_MESA_CONFIG" <<CONF
source = github:o/r
api_url = $API
require_signature = true
keys_dir = $W/keys
CONF

start=$(date +%s)
if "$CTL" --store "$STORE" mesa update >"$T/out" 2>"$T/err"; then
	ok "update installs mesa-$V from the fake GitHub, signature required, smoke tests run ($(($(date +%s) - start)) s)"
else
	not_ok "update installs mesa-$V" "$(cat "$T/out" "$T/err" | tail -n 12)"
fi
cat "$T/out"
REAL=$(cd "$STORE" && pwd -P)
check "$V is current" test "$(readlink "$STORE/current" 2>/dev/null)" = "versions/$V"
# tb323fu-ctl installs only a release of its own machine (uname -m): under qemu-user, aarch64.
check "…an aarch64 release, as the emulated tb323fu-ctl requires" grep -qx 'arch=aarch64' "$STORE/current/MANIFEST"
if [ -f "$STORE/smoke/$V.json" ]; then
	json '"\n".join("#   %-12s %-4s %7d ms  %s" % (t["name"], t["status"], t["ms"], t["detail"]) for t in d["tests"])' <"$STORE/smoke/$V.json"
	# GL's two are skipped when the stand-in has no GL (Debian's backports name libgallium with
	# a character no release path may hold: build-recipes/stand-in leaves GL out then).
	if grep -q '^drivers=.*gl' "$STORE/current/MANIFEST"; then want="(8, 0, 0)" gl="and GL's two"
	else want="(6, 0, 2)" gl="GL's two skipped: the stand-in has no GL"
	fi
	check "the six Vulkan and OpenCL smoke tests passed under qemu-user ($gl)" \
		test "$(json 'd["passed"], d["failed"], d["skipped"]' <"$STORE/smoke/$V.json")" = "$want"
else
	not_ok "the smoke tests left a result"
fi

# The smoke tests alone, timed apart from the download and install that update did.
start=$(date +%s)
if "$CTL" --store "$STORE" mesa smoke >"$T/out" 2>"$T/err"; then
	ok "smoke again, alone, under qemu-user ($(($(date +%s) - start)) s)"
else
	not_ok "smoke again, alone" "$(tail -n 8 "$T/out" "$T/err")"
fi

realpaths() { while read -r p; do readlink -f "$p"; done; }
loaded() {
	rm -f "$T"/ld.*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T"/ld.* 2>/dev/null | sed -n 's/.*calling init: //p' | realpaths | sort -u >"$T/loaded"
	return $rc
}
vk_drivers() { grep -E '/libvulkan_[^/]*$' "$T/loaded"; }
cl_drivers() { grep -E '/lib(RusticlOpenCL|MesaOpenCL)[^/]*$' "$T/loaded"; }

check "Debian 13's own lavapipe and rusticl are installed" \
	sh -c "test -f $SYSLIB/libvulkan_lvp.so && test -e $SYSLIB/libRusticlOpenCL.so.1"
if loaded "$MESA" --store "$STORE" run vulkaninfo --summary; then ok "run vulkaninfo --summary"; else not_ok "run vulkaninfo --summary" "$(tail -n 5 "$T/err")"; fi
grep -E 'deviceName|driverID|driverName|driverInfo|apiVersion' "$T/out" | sed 's/^/#   /'
check "…the one Vulkan driver loaded is the store's lavapipe" \
	test "$(vk_drivers)" = "$REAL/versions/$V/lib/libvulkan_lvp.so"
check "…Debian's lavapipe was not loaded" sh -c "! grep -q '^$SYSLIB/libvulkan_' '$T/loaded'"
if loaded "$MESA" --store "$STORE" distro vulkaninfo --summary; then ok "distro vulkaninfo --summary"; else not_ok "distro vulkaninfo --summary" "$(tail -n 5 "$T/err")"; fi
check "…loads Debian's lavapipe and nothing of the store" \
	sh -c "grep -qx '$SYSLIB/libvulkan_lvp.so' '$T/loaded' && ! grep -q '^$REAL/' '$T/loaded'"

if loaded "$MESA" --store "$STORE" run clinfo -l; then ok "run clinfo -l"; else not_ok "run clinfo -l" "$(tail -n 5 "$T/err")"; fi
sed 's/^/#   /' "$T/out"
check "…lists rusticl with an llvmpipe device" sh -c "grep -q 'Platform #0: rusticl' '$T/out' && grep -q 'Device #0: llvmpipe' '$T/out'"
check "…the one OpenCL driver loaded is the store's rusticl" \
	test "$(cl_drivers)" = "$(readlink -f "$REAL/versions/$V/lib/libRusticlOpenCL.so.1")"
check "…Debian's rusticl was not loaded" sh -c "! grep -qE '^$SYSLIB/lib(Rusticl|Mesa)OpenCL' '$T/loaded'"
if loaded "$MESA" --store "$STORE" distro clinfo -l; then ok "distro clinfo -l"; else not_ok "distro clinfo -l" "$(tail -n 5 "$T/err")"; fi
check "…loads Debian's rusticl and nothing of the store" \
	sh -c "grep -qx '$(readlink -f $SYSLIB/libRusticlOpenCL.so.1)' '$T/loaded' && ! grep -q '^$REAL/' '$T/loaded'"

echo "1..$n"
