#!/bin/sh
# `bench` with Debian's real clpeak on a stand-in release, on a machine where other OpenCL
# platforms are registered too (Clover from mesa-opencl-icd offers no device; PoCL may): each
# side sees only the rusticl it compares, clpeak's XML results are read, and both columns
# come out. One cheap test (--tests compute-sp) for one round, which still takes clpeak a minute
# and more on each side here: the full tier's (bench.sh runs bench end to end in the quick one).
# tests/run: full
. "$TB_TOP/tests/lib.sh"

if ! command -v clpeak >/dev/null; then
	skip "bench with the real clpeak" "clpeak is not installed (apt-get install clpeak)"
	done_testing
	exit 0
fi
V=2026.08.02
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
others=$(grep -L 'libRusticlOpenCL' /etc/OpenCL/vendors/*.icd 2>/dev/null | tr '\n' ' ')
echo "# other OpenCL vendors registered here: ${others:-none}"

# Debian's clpeak on rusticl (llvmpipe) now and then dies of SIGSEGV on a loaded machine, on
# either side, after printing its figures: bench reports that as it should (a failed round, the
# figures kept). That is a fault of the programs under test, not of bench, so one such round
# is run again, said in a diagnostic line; any other failure, or a second crash, fails.
run_cmd ctl --progress bar mesa bench --tests compute-sp --rounds 1
if [ "$rc" -eq 1 ] && grep -q '^tb323fu-ctl: clpeak exited with signal' "$T/err"; then
	echo "# clpeak crashed, bench said so; once more: $(grep '^tb323fu-ctl: ' "$T/err" | head -n 1)"
	run_cmd ctl --progress bar mesa bench --tests compute-sp --rounds 1
fi
if [ "$rc" -eq 0 ]; then ok "bench --tests compute-sp --rounds 1 with the real clpeak"; else
	not_ok "bench --tests compute-sp --rounds 1 with the real clpeak" "exit $rc, wanted 0" \
		"stdout: $(head -c 600 "$T/out")" "stderr: $(head -c 600 "$T/err")"; fi
check "a table with both columns" sh -c "head -n 1 '$T/out' | grep -q '^figure  *store median (range)  *distribution  *ratio'"
check "clpeak's single-precision figures on both sides, the unit named once" \
	grep -q '^Single-precision compute / float \[GFLOPS\]  *[0-9.]* ([0-9.-]*)  *[0-9.]* ([0-9.-]*) ' "$T/out"
check "the store's side used the store's vendor file and ICD" \
	grep -qx "store: OpenCL $STORE/icd/versions/$V/opencl/rusticl.icd, Vulkan $STORE/icd/versions/$V/turnip.json" "$T/out"
check "the distribution's side used the system's rusticl.icd and lavapipe's ICD" \
	grep -q "^distribution: OpenCL /etc/OpenCL/vendors/[^ ]*\.icd, Vulkan /[^ ]*/lvp_icd\.[^ ]*json$" "$T/out"
check "the sentence: one round, too few to tell, and the rounds that would" \
	grep -q "^Mesa $V against the distribution's Mesa: unclear, [0-9.]*x, but 1 round gives no 95 % interval; the spread seen would need about 6 rounds to tell: run it again with --rounds 6 (clpeak, 1 round, " "$T/out"
check "one progress line per round and side" \
	test "$(grep -c '^bench  *\(store\|distribution\):1/1  *pass$' "$T/err")" = 2

# The run's result as smoke/<v>.json keeps it (what --json prints): one run of the real
# clpeak is slow enough.
check "the result: the vendor file and ICD of each side, no failure" \
	test "$(json 'd["bench"]["sides"]["store"]["opencl_vendor"], d["bench"]["sides"]["distribution"]["opencl_vendor"].startswith("/etc/OpenCL/vendors/"), d["bench"]["failures"]' <"$STORE/smoke/$V.json")" = \
	"('$STORE/icd/versions/$V/opencl/rusticl.icd', True, [])"
check "the result: clpeak's figures have one value on each side" \
	test "$(json 'sorted({len(f["store"]["values"]) == len(f["distribution"]["values"]) == 1 for f in d["bench"]["figures"]}), any(f["name"].startswith("Single-precision compute / ") for f in d["bench"]["figures"])' <"$STORE/smoke/$V.json")" = "([True], True)"
done_testing
