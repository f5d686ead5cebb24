#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run, step cts-release) after in-root.sh:
# the aarch64 CTS release published to the fake GitHub at $API beside the Mesa stand-in is
# installed by `cts update` with the signature required (docs/design.md §20), and the suites
# then run a bounded set from it through the store's Mesa (`run --version V`) and Debian's
# (`distro`), emulated, with no --deqp or --cts: dEQP-VK's groups from the lists the release
# ships, a fraction of them, and ten of OpenCL-CTS's test_basic's sub-tests. Prints each
# side's counts and the wall time of each run.
# Environment: TB_BIN (the aarch64 programs), API, V (the installed Mesa stand-in), W (the work
# directory: store/ and mesa.conf of in-root.sh), CTS_V (the CTS release's version),
# CTS_DEQP_GROUPS (default api.smoke,compute), CTS_DEQP_FRACTION (default 40: every 40th case),
# CTS_SUBTESTS (default: ten of test_basic's sub-tests, not the cts step's four; set and empty:
# all of them), CTS_JOBS (default 2).
set -u
: "${TB_BIN:?}" "${API:?}" "${V:?}" "${W:?}" "${CTS_V:?}"
CTL=$TB_BIN/tb323fu-ctl
STORE=$W/store
T=$W/cts-release
mkdir -p "$T"
export TB323FU_MESA_CONFIG=$W/mesa.conf
export TB323FU_MESA_SMOKE_TIMEOUT=${TB323FU_MESA_SMOKE_TIMEOUT:-900}
groups=${CTS_DEQP_GROUPS:-api.smoke,compute}
fraction=${CTS_DEQP_FRACTION:-40}
jobs=${CTS_JOBS:-2}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"; }
# counts FILE: each side's results of a suite's JSON answer, a line each.
counts() {
	python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for side in ("store", "distribution"):
    c = d.get("counts", {}).get(side, {})
    print("#   %-13s %s" % (side, ", ".join("%s %d" % kv for kv in sorted(c.items())) or "nothing"))
print("#   %d compared, %d regressions, %d fixed" % (d.get("tests", 0), len(d.get("regressions") or []), len(d.get("fixed") or [])))
EOF
}

check "the Mesa stand-in $V is installed (in-root.sh)" test -f "$STORE/versions/$V/MANIFEST"
grep -q '^require_signature = true' "$TB323FU_MESA_CONFIG" && ok "signatures are required" || not_ok "signatures are required"

start=$(date +%s)
if "$CTL" --store "$STORE" --json mesa cts update >"$T/update" 2>"$T/err"; then
	ok "cts update installs cts-$CTS_V from the fake GitHub ($(($(date +%s) - start)) s)"
else
	not_ok "cts update installs cts-$CTS_V" "$(tail -n 8 "$T/update" "$T/err")"
fi
echo "#   $(json 'd["message"]' "$T/update" 2>/dev/null)"
check "…CTS $CTS_V is the one the suites use" test "$(readlink "$STORE/cts/current" 2>/dev/null)" = "$CTS_V"
check "…built for aarch64, with dEQP-VK and OpenCL-CTS" \
	sh -c "grep -qx 'arch=aarch64' '$STORE/cts/$CTS_V/MANIFEST' && grep -q '^deqp_vk=' '$STORE/cts/$CTS_V/MANIFEST' &&
		grep -q '^opencl_cts_dir=' '$STORE/cts/$CTS_V/MANIFEST'"
"$CTL" --store "$STORE" mesa status | grep '^CTS ' | sed 's/^/#   /'
# what its dEQP-VK says it was built for (a build that took aarch64 for x86_64 said DE_CPU_X86_64)
(cd "$STORE/cts/$CTS_V/lib/deqp-vk" && ./deqp-vk --deqp-case=dEQP-VK.info.build --deqp-log-filename="$T/info.qpa" \
	--deqp-log-images=disable --deqp-log-shader-sources=disable >"$T/info.out" 2>&1)
check "…its dEQP-VK was built for the tablet's CPU (dEQP-VK.info.build says DE_CPU_ARM_64)" \
	grep -q 'DE_CPU: DE_CPU_ARM_64' "$T/info.qpa"

start=$(date +%s)
"$CTL" --store "$STORE" --json mesa smoke "$V" --suite dEQP-VK --groups "$groups" --fraction "$fraction" \
	--jobs "$jobs" >"$T/deqp" 2>"$T/deqp.err"
rc=$?
took=$(($(date +%s) - start))
cases=$(json 'd.get("cases", 0)' "$T/deqp" 2>/dev/null)
if [ $rc -eq 0 ]; then
	ok "dEQP-VK $groups, every ${fraction}th case ($cases cases) through both sides under qemu-user, no regression ($took s)"
else
	not_ok "dEQP-VK $groups through both sides (exit $rc, $took s)" "$(tail -n 8 "$T/deqp" "$T/deqp.err")"
fi
counts "$T/deqp"
check "…cases ran on both sides" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["tests"] > 0 and d["passed"]["store"] > 0 and d["passed"]["distribution"] > 0 else 1)' "$T/deqp"

start=$(date +%s)
subtests=${CTS_SUBTESTS-'^basic/(arraycopy|arrayreadwrite|barrier|constant|if|loop|local_kernel_scope|pointer_cast|global_work_offsets|work_item_functions)$'}
set -- --tests basic
[ -z "$subtests" ] || set -- "$@" --subtests "$subtests"
"$CTL" --store "$STORE" --json mesa smoke "$V" --suite opencl-cts "$@" --jobs "$jobs" >"$T/cl" 2>"$T/cl.err"
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 0 ]; then
	ok "OpenCL-CTS test_basic (${subtests:-all}: $(json 'd["tests"]' "$T/cl") sub-tests) through both sides under qemu-user, no regression ($took s)"
else
	not_ok "OpenCL-CTS test_basic through both sides (exit $rc, $took s)" "$(tail -n 8 "$T/cl" "$T/cl.err")"
fi
counts "$T/cl"
check "…sub-tests passed on both sides" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["passed"]["store"] > 0 and d["passed"]["distribution"] > 0 else 1)' "$T/cl"
echo "1..$n"
