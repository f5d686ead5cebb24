#!/bin/sh
# `smoke --deqp PATH --caselist FILE` on a fake dEQP-VK that writes a QPA log in the real
# format: every status is counted, a crash or a hang ends only its case (the run restarts
# after it), and dEQP runs under the version's environment in its own directory (both sides:
# suite_deqp.sh).
. "$TB_TOP/tests/lib.sh"

V=2026.04.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
FAKE=$TB_TOP/tests/doubles/fake-deqp-vk
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
REAL=$(cd "$STORE" && pwd -P)

cat >"$T/cases.txt" <<'EOF2'
dEQP-VK.compute.fake.pass_1
dEQP-VK.compute.fake.fail_1
dEQP-VK.compute.fake.notsupported_1
dEQP-VK.compute.fake.qualitywarning_1
dEQP-VK.compute.fake.compatibilitywarning_1

dEQP-VK.synchronization.fake.crash_1
dEQP-VK.synchronization.fake.pass_2
dEQP-VK.synchronization.fake.watchdog_1
dEQP-VK.synchronization.fake.pass_3
dEQP-VK.synchronization.fake.hang_1
dEQP-VK.synchronization.fake.pass_4
dEQP-VK.synchronization.fake.noresult_1
EOF2
export FAKE_DEQP_RECORD="$T/record"
TB323FU_MESA_SMOKE_TIMEOUT=2 expect_exit 6 "a case list with failures exits 6" \
	ctl mesa smoke $V --deqp "$FAKE" --caselist "$T/cases.txt" --json
check "counts: every status of the log" \
	test "$(json 'd["counts"]' <"$T/out")" = \
	"{'Pass': 4, 'Fail': 2, 'NotSupported': 1, 'QualityWarning': 1, 'CompatibilityWarning': 1, 'Crash': 1, 'Timeout': 2, 'Other': 0}"
check "passed, failed, skipped in the smoke format" \
	test "$(json 'd["version"], d["passed"], d["failed"], d["skipped"], len(d["tests"])' <"$T/out")" = "('$V', 6, 5, 1, 12)"
check "each case in list order with its status" \
	test "$(json '[t["status"] for t in d["tests"]]' <"$T/out")" = \
	"['pass', 'fail', 'skip', 'pass', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail', 'pass', 'fail']"
check "the failure's text, XML entities decoded" \
	test "$(json 'd["tests"][1]["detail"]' <"$T/out")" = "Fail: Result comparison failed: 3 < 4 && 5 > 4"
check "a warning passes with the warning in its detail" \
	test "$(json 'd["tests"][3]["detail"]' <"$T/out")" = "QualityWarning: Precision lower than expected"
check "the crash names the signal" \
	sh -c "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tests\"][5][\"detail\"])' <'$T/out' | grep -q '^Crash: dEQP-VK died with signal 11'"
check "dEQP's own watchdog counts as a timeout" \
	test "$(json 'd["tests"][7]["detail"]' <"$T/out")" = "Timeout: dEQP terminated the case: Timeout"
check "a hung case is killed and counted as a timeout" \
	test "$(json 'd["tests"][9]["detail"]' <"$T/out")" = "Timeout: no result within 2 s; dEQP-VK was killed"
check "a case without a result fails" test "$(json 'd["tests"][11]["status"]' <"$T/out")" = fail
check "durations come from the log" test "$(json 'd["tests"][0]["ms"]' <"$T/out")" = 2
check "dEQP ran four times: after the crash, the watchdog and the hang" test "$(wc -l <"$T/record")" = 4
check "…each time in its own directory, under the version's Vulkan driver" \
	test "$(sort -u "$T/record")" = "cwd=$TB_TOP/tests/doubles VK_DRIVER_FILES=$REAL/icd/versions/$V/turnip.json"
check "the sentence gives the counts" grep -q "5 of 12 cases failed (4 Pass, 2 Fail, 1 NotSupported, 1 QualityWarning, 1 CompatibilityWarning, 1 Crash, 2 Timeout, 0 other)" "$T/err"

