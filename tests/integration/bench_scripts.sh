#!/bin/sh
# The benchmarks of tests/bench/ cannot rot: each runs in a short form (a few rounds, small
# sizes) and must end with status 0 and print its ratio. No figure is judged: a benchmark's
# figures are for people, on a quiet machine, in its long form.
# suites runs on the doubles (fake-deqp-vk as dEQP-VK, fake-cts as test_basic), which need no
# build of the real suites; download needs nginx (ci/packages/bench.txt, which the full tier
# installs).
# tests/run: full
. "$TB_TOP/tests/lib.sh"

export BUILD="$TB_BUILD"
# bench NAME WANT ARGS…: tests/bench/NAME ARGS… ends with 0 and prints a line matching WANT
bench() {
	_name=$1 _want=$2
	shift 2
	"$TB_TOP/tests/bench/$_name" "$@" >"$T/$_name.out" 2>"$T/$_name.err"
	_rc=$?
	if [ "$_rc" -eq 0 ] && grep -qE "$_want" "$T/$_name.out"; then
		ok "tests/bench/$_name runs and prints its ratio"
		grep -E "$_want" "$T/$_name.out" | sed "s|^|# $_name: |"
	else
		not_ok "tests/bench/$_name runs and prints its ratio" "exit $_rc" \
			"stdout: $(tail -c 600 "$T/$_name.out")" "stderr: $(tail -c 600 "$T/$_name.err")"
	fi
}

bench launch 'overhead ratio launcher/env\(1\): +[0-9.]+' 50
bench startup 'status --json .*x the exec floor' 20
bench smoke 'median' 1
SIZES=0 COMPRESS=gz bench install '[0-9]\.[0-9][0-9]' 1
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
	# nginx's workers run as www-data: its files go below $T, which that user may reach
	if [ "$(id -u)" -eq 0 ]; then reachable_by www-data || not_ok "www-data reaches $T"; fi
	TMPDIR=$T RUNS=1 bench download 'ratio [0-9.]+' 8
	unreachable_again
else
	not_ok "tests/bench/download runs and prints its ratio" "no nginx (sh ci/install-deps bench)"
fi

# suites on the doubles: a dEQP-VK set and an OpenCL-CTS set that pass on both sides
mkdir -p "$T/deqp" "$T/cts"
cp "$TB_TOP/tests/doubles/fake-deqp-vk" "$T/deqp/deqp-vk"
cp "$TB_TOP/tests/doubles/fake-cts" "$T/cts/test_basic"
FAKE_DEQP_CASES="$TB_TOP/tests/doubles/fake-deqp-vk.cases" DEQP_DIR="$T/deqp" DEQP_GROUPS=api.smoke \
	DEQP_FRACTION=1 CTS_DIR="$T/cts" CTS_SUBTESTS='pass_a|pass_b' bench suites '[0-9.]+x; the same results' 1
done_testing
