#!/bin/sh
# The whole life cycle on stand-in releases: install-local, status, on, boot-tick, keep,
# a second version, rollback, remove, list; the ICD and env files it writes.
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.07
V3=2026.10.07.2
R1=$(standin $V1) && R2=$(standin $V2) && R3=$(standin $V3) || { not_ok "stand-in releases"; done_testing; exit 1; }
printf 'max_tries = 2\nkeep_versions = 3\n' >"$TB323FU_MESA_CONFIG"
# The store is reached through a symbolic link: every file must name its real path.
mkdir -p "$T/real"
ln -s "$T/real" "$STORE"
REAL=$(cd "$T/real" && pwd -P)
st() { ctl mesa status --json | json "$1"; }

expect_exit 0 "install-local $V1" ctl --progress json mesa install-local "$R1" --no-smoke
check "--progress json: unpack lines on stderr, the last one complete" python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
unpack = [l for l in lines if l["op"] == "unpack"]
assert unpack and set(unpack[0]) == {"op", "file", "done", "total", "percent"}, lines
assert unpack[-1]["done"] == unpack[-1]["total"] > 0, unpack[-1]
assert unpack[0]["file"].startswith("tb323fu-mesa-2026.10.06-"), unpack[0]
' "$T/err"
check "the sentence names the version" grep -q "Mesa $V1 installed" "$T/out"
check "status: installed $V1, idle, off" test "$(st 'd["installed"], d["state"], d["enabled"]')" = "('$V1', 'idle', False)"
check "status --json has exactly the keys of the design" test "$(ctl mesa status --json | json 'sorted(d)')" = \
	"['available', 'base', 'cts', 'downloaded', 'drivers', 'enabled', 'failed', 'failed_reason', 'failed_reason_id', 'installed', 'last_bench', 'marked', 'max_tries', 'mesa_version', 'message', 'ok', 'op', 'previous', 'progress', 'ready', 'session', 'session_gl', 'session_gl_asked', 'stalled_s', 'state', 'store', 'takeover_needed', 'trial', 'tries']"
check "status names the real store path" test "$(st 'd["store"]')" = "$REAL"
check "icd/turnip.json is valid JSON with library_path through current/" \
	test "$(json 'd["ICD"]["library_path"]' <"$STORE/icd/turnip.json")" = "$REAL/current/lib/libvulkan_lvp.so"
check "the ICD's library resolves to an existing file" test -f "$(json 'd["ICD"]["library_path"]' <"$STORE/icd/turnip.json")"
check "the per-version ICD points into versions/$V1" \
	test "$(json 'd["ICD"]["library_path"]' <"$STORE/icd/versions/$V1/turnip.json")" = "$REAL/versions/$V1/lib/libvulkan_lvp.so"
check "the OpenCL vendor file names the release's rusticl" \
	test "$(cat "$STORE/icd/opencl/rusticl.icd")" = "$REAL/current/lib/libRusticlOpenCL.so.1"
check "env/current.env names the real absolute paths" \
	grep -qx "VK_DRIVER_FILES=$REAL/icd/turnip.json" "$STORE/env/current.env"
check "env/$V1.env selects that version" grep -qx "OCL_ICD_VENDORS=$REAL/icd/versions/$V1/opencl" "$STORE/env/$V1.env"
check "RUSTICL_ENABLE comes from the MANIFEST" grep -qx "RUSTICL_ENABLE=llvmpipe" "$STORE/env/current.env"
check "no LD_LIBRARY_PATH for a release that needs none" sh -c "! grep -q LD_LIBRARY_PATH '$STORE/env/current.env'"
check "env.conf is empty while off" test ! -s "$STORE/env.conf"
check "installed files are world-readable" test "$(stat -c %a "$STORE/versions/$V1/lib/libvulkan_lvp.so")" = 644
check "directories are 0755" test "$(stat -c %a "$STORE/versions/$V1/lib")" = 755

expect_exit 0 "on" ctl mesa on
check "env.conf equals env/current.env" cmp -s "$STORE/env.conf" "$STORE/env/current.env"
check "on starts a trial" test "$(st 'd["state"], d["trial"], d["tries"], d["max_tries"]')" = "('trial', '$V1', 0, 2)"

