#!/bin/sh
# The reason ids have one list (tb323fu-mesa/common/reasons.def, docs/design.md §9): the
# documented list and the table are the same set, each row is one reason of enum tb_reason,
# and what --json says of real failures is an id of the table with its exit code. A failure
# is raised by its row (tb_fail(e, TB_R_…, …)): the compiler refuses a misspelt reason and an
# exit code where the reason goes, with each compiler the build uses. The check itself sees
# an undocumented entry, a documented id without a row and an exit code spelled where one is
# passed on.
. "$TB_TOP/tests/lib.sh"

ids() { python3 "$TB_TOP/tests/tools/reason-ids.py" "$@"; }

run_cmd ids "$TB_TOP"
if [ "$rc" -eq 0 ]; then ok "the table of reasons and its documented list agree"; else
	not_ok "the table of reasons and its documented list agree" "$(head -n 20 "$T/out")"; fi

# --- the check sees what it is for (in a copy of the tree) ---
mkdir -p "$T/tree/docs"
cp -R "$TB_TOP/ctl" "$TB_TOP/tb323fu-mesa" "$T/tree/"
cp "$TB_TOP/docs/design.md" "$T/tree/docs/"
sed -i 's/^REASON(RULES_CORRUPT, "rules-corrupt"/REASON(RULES_CORRUPT, "rules-planted"/' "$T/tree/tb323fu-mesa/common/reasons.def"
run_cmd ids "$T/tree"
check "the check names an entry not documented, and a documented id not in the table" \
	sh -c "grep -q 'the table.s \"rules-planted\" is not documented' '$T/out' && grep -q '\"rules-corrupt\" is documented but not in the table' '$T/out'"
check "… and fails" test "$rc" -eq 1
run_cmd ids "$TB_TOP"
check "it counts the failure sites and those that name the catch-all" \
	grep -q '^# failure sites: [0-9][0-9]*, naming the catch-all TB_R_FAILED: [0-9][0-9]*$' "$T/out"
# as many catch-all failures again as there are sites: more than 1 in 10 whatever the tree holds
sites=$(sed -n 's/^# failure sites: \([0-9]*\),.*/\1/p' "$T/out")
i=0
while [ "$i" -lt "$sites" ]; do
	printf 'static int planted_catch_all_%d(struct tb_error *e)\n{\n\treturn tb_fail(e, TB_R_FAILED, "x");\n}\n' "$i"
	i=$((i + 1))
done >>"$T/tree/ctl/store/state.c"
run_cmd ids "$T/tree"
check "… and names the catch-all over 1 in 10, with a site" \
	grep -q '^TB_R_FAILED is named at [0-9]* of [0-9]* failure sites, more than 1 in 10; .* one is [a-z0-9_/.-]*\.c:[0-9]*$' "$T/out"

# --- the compiler refuses a misspelt reason and an exit code where a reason goes ---
# planted NAME STATEMENT: a C file whose function raises a failure, against the project's headers.
planted() {
	printf '#include "base/error.h"\n#include "launcher/message.h"\nint planted(struct tb_error *e);\nint planted(struct tb_error *e)\n{\n\t%s\n}\n' "$2" >"$T/$1.c"
}
planted right 'return tb_fail(e, TB_R_NOT_INSTALLED, "Mesa %s is not installed", "1") + tb_fail_errno(e, TB_R_DAMAGED_STORE, "x") + fail(TB_R_USAGE, "x", (char *)0);'
planted misspelt 'return tb_fail(e, TB_R_NOT_INSTALED, "Mesa %s is not installed", "1");'
planted code 'return tb_fail(e, TB_EFAIL, "Mesa %s is not installed", "1");'
planted code_errno 'return tb_fail_errno(e, TB_EUSAGE, "cannot read %s", "x");'
planted code_number 'return tb_fail_errno_as(e, 1, "cannot read %s", "x");'
planted code_launcher 'return e ? fail(TB_EFAIL, "x", (char *)0) : 0;'
# compiles CC NAME: CC takes the planted file as the build compiles the engine (with the
# sanitizers under make check SANITIZE=1); its messages in $T/out.
compiles() {
	"$1" -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I"$TB_TOP/ctl" -I"$TB_TOP/tb323fu-mesa" \
		${SANITIZE:+-fsanitize=address,undefined} -c -o "$T/$2.o" "$T/$2.c" >"$T/out" 2>&1
}
# refused CC NAME WHAT PATTERN: CC refuses the planted file, saying PATTERN.
refused() {
	if compiles "$1" "$2"; then not_ok "$1 refuses $3" "it compiled"
	elif grep -q "$4" "$T/out"; then ok "$1 refuses $3"
	else not_ok "$1 refuses $3" "$(head -n 10 "$T/out")"; fi
}
# the compiler of the build (CC, as make passes it on, else cc) and the fuzz targets' clang
compilers=${CC:-cc}
[ "$(command -v "$compilers")" = "$(command -v clang)" ] || compilers="$compilers clang"
for c in $compilers; do
	if ! command -v "$c" >/dev/null 2>&1; then
		skip "$c refuses a misspelt reason and an exit code for a reason" "$c is not installed"
		continue
	fi
	if compiles "$c" right; then ok "$c: failures raised by their reasons compile"; else
		not_ok "$c: failures raised by their reasons compile" "$(head -n 10 "$T/out")"; fi
	refused "$c" misspelt "a misspelt reason (TB_R_NOT_INSTALED)" TB_R_NOT_INSTALED
	exit_code='a reason (TB_R_...) goes here, not an exit code'
	refused "$c" code "an exit code where the reason goes (tb_fail(e, TB_EFAIL, …))" "$exit_code"
	refused "$c" code_errno "… tb_fail_errno(e, TB_EUSAGE, …)" "$exit_code"
	refused "$c" code_number "… tb_fail_errno_as(e, 1, …)" "$exit_code"
	refused "$c" code_launcher "… the launcher's fail(TB_EFAIL, …)" "$exit_code"
