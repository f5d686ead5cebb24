# shellcheck shell=sh disable=SC2034 # FIX, V1, V2 and REAL are for the scripts that source this
# Sourced by the crash evidence's tests (after lib.sh and app-lib.sh): the two stand-in
# versions, a fresh store switched on to the newer (on trial), and journal files written by
# systemd's own writer from crash_journal.py's forms.
FIX="$TB_TOP/tests/fixtures/crashes"
V1=2026.10.06
V2=2026.10.07
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "the stand-in releases"; done_testing; exit 1; }

# fresh: a new store with V1 and V2 installed and the session on (V2 on trial).
fresh() {
	rm -rf "$STORE" "$LOCAL_APPS"
	ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null &&
		ctl mesa on >/dev/null 2>&1 || return 1
	REAL=$(cd "$STORE" && pwd -P)
}
# journal FILE ENTRY…: a journal file of these entries (crash_journal.py's forms), the store
# path being this test's.
journal() {
	_out=$1
	shift
	CRASH_STORE=$REAL python3 "$TB_TOP/tests/tools/crash_journal.py" "$_out" "$@"
}
