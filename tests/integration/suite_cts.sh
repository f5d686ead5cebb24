#!/bin/sh
# The opencl-cts suite tier on a stand-in release: test binaries run through `run --version V`
# and through `distro`, sub-test by sub-test. First on a double that speaks the CTS harness's
# interface (tests/doubles/fake-cts): a regression, a crash and a hang on the store's side only,
# each named as such; a budget that runs out says what did not run; smoke_suite = opencl-cts
# rolls a regressing release back. Then, when the shared upstream archives are there, the real
# test_basic built by build-recipes/opencl-cts and four of its sub-tests on both sides, and a
# release whose clEnqueueMapBuffer fails named with exactly the one sub-test that maps a buffer.
. "$TB_TOP/tests/lib.sh"

V1=2026.06.01
V2=2026.06.02
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
suite() { json "$1" <"$STORE/smoke/$2.json"; }
expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS"

# the double as two binaries, one beside the other (test_fake) and one in a CTS build tree's
# layout (other/test_other)
mkdir -p "$T/cts/other"
cp "$TB_TOP/tests/doubles/fake-cts" "$T/cts/test_fake"
cp "$TB_TOP/tests/doubles/fake-cts" "$T/cts/other/test_other"
export FAKE_CTS_RECORD="$T/record" FAKE_CTS_ENV_RECORD="$T/env-record"
cts() { ctl mesa smoke "$@" --suite opencl-cts --cts "$T/cts"; }
result() { json "[t['store'] + '/' + t['distribution'] for t in d['results'] if t['name'] == '$1'][0]" <"$T/out"; }

# --- every kind of result, and a crash and a hang named ------------------------------------------
: >"$T/record"
TB323FU_MESA_CTS_TIMEOUT=10 expect_exit 6 "two binaries: a regression, a crash and a hang on the store's side" \
	cts $V1 --tests fake,other --jobs 1 --json
check "…regressions are exactly those three" \
	test "$(json 'd["regressions"], d["fixed"], d["tests"], d["binaries"], d["not_run"]' <"$T/out")" = \
	"(['fake/crash', 'fake/hang', 'fake/regress'], ['fake/fixed'], 9, ['fake', 'other'], [])"
check "…the crash is a crash, the hang a timeout" \
	test "$(result fake/crash) $(result fake/hang)" = "crash/pass timeout/pass"
check "…the others kept their results" \
	test "$(result fake/pass_a) $(result fake/fail_both) $(result fake/skip_both) $(result other/pass_c)" = \
	"pass/pass fail/fail skip/skip pass/pass"
check "…reason suite-regression, the sentence names them" \
	test "$(json 'd["reason"], "fake/crash, fake/hang, fake/regress" in d["message"]' <"$T/out")" = "('suite-regression', True)"
check "smoke/$V1.json keeps the comparison" \
	test "$(suite 'd["suites"]["opencl-cts"]["regressions"]' $V1)" = "['fake/crash', 'fake/hang', 'fake/regress']"
check "both sides: CL_DEVICE_TYPE=all, -w, the chosen sub-tests on the command line" \
	grep -qx 'distribution all test_fake -w pass_a pass_b fail_both skip_both regress fixed crash hang' "$T/record"
check "…the store's side, after the crash, ran those before it together, then it alone, then the hang alone; then the regression and the crash once more (not the hang), split again at the crash" \
	test "$(grep '^store all test_fake' "$T/record" | cut -d' ' -f5- | tr '\n' ';')" = \
	"pass_a pass_b fail_both skip_both regress fixed crash hang;pass_a pass_b fail_both skip_both regress fixed;crash;hang;regress crash;regress;crash;"
check "…nothing was flaky" test "$(json 'd["flaky"]' <"$T/out")" = "[]"
# Both sides share Mesa's shader cache, and its keys when their drivers are the same bytes: with
# it, a side run second found the first side's programs compiled, and OpenCL-CTS's compiler
# sub-tests gave the harness's differences as regressions (multiple_build_program,
# options_include_directory with the same rusticl on both sides).
check "…both sides ran alike: Mesa's shader cache off on each, every run" \
	test "$(sort -u "$T/env-record" | tr '\n' ';')" = \
	"distribution MESA_SHADER_CACHE_DISABLE=true;store MESA_SHADER_CACHE_DISABLE=true;"
