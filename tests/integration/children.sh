#!/bin/sh
# The programs tb323fu-ctl runs (a benchmark, piglit, the smoke program, dEQP) end with
# everything they started: on SIGTERM to tb323fu-ctl (which then exits with reason
# interrupted, the store as it was), after their time limit, and when they end by themselves.
# The smoke program ends on SIGTERM whatever it inherited. A writer publishes what it runs;
# a record its writer left behind is known for stale by the store's lock, not by its pid.
# Every wait is for a condition (a file a fake child writes when it started), with a bound.
. "$TB_TOP/tests/lib.sh"

V=2026.08.01
R=$(standin $V) || { not_ok "stand-in release"; done_testing; exit 1; }
expect_exit 0 "install-local $V" ctl mesa install-local "$R" --sums "$(dirname "$R")/SHA256SUMS" --no-smoke
# Limits far beyond the waits below: a command that ends within them ended by our signal.
export TB323FU_MESA_SMOKE_TIMEOUT=3600 TB323FU_MESA_BENCH_TIMEOUT=3600 TB323FU_MESA_PIGLIT_TIMEOUT=3600

# start NAME CMD…: runs CMD in the background; its pid goes to $T/NAME.pid, its exit status to
# $T/NAME.rc when it ends, its output to $T/NAME.out and $T/NAME.err.
start() {
	_n=$1
	shift
	rm -f "$T/$_n.pid" "$T/$_n.rc"
	(
		sh -c 'echo $$ >"$0.pid"; exec "$@"' "$T/$_n" "$@" >"$T/$_n.out" 2>"$T/$_n.err"
		echo $? >"$T/$_n.rc.tmp" && mv "$T/$_n.rc.tmp" "$T/$_n.rc"
	) &
	wait_until 30 test -s "$T/$_n.pid"
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $(cat "$T/$_n.pid")"
}
ended() { test -s "$T/$1.rc"; }
# group_gone PGID: no process of the group is left (zombies waiting for init count as gone).
group_gone() {
	for _p in $(pgrep -g "$1" 2>/dev/null); do
		case $(ps -o stat= -p "$_p" 2>/dev/null) in '' | Z*) ;; *) return 1 ;; esac
	done
}
# Whatever a failed check left running goes before the next one starts.
sweep() {
	[ -s "$T/pgid" ] && kill -KILL "-$(cat "$T/pgid")" 2>/dev/null
	for _f in "$T"/*.pid; do [ -s "$_f" ] && kill -KILL "$(cat "$_f")" 2>/dev/null; done
	rm -f "$T/pgid" "$T/grandchild" "$T/started"
}

# A child that starts a grandchild and waits for it: it writes its group and the grandchild's
# pid, then $T/started.
cat >"$T/hang" <<EOF2
#!/bin/sh
sleep 1000 &
echo \$! >"$T/grandchild"
ps -o pgid= \$\$ | tr -d ' ' >"$T/pgid"
: >"$T/started"
wait
EOF2
chmod 755 "$T/hang"

# interrupted NAME WHAT: after SIGTERM, NAME ended in time with reason interrupted, naming
# WHAT; its group and the grandchild are gone.
interrupted() {
	check "$1: tb323fu-ctl ends on SIGTERM" wait_until 60 ended "$1"
	check "…exit 1, reason interrupted" test "$(cat "$T/$1.rc" 2>/dev/null)" = 1
	check "…the JSON says so" test "$(json 'd["reason"]' <"$T/$1.out" 2>/dev/null)" = interrupted
	check "…the sentence names it" grep -q "interrupted by SIGTERM while $2" "$T/$1.err"
	check "…no process of the child's group is left" wait_until 30 group_gone "$(cat "$T/pgid")"
	[ ! -s "$T/grandchild" ] ||
		check "…nor the grandchild it started" wait_until 30 sh -c "! kill -0 $(cat "$T/grandchild") 2>/dev/null"
	check "…the store as it was: no smoke result" test ! -e "$STORE/smoke/$V.json"
	check "…and no writer shown" test "$(ctl mesa status --json | json 'd["op"]')" = ""
	sweep
}

# --- bench --------------------------------------------------------------------------------------
start bench "$CTL" --store "$STORE" --json mesa bench $V --rounds 1 --command "$T/hang"
check "bench: the benchmark started" wait_until 60 test -e "$T/started"
check "…status shows the running bench" \
	test "$(ctl mesa status --json | json 'd["op"], d["state"]')" = "('bench', 'benchmarking')"
kill -TERM "$(cat "$T/bench.pid")"
interrupted bench "the benchmark ran"

# A second signal, as impatient people send it, leaves nothing running either.
start bench2 "$CTL" --store "$STORE" --json mesa bench $V --rounds 1 --command "$T/hang"
check "bench, signalled twice: the benchmark started" wait_until 60 test -e "$T/started"
kill -TERM "$(cat "$T/bench2.pid")"
kill -TERM "$(cat "$T/bench2.pid")"
check "…tb323fu-ctl ends" wait_until 60 ended bench2
check "…no process of the child's group is left" wait_until 30 group_gone "$(cat "$T/pgid")"
check "…nor the grandchild" wait_until 30 sh -c "! kill -0 $(cat "$T/grandchild") 2>/dev/null"
sweep

TB323FU_MESA_BENCH_TIMEOUT=1 expect_exit 1 "bench: a benchmark over its time limit is stopped" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa bench $V --rounds 1 --command "$T/hang"
check "…the sentence names the limit and how to raise it" \
	grep -q "the benchmark ran longer than its time limit of 1 s a run and was stopped with everything it started; set TB323FU_MESA_BENCH_TIMEOUT=SECONDS" "$T/err"
check "…its group is gone" wait_until 30 group_gone "$(cat "$T/pgid")"
sweep

# A benchmark that ends by itself takes what it left running with it.
cat >"$T/leaves" <<EOF2
#!/bin/sh
sleep 1000 >/dev/null 2>&1 &
echo \$! >>"$T/left"
echo "Kernel launch latency : 4 us"
EOF2
chmod 755 "$T/leaves"
: >"$T/left"
expect_exit 0 "bench: a benchmark that leaves a process behind" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa bench $V --rounds 1 --command "$T/leaves"
left_gone() { for _p in $(cat "$T/left"); do ! kill -0 "$_p" 2>/dev/null || return 1; done; }
check "…the processes it left are gone" wait_until 30 left_gone
rm -f "$STORE/smoke/$V.json"

# --- piglit -------------------------------------------------------------------------------------
start piglit env TB323FU_MESA_PIGLIT="$T/hang" "$CTL" --store "$STORE" --json mesa smoke $V --suite piglit-cl
check "piglit: piglit started" wait_until 60 test -e "$T/started"
kill -TERM "$(cat "$T/piglit.pid")"
interrupted piglit "piglit ran"

TB323FU_MESA_PIGLIT=$T/hang TB323FU_MESA_PIGLIT_TIMEOUT=1 expect_exit 1 "piglit: a run over its time limit is stopped" \
	timeout -k 5 120 "$CTL" --store "$STORE" mesa smoke $V --suite piglit-cl
check "…the sentence names the limit" grep -q "piglit ran longer than its time limit of 1 s a run" "$T/err"
check "…its group is gone" wait_until 30 group_gone "$(cat "$T/pgid")"
sweep

# --- the smoke tests and dEQP -------------------------------------------------------------------
start smoke env TB323FU_MESA_SMOKE="$T/hang" "$CTL" --store "$STORE" --json mesa smoke $V
check "smoke: the smoke program started" wait_until 60 test -e "$T/started"
kill -TERM "$(cat "$T/smoke.pid")"
interrupted smoke "the smoke tests ran"

# An install stopped in its smoke tests records no failure: the version stays in versions/,
# not current, and the rest of the store is as it was. (A version new to the store:
# installing the current one again is answered from the state, no smoke.)
V2=2026.08.02
R2=$(standin $V2) || not_ok "stand-in release $V2"
start install env TB323FU_MESA_SMOKE="$T/hang" "$CTL" --store "$STORE" --json mesa install-local "$R2" \
	--sums "$(dirname "$R2")/SHA256SUMS"
check "install: the smoke program started" wait_until 60 test -e "$T/started"
kill -TERM "$(cat "$T/install.pid")"
interrupted install "the smoke tests of Mesa $V2 ran: it stays in $STORE/versions, not current, and nothing else was changed; the same command run again smoke-tests it and makes it current"
check "…no failure is recorded against $V2, $V stays current" \
	test "$(ctl mesa status --json | json 'd["installed"], d["failed"], d["failed_reason_id"]')" = "('$V', '', '')"
ctl mesa remove $V2 >/dev/null 2>&1 || true

printf 'dEQP-VK.compute.fake.pass_1\ndEQP-VK.compute.fake.hang_1\n' >"$T/cases.txt"
cat >"$T/deqp" <<EOF2
#!/bin/sh
ps -o pgid= \$\$ | tr -d ' ' >"$T/pgid"
: >"$T/started"
exec "$TB_TOP/tests/doubles/fake-deqp-vk" "\$@"
EOF2
chmod 755 "$T/deqp"
start deqp "$CTL" --store "$STORE" --json mesa smoke $V --deqp "$T/deqp" --caselist "$T/cases.txt"
check "dEQP: dEQP started" wait_until 60 test -e "$T/started"
kill -TERM "$(cat "$T/deqp.pid")"
interrupted deqp "dEQP-VK ran"

# The smoke program itself, started with SIGTERM ignored (as a shell's `trap '' TERM` leaves it
# to what it runs) and stuck in a driver: SIGTERM still ends it.
cat >"$T/hang-icd.c" <<'EOF2'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int vk_icdNegotiateLoaderICDInterfaceVersion(unsigned *v)
{
	FILE *f = fopen(getenv("HANG_ICD_STARTED"), "w");
	if (f)
		fclose(f);
	for (;;)
		pause();
	return 0;
}
void *vk_icdGetInstanceProcAddr(void *i, const char *n) { return 0; }
EOF2
if cc -shared -fPIC -o "$T/hang-icd.so" "$T/hang-icd.c"; then
	printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.3.0"}}\n' \
		"$T/hang-icd.so" >"$T/hang-icd.json"
	start prog env VK_DRIVER_FILES="$T/hang-icd.json" HANG_ICD_STARTED="$T/started" \
		sh -c 'trap "" TERM; exec "$@"' sh "$SMOKE" --json --no-opencl
	check "the smoke program: stuck in the driver" wait_until 60 test -e "$T/started"
	kill -TERM "$(cat "$T/prog.pid")"
	check "…it ends on SIGTERM although it was started with SIGTERM ignored" wait_until 30 ended prog
	check "…by SIGTERM's default action" test "$(cat "$T/prog.rc" 2>/dev/null)" = 143
	sweep
else
	not_ok "build a driver that hangs"
fi

# --- the running record -------------------------------------------------------------------------
# A killed writer's record whose pid now belongs to another process (here this shell) is stale:
# no writer holds the store's lock.
printf '{"command":"update","step":"downloading","percent":40,"pid":%d}\n' $$ >"$STORE/running"
check "a stale record whose pid lives on is not shown" \
	test "$(ctl mesa status --json | json 'd["op"], d["state"], d["progress"]')" = "('', 'idle', 0)"
rm -f "$STORE/running"
done_testing
