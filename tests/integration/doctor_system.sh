#!/bin/sh
# doctor and what makes `on` real: while switched on, the session files must lead to this
# store's env.conf and, while a trial runs, the boot-tick unit must be enabled; doctor also
# verifies current. Each problem makes it exit 1. The system's /etc/environment.d and
# /etc/systemd/system are replaced by empty ones in a private mount namespace, so the
# machine's own files are neither read nor changed.
. "$TB_TOP/tests/lib.sh"

if ! unshare -m true 2>/dev/null || [ ! -d /etc/environment.d ] || [ ! -d /etc/systemd/system ]; then
	skip "doctor's system checks" "needs a private mount namespace and /etc/environment.d, /etc/systemd/system"
	done_testing
	exit 0
fi
V=2026.10.06
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
ctl mesa install-local "$R" --no-smoke >/dev/null || not_ok "install $V"
REAL=$(cd "$STORE" && pwd -P)

# doctor_with SETUP: doctor in a namespace whose two directories start empty; SETUP (shell
# text) fills them first.
doctor_with() {
	run_cmd unshare -m sh -c '
		mount -t tmpfs none /etc/environment.d && mount -t tmpfs none /etc/systemd/system &&
		eval "$1" && exec "$2" --store "$3" mesa doctor' sh "$1" "$CTL" "$STORE"
}

doctor_with true
check "switched off: session files and units are not asked for (exit 0)" \
	sh -c "[ $rc -eq 0 ] && tail -n 1 '$T/out' | grep -qx 'no problems found'"
check "it verifies current" grep -q "Mesa $V is intact" "$T/out"

ctl mesa on >/dev/null || not_ok "on"
doctor_with true
check "on, nothing installed in /etc: exit 1" test "$rc" -eq 1
check "  the environment.d link is missing, in the sentence on and status say" \
	grep -q "problem: it is switched on, but no login reads the store $REAL (/etc/environment.d/60-tb323fu-mesa.conf is missing), so programs keep the distribution's Mesa" "$T/out"
check "  the boot-tick unit is not enabled" \
	grep -q "problem: the boot-tick unit is not enabled, so the starts of Mesa $V on trial are not counted" "$T/out"
check "  and how to enable it" grep -q 'sudo systemctl enable tb323fu-mesa-boot-tick.service' "$T/out"
check "  the report is on stdout, counted" test "$(tail -n 1 "$T/out")" = "2 problems found"

ENABLE='mkdir -p /etc/systemd/system/multi-user.target.wants &&
	ln -s /usr/lib/systemd/system/tb323fu-mesa-boot-tick.service /etc/systemd/system/multi-user.target.wants/'
doctor_with "ln -s /var/lib/tb323fu/mesa/env.conf /etc/environment.d/60-tb323fu-mesa.conf && $ENABLE"
check "a link to another store's env.conf is a problem" \
	grep -q "problem: it is switched on, but no login reads the store $REAL (/etc/environment.d/60-tb323fu-mesa.conf leads to another store's env.conf)" "$T/out"
check "  the enabled unit is seen" grep -q 'boot-tick: enabled' "$T/out"

doctor_with "ln -s '$STORE/env.conf' /etc/environment.d/60-tb323fu-mesa.conf && $ENABLE"
check "this store's link and the enabled unit: exit 0" \
	sh -c "[ $rc -eq 0 ] && tail -n 1 '$T/out' | grep -qx 'no problems found'"
check "  the session files are named" grep -q "session files: /etc/environment.d/60-tb323fu-mesa.conf reads this store's env.conf" "$T/out"

ctl mesa keep >/dev/null
doctor_with "ln -s '$STORE/env.conf' /etc/environment.d/60-tb323fu-mesa.conf"
check "kept (no trial): the unit is not required" test "$rc" -eq 0

# a damaged file of current
F=$(cd "$STORE/versions/$V" && find lib -type f | head -n 1)
chmod u+w "$STORE/versions/$V/$(dirname "$F")" "$STORE/versions/$V/$F"
printf 'x' >>"$STORE/versions/$V/$F"
doctor_with "ln -s '$STORE/env.conf' /etc/environment.d/60-tb323fu-mesa.conf"
check "a damaged file of current: exit 1, named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'problem: Mesa $V is damaged: .*$F' '$T/out'"
run_cmd "$CTL" --store "$STORE" --json mesa doctor
check "--json: ok false, the problems listed, reason failed" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if not d["ok"] and d["problems"] and d["reason"] == "failed" else 1)' "$T/out"
done_testing
