#!/bin/sh
# -q (--quiet), for scripts: a command that succeeds prints nothing at all (no sentence, no
# progress, even with --progress bar), one that fails still says why on stderr, and every exit
# code is the one the same command gives without -q. --json output stays (it was asked for).
. "$TB_TOP/tests/lib.sh"

printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
R1=$(tiny_release 2026.10.01 "$T/r1") && R2=$(tiny_release 2026.10.02 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
# silent CMD…: CMD exits 0 with nothing on stdout or stderr.
silent() {
	run_cmd "$@"
	_cmd=$*
	if [ "$rc" -eq 0 ] && [ ! -s "$T/out" ] && [ ! -s "$T/err" ]; then ok "${_cmd#"$CTL"}: exit 0, nothing printed"
	else not_ok "$*: exit 0, nothing printed" "exit $rc" "stdout: $(head -c 300 "$T/out")" "stderr: $(head -c 300 "$T/err")"; fi
}

# --- success: nothing said, the work done ---
run_cmd ctl --progress bar mesa install-local "$R1"
check "without -q, install-local with --progress bar shows progress and a sentence" \
	sh -c "[ -s '$T/err' ] && grep -q 'Mesa 2026.10.01 installed' '$T/out'"
silent ctl -q --progress bar mesa install-local "$R2"
check "  -q: it was installed all the same" test "$(readlink "$STORE/current")" = versions/2026.10.02
silent ctl mesa rollback --quiet
check "  --quiet after the command: rollback done" test "$(readlink "$STORE/current")" = versions/2026.10.01
silent ctl mesa -q off
run_cmd ctl -q --json mesa status
check "-q --json: the JSON object is still printed" test "$(json_strict "$T/out" 'd["installed"]')" = 2026.10.01

# --- failure: the error sentence stays, and the exit code ---
expect_exit 1 "-q install of a version not downloaded: exit 1 as without -q" ctl -q mesa install 2030.1.1
check "  the error sentence is on stderr" \
	grep -qx 'tb323fu-ctl: Mesa 2030.1.1 is not installed; `tb323fu-ctl --store '"$STORE"' mesa list --available` shows the versions on offer and those installed' "$T/err"
check "  nothing on stdout" test ! -s "$T/out"
expect_exit 2 "-q with a usage error: exit 2" ctl -q mesa instal
check "  the usage sentence is on stderr" grep -q "did you mean" "$T/err"
expect_exit 1 "-q remove of current: exit 1" ctl -q mesa remove 2026.10.01
check "  says why (in-use)" grep -q "is current, so it stays" "$T/err"
# the same exit code with and without -q, command by command
for args in "mesa status" "mesa keep" "mesa on" "mesa doctor" "mesa remove 2026.09.09" "mesa verify" "mesa bogus"; do
	# shellcheck disable=SC2086
	ctl $args >/dev/null 2>&1
	a=$?
	# shellcheck disable=SC2086
	ctl -q $args >/dev/null 2>&1
	b=$?
	check "  $args: exit $a without -q and with it" test "$a" = "$b"
done
done_testing
