#!/bin/sh
# `smoke --tests a,b,…` runs a chosen subset of the eight smoke tests and reports the others as
# skipped; a test that builds on another's setup (vk.compute on vk.loader's instance) still
# works when only it is chosen; an unknown name is a usage error. Stand-in release, real loaders.
. "$TB_TOP/tests/lib.sh"

V1=2026.03.11
R1=$(standin $V1) || { not_ok "stand-in release"; done_testing; exit 1; }
statuses() { json '" ".join(t["status"] for t in d["tests"])' <"$T/out"; }

expect_exit 0 "install-local $V1 --no-smoke" \
	ctl mesa install-local "$R1" --sums "$(dirname "$R1")/SHA256SUMS" --no-smoke

expect_exit 0 "smoke --tests vk.loader,vk.driver passes" ctl mesa smoke --tests vk.loader,vk.driver --json
check "…two passed, six skipped, in the eight's order" \
	test "$(json 'd["passed"], d["failed"], d["skipped"]' <"$T/out") $(statuses)" = \
	"(2, 0, 6) pass pass skip skip skip skip skip skip"
check "…the skipped ones say they were not chosen" \
	test "$(json 'd["tests"][2]["detail"]' <"$T/out")" = "not chosen (--tests)"
check "…and smoke/$V1.json holds the same" \
	test "$(json 'd["passed"], d["skipped"]' <"$STORE/smoke/$V1.json")" = "(2, 6)"

expect_exit 0 "smoke $V1 --tests vk.compute alone (it builds on vk.loader's instance)" \
	ctl mesa smoke $V1 --tests vk.compute --json
check "…vk.compute passed, the rest skipped" test "$(statuses)" = "skip skip pass skip skip skip skip skip"

expect_exit 0 "smoke --tests cl.kernel,vk.sync (any order)" ctl mesa smoke --tests cl.kernel,vk.sync
check "…the human table and the sentence count 2 passed, 6 skipped" \
	test "$(grep -c ' skip ' "$T/out") $(tail -n 1 "$T/out")" = "6 Mesa $V1 passed its smoke tests (2 passed, 6 skipped)"

expect_exit 2 "smoke --tests vk.nothing is a usage error" ctl mesa smoke --tests vk.loader,vk.nothing
check "…naming the unknown test and the known ones" \
	sh -c "grep -q '\"vk.nothing\"' '$T/err' && grep -q 'cl.platform' '$T/err'"
expect_exit 2 "smoke --json --tests '' names the reason usage" ctl --json mesa smoke --tests ''
check "…reason usage" test "$(json 'd["reason"]' <"$T/out")" = usage
expect_exit 2 "--tests does not go with --deqp" \
	ctl mesa smoke --tests vk.loader --deqp /bin/true --caselist /dev/null

# The smoke program itself, as the launcher runs it.
REAL=$(cd "$STORE" && pwd -P)
expect_exit 0 "tb323fu-mesa-smoke --tests cl.platform under run" \
	mesa run "$SMOKE" --json --opencl-lib "$REAL/versions/$V1/lib/libRusticlOpenCL.so.1" --no-vulkan --tests cl.platform
check "…one pass, the rest skipped" test "$(json 'd["passed"], d["skipped"]' <"$T/out")" = "(1, 7)"
expect_exit 2 "tb323fu-mesa-smoke --tests with a trailing comma is refused" "$SMOKE" --tests vk.loader,

done_testing