check "…the distribution's side ran each binary once, then the two that regressed twice once more" \
	test "$(grep '^distribution ' "$T/record" | cut -d' ' -f3- | tr '\n' ';')" = \
	"test_fake -w pass_a pass_b fail_both skip_both regress fixed crash hang;test_fake -w regress crash;test_other -w pass_c;"

# --- two binaries at once: the same results as one after the other ------------------------------
json 'd["results"], d["regressions"], d["jobs"]' <"$T/out" >"$T/one-job"
: >"$T/record"
TB323FU_MESA_CTS_TIMEOUT=10 expect_exit 6 "--jobs 2: the two binaries at once" cts $V1 --tests fake,other --jobs 2 --json
check "…the same results and regressions" \
	test "$(json 'd["results"], d["regressions"], d["jobs"]' <"$T/out")" = "$(sed 's/, 1)$/, 2)/' "$T/one-job")"
check "…each binary's processes as with one job (the distribution's side now cached but for the retry)" \
	test "$(grep -c test_fake "$T/record") $(grep -c test_other "$T/record")" = "8 1"

# --- sub-tests that fail now and then: on our side (flaky), on the distribution's (unstable) ----
mkdir -p "$T/flaky" && cp "$TB_TOP/tests/doubles/fake-cts" "$T/flaky/test_flaky"
: >"$T/record"
flaky_run() {
	mark=$1
	shift
	FAKE_CTS_FLAKY="$T/flaky-mark$mark" FAKE_CTS_UNSTABLE="$T/unstable-mark" \
		ctl mesa smoke $V1 --suite opencl-cts --cts "$T/flaky" --tests flaky "$@"
}
expect_exit 0 "sub-tests whose results do not hold when run again are no regressions" flaky_run 1 --json
check "…the one that passed with ours the second time passes; the one that failed with the distribution's the second time fails on both sides; both are named" \
	test "$(json 'd["regressions"], sorted(d["flaky"]), [(t["name"], t["store"], t["distribution"]) for t in d["results"]]' <"$T/out")" = \
	"([], ['flaky/flaky', 'flaky/unstable'], [('flaky/flaky', 'pass', 'pass'), ('flaky/pass_f', 'pass', 'pass'), ('flaky/unstable', 'fail', 'fail')])"
check "…our side ran the three, then the two that regressed; the distribution's the three, then the one that still did" \
	test "$(cut -d' ' -f1,3- "$T/record" | tr '\n' ';')" = \
	"store test_flaky -w pass_f flaky unstable;distribution test_flaky -w pass_f flaky unstable;store test_flaky -w flaky unstable;distribution test_flaky -w unstable;"
check "…smoke/$V1.json keeps the names" test "$(suite 'sorted(d["suites"]["opencl-cts"]["flaky"])' $V1)" = "['flaky/flaky', 'flaky/unstable']"
expect_exit 0 "…the sentence names them (the distribution's first run from the cache)" flaky_run 2
check "…as run again" grep -q "; these gave another result when run again, so they are no regressions: flaky/flaky, flaky/unstable$" "$T/out"

# --- the distribution's side from the cache, sub-tests chosen -----------------------------------
: >"$T/record"
expect_exit 0 "--subtests: only matching sub-tests, no regression" \
	cts $V1 --tests fake,other --subtests 'pass_|fixed' --json
check "…the three of fake and the one of other" \
	test "$(json '[t["name"] for t in d["results"]], d["subtests"]' <"$T/out")" = \
	"(['fake/fixed', 'fake/pass_a', 'fake/pass_b', 'other/pass_c'], 'pass_|fixed')"
expect_exit 0 "…again, with progress" \
	ctl --progress json mesa smoke $V1 --suite opencl-cts --cts "$T/cts" --tests fake,other --subtests 'pass_|fixed'
