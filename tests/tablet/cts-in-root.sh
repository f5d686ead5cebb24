#!/bin/sh
# Runs inside the arm64 Debian 13 root (tests/tablet/run, step cts): OpenCL-CTS's test_basic,
# cross-built for aarch64 by `build-recipes/opencl-cts --arch aarch64 --tests basic`, through
# the store's rusticl (`run --version V`) and through Debian's (`distro`), a few sub-tests at a
# time, emulated. Prints each side's results and the wall time.
# Environment: TB_BIN (the aarch64 programs), STORE (V installed), V, CTS (the binaries' dir),
# CTS_SUBTESTS (default four quick sub-tests of test_basic), TB323FU_MESA_CONFIG.
set -u
: "${TB_BIN:?}" "${STORE:?}" "${V:?}" "${CTS:?}"
CTL=$TB_BIN/tb323fu-ctl
subtests=${CTS_SUBTESTS:-'^basic/(hostptr|fpmath|intmath_int|astype)$'}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; return 0; }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
T=$(mktemp -d "${TMPDIR:-/tmp}/cts-in-root.XXXXXX")
trap 'rm -rf "$T"' EXIT

check "test_basic is an aarch64 executable" sh -c "od -An -tx1 -j18 -N2 '$CTS/test_basic' | grep -q 'b7 00'"
start=$(date +%s)
"$CTL" --store "$STORE" --json mesa smoke "$V" --suite opencl-cts --cts "$CTS" --tests basic \
	--subtests "$subtests" >"$T/out" 2>"$T/err"
rc=$?
took=$(($(date +%s) - start))
if [ $rc -eq 0 ]; then
	ok "test_basic ($subtests) through both sides under qemu-user, no regression ($took s)"
else
	not_ok "test_basic through both sides under qemu-user (exit $rc, $took s)" "$(tail -n 8 "$T/out" "$T/err")"
fi
python3 - "$T/out" <<'EOF' || not_ok "…its results"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d.get("results", []):
    print(f"#   {t['name']:28} store {t['store']:8} distribution {t['distribution']}")
sys.exit(0 if d.get("results") else 1)
EOF
check "…each sub-test passes on both sides" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["results"] and all(t["store"] == t["distribution"] == "pass" for t in d["results"]) else 1)' "$T/out"
echo "1..$n"
