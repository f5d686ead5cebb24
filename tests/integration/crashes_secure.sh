#!/bin/sh
# Programs the loaders will not switch (docs/design.md §18): a copy of a program given a real
# file capability (setcap) starts with AT_SECURE for a user; `run` says so on stderr and still
# starts it, `which --pid` says the process is not switchable, doctor lists the desktop's
# application whose program it is. And the crash watcher's units: sandboxed like the check
# service (systemd-analyze security), accepted by systemd-analyze verify.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

R1=$(standin 2026.10.06) && ctl mesa install-local "$R1" --no-smoke >/dev/null ||
	{ not_ok "install a stand-in release"; done_testing; exit 1; }

if ! command -v setcap >/dev/null || [ "$(id -u)" -ne 0 ] || ! command -v runuser >/dev/null ||
	! reachable_by nobody; then
	skip "a program with a file capability under run" "needs root, runuser and setcap (libcap2-bin)"
else
	mkdir -p "$T/bin"
	chmod 755 "$T" "$T/bin"
	cp "$(command -v sleep)" "$T/bin/capsleep"
	if ! setcap cap_sys_nice+ep "$T/bin/capsleep" 2>"$T/setcap.err"; then
		skip "a program with a file capability under run" "setcap refused here: $(cat "$T/setcap.err")"
	else
		chmod -R o+rX "$STORE"
		runuser -u nobody -- "$MESA" --store "$STORE" run "$T/bin/capsleep" 60 2>"$T/run.err" &
		runner=$!
		TB_KILL_ON_EXIT="$runner"
		# a bound for the program to be there, not a guess at how long it takes
		wait_until 30 sh -c "pgrep -u nobody -x capsleep >'$T/pid'"
		pid=$(head -n 1 "$T/pid")
		TB_KILL_ON_EXIT="$runner $pid"
		check "run says on stderr that it starts with AT_SECURE" grep -q "capsleep has file capabilities, so it starts with AT_SECURE" "$T/run.err"
		check "…and the program still started" test -n "$pid"
		expect_exit 0 "which --pid on it" mesa which --pid "$pid"
		check "…says it is not switchable" grep -q "is not switchable" "$T/out"
		expect_exit 0 "which --pid --json on it" mesa --json which --pid "$pid"
		check "…switchable false" json_strict "$T/out" 'd["switchable"] is False or exit(1)'
		expect_exit 0 "which --pid on this shell" mesa --json which --pid $$
		check "…which is switchable" json_strict "$T/out" 'd["switchable"] is True or exit(1)'
		kill "$pid" 2>/dev/null
		wait "$runner" 2>/dev/null
		entry org.example.Niced.desktop '[Desktop Entry]' 'Type=Application' 'Name=Niced' "Exec=$T/bin/capsleep 1"
		ctl --json mesa doctor >"$T/out" 2>/dev/null
		check "doctor lists the application whose program has a capability, with the way that works" \
			json_strict "$T/out" '[(a["app"], a["why"]) for a in d["not_switchable"]] == [("org.example.Niced.desktop", "file capabilities")] and "gamescope" in d["not_switchable"][0]["way"] or exit(1)'
		ctl mesa doctor >"$T/out" 2>/dev/null
		check "…for people" grep -q "org.example.Niced.desktop ($T/bin/capsleep) has file capabilities" "$T/out"
	fi
fi

# --- the watcher's units
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$T/units"
	ln -s "$CTL" "$T/tb323fu-ctl-mesa"
	for u in tb323fu-mesa-crashes.service tb323fu-mesa-crashes.path tb323fu-mesa-boot-tick.service; do
		sed "s|@LIBEXECDIR@|$T|g" "$TB_TOP/dist/systemd/$u.in" >"$T/units/$u"
	done
	check "systemd-analyze verify accepts the watcher's units" sh -c "cd '$T/units' && systemd-analyze verify tb323fu-mesa-crashes.path tb323fu-mesa-crashes.service >'$T/verify' 2>&1 || { cat '$T/verify'; exit 1; }"
	for svc in tb323fu-mesa-crashes.service tb323fu-mesa-boot-tick.service; do
		systemd-analyze security --offline=yes "$T/units/$svc" >"$T/sec" 2>&1
		score=$(sed -n "s/.*Overall exposure level for $svc: \([0-9.]*\).*/\1/p" "$T/sec")
		echo "# systemd-analyze security --offline=yes $svc: $score"
		check "systemd-analyze security rates $svc at most 3.0 (it says $score)" \
			python3 -c "import sys; sys.exit(not (0 < float(sys.argv[1]) <= 3.0))" "${score:-0}"
	done
	check "the service runs crashes --apply" grep -q "^ExecStart=$T/tb323fu-ctl-mesa .*crashes --apply" "$T/units/tb323fu-mesa-crashes.service"
	# each user's own: a user's crash pins in that user's rules (§18)
	mkdir -p "$T/user-units" "$T/user-run"
	chmod 700 "$T/user-run"
	for u in tb323fu-mesa-crashes-user.service tb323fu-mesa-crashes-user.path; do
		sed "s|@LIBEXECDIR@|$T|g" "$TB_TOP/dist/systemd/user/$u.in" >"$T/user-units/$u"
	done
	check "systemd-analyze verify --user accepts the user's watcher units" sh -c "cd '$T/user-units' && XDG_RUNTIME_DIR='$T/user-run' systemd-analyze --user verify tb323fu-mesa-crashes-user.path tb323fu-mesa-crashes-user.service >'$T/verify' 2>&1 || { cat '$T/verify'; exit 1; }"
	check "the user's service runs crashes --apply --user" grep -q "^ExecStart=$T/tb323fu-ctl-mesa .*crashes --apply --user$" "$T/user-units/tb323fu-mesa-crashes-user.service"
else
	skip "the watcher's units" "no systemd-analyze"
fi
done_testing