# other ran pass_c alone before: its distribution's side was cached then
check "…the distribution's side came from the cache: the double ran on the store's side only" \
	test "$(grep -c '^distribution ' "$T/record") $(grep -c '^store ' "$T/record")" = "1 4"
check "…the sentence says so, and that the run was partial" grep -qF "among the 4 that ran; a partial run (only the binaries --tests fake,other names; only the sub-tests --subtests pass_|fixed selects), recorded as partial, not as the whole suite; the distribution's results came from the cache" "$T/err"
check "…progress: each side's sub-tests counted up to all four, never back (the binaries run at once), then each sub-test's result" \
	test "$(python3 -c 'import json, sys
ev = [json.loads(l) for l in sys.stdin]
last = {}
for e in ev:
    if e.get("op") == "suite":
        assert e["done"] >= last.get(e["test"], 0), "a count went back"
        last[e["test"]] = e["done"]
print(sorted(last.items(), key=lambda kv: kv[0] != "opencl-cts:store"),
      [e["status"] for e in ev if e.get("test") == "opencl-cts:fake/pass_a"])' <"$T/err")" = \
	"[('opencl-cts:store', 4), ('opencl-cts:distribution', 4)] ['pass']"
check "…the counts move the percent: it rises with them, never decreases, and is 100 only on the finished line" python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
pct = [e["percent"] for e in ev]
counted = [e["percent"] for e in ev if e.get("op") == "suite"]
assert pct == sorted(pct), pct
assert len(set(counted)) >= 2 and max(counted) > 0, counted
assert ev[-1]["op"] == "finished" and ev[-1]["percent"] == 100 and 100 not in pct[:-1], pct' "$T/err"

# --- the budget --------------------------------------------------------------------------------
: >"$T/record"
TB323FU_MESA_CTS_TIMEOUT=3600 expect_exit 0 "a budget that runs out while a sub-test hangs" \
	cts $V1 --tests fake,other --subtests 'hang|pass_c' --budget 1 --jobs 1
check "…the sentence says what did not run" \
	grep -q "the budget of 1 s ran out, so these did not run: fake, other" "$T/out"
check "…nothing ran after it" test "$(grep -c test_other "$T/record")" = 0
expect_exit 0 "…--json: not_run and no result of a binary that did not finish" \
	cts $V1 --tests other,fake --subtests 'hang|pass_c' --budget 10 --jobs 1 --json
check "…other ran on both sides, fake did not finish" \
	test "$(json 'd["binaries"], d["not_run"], d["budget"]' <"$T/out")" = "(['other'], ['fake'], 10)"

# --- after install: smoke_suite = opencl-cts rolls a regression back ----------------------------
cat >"$TB323FU_MESA_CONFIG" <<EOF2
smoke_suite = opencl-cts
cts_dir = $T/cts
cts_tests = fake,other
smoke_suite_filter = pass_|regress
EOF2
expect_exit 6 "install-local $V2 with smoke_suite = opencl-cts is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "…naming exactly the regressing sub-test" \
	test "$(json 'd["reason"], "1 of 4 OpenCL-CTS sub-tests pass" in d["message"], "and not with Mesa '$V2': fake/regress)" in d["message"]' <"$T/out")" = "('suite-regression', True, True)"
check "…$V1 is current again" test "$(ctl mesa status --json | json 'd["installed"], d["failed"]')" = "('$V1', '$V2')"
: >"$TB323FU_MESA_CONFIG"

# --- a --list without an end: the same name forever is one sub-test, cut at the bound --------------
mkdir -p "$T/endless"
printf '#!/bin/sh\n[ "$1" = --list ] && exec yes "$(printf "\\tpass_a")"\nexec "%s" "$@"\n' \
	"$TB_TOP/tests/doubles/fake-cts" >"$T/endless/test_endless"
chmod 755 "$T/endless/test_endless"
expect_exit 0 "a binary whose --list never ends" \
	timeout -k 5 300 "$CTL" --store "$STORE" --json mesa smoke $V1 --suite opencl-cts --cts "$T/endless" --tests endless
