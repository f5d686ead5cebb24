#!/bin/sh
# The dEQP-VK suite on a stand-in release: the cases listed by the binary itself (its
# stdout-caselist run mode), run in batches through `run --version V` and through `distro`
# with the system's ICD file of the same driver, compared case by case. First on a double that
# writes real QPA logs (tests/doubles/fake-deqp-vk): a regression, a crash and a hang, a flaky
# case, an expected failure and one fixed, a budget that runs out, two jobs that must run at
# the same time, the distribution's side from its cache, a fraction, a list without a bound,
# smoke_suite = dEQP-VK rolling a regression back. Then, when the shared upstream archives are
# there and build-recipes/deqp-vk built the real binary (TB323FU_DEQP_DIR, else its cache),
# a few real cases of dEQP-VK.api.smoke and dEQP-VK.compute on both sides.
. "$TB_TOP/tests/lib.sh"

V1=2026.07.01
V2=2026.07.02
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
expect_exit 0 "install-local $V1" ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS"
FAKE=$TB_TOP/tests/doubles/fake-deqp-vk
export FAKE_DEQP_RECORD="$T/record" FAKE_DEQP_STATE="$T/state"
fresh() { rm -rf "$T/state" && mkdir "$T/state" && : >"$T/record"; }
deqp() { ctl mesa smoke "$@" --suite dEQP-VK --deqp "$FAKE"; }
result() { json "[t['store'] + '/' + t['distribution'] for t in d['results'] if t['name'] == '$1'][0]" <"$T/out"; }
C=dEQP-VK.compute.fake

# --- every kind of result: regressions hold twice, the flaky one and the expected ones do not count
mkdir -p "$T/conf/expected-fails/$V1"
printf '# known on this build\n%s.storefail_expected,Fail\n%s.pass_4,Fail\n' $C $C >"$T/conf/expected-fails/$V1/dEQP-VK.txt"
: >"$T/conf/mesa.conf"
fresh
TB323FU_MESA_SMOKE_TIMEOUT=3 TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 \
	"--groups compute: a regression and a crash on the store's side only" deqp $V1 --groups compute --jobs 1 --json
check "…exactly those two regress; the case only ours passes is fixed" \
	test "$(json 'd["reason"], d["regressions"], d["fixed"], d["tests"]' <"$T/out")" = \
	"('suite-regression', ['$C.storecrash_1', '$C.storefail_1'], ['$C.distrofail_1'], 13)"
check "…the crash is a crash, the hang a timeout on both sides, the others keep their results" \
	test "$(result $C.storecrash_1) $(result $C.crash_1) $(result $C.hang_1) $(result $C.notsupported_1) $(result $C.fail_1) $(result $C.pass_3)" = \
	"crash/pass crash/crash timeout/timeout skip/skip fail/fail pass/pass"
check "…the case that failed once on our side and passed again is flaky, with the second result" \
	test "$(json 'd["flaky"]' <"$T/out") $(result $C.storeflaky_1)" = "['$C.storeflaky_1'] pass/pass"
check "…the expected failure is no regression; the expected one that passes is named" \
	test "$(json 'd["expected"], d["expected_fixed"]' <"$T/out")" = "(['$C.storefail_expected'], ['$C.pass_4'])"
check "…the sentence names the regressions, the flaky case and the expected ones" \
	test "$(json '"2 of 13 dEQP-VK tests" in d["message"], "storecrash_1, '$C'.storefail_1" in d["message"], "1 failed as the version" in d["message"], "again, so they are no regressions: '$C'.storeflaky_1" in d["message"]' <"$T/out")" = \
	"(True, True, True, True)"
check "smoke/$V1.json keeps it under suites.dEQP-VK" \
	test "$(json 'd["suites"]["dEQP-VK"]["regressions"]' <"$STORE/smoke/$V1.json")" = "['$C.storecrash_1', '$C.storefail_1']"
