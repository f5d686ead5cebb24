#!/bin/sh
# A user who cannot write the store: every command that changes it says, before touching
# anything, that it needs root and the line to type (exit 1, reason `permission`), and the
# store stays exactly as it was; what the state already answers comes first ("nothing to
# keep"); the readers (status, list, verify, doctor, the launcher) work for everyone.
. "$TB_TOP/tests/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v runuser >/dev/null; then
	skip "writers as nobody" "needs root and runuser to act as nobody"
	done_testing
	exit 0
fi
# nobody must reach the store and the programs (tests/lib.sh), and the directories opened for
# it are closed again at the end.
reachable_by nobody || { not_ok "nobody reaches the store and the programs"; done_testing; exit 1; }
V1=2026.10.06
V2=2026.10.09
R1=$(standin $V1) && R2=$(standin $V2) || { not_ok "stand-in releases"; done_testing; exit 1; }
ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null &&
	ctl mesa on >/dev/null || not_ok "a store with two versions, switched on, on trial"
# nobody CMD…: CMD as the user nobody (outputs as run_cmd keeps them).
nobody() { run_cmd runuser -u nobody -- env TB323FU_MESA_CONFIG="$TB323FU_MESA_CONFIG" "$@"; }
# snapshot: every path of the store with its type, mode, size, time, link target and content.
snapshot() {
	(cd "$STORE" && find . -printf '%p %y %m %s %T@ %l\n' | sort &&
		find . -type f -exec sha256sum {} + | sort)
}
BEFORE=$(snapshot)
SUDO='needs root for that: run `sudo tb323fu-ctl --store '

writer() {
	name=$1
	shift
	nobody "$CTL" --store "$STORE" mesa "$@"
	if [ "$rc" -eq 1 ] && grep -qF "$SUDO$STORE mesa $*\`" "$T/err"; then ok "nobody: $name says it needs root"; else
		not_ok "nobody: $name says it needs root" "exit $rc" "stderr: $(head -c 400 "$T/err")"; fi
	check "  and leaves the store as it was" test "$(snapshot)" = "$BEFORE"
}
writer check check
writer download download $V2
writer install install $V1
writer update update
writer install-local install-local "$R1" --no-smoke
# on while on is answered by the state (already on), for root and for every user alike
nobody "$CTL" --store "$STORE" mesa on
check "nobody: on while on says it is already on (exit 0), not that it needs root" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Mesa $V2 is already on; nothing was changed' '$T/out' && ! grep -q sudo '$T/err'"
check "  and leaves the store as it was" test "$(snapshot)" = "$BEFORE"
writer off off
writer keep keep
writer rollback rollback
writer boot-tick boot-tick
writer remove remove $V1
writer smoke smoke $V2

nobody "$CTL" --store "$STORE" --json mesa keep
check "--json: the reason is permission" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["reason"] == "permission" and not d["ok"] else 1)' "$T/out"

# --- readers work for everyone ---
nobody "$CTL" --store "$STORE" mesa status
check "nobody: status works" test "$rc" -eq 0 -a -s "$T/out"
nobody "$CTL" --store "$STORE" mesa list
check "nobody: list works" sh -c "[ $rc -eq 0 ] && grep -q '$V1' '$T/out' && grep -q '$V2' '$T/out'"
nobody "$CTL" --store "$STORE" mesa verify
check "nobody: verify works" test "$rc" -eq 0
nobody "$CTL" --store "$STORE" mesa doctor
check "nobody: doctor works (a report, exit 0 or 1 by what it finds)" \
	sh -c "[ $rc -le 1 ] && tail -n 1 '$T/out' | grep -Eq '(no problems|problems? found)$' && ! grep -q 'ermission denied' '$T/out' '$T/err'"
nobody "$MESA" --store "$STORE" which
check "nobody: tb323fu-mesa which works" sh -c "[ $rc -eq 0 ] && grep -q '$V2' '$T/out'"
nobody "$MESA" --store "$STORE" run true
check "nobody: tb323fu-mesa run works" test "$rc" -eq 0
check "the store is still as it was" test "$(snapshot)" = "$BEFORE"

# --- the state answers first ---
EMPTY=$T/empty
nobody "$CTL" --store "$EMPTY" mesa keep
check "nobody, nothing installed: keep says there is nothing to keep (exit 0)" \
	sh -c "[ $rc -eq 0 ] && grep -q 'nothing to keep' '$T/out'"
nobody "$CTL" --store "$EMPTY" mesa on
check "nobody, nothing installed: on says so, not that it needs root" \
	sh -c "[ $rc -eq 1 ] && grep -q 'no Mesa version installed' '$T/err' && ! grep -q sudo '$T/err'"
nobody "$CTL" --store "$STORE" mesa remove 2026.01.01
check "nobody: remove of a version not installed says so" \
	sh -c "[ $rc -eq 1 ] && grep -q 'Mesa 2026.01.01 is not installed' '$T/err'"
check "and no store was made" test ! -e "$EMPTY"
# One reason for both callers: what a user is told from the state is the body's own refusal.
for V in 2026.01.01 2026.10.05; do
	nobody "$CTL" --json --store "$STORE" mesa remove $V
	user_reason=$(sed -n 's/.*"reason":"\([^"]*\)".*/\1/p' "$T/out")
	user_said=$(sed -n 's/.*"message":"\([^"]*\)".*/\1/p' "$T/out")
	run_cmd "$CTL" --json --store "$STORE" mesa remove $V
	root_reason=$(sed -n 's/.*"reason":"\([^"]*\)".*/\1/p' "$T/out")
	root_said=$(sed -n 's/.*"message":"\([^"]*\)".*/\1/p' "$T/out")
	check "remove $V, not installed: a user and root get the same reason ($root_reason) and sentence" \
		sh -c "[ '$user_reason' = not-installed ] && [ '$root_reason' = '$user_reason' ] && [ '$user_said' = '$root_said' ]"
done
ctl mesa keep >/dev/null
nobody "$CTL" --store "$STORE" mesa keep
check "nobody, nothing on trial: nothing to keep" sh -c "[ $rc -eq 0 ] && grep -q 'nothing to keep' '$T/out'"
ctl mesa off >/dev/null
nobody "$CTL" --store "$STORE" mesa off
check "nobody, switched off: off says it is already off, not that it needs root" \
	sh -c "[ $rc -eq 0 ] && grep -qx \"Mesa is already off: programs use the distribution's Mesa; nothing was changed\" '$T/out' && ! grep -q sudo '$T/err'"
nobody "$CTL" --store "$STORE" mesa install $V2
check "nobody: install of the current version says it is already current, not that it needs root" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Mesa $V2 is already the current version; nothing was changed' '$T/out'"
nobody "$CTL" --store "$T/typo" mesa off
check "nobody: off on a store that is not there says so, and makes none" \
	sh -c "[ $rc -eq 0 ] && grep -q 'nothing to switch off: there is no store at $T/typo' '$T/out' && test ! -e '$T/typo'"
unreachable_again
done_testing
