#!/bin/sh
# The piglit-cl suite tier on stand-in releases: piglit's OpenCL tests run through `run
# --version V` and through `distro`; a good release has no regression, a release that breaks
# two OpenCL entry points is named with exactly those two tests and, with smoke_suite set in
# mesa.conf, rolled back (exit 6, reason suite-regression). The distribution's side is run once
# and then taken from the cache. While a side runs its tests are counted (progress events, a
# line on a terminal); the table gives each side's totals and only the tests that differ.
. "$TB_TOP/tests/lib.sh"

if ! command -v piglit >/dev/null; then
	# piglit is about 2 GB installed: the quick tier does without it, the full tier installs it
	if [ "$TB_TIER" = full ]; then
		not_ok "the piglit-cl suite" "piglit is not installed in the full tier (sh ci/install-deps full)"
	else
		skip "the piglit-cl suite" "piglit is not installed (2 GB; the full tier installs it: make check-full)"
	fi
	done_testing
	exit 0
fi
V1=2026.06.01
V2=2026.06.02
R1=$(standin $V1 --no-gl) && R2=$(standin $V2 --no-gl) || { not_ok "stand-in releases"; done_testing; exit 1; }
suite() { json "$1" <"$STORE/smoke/$2.json"; }

# piglit through a wrapper that records each side's OpenCL environment, and preloads a library
# that breaks clGetMemObjectInfo and clGetKernelWorkGroupInfo in $V2's tree only.
cc -shared -fPIC -o "$T/break.so" "$TB_TOP/tests/doubles/cl-break-entry.c" -ldl ||
	{ not_ok "build the entry-point breaker"; done_testing; exit 1; }
cat >"$T/piglit" <<EOF2
#!/bin/sh
echo "OCL_ICD_VENDORS=\${OCL_ICD_VENDORS:-} RUSTICL_ENABLE=\${RUSTICL_ENABLE:-}" >>"$T/record"
LD_PRELOAD="$T/break.so" CL_BREAK_IN="/versions/$V2/" exec piglit "\$@"
EOF2
chmod 755 "$T/piglit"
export TB323FU_MESA_PIGLIT="$T/piglit"
SMALL='^api@(clgetmemobjectinfo|clgetkernelworkgroupinfo|clgetplatformids|clcreatebuffer|clcreatecontext)$'
# About sixty tests: the API, the custom tests and a few builds, a minute and more here (each
# test a process on each side): the full tier's; the quick tier runs the API's fifteen queries
# (eleven of them pass with rusticl on llvmpipe).
# WIDE_TESTS: how many tests run, at least and at most, and how many API tests pass at least.
if [ "$TB_TIER" = full ]; then
	WIDE='^(api|custom)@|^program@build@(fail@|macro|scalar|version)' WIDE_TESTS='55 70 30' WIDE_SAID="about sixty"
else
	WIDE='^api@clget' WIDE_TESTS='12 20 10' WIDE_SAID="fifteen"
fi

cat >"$TB323FU_MESA_CONFIG" <<EOF2
smoke_suite = piglit-cl
smoke_suite_filter = $SMALL
EOF2

# --- a good release passes the suite after install ---------------------------------------------
expect_exit 0 "install-local $V1 with smoke_suite set runs the suite and passes" \
	ctl --progress json mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS"
REAL=$(cd "$STORE" && pwd -P)
check "smoke/$V1.json: the smoke tests (GL's too) and the suite" \
	test "$(suite 'd["passed"], d["suites"]["piglit-cl"]["tests"], d["suites"]["piglit-cl"]["regressions"]' $V1)" = "(6, 5, [])"
check "progress: each side ran, then each test" \
	test "$(grep -c '"test":"piglit-cl:\(store\|distribution\)","status":"pass"' "$T/err") $(grep -c '"test":"piglit-cl:api@' "$T/err")" = "2 5"
# counted SIDE: the side's {"op":"suite"} events, "done/total" one a line
counted() {
	python3 -c 'import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e.get("op") == "suite" and e.get("test") == "piglit-cl:" + sys.argv[1]:
        print("%d/%d" % (e["done"], e["total"]))' "$1" <"$T/err"
}
check "progress while each side runs: tests done of the total, up to all five" \
	test "$(counted store | tail -n 1) $(counted distribution | tail -n 1)" = "5/5 5/5"
