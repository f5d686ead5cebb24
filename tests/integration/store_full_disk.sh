#!/bin/sh
# A full disk under the store (docs/design.md §12): the ways out of a bad build (off,
# boot-tick's switch-off, rollback) still work and say what to delete; any other writer
# changes nothing and says so; an install whose disk fills at its end is finished by the same
# install-local once there is room.
. "$TB_TOP/tests/lib.sh"

if ! { mkdir -p "$T/small" && mount -t tmpfs -o size=2m tmpfs "$T/small" 2>/dev/null; }; then
	ok "full disk # SKIP cannot mount a tmpfs here"
	done_testing
	exit 0
fi
_tb_umount() { umount "$T/small" 2>/dev/null; _tb_cleanup; }
trap _tb_umount EXIT
STORE="$T/small/store"
R1=$(tiny_release 2026.1.1 "$T/r1") && R2=$(tiny_release 2026.2.1 "$T/r2") && R3=$(tiny_release 2026.3.1 "$T/r3") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
printf 'max_tries = 1\n' >"$TB323FU_MESA_CONFIG"
export TB323FU_BOOT_ID=boot-1
ctl mesa install-local "$R1" --no-smoke >/dev/null && ctl mesa install-local "$R2" --no-smoke >/dev/null &&
	ctl mesa on >/dev/null || { not_ok "set-up"; done_testing; exit 1; }
check "the store keeps a reserve" test -s "$STORE/.reserve"
fill() { dd if=/dev/zero of="$T/small/fill" bs=4k >/dev/null 2>&1; true; }
snapshot() { (cd "$STORE" && find . -path ./.lock -prune -o -path ./.reserve -prune -o -print | sort &&
	cat state env.conf env/current.env && readlink current previous); }

fill
before=$(snapshot)
expect_exit 1 "a full disk: install-local fails" ctl mesa install-local "$R3" --no-smoke
check "…saying nothing was changed" grep -q "nothing was changed" "$T/err"
check "…and what to delete" grep -q "partial downloads in cache/" "$T/err"
check "…with reason no-space in JSON" sh -c "\"$CTL\" --store '$STORE' --json mesa install-local '$R3' --no-smoke 2>/dev/null | grep -q '\"reason\":\"no-space\"'"
check "…the store exactly as before" test "$(snapshot)" = "$before"

expect_exit 0 "a full disk: rollback still works" ctl mesa rollback
check "…current is the previous version" test "$(readlink "$STORE/current")" = versions/2026.1.1
check "…it says the disk is full" grep -q "the disk is full" "$T/out"
check "…env.conf follows the new current" cmp -s "$STORE/env.conf" "$STORE/env/current.env"
check "…no temporaries left" test -z "$(find "$STORE" -name '.*tmp*')"

rm -f "$T/small/fill"
ctl mesa status >/dev/null
ctl mesa keep >/dev/null # a writer: the reserve comes back
check "the reserve comes back once there is room" test -s "$STORE/.reserve"
fill
expect_exit 0 "a full disk: off still works" ctl mesa off
check "…env.conf is empty" test ! -s "$STORE/env.conf"
check "…state says off" grep -qx "enabled=0" "$STORE/state"

rm -f "$T/small/fill"
ctl mesa on >/dev/null
fill
TB323FU_BOOT_ID=boot-2 ctl mesa boot-tick >/dev/null 2>&1 # the first start of the trial
rm -f "$T/small/fill"
ctl mesa keep >/dev/null; ctl mesa on >/dev/null 2>&1; ctl mesa off >/dev/null; ctl mesa on >/dev/null
TB323FU_BOOT_ID=boot-2 ctl mesa boot-tick >/dev/null
fill
TB323FU_BOOT_ID=boot-3 expect_exit 0 "a full disk: boot-tick still switches an unconfirmed trial off" ctl mesa boot-tick
check "…switched off" sh -c "grep -qx enabled=0 '$STORE/state' && test ! -s '$STORE/env.conf'"
check "…the failed version recorded" grep -q "^failed=2026.1.1" "$STORE/state"
rm -f "$T/small/fill"

# the disk fills at the end of an install: its tree is in place, its commit fails; once there
# is room again the same install-local makes it current (docs/design.md §12, install means install)
ctl mesa keep >/dev/null 2>&1
if paused placed "$CTL" --store "$STORE" mesa install-local "$R3" --no-smoke; then
	ok "an install stopped with its tree in place, before its commit"
	fill
	resume
	wait "$paused_job"
	rc=$?
	check "…the disk full there: it fails" test "$rc" -ne 0
	check "…saying the disk is full" grep -q "the disk holding $STORE is full" "$T/paused.err"
	check "…2026.3.1 is not current" test "$(readlink "$STORE/current")" != versions/2026.3.1
	rm -f "$T/small/fill"
	expect_exit 0 "the same install-local again, with room" ctl mesa install-local "$R3" --no-smoke
	check "…makes 2026.3.1 current" test "$(readlink "$STORE/current")" = versions/2026.3.1
else
	not_ok "an install stopped with its tree in place, before its commit" "$(cat "$T/paused.err")"
fi
done_testing
