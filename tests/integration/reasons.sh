#!/bin/sh
# The reason ids have one table (tb323fu-mesa/common/reasons.c, docs/design.md §9): every id
# the code records is in it with the exit code it is given, the documented list and the table
# are the same set, and what --json says of real failures is an id of the table with its exit
# code. The check itself sees an unknown id, a wrong exit code and an undocumented entry.
. "$TB_TOP/tests/lib.sh"

ids() { python3 "$TB_TOP/tests/tools/reason-ids.py" "$@"; }

run_cmd ids "$TB_TOP"
if [ "$rc" -eq 0 ]; then ok "every reason id the code names is in the table, with its exit code, and documented"; else
	not_ok "every reason id the code names is in the table, with its exit code, and documented" "$(head -n 20 "$T/out")"; fi

# --- the check sees what it is for (in a copy of the tree) ---
mkdir -p "$T/tree/docs"
cp -R "$TB_TOP/ctl" "$TB_TOP/tb323fu-mesa" "$T/tree/"
cp "$TB_TOP/docs/design.md" "$T/tree/docs/"
cat >>"$T/tree/ctl/store/state.c" <<'C'
static int planted_unknown(struct tb_error *e) { return tb_fail_why(e, TB_EFAIL, "no-such-reason", "x"); }
static int planted_code(struct tb_error *e)
{
	return tb_fail_why(e, TB_ENET,
			   "hash-mismatch", "x");
}
C
sed -i 's/R(TB_R_RULES_CORRUPT, "rules-corrupt"/R(TB_R_RULES_CORRUPT, "rules-planted"/' "$T/tree/tb323fu-mesa/common/reasons.c"
run_cmd ids "$T/tree"
check "the check names an unknown id by file and line" grep -q '^ctl/store/state.c:[0-9]*: reason "no-such-reason" is not in the table' "$T/out"
check "… a known id with another exit code, across lines" grep -q '^ctl/store/state.c:[0-9]*: reason "hash-mismatch" with exit code 5; the table gives \[4\]' "$T/out"
check "… an entry not documented, and a documented id not in the table" \
	sh -c "grep -q 'the table.s \"rules-planted\" is not documented' '$T/out' && grep -q '\"rules-corrupt\" is documented but not in the table' '$T/out'"
check "… and fails" test "$rc" -eq 1

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
done_testing
