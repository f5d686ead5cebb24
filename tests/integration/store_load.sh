#!/bin/sh
# Readers under load: status --json polled by many readers while installs, rollbacks and
# app set run, and a writer is killed at each test point (docs/design.md §14). Every answer
# is one valid JSON object with exactly status's keys, naming versions the store had and a
# state of §9; writers started together serialize on the lock and none of their work is
# lost. The counts are exact (every reader makes at least TB_LOAD_POLLS answers, all of them
# checked) and nothing depends on how fast the machine is: the readers go on until the last
# writer is done, whenever that is. The full tier's form: 8 readers as fast as they can (on two
# cores they starve the writers and every test running beside them: minutes in a whole run);
# the quick tier's: 4 readers, each 50 answers a second at most. The long form by hand:
# TB_LOAD_READERS=50 TB_LOAD_HZ=20.
. "$TB_TOP/tests/lib.sh"
. "$TB_TOP/tests/app-lib.sh"

if [ "$TB_TIER" = full ]; then
	readers=${TB_LOAD_READERS:-8}
	hz=${TB_LOAD_HZ:-0} # 0: as fast as each reader can
else
	readers=${TB_LOAD_READERS:-4}
	hz=${TB_LOAD_HZ:-50}
fi
polls=${TB_LOAD_POLLS:-20}
printf 'keep_versions = 20\n' >"$TB323FU_MESA_CONFIG"
R1=$(tiny_release 2026.1.1 "$T/r1") && R2=$(tiny_release 2026.2.1 "$T/r2") ||
	{ not_ok "tiny releases"; done_testing; exit 1; }
versions="2026.1.1 2026.2.1"
POINTS="locked unpacking unpacked version-files placed journal renaming renamed committed"
i=0
for p in $POINTS; do
	i=$((i + 1))
	tiny_release "2026.3.$i" "$T/r3.$i" >"$T/r3.$i.path" || { not_ok "tiny release 2026.3.$i"; done_testing; exit 1; }
	versions="$versions 2026.3.$i"
done
APPS_N=5
for k in $(seq 1 $APPS_N); do
	entry "org.example.Load$k.desktop" '[Desktop Entry]' 'Type=Application' "Name=Load $k" "Exec=load$k"
done
expect_exit 0 "install-local 2026.1.1" ctl mesa install-local "$R1" --no-smoke
# truth: current after each writer, in order (the readers' view is checked against it)
truth() { "$CTL" --store "$STORE" --json mesa status | json_strict - 'd["installed"]' >>"$T/truth"; }
truth

# --- the readers
mkdir "$T/answers"
: >"$T/writers-running"
pause=
[ "$hz" -gt 0 ] && pause=$(python3 -c "print(1 / $hz)")
for r in $(seq 1 "$readers"); do
	(
		n=0
		while [ -e "$T/writers-running" ] || [ $n -lt "$polls" ]; do
			"$CTL" --store "$STORE" --json mesa status >"$T/answers/r$r.$n" 2>/dev/null
			echo $? >"$T/answers/r$r.$n.rc"
			n=$((n + 1))
			[ -z "$pause" ] || sleep "$pause"
		done
		echo $n >"$T/answers/r$r.count"
	) &
	TB_KILL_ON_EXIT="${TB_KILL_ON_EXIT:-} $!"
	reader_pids="${reader_pids:-} $!"
done

# --- the writers, meanwhile
expect_exit 0 "install-local 2026.2.1 while they read" ctl --wait mesa install-local "$R2" --no-smoke
truth
expect_exit 0 "on" ctl --wait mesa on
expect_exit 0 "rollback" ctl --wait mesa rollback
truth
# started together: they take the lock one after the other, and every rule is kept
pids=
for k in $(seq 1 $APPS_N); do
	"$CTL" --store "$STORE" --wait mesa app set "org.example.Load$k" distro >"$T/set$k.out" 2>&1 &
	pids="$pids $!"
done
ok_sets=0
for p in $pids; do wait "$p" && ok_sets=$((ok_sets + 1)); done
check "$APPS_N app set started together all succeed (they serialize)" test $ok_sets -eq $APPS_N
check "…no rule is lost" test "$(grep -c '^org.example.Load[0-9]*.desktop=distro$' "$STORE/app-rules")" -eq $APPS_N
check "…nor an entry" test "$(ls "$LOCAL_APPS"/org.example.Load*.desktop | wc -l)" -eq $APPS_N
# a writer killed at each test point; the next writer finishes or clears what it left
i=0
killed=0
for p in $POINTS; do
	i=$((i + 1))
	if paused "$p" "$CTL" --store "$STORE" --wait mesa install-local "$(cat "$T/r3.$i.path")" --no-smoke; then
		kill_paused
		killed=$((killed + 1))
	else
		not_ok "install-local 2026.3.$i reached $p" "$(cat "$T/paused.err")"
		continue
	fi
	expect_exit 0 "…killed at $p: the next writer (keep) goes on" ctl --wait mesa keep
	truth
done
for p in journal renaming; do
	if paused "$p" "$CTL" --store "$STORE" --wait mesa rollback; then
		kill_paused
		killed=$((killed + 1))
	fi
	expect_exit 0 "rollback killed at $p: the next writer goes on" ctl --wait mesa keep
	truth
done
if paused locked "$CTL" --store "$STORE" --wait mesa app unset org.example.Load1; then
	kill_paused
	killed=$((killed + 1))
fi
expect_exit 0 "app unset killed once it held the lock: done again" ctl --wait mesa app unset org.example.Load1
check "…and only that rule is gone" test "$(grep -c '^org.example.Load' "$STORE/app-rules")" -eq $((APPS_N - 1))
check "a writer was killed at each of the $(echo $POINTS | wc -w) points, and 3 more" test $killed -eq $(($(echo $POINTS | wc -w) + 3))
rm -f "$T/writers-running"
for p in $reader_pids; do wait "$p"; done

# --- every answer
# shellcheck disable=SC2086
run_cmd python3 "$TB_TOP/tests/tools/status_answers.py" "$T/answers" "$T/truth" $versions
check "every answer of every reader is valid JSON with status's keys, versions the store had, a state of §9, and current as the store went" test "$rc" -eq 0
read -r seen answers _ <"$T/out"
check "…$seen readers, $answers answers, each at least $polls" test "${seen:-0}" -eq "$readers" -a "${answers:-0}" -ge $((readers * polls))
echo "# $seen readers made $answers answers (at least $polls each${pause:+, $hz a second each}) while $((APPS_N + 3)) writers ran and $killed were killed"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T/out" | head -20
check "the store went through $(sort -u "$T/truth" | wc -l) versions as current" test "$(sort -u "$T/truth" | wc -l)" -ge 3
done_testing
