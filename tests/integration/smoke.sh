#!/bin/sh
# The smoke tests after install on stand-in releases (real loaders, lavapipe and rusticl on
# llvmpipe, its GL on llvmpipe and Zink): a good release passes all eight; a release that claims Turnip's driverID or ships a
# Vulkan driver that does not work is rolled back; a crashing or hanging smoke program is a
# failure with a detail, not a hang.
. "$TB_TOP/tests/lib.sh"

V1=2026.03.01
V2=2026.03.02
V3=2026.03.03
R1=$(standin $V1) && R2=$(standin $V2 --vulkan-driver-id 18) ||
	{ not_ok "stand-in releases"; done_testing; exit 1; }
st() { ctl mesa status --json | json "$1"; }
result() { json "$1" <"$STORE/smoke/$2.json"; }
multiarch=$(gcc -print-multiarch)
SYSTEM_LVP=/usr/lib/$multiarch/libvulkan_lvp.so

# --- a good release -------------------------------------------------------------------------
expect_exit 0 "install-local $V1 runs the smoke tests and passes" \
	ctl --progress json mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS"
check "the sentence says the smoke tests passed" grep -q "passed its smoke tests" "$T/out"
check "progress reported each test as it ran and as it passed" \
	test "$(grep -c '"op":"smoke".*"status":"run"' "$T/err") $(grep -c '"op":"smoke".*"status":"pass"' "$T/err")" = "8 8"
REAL=$(cd "$STORE" && pwd -P)
check "smoke/$V1.json: 8 passed, none failed or skipped" \
	test "$(result 'd["version"], d["passed"], d["failed"], d["skipped"]' $V1)" = "('$V1', 8, 0, 0)"
check "smoke/$V1.json names the eight tests in order, each with status, ms and detail" \
	test "$(result '[(t["name"], t["status"], type(t["ms"]).__name__, bool(t["detail"])) for t in d["tests"]]' $V1)" = \
	"[('vk.loader', 'pass', 'int', True), ('vk.driver', 'pass', 'int', True), ('vk.compute', 'pass', 'int', True), ('vk.sync', 'pass', 'int', True), ('cl.platform', 'pass', 'int', True), ('cl.kernel', 'pass', 'int', True), ('gl.draw', 'pass', 'int', True), ('gl.zink', 'pass', 'int', True)]"
check "the system's lavapipe is installed alongside" test -f "$SYSTEM_LVP"
check "vk.driver saw the store's copy of lavapipe, driverID 13" \
	test "$(result 'd["tests"][1]["detail"]' $V1)" = "$REAL/versions/$V1/lib/libvulkan_lvp.so, driverID 13 (llvmpipe)"
check "cl.platform's library is the store's rusticl" \
	sh -c "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tests\"][4][\"detail\"])' <'$STORE/smoke/$V1.json' | grep -q 'from $REAL/versions/$V1/lib/libRusticlOpenCL'"
check "list shows the smoke result" test "$(ctl mesa list --json | json '[v["smoke"] for v in d["versions"]]')" = "['pass']"

expect_exit 0 "smoke (current) passes again" ctl mesa smoke
check "it prints a line per test and the sentence" \
	test "$(grep -c ' pass ' "$T/out") $(tail -n 1 "$T/out")" = "8 Mesa $V1 passed its smoke tests (8 passed, 0 skipped)"
expect_exit 0 "smoke $V1 --json" ctl mesa smoke $V1 --json
check "--json: the result format plus ok and message" \
	test "$(json 'sorted(d), d["ok"], d["passed"]' <"$T/out")" = \
	"(['failed', 'message', 'ok', 'passed', 'skipped', 'tests', 'version'], True, 8)"

# The check tells the copies apart: the same program under the distribution's Mesa fails.
expect_exit 1 "the smoke program under \`distro\` fails vk.driver" \
	mesa distro "$SMOKE" --json --vulkan-lib "$REAL/versions/$V1/lib/libvulkan_lvp.so" --no-opencl