never_back() { awk -F/ 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }'; }
if counted store | never_back && counted distribution | never_back; then
	ok "…each side's count never goes back"
else
	not_ok "…each side's count never goes back" "$(counted store | tr '\n' ' ')"
fi
check "the store's side ran under the version's OpenCL, the distribution's under its own build of that driver" \
	test "$(cat "$T/record")" = "OCL_ICD_VENDORS=$REAL/icd/versions/$V1/opencl RUSTICL_ENABLE=llvmpipe
OCL_ICD_VENDORS=$(grep -l 'libRusticlOpenCL' /etc/OpenCL/vendors/*.icd | head -n 1) RUSTICL_ENABLE=llvmpipe"
check "list: suite partial (smoke_suite_filter narrowed it), never pass" test "$(ctl mesa list --json | json '[(v["suite"], v["bench"]) for v in d["versions"]]')" = "[('partial', None)]"
check "…smoke/$V1.json says what ran" test "$(suite 'd["suites"]["piglit-cl"]["partial"]' $V1)" = "['only the tests --filter $SMALL selects']"
check "…and the SUITE column for people" sh -c "ctl_out=\$('$CTL' --store '$STORE' mesa list) && echo \"\$ctl_out\" | grep -q '^$V1 .* partial\$'"

# --- about sixty tests (fifteen in the quick tier) through both sides: no regression ----------
: >"$T/record"
expect_exit 0 "smoke --suite piglit-cl --filter ($WIDE_SAID tests)" \
	ctl mesa smoke $V1 --suite piglit-cl --filter "$WIDE" --json
set -- $WIDE_TESTS
check "between $1 and $2 tests ran on both sides" \
	test "$(json "$1"' <= d["tests"] <= '"$2"' and all(t["store"] != "missing" and t["distribution"] != "missing" for t in d["results"])' <"$T/out")" = True
check "zero regressions" test "$(json 'd["regressions"], d["ok"], d["suite"]' <"$T/out")" = "([], True, 'piglit-cl')"
check "the API tests pass on the store's side" \
	test "$(json 'sum(1 for t in d["results"] if t["name"].startswith("api@") and t["store"] == "pass") >= '"$3" <"$T/out")" = True
check "both sides ran (nothing cached for this filter)" test "$(wc -l <"$T/record")" = 2
check "--json: the totals of each side, and every test's row" \
	test "$(json 'd["counts"]["store"].get("pass", 0) == d["passed"]["store"], sum(d["counts"]["distribution"].values()) == d["tests"] == len(d["results"])' <"$T/out")" = "(True, True)"
expect_exit 0 "the human form: the totals of each side, no row when no test differs, the sentence" \
	ctl mesa smoke $V1 --suite piglit-cl --filter "$SMALL"
check "…the totals" grep -qx 'pass  *5  *5' "$T/out"
check "…the number of tests" grep -qx 'tests  *5  *5' "$T/out"
check "…no test's row" sh -c "! grep -q '^api@' '$T/out'"
check "…says so" grep -q "^no test gave different results on the two sides (--all lists every test)" "$T/out"
check "…then the sentence, which says the run was partial" sh -c "tail -n 1 '$T/out' | grep -qF \"passes every piglit-cl test the distribution's Mesa passes among the 5 that ran; a partial run (only the tests --filter $SMALL selects), recorded as partial, not as the whole suite; the distribution's results came from the cache\""
expect_exit 0 "--all: a line a test with both results" \
	ctl mesa smoke $V1 --suite piglit-cl --filter "$SMALL" --all
check "…with both columns" test "$(grep -c '^api@cl[a-z]*  *pass  *pass *$' "$T/out")" = 5
expect_exit 2 "--all without --suite" ctl mesa smoke --all
# the printer of a terminal (forced: the test has none): one line a side that updates
rm -rf "$STORE/cache/suites"
expect_exit 0 "--progress bar: each side's tests counted on one line" \
	ctl --progress bar mesa smoke $V1 --suite piglit-cl --filter "$SMALL"
check "…up to all five, on each side" \
	test "$(tr '\r' '\n' <"$T/err" | grep -c '^suite    piglit-cl:\(store\|distribution\) \[#*\] 5 / 5 tests')" = 2
check "…and not a line for each test" sh -c "! grep -q 'piglit-cl:api@' '$T/err'"

# --- a release that breaks two entry points is rolled back ------------------------------------
: >"$T/record"
expect_exit 6 "install-local $V2 (breaks two OpenCL entry points) is rolled back" \
	ctl --json mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS"
check "reason suite-regression" test "$(json 'd["ok"], d["reason"]' <"$T/out")" = "(False, 'suite-regression')"
json 'd["message"]' <"$T/out" >"$T/message"
check "the sentence names exactly the two tests" grep -q \
	"2 of 5 piglit-cl tests pass with the distribution.s Mesa and not with Mesa $V2: api@clgetkernelworkgroupinfo, api@clgetmemobjectinfo" "$T/message"
check "$V1 is current again, $V2 failed" \
	test "$(ctl mesa status --json | json 'd["installed"], d["failed"]')" = "('$V1', '$V2')"
check "the distribution's side came from the cache: piglit ran once, on the store's side" \
	test "$(cat "$T/record")" = "OCL_ICD_VENDORS=$REAL/icd/versions/$V2/opencl RUSTICL_ENABLE=llvmpipe"
check "$V2 is removed from the store, as a version that failed its smoke tests is" test ! -e "$STORE/versions/$V2"
# installed without its smoke tests, to look at it again
ctl mesa install-local "$R2" --sums "$(dirname "$R2")/SHA256SUMS" --no-smoke >/dev/null || not_ok "install-local $V2 --no-smoke"
expect_exit 6 "smoke $V2 --suite piglit-cl names them again" \
	ctl mesa smoke $V2 --suite piglit-cl --filter "$SMALL"
check "…marked in the table and named in the sentence" \
	sh -c "grep -q '^api@clgetmemobjectinfo .* regression' '$T/out' && grep -q 'regressed in 2 of 5 piglit-cl tests.*api@clgetkernelworkgroupinfo, api@clgetmemobjectinfo' '$T/err'"
check "…the totals differ" sh -c "grep -qx 'pass  *3  *5' '$T/out' && grep -qx 'fail  *2  *0' '$T/out'"
check "…only those two rows, and how many differ" \
	sh -c "test \"\$(grep -c ' regression\$' '$T/out')\" = 2 && test \"\$(grep -c '^api@' '$T/out')\" = 2 && grep -q '^2 of 5 tests gave different results' '$T/out'"
check "smoke/$V2.json names exactly those regressions" \
	test "$(suite 'd["suites"]["piglit-cl"]["regressions"], d["suites"]["piglit-cl"]["distribution_cached"]' $V2)" = \
	"(['api@clgetkernelworkgroupinfo', 'api@clgetmemobjectinfo'], True)"
check "list: $V2 has regressions" \
	test "$(ctl mesa list --json | json '[v["suite"] for v in d["versions"] if v["version"] == "'$V2'"]')" = "['regressions']"

# --- arguments and configuration ---------------------------------------------------------------
expect_exit 2 "an unknown suite" ctl mesa smoke --suite nothing
expect_exit 2 "--profile that is neither quick nor full" ctl mesa smoke --suite piglit-cl --profile slow
expect_exit 2 "--filter without --suite piglit-cl" ctl mesa smoke --filter x
echo "smoke_suite = everything" >"$TB323FU_MESA_CONFIG"
expect_exit 2 "smoke_suite names an unknown suite" ctl mesa status
: >"$T/empty.conf" # configuration files must be regular files
TB323FU_MESA_PIGLIT=$T/missing expect_exit 1 "without piglit: one sentence" \
	env TB323FU_MESA_CONFIG="$T/empty.conf" "$CTL" --store "$STORE" mesa smoke --suite piglit-cl
check "…that says what to install" grep -q "apt-get install piglit" "$T/err"
done_testing