check "…one sub-test, the repeats counted, the rest cut" \
	test "$(json 'd["tests"], d["duplicates"], d["cut"], "went on past 262144 lines" in d["message"]' <"$T/out")" = "(1, 262143, 1, True)"

# --- listers and runs without an end, each stopped at its bound, in one sentence ----------------
# lister NAME BODY: test_NAME in $T/bounded/NAME runs BODY for --list and the double otherwise
lister() {
	mkdir -p "$T/bounded/$1"
	printf '#!/bin/sh\nif [ "$1" = --list ]; then %s\nfi\nexec "%s" "$@"\n' "$2" \
		"$TB_TOP/tests/doubles/fake-cts" >"$T/bounded/$1/test_$1"
	chmod 755 "$T/bounded/$1/test_$1"
}
bounded() { TB323FU_MESA_SMOKE_TIMEOUT=2 timeout -k 5 120 "$CTL" --store "$STORE" mesa smoke $V1 --suite opencl-cts --cts "$T/bounded/$1" --tests "$1"; }
lister fast 'exec awk "BEGIN { for (i = 0;; i++) printf \"\\tname_%d\\n\", i }"'
expect_exit 1 "a --list of different names without end, as fast as it can" bounded fast
check "…is stopped at the names' bound and refused in one sentence" \
	test "$(cat "$T/err")" = "tb323fu-ctl: $(readlink -f "$T/bounded/fast/test_fast") --list went on past 16384 different sub-tests and was stopped there; is it an OpenCL-CTS test binary? (one names a few hundred)"
lister slow 'i=0; while :; do i=$((i+1)); printf "\\tname_%d\\n" $i; sleep 0.2; done'
expect_exit 1 "a --list of different names without end, slowly" bounded slow
check "…is stopped at the time bound (\$TB323FU_MESA_SMOKE_TIMEOUT=2)" \
	grep -q "test_slow --list did not end within 2 s (named [0-9]* sub-tests by then); is it an OpenCL-CTS test binary?" "$T/err"
lister silent 'exec sleep 1000'
expect_exit 1 "a --list that says nothing and never ends" bounded silent
check "…is stopped at the time bound" grep -q "test_silent --list did not end within 2 s (named 0 sub-tests by then)" "$T/err"
lister daemon 'setsid sh -c "while :; do printf \"\\tpass_a\\n\"; sleep 0.2; done" & printf "\\tpass_a\\n"; exit 0'
expect_exit 0 "a --list that leaves a daemon writing into its output" bounded daemon
check "…ends with the lister, and the daemon with it" \
	test "$(json_strict "$STORE/smoke/$V1.json" 'd["suites"]["opencl-cts"]["tests"]') $(pgrep -f 'while :; do printf' | wc -l)" = "1 0"
lister loud 'printf "\\tpass_a\\n"; exit 0; fi; if [ "$1" = -w ]; then exec yes'
TB323FU_TEST_CHILD_OUTPUT_MAX=1048576 expect_exit 0 "a binary that writes without end when it runs" bounded loud
check "…is stopped at the output bound, and the sentence says so" \
	grep -q "test_loud on the store's side was stopped: it wrote more than 1 MiB of output" "$T/out"

# --- arguments ---------------------------------------------------------------------------------
expect_exit 2 "--budget that is no number" cts $V1 --budget soon
expect_exit 2 "--subtests without --suite opencl-cts" ctl mesa smoke --subtests x
expect_exit 2 "--tests with a name no binary has" cts $V1 --tests 'fake,../x'
echo "cts_budget = lots" >"$TB323FU_MESA_CONFIG"
expect_exit 2 "cts_budget that is no number" ctl mesa status
: >"$TB323FU_MESA_CONFIG"
expect_exit 1 "a binary that is not there: one sentence" cts $V1 --tests vectors
check "…that says how to get it" grep -q "no OpenCL-CTS binary test_vectors in $T/cts; install the CTS release (.tb323fu-ctl --store $STORE mesa cts update.), build the suite with build-recipes/opencl-cts" "$T/err"
expect_exit 1 "--subtests that matches nothing" cts $V1 --tests other --subtests nothing
expect_exit 1 "--subtests that is no regular expression" cts $V1 --tests other --subtests '('

