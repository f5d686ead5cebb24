#!/bin/sh
# Readers share, writers exclude (docs/design.md §3, "Pins"): while `bench` reads a version
# (held at a gate the test opens, so nothing depends on speed), on, rollback, off and installs
# proceed; remove of the version it reads says which process reads it (pid and command) and
# changes nothing, and with --wait says so once, waits, and removes it once the reader is done.
# A writer waiting for the store's lock names the writer that holds it, once. Arguments are
# checked before any lock: `install 2026.1.1` answers its argument, not "busy".
. "$TB_TOP/tests/lib.sh"

V1=2026.10.06
V2=2026.10.07
if ! R1=$(standin $V1) || ! R2=$(standin $V2); then
	not_ok "stand-in releases"
	done_testing
	exit 1
fi
printf 'smoke = off\n' >"$TB323FU_MESA_CONFIG"
if ! ctl mesa install-local "$R1" >/dev/null 2>&1 || ! ctl mesa install-local "$R2" >/dev/null 2>&1; then
	not_ok "install-local of $V1 and $V2"
	done_testing
	exit 1
fi
# current V2, previous V1

# bench of V1 whose benchmark waits at a gate while $T/hold exists
mkfifo "$T/gate"
: >"$T/hold"
cat >"$T/gated-bench" <<EOF2
#!/bin/sh
echo started >>"$T/started"
[ -e "$T/hold" ] && cat "$T/gate" >/dev/null
echo "Global memory bandwidth (GBPS)"
echo "  float : 10"
EOF2
chmod 755 "$T/gated-bench"
ctl mesa bench $V1 --rounds 1 --command "$T/gated-bench" >"$T/bench.out" 2>"$T/bench.err" &
bench_job=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $bench_job"
wait_for "bench of $V1 runs its benchmark" test -s "$T/started"
# the reader's pid, as its pin names it (.pins/<v>@<pid>)
bench_pid=
for f in "$STORE/.pins/$V1@"*; do [ -e "$f" ] && bench_pid=${f##*@}; done
check "bench pins $V1 (.pins/$V1@PID)" test -n "$bench_pid"

expect_exit 0 "on while bench runs" ctl mesa on
expect_exit 0 "rollback while bench runs" ctl mesa rollback
check "…$V1 is current" test "$(readlink "$STORE/current")" = "versions/$V1"
expect_exit 0 "rollback again" ctl mesa rollback
expect_exit 0 "off while bench runs" ctl mesa off
expect_exit 3 "remove --force of $V1, which bench reads" ctl --json mesa remove --force $V1
reason_is busy
check "…names the reader: its pid and command" test "$(json_strict "$T/out" 'd["message"]')" = \
	"busy: Mesa $V1 is being read by pid $bench_pid (tb323fu-ctl bench); nothing was changed; try again when it is done, or pass --wait"
check "…and changes nothing" sh -c "[ -d '$STORE/versions/$V1' ] && [ \"\$(readlink '$STORE/previous')\" = versions/$V1 ]"
ctl --wait mesa remove --force $V1 >"$T/rm.out" 2>"$T/rm.err" &
rm_job=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $rm_job"
wait_for "remove --wait says what it waits for" grep -q "waiting: Mesa $V1 is being read by pid $bench_pid (tb323fu-ctl bench)" "$T/rm.err"
check "…while $V1 is still there" test -d "$STORE/versions/$V1"
rm -f "$T/hold"
: >"$T/gate" # the benchmark goes on, and bench ends
wait "$bench_job"
check "bench ends well" test $? -eq 0
wait "$rm_job"
check "the waiting remove then removes $V1" sh -c "[ $? -eq 0 ] && [ ! -e '$STORE/versions/$V1' ]"
check "…saying what it waited for once" test "$(grep -c waiting "$T/rm.err")" = 1
check "no pin is left" sh -c "! ls '$STORE/.pins/'*@* >/dev/null 2>&1"

# a writer that waits for the store's lock names the writer that holds it
paused locked "$CTL" --store "$STORE" mesa on || not_ok "on paused at locked" "$(cat "$T/paused.err")"
expect_exit 3 "off while on holds the lock" ctl mesa off
check "…names the holder" grep -q "busy: pid $paused_pid (tb323fu-ctl on[,)].* is changing the store" "$T/err"
ctl --wait mesa off >"$T/off.out" 2>"$T/off.err" &
off_job=$!
TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $off_job"
wait_for "off --wait says what it waits for" grep -q "waiting for the store's lock, held by pid $paused_pid (tb323fu-ctl on" "$T/off.err"
# the argument first: no lock needed to say it is wrong
expect_exit 1 "install 2026.1.1 while the lock is held" ctl --json mesa install 2026.1.1
check "…answers its argument, not busy" test "$(json_strict "$T/out" 'd["reason"], d["message"]')" = \
	"('not-installed', 'Mesa 2026.1.1 is not installed; \`tb323fu-ctl --store $STORE mesa list --available\` shows the versions on offer and those installed')"
expect_exit 1 "remove 2026.10.7 while the lock is held" ctl mesa remove 2026.10.7
check "…answers its argument, naming the nearest" grep -q "Mesa 2026.10.7 is not installed; did you mean $V2?" "$T/err"
resume
wait "$paused_job"
wait "$off_job"
check "the waiting off then runs" test $? -eq 0
check "…saying what it waited for once" test "$(grep -c waiting "$T/off.err")" = 1
done_testing