done

# --- what --json says of real failures ---
ids --table "$TB_TOP" >"$T/table"
# json_reason DESCRIPTION CMD…: the command's JSON names an id of the table, and its exit
# code is one the table gives that id.
json_reason() {
	what=$1
	shift
	run_cmd "$@"
	r=$(json_strict "$T/out" 'd["reason"]' 2>/dev/null)
	codes=$(awk -v r="$r" '$1 == r { $1 = ""; print }' "$T/table")
	case " $codes " in
	*" $rc "*) ok "$what: --json says $r, exit $rc, as the table gives" ;;
	*) not_ok "$what: --json says $r, exit $rc, as the table gives" "the table: ${codes:-no such id}" "$(head -c 300 "$T/out")" ;;
	esac
}
json_reason "remove of a version not installed" ctl --json mesa remove 2026.01.01
json_reason "an empty --store" "$CTL" --json --store= mesa status
json_reason "notes before any check" ctl --json mesa notes
json_reason "install-local of a file that is not there" ctl --json mesa install-local "$T/none.tar.gz"
printf 'not a tarball\n' >"$T/bad.tar.gz"
printf '%s  bad.tar.gz\n' "$(sha256sum <"$T/bad.tar.gz" | cut -d' ' -f1)" >"$T/SHA256SUMS"
json_reason "install-local of a file that is no release" ctl --json mesa install-local "$T/bad.tar.gz"

# --- ids more specific than failed, each raised for real (exit 1, as failed's) ---
# (config-invalid and program-failed: suite_files.sh, bench.sh; file-invalid: app_rules.sh;
# unsafe-path: hostile_suite.sh)
: >"$T/plain"
expect_exit 1 "a store under a regular file" "$CTL" --json --store "$T/plain/store" mesa status
reason_is io-error
check "…the sentence says what the system said" \
	test "$(json_strict "$T/out" 'd["message"]')" = "cannot open the store $T/plain/store: Not a directory"
# The launcher copies its arguments before it reads them: with 150,000 of them under an
# address-space bound that leaves room to start but not for the copy, that allocation fails.
# The bound is found by raising it step by step (the size of the program decides it, not the
# machine's speed); the sanitizers' shadow memory does not start under such a bound at all.
if [ "${SANITIZE:-}" = 1 ]; then
	skip "the launcher out of memory says out-of-memory, exit 1" "a sanitizer build cannot run under an address-space bound"
else
	python3 - "$MESA" >"$T/oom" <<'PY'
import json, resource, subprocess, sys
for kib in range(1024, 64 * 1024, 128):
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (kib * 1024, kib * 1024))
    p = subprocess.run([sys.argv[1], "--json", "which"] + ["x"] * 150000, preexec_fn=limit,
                       capture_output=True, text=True)
    if p.returncode >= 0 and p.stdout:
        d = json.loads(p.stdout)
        if d["reason"] != "usage":
            print(p.returncode, d["reason"], d["message"])
            break
PY
	check "the launcher out of memory (its arguments' copy under an address-space bound): out-of-memory, exit 1" \
		test "$(cat "$T/oom")" = "1 out-of-memory out of memory"
fi
done_testing