# --- the real OpenCL-CTS -----------------------------------------------------------------------
if ! tp=$(third_party) || [ ! -f "$tp/OpenCL-CTS-v2026-07-09-00.tar.gz" ]; then
	skip "the real OpenCL-CTS" "no ../shared/third_party/OpenCL-CTS-v2026-07-09-00.tar.gz (or TB323FU_THIRD_PARTY)"
	done_testing
	exit 0
fi
# built once into a cache that outlives the run (a second run builds nothing)
export TB_CACHE="${TB323FU_CTS_CACHE:-$TB_BUILD/cts-cache}"
recipe() {
	sh "$TB_TOP/build-recipes/opencl-cts" --tests basic --source "$tp/OpenCL-CTS-v2026-07-09-00.tar.gz" \
		--cl-headers "$tp/OpenCL-Headers-v2026.05.29.tar.gz" \
		--spirv-headers "$tp/SPIRV-Headers-vulkan-sdk-1.4.357.0.tar.gz" "$@"
}
expect_exit 0 "build-recipes/opencl-cts builds test_basic" recipe
expect_exit 0 "…a second run builds nothing" recipe
check "…and says so" grep -q "already built" "$T/out"
CTS=$(sh "$TB_TOP/build-recipes/opencl-cts" --print-dir)
check "…into a binary that names no folder of its build (-ffile-prefix-map)" \
	sh -c '! grep -qaF "$1" "$(readlink -f "$2")"' sh "$TB_CACHE/opencl-cts/" "$CTS/test_basic"
FOUR='^basic/(hostptr|fpmath|intmath_int|astype)$'
expect_exit 0 "four sub-tests of test_basic through both sides" \
	ctl mesa smoke $V1 --suite opencl-cts --cts "$CTS" --tests basic --subtests "$FOUR" --json
check "…each passes on both sides" \
	test "$(json '[(t["name"], t["store"], t["distribution"]) for t in d["results"]], d["regressions"]' <"$T/out")" = \
	"([('basic/astype', 'pass', 'pass'), ('basic/fpmath', 'pass', 'pass'), ('basic/hostptr', 'pass', 'pass'), ('basic/intmath_int', 'pass', 'pass')], [])"

# a release whose clEnqueueMapBuffer fails: the real binary with a library preloaded that
# breaks it for the objects of $V2's rusticl only
cc -shared -fPIC -o "$T/break.so" "$TB_TOP/tests/doubles/cl-break-map.c" -ldl ||
	{ not_ok "build the entry-point breaker"; done_testing; exit 1; }
mkdir -p "$T/broken"
cat >"$T/broken/test_basic" <<EOF2
#!/bin/sh
LD_PRELOAD="$T/break.so" CL_BREAK_IN="/versions/$V2/" exec "$CTS/test_basic" "\$@"
EOF2
chmod 755 "$T/broken/test_basic"
cat >"$TB323FU_MESA_CONFIG" <<EOF2
smoke_suite = opencl-cts
cts_dir = $T/broken
cts_tests = basic
smoke_suite_filter = $FOUR
EOF2
# $V2 failed above, so it left the store (a failed version is not kept, docs/design.md §12);
# install-local installs it again whatever the store holds
expect_exit 6 "install-local $V2, whose clEnqueueMapBuffer fails, is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "…named with exactly the sub-test that maps a buffer" \
	test "$(json 'd["reason"], "1 of 4 OpenCL-CTS sub-tests pass" in d["message"], "and not with Mesa '$V2': basic/hostptr)" in d["message"]' <"$T/out")" = "('suite-regression', True, True)"
check "…and, failed, it left the store with its results (the sentence above is what stays)" \
	test ! -e "$STORE/versions/$V2" -a ! -e "$STORE/smoke/$V2.json"
done_testing
