#!/bin/sh
# A second writer, a killed writer and a full disk: each ends in a sentence and the store as it was.
. "$TB_TOP/tests/lib.sh"

R1=$(standin 2026.10.06)
expect_exit 0 "install-local" ctl mesa install-local "$R1" --no-smoke
cp -r "$STORE" "$T/before"
snapshot() { (cd "$1" && find . -path ./.lock -prune -o -print | sort && cat state env/*.env 2>/dev/null); }

# A second writer while one holds the lock exits 3 at once: the first is stopped right after
# it took the lock (docs/design.md §14), so it holds it whatever the machine's speed.
check "a writer holds the lock" paused locked "$CTL" --store "$STORE" mesa on
expect_exit 3 "a second writer exits 3" ctl --json mesa on
reason_is busy
check "…saying busy" grep -q "^tb323fu-ctl: busy: " "$T/err"
expect_exit 0 "readers take no lock" ctl mesa status
"$CTL" --store "$STORE" --wait mesa on >"$T/wait.out" 2>&1 &
waiter=$!
# the kernel lists a waiter of a lock with "->" in /proc/locks
waits_for_lock() { grep -q "^[0-9]*: -> FLOCK .* $1 " /proc/locks; }
wait_for "--wait blocks while the lock is held" waits_for_lock "$waiter"
resume
wait "$paused_job"
check "…the holder goes on" test $? -eq 0
wait "$waiter"
check "--wait goes on when the lock is free" test $? -eq 0
ctl mesa off >/dev/null

# A writer killed in the middle of unpacking leaves the old state; the next writer tidies up.
BIG=$(STANDIN_PAD_MB=150 standin 2026.10.20 --commit big)
before=$(snapshot "$STORE")
check "a writer stops in the middle of unpacking" paused unpacking "$CTL" --store "$STORE" mesa install-local "$BIG" --no-smoke
check "…its staging tree is there" test -n "$(find "$STORE/versions" -mindepth 1 -maxdepth 1 -name '.*')"
kill_paused
check "killed while unpacking: status still shows the old version" test "$(ctl mesa status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["installed"])')" = 2026.10.06
check "killed while unpacking: current untouched" test "$(readlink "$STORE/current")" = versions/2026.10.06
expect_exit 0 "the next writer runs" ctl mesa off
check "…and removes the leftovers" test -z "$(find "$STORE/versions" -mindepth 1 -maxdepth 1 -name '.*')"
check "the store is as it was" test "$(snapshot "$STORE")" = "$before"

# kill -9 at each named point of install-local (unpack, checks, env files, the tree's rename,
# the journal, the renames, before pruning): each time the store is whole, old or new, and the
# next writer tidies up.
R2=$(standin 2026.10.07)
whole() {
	cur=$(readlink "$STORE/current") &&
		case $cur in versions/2026.10.06 | versions/2026.10.07) ;; *) return 1 ;; esac &&
		lib=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ICD"]["library_path"])' "$STORE/icd/turnip.json") &&
		test -f "$lib" && test -s "$STORE/env/current.env" &&
		for v in "$STORE/versions"/*; do
			[ -e "$v" ] || [ -L "$v" ] || continue
			"$CTL" --store "$STORE" mesa verify "${v##*/}" >/dev/null 2>&1 || return 1
		done
}
broken=0
landed=0
i=0
# each kill from the same store, so that each install-local brings a new version in (of one
# already there it would only repair, and commit nothing)
rm -rf "$T/base" && cp -a "$STORE" "$T/base"
for point in locked unpacking unpacked version-files placed journal renaming renamed committed; do
	for r in "$R2" "$R2"; do
		rm -rf "$STORE" && cp -a "$T/base" "$STORE"
		i=$((i + 1))
		if paused "$point" "$CTL" --store "$STORE" mesa install-local "$r" --no-smoke; then
			landed=$((landed + 1))
		else
			echo "# kill $i: install-local ended before $point: $(cat "$T/paused.err")"
		fi
		kill_paused
		whole || { broken=$((broken + 1)); echo "# not whole after kill $i at $point: $(ls -A "$STORE" "$STORE/versions" | tr '\n' ' ')"; }
		"$CTL" --store "$STORE" mesa status >/dev/null 2>&1 || broken=$((broken + 1))
	done
done
check "18 kills, two at each point of install-local: every one landed there" test "$landed" -eq 18
check "…and the store was whole every time" test "$broken" -eq 0
ctl mesa off >/dev/null
check "…and the next writer left no temporaries" test -z "$(find "$STORE" -name '.*tmp*')"
# a writer killed while writing a version's ICD file or a release's SHA256SUMS leaves its
# temporary one level down; the next writer removes those too
v1=$(ls "$STORE/icd/versions" | head -n 1)
mkdir -p "$STORE/cache/mesa-$v1"
: >"$STORE/icd/versions/$v1/.turnip.json.tmp.4242"
: >"$STORE/cache/mesa-$v1/.SHA256SUMS.tmp.4242"
ctl mesa on >/dev/null
check "temporaries in icd/versions/<v>/ and cache/<tag>/ are removed by the next writer" \
	test -z "$(find "$STORE" -name '.*tmp*')"

# A full disk: a small tmpfs as the store.
if mkdir -p "$T/small" && mount -t tmpfs -o size=20m tmpfs "$T/small" 2>/dev/null; then
	small="$T/small/store"
	"$CTL" --store "$small" mesa install-local "$R1" --no-smoke >/dev/null 2>&1
	sb=$(snapshot "$small")
	run_cmd "$CTL" --store "$small" mesa install-local "$BIG" --no-smoke
	check "a full disk exits 1" test "$rc" -eq 1
	check "…saying the disk is full and what to do" grep -q "disk is full.*free some space" "$T/err"
	check "…leaving the store as it was" test "$(snapshot "$small")" = "$sb"
	umount "$T/small"
else
	skip "a full disk" "cannot mount a tmpfs here"
fi
done_testing