printf 'dEQP-VK.compute.fake.pass_1\ndEQP-VK.compute.fake.notsupported_1\ndEQP-VK.compute.fake.compatibilitywarning_1\n' >"$T/good.txt"
expect_exit 0 "a case list without failures exits 0" ctl mesa smoke --deqp "$FAKE" --caselist "$T/good.txt"
check "the human output: a line a case and the sentence" \
	test "$(grep -c '^dEQP-VK\.' "$T/out") $(tail -n 1 "$T/out")" = \
	"3 dEQP-VK on Mesa $V: no case failed (1 Pass, 0 Fail, 1 NotSupported, 0 QualityWarning, 1 CompatibilityWarning, 0 Crash, 0 Timeout, 0 other)"
check "the smoke result of the version is not replaced by dEQP's" test ! -e "$STORE/smoke/$V.json"

: >"$T/empty.txt"
expect_exit 2 "an empty case list" ctl mesa smoke --deqp "$FAKE" --caselist "$T/empty.txt"
check "…is one sentence" grep -q "names no test case" "$T/err"
expect_exit 2 "a missing dEQP binary" ctl mesa smoke --deqp "$T/nothing" --caselist "$T/good.txt"
printf '#!/bin/sh\necho "cannot open the Vulkan library" >&2\nexit 1\n' >"$T/broken-deqp"
chmod 755 "$T/broken-deqp"
expect_exit 1 "a dEQP that runs no case" ctl mesa smoke --deqp "$T/broken-deqp" --caselist "$T/good.txt"
check "…says so with its last message" grep -q "ran no test case (exit status 1: cannot open the Vulkan library)" "$T/err"

# A dEQP that logs another case than the list's (here one with a terminal escape in its name, or
# one longer than the runner keeps) finishes nothing of the list: it is restarted a bounded
# number of times, then the cases left are reported as not run, naming what it logged. The
# outer timeout only bounds a runner that would restart it forever.
printf 'dEQP-VK.compute.fake.pass_1\ndEQP-VK.compute.fake.alien_1\ndEQP-VK.compute.fake.pass_2\n' >"$T/alien.txt"
: >"$T/record"
expect_exit 6 "a dEQP that logs a case not in the list is not restarted forever" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa smoke --deqp "$FAKE" --caselist "$T/alien.txt" --json
check "…four runs: the first, then three without progress" test "$(wc -l <"$T/record")" = 4
check "…the cases left are not run, the logged name escaped" \
	test "$(json '[(t["name"], t["status"]) for t in d["tests"]], d["tests"][2]["detail"]' <"$T/out")" = \
	"([('dEQP-VK.compute.fake.pass_1', 'pass'), ('dEQP-VK.compute.fake.alien_1 [2Jrenamed', 'fail'), ('dEQP-VK.compute.fake.alien_1', 'fail'), ('dEQP-VK.compute.fake.pass_2', 'fail')], 'NotRun: not run: dEQP-VK kept logging \"dEQP-VK.compute.fake.alien_1 [2Jrenamed\", which is not in the case list, instead of the next case; it ended with signal 11 (Segmentation fault)')"
check "…no terminal escape reaches the output" sh -c "! grep -q \"\$(printf '\\033')\" '$T/out' '$T/err'"
printf 'dEQP-VK.compute.fake.longname_1\ndEQP-VK.compute.fake.pass_1\n' >"$T/long.txt"
: >"$T/record"
expect_exit 6 "a dEQP that logs a case name over 512 bytes is not restarted forever" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa smoke --deqp "$FAKE" --caselist "$T/long.txt" --json
check "…three runs without progress" test "$(wc -l <"$T/record")" = 3
check "…the cases are not run, the name cut" \
	test "$(json '[t["status"] for t in d["tests"]], d["tests"][0]["detail"][:71], d["tests"][0]["detail"].endswith("0..." + chr(34) + ", which is not in the case list, instead of the next case; it ended with signal 11 (Segmentation fault)")' <"$T/out")" = \
	"(['fail', 'fail'], 'NotRun: not run: dEQP-VK kept logging \"dEQP-VK.compute.fake.longname_10', True)"
printf 'dEQP-VK.compute.fake.pass_%0600d\n' 1 >"$T/toolong.txt"
expect_exit 2 "a case list with a name over 512 bytes is refused" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa smoke --deqp "$FAKE" --caselist "$T/toolong.txt"
check "…in one sentence" grep -q "names a case of 626 bytes.*dEQP-VK case names have at most 512" "$T/err"

done_testing