check "…the store's side under the version's ICD file, the distribution's under the system's file of the same driver" \
	test "$(cut -d' ' -f2 "$T/record" | sed "s|=/.*/icd/versions/$V1/turnip.json\$|=STORE|" | sort -u | tr '\n' ' ')" = \
	"VK_DRIVER_FILES=$(python3 -c 'import glob,json; print([f for f in sorted(glob.glob("/usr/share/vulkan/icd.d/*.json")) if json.load(open(f))["ICD"]["library_path"].endswith("libvulkan_lvp.so")][0])') VK_DRIVER_FILES=STORE "
check "…each run in the binary's directory" test "$(cut -d' ' -f1 "$T/record" | sort -u)" = "cwd=$TB_TOP/tests/doubles"
# Batches of four: the store's side one process a batch, a second after the crash and after
# the hang (9 cases then 4), then the three regressions once more, each alone; the
# distribution's the same four batches, cut at its own crash and hang, then the two that
# regressed twice once more.
check "…the store's side ran 6 + 3 processes, the distribution's 6 + 2" \
	test "$(grep -c icd/versions "$T/record") $(grep -vc icd/versions "$T/record")" = "9 8"

# --- the distribution's side from its cache, a fraction, the quick tier ------------------------
fresh
expect_exit 0 "--groups api.smoke: no regression" deqp $V1 --groups api.smoke --jobs 1 --json
check "…six cases in three batches, the distribution's side run" \
	test "$(json 'd["tests"], d["distribution_cached"], d["cases"]' <"$T/out") $(grep -vc icd/versions "$T/record")" = "(6, False, 6) 3"
fresh
expect_exit 0 "the same again" deqp $V1 --groups api.smoke --jobs 1 --json
check "…the distribution's side came from the cache, and only ours ran" \
	test "$(json 'd["distribution_cached"], "came from the cache" in d["message"]' <"$T/out") $(grep -vc icd/versions "$T/record")" = "(True, True) 0"
expect_exit 0 "--fraction 3/2: every third case from the second" deqp $V1 --groups api.smoke --fraction 3/2 --json
check "…pass_2 and pass_5" \
	test "$(json '[t["name"] for t in d["results"]], d["fraction"]' <"$T/out")" = \
	"(['dEQP-VK.api.smoke.pass_2', 'dEQP-VK.api.smoke.pass_5'], '3/2')"
expect_exit 0 "--groups quick is api.smoke and info" deqp $V1 --groups quick --fraction 2 --json
check "…the quick tier's cases, every second" \
	test "$(json 'd["cases"], d["groups"]' <"$T/out")" = "(4, 'quick')"

# --- two jobs: the meet cases finish only when two processes run at once ---------------------
fresh
expect_exit 0 "--jobs 2: two batches at the same time" deqp $V1 --groups synchronization --jobs 2 --json
check "…both meet cases passed on both sides" \
	test "$(result dEQP-VK.synchronization.meet.meet_a) $(result dEQP-VK.synchronization.meet.meet_b) $(json 'd["jobs"]' <"$T/out")" = "pass/pass pass/pass 2"
fresh
# another binary (another cache key): the distribution's side runs too
mkdir "$T/one" && cp "$FAKE" "$T/one/deqp-vk"
FAKE_DEQP_CASES=$FAKE.cases TB323FU_MESA_SMOKE_TIMEOUT=2 expect_exit 0 \
	"--jobs 1: one at a time, so each meet case waits alone until its limit" \
	ctl mesa smoke $V1 --suite dEQP-VK --deqp "$T/one" --groups synchronization --jobs 1 --json
check "…a timeout on both sides (no regression)" \
	test "$(result dEQP-VK.synchronization.meet.meet_a) $(result dEQP-VK.synchronization.meet.meet_b)" = "timeout/timeout timeout/timeout"

# --- a budget that runs out: the batch it stopped and those after it did not run --------------
fresh
expect_exit 0 "--budget 10 with a case that never ends" deqp $V1 --groups memory_model --jobs 1 --budget 10 --json
check "…the two batches before it ran on both sides, the rest are named as not run" \
	test "$(json 'd["tests"], d["not_run_count"], d["not_run"]' <"$T/out")" = \
	"(6, 3, ['dEQP-VK.memory_model.fake.hang_1', 'dEQP-VK.memory_model.fake.pass_7', 'dEQP-VK.memory_model.fake.pass_8'])"
check "…the sentence says so" \
	test "$(json '"the budget of 10 s ran out, so 3 cases did not run" in d["message"]' <"$T/out")" = True

# --- a case list of the user's, and what is refused --------------------------------------------
printf '%s.pass_1\n\n# a comment\n%s.pass_1\n%s.storefail_1\n' $C $C $C >"$T/list.txt"
expect_exit 6 "--caselist: the names of a file, a duplicate taken once" deqp $V1 --caselist "$T/list.txt" --json
check "…two cases, one duplicate" test "$(json 'd["tests"], d["duplicates"], d["regressions"]' <"$T/out")" = "(2, 1, ['$C.storefail_1'])"
printf 'dEQP-VK.compute.*\n' >"$T/pattern.txt"
expect_exit 2 "--caselist with a pattern" deqp $V1 --caselist "$T/pattern.txt"
check "…one sentence naming the line" grep -q "line 1 of the case list $T/pattern.txt is no dEQP-VK case name" "$T/err"
expect_exit 2 "--groups with a name no group has" deqp $V1 --groups '../x'
expect_exit 1 "--groups a group the binary does not have" deqp $V1 --groups nothing_here
check "…says it lists no case of it" grep -q "lists no case of dEQP-VK.nothing_here" "$T/err"
expect_exit 2 "--fraction 0" deqp $V1 --fraction 0
expect_exit 2 "--fraction 2/3" deqp $V1 --fraction 2/3
expect_exit 2 "--groups and --caselist together" deqp $V1 --groups compute --caselist "$T/list.txt"
expect_exit 2 "--groups without --suite dEQP-VK" ctl mesa smoke --groups compute
expect_exit 1 "no binary where it is looked for" ctl mesa smoke --suite dEQP-VK --deqp "$T/nowhere"
check "…says how to build one" grep -q "build it with build-recipes/deqp-vk" "$T/err"
mkdir -m 0777 "$T/open" && cp "$FAKE" "$T/open/deqp-vk"
: >"$T/record"
expect_exit 1 "a binary in a folder anyone may write is not run, not even to list its cases" \
	ctl mesa smoke $V1 --suite dEQP-VK --deqp "$T/open" --groups api.smoke
check "…one sentence with the fix, and nothing ran" \
	test "$(grep -c "writable by others" "$T/err") $(wc -l <"$T/record")" = "1 0"
printf '#!/bin/sh\ncase "$*" in *stdout-caselist*) exec yes "TEST: dEQP-VK.compute.same.pass_1" ;; esac\nexec "%s" "$@"\n' "$FAKE" >"$T/repeating"
chmod 755 "$T/repeating"
expect_exit 0 "a binary that lists the same case forever is stopped at the bound" \
	timeout -k 5 300 "$CTL" --store "$STORE" mesa smoke $V1 --suite dEQP-VK --deqp "$T/repeating" --groups compute --json
check "…the case once, the repeats counted as duplicates" \
	test "$(json 'd["cases"], d["duplicates"], d["tests"]' <"$T/out")" = "(1, 65536, 1)"

# --- after install: smoke_suite = dEQP-VK rolls a regression back ------------------------------
cat >"$T/conf/mesa.conf" <<EOF2
smoke_suite = dEQP-VK
deqp_dir = $FAKE
deqp_groups = info
EOF2
fresh
TB323FU_MESA_CONFIG="$T/conf/mesa.conf" expect_exit 6 "install-local $V2 with smoke_suite = dEQP-VK is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "…naming exactly the regressing case" \
	test "$(json 'd["reason"], "1 of 2 dEQP-VK cases pass with the distribution'"'"'s Mesa and not with Mesa '$V2': dEQP-VK.info.fake.storefail_1" in d["message"]' <"$T/out")" = "('suite-regression', True)"
check "…$V1 is current again" test "$(ctl mesa status --json | json 'd["installed"], d["failed"]')" = "('$V1', '$V2')"

# --- the real dEQP-VK, when it was built ------------------------------------------------------
real=${TB323FU_DEQP_DIR:-$(TB_CACHE=${TB323FU_DEQP_CACHE:-${TB_CACHE:-$HOME/.cache/tb323fu-mesa}} sh "$TB_TOP/build-recipes/deqp-vk" --print-dir)}
if [ ! -x "$real/deqp-vk" ]; then
	skip "real dEQP-VK cases on both sides" "no deqp-vk built by build-recipes/deqp-vk in $real"
else
	printf 'dEQP-VK.api.smoke.create_sampler\ndEQP-VK.api.smoke.create_shader\ndEQP-VK.api.smoke.triangle\ndEQP-VK.compute.pipeline.basic.empty_shader\ndEQP-VK.compute.pipeline.basic.ubo_to_ssbo_single_invocation\ndEQP-VK.compute.pipeline.basic.copy_ssbo_single_invocation\n' >"$T/real.txt"
	expect_exit 0 "real dEQP-VK: six api.smoke and compute cases on both sides" \
		ctl mesa smoke $V1 --suite dEQP-VK --deqp "$real" --caselist "$T/real.txt" --json
	check "…each passes on both sides" \
		test "$(json 'sorted(set((t["store"], t["distribution"]) for t in d["results"])), d["tests"]' <"$T/out")" = "([('pass', 'pass')], 6)"
fi
done_testing