check "…naming a system driver" \
	sh -c "python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"tests\"][1][\"status\"], d[\"tests\"][1][\"detail\"])' <'$T/out' | grep -q '^fail the Vulkan driver mapped is /usr/lib/$multiarch/'"
expect_exit 0 "the smoke program under \`run\` passes vk.driver" \
	mesa run "$SMOKE" --json --vulkan-lib "$REAL/versions/$V1/lib/libvulkan_lvp.so" --driver-id 13 --no-opencl

# --- a release whose driverID claims Turnip ---------------------------------------------------
expect_exit 6 "install-local of a release claiming driverID 18 is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
reason_is smoke-failed
check "status: failed_reason_id smoke-failed, failed_reason without command-line syntax" \
	test "$(st 'd["failed_reason_id"], "`" in d["failed_reason"]')" = "('smoke-failed', False)"
check "the sentence names vk.driver, says the version was removed and how to look" \
	sh -c "grep -q 'vk.driver' '$T/err' && grep -q 'Mesa $V2 failed its smoke test (.*) and was removed from the store' '$T/err' && grep -q 'tb323fu-ctl --store $STORE mesa status' '$T/err'"
check "$V1 is current again" test "$(st 'd["installed"]')" = "$V1"
check "current links to $V1" test "$(readlink "$STORE/current")" = "versions/$V1"
check "failed is $V2, failed_reason names vk.driver and 18" \
	sh -c "test \"\$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"failed\"])' <<EOF2
\$('$CTL' --store '$STORE' mesa status --json)
EOF2
)\" = $V2 && '$CTL' --store '$STORE' mesa status --json | grep -q 'vk.driver: driverID is 13.*expects 18'"
check "the failed version's tree and smoke result are gone (the state keeps the failure)" \
	test ! -e "$STORE/versions/$V2" -a ! -e "$STORE/smoke/$V2.json"
check "env/current.env selects $V1 again" grep -q "versions/$V1\|icd/turnip.json" "$STORE/env/current.env"
check "the failed version is not offered as waiting for install" test "$(st 'd["downloaded"], d["state"]')" = "('', 'idle')"

# --- a release whose Vulkan driver does not work ----------------------------------------------
mkdir -p "$T/stage/lib" "$T/broken"
cat >"$T/broken.c" <<'EOF2'
/* Exports the ICD entry point, so it passes the ELF check, but offers nothing. */
void *vk_icdGetInstanceProcAddr(void *instance, const char *name) { return 0; }
EOF2
cc -shared -fPIC -o "$T/stage/lib/libvulkan_broken.so.1" "$T/broken.c" && chmod 644 "$T/stage/lib/libvulkan_broken.so.1"
ln -s libvulkan_broken.so.1 "$T/stage/lib/libvulkan_broken.so"
ctl mesa pack --stage "$T/stage" --version $V3 --drivers vulkan --vulkan-lib lib/libvulkan_broken.so \
	--vulkan-api 1.3.0 --vulkan-driver-id 13 "$T/broken" >/dev/null
R3=$(ls "$T/broken"/tb323fu-mesa-$V3-*.tar.*)
expect_exit 6 "install-local of a release with a broken Vulkan driver is rolled back" \
	ctl --json --progress json mesa install-local "$R3" --sums "$T/broken/SHA256SUMS"
reason_is smoke-failed
check "the sentence names vk.loader" grep -q "vk.loader" "$T/err"
check "$V1 is still current, $V3 recorded as failed" test "$(st 'd["installed"], d["failed"]')" = "('$V1', '$V3')"
check "the OpenCL tests were skipped: the release has no OpenCL driver" \
	test "$(python3 -c 'import json,sys; print([d["status"] for d in map(json.loads, sys.stdin) if d.get("op") == "smoke" and d.get("test", "").startswith("cl.") and d["status"] != "run"])' <"$T/err")" = "['skip', 'skip']"

# --- a failing first install leaves nothing current --------------------------------------------
STORE1=$STORE
STORE=$T/store-first
expect_exit 6 "a first install that fails its smoke tests" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
reason_is smoke-failed
check "no version is current, failed is set" test "$(st 'd["installed"], d["failed"]')" = "('', '$V2')"
check "the sentence says none is current" grep -q "no store version is current" "$T/err"
STORE=$STORE1

# --- a smoke program that crashes or hangs ----------------------------------------------------
cat >"$T/crashing-smoke" <<'EOF2'
#!/bin/sh
echo '{"event":"start","name":"vk.loader"}'
echo '{"event":"result","name":"vk.loader","status":"pass","ms":3,"detail":"fine"}'
echo '{"event":"start","name":"vk.driver"}'
echo "driver: about to fall over" >&2
kill -SEGV $$
EOF2
cat >"$T/hanging-smoke" <<'EOF2'
#!/bin/sh
echo '{"event":"start","name":"vk.loader"}'
sleep 100017
EOF2
chmod 755 "$T/crashing-smoke" "$T/hanging-smoke"
TB323FU_MESA_SMOKE=$T/crashing-smoke expect_exit 6 "a smoke program that crashes fails the run" ctl --json mesa smoke $V1
reason_is smoke-failed
check "the crashed test fails with the signal and the last message" \
	test "$(result '[t["status"] for t in d["tests"]], d["tests"][1]["detail"]' $V1)" = \
	"(['pass', 'fail', 'skip', 'skip', 'skip', 'skip', 'skip', 'skip'], 'the smoke program crashed with signal 11 (Segmentation fault); its last message: driver: about to fall over')"
check "the sentence names the crashed test" grep -q "vk.driver: the smoke program crashed" "$T/err"
check "list shows the failure" test "$(ctl mesa list --json | json '[v["smoke"] for v in d["versions"] if v["version"] == "'$V1'"]')" = "['fail']"
TB323FU_MESA_SMOKE=$T/hanging-smoke TB323FU_MESA_SMOKE_TIMEOUT=1 expect_exit 6 "a smoke program that hangs is killed" ctl --json mesa smoke $V1
reason_is smoke-failed
check "the hung test fails naming the timeout" \
	test "$(result 'd["tests"][0]["status"], d["tests"][0]["detail"]' $V1)" = "('fail', 'timed out after 1 s and was killed')"
check "no process of the hung run is left" sh -c "! pgrep -f 'sleep 10001[7]' >/dev/null"
cat >"$T/exiting-smoke" <<'EOF2'
#!/bin/sh
echo '{"event":"start","name":"vk.loader"}'
echo "driver: giving up" >&2
exit 3
EOF2
chmod 755 "$T/exiting-smoke"
TB323FU_MESA_SMOKE=$T/exiting-smoke expect_exit 6 "a smoke program that exits inside a test fails the run" ctl --json mesa smoke $V1
reason_is smoke-failed
check "that test fails with the exit status, the rest did not run" \
	test "$(result '[t["status"] for t in d["tests"]], d["tests"][0]["detail"]' $V1)" = \
	"(['fail', 'skip', 'skip', 'skip', 'skip', 'skip', 'skip', 'skip'], 'the smoke program ended with exit status 3 before reporting it; its last message: driver: giving up')"
TB323FU_MESA_SMOKE=$T/missing expect_exit 1 "without the smoke program: one sentence" ctl --json mesa smoke $V1
reason_is program-missing
check "…that says what to do" grep -q "TB323FU_MESA_SMOKE" "$T/err"

# --- arguments --------------------------------------------------------------------------------
expect_exit 1 "smoke of a version that is not installed" ctl --json mesa smoke 2020.01.01
reason_is not-installed
expect_exit 2 "smoke of something that is not a version" ctl --json mesa smoke ../etc
reason_is usage
expect_exit 2 "--deqp without --caselist" ctl --json mesa smoke --deqp /bin/true
reason_is usage
expect_exit 0 "smoke $V1 passes again with the real program" ctl mesa smoke $V1
done_testing