TB323FU_BOOT_ID=boot-a expect_exit 0 "boot-tick counts a start" ctl mesa boot-tick
TB323FU_BOOT_ID=boot-a expect_exit 0 "boot-tick again in the same boot" ctl mesa boot-tick
check "counted once per boot id" test "$(st 'd["tries"]')" = 1
TB323FU_BOOT_ID=boot-b ctl mesa boot-tick >/dev/null
check "second boot counted" test "$(st 'd["tries"], d["enabled"]')" = "(2, True)"
TB323FU_BOOT_ID=boot-c expect_exit 0 "boot-tick after max_tries unconfirmed starts" ctl mesa boot-tick
check "switched off, failed recorded" test "$(st 'd["enabled"], d["failed"], d["trial"]')" = "(False, '$V1', '')"
check "failed_reason says why" sh -c "ctl() { \"$CTL\" --store \"$STORE\" \"\$@\"; }; ctl mesa status --json | grep -q 'not confirmed'"
check "failed_reason_id is trial-expired, failed_reason carries no command line" \
	test "$(st 'd["failed_reason_id"], "`" in d["failed_reason"]')" = "('trial-expired', False)"
check "env.conf is empty after the switch-off" test ! -s "$STORE/env.conf"

expect_exit 0 "on again" ctl mesa on
expect_exit 0 "keep" ctl mesa keep
check "keep ends the trial" test "$(st 'd["state"], d["trial"], d["enabled"], d["failed"]')" = "('idle', '', True, '')"
TB323FU_BOOT_ID=boot-d ctl mesa boot-tick >/dev/null
check "boot-tick counts nothing after keep" test "$(st 'd["tries"], d["enabled"]')" = "(0, True)"

expect_exit 0 "install-local a second version" ctl mesa install-local "$R2" --no-smoke
check "second version current, first previous" test "$(st 'd["installed"], d["previous"]')" = "('$V2', '$V1')"
check "a new version while on restarts the trial" test "$(st 'd["state"], d["trial"], d["tries"]')" = "('trial', '$V2', 0)"
check "env.conf follows current" cmp -s "$STORE/env.conf" "$STORE/env/current.env"
check "current/ points at the new version" test "$(readlink "$STORE/current")" = "versions/$V2"

expect_exit 0 "rollback" ctl mesa rollback
check "rollback swaps current and previous" test "$(st 'd["installed"], d["previous"]')" = "('$V1', '$V2')"
check "the ICD still goes through current/" test "$(readlink -f "$STORE/current")" = "$REAL/versions/$V1"

expect_exit 0 "install-local a third version" ctl mesa install-local "$R3" --no-smoke
check "third current, the one before previous" test "$(st 'd["installed"], d["previous"]')" = "('$V3', '$V1')"
expect_exit 1 "remove refuses current" ctl --json mesa remove "$V3"
reason_is in-use
check "…with a sentence" grep -q "is current" "$T/err"
expect_exit 1 "remove refuses previous" ctl --json mesa remove "$V1"
reason_is in-use
expect_exit 0 "remove an older version" ctl mesa remove "$V2"
check "its tree and files are gone" sh -c "test ! -e '$STORE/versions/$V2' && test ! -e '$STORE/env/$V2.env' && test ! -e '$STORE/icd/versions/$V2'"
expect_exit 1 "remove an unknown version" ctl --json mesa remove 1999.1.1
reason_is not-installed
expect_exit 2 "remove a version with a slash" ctl --json mesa remove "../$V1"
reason_is usage

check "list --json: newest first with the design's keys" test \
	"$(ctl mesa list --json | json '[(v["version"], v["current"], v["previous"], v["smoke"], sorted(v)) for v in d["versions"]]')" = \
	"[('$V3', True, False, 'none', ['bench', 'bytes', 'current', 'drivers', 'marked', 'mesa_version', 'previous', 'smoke', 'suite', 'version']), ('$V1', False, True, 'none', ['bench', 'bytes', 'current', 'drivers', 'marked', 'mesa_version', 'previous', 'smoke', 'suite', 'version'])]"
check "other commands' --json has ok and message" test "$(ctl mesa keep --json | json 'd["ok"], bool(d["message"])')" = "(True, True)"

# keep_versions=2: a fourth install prunes what is neither current nor previous
printf 'keep_versions = 2\n' >"$TB323FU_MESA_CONFIG"
R4=$(standin 2026.10.08)
ctl mesa install-local "$R2" --no-smoke >/dev/null
ctl mesa install-local "$R4" --no-smoke >/dev/null
check "install keeps current and previous only" test "$(ls "$STORE/versions" | tr '\n' ' ')" = "2026.10.07 2026.10.08 "

expect_exit 0 "off" ctl mesa off
check "off empties env.conf" test ! -s "$STORE/env.conf"
check "off says the distribution's Mesa is used" grep -q "distribution's Mesa is used from the next login" "$T/out"
done_testing
