#!/bin/sh
# A store the Open Device Helper made (two versions, its links, its ICD files, env.conf switched
# on, its state with a boot counted; none of our files) is taken over by the first writer: the
# boot already counted is not counted again, the state file stays byte for byte, run loads
# current's driver (asked of the dynamic linker), install <current>, rollback and verify keep
# current and previous right, and a program started with only the two ICD variables of the
# helper's launcher loads current's drivers after the takeover, install, on and rollback.
# helper.toml's channel applies where mesa.conf is silent.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.07
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
S="$T/scratch"
"$CTL" --store "$S" mesa install-local "$R1" --no-smoke >/dev/null &&
	"$CTL" --store "$S" mesa install-local "$R2" --no-smoke >/dev/null ||
	{ not_ok "unpack the stand-in releases"; done_testing; exit 1; }

# --- the helper's store, as its channel writes it
mkdir -p "$STORE/versions" "$STORE/icd/opencl" "$STORE/staged"
cp -a "$S/versions/$V1" "$S/versions/$V2" "$STORE/versions/"
ln -s "versions/$V2" "$STORE/current"
ln -s "versions/$V1" "$STORE/previous"
REAL=$(cd "$STORE" && pwd -P)
printf '{"file_format_version": "1.0.1", "ICD": {"library_path": "%s", "api_version": "1.4.0"}}\n' \
	"$REAL/current/lib/libvulkan_lvp.so" >"$STORE/icd/turnip.json"
printf '%s\n' "$REAL/current/lib/libRusticlOpenCL.so.1" >"$STORE/icd/opencl/rusticl.icd"
printf 'VK_DRIVER_FILES=%s\nVK_ICD_FILENAMES=%s\nOCL_ICD_VENDORS=%s\nRUSTICL_ENABLE=llvmpipe\n' \
	"$REAL/icd/turnip.json" "$REAL/icd/turnip.json" "$REAL/icd/opencl" >"$STORE/env.conf"
printf 'boot=helper-boot-1\nenabled=1\nmax=2\ntrial=%s\ntries=1\n' $V2 >"$STORE/state"
cp "$STORE/state" "$T/state.helper"

SYSLIB=/usr/lib/$(gcc -print-multiarch 2>/dev/null || dpkg-architecture -qDEB_HOST_MULTIARCH)
loaded() {
	rm -f "$T"/ld.*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T"/ld.* 2>/dev/null | sed -n 's/.*calling init: //p' | sort -u | while read -r p; do readlink -f "$p"; done | sort -u >"$T/loaded"
	return $rc
}
vk_drivers() { grep -E '/libvulkan_[^/]*$' "$T/loaded"; }
cl_drivers() { grep -E '/lib(RusticlOpenCL|MesaOpenCL)[^/]*$' "$T/loaded"; }
# What the helper's launcher sets for a program: the two ICD paths of the store (and the
# driver rusticl offers), nothing else of ours.
helper_launcher() {
	env -u LD_LIBRARY_PATH VK_DRIVER_FILES="$REAL/icd/turnip.json" VK_ICD_FILENAMES="$REAL/icd/turnip.json" \
		OCL_ICD_VENDORS="$REAL/icd/opencl" RUSTICL_ENABLE=llvmpipe "$@"
}
# helper_loads V WHEN: a program started the helper's way loads V's Vulkan and OpenCL drivers.
helper_loads() {
	loaded helper_launcher vulkaninfo --summary
	check "$2: the helper's launcher variables load Vulkan from $1" \
		test "$(vk_drivers)" = "$REAL/versions/$1/lib/libvulkan_lvp.so"
	loaded helper_launcher clinfo -l
	check "$2: …and OpenCL from $1" \
		test "$(cl_drivers)" = "$(readlink -f "$REAL/versions/$1/lib/libRusticlOpenCL.so.1")"
}
st() { ctl mesa status --json | json_strict - "$1"; }

expect_exit 0 "status reads the helper's store" ctl mesa status
check "status says the store still needs our files" grep -q "still needs our files" "$T/out"
check "status --json: takeover_needed, current, previous, trial, one try" \
	test "$(st 'd["takeover_needed"], d["installed"], d["previous"], d["trial"], d["tries"], d["enabled"]')" = "(True, '$V2', '$V1', '$V2', 1, True)"

# --- the first writer: boot-tick in the boot the helper already counted
TB323FU_BOOT_ID=helper-boot-1 expect_exit 0 "boot-tick in the boot already counted (the first writer)" ctl --json mesa boot-tick
check "…the start is not counted twice" test "$(st 'd["tries"], d["takeover_needed"]')" = "(1, False)"
check "…the state file is byte for byte the helper's" cmp -s "$STORE/state" "$T/state.helper"
check "…current and previous are the helper's" test "$(readlink "$STORE/current") $(readlink "$STORE/previous")" = "versions/$V2 versions/$V1"
for f in env/$V1.env env/$V2.env env/current.env icd/versions/$V1/turnip.json icd/versions/$V2/opencl/rusticl.icd; do
	check "our $f is there" test -s "$STORE/$f"
