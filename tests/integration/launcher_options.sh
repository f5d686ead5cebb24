#!/bin/sh
# tb323fu-mesa takes its options where tb323fu-ctl takes them: --store after the command
# (`run --store S …`, `distro --store S …`, `which --store S`, `env --store S`) chooses the
# same store as before it, and --json before the command is which's and env's --json; run and
# distro, which print nothing of their own, refuse --json with a sentence (exit 2).
. "$TB_TOP/tests/lib.sh"

R=$(tiny_release 2026.10.06 "$T/r") && ctl mesa install-local "$R" --no-smoke >/dev/null ||
	{ not_ok "a tiny release installed"; done_testing; exit 1; }
REAL=$(cd "$STORE" && pwd -P)
# the default store must not be the one answering: point it elsewhere
export TB323FU_MESA_DIR="$T/not-this-store"

before=$("$MESA" --store "$STORE" run printenv VK_DRIVER_FILES)
expect_exit 0 "run --store S COMMAND" "$MESA" run --store "$STORE" printenv VK_DRIVER_FILES
check "  the store's Vulkan driver, as with --store before run" \
	sh -c "[ -n '$before' ] && [ \"\$(cat '$T/out')\" = '$before' ] && grep -q '^$STORE/' '$T/out'"
by_version=$("$MESA" --store "$STORE" run --version 2026.10.06 printenv VK_DRIVER_FILES)
expect_exit 0 "run --store=S --version V -- COMMAND" "$MESA" run --store="$STORE" --version 2026.10.06 -- printenv VK_DRIVER_FILES
check "  the same as --store S run --version V" sh -c "[ -n '$by_version' ] && [ \"\$(cat '$T/out')\" = '$by_version' ]"
expect_exit 0 "distro --store S COMMAND" "$MESA" distro --store "$STORE" printenv RUSTICL_ENABLE
check "  the store's release chose the driver (RUSTICL_ENABLE llvmpipe)" test "$(cat "$T/out")" = llvmpipe
expect_exit 2 "run --store '' COMMAND: a usage error" "$MESA" run --store "" true
check "  says --store needs a directory" grep -q "^tb323fu-mesa: --store needs a directory" "$T/err"

"$MESA" --store "$STORE" which >"$T/want"
expect_exit 0 "which --store S" "$MESA" which --store "$STORE"
check "  the same report as --store S which, naming this store's files" \
	sh -c "cmp -s '$T/out' '$T/want' && grep -q '$REAL' '$T/out'"
"$MESA" --store "$STORE" which --json >"$T/want"
expect_exit 0 "--json which --store S" "$MESA" --json which --store "$STORE"
check "  the same object as which --json" \
	sh -c "cmp -s '$T/out' '$T/want' && json_strict() { python3 '$TB_TOP/tests/tools/json_strict.py' \"\$@\"; }; json_strict '$T/out'"
"$MESA" --store "$STORE" env --format json >"$T/want"
expect_exit 0 "--json env --store S" "$MESA" --json env --store "$STORE"
check "  the same as env --format json" cmp -s "$T/out" "$T/want"

expect_exit 2 "--json run: refused" "$MESA" --store "$STORE" --json run true
check "  says run prints nothing of its own" \
	grep -qx "tb323fu-mesa: run prints nothing of its own: --json goes with which or env (see tb323fu-mesa --help)" "$T/err"
expect_exit 2 "distro --json: refused" "$MESA" --store "$STORE" distro --json true
check "  says distro prints nothing of its own" grep -q "^tb323fu-mesa: distro prints nothing of its own" "$T/err"
done_testing