done
check "smoke/ is there (no result until a smoke test runs)" test -d "$STORE/smoke"
check "env.conf still switches the session on" grep -qx "VK_DRIVER_FILES=$REAL/icd/turnip.json" "$STORE/env.conf"
check "the helper's staged/ is left alone" test -d "$STORE/staged"
helper_loads $V2 "after the takeover"

if loaded mesa run vulkaninfo --summary; then ok "run after the takeover"; else not_ok "run after the takeover" "$(tail -3 "$T/err")"; fi
check "run: the Vulkan driver is current's ($V2), from the linker" test "$(vk_drivers)" = "$REAL/versions/$V2/lib/libvulkan_lvp.so"
check "run: no system Vulkan driver" sh -c "! grep -q '^$SYSLIB/libvulkan_' '$T/loaded'"
expect_exit 0 "which after the takeover" mesa which
check "which names current's driver" grep -qx "Vulkan driver $REAL/versions/$V2/lib/libvulkan_lvp.so" "$T/out"

# --- install <current>, on, rollback, verify
expect_exit 0 "install $V2 (current) passes its smoke tests" ctl mesa install $V2
check "…current and previous stay" test "$(st 'd["installed"], d["previous"], d["failed"]')" = "('$V2', '$V1', '')"
helper_loads $V2 "after install"
expect_exit 0 "on" ctl mesa on
helper_loads $V2 "after on"
expect_exit 0 "smoke $V1" ctl mesa smoke $V1
expect_exit 0 "rollback" ctl mesa rollback
check "…$V1 is current, $V2 previous" test "$(st 'd["installed"], d["previous"]')" = "('$V1', '$V2')"
helper_loads $V1 "after rollback"
expect_exit 0 "verify (current) after the takeover" ctl mesa verify
expect_exit 0 "verify $V2" ctl mesa verify $V2
expect_exit 0 "takeover when there is nothing to do" ctl --json mesa takeover
check "…says so" grep -q '"completed":false' "$T/out"

# --- helper.toml's channel where mesa.conf is silent
M="$T/mirror"
python3 "$TB_TOP/tests/doubles/fake-github" "$M" "file://$M" <<EOF
mesa-2026.10.09 prerelease $R2
mesa-2026.10.08 - $R1
EOF
printf 'source = github:o/r\napi_url = file://%s\n' "$M" >"$TB323FU_MESA_CONFIG"
printf '# the helper'"'"'s settings\n[battery]\ncharge_limit = 80\n[kernel]\nchannel = "testing"\nrequire_signature = false\npublic_keys = [\n]\n' >"$TB323FU_CONFIG"
expect_exit 0 "check with the helper's channel = testing" ctl --json mesa check
check "…offers the pre-release on testing" grep -q '"channel":"testing","available":"2026.10.09"' "$T/out"
printf 'channel = stable\n' >>"$TB323FU_MESA_CONFIG"
expect_exit 0 "check with channel = stable in mesa.conf" ctl --json mesa check
check "…mesa.conf wins: stable" grep -q '"channel":"stable","available":"2026.10.08"' "$T/out"
printf 'source = github:o/r\napi_url = file://%s\n' "$M" >"$TB323FU_MESA_CONFIG"
printf '[kernel]\nrequire_signature = true\n' >"$TB323FU_CONFIG"
expect_exit 4 "the helper's require_signature = true applies" ctl --json mesa download 2026.10.08
check "…refusing the unsigned release with signature-missing" grep -q '"reason":"signature-missing"' "$T/out"
# Any TOML spelling of it counts, and a file that is not TOML relaxes nothing.
printf '[ kernel ] # the kernel updater\n"require_signature" = true\n' >"$TB323FU_CONFIG"
expect_exit 4 "…also written [ kernel ] with a quoted key" ctl --json mesa download 2026.10.08
check "…for the missing signature" grep -q '"reason":"signature-missing"' "$T/out"
printf 'kernel.require_signature = true\n' >"$TB323FU_CONFIG"
expect_exit 4 "…also as a dotted key" ctl --json mesa download 2026.10.08
check "…for the missing signature" grep -q '"reason":"signature-missing"' "$T/out"
printf '[kernel]\nchannel = "testing"\nrequire_signature = True\n' >"$TB323FU_CONFIG"
expect_exit 4 "a helper.toml that is not TOML requires signatures" ctl --json mesa download 2026.10.08
check "…and says which file and line" grep -q "helper.toml line 3: not valid TOML" "$T/err"
check "…for the missing signature" grep -q '"reason":"signature-missing"' "$T/out"
done_testing
